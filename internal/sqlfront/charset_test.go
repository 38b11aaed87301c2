package sqlfront

import (
	"errors"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
)

// wantSQLError fails the test unless q fails with MySQL error num and a
// message containing msg.
func wantSQLError(tb testing.TB, db execer, q string, num uint16, msg string) {
	tb.Helper()
	_, err := queryStrings(db, q)
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != num || !strings.Contains(me.Message, msg) {
		tb.Fatalf("%s: %v, want error %d %q", q, err, num, msg)
	}
}

// Prefix indexes over a real server: a latin1 VARCHAR(1000) takes a
// 300-character prefix (go-mysql-server alone refuses it), a prefix
// primary key refuses a second row of the same prefix with MariaDB's
// 1062, lookups recheck the full value, and the prefixes are shown and
// survive a restart.
func TestPrefixIndexes(t *testing.T) {
	dir := t.TempDir()
	ts := startTestServer(t, dir, Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE pf")
	db := ts.open("pf")
	mustExec(t, db,
		"CREATE TABLE a (v1 VARCHAR(1000), v2 INT, KEY (v2, v1(300))) CHARSET=latin1",
		"INSERT INTO a VALUES (REPEAT('x', 400), 1), (CONCAT(REPEAT('x', 300), 'y'), 1)",
		"CREATE TABLE p (k VARCHAR(20) NOT NULL, v INT, PRIMARY KEY (k(5)))",
		"INSERT INTO p VALUES ('abcdefg', 1), ('abcd', 2), ('abcz', 3)",
	)
	wantSQLError(t, db, "INSERT INTO p VALUES ('abcdexx', 9)", 1062, "Duplicate entry 'abcde' for key 'PRIMARY'")
	expectRows(t, db, "SELECT LENGTH(v1) FROM a WHERE v2 = 1 AND v1 = REPEAT('x', 400)", "400")
	expectRows(t, db, "SELECT * FROM p WHERE k = 'abcdexx'")
	expectRows(t, db, "SELECT * FROM p WHERE k = 'abcdefg'", "abcdefg|1")
	expectRows(t, db, "SELECT k FROM p WHERE k > 'abcde' ORDER BY k", "abcdefg", "abcz")
	expectRows(t, db, "SELECT k FROM p WHERE k IN ('abcdefg', 'abcdexx', 'abcz') ORDER BY k", "abcdefg", "abcz")
	wantSQLError(t, db, "CREATE TABLE e1 (v VARCHAR(10), KEY (v(20)))", 1089, "Incorrect prefix key")
	wantSQLError(t, db, "CREATE TABLE e2 (v INT, KEY (v(2)))", 1089, "Incorrect prefix key")
	wantSQLError(t, db, "CREATE TABLE e3 (a VARCHAR(800), b INT, PRIMARY KEY (a(768), b))", 1071, "max key length is 3072 bytes")
	wantSQLError(t, db, "CREATE TABLE e4 (v CHAR(10), KEY (v(0)))", 1391, "Key part 'v' length cannot be 0")
	expectRows(t, db, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'pf' AND TABLE_NAME LIKE 'e%'", "0")
	show := func() {
		t.Helper()
		rows := queryRows(t, db, "SHOW CREATE TABLE p")
		if !strings.Contains(rows[0], "PRIMARY KEY (`k`(5))") {
			t.Fatalf("SHOW CREATE TABLE p: %q", rows)
		}
		rows = queryRows(t, db, "SHOW CREATE TABLE a")
		if !strings.Contains(rows[0], "KEY `v2` (`v2`,`v1`(300))") {
			t.Fatalf("SHOW CREATE TABLE a: %q", rows)
		}
		expectRows(t, db, "SELECT INDEX_NAME, COLUMN_NAME, SUB_PART FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'pf' AND TABLE_NAME = 'p'", "PRIMARY|k|5")
		// SHOW INDEX: Sub_part is the eighth column.
		var subParts []string
		for _, r := range queryRows(t, db, "SHOW INDEX FROM a") {
			subParts = append(subParts, strings.Split(r, "|")[7])
		}
		if strings.Join(subParts, ",") != "NULL,300" {
			t.Fatalf("SHOW INDEX FROM a: Sub_part %q, want NULL,300", subParts)
		}
	}
	show()
	ts.stop()
	ts = startTestServer(t, dir, Config{})
	db = ts.open("pf")
	show()
	wantSQLError(t, db, "INSERT INTO p VALUES ('ABCDEF', 9)", 1062, "Duplicate entry 'ABCDE' for key 'PRIMARY'")
}

// A database's default character set is stored and inherited: CHAR(10)
// in a binary database is BINARY(10), a latin1 database's tables are
// latin1, ALTER DATABASE changes the default for later tables, and it all
// survives a restart.
func TestDatabaseCharset(t *testing.T) {
	dir := t.TempDir()
	ts := startTestServer(t, dir, Config{})
	root := ts.open("")
	mustExec(t, root,
		"CREATE DATABASE b DEFAULT CHARACTER SET binary",
		"CREATE DATABASE l CHARACTER SET latin1",
		"CREATE TABLE b.t (c CHAR(10), v VARCHAR(10), x TEXT)",
		"CREATE TABLE l.t (c CHAR(10))",
		"ALTER DATABASE l CHARACTER SET utf8mb4",
		"CREATE TABLE l.t2 (c CHAR(10))",
	)
	check := func() {
		t.Helper()
		expectRows(t, root, "SHOW CREATE DATABASE b", "b|CREATE DATABASE `b` /*!40100 DEFAULT CHARACTER SET binary */")
		expectRows(t, root, "SHOW CREATE DATABASE l", "l|CREATE DATABASE `l` /*!40100 DEFAULT CHARACTER SET utf8mb4 COLLATE utf8mb4_general_ci */")
		expectRows(t, root, "SELECT SCHEMA_NAME, DEFAULT_COLLATION_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME IN ('b', 'l') ORDER BY 1", "b|binary", "l|utf8mb4_general_ci")
		expectRows(t, root, "SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'b' AND TABLE_NAME = 't' ORDER BY ORDINAL_POSITION", "binary(10)", "varbinary(10)", "blob")
		expectRows(t, root, "SELECT TABLE_NAME, TABLE_COLLATION FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'l' ORDER BY 1", "t|latin1_swedish_ci", "t2|utf8mb4_general_ci")
		c := ts.conn("b")
		expectRows(t, c, "SELECT @@character_set_database, @@collation_database", "binary|binary")
	}
	check()
	ts.stop()
	ts = startTestServer(t, dir, Config{})
	root = ts.open("")
	check()
}

// TestInvalidUTF8Literal: text that is not UTF-8 in a SELECT on a utf8mb4
// connection comes back as its bytes, as MariaDB sends it (go-mysql-
// server failed the statement with "invalid string for charset
// utf8mb4"); storing it in a utf8mb4 column is still refused. (CONCAT
// of such text still fails: go-mysql-server converts its arguments to
// UTF-8 text first.)
func TestInvalidUTF8Literal(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.rawConn()
	for run := 0; run < 2; run++ { // (the second run is the plan cache's)
		r, err := c.ExecuteFetch("SELECT 'a\x82a', HEX('a\x82a'), LENGTH('a\x82a')", 10, false)
		if err != nil {
			t.Fatalf("run %d: %v", run, err)
		}
		if got := []string{r.Rows[0][0].ToString(), r.Rows[0][1].ToString(), r.Rows[0][2].ToString()}; got[0] != "a\x82a" || got[1] != "618261" || got[2] != "3" {
			t.Fatalf("run %d: %q", run, got)
		}
	}
	for _, q := range []string{"CREATE DATABASE iu", "CREATE TABLE iu.t (id INT PRIMARY KEY, s VARCHAR(10))"} {
		if _, err := c.ExecuteFetch(q, 10, false); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := c.ExecuteFetch("INSERT INTO iu.t VALUES (1, 'a\x82a')", 10, false); err == nil {
		t.Fatal("invalid UTF-8 stored in a utf8mb4 column")
	}
}
