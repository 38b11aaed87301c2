package sqlfront

import (
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
