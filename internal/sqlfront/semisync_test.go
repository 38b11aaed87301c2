package sqlfront

import (
	gosql "database/sql"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/mariadbtest"
)

// semiStatus reads one of the primary's Rpl_semi_sync_master_* status
// variables.
func semiStatus(t *testing.T, db *gosql.DB, name string) string {
	t.Helper()
	var n, v string
	if err := db.QueryRow("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_"+name+"'").Scan(&n, &v); err != nil {
		t.Fatalf("Rpl_semi_sync_master_%s: %v", name, err)
	}
	return v
}

// waitSemiStatus waits up to 20 s for a status variable's value.
func waitSemiStatus(t *testing.T, db *gosql.DB, name, want string) {
	t.Helper()
	got := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got = semiStatus(t, db, name); got == want {
			return
		}
	}
	t.Fatalf("Rpl_semi_sync_master_%s is %s, want %s", name, got, want)
}

// TestMariaDBSemiSync: a real MariaDB 10.11 replica with
// rpl_semi_sync_slave_enabled acknowledges HandlerDB's events: with
// rpl_semi_sync_master_enabled a commit is answered only once the
// replica has it (one whose replica is stopped waits until it comes
// back), the status variables count as MariaDB's do, and after the
// timeout semi-sync switches off (commits stop waiting) until the
// replica catches up.
func TestMariaDBSemiSync(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	ts := startLoggingServer(t)
	db := ts.open("")
	db.SetMaxOpenConns(4)
	m, err := mariadbtest.Start("hdb-semisync-replica-", "--server-id=2")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	t.Cleanup(func() {
		mustExec(t, db, "SET GLOBAL rpl_semi_sync_master_enabled = 0", "SET GLOBAL rpl_semi_sync_master_timeout = 10000")
	})
	if got := semiStatus(t, db, "status"); got != "OFF" {
		t.Fatalf("Rpl_semi_sync_master_status %s before it is enabled", got)
	}
	mustExec(t, db, "CREATE DATABASE ss", "CREATE TABLE ss.t (id INT PRIMARY KEY, v VARCHAR(20))",
		"SET GLOBAL rpl_semi_sync_master_timeout = 60000", "SET GLOBAL rpl_semi_sync_master_enabled = 1")
	host, port, _ := net.SplitHostPort(ts.s.Addr().String())
	mustExec(t, m.Root, "SET GLOBAL rpl_semi_sync_slave_enabled = 1", "SET GLOBAL gtid_slave_pos = ''",
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos", host, port),
		"START SLAVE")
	defer mustExec(t, m.Root, "STOP SLAVE")
	waitSemiStatus(t, db, "clients", "1")
	for i := range 10 {
		mustExec(t, db, fmt.Sprintf("INSERT INTO ss.t VALUES (%d, 'acked')", i))
	}
	if got := semiStatus(t, db, "yes_tx"); got != "10" {
		t.Fatalf("Rpl_semi_sync_master_yes_tx %s after 10 commits (%s)", got, slaveError(m.Root))
	}
	if got := semiStatus(t, db, "no_tx"); got != "0" {
		t.Fatalf("Rpl_semi_sync_master_no_tx %s", got)
	}
	if st := semiStatus(t, db, "status"); st != "ON" {
		t.Fatalf("Rpl_semi_sync_master_status %s", st)
	}
	var replicaStatus string
	if err := m.Root.QueryRow("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'RPL_SEMI_SYNC_SLAVE_STATUS'").Scan(&replicaStatus); err != nil || replicaStatus != "ON" {
		t.Fatalf("the replica's Rpl_semi_sync_slave_status %q %v", replicaStatus, err)
	}

	// The replica's connection stops: a commit is not answered until it
	// is back and has the commit's events.
	mustExec(t, m.Root, "STOP SLAVE IO_THREAD")
	waitSemiStatus(t, db, "clients", "0")
	done := make(chan error, 1)
	go func() {
		_, err := db.Exec("INSERT INTO ss.t VALUES (100, 'held')")
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("a commit was answered with no replica to acknowledge it (%v)", err)
	case <-time.After(time.Second):
	}
	mustExec(t, m.Root, "START SLAVE IO_THREAD")
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the held commit was not answered after the replica came back")
	}
	if got := semiStatus(t, db, "yes_tx"); got != "11" {
		t.Fatalf("Rpl_semi_sync_master_yes_tx %s after the held commit", got)
	}

	// The timeout switches semi-sync off; the replica catching up
	// switches it on again.
	mustExec(t, db, "SET GLOBAL rpl_semi_sync_master_timeout = 300")
	mustExec(t, m.Root, "STOP SLAVE IO_THREAD")
	waitSemiStatus(t, db, "clients", "0")
	start := time.Now()
	mustExec(t, db, "INSERT INTO ss.t VALUES (200, 'timed out')")
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Fatalf("a commit with no replica took %v, the timeout is 300 ms", d)
	}
	if st, nt := semiStatus(t, db, "status"), semiStatus(t, db, "no_times"); st != "OFF" || nt != "1" {
		t.Fatalf("after the timeout: status %s, no_times %s", st, nt)
	}
	start = time.Now()
	mustExec(t, db, "INSERT INTO ss.t VALUES (201, 'async')")
	if d := time.Since(start); d >= 300*time.Millisecond {
		t.Fatalf("with semi-sync off a commit took %v", d)
	}
	if got := semiStatus(t, db, "no_tx"); got != "2" {
		t.Fatalf("Rpl_semi_sync_master_no_tx %s", got)
	}
	mustExec(t, m.Root, "START SLAVE IO_THREAD")
	waitSemiStatus(t, db, "status", "ON")
	mustExec(t, db, "INSERT INTO ss.t VALUES (202, 'acked again')")
	if got := semiStatus(t, db, "yes_tx"); got != "12" {
		t.Fatalf("Rpl_semi_sync_master_yes_tx %s after semi-sync came back", got)
	}
	q := "SELECT id, v FROM ss.t ORDER BY id"
	want := fmt.Sprint(queryRows(t, db, q))
	got := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && got != want; time.Sleep(50 * time.Millisecond) {
		got = fmt.Sprint(queryRows(t, m.Root, q))
	}
	if got != want {
		t.Fatalf("the replica has %s, want %s (%s)", got, want, slaveError(m.Root))
	}
}
