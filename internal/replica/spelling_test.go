package replica_test

import (
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"
)

// TestOlderSpellings: CHANGE MASTER TO, START SLAVE, SHOW SLAVE STATUS and
// STOP SLAVE drive the replica as their current forms do, and
// Seconds_Behind_Master (Source) is what MySQL reports: the age of the
// event being applied while behind, 0 once caught up, NULL when stopped.
func TestOlderSpellings(t *testing.T) {
	p := sharedPrimary(t)
	p.exec(t, "DROP DATABASE IF EXISTS rsl", "CREATE DATABASE rsl", "CREATE TABLE rsl.t (k INT PRIMARY KEY, v VARCHAR(20))", "INSERT INTO rsl.t VALUES (1, 'a')")
	s := startReplica(t, "", nil)
	rdb := sqlOf(t, s)
	host, port, _ := net.SplitHostPort(p.Addr())
	for _, q := range []string{
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='%s', MASTER_PASSWORD='%s', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos", host, port, replUser, replPass),
		"START SLAVE",
	} {
		if _, err := rdb.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	catchUp(t, rdb, p, 20*time.Second)
	slave := func() map[string]string {
		t.Helper()
		rows, err := rdb.Query("SHOW SLAVE STATUS")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		cols, _ := rows.Columns()
		if !rows.Next() {
			t.Fatal("SHOW SLAVE STATUS: no row")
		}
		vals := make([]*string, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		for i, c := range cols {
			if vals[i] == nil {
				m[c] = "NULL"
			} else {
				m[c] = *vals[i]
			}
		}
		return m
	}
	st := waitStatus(t, rdb, func(st map[string]string) bool { return st["Seconds_Behind_Source"] == "0" })
	if ss := slave(); ss["Slave_IO_Running"] != "Yes" || ss["Slave_SQL_Running"] != "Yes" || ss["Master_Host"] != host || ss["Seconds_Behind_Master"] != "0" || ss["Auto_Position"] != "1" {
		t.Errorf("SHOW SLAVE STATUS caught up: %v (replica status %v)", ss, st)
	}

	// A backlog written an hour ago (the primary's clock set back): while
	// the replica applies it, it is an hour behind.
	if _, err := rdb.Exec("STOP SLAVE"); err != nil {
		t.Fatal(err)
	}
	if ss := slave(); ss["Seconds_Behind_Master"] != "NULL" || ss["Slave_IO_Running"] != "No" {
		t.Errorf("after STOP SLAVE: Seconds_Behind_Master %s, IO %s; want NULL, No", ss["Seconds_Behind_Master"], ss["Slave_IO_Running"])
	}
	p.execIn(t, "rsl", "SET timestamp = UNIX_TIMESTAMP() - 3600",
		"INSERT INTO rsl.t SELECT seq, CONCAT('old', seq) FROM seq_2_to_200000", "SET timestamp = DEFAULT")
	if _, err := rdb.Exec("START SLAVE"); err != nil {
		t.Fatal(err)
	}
	most := -1
	for deadline := time.Now().Add(60 * time.Second); ; {
		ss := slave()
		if n, err := strconv.Atoi(ss["Seconds_Behind_Master"]); err == nil {
			most = max(most, n)
			if n == 0 && most > 0 {
				break
			}
		}
		if ss["Last_SQL_Error"] != "" {
			t.Fatalf("replica stopped: %s", ss["Last_SQL_Error"])
		}
		if time.Now().After(deadline) {
			t.Fatalf("no catch-up in 60 s: most behind %d, status %v", most, ss)
		}
		time.Sleep(2 * time.Millisecond)
	}
	if most < 3500 || most > 3700 {
		t.Errorf("Seconds_Behind_Master while behind: at most %d, want about 3600", most)
	}
	catchUp(t, rdb, p, 20*time.Second)
	var n int
	if err := rdb.QueryRow("SELECT COUNT(*) FROM rsl.t").Scan(&n); err != nil || n != 200000 {
		t.Errorf("rsl.t: %d rows (%v), want 200000", n, err)
	}
	if _, err := rdb.Exec("STOP SLAVE"); err != nil {
		t.Fatal(err)
	}
	if _, err := rdb.Exec("RESET SLAVE ALL"); err != nil {
		t.Fatal(err)
	}
	if st := replicaStatus(t, rdb); st != nil {
		t.Errorf("after RESET SLAVE ALL: %v", st)
	}
	p.exec(t, "DROP DATABASE rsl")
}
