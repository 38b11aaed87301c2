package sqlfront

import (
	"context"
	"strings"
	"testing"
)

// TestDDLAttributesAcrossRestart: what go-mysql-server's schema cannot
// hold and the backend keeps beside the table (generated columns, JSON
// columns and their check, a column's CHECK, FULLTEXT indexes, FLOAT(M,D))
// is there, and still works, after a restart.
func TestDDLAttributesAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	ts := startTestServer(t, dir, Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE r",
		"CREATE TABLE r.t (id INT PRIMARY KEY, a INT CHECK (a > 0), g INT AS (a * 2) STORED, j JSON, f FLOAT(6,2), body TEXT, FULLTEXT KEY fb (body), KEY kg (g))",
		"INSERT INTO r.t (id, a, j, f, body) VALUES (1, 2, '{\"k\":  1}', 1.005, 'words')")
	ts.stop()

	ts2 := startTestServer(t, dir, Config{})
	db := ts2.open("r")
	want := "CREATE TABLE `t` (\n" +
		"  `id` int(11) NOT NULL,\n" +
		"  `a` int(11) DEFAULT NULL CHECK (`a` > 0),\n" +
		"  `g` int(11) GENERATED ALWAYS AS (`a` * 2) STORED,\n" +
		"  `j` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`j`)),\n" +
		"  `f` float(6,2) DEFAULT NULL,\n" +
		"  `body` text DEFAULT NULL,\n" +
		"  PRIMARY KEY (`id`),\n" +
		"  KEY `kg` (`g`),\n" +
		"  FULLTEXT KEY `fb` (`body`)\n" +
		") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci"
	if got := queryRows(t, db, "SHOW CREATE TABLE t"); len(got) != 1 || got[0] != "t|"+want {
		t.Fatalf("SHOW CREATE TABLE after restart:\n%s\nwant:\n%s", strings.Join(got, "\n"), want)
	}
	mustExec(t, db, "INSERT INTO t (id, a, j, f) VALUES (2, 5, '[]', 2.5)")
	// (go-sql-driver reads FLOAT values as numbers, 1 for the 1.00 a
	// text client shows, from MariaDB too.)
	expectRows(t, db, "SELECT id, g, j, f FROM t ORDER BY id", "1|4|{\"k\":  1}|1", "2|10|[]|2.5")
	expectRows(t, db, "SELECT id FROM t WHERE g = 10", "2")
	for q, num := range map[string]string{
		"INSERT INTO t (id, a) VALUES (3, -1)":        "4025",
		"INSERT INTO t (id, a, j) VALUES (4, 1, 'x')": "4025",
		"INSERT INTO t (id, a, g) VALUES (5, 1, 2)":   "1906",
	} {
		if _, err := db.Exec(q); err == nil || !strings.Contains(err.Error(), num) {
			t.Errorf("%s: %v, want error %s", q, err, num)
		}
	}
}

// TestUnsignedDecimalAndFloat: DECIMAL, FLOAT and DOUBLE UNSIGNED (and
// ZEROFILL, which implies it) keep UNSIGNED, which go-mysql-server's
// types drop: SHOW CREATE TABLE prints it and a negative value stores as
// 0 with 1264 (an error in strict mode), as MariaDB 10.11 answered the
// same statements. (ZEROFILL's display padding is not kept.)
func TestUnsignedDecimalAndFloat(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE ud", "USE ud",
		"CREATE TABLE f (k INT PRIMARY KEY, a FLOAT UNSIGNED, b DOUBLE(8,2) UNSIGNED, c DECIMAL(5,2) UNSIGNED, e DECIMAL(6,1) ZEROFILL)")
	expectRows(t, c, "SELECT COLUMN_NAME, COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'ud' ORDER BY ORDINAL_POSITION",
		"k|int(11)", "a|float unsigned", "b|double(8,2) unsigned", "c|decimal(5,2) unsigned", "e|decimal(6,1) unsigned")
	mustExec(t, c, "SET sql_mode = ''", "INSERT INTO f VALUES (1, -1.5, -2.5, -3, 5)")
	expectRows(t, c, "SHOW WARNINGS",
		"Warning|1264|Out of range value for column 'a' at row 1",
		"Warning|1264|Out of range value for column 'b' at row 1",
		"Warning|1264|Out of range value for column 'c' at row 1")
	mustExec(t, c, "INSERT INTO f VALUES (2, '-1.5', '-0', '-3', -0.0)")
	expectRows(t, c, "SHOW WARNINGS",
		"Warning|1264|Out of range value for column 'a' at row 1",
		"Warning|1264|Out of range value for column 'c' at row 1")
	mustExec(t, c, "INSERT INTO f VALUES (3, 1, 1, 1, 1), (4, 2, 2, 2, 2)", "UPDATE f SET a = a - 4 WHERE k = 3")
	expectRows(t, c, "SHOW WARNINGS", "Warning|1264|Out of range value for column 'a' at row 1")
	mustExec(t, c, "SET sql_mode = 'STRICT_ALL_TABLES'")
	if _, err := c.ExecContext(context.Background(), "INSERT INTO f VALUES (5, 1, 1, -1, 1)"); sqlErrno(err) != 1264 {
		t.Errorf("strict: %v, want 1264", err)
	}
	expectRows(t, c, "SELECT k, a, b, c, e FROM f ORDER BY k", "1|0|0|0.00|5.0", "2|0|0|0.00|0.0", "3|0|1|1.00|1.0", "4|2|2|2.00|2.0")
}

// TestGeneratedComparisons: generated columns whose expression is a
// comparison at its top level (`g INT AS (i > 1)`), which the grammar
// refused with 1064, and CREATE TABLE t [AS] (SELECT ...), load and
// answer as MariaDB 10.11 did on the anchor (values, an index on such a
// column, the expressions in information_schema).
func TestGeneratedComparisons(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE gc", "USE gc",
		"CREATE TABLE g1 (i INT, s VARCHAR(5), g INT AS (i > 1) VIRTUAL, h TINYINT GENERATED ALWAYS AS (s = 'a' AND i > 1) STORED, k INT AS (i + 1), KEY (h))",
		"ALTER TABLE g1 ADD COLUMN m INT AS (-1 < i) VIRTUAL",
		"ALTER TABLE g1 ADD COLUMN n INT AS (i <=> NULL) PERSISTENT",
		"INSERT INTO g1 (i, s) VALUES (0, 'a'), (2, 'a'), (3, 'b'), (NULL, 'a')",
		"CREATE TABLE g2 AS (SELECT i, i > 1 AS big FROM g1)",
		"CREATE TABLE g3 (SELECT i FROM g1 WHERE i > 1)")
	expectRows(t, c, "SELECT * FROM g1 ORDER BY i",
		"NULL|a|NULL|NULL|NULL|NULL|1", "0|a|0|0|1|1|0", "2|a|1|1|3|1|0", "3|b|1|0|4|1|0")
	expectRows(t, c, "SELECT i FROM g1 WHERE h = 1", "2")
	expectRows(t, c, "SELECT COLUMN_NAME, GENERATION_EXPRESSION FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = 'gc' AND TABLE_NAME = 'g1' AND COLUMN_NAME IN ('g', 'm', 'n') ORDER BY 1",
		"g|`i` > 1", "m|-1 < `i`", "n|`i` <=> NULL")
	expectRows(t, c, "SELECT * FROM g2 ORDER BY i", "NULL|NULL", "0|0", "2|1", "3|1")
	expectRows(t, c, "SELECT * FROM g3 ORDER BY i", "2", "3")
}
