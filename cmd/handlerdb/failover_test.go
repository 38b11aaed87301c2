package main

import (
	"bufio"
	"database/sql"
	"fmt"
	"math/rand"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// failNode is one server of the failover test: its data directory and
// server id stay, the process changes.
type failNode struct {
	id  int
	dir string
	p   *proc
	db  *sql.DB
}

// TestFailoverKill9SemiSync: three HandlerDB binaries with --log-bin, a
// primary and two replicas acknowledging with semi-sync
// (rpl_semi_sync_master_wait_for_slave_count 1). Each round, under
// HandlerSocket inserts from four connections, the primary is killed
// with SIGKILL at a random moment; the most advanced replica (the
// highest GTID of its own binary log, once it stopped moving) is
// promoted with MySQL's statements, every insert acknowledged before the
// kill must be on it, the other replica is re-pointed to it by GTID and
// the old primary, restarted, rejoins from its own log's GTID, or, when
// it holds a transaction the new primary lacks (refused with 1236),
// is rebuilt empty and copies the new primary. At the end all three
// hold the same rows.
func TestFailoverKill9SemiSync(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it 10 times")
	}
	bin := buildBinary(t)
	nodes := make([]*failNode, 3)
	start := func(n *failNode) {
		n.p = startBinary(t, bin, "--datadir="+n.dir, "--log-bin", fmt.Sprintf("--server-id=%d", n.id), "--durability=os")
		db, err := sql.Open("mysql", "root@tcp("+n.p.addrs["mysql"]+")/")
		if err != nil {
			t.Fatal(err)
		}
		n.db = db
		failExec(t, n.db, "SET GLOBAL rpl_semi_sync_slave_enabled = 1")
	}
	stop := func(n *failNode, kill bool) {
		if kill {
			n.p.cmd.Process.Kill()
		} else {
			n.p.cmd.Process.Signal(os.Interrupt)
		}
		n.p.cmd.Wait()
		n.db.Close()
	}
	for i := range nodes {
		nodes[i] = &failNode{id: i + 1, dir: t.TempDir()}
		start(nodes[i])
	}
	defer func() {
		for _, n := range nodes {
			stop(n, false)
		}
	}()
	follow := func(n, primary *failNode) {
		host, port, _ := net.SplitHostPort(primary.p.addrs["mysql"])
		failExec(t, n.db, "STOP SLAVE", fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos", host, port),
			"START SLAVE")
	}
	promote := func(n *failNode) {
		failExec(t, n.db, "STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only = OFF",
			"SET GLOBAL rpl_semi_sync_master_timeout = 10000", "SET GLOBAL rpl_semi_sync_master_enabled = 1")
	}
	cur := 0
	promote(nodes[0])
	failExec(t, nodes[0].db, "CREATE DATABASE f", "CREATE TABLE f.t (id BIGINT PRIMARY KEY, v VARCHAR(10))")
	follow(nodes[1], nodes[0])
	follow(nodes[2], nodes[0])

	const rounds = 10
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	acked := map[int64]bool{}
	var mu sync.Mutex
	rebuilt := 0
	for round := range rounds {
		p := nodes[cur]
		if !waitStatusValue(p.db, "Rpl_semi_sync_master_clients", "2") || !waitStatusValue(p.db, "Rpl_semi_sync_master_status", "ON") {
			for i, n := range nodes {
				if i != cur {
					t.Logf("node %d: %s", n.id, slaveState(n.db))
				}
			}
			t.Fatalf("round %d: the primary, node %d, has not 2 semi-sync replicas, or semi-sync is off", round, p.id)
		}
		stopLoad := make(chan struct{})
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, err := net.Dial("tcp", p.p.addrs["hs-write"])
				if err != nil {
					return
				}
				defer c.Close()
				r := bufio.NewReader(c)
				fmt.Fprintf(c, "P\t1\tf\tt\tPRIMARY\tid,v\n")
				if l, err := r.ReadString('\n'); err != nil {
					return // killed
				} else if l != "0\t1\n" {
					t.Errorf("round %d: open index: %q", round, l)
					return
				}
				for i := int64(0); ; i++ {
					select {
					case <-stopLoad:
						return
					default:
					}
					id := int64(round)*10_000_000 + int64(g)*1_000_000 + i
					fmt.Fprintf(c, "1\t+\t2\t%d\tv\n", id)
					l, err := r.ReadString('\n')
					if err != nil {
						return // killed
					}
					if l != "0\t1\n" {
						t.Errorf("round %d: insert answered %q", round, l)
						return
					}
					mu.Lock()
					acked[id] = true
					mu.Unlock()
				}
			}()
		}
		time.Sleep(time.Duration(100+rng.Intn(300)) * time.Millisecond)
		if dbg := os.Getenv("FAILOVER_DEBUG"); dbg != "" {
			for _, v := range []string{"status", "yes_tx", "no_tx", "no_times", "clients"} {
				var n, val string
				_ = p.db.QueryRow("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_"+v+"'").Scan(&n, &val)
				t.Logf("round %d before the kill: %s=%s", round, n, val)
			}
		}
		p.p.cmd.Process.Kill()
		p.p.cmd.Wait()
		p.db.Close()
		close(stopLoad)
		wg.Wait()

		// The most advanced replica, once each applied what it received.
		best, bestSeq := -1, int64(-1)
		for i, n := range nodes {
			if i == cur {
				continue
			}
			seq := settledSeq(t, n.db)
			if os.Getenv("FAILOVER_DEBUG") != "" {
				t.Logf("round %d: node %d at %d, %s", round, n.id, seq, failCount(t, n.db))
			}
			if seq > bestSeq {
				best, bestSeq = i, seq
			}
		}
		np := nodes[best]
		promote(np)
		have := map[int64]bool{}
		rs, err := np.db.Query("SELECT id FROM f.t")
		if err != nil {
			t.Fatal(err)
		}
		for rs.Next() {
			var id int64
			if err := rs.Scan(&id); err != nil {
				t.Fatal(err)
			}
			have[id] = true
		}
		rs.Close()
		lost := 0
		for id := range acked {
			if !have[id] {
				lost++
			}
		}
		if lost > 0 {
			t.Fatalf("round %d: %d of %d acknowledged inserts are not on the promoted replica", round, lost, len(acked))
		}
		for i, n := range nodes {
			if i != cur && i != best {
				follow(n, np)
			}
		}
		// The old primary rejoins, or is rebuilt from a copy. In round 3
		// it first takes a write of its own, a transaction the new
		// primary lacks, as a primary whose unacknowledged commits were
		// still in its log would: it must be refused and rebuilt.
		start(p)
		if round == 3 {
			failExec(t, p.db, "INSERT INTO f.t VALUES (-2, 'diverged')")
		}
		follow(p, np)
		if errno := ioErrno(t, p.db, 3*time.Second); errno == "1236" {
			stop(p, false)
			if err := os.RemoveAll(p.dir); err != nil {
				t.Fatal(err)
			}
			start(p)
			follow(p, np)
			rebuilt++
		} else if round == 3 {
			t.Fatalf("round 3: the old primary with a transaction the new one lacks was not refused")
		}
		cur = best
	}
	// All three converge.
	failExec(t, nodes[cur].db, "INSERT INTO f.t VALUES (-1, 'end')")
	want := failCount(t, nodes[cur].db)
	for i, n := range nodes {
		got := ""
		for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline) && got != want; time.Sleep(50 * time.Millisecond) {
			got = failCount(t, n.db)
		}
		if got != want {
			t.Fatalf("node %d has %s, the primary %s", i+1, got, want)
		}
	}
	t.Logf("%d rounds: %d inserts acknowledged, 0 lost; %d old primaries refused and rebuilt (a transaction the new primary lacked; round 3's made so), all nodes equal (%s)", rounds, len(acked), rebuilt, want)
}

