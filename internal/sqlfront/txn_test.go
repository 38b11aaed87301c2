package sqlfront

import (
	"bufio"
	"context"
	gosql "database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"

	"github.com/handlerdb/handlerdb/internal/hsfront"
)

// Transactions across sessions: REPEATABLE READ's snapshot, READ
// COMMITTED, row locks (FOR UPDATE, LOCK IN SHARE MODE, UPDATE), lock wait
// timeouts and deadlocks, over real connections. Each scenario runs
// against HandlerDB and, when HANDLERDB_TXN_MARIADB holds a DSN such as
// bench:bench@tcp(127.0.0.1:13306)/, against that MariaDB too (in database
// rr_txn), so that the expectations are MariaDB's.

// txnTarget is a server to run a scenario on.
type txnTarget struct {
	name string
	// conn opens a dedicated connection on the scenario's database.
	conn func(t *testing.T) *gosql.Conn
	// hsInsert, when set, inserts a row through HandlerSocket's write
	// port (HandlerDB only).
	hsInsert func(t *testing.T, id, v int)
}

// txnTargets returns the servers each scenario runs on, with table acct
// (id INT PRIMARY KEY, v INT) holding (1,10), (2,20), (3,30).
func txnTargets(t *testing.T) []txnTarget {
	var out []txnTarget
	ts := startTestServer(t, "", Config{})
	hs := hsfront.New(ts.e, hsfront.Config{ReadAddr: "127.0.0.1:0", WriteAddr: "127.0.0.1:0"})
	if err := hs.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
	})
	mustExec(t, ts.open(""), "CREATE DATABASE tx")
	out = append(out, txnTarget{
		name: "handlerdb",
		conn: func(t *testing.T) *gosql.Conn { return ts.conn("tx") },
		hsInsert: func(t *testing.T, id, v int) {
			c, err := net.Dial("tcp", hs.WriteAddr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			fmt.Fprintf(c, "P\t1\ttx\tacct\tPRIMARY\tid,v\n1\t+\t2\t%d\t%d\n", id, v)
			r := bufio.NewReader(c)
			for i := 0; i < 2; i++ {
				line, err := r.ReadString('\n')
				if err != nil || line[0] != '0' {
					t.Fatalf("HandlerSocket: %q %v", line, err)
				}
			}
		},
	})
	if dsn := os.Getenv("HANDLERDB_TXN_MARIADB"); dsn != "" {
		root, err := gosql.Open("mysql", dsn)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { root.Close() })
		mustExec(t, root, "DROP DATABASE IF EXISTS rr_txn", "CREATE DATABASE rr_txn")
		db, err := gosql.Open("mysql", dsn+"rr_txn")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		out = append(out, txnTarget{
			name: "mariadb",
			conn: func(t *testing.T) *gosql.Conn {
				c, err := db.Conn(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { c.Close() })
				return c
			},
		})
	}
	return out
}

// runTxn runs scenario fn on every target with a fresh acct table.
func runTxn(t *testing.T, fn func(t *testing.T, tg txnTarget)) {
	for _, tg := range txnTargets(t) {
		t.Run(tg.name, func(t *testing.T) {
			c := tg.conn(t)
			mustExec(t, c, "DROP TABLE IF EXISTS acct", "CREATE TABLE acct (id INT PRIMARY KEY, v INT) ENGINE=InnoDB",
				"INSERT INTO acct VALUES (1, 10), (2, 20), (3, 30)")
			c.Close()
			fn(t, tg)
		})
	}
}

// sqlErrno returns the MySQL error number of err, or 0.
func sqlErrno(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

func TestTxnRepeatableReadSnapshot(t *testing.T) {
	runTxn(t, func(t *testing.T, tg txnTarget) {
		a, b := tg.conn(t), tg.conn(t)
		expectRows(t, a, "SELECT @@tx_isolation", "REPEATABLE-READ")
		mustExec(t, a, "BEGIN")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "10") // the snapshot is taken here
		mustExec(t, b, "UPDATE acct SET v = 11 WHERE id = 1", "INSERT INTO acct VALUES (4, 40)", "DELETE FROM acct WHERE id = 3")
		if tg.hsInsert != nil {
			tg.hsInsert(t, 5, 50)
		}
		expectRows(t, a, "SELECT id, v FROM acct", "1|10", "2|20", "3|30")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 4")
		expectRows(t, a, "SELECT COUNT(*), SUM(v) FROM acct WHERE id >= 2", "2|50")
		// Its own writes are visible over the snapshot (an UPDATE reads
		// the newest row: 11 + 100).
		mustExec(t, a, "UPDATE acct SET v = v + 100 WHERE id = 1", "INSERT INTO acct VALUES (6, 60)", "DELETE FROM acct WHERE id = 2")
		expectRows(t, a, "SELECT id, v FROM acct", "1|111", "3|30", "6|60")
		expectRows(t, a, "SELECT id, v FROM acct ORDER BY id DESC", "6|60", "3|30", "1|111")
		// Still invisible to the other session until the commit.
		expectRows(t, b, "SELECT id, v FROM acct WHERE id IN (1, 2, 6)", "1|11", "2|20")
		mustExec(t, a, "COMMIT")
		want := []string{"1|111", "4|40", "6|60"}
		if tg.hsInsert != nil {
			want = []string{"1|111", "4|40", "5|50", "6|60"}
		}
		expectRows(t, a, "SELECT id, v FROM acct", want...)
		expectRows(t, b, "SELECT id, v FROM acct", want...)
	})
}

