package server

import (
	"bufio"
	"context"
	"database/sql"
	"fmt"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/engine"
)

// The write-port modes a row-lock test runs under: event loops, and a
// goroutine per connection (the default with --durability sync).
var rowLockModes = []struct {
	name   string
	mutate func(*config.Config)
}{
	{"loops", func(c *config.Config) { c.HSWriteLoops = 1 }},
	{"goroutines", func(c *config.Config) { c.HSWriteLoops = -1 }},
	{"goroutines-sync-nocache", func(c *config.Config) {
		c.HSWriteLoops, c.Durability, c.RowCacheSize = -1, engine.DurabilitySync, 0
	}},
}

// hsLine is one open HandlerSocket connection that sends a line at a time.
type hsLine struct {
	c net.Conn
	r *bufio.Reader
}

func dialHS(t *testing.T, addr net.Addr) *hsLine {
	t.Helper()
	c, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return &hsLine{c: c, r: bufio.NewReader(c)}
}

func (h *hsLine) send(t *testing.T, req string) {
	t.Helper()
	if _, err := h.c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
}

func (h *hsLine) read(t *testing.T) string {
	t.Helper()
	h.c.SetReadDeadline(time.Now().Add(20 * time.Second))
	l, err := h.r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestHSWriteWaitsForSQLRowLock: an HS modify of a row an open SQL
// transaction has locked waits for that transaction, then applies to the
// row it committed, as the plugin's write waits for InnoDB's row lock
// (recorded on MariaDB 10.11 with the HandlerSocket plugin: each locking
// case held the HS update until COMMIT and ended with v=99; after a
// DELETE the update matched 0 rows; a plain SELECT holds nothing). Before
// HS writes looked at row locks, the SQL commit overwrote the whole row
// and the acknowledged HS update was lost.
func TestHSWriteWaitsForSQLRowLock(t *testing.T) {
	cases := []struct {
		stmt  string
		waits bool
		reply string // the HS update's answer
		final string // SELECT v of id 1 after both
	}{
		{"UPDATE lk SET v=11 WHERE id=1", true, "0\t1\t1\n", "99"},
		{"SELECT * FROM lk WHERE id=1 FOR UPDATE", true, "0\t1\t1\n", "99"},
		{"SELECT * FROM lk WHERE id=1 LOCK IN SHARE MODE", true, "0\t1\t1\n", "99"},
		{"SELECT * FROM lk WHERE id=1", false, "0\t1\t1\n", "99"},
		{"DELETE FROM lk WHERE id=1", true, "0\t1\t0\n", "none"},
		{"UPDATE lk SET v=v+1 WHERE id>=1", true, "0\t1\t1\n", "99"},
	}
	for _, mode := range rowLockModes {
		t.Run(mode.name, func(t *testing.T) {
			s := startTest(t, mode.mutate)
			db := sqlDB(t, s, "hstest")
			execAll(t, db, "CREATE TABLE lk (id INT PRIMARY KEY, v INT)", "INSERT INTO lk VALUES (1,10),(2,20)")
			locks := s.Engine().Locks()
			for _, c := range cases {
				t.Run(c.stmt, func(t *testing.T) {
					execAll(t, db, "DELETE FROM lk WHERE id=1", "INSERT INTO lk VALUES (1,10)")
					ctx := context.Background()
					tx, err := db.BeginTx(ctx, nil)
					if err != nil {
						t.Fatal(err)
					}
					defer tx.Rollback()
					if rows, err := tx.Query(c.stmt); err != nil {
						t.Fatal(err)
					} else {
						rows.Close()
					}
					h := dialHS(t, s.HS().WriteAddr())
					h.send(t, "P\t1\thstest\tlk\tPRIMARY\tid,v\n")
					if got := h.read(t); got != "0\t1\n" {
						t.Fatalf("P: %q", got)
					}
					h.send(t, "1\t=\t1\t1\t1\t0\tU\t1\t99\n")
					if c.waits {
						waitFor(t, "the HS update to wait for the row lock", func() bool { return locks.Waiting() > 0 })
						// Still waiting: no answer is there yet.
						h.c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
						if b, err := h.r.Peek(1); err == nil {
							t.Fatalf("HS answered %q while the transaction held the row", b)
						}
					}
					if err := tx.Commit(); err != nil {
						t.Fatal(err)
					}
					if got := h.read(t); got != c.reply {
						t.Fatalf("HS update: %q, want %q", got, c.reply)
					}
					if got := rowValue(t, db, 1); got != c.final {
						t.Fatalf("v = %s after both, want %s (the plugin's)", got, c.final)
					}
				})
			}
		})
	}
}

func rowValue(t *testing.T, db *sql.DB, id int) string {
	t.Helper()
	var v sql.NullString
	err := db.QueryRow("SELECT v FROM lk WHERE id=?", id).Scan(&v)
	if err == sql.ErrNoRows {
		return "none"
	}
	if err != nil {
		t.Fatal(err)
	}
	return v.String
}

// TestHSWriteLockWaitTimeout: an HS write whose row stays locked past
// @@global.innodb_lock_wait_timeout answers the lock wait timeout and
// leaves the row to the transaction; the connection goes on, and the
// lines after it apply.
func TestHSWriteLockWaitTimeout(t *testing.T) {
	for _, mode := range rowLockModes[:2] {
		t.Run(mode.name, func(t *testing.T) {
			s := startTest(t, func(c *config.Config) {
				mode.mutate(c)
			})
			db := sqlDB(t, s, "hstest")
			execAll(t, db, "SET GLOBAL innodb_lock_wait_timeout = 1", "CREATE TABLE lk (id INT PRIMARY KEY, v INT)", "INSERT INTO lk VALUES (1,10),(2,20)")
			t.Cleanup(func() { execAll(t, db, "SET GLOBAL innodb_lock_wait_timeout = 50") })
			tx, err := db.Begin()
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Rollback()
			if _, err := tx.Exec("UPDATE lk SET v=11 WHERE id=1"); err != nil {
				t.Fatal(err)
			}
			h := dialHS(t, s.HS().WriteAddr())
			// Three lines in one run: the first and last apply, the middle
			// one times out.
			h.send(t, "P\t1\thstest\tlk\tPRIMARY\tid,v\n"+
				"1\t=\t1\t2\t1\t0\tU\t2\t21\n"+
				"1\t=\t1\t1\t1\t0\tU\t1\t99\n"+
				"1\t=\t1\t2\t1\t0\t+\t0\t1\n")
			want := []string{"0\t1\n", "0\t1\t1\n", "1\t1\t1\n", "0\t1\t1\n"}
			for i, w := range want {
				if got := h.read(t); got != w {
					t.Fatalf("reply %d: %q, want %q", i, got, w)
				}
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			if got := rowValue(t, db, 1); got != "11" {
				t.Fatalf("id 1: v = %s, want the transaction's 11", got)
			}
			if got := rowValue(t, db, 2); got != "22" {
				t.Fatalf("id 2: v = %s, want 22", got)
			}
			if n := s.Engine().Locks().Len(); n != 0 {
				t.Fatalf("%d row locks left", n)
			}
		})
	}
}

// TestNoLostIncrements: HS increments and SQL read-modify-write
// transactions (an UPDATE v=v+1, and a SELECT ... FOR UPDATE whose value
// the transaction writes back plus one) on one row, concurrently: every
// acknowledged increment of either side is in the final value. With the
// SQL commit overwriting the row as its transaction saw it, HS
// increments were lost.
func TestNoLostIncrements(t *testing.T) {
	for _, mode := range rowLockModes {
		t.Run(mode.name, func(t *testing.T) {
			s := startTest(t, mode.mutate)
			db := sqlDB(t, s, "hstest")
			db.SetMaxOpenConns(8)
			execAll(t, db, "CREATE TABLE lk (id INT PRIMARY KEY, v INT)", "INSERT INTO lk VALUES (1,0)")
			const hsConns, hsEach, sqlConns, sqlEach = 3, 150, 4, 40
			var wg sync.WaitGroup
			var mu sync.Mutex
			acked := 0
			errs := make(chan error, hsConns+sqlConns)
			for range hsConns {
				wg.Add(1)
				go func() {
					defer wg.Done()
					c, err := net.Dial("tcp", s.HS().WriteAddr().String())
					if err != nil {
						errs <- err
						return
					}
					defer c.Close()
					c.SetDeadline(time.Now().Add(60 * time.Second))
					r := bufio.NewReader(c)
					// Pipelined in runs of 5, so that runs stop part way.
					req := "P\t1\thstest\tlk\tPRIMARY\tid,v\n"
					if _, err := c.Write([]byte(req)); err != nil {
						errs <- err
						return
					}
					if l, err := r.ReadString('\n'); err != nil || l != "0\t1\n" {
						errs <- fmt.Errorf("P: %q %v", l, err)
						return
					}
					for i := 0; i < hsEach; i += 5 {
						if _, err := c.Write([]byte(strings.Repeat("1\t=\t1\t1\t1\t0\t+\t0\t1\n", 5))); err != nil {
							errs <- err
							return
						}
						for range 5 {
							l, err := r.ReadString('\n')
							if err != nil {
								errs <- err
								return
							}
							if l != "0\t1\t1\n" {
								errs <- fmt.Errorf("HS increment: %q", l)
								return
							}
							mu.Lock()
							acked++
							mu.Unlock()
						}
					}
				}()
			}
			for w := range sqlConns {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for i := 0; i < sqlEach; i++ {
						tx, err := db.Begin()
						if err != nil {
							errs <- err
							return
						}
						if w%2 == 0 {
							_, err = tx.Exec("UPDATE lk SET v=v+1 WHERE id=1")
						} else {
							var v int
							if err = tx.QueryRow("SELECT v FROM lk WHERE id=1 FOR UPDATE").Scan(&v); err == nil {
								_, err = tx.Exec("UPDATE lk SET v=? WHERE id=1", v+1)
							}
						}
						if err == nil {
							err = tx.Commit()
						} else {
							tx.Rollback()
						}
						if err != nil {
							errs <- fmt.Errorf("SQL transaction: %v", err)
							return
						}
						mu.Lock()
						acked++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			if got, want := rowValue(t, db, 1), fmt.Sprint(acked); got != want {
				t.Fatalf("v = %s after %s acknowledged increments: %d lost", got, want, acked-atoi(got))
			}
		})
	}
}

func atoi(s string) int {
	var n int
	fmt.Sscan(s, &n)
	return n
}
