package replica_test

import (
	gosql "database/sql"
	"fmt"
	"net"
	"reflect"
	"strings"
	"testing"
	"time"
)

// masterStatus is the primary's current binlog file and offset.
func masterStatus(t *testing.T, p *primary) (string, int) {
	t.Helper()
	var file string
	var pos int
	var doDB, ignoreDB gosql.NullString
	if err := p.Root.QueryRow("SHOW MASTER STATUS").Scan(&file, &pos, &doDB, &ignoreDB); err != nil {
		t.Fatal(err)
	}
	return file, pos
}

// waitRows waits until db.table (ordered by order) dumps as want.
func waitRows(t *testing.T, rdb *gosql.DB, table, order string, want []string, timeout time.Duration) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		got := dump(t, rdb, table, order)
		if reflect.DeepEqual(got, want) {
			return
		}
		if st := replicaStatus(t, rdb); st != nil && (st["Last_SQL_Error"] != "" || st["Last_IO_Error"] != "" && st["Last_IO_Errno"] != "2003") {
			t.Fatalf("replica stopped: SQL %s %s; IO %s %s", st["Last_SQL_Errno"], st["Last_SQL_Error"], st["Last_IO_Errno"], st["Last_IO_Error"])
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: %v, want %v", table, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestFilePosition: CHANGE MASTER TO ... MASTER_LOG_FILE, MASTER_LOG_POS
// (and CHANGE REPLICATION SOURCE TO ... SOURCE_LOG_FILE, SOURCE_LOG_POS,
// SOURCE_AUTO_POSITION=0) starts a replica, whose rows were loaded by
// hand, at exactly that binlog offset of the MariaDB primary: the event
// before it would be a duplicate key, the ones after it are applied. It
// goes on by file and offset (no GTID set), also after a restart;
// SOURCE_AUTO_POSITION=1 in the same statement is 1777.
func TestFilePosition(t *testing.T) {
	p := sharedPrimary(t)
	p.exec(t, "DROP DATABASE IF EXISTS big_fp", "CREATE DATABASE big_fp",
		"CREATE TABLE big_fp.t (id INT PRIMARY KEY, v INT)", "INSERT INTO big_fp.t VALUES (1, 1)")
	dir := t.TempDir()
	s := startReplica(t, dir, nil)
	db := sqlOf(t, s)
	for _, q := range []string{"CREATE DATABASE big_fp", "CREATE TABLE big_fp.t (id INT PRIMARY KEY, v INT)", "INSERT INTO big_fp.t VALUES (1, 1)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("replica: %s: %v", q, err)
		}
	}
	file, pos := masterStatus(t, p)
	p.exec(t, "INSERT INTO big_fp.t VALUES (2, 2)", "UPDATE big_fp.t SET v = 10 WHERE id = 1")

	host, port, _ := net.SplitHostPort(p.Addr())
	if _, err := db.Exec(fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='%s', SOURCE_PORT=%s, SOURCE_LOG_POS=%d, SOURCE_AUTO_POSITION=1", host, port, pos)); err == nil || !strings.Contains(err.Error(), "1777") {
		t.Fatalf("SOURCE_LOG_POS with SOURCE_AUTO_POSITION=1: %v, want 1777", err)
	}
	for _, q := range []string{
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='%s', MASTER_PASSWORD='%s', MASTER_CONNECT_RETRY=1, MASTER_LOG_FILE='%s', MASTER_LOG_POS=%d", host, port, replUser, replPass, file, pos),
		"START SLAVE",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("replica: %s: %v", q, err)
		}
	}
	waitRows(t, db, "big_fp.t", "id", dump(t, p.Root, "big_fp.t", "id"), 30*time.Second)
	st := replicaStatus(t, db)
	wantFile, wantPos := masterStatus(t, p)
	if st["Auto_Position"] != "0" || st["Executed_Gtid_Set"] != "" || st["Source_Log_File"] != wantFile {
		t.Errorf("status: Auto_Position %q, Executed_Gtid_Set %q, Source_Log_File %q; want 0, none, %s", st["Auto_Position"], st["Executed_Gtid_Set"], st["Source_Log_File"], wantFile)
	}
	if got := st["Exec_Source_Log_Pos"]; got != fmt.Sprint(wantPos) {
		t.Errorf("Exec_Source_Log_Pos %s, want %d", got, wantPos)
	}

	// The SOURCE_ spelling, after STOP REPLICA, moves the start: past
	// a row the replica then never gets.
	if _, err := db.Exec("STOP REPLICA"); err != nil {
		t.Fatal(err)
	}
	p.exec(t, "INSERT INTO big_fp.t VALUES (3, 3)")
	file, pos = masterStatus(t, p)
	p.exec(t, "INSERT INTO big_fp.t VALUES (4, 4)")
	for _, q := range []string{
		fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_LOG_FILE = '%s', SOURCE_LOG_POS = %d, SOURCE_AUTO_POSITION = 0", file, pos),
		"START REPLICA",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("replica: %s: %v", q, err)
		}
	}
	want := dump(t, p.Root, "big_fp.t", "id")
	want = append(want[:2:2], want[3:]...) // all but id 3
	waitRows(t, db, "big_fp.t", "id", want, 30*time.Second)

	// A restart resumes from the stored file and offset.
	stopServer(t, s)
	p.exec(t, "INSERT INTO big_fp.t VALUES (5, 5)", "DELETE FROM big_fp.t WHERE id = 2")
	s = startReplica(t, dir, nil)
	db = sqlOf(t, s)
	want = dump(t, p.Root, "big_fp.t", "id")
	want = append(want[:1:1], want[2:]...) // all but id 3
	waitRows(t, db, "big_fp.t", "id", want, 30*time.Second)
	if st := replicaStatus(t, db); st["Executed_Gtid_Set"] != "" || st["Auto_Position"] != "0" {
		t.Errorf("after the restart: Executed_Gtid_Set %q, Auto_Position %q", st["Executed_Gtid_Set"], st["Auto_Position"])
	}
	p.exec(t, "DROP DATABASE big_fp")
}