func TestTxnSnapshotIsTakenAtFirstRead(t *testing.T) {
	runTxn(t, func(t *testing.T, tg txnTarget) {
		a, b := tg.conn(t), tg.conn(t)
		// BEGIN takes no snapshot: a commit before the first read is seen.
		mustExec(t, a, "BEGIN")
		mustExec(t, b, "UPDATE acct SET v = 12 WHERE id = 1")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "12")
		mustExec(t, a, "COMMIT")
		// WITH CONSISTENT SNAPSHOT takes it at once.
		mustExec(t, a, "START TRANSACTION WITH CONSISTENT SNAPSHOT")
		mustExec(t, b, "UPDATE acct SET v = 13 WHERE id = 1")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "12")
		mustExec(t, a, "COMMIT")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "13")
		// With autocommit off the transaction starts by itself.
		mustExec(t, a, "SET autocommit = 0")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 2", "20")
		mustExec(t, b, "UPDATE acct SET v = 21 WHERE id = 2")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 2", "20")
		mustExec(t, a, "COMMIT")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 2", "21")
		mustExec(t, a, "COMMIT", "SET autocommit = 1")
	})
}

func TestTxnReadCommitted(t *testing.T) {
	runTxn(t, func(t *testing.T, tg txnTarget) {
		a, b := tg.conn(t), tg.conn(t)
		mustExec(t, a, "SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED")
		expectRows(t, a, "SELECT @@tx_isolation", "READ-COMMITTED")
		mustExec(t, a, "BEGIN")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "10")
		mustExec(t, b, "UPDATE acct SET v = 14 WHERE id = 1")
		if tg.hsInsert != nil {
			tg.hsInsert(t, 7, 70)
			expectRows(t, a, "SELECT v FROM acct WHERE id = 7", "70")
		}
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "14")
		mustExec(t, a, "COMMIT")
		mustExec(t, a, "SET tx_isolation = 'REPEATABLE-READ'")
		mustExec(t, a, "BEGIN")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "14")
		mustExec(t, b, "UPDATE acct SET v = 15 WHERE id = 1")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "14")
		mustExec(t, a, "COMMIT")
	})
}

// TestTxnLostUpdate has sessions read-modify-write one counter with
// SELECT ... FOR UPDATE: no increment may be lost.
func TestTxnLostUpdate(t *testing.T) {
	runTxn(t, func(t *testing.T, tg txnTarget) {
		const workers, rounds = 4, 25
		ctx := context.Background()
		runWorkers(t, tg, workers, func(c *gosql.Conn) error {
			for i := 0; i < rounds; i++ {
				if _, err := c.ExecContext(ctx, "BEGIN"); err != nil {
					return err
				}
				var v int
				if err := c.QueryRowContext(ctx, "SELECT v FROM acct WHERE id = 1 FOR UPDATE").Scan(&v); err != nil {
					return err
				}
				if _, err := c.ExecContext(ctx, "UPDATE acct SET v = "+strconv.Itoa(v+1)+" WHERE id = 1"); err != nil {
					return err
				}
				if _, err := c.ExecContext(ctx, "COMMIT"); err != nil {
					return err
				}
			}
			return nil
		})
		expectRows(t, tg.conn(t), "SELECT v FROM acct WHERE id = 1", strconv.Itoa(10+workers*rounds))
	})
}

// TestTxnUpdateIncrements has autocommit UPDATEs increment a counter at
// once: each reads the row it changes as newly committed, under its lock.
func TestTxnUpdateIncrements(t *testing.T) {
	runTxn(t, func(t *testing.T, tg txnTarget) {
		const workers, rounds = 4, 25
		runWorkers(t, tg, workers, func(c *gosql.Conn) error {
			for i := 0; i < rounds; i++ {
				if _, err := c.ExecContext(context.Background(), "UPDATE acct SET v = v + 1 WHERE id = 2"); err != nil {
					return err
				}
			}
			return nil
		})
		expectRows(t, tg.conn(t), "SELECT v FROM acct WHERE id = 2", strconv.Itoa(20+workers*rounds))
	})
}

