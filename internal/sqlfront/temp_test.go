package sqlfront

import (
	"context"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// hiddenTables counts the engine's hidden tables in db.
func hiddenTables(t *testing.T, e *engine.Engine, db string) int {
	t.Helper()
	edb, err := e.Catalog().Database(db)
	if err != nil {
		t.Fatal(err)
	}
	return len(edb.HiddenTables())
}

// TestTemporaryTablesPerSession: a temporary table belongs to the session
// that created it: another session sees the stored table of that name (or
// none), SHOW TABLES lists no temporary table, and the table is dropped
// when its connection closes.
func TestTemporaryTablesPerSession(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE tmp",
		"CREATE TABLE tmp.t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO tmp.t VALUES (1, 'stored')")
	pa := ts.open("tmp")
	a, err := pa.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	b := ts.conn("tmp")
	mustExec(t, a,
		"CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, v VARCHAR(10), KEY kv (v))",
		"INSERT INTO t VALUES (1, 'a1'), (2, 'a2')",
		"CREATE TEMPORARY TABLE only_a (x INT)",
		"INSERT INTO only_a VALUES (7)")
	expectRows(t, a, "SELECT id, v FROM t ORDER BY id", "1|a1", "2|a2")
	expectRows(t, a, "SELECT id FROM t WHERE v = 'a2'", "2")
	expectRows(t, b, "SELECT id, v FROM t ORDER BY id", "1|stored")
	if _, err := b.ExecContext(context.Background(), "SELECT * FROM only_a"); err == nil {
		t.Fatal("another session reads a temporary table")
	}
	expectRows(t, a, "SHOW TABLES", "t")
	expectRows(t, a, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'tmp'", "t")
	// DROP TABLE drops the temporary table first, then the stored one.
	mustExec(t, a, "DROP TABLE t")
	expectRows(t, a, "SELECT id, v FROM t ORDER BY id", "1|stored")
	if n := hiddenTables(t, ts.e, "tmp"); n != 1 {
		t.Fatalf("%d hidden tables, want 1 (only_a)", n)
	}
	a.Close()
	pa.Close() // closes the connection
	deadline := time.Now().Add(5 * time.Second)
	for hiddenTables(t, ts.e, "tmp") != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the temporary table outlived its connection")
		}
		time.Sleep(10 * time.Millisecond)
	}
	expectRows(t, b, "SELECT id, v FROM t ORDER BY id", "1|stored")
}

// TestTemporaryTableLeftovers: a temporary table the engine still holds
// when the server starts (its session never ended: a crash) is dropped.
func TestTemporaryTableLeftovers(t *testing.T) {
	dir := t.TempDir()
	ts := startTestServer(t, dir, Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE lo", "CREATE TABLE lo.t (id INT PRIMARY KEY)")
	ts.s.Close()
	ts.s = nil
	// What a session that did not end leaves: a hidden table with rows.
	err := ts.e.Update(context.Background(), func(tx *engine.Job) error {
		_, err := tx.CreateTable("lo", &engine.TableDef{
			Name:    "#sql-tmp-12-1-t",
			Columns: []types.Column{{Name: "id", Type: types.Type{Kind: types.Int}}},
			Indexes: []engine.IndexDef{{Name: "PRIMARY", Primary: true, Columns: []string{"id"}}},
		})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if n := hiddenTables(t, ts.e, "lo"); n != 1 {
		t.Fatalf("%d hidden tables before the restart", n)
	}
	ts.stop()
	ts2 := startTestServer(t, dir, Config{})
	if n := hiddenTables(t, ts2.e, "lo"); n != 0 {
		t.Fatalf("%d hidden tables after the restart, want 0", n)
	}
	expectRows(t, ts2.open("lo"), "SHOW TABLES", "t")
}
