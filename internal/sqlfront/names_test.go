package sqlfront

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// nameCase is a statement with a bad name and MariaDB 10.11's answer to it
// (recorded over go-sql-driver; where HandlerDB differs, the comment says
// what MariaDB answers).
type nameCase struct {
	stmt  string
	num   uint16
	state string
	msg   string
}

func bq(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// (The names of views and routines reach the backend lower-cased by
// go-mysql-server, which turns bytes that are not UTF-8 into U+FFFD: such
// a name is stored changed, where MariaDB answers 1300.)
func nameCases() []nameCase {
	x65, e65 := strings.Repeat("x", 65), strings.Repeat("é", 65)
	return []nameCase{
		{"CREATE DATABASE " + bq("\xff\xfe"), 1300, "HY000", `Invalid utf8mb4 character string: '\xFF\xFE'`},
		{"CREATE DATABASE " + bq("a\xffb"), 1300, "HY000", `Invalid utf8mb4 character string: 'a\xFFb'`},
		{"CREATE DATABASE " + bq("a\U0001F600"), 1300, "HY000", `Invalid utf8mb4 character string: 'a\xF0\x9F\x98\x80'`},
		{"CREATE DATABASE " + bq(""), 1102, "42000", "Incorrect database name ''"},
		{"CREATE DATABASE " + bq(" "), 1102, "42000", "Incorrect database name ' '"},
		{"CREATE DATABASE " + bq("a "), 1102, "42000", "Incorrect database name 'a '"},
		{"CREATE DATABASE " + bq(x65), 1102, "42000", "Incorrect database name '" + x65 + "'"},
		// MariaDB cuts the name in this message.
		{"CREATE DATABASE " + bq(e65), 1102, "42000", "Incorrect database name '" + e65 + "'"},
		// MariaDB's parser stops at the NUL: 1064.
		{"CREATE DATABASE " + bq("a\x00b"), 1102, "42000", "Incorrect database name 'a\x00b'"},

		{"CREATE TABLE " + bq("a\xffb") + " (id INT)", 1300, "HY000", `Invalid utf8mb4 character string: 'a\xFFb'`},
		{"CREATE TABLE " + bq("a ") + " (id INT)", 1103, "42000", "Incorrect table name 'a '"},
		{"CREATE TABLE " + bq("") + " (id INT)", 1103, "42000", "Incorrect table name ''"},
		// go-mysql-server refuses names longer than 64 bytes first; MariaDB
		// answers 1103 for a table name.
		{"CREATE TABLE " + bq(x65) + " (id INT)", 1059, "42000", "Identifier name '" + x65 + "' is too long"},
		{"CREATE TABLE c (" + bq("a\xffb") + " INT)", 1300, "HY000", `Invalid utf8mb4 character string: 'a\xFFb'`},
		{"CREATE TABLE c (" + bq("a ") + " INT)", 1166, "42000", "Incorrect column name 'a '"},
		{"CREATE TABLE c (" + bq("") + " INT)", 1166, "42000", "Incorrect column name ''"},
		{"CREATE TABLE c (" + bq(x65) + " INT)", 1059, "42000", "Identifier name '" + x65 + "' is too long"},
		{"ALTER TABLE base ADD COLUMN " + bq("a ") + " INT", 1166, "42000", "Incorrect column name 'a '"},
		{"ALTER TABLE base ADD COLUMN " + bq("\xff") + " INT", 1300, "HY000", `Invalid utf8mb4 character string: '\xFF'`},
		{"ALTER TABLE base CHANGE COLUMN v " + bq(" ") + " INT", 1166, "42000", "Incorrect column name ' '"},
		{"CREATE INDEX " + bq("a ") + " ON base (v)", 1280, "42000", "Incorrect index name 'a '"},
		{"CREATE INDEX " + bq("a\xffb") + " ON base (v)", 1300, "HY000", `Invalid utf8mb4 character string: 'a\xFFb'`},
		{"ALTER TABLE base ADD INDEX " + bq("\U0001F600") + " (v)", 1300, "HY000", `Invalid utf8mb4 character string: '\xF0\x9F\x98\x80'`},
		{"CREATE INDEX " + bq(x65) + " ON base (v)", 1059, "42000", "Identifier name '" + x65 + "' is too long"},
		{"RENAME TABLE base TO " + bq("a "), 1103, "42000", "Incorrect table name 'a '"},
		{"RENAME TABLE base TO " + bq("\xfe"), 1300, "HY000", `Invalid utf8mb4 character string: '\xFE'`},
		{"CREATE VIEW " + bq("a ") + " AS SELECT 1", 1103, "42000", "Incorrect table name 'a '"},
		{"CREATE PROCEDURE " + bq("a ") + "() SELECT 1", 1458, "42000", "Incorrect routine name 'a '"},
		{"CREATE TRIGGER " + bq("a ") + " BEFORE INSERT ON base FOR EACH ROW SET @x = 1", 1458, "42000", "Incorrect routine name 'a '"},
	}
}

// TestIdentifierChecks sends each bad name over the wire and compares the
// error with MariaDB's; the listings keep working.
func TestIdentifierChecks(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE idents", "CREATE TABLE idents.base (id INT PRIMARY KEY, v INT)")
	db := ts.open("idents")
	db.SetMaxOpenConns(1)
	for _, c := range nameCases() {
		_, err := db.Exec(c.stmt)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != c.num || string(me.SQLState[:]) != c.state || me.Message != c.msg {
			t.Errorf("%q:\n got %v\nwant %d (%s): %s", c.stmt, err, c.num, c.state, c.msg)
		}
	}
	// Good names, at the limits.
	e64 := strings.Repeat("é", 64)
	mustExec(t, db,
		"CREATE DATABASE "+bq(e64),
		"CREATE DATABASE "+bq(" lead"),
		"CREATE TABLE "+bq("tab\tle")+" ("+bq("a b")+" INT, "+bq(strings.Repeat("c", 64))+" INT)",
		"CREATE INDEX "+bq("ix.1")+" ON base (v)",
		"ALTER TABLE base CHANGE COLUMN v "+bq("v\u00a0")+" INT")
	expectRows(t, db, "SHOW DATABASES LIKE '%lead'", " lead")
	for _, q := range []string{"SHOW DATABASES", "SELECT * FROM information_schema.schemata",
		"SELECT * FROM information_schema.tables", "SELECT * FROM information_schema.columns", "SHOW TABLES"} {
		if _, err := queryStrings(db, q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
}

// TestUnlistableNamesStored: names stored before the checks (written here
// through the engine) that are not valid UTF-8 are left out of the
// listings, which keep working, and can still be dropped by name.
func TestUnlistableNamesStored(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	db.SetMaxOpenConns(1)
	mustExec(t, db, "CREATE DATABASE ok")
	col := func(name string) types.Column {
		return types.Column{Name: name, Type: types.Type{Kind: types.Int}, Nullable: true}
	}
	err := ts.e.Update(context.Background(), func(tx *engine.Job) error {
		if err := tx.CreateDatabase("bad\xff"); err != nil {
			return err
		}
		if _, err := tx.CreateTable("ok", &engine.TableDef{Name: "t\xfe", Columns: []types.Column{col("a")}}); err != nil {
			return err
		}
		_, err := tx.CreateTable("ok", &engine.TableDef{Name: "c", Columns: []types.Column{col("a\xfd")}})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	mustExec(t, db, "CREATE TABLE ok.good (id INT)")
	for _, q := range []string{"SHOW DATABASES", "SELECT * FROM information_schema.schemata",
		"SELECT * FROM information_schema.tables", "SELECT * FROM information_schema.columns"} {
		if _, err := queryStrings(db, q); err != nil {
			t.Errorf("%s: %v", q, err)
		}
	}
	expectRows(t, db, "SHOW DATABASES LIKE 'bad%'")
	expectRows(t, db, "SHOW TABLES FROM ok", "good")
	mustExec(t, db, "DROP DATABASE "+bq("bad\xff"), "DROP TABLE ok."+bq("t\xfe"), "DROP TABLE ok.c")
	if _, err := ts.e.Catalog().Database("bad\xff"); err == nil {
		t.Error("bad database still there")
	}
}
