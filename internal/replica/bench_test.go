package replica_test

import (
	gosql "database/sql"
	"fmt"
	"os"
	"os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/server"

	"github.com/handlerdb/handlerdb/internal/mariadbtest"
)

// benchEnv runs TestCatchUpSpeed: the number of row changes of the
// backlog (HANDLERDB_REPLICA_BENCH=1000000). It is a measurement, not a
// check: run it on an otherwise idle machine.
const benchEnv = "HANDLERDB_REPLICA_BENCH"

// serverGC gives the test process the collector setting the handlerdb
// binary runs with (server.TuneGC: GOGC=400 unless the environment sets
// GOGC), so that the replica measured in this process is the one users
// run; it is restored when t ends.
func serverGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	debug.SetGCPercent(prev)
	if server.TuneGC(os.Getenv) {
		t.Cleanup(func() { debug.SetGCPercent(prev) })
	}
}

// TestCatchUpSpeed measures how fast a replica catches up with a backlog
// of row changes on the primary: HandlerDB (default durability, sync, or
// HANDLERDB_REPLICA_BENCH_DURABILITY)
// against a MariaDB replica with default settings (but its data
// directory and port) of the same primary, applying the same backlog one
// after the other. The backlog is transactions of 1000 row changes:
// inserts, then updates and deletes of those rows, on a table with a
// secondary index.
func TestCatchUpSpeed(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv(benchEnv))
	if n <= 0 {
		t.Skipf("set %s=<row changes> to measure the catch-up speed", benchEnv)
	}
	serverGC(t)
	sharedPrimary(t) // skips without mariadbd
	p, err := startPrimary()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	p.exec(t, "CREATE DATABASE rb", "CREATE TABLE rb.t (id INT PRIMARY KEY, g INT NOT NULL, v VARCHAR(40), KEY g (g))")

	// Both replicas follow the schema, then stop.
	dur := engine.DurabilitySync
	if v := os.Getenv(benchEnv + "_DURABILITY"); v != "" {
		if err := dur.UnmarshalText([]byte(v)); err != nil {
			t.Fatal(err)
		}
	}
	s := startReplica(t, "", func(c *config.Config) { c.Durability = dur })
	rdb := sqlOf(t, s)
	follow(t, rdb, p)
	catchUp(t, rdb, p, 30*time.Second)
	if _, err := rdb.Exec("STOP REPLICA"); err != nil {
		t.Fatal(err)
	}
	m := startMariaReplica(t, p)
	defer m.Stop()
	mariaCatchUp(t, m.Root, p, 60*time.Second)
	m.exec(t, "STOP SLAVE")

	// The backlog.
	start := time.Now()
	inserts := n / 2
	const txn = 1000
	for i := 0; i < inserts; i += txn {
		p.execIn(t, "rb", fmt.Sprintf("INSERT INTO rb.t SELECT seq, seq %% 1000, CONCAT('v', seq) FROM seq_%d_to_%d", i+1, i+txn))
	}
	for i := 0; i < n-inserts; i += txn {
		if i%(2*txn) == 0 {
			p.exec(t, fmt.Sprintf("UPDATE rb.t SET g = g + 1, v = 'u' WHERE id BETWEEN %d AND %d", i+1, i+txn))
		} else {
			p.exec(t, fmt.Sprintf("DELETE FROM rb.t WHERE id BETWEEN %d AND %d", i+1, i+txn))
		}
	}
	t.Logf("backlog of %d row changes written in %v", n, time.Since(start).Round(time.Millisecond))

	start = time.Now()
	cpu := selfCPU()
	if _, err := rdb.Exec("START REPLICA"); err != nil {
		t.Fatal(err)
	}
	catchUp(t, rdb, p, 30*time.Minute)
	hdb := time.Since(start)
	hdbCPU := selfCPU() - cpu
	start = time.Now()
	cpu = procCPU(m.Pid())
	m.exec(t, "START SLAVE")
	mariaCatchUp(t, m.Root, p, 30*time.Minute)
	maria := time.Since(start)
	mariaCPU := procCPU(m.Pid()) - cpu
	t.Logf("catch-up of %d row changes: HandlerDB %v (%.0f rows/s), MariaDB replica %v (%.0f rows/s): HandlerDB %.2fx MariaDB's speed",
		n, hdb.Round(time.Millisecond), float64(n)/hdb.Seconds(), maria.Round(time.Millisecond), float64(n)/maria.Seconds(), maria.Seconds()/hdb.Seconds())
	// CPU time, which a machine shared with other work changes less.
	t.Logf("CPU time: HandlerDB %v, MariaDB replica %v (%.2fx)", hdbCPU.Round(time.Millisecond), mariaCPU.Round(time.Millisecond), mariaCPU.Seconds()/hdbCPU.Seconds())
	sameRows(t, "rb.t", dump(t, p.Root, "rb.t", "id"), dump(t, rdb, "rb.t", "id"))
}

// startMariaReplica starts a MariaDB server with default settings (its
// own data directory, port, socket and server id) replicating from p by
// GTID.
func startMariaReplica(t *testing.T, p *primary) *primary {
	t.Helper()
	s, err := mariadbtest.Start("hdb-mariareplica-", "--server-id=2")
	if err != nil {
		t.Fatal(err)
	}
	m := &primary{s}
	m.exec(t, fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='127.0.0.1', MASTER_PORT=%d, MASTER_USER='%s', MASTER_PASSWORD='%s', MASTER_USE_GTID=slave_pos", p.Port, replUser, replPass),
		"START SLAVE")
	return m
}

