package sqlfront

import (
	"bytes"
	"context"
	gosql "database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/dolthub/vitess/go/sqltypes"
)

// copyTap records deep copies of the results of prepared statements (the
// values of a sent result point into a buffer the next statement reuses).
type copyTap struct {
	mu   sync.Mutex
	res  []*sqltypes.Result
	fast []bool // whether a fast path sent each result
}

func tapCopies(h *mariaHandler) *copyTap {
	tp := &copyTap{}
	fn := func(fast bool, r *sqltypes.Result) {
		if r == nil {
			return
		}
		c := *r
		c.Rows = make([][]sqltypes.Value, len(r.Rows))
		for i, row := range r.Rows {
			c.Rows[i] = make([]sqltypes.Value, len(row))
			for j, v := range row {
				c.Rows[i][j] = sqltypes.MakeTrusted(v.Type(), bytes.Clone(v.Raw()))
			}
		}
		tp.mu.Lock()
		tp.res = append(tp.res, &c)
		tp.fast = append(tp.fast, fast)
		tp.mu.Unlock()
	}
	h.tap.Store(&fn)
	return tp
}

func (tp *copyTap) take() []*sqltypes.Result {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	r := tp.res
	tp.res, tp.fast = nil, nil
	return r
}

// takeFast is take with whether a fast path sent each result.
func (tp *copyTap) takeFast() ([]*sqltypes.Result, []bool) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	r, f := tp.res, tp.fast
	tp.res, tp.fast = nil, nil
	return r, f
}

// TestRunBoundSameResults runs the same random prepared statements (reads
// of every column type, results of more than one batch, writes) on two
// servers holding the same rows: one runs kept plans with runBound, the
// other with go-mysql-server's handler. Every result must be the same to
// the byte: fields, values, batches, affected rows, insert ids, info.
func TestRunBoundSameResults(t *testing.T) {
	// (Without the fast paths, which would serve the point DELETE.)
	gms := startTestServer(t, "", Config{NoPointFastPath: true})
	gms.s.mh.gmsResults.Store(true)
	ours := startTestServer(t, "", Config{NoPointFastPath: true})
	setup := []string{"CREATE DATABASE rb", "USE rb",
		`CREATE TABLE t (id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, c CHAR(12),
		  v VARCHAR(30) CHARACTER SET latin1, b VARBINARY(8), d DECIMAL(10,3), f DOUBLE,
		  dt DATETIME(3), day DATE, tx TEXT, e ENUM('x','y','z'), KEY k (k))`}
	var ins []string
	for i := 1; i <= 400; i++ {
		ins = append(ins, fmt.Sprintf("(%d, %d, 'c%03d', 'v%d', x'%02x', %d.%03d, %d.25, '2024-01-%02d 10:00:%02d.123', '2023-05-%02d', %s, '%c')",
			i, i%37, i, i*7, i%256, i, i%1000, i, i%28+1, i%60, i%28+1, map[bool]string{true: "NULL", false: fmt.Sprintf("'t%d'", i)}[i%9 == 0], "xyz"[i%3]))
	}
	setup = append(setup, "INSERT INTO t VALUES "+strings.Join(ins, ","))
	conns := []*gosql.Conn{gms.conn(""), ours.conn("")}
	for _, c := range conns {
		mustExec(t, c, setup...)
	}
	taps := []*copyTap{tapCopies(gms.s.mh), tapCopies(ours.s.mh)}
	shapes := []struct {
		q string
		n int
	}{
		{"SELECT * FROM t WHERE id = ?", 1},
		{"SELECT * FROM t WHERE id BETWEEN ? AND ?", 2},
		{"SELECT id, c, d * 2, CONCAT(v, '-', c), f + 1, DATE(dt) FROM t WHERE id BETWEEN ? AND ? ORDER BY c DESC", 2},
		{"SELECT SUM(d), COUNT(*), MAX(dt), MIN(tx) FROM t WHERE k = ?", 1},
		{"SELECT DISTINCT k FROM t WHERE id BETWEEN ? AND ? ORDER BY k", 2},
		{"SELECT k, GROUP_CONCAT(id ORDER BY id) FROM t WHERE id < ? GROUP BY k", 1},
		{"UPDATE t SET d = d + ? WHERE id = ?", 2},
		{"UPDATE t SET f = ? WHERE k = ?", 2},
		{"INSERT INTO t (k, c) VALUES (?, ?)", 2},
		{"DELETE FROM t WHERE id = ?", 1},
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	for _, sh := range shapes {
		ps := prepareOn(t, conns, sh.q)
		for run := 0; run < 25; run++ {
			args := make([]any, sh.n)
			for i := range args {
				args[i] = r.IntN(450)
			}
			if strings.Contains(sh.q, "BETWEEN") {
				args[1] = args[0].(int) + r.IntN(300) // most ranges more than a batch
			}
			for i, p := range ps {
				var err error
				if strings.HasPrefix(sh.q, "SELECT") {
					_, err = stmtRows(ctx, p, args)
				} else {
					_, err = p.ExecContext(ctx, args...)
				}
				if err != nil {
					t.Fatalf("server %d: %s %v: %v", i, sh.q, args, err)
				}
			}
			want, got := taps[0].take(), taps[1].take()
			if len(want) != len(got) {
				t.Fatalf("%s %v: %d results, go-mysql-server's handler sent %d", sh.q, args, len(got), len(want))
			}
			for i := range want {
				if d := sameResult(want[i], got[i]); d != "" {
					t.Fatalf("%s %v, result %d: %s", sh.q, args, i, d)
				}
				if want[i].InsertID != got[i].InsertID || want[i].Info != got[i].Info {
					t.Fatalf("%s %v: insert id %d info %q, go-mysql-server's handler %d %q",
						sh.q, args, got[i].InsertID, got[i].Info, want[i].InsertID, want[i].Info)
				}
			}
		}
	}
	if n := ours.s.mh.plans.Rebound.Load(); n < 100 {
		t.Fatalf("%d executions ran from templates, want 100 or more", n)
	}
}
