package server

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/hs"
	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/mariadbtest"
)

// startLogging starts a server on dir (kept across restarts) that
// writes its binary log as server id; stop shuts it down.
func startLogging(t *testing.T, dir string, id uint32) (s *Server, stop func()) {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.Port, cfg.HSPort, cfg.HSPortWr, cfg.MemcachedPort = 0, 0, 0, -1
	cfg.Durability = engine.DurabilityNone
	cfg.AdminAddress = "127.0.0.1:0"
	cfg.LogBin, cfg.ServerID = true, id
	s, err := Start(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	}
	t.Cleanup(stop)
	return s, stop
}

// rootDB opens a connection pool to a server's SQL port as root.
func rootDB(t *testing.T, s *Server) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/", s.SQLAddr()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func queryText(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	out, err := tryQueryText(db, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return out
}

// tryQueryText prints q's rows, a line each, columns joined by |.
func tryQueryText(db *sql.DB, q string) (string, error) {
	rs, err := db.Query(q)
	if err != nil {
		return "", err
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out []string
	for rs.Next() {
		vals, err := rowStrings(rs, len(cols))
		if err != nil {
			return "", err
		}
		var line []string
		for _, v := range vals {
			if v.Valid {
				line = append(line, v.String)
			} else {
				line = append(line, "NULL")
			}
		}
		out = append(out, strings.Join(line, "|"))
	}
	return strings.Join(out, "\n"), rs.Err()
}

// rowStrings scans rs's current row of n columns as strings (a NULL
// one not Valid).
func rowStrings(rs *sql.Rows, n int) ([]sql.NullString, error) {
	vals := make([]sql.NullString, n)
	ptrs := make([]any, n)
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	return vals, rs.Scan(ptrs...)
}

func oneValue(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	var v sql.NullString
	if err := db.QueryRow(q).Scan(&v); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return v.String
}

// waitEqual waits up to 30 s for q to read the same on every db.
func waitEqual(t *testing.T, what, q string, want *sql.DB, dbs ...*sql.DB) string {
	t.Helper()
	w := queryText(t, want, q)
	for i, db := range dbs {
		got := ""
		for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(30 * time.Millisecond) {
			var err error
			if got, err = tryQueryText(db, q); err != nil {
				got = err.Error()
			} else if got == w {
				break
			}
		}
		if got != w {
			t.Fatalf("%s: node %d has\n%s\nwant\n%s", what, i+1, got, w)
		}
	}
	return w
}

// changeMaster points a replica at s by GTID and starts it.
func changeMaster(t *testing.T, replica *sql.DB, s *Server) {
	t.Helper()
	host, port, _ := net.SplitHostPort(s.SQLAddr().String())
	execAll(t, replica, fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos", host, port),
		"START SLAVE")
}

// TestFailoverToHandlerDBReplica: three nodes on loopback, a HandlerDB
// primary writing its binary log, a HandlerDB replica writing its own
// (keeping the primary's GTIDs) and a real MariaDB 10.11 replica, under
// SQL and HandlerSocket writes and DDL: all equal after catch-up, with
// the same GTID position, and HandlerSocket reads served on the
// HandlerDB replica. Then the primary stops; the HandlerDB replica is
// promoted with MySQL's statements (STOP SLAVE, RESET SLAVE ALL, SET
// GLOBAL read_only=OFF), the MariaDB replica re-pointed to it by GTID
// follows its writes, and the old primary rejoins as a replica of the
// new one from its own binary log's position. A server holding a
// transaction the new primary lacks is refused with error 1236 naming
// that GTID.
func TestFailoverToHandlerDBReplica(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	pdir := t.TempDir()
	p, stopP := startLogging(t, pdir, 1)
	r, _ := startLogging(t, t.TempDir(), 2)
	m, err := mariadbtest.Start("hdb-failover-", "--server-id=3")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	pdb, rdb := rootDB(t, p), rootDB(t, r)
	changeMaster(t, rdb, p)
	execAll(t, m.Root, "SET GLOBAL gtid_slave_pos = ''")
	changeMaster(t, m.Root, p)
	// The HandlerDB replica streams before the primary takes writes, so
	// that its log holds them all (a copy would start it at the copy's
	// GTID: TestCopiedReplicaIsASource).
	for deadline := time.Now().Add(20 * time.Second); slaveStatus(t, rdb)["Slave_IO_Running"] != "Yes"; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the HandlerDB replica does not stream: %v", slaveStatus(t, rdb))
		}
	}

	execAll(t, pdb, "CREATE DATABASE f", "CREATE TABLE f.t (id INT PRIMARY KEY, v VARCHAR(30), n INT)",
		"INSERT INTO f.t VALUES (1, 'sql', 1), (2, 'sql', 2)")
	c, err := hs.New(hs.Options{ReadAddr: p.HS().ReadAddr().String(), WriteAddr: p.HS().WriteAddr().String()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ctx := context.Background()
	for id := 3; id <= 20; id++ {
		if _, err := c.Index("f", "t", "PRIMARY", []string{"id", "v", "n"}).Insert(ctx, id, "hs", id); err != nil {
			t.Fatal(err)
		}
	}
	execAll(t, pdb, "UPDATE f.t SET n = n * 10 WHERE id % 3 = 0", "DELETE FROM f.t WHERE id = 7",
		"ALTER TABLE f.t ADD COLUMN w INT NOT NULL DEFAULT 5", "INSERT INTO f.t VALUES (21, 'after alter', 21, 6)")
	tx, err := pdb.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"INSERT INTO f.t VALUES (22, 'in txn', 22, 7)", "UPDATE f.t SET v = 'moved' WHERE id = 1"} {
		if _, err := tx.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	const q = "SELECT id, v, n, w FROM f.t ORDER BY id"
	gtid := oneValue(t, pdb, "SELECT @@gtid_binlog_pos")
	if !strings.HasPrefix(gtid, "0-1-") {
		t.Fatalf("the primary's GTID position %q", gtid)
	}
	waitEqual(t, "before the failover", q, pdb, rdb, m.Root)
	// The replica's log keeps the primary's GTIDs.
	if got := oneValue(t, rdb, "SELECT @@gtid_binlog_pos"); got != gtid {
		t.Fatalf("the HandlerDB replica's binary log is at %q, the primary's at %q", got, gtid)
	}
	// HandlerSocket reads on the HandlerDB replica.
	rc, err := hs.New(hs.Options{ReadAddr: r.HS().ReadAddr().String(), WriteAddr: r.HS().WriteAddr().String()})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	row, err := rc.Index("f", "t", "PRIMARY", []string{"v", "w"}).Get(ctx, 21)
	if err != nil || row.String(0) != "after alter" || row.String(1) != "6" {
		t.Fatalf("a HandlerSocket read on the replica: %v %v", row, err)
	}

	// Failover: the primary goes, the HandlerDB replica is promoted,
	// the MariaDB replica follows it from its GTID position.
	stopP()
	execAll(t, rdb, "STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL read_only = OFF")
	execAll(t, m.Root, "STOP SLAVE")
	changeMaster(t, m.Root, r)
	execAll(t, rdb, "INSERT INTO f.t VALUES (100, 'new primary', 100, 1)", "UPDATE f.t SET v = 'changed on the new' WHERE id = 2",
		"CREATE TABLE f.later (k INT PRIMARY KEY)", "INSERT INTO f.later VALUES (1), (2)")
	if _, err := rc.Index("f", "t", "PRIMARY", []string{"id", "v", "n", "w"}).Insert(ctx, 101, "hs on the new", 101, 2); err != nil {
		t.Fatal(err)
	}
	waitEqual(t, "after the failover", q, rdb, m.Root)
	waitEqual(t, "a table made after the failover", "SELECT k FROM f.later ORDER BY k", rdb, m.Root)

	// The old primary rejoins as a replica, from its own log's position.
	p2, stopP2 := startLogging(t, pdir, 1)
	p2db := rootDB(t, p2)
	changeMaster(t, p2db, r)
	waitEqual(t, "the old primary rejoined", q, rdb, p2db)
	waitEqual(t, "the old primary rejoined", "SELECT k FROM f.later ORDER BY k", rdb, p2db)
	execAll(t, rdb, "INSERT INTO f.t VALUES (102, 'followed by all', 102, 3)")
	waitEqual(t, "all three", q, rdb, p2db, m.Root)

	// A server with a transaction the new primary lacks is refused,
	// naming it.
	execAll(t, p2db, "STOP SLAVE", "RESET SLAVE ALL", "INSERT INTO f.t VALUES (900, 'only on the old', 0, 0)")
	extra := oneValue(t, p2db, "SELECT @@gtid_binlog_pos")
	stopP2()
	p3, _ := startLogging(t, pdir, 1)
	p3db := rootDB(t, p3)
	changeMaster(t, p3db, r)
	var errno, msg string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && errno != "1236"; time.Sleep(50 * time.Millisecond) {
		st := slaveStatus(t, p3db)
		errno, msg = st["Last_IO_Errno"], st["Last_IO_Error"]
	}
	if errno != "1236" || !strings.Contains(msg, extra) {
		t.Fatalf("a diverged old primary: Last_IO_Errno %q, Last_IO_Error %q (its extra GTID %s)", errno, msg, extra)
	}
}

// TestCopiedReplicaIsASource: a HandlerDB replica with --log-bin that
// started by copying its primary (the copy stays out of its log, which
// starts at the copy's GTID) has the primary's @@gtid_binlog_pos, and a
// MariaDB replica positioned exactly there follows it, a chain: the
// rows the primary takes next reach the MariaDB replica through it.
func TestCopiedReplicaIsASource(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	p, _ := startLogging(t, t.TempDir(), 1)
	pdb := rootDB(t, p)
	m, err := mariadbtest.Start("hdb-chain-", "--server-id=3")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	execAll(t, m.Root, "SET GLOBAL gtid_slave_pos = ''")
	changeMaster(t, m.Root, p)
	execAll(t, pdb, "CREATE DATABASE c", "CREATE TABLE c.t (id INT PRIMARY KEY, v VARCHAR(20))", "INSERT INTO c.t VALUES (1, 'before the copy'), (2, 'too')")
	const q = "SELECT id, v FROM c.t ORDER BY id"
	waitEqual(t, "the MariaDB replica", q, pdb, m.Root)
	gtid := oneValue(t, pdb, "SELECT @@gtid_binlog_pos")

	r, _ := startLogging(t, t.TempDir(), 2)
	rdb := rootDB(t, r)
	changeMaster(t, rdb, p) // (copies: the replica is empty)
	waitEqual(t, "the copy", q, pdb, rdb)
	if got := oneValue(t, rdb, "SELECT @@gtid_binlog_pos"); got != gtid {
		t.Fatalf("the copied replica's binary log is at %q, the primary's at %q", got, gtid)
	}
	// The MariaDB replica, at the copy's GTID, moves to the copied
	// replica and gets the primary's next rows through it.
	execAll(t, m.Root, "STOP SLAVE")
	changeMaster(t, m.Root, r)
	execAll(t, pdb, "INSERT INTO c.t VALUES (3, 'through the chain')", "UPDATE c.t SET v = 'changed' WHERE id = 1")
	waitEqual(t, "the chain", q, pdb, rdb, m.Root)
}
