package sqlfront

import (
	"context"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/mariadb"
)

// showCreate returns the CREATE TABLE text SHOW CREATE TABLE prints.
func showCreate(t *testing.T, db execer, table string) string {
	t.Helper()
	r := queryRows(t, db, "SHOW CREATE TABLE "+table)
	if len(r) != 1 {
		t.Fatalf("SHOW CREATE TABLE %s: %q", table, r)
	}
	_, def, _ := strings.Cut(r[0], "|")
	return def
}

func wantContains(t *testing.T, what, got string, want ...string) {
	t.Helper()
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("%s: %q lacks %q", what, got, w)
		}
	}
}

// YEAR(4) is YEAR, as in MySQL and MariaDB, and SHOW CREATE TABLE prints
// year(4) as MariaDB does; YEAR(x) the function is untouched.
func TestYearDisplayWidth(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db,
		"CREATE DATABASE y",
		"CREATE TABLE y.t (id INT PRIMARY KEY, a YEAR(4) NOT NULL, b YEAR, `year` year ( 4 ) DEFAULT '2001')",
		"ALTER TABLE y.t ADD COLUMN c YEAR(4)",
		"INSERT INTO y.t (id, a, b, c) VALUES (1, 2024, 1999, '2030')",
		"CREATE TABLE y.`odd (4)` (s VARCHAR(20) DEFAULT 'YEAR(4)', d DATE, CHECK (YEAR(d) > 1900))",
		"CREATE PROCEDURE y.p(IN v YEAR(4)) BEGIN DECLARE w YEAR(4); SELECT 'ok'; END",
	)
	expectRows(t, db, "SELECT a, b, `year`, c FROM y.t", "2024|1999|2001|2030")
	expectRows(t, db, "SELECT YEAR('2024-05-01'), YEAR(4)", "2024|NULL")
	wantContains(t, "SHOW CREATE TABLE", showCreate(t, db, "y.t"),
		"`a` year(4) NOT NULL,", "`b` year(4) DEFAULT NULL,", "`year` year(4) DEFAULT 2001,", "`c` year(4) DEFAULT NULL")
	wantContains(t, "SHOW CREATE TABLE", showCreate(t, db, "y.`odd (4)`"), "DEFAULT 'YEAR(4)'", "year(`d`)")
	// (Not SELECT w: go-mysql-server prints a YEAR variable wrongly.)
	expectRows(t, db, "CALL y.p(2020)", "ok")
}

// CREATE SCHEMA is CREATE DATABASE, with or without a current database.
func TestCreateSchemaWithoutDatabase(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db,
		"CREATE SCHEMA s1",
		"CREATE SCHEMA IF NOT EXISTS s1",
		"CREATE DATABASE s2",
		"CREATE SCHEMA IF NOT EXISTS s3 DEFAULT CHARACTER SET utf8mb4",
		"CREATE TABLE s1.t (id INT PRIMARY KEY)",
	)
	if _, err := db.Exec("CREATE SCHEMA s1"); err == nil || !strings.Contains(err.Error(), "1007") {
		t.Fatalf("second CREATE SCHEMA s1: %v, want error 1007", err)
	}
	expectRows(t, db, "SELECT schema_name FROM information_schema.schemata WHERE schema_name LIKE 's_' ORDER BY 1", "s1", "s2", "s3")
	in := ts.open("s1")
	mustExec(t, in, "CREATE SCHEMA s4", "DROP SCHEMA s4")
	expectRows(t, db, "SHOW TABLES FROM s1", "t")
}