func failExec(t *testing.T, db *sql.DB, qs ...string) {
	t.Helper()
	for _, q := range qs {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// failCount is a table's row count and the sum of its ids.
func failCount(t *testing.T, db *sql.DB) string {
	var n, sum sql.NullString
	if err := db.QueryRow("SELECT COUNT(*), SUM(id) FROM f.t").Scan(&n, &sum); err != nil {
		return err.Error()
	}
	return n.String + " rows, ids summing to " + sum.String
}

// waitStatusValue waits up to 30 s for a global status variable's
// value; false if it did not come.
func waitStatusValue(db *sql.DB, name, want string) bool {
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var n, got string
		if err := db.QueryRow("SHOW GLOBAL STATUS LIKE '"+name+"'").Scan(&n, &got); err == nil && got == want {
			return true
		}
	}
	return false
}

// slaveStatusMap reads a replica's SHOW SLAVE STATUS as column -> value.
func slaveStatusMap(db *sql.DB) (map[string]string, error) {
	rs, err := db.Query("SHOW SLAVE STATUS")
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	out := map[string]string{}
	for rs.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		for i, c := range cols {
			out[c] = vals[i].String
		}
	}
	return out, rs.Err()
}

// slaveState prints a replica's threads, position and errors.
func slaveState(db *sql.DB) string {
	st, err := slaveStatusMap(db)
	if err != nil {
		return err.Error()
	}
	var out []string
	for _, c := range []string{"Slave_IO_Running", "Slave_SQL_Running", "Master_Port", "Last_IO_Error", "Last_SQL_Error", "Gtid_IO_Pos", "Slave_SQL_Running_State"} {
		out = append(out, c+"="+st[c])
	}
	return strings.Join(out, " ")
}

// settledSeq waits until a replica's binary log position stops moving
// (it applied what it received from a primary now gone) and returns its
// GTID's sequence number.
func settledSeq(t *testing.T, db *sql.DB) int64 {
	t.Helper()
	last, since := "", time.Now()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		var pos string
		if err := db.QueryRow("SELECT @@gtid_binlog_pos").Scan(&pos); err != nil {
			t.Fatal(err)
		}
		if pos != last {
			last, since = pos, time.Now()
			continue
		}
		if time.Since(since) > time.Second {
			break
		}
	}
	parts := strings.Split(last, "-")
	seq, err := strconv.ParseInt(parts[len(parts)-1], 10, 64)
	if err != nil {
		t.Fatalf("a replica's GTID position %q", last)
	}
	return seq
}

// ioErrno returns the replica's Last_IO_Errno once it is not 0, or ""
// after wait.
func ioErrno(t *testing.T, db *sql.DB, wait time.Duration) string {
	t.Helper()
	for deadline := time.Now().Add(wait); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		st, err := slaveStatusMap(db)
		if err != nil {
			t.Fatal(err)
		}
		if errno := st["Last_IO_Errno"]; errno != "" && errno != "0" {
			return errno
		}
	}
	return ""
}