// mariaCatchUp waits until the MariaDB replica has applied the primary's
// whole GTID position.
func mariaCatchUp(t *testing.T, db *gosql.DB, p *primary, timeout time.Duration) {
	t.Helper()
	var want string
	if err := p.Root.QueryRow("SELECT @@gtid_binlog_pos").Scan(&want); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(timeout); ; {
		var got string
		if err := db.QueryRow("SELECT @@gtid_slave_pos").Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the MariaDB replica did not reach %s in %v: at %s", want, timeout, got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestCopySpeed measures the initial copy of a primary holding n rows
// (HANDLERDB_REPLICA_BENCH=n): HandlerDB's, from START REPLICA to the end
// of the copy, against `mariadb-dump --single-transaction --master-data |
// mariadb` into a MariaDB server with default settings.
func TestCopySpeed(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv(benchEnv))
	if n <= 0 {
		t.Skipf("set %s=<rows> to measure the initial copy", benchEnv)
	}
	serverGC(t)
	for _, bin := range []string{"mariadb-dump", "mariadb"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s is not installed", bin)
		}
	}
	sharedPrimary(t) // skips without mariadbd
	p, err := startPrimary()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Stop()
	p.exec(t, "CREATE DATABASE rcs", "CREATE TABLE rcs.t (id INT PRIMARY KEY, g INT NOT NULL, v VARCHAR(40), d DATETIME, KEY g (g))")
	for i := 0; i < n; i += 100000 {
		p.execIn(t, "rcs", fmt.Sprintf("INSERT INTO rcs.t SELECT seq, seq %% 1000, CONCAT('value ', seq), '2024-01-01' + INTERVAL seq SECOND FROM seq_%d_to_%d", i+1, min(i+100000, n)))
	}

	dur := engine.DurabilitySync
	s := startReplica(t, "", func(c *config.Config) { c.Durability = dur })
	rdb := sqlOf(t, s)
	start := time.Now()
	cpu, primaryCPU := selfCPU(), procCPU(p.Pid())
	follow(t, rdb, p)
	for s.Replica().Stats().CopyRows == 0 || s.Replica().Stats().Copying {
		if st := s.Replica().Stats(); st.LastSQLError != "" || st.LastIOErrno == 1236 {
			t.Fatalf("replica stopped: %s %s", st.LastSQLError, st.LastIOError)
		}
		time.Sleep(time.Millisecond)
	}
	hdb := time.Since(start)
	hdbCPU, hdbPrimaryCPU := selfCPU()-cpu, procCPU(p.Pid())-primaryCPU

	m := startMariaReplica(t, p)
	defer m.Stop()
	m.exec(t, "STOP SLAVE", "RESET SLAVE ALL")
	start = time.Now()
	cpu, primaryCPU = procCPU(m.Pid()), procCPU(p.Pid())
	dump := exec.Command("mariadb-dump", "--no-defaults", "-h127.0.0.1", fmt.Sprintf("-P%d", p.Port), "-uroot",
		"--single-transaction", "--master-data=2", "--databases", "rcs")
	load := exec.Command("mariadb", "--no-defaults", "-h127.0.0.1", fmt.Sprintf("-P%d", m.Port), "-uroot")
	pipe, err := dump.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	load.Stdin = pipe
	if err := load.Start(); err != nil {
		t.Fatal(err)
	}
	var dumpErr strings.Builder
	dump.Stderr = &dumpErr
	if err := dump.Run(); err != nil {
		t.Fatalf("mariadb-dump: %v %s", err, dumpErr.String())
	}
	if err := load.Wait(); err != nil {
		t.Fatalf("mariadb: %v", err)
	}
	maria := time.Since(start)
	mariaCPU := procCPU(m.Pid()) - cpu + dump.ProcessState.UserTime() + dump.ProcessState.SystemTime() +
		load.ProcessState.UserTime() + load.ProcessState.SystemTime()
	mariaPrimaryCPU := procCPU(p.Pid()) - primaryCPU
	t.Logf("initial copy of %d rows: HandlerDB %v (%.0f rows/s), mariadb-dump | mariadb %v (%.0f rows/s): HandlerDB %.2fx",
		n, hdb.Round(time.Millisecond), float64(n)/hdb.Seconds(), maria.Round(time.Millisecond), float64(n)/maria.Seconds(), maria.Seconds()/hdb.Seconds())
	// CPU time, which a machine shared with other work changes less; the
	// primary's serves either copy.
	t.Logf("CPU time: HandlerDB %v, mariadb-dump, mariadb and the MariaDB server %v (%.2fx); the primary's %v and %v",
		hdbCPU.Round(time.Millisecond), mariaCPU.Round(time.Millisecond), mariaCPU.Seconds()/hdbCPU.Seconds(),
		hdbPrimaryCPU.Round(time.Millisecond), mariaPrimaryCPU.Round(time.Millisecond))
	var got int
	if err := m.Root.QueryRow("SELECT COUNT(*) FROM rcs.t").Scan(&got); err != nil || got != n {
		t.Errorf("the MariaDB copy holds %d rows (%v)", got, err)
	}
	if err := rdb.QueryRow("SELECT COUNT(*) FROM rcs.t").Scan(&got); err != nil || got != n {
		t.Errorf("HandlerDB's copy holds %d rows (%v)", got, err)
	}
}