// CREATE VIEW as mysqldump writes it, and DEFINER=CURRENT_USER.
func TestCreateViewDefinerClauses(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE v", "CREATE TABLE v.p (id INT PRIMARY KEY)", "INSERT INTO v.p VALUES (1)")
	d := ts.open("v")
	mustExec(t, d,
		"CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW v1 AS select `p`.`id` AS `id` from `p`",
		"CREATE DEFINER=CURRENT_USER SQL SECURITY DEFINER VIEW v2 AS SELECT id FROM p",
		"CREATE ALGORITHM=UNDEFINED DEFINER = current_user() VIEW v3 AS SELECT id + 1 AS n FROM p",
		"/*!50001 CREATE ALGORITHM=UNDEFINED */\n/*!50013 DEFINER=CURRENT_USER SQL SECURITY DEFINER */\n/*!50001 VIEW `v4` AS select `p`.`id` AS `id` from `p` */",
		"CREATE DEFINER=CURRENT_USER TRIGGER tr BEFORE INSERT ON p FOR EACH ROW SET NEW.id = NEW.id",
	)
	expectRows(t, d, "SELECT (SELECT id FROM v1), (SELECT id FROM v2), (SELECT n FROM v3), (SELECT id FROM v4)", "1|1|2|1")
	// A string that looks like the clause is data, not syntax.
	expectRows(t, d, "SELECT 'DEFINER=CURRENT_USER'", "DEFINER=CURRENT_USER")
}

