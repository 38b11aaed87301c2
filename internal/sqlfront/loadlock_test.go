package sqlfront

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// LOAD DATA ... REPLACE of a row another transaction holds (FOR UPDATE)
// waits for that transaction, as InnoDB's does, then replaces the row:
// the locked row is never overwritten under its lock.
func TestLoadDataReplaceWaitsForRowLock(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	ctx := context.Background()
	root := ts.open("")
	for _, q := range []string{"CREATE DATABASE ll", "CREATE TABLE ll.t (id INT PRIMARY KEY, v INT)", "INSERT INTO ll.t VALUES (1,10),(2,20)"} {
		if _, err := root.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	var dir string
	if err := root.QueryRow("SELECT @@secure_file_priv").Scan(&dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "rows.txt")
	if err := os.WriteFile(path, []byte("1\t99\n3\t33\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	holder := ts.conn("ll")
	tx, err := holder.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var v int
	if err := tx.QueryRow("SELECT v FROM t WHERE id=1 FOR UPDATE").Scan(&v); err != nil || v != 10 {
		t.Fatalf("FOR UPDATE: %d %v", v, err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := ts.open("ll").Exec("LOAD DATA INFILE '" + path + "' REPLACE INTO TABLE t")
		done <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for ts.e.Locks().Waiting() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("LOAD DATA REPLACE did not wait for the row lock")
		}
		select {
		case err := <-done:
			t.Fatalf("LOAD DATA REPLACE ended under the lock: %v", err)
		default:
		}
		time.Sleep(time.Millisecond)
	}
	if err := tx.QueryRow("SELECT v FROM t WHERE id=1 FOR UPDATE").Scan(&v); err != nil || v != 10 {
		t.Fatalf("the locked row changed under its lock: %d %v", v, err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := root.QueryRow("SELECT v FROM ll.t WHERE id=1").Scan(&v); err != nil || v != 99 {
		t.Fatalf("after the load: %d %v", v, err)
	}
}
