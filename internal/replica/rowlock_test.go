package replica_test

import (
	"testing"
	"time"
)

// TestApplierWaitsForRowLock: a replicated update of a row that an SQL
// transaction of the replica holds with SELECT ... FOR UPDATE waits for
// that transaction, as a MySQL replica's applier waits for InnoDB's row
// lock, and applies once it ends: the reader saw the row unchanged while
// it held it, and replication goes on without an error.
func TestApplierWaitsForRowLock(t *testing.T) {
	p := sharedPrimary(t)
	p.exec(t, "DROP DATABASE IF EXISTS rl", "CREATE DATABASE rl",
		"CREATE TABLE rl.t (id INT PRIMARY KEY, v INT)", "INSERT INTO rl.t VALUES (1,10),(2,20)")
	s := startReplica(t, "", nil)
	rdb := sqlOf(t, s)
	follow(t, rdb, p)
	catchUp(t, rdb, p, 30*time.Second)

	tx, err := rdb.Begin()
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRow("SELECT v FROM rl.t WHERE id=1 FOR UPDATE").Scan(&v); err != nil || v != 10 {
		t.Fatalf("FOR UPDATE: %d %v", v, err)
	}
	p.exec(t, "UPDATE rl.t SET v=99 WHERE id=1", "UPDATE rl.t SET v=21 WHERE id=2")
	locks := s.Engine().Locks()
	deadline := time.Now().Add(30 * time.Second)
	for locks.Waiting() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the applier did not wait for the row lock")
		}
		time.Sleep(time.Millisecond)
	}
	if err := tx.QueryRow("SELECT v FROM rl.t WHERE id=1 FOR UPDATE").Scan(&v); err != nil || v != 10 {
		t.Fatalf("the locked row changed under its lock: %d %v", v, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	catchUp(t, rdb, p, 30*time.Second)
	sameRows(t, "rl.t", dump(t, p.Root, "rl.t", "id"), dump(t, rdb, "rl.t", "id"))
	if st := replicaStatus(t, rdb); st["Last_SQL_Errno"] != "0" {
		t.Fatalf("replica error: %s %s", st["Last_SQL_Errno"], st["Last_SQL_Error"])
	}
}