// FOREIGN KEY constraints are accepted with foreign_key_checks 0 and 1,
// kept, printed as MariaDB prints them, and enforced (before and after a
// restart).
func TestForeignKeysStoredAndShown(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE f")
	c := ts.conn("f")
	mustExec(t, c,
		"SET foreign_key_checks = 0",
		"CREATE TABLE c0 (id INT PRIMARY KEY, a INT, CONSTRAINT fk FOREIGN KEY (a) REFERENCES p (id))",
		"SET foreign_key_checks = 1",
		"CREATE TABLE p (id INT PRIMARY KEY)",
		"CREATE TABLE p2 (x INT, y INT, PRIMARY KEY (x, y))",
		"CREATE TABLE c1 (id INT PRIMARY KEY, a INT, KEY ka (a), CONSTRAINT `fk1` FOREIGN KEY (a) REFERENCES p (id) ON DELETE CASCADE)",
		"CREATE TABLE c2 (id INT PRIMARY KEY, a INT, FOREIGN KEY (a) REFERENCES p (id))",
		"CREATE TABLE c3 (id INT PRIMARY KEY, a INT, b INT, CONSTRAINT fk3 FOREIGN KEY (a, b) REFERENCES p2 (x, y) ON DELETE RESTRICT ON UPDATE CASCADE)",
	)
	want := map[string][]string{
		"c0": {"KEY `fk` (`a`)", "CONSTRAINT `fk` FOREIGN KEY (`a`) REFERENCES `p` (`id`)\n)"},
		"c1": {"KEY `ka` (`a`)", "CONSTRAINT `fk1` FOREIGN KEY (`a`) REFERENCES `p` (`id`) ON DELETE CASCADE\n)"},
		"c2": {"KEY `a` (`a`)", "CONSTRAINT `c2_ibfk_1` FOREIGN KEY (`a`) REFERENCES `p` (`id`)\n)"},
		"c3": {"KEY `fk3` (`a`,`b`)", "CONSTRAINT `fk3` FOREIGN KEY (`a`, `b`) REFERENCES `p2` (`x`, `y`) ON UPDATE CASCADE\n)"},
	}
	check := func(db execer) {
		t.Helper()
		for tbl, w := range want {
			wantContains(t, "SHOW CREATE TABLE "+tbl, showCreate(t, db, "f."+tbl), w...)
		}
	}
	check(c)

	// Enforced on SQL writes with foreign_key_checks=1: a child row needs
	// its parent, a parent row keeps its children; 0 turns that off.
	mustExec(t, c, "INSERT INTO p VALUES (1)", "INSERT INTO c2 VALUES (1, 1)")
	if _, err := c.ExecContext(context.Background(), "INSERT INTO c2 VALUES (2, 5)"); err == nil || !strings.Contains(err.Error(), "1452") {
		t.Fatalf("child row without parent: %v, want error 1452", err)
	}
	if _, err := c.ExecContext(context.Background(), "DELETE FROM p WHERE id = 1"); err == nil || !strings.Contains(err.Error(), "1451") {
		t.Fatalf("parent row with children: %v, want error 1451", err)
	}
	mustExec(t, c, "SET foreign_key_checks = 0", "INSERT INTO c2 VALUES (3, 5)", "DELETE FROM p WHERE id = 1", "SET foreign_key_checks = 1")
	expectRows(t, c, "SELECT id, a FROM c2 ORDER BY id", "1|1", "3|5")
	expectRows(t, c, "SELECT constraint_name, table_name, referenced_table_name FROM information_schema.referential_constraints WHERE constraint_schema = 'f' ORDER BY 1",
		"c2_ibfk_1|c2|p", "fk|c0|p", "fk1|c1|p", "fk3|c3|p2")
	// Re-adding the key checks the rows, as in MySQL: orphans refuse it.
	mustExec(t, c, "ALTER TABLE c2 DROP FOREIGN KEY c2_ibfk_1")
	if _, err := c.ExecContext(context.Background(), "ALTER TABLE c2 ADD CONSTRAINT c2_ibfk_1 FOREIGN KEY (a) REFERENCES p (id)"); err == nil {
		t.Fatal("ADD FOREIGN KEY over orphan rows succeeded")
	}
	mustExec(t, c, "SET foreign_key_checks = 0", "ALTER TABLE c2 ADD CONSTRAINT c2_ibfk_1 FOREIGN KEY (a) REFERENCES p (id)", "SET foreign_key_checks = 1")
	check(c)

	// A refused foreign key creates no table, as in MySQL.
	mustExec(t, c, "CREATE TABLE pv (id INT PRIMARY KEY, v VARCHAR(10))")
	for _, q := range []string{
		"CREATE TABLE bad1 (a VARCHAR(10), FOREIGN KEY (a) REFERENCES pv (id))",
		"CREATE TABLE bad2 (a INT, FOREIGN KEY (a) REFERENCES pv (v))",
		"CREATE TABLE bad3 (a INT, FOREIGN KEY (a) REFERENCES nope (id))",
	} {
		if _, err := c.ExecContext(context.Background(), q); err == nil {
			t.Errorf("%s: succeeded", q)
		}
	}
	expectRows(t, c, "SHOW TABLES LIKE 'bad%'")
	mustExec(t, c, "CREATE TABLE good (a INT, FOREIGN KEY (a) REFERENCES pv (id))")
	expectRows(t, c, "SELECT ROW_COUNT()", "0")

	// The constraints survive a restart.
	dir := ts.dir
	ts.stop()
	ts = startTestServer(t, dir, Config{})
	check(ts.open(""))
	// And are enforced after it: ON DELETE CASCADE of c1, RESTRICT of c2.
	c = ts.conn("f")
	mustExec(t, c, "INSERT INTO p VALUES (7)", "INSERT INTO c1 VALUES (1, 7)")
	expectRows(t, c, "SELECT id FROM p ORDER BY id", "7")
	mustExec(t, c, "INSERT INTO c2 VALUES (7, 7)", "DELETE FROM c2 WHERE id = 7",
		"DELETE FROM p WHERE id = 7")
	expectRows(t, c, "SELECT COUNT(*) FROM c1", "0")
	if _, err := c.ExecContext(context.Background(), "INSERT INTO c2 VALUES (8, 8)"); err == nil || !strings.Contains(err.Error(), "1452") {
		t.Fatalf("child row without parent after restart: %v, want error 1452", err)
	}
}

