package sqlfront

import (
	"context"
	gosql "database/sql"
	"testing"
)

// TestInsertIDAsMariaDB: the insert id of an INSERT's OK packet is what
// MariaDB 10.11 answers (the ids themselves may differ: InnoDB reserves
// ids in runs): the first id the statement generated (VALUES (10, ...),
// (DEFAULT, ...) answers the DEFAULT row's id; go-mysql-server answered
// 10), the new row's after duplicates of ON DUPLICATE KEY UPDATE, and the
// explicit id when none was generated, LAST_INSERT_ID() then keeping the
// last generated one. Text and prepared statements alike.
func TestInsertIDAsMariaDB(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	for _, prepared := range []bool{false, true} {
		c := ts.conn("")
		mustExec(t, c, "DROP DATABASE IF EXISTS ids", "CREATE DATABASE ids", "USE ids",
			"CREATE TABLE t (id INT AUTO_INCREMENT PRIMARY KEY, u INT UNIQUE, v INT)")
		ctx := context.Background()
		idOf := func(u int) int64 {
			var id int64
			if err := c.QueryRowContext(ctx, "SELECT id FROM t WHERE u = ?", u).Scan(&id); err != nil {
				t.Fatal(err)
			}
			return id
		}
		lastID := func() int64 {
			var id int64
			if err := c.QueryRowContext(ctx, "SELECT LAST_INSERT_ID()").Scan(&id); err != nil {
				t.Fatal(err)
			}
			return id
		}
		exec := func(q string) int64 {
			var res gosql.Result
			var err error
			if prepared {
				st, perr := c.PrepareContext(ctx, q)
				if perr != nil {
					t.Fatal(perr)
				}
				res, err = st.ExecContext(ctx)
				st.Close()
			} else {
				res, err = c.ExecContext(ctx, q)
			}
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			id, _ := res.LastInsertId()
			return id
		}
		check := func(q string, got, want, last, wantLast int64) {
			t.Helper()
			if got != want || last != wantLast {
				t.Errorf("prepared %v: %s: insert id %d, LAST_INSERT_ID() %d; want %d, %d", prepared, q, got, last, want, wantLast)
			}
		}
		q := "INSERT INTO t (u, v) VALUES (1, 1), (2, 2)"
		got := exec(q)
		check(q, got, idOf(1), lastID(), idOf(1))
		q = "INSERT INTO t (id, u, v) VALUES (10, 3, 3), (DEFAULT, 4, 4)"
		got = exec(q)
		check(q, got, idOf(4), lastID(), idOf(4))
		before := lastID()
		q = "INSERT INTO t (id, u, v) VALUES (100, 8, 8)"
		got = exec(q)
		check(q, got, 100, lastID(), before)
		q = "INSERT INTO t (u, v) VALUES (1, 9), (2, 9), (6, 6) ON DUPLICATE KEY UPDATE v = VALUES(v)"
		got = exec(q)
		check(q, got, idOf(6), lastID(), idOf(6))
		q = "INSERT INTO t (id, u, v) VALUES (DEFAULT, 9, 9), (200, 10, 10)"
		got = exec(q)
		check(q, got, idOf(9), lastID(), idOf(9))
		// An ON DUPLICATE KEY UPDATE that only updates: the id of the
		// row it changed (the last), 0 when it changed nothing, and
		// LAST_INSERT_ID() as it was.
		before = lastID()
		q = "INSERT INTO t (u, v) VALUES (2, 20) ON DUPLICATE KEY UPDATE v = VALUES(v)"
		got = exec(q)
		check(q, got, idOf(2), lastID(), before)
		q = "INSERT INTO t (u, v) VALUES (2, 21), (1, 21) ON DUPLICATE KEY UPDATE v = VALUES(v)"
		got = exec(q)
		check(q, got, idOf(1), lastID(), before)
		q = "INSERT INTO t (u, v) VALUES (1, 21) ON DUPLICATE KEY UPDATE v = v"
		got = exec(q)
		check(q, got, 0, lastID(), before)
		// REPLACE of a row by its unique key: the new row's id, which
		// LAST_INSERT_ID() becomes too, taken once.
		q = "REPLACE INTO t (u, v) VALUES (6, 60)"
		got = exec(q)
		check(q, got, idOf(6), lastID(), idOf(6))
		if n := idOf(6); n <= before {
			t.Errorf("prepared %v: REPLACE's row has id %d, after %d", prepared, n, before)
		}
	}
}
