package sqlfront

import (
	"context"
	gosql "database/sql"
	"strings"
	"testing"
)

// Stored functions are kept across a restart (the database's SQL objects
// record): they are called, shown and listed after it as before, and a
// DROP FUNCTION is kept too.
func TestStoredFunctionsSurviveRestart(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE fn")
	c := ts.conn("fn")
	mustExec(t, c,
		"CREATE TABLE t (id INT PRIMARY KEY, qty INT)",
		"INSERT INTO t VALUES (1, 10), (2, 70)",
		"CREATE DEFINER=`root`@`localhost` FUNCTION `capped`(q INT) RETURNS int(11)\n    READS SQL DATA\n    DETERMINISTIC\n    COMMENT 'at most 100'\n"+
			"BEGIN\n  DECLARE r INT;\n  SET r = q * 2;\n  IF r > 100 THEN\n    RETURN 100;\n  END IF;\n  RETURN r;\nEND",
		"CREATE FUNCTION qty_of(i INT) RETURNS INT READS SQL DATA BEGIN DECLARE n INT; SELECT qty INTO n FROM t WHERE id = i; RETURN n; END",
		"CREATE FUNCTION gone(x INT) RETURNS INT RETURN x",
	)
	check := func(c *gosql.Conn) {
		t.Helper()
		expectRows(t, c, "SELECT id, capped(qty), qty_of(id) FROM t ORDER BY id", "1|20|10", "2|100|70")
		expectRows(t, c, "SELECT ROUTINE_NAME, ROUTINE_TYPE, IS_DETERMINISTIC, ROUTINE_COMMENT FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'fn' ORDER BY 1",
			"capped|FUNCTION|YES|at most 100", "gone|FUNCTION|NO|", "qty_of|FUNCTION|NO|")
		var name, mode, text, cs, coll, dbColl string
		if err := c.QueryRowContext(context.Background(), "SHOW CREATE FUNCTION capped").Scan(&name, &mode, &text, &cs, &coll, &dbColl); err != nil {
			t.Fatal(err)
		}
		want := "CREATE DEFINER=`root`@`localhost` FUNCTION `capped`(q INT) RETURNS int(11)\n    READS SQL DATA\n    DETERMINISTIC\n    COMMENT 'at most 100'\nBEGIN\n"
		if name != "capped" || !strings.HasPrefix(text, want) || !strings.HasSuffix(text, "RETURN r;\nEND") {
			t.Errorf("SHOW CREATE FUNCTION capped: %q, %q", name, text)
		}
	}
	check(c)
	mustExec(t, c, "DROP FUNCTION gone")

	dir := ts.dir
	ts.stop()
	ts = startTestServer(t, dir, Config{})
	c = ts.conn("fn")
	expectRows(t, c, "SELECT ROUTINE_NAME FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'fn' ORDER BY 1", "capped", "qty_of")
	if _, err := c.ExecContext(context.Background(), "SELECT gone(1)"); err == nil || !strings.Contains(err.Error(), "1305") {
		t.Fatalf("dropped function after restart: %v, want error 1305", err)
	}
	mustExec(t, c, "CREATE FUNCTION gone(x INT) RETURNS INT RETURN x")
	check(c)
}