func TestTxnLockWaitTimeout(t *testing.T) {
	runTxn(t, func(t *testing.T, tg txnTarget) {
		a, b := tg.conn(t), tg.conn(t)
		expectRows(t, b, "SELECT @@innodb_lock_wait_timeout", "50")
		mustExec(t, b, "SET innodb_lock_wait_timeout = 1")
		expectRows(t, b, "SELECT @@innodb_lock_wait_timeout, @@global.innodb_lock_wait_timeout", "1|50")
		mustExec(t, a, "BEGIN")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1 FOR UPDATE", "10")
		for _, q := range []string{
			"UPDATE acct SET v = 0 WHERE id = 1",
			"SELECT v FROM acct WHERE id = 1 FOR UPDATE",
			"SELECT v FROM acct WHERE id = 1 LOCK IN SHARE MODE",
			"DELETE FROM acct WHERE id = 1",
		} {
			start := time.Now()
			_, err := b.ExecContext(context.Background(), q)
			if sqlErrno(err) != 1205 || err.Error() != "Error 1205 (HY000): Lock wait timeout exceeded; try restarting transaction" {
				t.Fatalf("%s: %v, want 1205", q, err)
			}
			if d := time.Since(start); d < 900*time.Millisecond || d > 5*time.Second {
				t.Fatalf("%s: failed after %v, want about 1 s", q, d)
			}
		}
		// The same through a prepared statement (go-sql-driver prepares
		// a query with arguments on the HandlerDB target's DSN).
		if _, err := b.ExecContext(context.Background(), "SELECT v FROM acct WHERE id = ? FOR UPDATE", 1); sqlErrno(err) != 1205 {
			t.Fatalf("prepared FOR UPDATE: %v, want 1205", err)
		}
		if _, err := b.ExecContext(context.Background(), "UPDATE acct SET v = ? WHERE id = ?", 0, 1); sqlErrno(err) != 1205 {
			t.Fatalf("prepared UPDATE: %v, want 1205", err)
		}
		// A plain read does not wait, other rows are free.
		expectRows(t, b, "SELECT v FROM acct WHERE id = 1", "10")
		mustExec(t, b, "UPDATE acct SET v = 22 WHERE id = 2")
		// Shared locks share.
		mustExec(t, a, "ROLLBACK", "BEGIN")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 3 LOCK IN SHARE MODE", "30")
		expectRows(t, b, "SELECT v FROM acct WHERE id = 3 LOCK IN SHARE MODE", "30")
		if _, err := b.ExecContext(context.Background(), "UPDATE acct SET v = 0 WHERE id = 3"); sqlErrno(err) != 1205 {
			t.Fatalf("update of a row another shares: %v, want 1205", err)
		}
		// A timeout fails the statement only: the transaction goes on.
		mustExec(t, b, "BEGIN", "UPDATE acct SET v = 23 WHERE id = 2")
		if _, err := b.ExecContext(context.Background(), "UPDATE acct SET v = 23 WHERE id IN (2, 3)"); sqlErrno(err) != 1205 {
			t.Fatalf("update in a transaction: %v, want 1205", err)
		}
		mustExec(t, b, "COMMIT")
		mustExec(t, a, "COMMIT")
		expectRows(t, a, "SELECT id, v FROM acct WHERE id IN (2, 3)", "2|23", "3|30")
	})
}

// TestTxnLocksReleased checks that ROLLBACK, COMMIT and a closed
// connection let go of the locks.
func TestTxnLocksReleased(t *testing.T) {
	runTxn(t, func(t *testing.T, tg txnTarget) {
		a, b := tg.conn(t), tg.conn(t)
		mustExec(t, b, "SET innodb_lock_wait_timeout = 2")
		for _, end := range []string{"ROLLBACK", "COMMIT"} {
			mustExec(t, a, "BEGIN", "UPDATE acct SET v = v + 1 WHERE id = 1")
			expectRows(t, a, "SELECT id FROM acct WHERE id = 2 FOR UPDATE", "2")
			done := make(chan error, 1)
			go func() {
				_, err := b.ExecContext(context.Background(), "UPDATE acct SET v = v + 10 WHERE id IN (1, 2)")
				done <- err
			}()
			time.Sleep(200 * time.Millisecond)
			mustExec(t, a, end)
			if err := <-done; err != nil {
				t.Fatalf("after %s: %v", end, err)
			}
		}
		expectRows(t, b, "SELECT v FROM acct WHERE id IN (1, 2)", "31", "40")
		// A connection that closes inside its transaction.
		c := tg.conn(t)
		mustExec(t, c, "BEGIN")
		expectRows(t, c, "SELECT v FROM acct WHERE id = 1 FOR UPDATE", "31")
		go func() {
			time.Sleep(200 * time.Millisecond)
			c.Raw(func(dc any) error { return dc.(interface{ Close() error }).Close() })
		}()
		mustExec(t, b, "UPDATE acct SET v = 32 WHERE id = 1")
		expectRows(t, b, "SELECT v FROM acct WHERE id = 1", "32")
	})
}

