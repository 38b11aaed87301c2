package sqlfront

import (
	"context"
	gosql "database/sql"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/planbuilder"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// templateShapes are prepared SELECTs with the number of parameters each
// takes: sysbench's, and forms a template must refuse or handle (a bound
// next to a constant, a computed bound, IN lists, reversed and multiple
// ranges, parameters outside any lookup).
var templateShapes = []struct {
	q string
	n int
}{
	{"SELECT c FROM tp WHERE id = ?", 1},
	{"SELECT c FROM tp WHERE id BETWEEN ? AND ?", 2},
	{"SELECT SUM(k) FROM tp WHERE id BETWEEN ? AND ?", 2},
	{"SELECT c FROM tp WHERE id BETWEEN ? AND ? ORDER BY c", 2},
	{"SELECT DISTINCT c FROM tp WHERE id BETWEEN ? AND ? ORDER BY c", 2},
	{"SELECT count(k) FROM tp WHERE k BETWEEN ? AND ? OR k BETWEEN ? AND ? OR k BETWEEN ? AND ?", 6},
	{"SELECT id FROM tp WHERE id BETWEEN ? AND 30 ORDER BY id", 1},
	{"SELECT id FROM tp WHERE id IN (?, ?, ?) ORDER BY id", 3},
	{"SELECT id, ? FROM tp WHERE k > ? ORDER BY id LIMIT 3", 2},
	{"SELECT id FROM tp WHERE id = ? + 1", 1},
	{"SELECT id FROM tp WHERE c = ? ORDER BY id", 1},
	{"SELECT id FROM tp WHERE id > ? AND id < ? ORDER BY id DESC", 2},
	{"SELECT id, c FROM tp WHERE k = ? AND id BETWEEN ? AND ? ORDER BY id", 3},
	{"SELECT t1.id, t2.c FROM tp t1 JOIN tp t2 ON t2.id = t1.k WHERE t1.id BETWEEN ? AND ? ORDER BY t1.id", 2},
	{"SELECT id FROM tp WHERE small = ? OR small BETWEEN ? AND ? ORDER BY id", 3},
}

// templateArg returns a random parameter value: mostly integers near the
// table's keys, sometimes one out of a column's range, a string, a
// fraction or NULL.
func templateArg(r *rand.Rand) any {
	switch r.IntN(20) {
	case 0:
		return nil
	case 1:
		return fmt.Sprint(r.IntN(60))
	case 2:
		return float64(r.IntN(60)) + 0.5
	case 3:
		return int64(3_000_000_000)
	case 4:
		return -r.IntN(5)
	case 5:
		return 200 + r.IntN(200) // out of the TINYINT column's range
	case 6:
		return strings.Repeat("long", 8) // longer than VARCHAR(20)
	}
	return r.IntN(60)
}

// TestPreparedTemplates runs random executions of prepared SELECTs on two
// servers holding the same rows, one with the plan caches off, and
// requires the same answers (or the same error) from both; the other
// server runs each templated plan twice (its check mode), and must have
// answered from templates.
func TestPreparedTemplates(t *testing.T) {
	plain := startTestServer(t, "", Config{NoPlanCache: true})
	fast := startTestServer(t, "", Config{})
	fast.s.mh.plans.check.Store(true)
	setup := []string{"CREATE DATABASE tpl", "USE tpl",
		"CREATE TABLE tp (id INT PRIMARY KEY, k INT, c VARCHAR(20), small TINYINT, KEY k (k), KEY small (small))"}
	var ins []string
	for i := 1; i <= 50; i++ {
		ins = append(ins, fmt.Sprintf("(%d, %d, 'c%02d', %d)", i, (i*7)%50, (i*13)%50, i%7))
	}
	setup = append(setup, "INSERT INTO tp VALUES "+strings.Join(ins, ","))
	conns := []*gosql.Conn{plain.conn(""), fast.conn("")}
	for _, c := range conns {
		mustExec(t, c, setup...)
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	for _, sh := range templateShapes {
		ps := prepareOn(t, conns, sh.q)
		var history [][]any
		for run := 0; run < 60; run++ {
			args := make([]any, sh.n)
			for i := range args {
				args[i] = templateArg(r)
			}
			history = append(history, args)
			want, werr := stmtRows(ctx, ps[0], args)
			got, gerr := stmtRows(ctx, ps[1], args)
			if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
				t.Fatalf("%s %v: error %v, without templates %v", sh.q, args, gerr, werr)
			}
			if !slices.Equal(got, want) {
				t.Fatalf("%s %v:\n got %q\nwant %q\n(executions %v)", sh.q, args, got, want, history)
			}
		}
	}
	if n := fast.s.mh.plans.Rebound.Load(); n < 100 {
		t.Fatalf("%d executions answered from templates, want more", n)
	}
	// sysbench's shapes with integer keys (but the point select, which
	// has its own fast path): after the execution that makes the template
	// and the one that confirms it, every execution is answered from the
	// template.
	for _, sh := range templateShapes[1:6] {
		p, err := conns[1].PrepareContext(ctx, sh.q)
		if err != nil {
			t.Fatal(err)
		}
		before := fast.s.mh.plans.Rebound.Load()
		for run := 0; run < 20; run++ {
			args := make([]any, sh.n)
			for i := range args {
				args[i] = 1 + run*2 + i*3
			}
			if _, err := stmtRows(ctx, p, args); err != nil {
				t.Fatal(err)
			}
		}
		p.Close()
		if n := fast.s.mh.plans.Rebound.Load() - before; n < 17 {
			t.Errorf("%s: %d of 20 executions from templates", sh.q, n)
		}
	}
	// sysbench's oltp_insert, text statements cut into templates: its id
	// is always 0 (the next AUTO_INCREMENT); a value that is never
	// compared with a column is never taken for a copy of another, so the
	// template holds although that value never changes.
	mustExec(t, conns[1], "CREATE TABLE sbi (id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id))",
		"CREATE INDEX k_1 ON sbi(k)")
	// (A point write takes the fast path from the template's text.)
	count := func() int64 { return fast.s.mh.plans.Rebound.Load() + fast.s.mh.stats.PointWrites.Load() }
	before := count()
	for run := 0; run < 20; run++ {
		mustExec(t, conns[1], fmt.Sprintf("INSERT INTO sbi (id, k, c, pad) VALUES (0, %d, 'c%d', 'p%d')", 100+run*7, run, run))
	}
	if n := count() - before; n < 15 {
		t.Errorf("INSERT with a constant id: %d of 20 statements from templates", n)
	}
}

// stmtRows runs a prepared statement and returns its rows as queryRows
// does.
func stmtRows(ctx context.Context, st *gosql.Stmt, args []any) ([]string, error) {
	rs, err := st.QueryContext(ctx, args...)
	if err != nil {
		return nil, err
	}
	return scanStrings(rs)
}

// prepareOn prepares q on each connection (closed when the test ends).
func prepareOn(tb testing.TB, conns []*gosql.Conn, q string) []*gosql.Stmt {
	tb.Helper()
	ps := make([]*gosql.Stmt, len(conns))
	for i, c := range conns {
		p, err := c.PrepareContext(context.Background(), q)
		if err != nil {
			tb.Fatalf("%s: %v", q, err)
		}
		tb.Cleanup(func() { p.Close() })
		ps[i] = p
	}
	return ps
}

// TestPreparedWriteTemplates runs random prepared UPDATEs and DELETEs on
// two servers holding the same rows, one with the plan caches off, and
// requires the same rows affected (or the same error) from each and the
// same table afterwards; the other server must have run most of them
// from templates.
func TestPreparedWriteTemplates(t *testing.T) {
	plain := startTestServer(t, "", Config{NoPlanCache: true})
	fast := startTestServer(t, "", Config{})
	setup := []string{"CREATE DATABASE tpw", "USE tpw",
		"CREATE TABLE tp (id INT PRIMARY KEY, k INT, c VARCHAR(20), small TINYINT, KEY k (k))",
		"CREATE TABLE ta (id INT AUTO_INCREMENT PRIMARY KEY, k INT)"}
	var ins []string
	for i := 1; i <= 300; i++ {
		ins = append(ins, fmt.Sprintf("(%d, %d, 'c%02d', %d)", i, (i*7)%50, (i*13)%50, i%7))
	}
	setup = append(setup, "INSERT INTO tp VALUES "+strings.Join(ins, ","))
	conns := []*gosql.Conn{plain.conn(""), fast.conn("")}
	for _, c := range conns {
		mustExec(t, c, setup...)
	}
	shapes := []struct {
		q string
		n int
	}{
		{"UPDATE tp SET k = k + 1 WHERE id = ?", 1},
		{"UPDATE tp SET c = ? WHERE id = ?", 2},
		{"UPDATE tp SET k = ?, small = ? WHERE id BETWEEN ? AND ?", 4},
		{"UPDATE tp SET c = 'same' WHERE k = ?", 1},
		{"DELETE FROM tp WHERE id = ?", 1},
		{"INSERT INTO tp (id, k, c, small) VALUES (?, ?, ?, ?)", 4},
		{"INSERT INTO tp VALUES (?, ?, 'v', 1), (?, 5, ?, 2)", 4},
		{"INSERT INTO ta (id, k) VALUES (?, ?)", 2},
		{"INSERT INTO ta (k) VALUES (?)", 1},
		{"DELETE FROM tp WHERE id BETWEEN ? AND ? OR id = ?", 3},
	}
	ctx := context.Background()
	r := rand.New(rand.NewPCG(3, 4))
	intArgs := false
	arg := func() any {
		if intArgs {
			return r.IntN(300)
		}
		return templateArg(r)
	}
	for round := 0; round < 2; round++ {
		for _, sh := range shapes {
			ps := prepareOn(t, conns, sh.q)
			for run := 0; run < 40; run++ {
				args := make([]any, sh.n)
				for i := range args {
					args[i] = arg()
				}
				var affected, lastID [2]int64
				var errs [2]error
				for i, p := range ps {
					res, err := p.ExecContext(ctx, args...)
					errs[i] = err
					if err == nil {
						affected[i], _ = res.RowsAffected()
						lastID[i], _ = res.LastInsertId()
					}
				}
				if lastID[0] != lastID[1] {
					t.Fatalf("%s %v: last insert id %d, without templates %d", sh.q, args, lastID[1], lastID[0])
				}
				if (errs[0] == nil) != (errs[1] == nil) || (errs[0] != nil && errs[0].Error() != errs[1].Error()) {
					t.Fatalf("%s %v: error %v, without templates %v", sh.q, args, errs[1], errs[0])
				}
				if affected[0] != affected[1] {
					t.Fatalf("%s %v: %d rows affected, without templates %d", sh.q, args, affected[1], affected[0])
				}
			}
			for _, tbl := range []string{"tp", "ta"} {
				want := queryRows(t, conns[0], "SELECT * FROM "+tbl+" ORDER BY id")
				if got := queryRows(t, conns[1], "SELECT * FROM "+tbl+" ORDER BY id"); !slices.Equal(got, want) {
					t.Fatalf("after %s: %s differs:\n got %q\nwant %q", sh.q, tbl, got, want)
				}
				// the same LAST_INSERT_ID() on the connection
				want = queryRows(t, conns[0], "SELECT LAST_INSERT_ID()")
				if got := queryRows(t, conns[1], "SELECT LAST_INSERT_ID()"); !slices.Equal(got, want) {
					t.Fatalf("after %s: LAST_INSERT_ID() %q, without templates %q", sh.q, got, want)
				}
			}
		}
		intArgs = true
	}
	t.Logf("%d executions from templates", fast.s.mh.plans.Rebound.Load())
	if n := fast.s.mh.plans.Rebound.Load(); n < 150 {
		t.Fatalf("%d executions from templates, want most", n)
	}
}

// TestBindParams requires bindParams to make the literals
// go-mysql-server's binder makes of quoted values and NULL.
func TestBindParams(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	ctx := sql.NewEmptyContext()
	vals := []sqltypes.Value{sqltypes.NewVarChar("abc"), sqltypes.MakeTrusted(sqltypes.VarBinary, []byte("x\x00y")),
		sqltypes.MakeTrusted(sqltypes.Blob, []byte("blob")), sqltypes.MakeTrusted(sqltypes.Char, []byte("")), sqltypes.NULL,
		sqltypes.NewInt64(-5), sqltypes.NewUint64(1 << 63)}
	for _, v := range vals {
		bv := sqltypes.ValueBindVariable(v)
		lits, _, ok := bindParams(ctx, ts.s.engine, map[string]*querypb.BindVariable{"v1": bv})
		if !ok {
			t.Fatalf("%v: not bound", v)
		}
		x, err := sqlparser.ExprFromValue(v)
		if err != nil {
			t.Fatal(err)
		}
		binder := planbuilder.New(ctx, ts.s.engine.Analyzer.Catalog, nil, nil)
		binder.SetBindings(map[string]sqlparser.Expr{"v1": x})
		want := binder.BindCtx().Bindings["v1"].(*expression.Literal)
		if got := lits[0]; got.Type().String() != want.Type().String() || sql.DebugString(got) != sql.DebugString(want) {
			t.Errorf("%v: got %s %s, binder makes %s %s", v, got.Type(), sql.DebugString(got), want.Type(), sql.DebugString(want))
		}
	}
}

// TestIntLiteral requires intLiteral to make the literal go-mysql-server's
// binder makes of each integer around every type's bounds.
func TestIntLiteral(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	ctx := sql.NewEmptyContext()
	var vals []string
	for _, b := range []int64{0, math.MaxInt8, math.MaxUint8, math.MaxInt16, math.MaxUint16, math.MaxInt32, math.MaxUint32, math.MaxInt64} {
		for d := int64(-1); d <= 1; d++ {
			if b+d >= b || d <= 0 {
				vals = append(vals, strconv.FormatInt(b+d, 10), strconv.FormatInt(-(b+d), 10))
			}
		}
	}
	vals = append(vals, strconv.FormatInt(math.MinInt64, 10), strconv.FormatUint(math.MaxUint64, 10), "-129", "-32769")
	for _, v := range vals {
		binder := planbuilder.New(ctx, ts.s.engine.Analyzer.Catalog, nil, nil)
		binder.SetBindings(map[string]sqlparser.Expr{"v1": sqlparser.NewIntVal([]byte(v))})
		want := binder.BindCtx().Bindings["v1"].(*expression.Literal)
		got := intLiteral(v)
		if got == nil || got.Type() != want.Type() || sql.DebugString(got) != sql.DebugString(want) {
			t.Errorf("%s: got %v, binder makes %s %s", v, got, want.Type(), sql.DebugString(want))
		}
		gv, _ := got.Eval(ctx, nil)
		wv, _ := want.Eval(ctx, nil)
		if gv != wv {
			t.Errorf("%s: value %T %v, binder's %T %v", v, gv, gv, wv, wv)
		}
	}
}
