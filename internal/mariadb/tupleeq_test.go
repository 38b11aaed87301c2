package mariadb

import "testing"

// TestTupleEquality: a row comparison is NULL where an element compares
// NULL and none false, in WHERE, in a join condition and in a select
// list (answers as MariaDB 10.11 gives them).
func TestTupleEquality(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE p (id INT PRIMARY KEY, a INT NULL, b INT NULL)",
		"INSERT INTO p VALUES (1, NULL, 0), (2, NULL, 0), (3, 1, NULL), (4, 1, 2), (5, 1, 2)")
	b.ExpectRows(t, ctx, "SELECT id FROM p WHERE (a, b) = (NULL, 0)")
	b.ExpectRows(t, ctx, "SELECT id FROM p WHERE (a, b) = (1, 2) ORDER BY id", "4", "5")
	// Only 4 and 5 pair (with themselves and each other).
	b.ExpectRows(t, ctx, "SELECT x.id, y.id FROM p x JOIN p y ON (x.a, x.b) = (y.a, y.b) ORDER BY x.id, y.id", "4|4", "4|5", "5|4", "5|5")
	b.ExpectRows(t, ctx, "SELECT id FROM p WHERE (a, b) IN (SELECT a, b FROM p WHERE id > 0) ORDER BY id", "4", "5")
	b.ExpectRows(t, ctx, "SELECT (NULL, 1) = (1, 1), (1, 2) = (1, 2), ((1, 2), 3) = ((1, NULL), 3), (1, 2) = (1, 3)", "NULL|true|NULL|false")
}