func TestTxnDeadlock(t *testing.T) {
	runTxn(t, func(t *testing.T, tg txnTarget) {
		a, b := tg.conn(t), tg.conn(t)
		mustExec(t, a, "BEGIN", "UPDATE acct SET v = 100 WHERE id = 1")
		mustExec(t, b, "BEGIN", "UPDATE acct SET v = 200 WHERE id = 2")
		done := make(chan error, 1)
		go func() {
			_, err := a.ExecContext(context.Background(), "UPDATE acct SET v = 101 WHERE id = 2")
			done <- err
		}()
		time.Sleep(300 * time.Millisecond) // a waits for b
		_, berr := b.ExecContext(context.Background(), "UPDATE acct SET v = 201 WHERE id = 1")
		var aerr error
		if berr == nil {
			aerr = <-done
		}
		// Exactly one of them is the victim, at once.
		victim, winner := b, a
		verr := berr
		if berr == nil {
			victim, winner, verr = a, b, aerr
		}
		if sqlErrno(verr) != 1213 || verr.Error() != "Error 1213 (40001): Deadlock found when trying to get lock; try restarting transaction" {
			t.Fatalf("deadlock: a %v, b %v", aerr, berr)
		}
		if berr != nil {
			if err := <-done; err != nil {
				t.Fatalf("the other transaction: %v", err)
			}
		}
		mustExec(t, winner, "COMMIT")
		// The victim's transaction was rolled back whole, and ended: its
		// next statement commits by itself.
		mustExec(t, victim, "UPDATE acct SET v = 300 WHERE id = 3")
		expectRows(t, winner, "SELECT v FROM acct WHERE id = 3", "300")
		mustExec(t, victim, "COMMIT")
		if victim == b {
			expectRows(t, b, "SELECT id, v FROM acct WHERE id <= 2", "1|100", "2|101")
		} else {
			expectRows(t, b, "SELECT id, v FROM acct WHERE id <= 2", "1|201", "2|200")
		}
	})
}

// TestTxnSerializable checks SET TRANSACTION (the next transaction only)
// and SERIALIZABLE, whose plain reads take shared locks.
func TestTxnSerializable(t *testing.T) {
	runTxn(t, func(t *testing.T, tg txnTarget) {
		a, b := tg.conn(t), tg.conn(t)
		mustExec(t, b, "SET innodb_lock_wait_timeout = 1")
		mustExec(t, a, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
		expectRows(t, a, "SELECT @@tx_isolation", "REPEATABLE-READ")
		mustExec(t, a, "BEGIN")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "10")
		if _, err := b.ExecContext(context.Background(), "UPDATE acct SET v = 0 WHERE id = 1"); sqlErrno(err) != 1205 {
			t.Fatalf("update of a row a SERIALIZABLE transaction read: %v, want 1205", err)
		}
		expectRows(t, b, "SELECT v FROM acct WHERE id = 1 LOCK IN SHARE MODE", "10")
		mustExec(t, a, "COMMIT")
		// The next transaction is REPEATABLE READ again: no lock.
		mustExec(t, a, "BEGIN")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "10")
		mustExec(t, b, "UPDATE acct SET v = 16 WHERE id = 1")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "10")
		mustExec(t, a, "COMMIT")
	})
}

