package sqlfront

import (
	"context"
	gosql "database/sql"
	"testing"
	"time"
)

// FLUSH TABLES WITH READ LOCK holds every other connection's writes until
// UNLOCK TABLES or the holder's end, refuses the holder's own writes with
// 1223 (text and prepared), lets everyone read, needs RELOAD, and is the
// first statement of a multi-statement text like any other.
func TestFlushTablesWithReadLock(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	ctx := context.Background()
	root := ts.open("")
	mustExec(t, root, "CREATE DATABASE rl", "CREATE TABLE rl.t (id INT PRIMARY KEY, v INT)", "INSERT INTO rl.t VALUES (1, 1)",
		"CREATE USER plain@'%'", "GRANT ALL ON rl.* TO plain@'%'")

	// Without the lock, FLUSH TABLES in every form has nothing to do.
	mustExec(t, root, "FLUSH /*!40101 LOCAL */ TABLES", "FLUSH NO_WRITE_TO_BINLOG TABLES rl.t", "FLUSH TABLE rl.t", "FLUSH TABLES")

	holder := ts.conn("rl")
	other := ts.open("rl")
	mustExec(t, holder, "FLUSH TABLES WITH READ LOCK")
	// another connection's write waits
	done := make(chan error, 1)
	go func() { _, err := other.Exec("INSERT INTO t VALUES (2, 2)"); done <- err }()
	// the holder's writes fail, its reads and transactions do not
	for _, q := range []string{"INSERT INTO t VALUES (3, 3)", "UPDATE t SET v = 9"} {
		if _, err := holder.ExecContext(ctx, q); sqlErrno(err) != 1223 {
			t.Errorf("%s by the holder: %v, want 1223", q, err)
		}
	}
	if _, err := holder.ExecContext(ctx, "DELETE FROM t WHERE id = ?", 1); sqlErrno(err) != 1223 {
		t.Errorf("a prepared DELETE by the holder: %v, want 1223", err)
	}
	mustExec(t, holder, "FLUSH TABLES WITH READ LOCK", "START TRANSACTION WITH CONSISTENT SNAPSHOT")
	if _, err := holder.ExecContext(ctx, "INSERT INTO t VALUES (3, 3)"); sqlErrno(err) != 1223 {
		t.Errorf("an INSERT in the holder's transaction: %v, want 1223", err)
	}
	mustExec(t, holder, "COMMIT")
	// another connection's transaction waits at its first change
	inTxn := make(chan error, 1)
	otherConn := ts.conn("rl")
	mustExec(t, otherConn, "BEGIN")
	go func() { _, err := otherConn.ExecContext(ctx, "UPDATE t SET v = 10 WHERE id = 1"); inTxn <- err }()
	expectRows(t, holder, "SELECT id, v FROM t", "1|1")
	expectRows(t, other, "SELECT id, v FROM t", "1|1")
	select {
	case err := <-done:
		t.Fatalf("a write ran under the read lock: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	select {
	case err := <-inTxn:
		t.Fatalf("a transaction's UPDATE ran under the read lock: %v", err)
	default:
	}
	mustExec(t, holder, "UNLOCK TABLES")
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := <-inTxn; err != nil {
		t.Fatal(err)
	}
	mustExec(t, otherConn, "ROLLBACK")
	expectRows(t, other, "SELECT id, v FROM t ORDER BY id", "1|1", "2|2")
	mustExec(t, holder, "INSERT INTO t VALUES (3, 3)") // (released: it writes again)

	// The connection's end releases it.
	gone, err := gosql.Open("mysql", ts.dsn("root", "", "rl"))
	if err != nil {
		t.Fatal(err)
	}
	gone.SetMaxOpenConns(1)
	mustExec(t, gone, "FLUSH TABLES WITH READ LOCK")
	go func() { _, err := other.Exec("INSERT INTO t VALUES (4, 4)"); done <- err }()
	select {
	case err := <-done:
		t.Fatalf("a write ran under the read lock: %v", err)
	case <-time.After(100 * time.Millisecond):
	}
	gone.Close() // (the pool closes its connection)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the write still waits after the holder's connection ended")
	}

	// Taking it commits the connection's open transaction, as MariaDB's
	// FLUSH does.
	tc := ts.conn("rl")
	mustExec(t, tc, "BEGIN", "INSERT INTO t VALUES (100, 100)", "FLUSH TABLES WITH READ LOCK")
	mustExec(t, tc, "ROLLBACK", "UNLOCK TABLES") // (nothing left to roll back)
	expectRows(t, other, "SELECT v FROM t WHERE id = 100", "100")
	mustExec(t, other, "DELETE FROM t WHERE id = 100")

	// RELOAD is needed.
	plain, err := gosql.Open("mysql", ts.dsn("plain", "", "rl"))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	if _, err := plain.Exec("FLUSH TABLES WITH READ LOCK"); sqlErrno(err) != 1227 {
		t.Errorf("FLUSH TABLES WITH READ LOCK without RELOAD: %v, want 1227", err)
	}
	mustExec(t, plain, "INSERT INTO t VALUES (5, 5)")

	// The first statement of a multi-statement text.
	multi, err := gosql.Open("mysql", ts.dsn("root", "", "rl")+"&multiStatements=true")
	if err != nil {
		t.Fatal(err)
	}
	defer multi.Close()
	mc, err := multi.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer mc.Close()
	mustExec(t, mc, "FLUSH TABLES t WITH READ LOCK; SELECT 1")
	if _, err := mc.ExecContext(ctx, "INSERT INTO t VALUES (6, 6)"); sqlErrno(err) != 1223 {
		t.Errorf("after a multi-statement FLUSH ... WITH READ LOCK: %v, want 1223", err)
	}
	mustExec(t, mc, "UNLOCK TABLES; SELECT 1", "INSERT INTO t VALUES (6, 6)")
	expectRows(t, other, "SELECT COUNT(*) FROM t", "6")
}