func TestDialectRewrite(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"CREATE TABLE t (a YEAR(4))", "CREATE TABLE t (a YEAR   )"},
		{"alter table t modify `a` year ( 4 ) not null", "alter table t modify `a` year       not null"},
		{"CREATE VIEW v AS SELECT YEAR(4)", ""},
		{"SELECT a YEAR(4)", ""},
		{"CREATE TABLE t (value YEAR(4), d DATE DEFAULT (YEAR(4)))", "CREATE TABLE t (value YEAR   , d DATE DEFAULT (YEAR(4)))"},
		{"CREATE PROCEDURE p() BEGIN IF YEAR(4) THEN SELECT 1; END IF; END", ""},
		{"CREATE TABLE t (s CHAR(9) DEFAULT 'a YEAR(4)') -- b YEAR(4)", ""},
		{"CREATE DEFINER=CURRENT_USER VIEW v AS SELECT 1", "CREATE                      VIEW v AS SELECT 1"},
		{"CREATE DEFINER = CURRENT_USER ( ) VIEW v AS SELECT 1", "CREATE                            VIEW v AS SELECT 1"},
		{"/*!50013 DEFINER=CURRENT_USER SQL SECURITY DEFINER */", "/*!50013                      SQL SECURITY DEFINER */"},
		{"SELECT 'DEFINER=CURRENT_USER'", ""},
		{"CREATE DEFINER=`root`@`localhost` VIEW v AS SELECT 1", ""},
		// DO statements of routine bodies; WHILE's and an event's DO stay.
		{"CREATE PROCEDURE p() BEGIN DO 1; WHILE i < 3 DO DO i; SET i = i + 1; END WHILE; IF a THEN DO 2; ELSE DO 3; END IF; END",
			"CREATE PROCEDURE p() BEGIN SELECT /* handlerdb: do */ 1; WHILE i < 3 DO SELECT /* handlerdb: do */ i; SET i = i + 1; END WHILE; IF a THEN SELECT /* handlerdb: do */ 2; ELSE SELECT /* handlerdb: do */ 3; END IF; END"},
		{"CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO DO SLEEP(1)", "CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO SELECT /* handlerdb: do */ SLEEP(1)"},
		{"CREATE EVENT e ON SCHEDULE EVERY 1 DAY DO INSERT INTO t VALUES (1)", ""},
		{"CREATE PROCEDURE p() BEGIN SELECT 'x; DO 1'; END", ""},
		{"CREATE TABLE t (do INT)", ""},
		// A compound interval unit after INTERVAL expr is quoted (the
		// grammar takes a name there); EXTRACT's is left alone.
		{"SELECT d + INTERVAL '1:30' HOUR_MINUTE, DATE_ADD(d, INTERVAL (a + 1) day_hour), EXTRACT(HOUR_MINUTE FROM d) FROM t",
			"SELECT d + INTERVAL '1:30' `HOUR_MINUTE`, DATE_ADD(d, INTERVAL (a + 1) `day_hour`), EXTRACT(HOUR_MINUTE FROM d) FROM t"},
		{"SELECT hour_minute FROM t", ""},
		// A generated column's expression gets a second pair of
		// parentheses; a query's parentheses in CREATE TABLE go.
		{"CREATE TABLE t (i INT, g INT AS (i > 1) VIRTUAL, h INT GENERATED ALWAYS AS (f(i) = 'a') STORED, c INT CHECK (i > 1))",
			"CREATE TABLE t (i INT, g INT AS ((i > 1)) VIRTUAL, h INT GENERATED ALWAYS AS ((f(i) = 'a')) STORED, c INT CHECK (i > 1))"},
		{"ALTER TABLE t ADD COLUMN m INT AS (-1 < i) PERSISTENT", "ALTER TABLE t ADD COLUMN m INT AS ((-1 < i)) STORED    "},
		{"CREATE TABLE t2 AS (SELECT i, i > 1 AS big FROM t);", "CREATE TABLE t2 AS  SELECT i, i > 1 AS big FROM t ;"},
		{"CREATE TABLE t2 (SELECT (1) AS x)", "CREATE TABLE t2  SELECT (1) AS x "},
		{"CREATE TABLE t2 (SELECT 1) UNION (SELECT 2)", ""},
		{"CREATE VIEW v AS (SELECT 1 AS x)", ""},
	} {
		got, ok := mariadb.DialectRewrite(c.in)
		if c.want == "" {
			if ok || got != c.in {
				t.Errorf("%q rewritten to %q", c.in, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("%q: got %q, want %q", c.in, got, c.want)
		}
	}
}