// TestTxnGlobalIsolation sets the global level, which new connections
// take (HandlerDB only: the MariaDB server is shared).
func TestTxnGlobalIsolation(t *testing.T) {
	tg := txnTargets(t)[0]
	a := tg.conn(t)
	mustExec(t, a, "SET GLOBAL TRANSACTION ISOLATION LEVEL READ COMMITTED")
	defer mustExec(t, a, "SET GLOBAL tx_isolation = 'REPEATABLE-READ'")
	expectRows(t, a, "SELECT @@tx_isolation, @@global.tx_isolation", "REPEATABLE-READ|READ-COMMITTED")
	c := tg.conn(t)
	expectRows(t, c, "SELECT @@tx_isolation", "READ-COMMITTED")
	mustExec(t, a, "SET GLOBAL tx_isolation = 'SERIALIZABLE'")
	expectRows(t, a, "SELECT @@global.tx_isolation", "SERIALIZABLE")
	mustExec(t, c, "SET SESSION tx_isolation = 'READ-UNCOMMITTED'")
	expectRows(t, c, "SELECT @@tx_isolation", "READ-UNCOMMITTED")
	// MySQL 8's name is not MariaDB 10.11's (1193 there too), though
	// go-mysql-server keeps it for SET TRANSACTION.
	for _, q := range []string{"SELECT @@transaction_isolation", "SELECT @@global.transaction_isolation",
		"SET SESSION transaction_isolation = 'READ-COMMITTED'"} {
		if _, err := c.ExecContext(context.Background(), q); err == nil || !strings.Contains(err.Error(), "Error 1193") {
			t.Errorf("%s: %v, want error 1193", q, err)
		}
	}
}

// TestTxnSnapshotAfterDDL reads, inside a REPEATABLE READ transaction, a
// table created (and, on HandlerDB, a table rebuilt) after its snapshot:
// error 1412.
func TestTxnSnapshotAfterDDL(t *testing.T) {
	runTxn(t, func(t *testing.T, tg txnTarget) {
		a, b := tg.conn(t), tg.conn(t)
		mustExec(t, b, "DROP TABLE IF EXISTS later")
		mustExec(t, a, "BEGIN")
		expectRows(t, a, "SELECT v FROM acct WHERE id = 1", "10")
		// MariaDB's ALTER would wait for a's transaction (a metadata lock);
		// HandlerDB has none, and a's snapshot cannot read the rebuilt rows.
		qs := []string{"SELECT * FROM later"}
		if tg.hsInsert != nil {
			mustExec(t, b, "ALTER TABLE acct ADD COLUMN w INT")
			qs = append(qs, "SELECT * FROM acct")
		}
		mustExec(t, b, "CREATE TABLE later (id INT PRIMARY KEY)", "INSERT INTO later VALUES (1)")
		for _, q := range qs {
			_, err := a.ExecContext(context.Background(), q)
			// HandlerDB's 1412 names the table, as errtable words it for
			// commits too: "... retry transaction (tx.later)".
			if sqlErrno(err) != 1412 || !strings.HasPrefix(err.Error(), "Error 1412 (HY000): Table definition has changed, please retry transaction") {
				t.Fatalf("%s: %v, want 1412", q, err)
			}
		}
		mustExec(t, a, "COMMIT")
		expectRows(t, a, "SELECT * FROM later", "1")
	})
}

// runWorkers runs work on n connections of tg at once, each on its own
// goroutine, and fails t with the first error any of them returned.
func runWorkers(t *testing.T, tg txnTarget, n int, work func(c *gosql.Conn) error) {
	t.Helper()
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for w := 0; w < n; w++ {
		c := tg.conn(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := work(c); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// TestInTransaction: @@in_transaction follows the session's transaction
// (BEGIN, COMMIT, autocommit off after a read, ROLLBACK), SHOW VARIABLES
// lists it as a number, and setting it, like any read-only variable, is
// 1238, as MariaDB 10.11 answered the same statements.
func TestInTransaction(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE it", "USE it", "CREATE TABLE c (a INT PRIMARY KEY)", "INSERT INTO c VALUES (1)")
	expectRows(t, c, "SELECT @@in_transaction", "0")
	mustExec(t, c, "BEGIN")
	expectRows(t, c, "SELECT @@in_transaction, @@session.in_transaction", "1|1")
	mustExec(t, c, "COMMIT")
	expectRows(t, c, "SELECT @@in_transaction", "0")
	mustExec(t, c, "SET autocommit = 0")
	expectRows(t, c, "SELECT @@in_transaction", "0")
	expectRows(t, c, "SELECT a FROM c", "1")
	expectRows(t, c, "SELECT @@in_transaction", "1")
	mustExec(t, c, "ROLLBACK")
	expectRows(t, c, "SELECT @@in_transaction", "0")
	expectRows(t, c, "SHOW VARIABLES LIKE 'in_transaction'", "in_transaction|0")
	for _, q := range []string{"SET in_transaction = 1", "SET @@session.version = 'x'"} {
		_, err := c.ExecContext(context.Background(), q)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1238 || !strings.HasSuffix(me.Message, "is a read only variable") {
			t.Errorf("%s: %v, want 1238 ... is a read only variable", q, err)
		}
	}
}
