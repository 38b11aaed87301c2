package replica_test

import (
	gosql "database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// TestControl: the replication statements' answers before and while a
// source is configured, and CHANGE REPLICATION FILTER.
func TestControl(t *testing.T) {
	p := sharedPrimary(t)
	s := startReplica(t, "", nil)
	rdb := sqlOf(t, s)
	if st := replicaStatus(t, rdb); st != nil {
		t.Fatalf("SHOW REPLICA STATUS without a source: %v", st)
	}
	wantErr := func(stmt string, num uint16) {
		t.Helper()
		_, err := rdb.Exec(stmt)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != num {
			t.Errorf("%s: %v, want error %d", stmt, err, num)
		}
	}
	wantErr("START REPLICA", 1200)
	p.exec(t, "DROP DATABASE IF EXISTS rf", "CREATE DATABASE rf",
		"CREATE TABLE rf.keep (k INT PRIMARY KEY)", "CREATE TABLE rf.skip (k INT PRIMARY KEY)",
		"INSERT INTO rf.keep VALUES (1)", "INSERT INTO rf.skip VALUES (1)")
	follow(t, rdb, p, "CHANGE REPLICATION FILTER REPLICATE_IGNORE_TABLE=(rf.skip)")
	catchUp(t, rdb, p, 20*time.Second)
	var n int
	if err := rdb.QueryRow("SELECT COUNT(*) FROM rf.keep").Scan(&n); err != nil || n != 1 {
		t.Errorf("rf.keep: %d rows (%v), want 1", n, err)
	}
	// The ignored table is not created either (filter_test.go).
	if err := rdb.QueryRow("SELECT COUNT(*) FROM rf.skip").Scan(&n); !isErr(err, 1146) {
		t.Errorf("rf.skip (ignored): %d rows (%v), want error 1146", n, err)
	}
	if st := replicaStatus(t, rdb); st["Replicate_Ignore_Table"] != "rf.skip" || st["Auto_Position"] != "1" && st["Auto_Position"] != "0" {
		t.Errorf("status: %v", st)
	}
	wantErr("CHANGE REPLICATION SOURCE TO SOURCE_PORT=1", 1198)
	wantErr("RESET REPLICA", 1198)
	if _, err := rdb.Exec("STOP REPLICA"); err != nil {
		t.Fatal(err)
	}
	if _, err := rdb.Exec("RESET REPLICA ALL"); err != nil {
		t.Fatal(err)
	}
	if st := replicaStatus(t, rdb); st != nil {
		t.Errorf("SHOW REPLICA STATUS after RESET REPLICA ALL: %v", st)
	}
	p.exec(t, "DROP DATABASE rf")
}

// TestFaults: a primary restarted mid-stream is reconnected to; a
// statement-based event stops the replica with an error naming the cure;
// a position the primary purged from its binary log stops it with 1236.
// It has a primary of its own: the statement-based event and the purge
// would break the shared primary's history for later tests.
func TestFaults(t *testing.T) {
	sharedPrimary(t) // skips without mariadbd
	p, err := startPrimary()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	p.exec(t, "DROP DATABASE IF EXISTS rx", "CREATE DATABASE rx", "CREATE TABLE rx.t (k INT PRIMARY KEY, v INT)", "INSERT INTO rx.t VALUES (1, 1)")
	dir := t.TempDir()
	s := startReplica(t, dir, nil)
	rdb := sqlOf(t, s)
	follow(t, rdb, p)
	catchUp(t, rdb, p, 20*time.Second)

	// The primary restarts; the replica reconnects by itself.
	p.restart(t)
	p.exec(t, "INSERT INTO rx.t VALUES (2, 2)")
	catchUp(t, rdb, p, 20*time.Second)
	sameRows(t, "rx.t", dump(t, p.Root, "rx.t", "k"), dump(t, rdb, "rx.t", "k"))

	// Statement-based DML: the replica stops and says why.
	c, err := p.Root.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"SET SESSION binlog_format = 'STATEMENT'", "INSERT INTO rx.t VALUES (3, 3)", "SET SESSION binlog_format = 'ROW'"} {
		if _, err := c.ExecContext(t.Context(), q); err != nil {
			t.Fatal(err)
		}
	}
	c.Close()
	st := waitStatus(t, rdb, func(st map[string]string) bool { return st["Last_SQL_Error"] != "" })
	if !strings.Contains(st["Last_SQL_Error"], "set binlog_format=ROW") || st["Replica_SQL_Running"] != "No" {
		t.Errorf("after a statement-based event: SQL running %q, error %q", st["Replica_SQL_Running"], st["Last_SQL_Error"])
	}
	if _, err := rdb.Exec("STOP REPLICA"); err != nil {
		t.Fatal(err)
	}

	// The binary logs holding what the replica needs next are purged
	// (once the primary's dump thread for the stopped replica has
	// ended: MariaDB keeps a log a dump thread reads).
	for deadline := time.Now().Add(10 * time.Second); ; {
		var n int
		if err := p.Root.QueryRow("SELECT COUNT(*) FROM information_schema.processlist WHERE command LIKE 'Binlog Dump%'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the primary's dump thread did not end")
		}
		time.Sleep(50 * time.Millisecond)
	}
	p.exec(t, "INSERT INTO rx.t VALUES (4, 4)", "FLUSH BINARY LOGS")
	var file string
	var pos int64
	var x1, x2 any
	if err := p.Root.QueryRow("SHOW MASTER STATUS").Scan(&file, &pos, &x1, &x2); err != nil {
		t.Fatal(err)
	}
	// MariaDB keeps a log until its binlog checkpoint has moved on
	// (InnoDB has flushed its commits): purge until it is gone.
	for deadline := time.Now().Add(10 * time.Second); ; {
		p.exec(t, "PURGE BINARY LOGS TO '"+file+"'")
		var first string
		var size int64
		if err := p.Root.QueryRow("SHOW BINARY LOGS").Scan(&first, &size); err != nil {
			t.Fatal(err)
		}
		if first == file {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the primary still holds %s", first)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, err := rdb.Exec("START REPLICA"); err != nil {
		t.Fatal(err)
	}
	st = waitStatus(t, rdb, func(st map[string]string) bool { return st["Last_IO_Errno"] == "1236" })
	if st["Replica_IO_Running"] != "No" || !strings.Contains(st["Last_IO_Error"], "1236") {
		t.Errorf("after the purge: IO running %q, error %q", st["Replica_IO_Running"], st["Last_IO_Error"])
	}
}

// waitStatus polls SHOW REPLICA STATUS until ok holds (10 s at most).
func waitStatus(t testing.TB, rdb *gosql.DB, ok func(map[string]string) bool) map[string]string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := replicaStatus(t, rdb)
		if st != nil && ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica status never matched: %v", st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
