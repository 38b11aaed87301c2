package sqlbackend

import (
	"strings"
	"testing"
)

// TestPointReads: a primary-key point read of committed data goes
// through Engine.Find; a read that must see the session's own writes
// does not. (The reads of other sessions' commits, snapshots and locks
// are sqlfront's TestTxn* tests, over the listener.)
func TestPointReads(t *testing.T) {
	b := NewTestBackend(t)
	a := b.Session()
	b.MustExec(t, a, "SET autocommit = 1", "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT NOT NULL PRIMARY KEY, v VARCHAR(10) NOT NULL)",
		"CREATE TABLE s (k VARCHAR(10) NOT NULL PRIMARY KEY, n INT NOT NULL)",
		"INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')",
		"INSERT INTO s VALUES ('Abc', 1)", "COMMIT")
	plan := b.PlanOf(t, a, "SELECT v FROM t WHERE id = 2")
	if !strings.Contains(plan, "[2, 2]") {
		t.Fatalf("not a point lookup:\n%s", plan)
	}
	b.ExpectRows(t, a, "SELECT v FROM t WHERE id = 2", "two")
	b.ExpectRows(t, a, "SELECT v FROM t WHERE id = 4")
	b.ExpectRows(t, a, "SELECT v FROM t WHERE id IN (3, 1, 9) ORDER BY id", "one", "three")
	// A case-insensitive key finds its row whatever the case.
	b.ExpectRows(t, a, "SELECT n FROM s WHERE k = 'aBC'", "1")
	// A lookup join by primary key.
	b.ExpectRows(t, a, "SELECT x.id, y.v FROM t x JOIN t y ON y.id = x.id + 1 ORDER BY x.id", "1|two", "2|three")

	// The session's own uncommitted write.
	b.MustExec(t, a, "START TRANSACTION", "UPDATE t SET v = 'mine' WHERE id = 2", "INSERT INTO t VALUES (4, 'four')")
	b.ExpectRows(t, a, "SELECT v FROM t WHERE id = 2", "mine")
	b.ExpectRows(t, a, "SELECT x.id, y.v FROM t x JOIN t y ON y.id = x.id + 1 ORDER BY x.id", "1|mine", "2|three", "3|four")
	b.ExpectRows(t, a, "SELECT v FROM t WHERE id = 4", "four")
	b.MustExec(t, a, "ROLLBACK")
	b.ExpectRows(t, a, "SELECT v FROM t WHERE id = 4")
	b.ExpectRows(t, a, "SELECT v FROM t WHERE id = 2", "two")
}
