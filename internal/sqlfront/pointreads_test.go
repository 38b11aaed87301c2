package sqlfront

import (
	"context"
	gosql "database/sql"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestPointReadsSameAnswers runs the same random sessions on two servers
// holding the same rows: one reads primary-key points with one lookup
// each (source.pointRead, and the point fast path inside transactions),
// the other through iterators like any range, with the fast path off.
// A session opens transactions at every isolation level and reads by key
// (plain, FOR UPDATE, LOCK IN SHARE MODE, prepared), by range, and writes,
// while a second connection commits changes to rows the first has not
// locked in between. Every answer, and every error, must be the same.
func TestPointReadsSameAnswers(t *testing.T) {
	general := startTestServer(t, "", Config{NoPointReads: true, NoPointFastPath: true})
	point := startTestServer(t, "", Config{})
	type side struct {
		a, b *gosql.Conn
		get  *gosql.Stmt
	}
	ctx := context.Background()
	var sides []side
	for _, ts := range []*testServer{general, point} {
		root := ts.open("")
		mustExec(t, root, "CREATE DATABASE pr",
			"CREATE TABLE pr.t (id INT PRIMARY KEY, k INT, v VARCHAR(10), KEY k (k))")
		var rows []string
		for i := 1; i <= 30; i++ {
			rows = append(rows, fmt.Sprintf("(%d, %d, 'v%d')", i, i%7, i))
		}
		mustExec(t, root, "INSERT INTO pr.t VALUES "+strings.Join(rows, ","))
		s := side{a: ts.conn("pr"), b: ts.conn("pr")}
		var err error
		if s.get, err = s.a.PrepareContext(ctx, "SELECT id, k, v FROM t WHERE id = ?"); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.get.Close() })
		sides = append(sides, s)
	}
	// answer runs one statement on a connection: its rows, or its error.
	answer := func(c *gosql.Conn, st *gosql.Stmt, q string, args ...any) string {
		var rs *gosql.Rows
		var err error
		if st != nil {
			rs, err = st.QueryContext(ctx, args...)
		} else {
			rs, err = c.QueryContext(ctx, q, args...)
		}
		if err != nil {
			return "error: " + err.Error()
		}
		got, err := scanStrings(rs)
		if err != nil {
			return "error: " + err.Error()
		}
		return strings.Join(got, ",")
	}
	r := rand.New(rand.NewPCG(7, 8))
	levels := []string{"REPEATABLE READ", "READ COMMITTED", "SERIALIZABLE"}
	inTxn, level := false, ""
	locked := map[int]bool{} // rows the open transaction may hold locks on
	var history []string
	for step := 0; step < 3000; step++ {
		id := 1 + r.IntN(8) // a few rows, read and written often
		if r.IntN(8) == 0 {
			id = 29 + r.IntN(6) // 31 to 34 are missing
		}
		var q string
		var args []any
		prepared, onB := false, false
		switch n := r.IntN(20); {
		case n == 0 && !inTxn:
			level = levels[r.IntN(len(levels))]
			q = "SET TRANSACTION ISOLATION LEVEL " + level + "; BEGIN"
			inTxn = true
		case n == 1 && inTxn:
			q = []string{"COMMIT", "ROLLBACK"}[r.IntN(2)]
			inTxn = false
			clear(locked)
		case n < 8:
			q = "SELECT id, k, v FROM t WHERE id = ?"
			prepared = r.IntN(2) == 0
			args = []any{id}
			if inTxn && level == "SERIALIZABLE" {
				locked[id] = true
			}
		case n < 9:
			q = "SELECT id, k, v FROM t WHERE id = ? " + []string{"FOR UPDATE", "LOCK IN SHARE MODE"}[r.IntN(2)]
			args = []any{id}
			if inTxn {
				locked[id] = true
			}
		case n < 10:
			q = "SELECT id, v FROM t WHERE id BETWEEN ? AND ? ORDER BY id"
			args = []any{id, id + 3}
			if inTxn && level == "SERIALIZABLE" {
				for i := id; i <= id+3; i++ {
					locked[i] = true
				}
			}
		case n < 11:
			q = "UPDATE t SET k = k + 1, v = ? WHERE id = ?"
			args = []any{fmt.Sprintf("a%d", step), id}
			if inTxn {
				locked[id] = true
			}
		case n < 12 && r.IntN(2) == 0:
			q = "DELETE FROM t WHERE id = ?"
			args = []any{id}
			if inTxn {
				locked[id] = true
			}
		case n < 12:
			q = "INSERT INTO t VALUES (?, ?, ?)"
			args = []any{id, step % 7, fmt.Sprintf("i%d", step)}
			if inTxn {
				locked[id] = true
			}
		default:
			if locked[id] {
				continue
			}
			// the other session commits a change the first may or may
			// not see, as its isolation says
			q, onB = "UPDATE t SET v = ? WHERE id = ?", true
			args = []any{fmt.Sprintf("b%d", step)}
			args = append(args, id)
		}
		history = append(history, fmt.Sprintf("%s%s %v", map[bool]string{true: "b: "}[onB], q, args))
		var answers []string
		for _, s := range sides {
			c := s.a
			if onB {
				c = s.b
			}
			var st *gosql.Stmt
			if prepared {
				st = s.get
			}
			if strings.Contains(q, "; ") {
				for _, part := range strings.Split(q, "; ") {
					answers = append(answers, answer(c, nil, part))
				}
				continue
			}
			if strings.HasPrefix(q, "SELECT") {
				answers = append(answers, answer(c, st, q, args...))
				continue
			}
			res, err := c.ExecContext(ctx, q, args...)
			if err != nil {
				answers = append(answers, "error: "+err.Error())
				continue
			}
			n, _ := res.RowsAffected()
			answers = append(answers, fmt.Sprint("affected ", n))
		}
		half := len(answers) / 2
		if !slices.Equal(answers[:half], answers[half:]) {
			t.Fatalf("step %d: %s %v\n point reads: %q\n iterators:   %q\nhistory:\n%s",
				step, q, args, answers[half:], answers[:half], strings.Join(history[max(0, len(history)-30):], "\n"))
		}
	}
	// The point server answered from point reads and its fast path.
	if n := point.s.mh.stats.PointFast.Load(); n == 0 {
		t.Fatal("the point fast path served nothing")
	}
	if n := general.s.mh.stats.PointFast.Load(); n != 0 {
		t.Fatalf("the fast path served %d statements with NoPointFastPath", n)
	}
}
