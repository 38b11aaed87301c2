package replica_test

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/replica"
)

// TestInitialCopy: a replica that starts empty while the primary already
// holds data copies the primary first, while the primary goes on
// committing transactions; it then streams from the copy's snapshot, so
// that after catch-up every table is equal to the primary's (a
// transaction applied twice would stop the replica on a duplicate key or
// double a row of the table without a primary key; one missed would
// leave a difference). The copy's progress shows in SHOW REPLICA STATUS
// and /metrics.
func TestInitialCopy(t *testing.T) {
	p := sharedPrimary(t)
	const bigRows = 50000
	p.exec(t, "DROP DATABASE IF EXISTS rcp", "CREATE DATABASE rcp",
		strings.Replace(itemsDDL, "rw.items", "rcp.items", 1),
		"CREATE TABLE rcp.big (id INT PRIMARY KEY, g INT NOT NULL, v VARCHAR(40), KEY g (g))",
		"CREATE TABLE rcp.nopk (a INT, b VARCHAR(10))",
		"INSERT INTO rcp.nopk VALUES (1,'x'),(1,'x'),(2,'y')")
	// seq_1_to_n: MariaDB's sequence tables, in the default database.
	p.execIn(t, "rcp", fmt.Sprintf("INSERT INTO rcp.big SELECT seq, seq %% 97, CONCAT('v', seq) FROM seq_1_to_%d", bigRows))
	w := &workload{t: t, db: p.Root, rnd: rand.New(rand.NewPCG(14, 2)), table: "rcp.items"}
	w.run(200)

	// A writer commits transactions before, during and after the copy.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var writes atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		ctx := context.Background()
		conn, err := p.Root.Conn(ctx)
		if err != nil {
			t.Error(err)
			return
		}
		defer conn.Close()
		rnd := rand.New(rand.NewPCG(3, 4))
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			for _, q := range []string{
				"BEGIN",
				fmt.Sprintf("UPDATE rcp.big SET g = g + 1, v = 'u%d' WHERE id = %d", i, 1+rnd.IntN(bigRows)),
				fmt.Sprintf("INSERT INTO rcp.big VALUES (%d, %d, 'new')", 1_000_000+i, i%97),
				fmt.Sprintf("DELETE FROM rcp.big WHERE id = %d", 1+rnd.IntN(bigRows)),
				fmt.Sprintf("INSERT INTO rcp.nopk VALUES (%d, 'w')", i%5),
				"COMMIT",
			} {
				if _, err := conn.ExecContext(ctx, q); err != nil {
					t.Errorf("primary: %s: %v", q, err)
					return
				}
			}
			writes.Add(1)
		}
	}()
	defer func() {
		select {
		case <-stop:
		default:
			close(stop)
		}
		wg.Wait()
	}()
	for writes.Load() < 20 {
		time.Sleep(time.Millisecond)
	}

	s := startReplica(t, "", func(c *config.Config) { c.AdminAddress = "127.0.0.1:0" })
	rdb := sqlOf(t, s)
	follow(t, rdb, p)
	var sawCopy, sawState bool
	var atCopy, atDone int64
	for deadline := time.Now().Add(60 * time.Second); ; {
		st := s.Replica().Stats()
		if st.Copying {
			if !sawCopy {
				sawCopy, atCopy = true, writes.Load()
			}
			if !sawState {
				rs := replicaStatus(t, rdb)
				sawState = strings.HasPrefix(rs["Replica_SQL_Running_State"], "Initial copy: ") && rs["Seconds_Behind_Source"] == ""
			}
		} else if st.CopyRows > 0 {
			atDone = writes.Load()
			break
		}
		if st.LastSQLError != "" || st.LastIOErrno == 1236 {
			t.Fatalf("replica stopped: %s %s", st.LastSQLError, st.LastIOError)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the initial copy did not end: %+v", st)
		}
		time.Sleep(time.Millisecond)
	}
	if !sawCopy || !sawState {
		t.Errorf("the copy's progress was not seen: in Stats %v, in SHOW REPLICA STATUS %v", sawCopy, sawState)
	}
	t.Logf("writes on the primary during the copy: at least %d", atDone-atCopy)
	for writes.Load() < atDone+20 {
		time.Sleep(time.Millisecond)
	}
	close(stop)
	wg.Wait()
	catchUp(t, rdb, p, 60*time.Second)
	compareAll(t, p, s, rdb, map[string]string{"rcp.items": "id", "rcp.big": "id", "rcp.nopk": "a, b"})

	st := s.Replica().Stats()
	if st.CopyRows < bigRows {
		t.Errorf("the copy wrote %d rows, want at least %d", st.CopyRows, bigRows)
	}
	t.Logf("copied %d rows at %.0f rows/s", st.CopyRows, st.CopyRate)
	rs := replicaStatus(t, rdb)
	if rs["Seconds_Behind_Source"] != "0" || !strings.HasPrefix(rs["Replica_SQL_Running_State"], "Replica has read all relay log") ||
		rs["Source_Log_File"] == "" || rs["Exec_Source_Log_Pos"] == "0" {
		t.Errorf("caught up: Seconds_Behind_Source %q, state %q, file %q pos %q", rs["Seconds_Behind_Source"], rs["Replica_SQL_Running_State"], rs["Source_Log_File"], rs["Exec_Source_Log_Pos"])
	}

	resp, err := http.Get("http://" + s.AdminAddr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`(?m)^handlerdb_replica_copy_rows (\S+)$`).FindStringSubmatch(string(body))
	if m == nil {
		t.Error("/metrics lacks handlerdb_replica_copy_rows")
	} else if n, _ := strconv.ParseFloat(m[1], 64); n < bigRows {
		t.Errorf("/metrics copy rows: %v", m)
	}
	for _, want := range []string{"handlerdb_replica_copy_running 0", "handlerdb_replica_seconds_behind_source 0"} {
		if !strings.Contains(string(body), want+"\n") {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	p.exec(t, "DROP DATABASE rcp")
	catchUp(t, rdb, p, 10*time.Second)
}

// TestKillDuringCopy: a replica killed with SIGKILL in the middle of its
// initial copy copies again from scratch when it restarts (the tables the
// first copy left are dropped: rows copied twice would stop it on a
// duplicate key), and then equals the primary.
func TestKillDuringCopy(t *testing.T) {
	p := sharedPrimary(t)
	const rows = 200000
	p.exec(t, "DROP DATABASE IF EXISTS rk", "CREATE DATABASE rk",
		"CREATE TABLE rk.a (id INT PRIMARY KEY, v VARCHAR(40), KEY v (v))", "CREATE TABLE rk.b (id INT PRIMARY KEY)")
	p.execIn(t, "rk", fmt.Sprintf("INSERT INTO rk.a SELECT seq, CONCAT('v', seq) FROM seq_1_to_%d", rows), "INSERT INTO rk.b SELECT seq FROM seq_1_to_1000")
	source := fmt.Sprintf("%s:%s@%s", replUser, replPass, p.Addr())
	dir := t.TempDir()
	c := startChild(t, dir, source)
	for deadline := time.Now().Add(60 * time.Second); ; {
		rs := replicaStatus(t, c.db)
		if state := rs["Replica_SQL_Running_State"]; strings.HasPrefix(state, "Initial copy: ") && !strings.HasPrefix(state, "Initial copy: 0 ") {
			t.Logf("killed at %q", state)
			break
		}
		if rs["Seconds_Behind_Source"] == "0" {
			t.Fatal("the copy ended before the kill")
		}
		if time.Now().After(deadline) {
			t.Fatalf("no copy seen: %v", rs)
		}
		time.Sleep(time.Millisecond)
	}
	c.kill()
	p.exec(t, "INSERT INTO rk.b VALUES (1001)", "UPDATE rk.a SET v = 'changed' WHERE id = 7")
	c = startChild(t, dir, source)
	defer c.kill()
	catchUp(t, c.db, p, 120*time.Second)
	for table, order := range map[string]string{"rk.a": "id", "rk.b": "id"} {
		sameRows(t, table, dump(t, p.Root, table, order), dump(t, c.db, table, order))
	}
	p.exec(t, "DROP DATABASE rk")
}

// TestCopySchemaChange: DDL on the primary right after the copy's
// snapshot is taken (before the copy reads the tables' SHOW CREATE TABLE,
// which no snapshot covers) must not leave the replica with the new
// schema under the old rows and the ALTER still to come from the stream:
// the copy sees that the schemas moved and starts again, and the replica
// then equals the primary.
func TestCopySchemaChange(t *testing.T) {
	p := sharedPrimary(t)
	p.exec(t, "DROP DATABASE IF EXISTS rcs", "CREATE DATABASE rcs",
		"CREATE TABLE rcs.t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO rcs.t VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	var once sync.Once
	var hookErr atomic.Value
	altered := make(chan struct{})
	replica.SetCopySnapshotHook(func() {
		once.Do(func() {
			if _, err := p.Root.Exec("ALTER TABLE rcs.t ADD COLUMN w INT NOT NULL DEFAULT 7"); err != nil {
				hookErr.Store(err)
			}
			close(altered)
		})
	})
	t.Cleanup(func() { replica.SetCopySnapshotHook(nil) })

	s := startReplica(t, "", nil)
	rdb := sqlOf(t, s)
	follow(t, rdb, p)
	select {
	case <-altered:
	case <-time.After(60 * time.Second):
		t.Fatal("the initial copy did not start")
	}
	catchUp(t, rdb, p, 60*time.Second)
	if err := hookErr.Load(); err != nil {
		t.Fatalf("ALTER on the primary: %v", err)
	}
	p.exec(t, "INSERT INTO rcs.t VALUES (4, 'd', 8)", "UPDATE rcs.t SET w = 9 WHERE id = 2")
	catchUp(t, rdb, p, 30*time.Second)
	sameRows(t, "rcs.t", dumpCols(t, p.Root, "id, v, w", "rcs.t", "id"), dumpCols(t, rdb, "id, v, w", "rcs.t", "id"))
	p.exec(t, "DROP DATABASE rcs")
	catchUp(t, rdb, p, 10*time.Second)
}
