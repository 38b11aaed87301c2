package replica_test

import (
	gosql "database/sql"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
)

const bigRows = 200000

// bigSetup creates big_txn on the primary: r with a primary key, a
// secondary and a unique key, 1000 committed rows; bag without a primary
// key.
func bigSetup(t *testing.T, p *primary) {
	t.Helper()
	// The big transaction grows the binlog by some 40 MB: later tests
	// get a fresh file, so that the initial copy's BINLOG_GTID_POS (which
	// reads the file from its start) stays quick.
	t.Cleanup(func() { p.Root.Exec("FLUSH BINARY LOGS") })
	p.exec(t, "DROP DATABASE IF EXISTS big_txn", "CREATE DATABASE big_txn",
		"CREATE TABLE big_txn.r (id INT PRIMARY KEY, g INT, v VARCHAR(200), u VARCHAR(20), KEY g (g), UNIQUE KEY u (u))",
		"CREATE TABLE big_txn.bag (g INT, n INT)")
	p.execIn(t, "big_txn",
		"INSERT INTO r SELECT seq, seq % 97, CONCAT('c', seq), CONCAT('u', seq) FROM seq_1_to_1000",
		"INSERT INTO bag SELECT seq % 5, -seq FROM seq_1_to_100")
}

// bigTxn runs one primary transaction of about 40 MB of row events:
// 199,000 inserts, updates (of the unique key too) and deletes of
// committed and new rows, and changes to the table without a key.
func bigTxn(t *testing.T, p *primary) {
	t.Helper()
	p.execIn(t, "big_txn", "BEGIN",
		fmt.Sprintf("INSERT INTO r SELECT seq, seq %% 97, REPEAT(CHAR(65 + seq %% 26), 150), CONCAT('u', seq) FROM seq_1001_to_%d", bigRows),
		"UPDATE r SET g = g + 1000, u = CONCAT('w', id) WHERE id % 7 = 0",
		"DELETE FROM r WHERE id % 11 = 0",
		"INSERT INTO bag SELECT seq % 5, seq FROM seq_1_to_600",
		"DELETE FROM bag WHERE n % 3 = 0",
		"UPDATE bag SET n = n + 10000 WHERE g = 1",
		"COMMIT")
}

// bigSame compares the two tables with the primary's.
func bigSame(t *testing.T, p *primary, db *gosql.DB) {
	t.Helper()
	for table, order := range map[string]string{"big_txn.r": "id", "big_txn.bag": "g, n"} {
		sameRows(t, table, dump(t, p.Root, table, order), dump(t, db, table, order))
	}
}

// TestBigTransaction: a primary transaction far larger than the staging
// threshold (1 MiB here) is applied as a staged job: readers see the
// table before it or after it, never part of it; the rows held in memory
// stay within the threshold and the stage's memory within its chunk and
// memtables; afterwards the tables equal the primary's.
func TestBigTransaction(t *testing.T) {
	p := sharedPrimary(t)
	bigSetup(t, p)
	s := startReplica(t, "", func(c *config.Config) { c.ReplicaStageBytes = 1 << 20 })
	db := sqlOf(t, s)
	follow(t, db, p)
	catchUp(t, db, p, 30*time.Second)
	var before, after int
	if err := db.QueryRow("SELECT COUNT(*) FROM big_txn.r").Scan(&before); err != nil || before != 1000 {
		t.Fatalf("replica before: %d rows (%v)", before, err)
	}

	bigTxn(t, p)
	if err := p.Root.QueryRow("SELECT COUNT(*) FROM big_txn.r").Scan(&after); err != nil {
		t.Fatal(err)
	}
	// Readers while the transaction is applied: all or nothing.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	seen := map[int]int{}
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			var n int
			if err := db.QueryRow("SELECT COUNT(*) FROM big_txn.r").Scan(&n); err != nil {
				t.Error(err)
				return
			}
			seen[n]++
			time.Sleep(5 * time.Millisecond)
		}
	}()
	catchUp(t, db, p, 3*time.Minute)
	close(stop)
	wg.Wait()
	for n := range seen {
		if n != before && n != after {
			t.Errorf("a reader saw %d rows: part of the transaction (before %d, after %d; seen %v)", n, before, after, seen)
		}
	}
	bigSame(t, p, db)

	txns, held := s.Replica().StagedTransactions()
	peak := s.Engine().Stats().StagedPeakBytes.Load()
	var binlogBytes int64
	if err := p.Root.QueryRow("SELECT SUM(LENGTH(v)) FROM big_txn.r").Scan(&binlogBytes); err != nil {
		t.Fatal(err)
	}
	t.Logf("row counts readers saw: %v", seen)
	t.Logf("staged transactions %d, row events held at most %d bytes, stage memory peak %d bytes; the table's text alone is %d bytes", txns, held, peak, binlogBytes)
	if txns != 1 {
		t.Fatalf("%d staged transactions, want 1", txns)
	}
	if st := s.Replica().Stats(); st.Staged != txns {
		t.Errorf("Stats().Staged (handlerdb_replica_staged_transactions_total) is %d, want %d", st.Staged, txns)
	}
	if held <= 0 || held > 1<<20+64<<10 {
		t.Fatalf("row events held in memory peaked at %d bytes; the threshold is 1 MiB", held)
	}
	// The stage's memory is its 1 MiB chunk and the staging store's
	// 4 MiB memtables (two queued at most, a third being allocated
	// while one flushes): a constant, not the transaction's size.
	if peak <= 0 || peak > 14<<20 || binlogBytes < peak {
		t.Fatalf("stage memory peak %d bytes (bound: 1 MiB chunk + three 4 MiB memtables) for a %d-byte table", peak, binlogBytes)
	}
	p.exec(t, "DROP DATABASE big_txn")
}

// TestBigTransactionKill9: the replica process is killed with SIGKILL
// while it stages a large transaction (its staging directory exists),
// twice; after the restarts it applies the transaction once, whole.
func TestBigTransactionKill9(t *testing.T) {
	p := sharedPrimary(t)
	bigSetup(t, p)
	source := fmt.Sprintf("%s:%s@%s", replUser, replPass, p.Addr())
	dir := t.TempDir()
	stageEnv := childStageEnv + "=1048576"
	c := startChild(t, dir, source, stageEnv)
	catchUp(t, c.db, p, 30*time.Second)
	bigTxn(t, p)
	var after int
	if err := p.Root.QueryRow("SELECT COUNT(*) FROM big_txn.r").Scan(&after); err != nil {
		t.Fatal(err)
	}
	staging := func() bool {
		m, _ := filepath.Glob(filepath.Join(dir, "handlerdb-stage", "*", "*"))
		return len(m) > 0
	}
	for round := 0; round < 2; round++ {
		deadline := time.Now().Add(2 * time.Minute)
		for !staging() {
			if time.Now().After(deadline) {
				c.kill()
				t.Fatalf("round %d: the replica never staged the transaction", round)
			}
			time.Sleep(2 * time.Millisecond)
		}
		time.Sleep(time.Duration(round*300) * time.Millisecond)
		c.kill()
		c = startChild(t, dir, source, stageEnv)
		var n int
		if err := c.db.QueryRow("SELECT COUNT(*) FROM big_txn.r").Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == after {
			t.Logf("round %d: the kill came after the ingest", round)
			break
		}
		if n != 1000 {
			t.Fatalf("round %d: after the kill the replica holds %d rows, want the 1000 before the transaction or the %d after", round, n, after)
		}
	}
	catchUp(t, c.db, p, 3*time.Minute)
	bigSame(t, p, c.db)
	c.kill()
	p.exec(t, "DROP DATABASE big_txn")
}
