package main

import (
	"bufio"
	"database/sql"
	"fmt"
	"math/rand"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/mariadbtest"
)

// TestBinlogAgreesAfterKill9: a server writing its binary log is killed
// with SIGKILL at random moments under HandlerSocket inserts and SQL
// transactions that update and delete, in each durability mode, and
// restarted on the same data directory each time; then a real MariaDB
// replica reads the whole log from its start and ends with the same
// rows: no crash left the log and the tables disagreeing (a transaction
// in one and not the other).
func TestBinlogAgreesAfterKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it")
	}
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	modes := []string{"sync", "os", "none", "sync", "os", "none"}
	for round, mode := range modes {
		p := startBinary(t, bin, "--datadir="+dir, "--log-bin", "--server-id=1", "--durability="+mode)
		db, err := sql.Open("mysql", "root@tcp("+p.addrs["mysql"]+")/")
		if err != nil {
			t.Fatal(err)
		}
		if round == 0 {
			failExec(t, db, "CREATE DATABASE k", "CREATE TABLE k.t (id BIGINT PRIMARY KEY, v VARCHAR(20), n INT NOT NULL DEFAULT 0)")
		}
		stopLoad := make(chan struct{})
		var wg sync.WaitGroup
		for g := range 3 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := net.Dial("tcp", p.addrs["hs-write"])
				if err != nil {
					return
				}
				defer c.Close()
				r := bufio.NewReader(c)
				fmt.Fprintf(c, "P\t1\tk\tt\tPRIMARY\tid,v\n")
				if _, err := r.ReadString('\n'); err != nil {
					return
				}
				for i := 0; ; i++ {
					select {
					case <-stopLoad:
						return
					default:
					}
					id := round*10_000_000 + g*1_000_000 + i
					fmt.Fprintf(c, "1\t+\t2\t%d\tv%d\n1\t+\t2\t%d\tw\n", 2*id, i, 2*id+1)
					if _, err := r.ReadString('\n'); err != nil {
						return
					}
					if _, err := r.ReadString('\n'); err != nil {
						return
					}
				}
			}()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stopLoad:
					return
				default:
				}
				tx, err := db.Begin()
				if err != nil {
					return
				}
				_, err1 := tx.Exec("UPDATE k.t SET n = n + 1, v = 'upd' WHERE id % 7 = ? LIMIT 20", i%7)
				_, err2 := tx.Exec("DELETE FROM k.t WHERE id % 11 = ? LIMIT 5", i%11)
				if err1 != nil || err2 != nil || tx.Commit() != nil {
					tx.Rollback()
					return
				}
			}
		}()
		time.Sleep(time.Duration(150+rng.Intn(300)) * time.Millisecond)
		p.cmd.Process.Kill()
		p.cmd.Wait()
		close(stopLoad)
		wg.Wait()
		db.Close()
	}
	p := startBinary(t, bin, "--datadir="+dir, "--log-bin", "--server-id=1")
	defer func() {
		p.cmd.Process.Signal(os.Interrupt)
		p.cmd.Wait()
	}()
	db, err := sql.Open("mysql", "root@tcp("+p.addrs["mysql"]+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	const q = "SELECT COUNT(*), SUM(id), SUM(n), SUM(LENGTH(v)), SUM(v = 'upd') FROM k.t"
	var gtid string
	if err := db.QueryRow("SELECT @@gtid_binlog_pos").Scan(&gtid); err != nil {
		t.Fatal(err)
	}
	want := failRow(t, db, q)
	m, err := mariadbtest.Start("hdb-binlog-crash-", "--server-id=2")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	host, port, _ := net.SplitHostPort(p.addrs["mysql"])
	failExec(t, m.Root, "SET GLOBAL gtid_slave_pos = ''",
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_USE_GTID=slave_pos", host, port),
		"START SLAVE")
	defer m.Root.Exec("STOP SLAVE")
	pos := ""
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && pos != gtid; time.Sleep(50 * time.Millisecond) {
		if err := m.Root.QueryRow("SELECT @@gtid_slave_pos").Scan(&pos); err != nil {
			t.Fatal(err)
		}
	}
	if pos != gtid {
		t.Fatalf("the replica reached %q, the log ends at %q (%s)", pos, gtid, slaveState(m.Root))
	}
	if got := failRow(t, m.Root, q); got != want {
		t.Fatalf("after %d kills, a replica of the whole log has %s, the tables %s", len(modes), got, want)
	}
	t.Logf("%d kills; the log (to %s) replayed by MariaDB gives the tables: %s", len(modes), gtid, want)
}

// failRow prints one row of q.
func failRow(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	var a, b, c, d, e sql.NullString
	if err := db.QueryRow(q).Scan(&a, &b, &c, &d, &e); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return fmt.Sprintf("%s rows, ids %s, n %s, lengths %s, updated %s", a.String, b.String, c.String, d.String, e.String)
}
