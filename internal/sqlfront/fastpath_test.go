package sqlfront

import (
	"bytes"
	"context"
	gosql "database/sql"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// tapped records the results of prepared statements as the handler sends
// them.
type tapped struct {
	mu   sync.Mutex
	fast []bool
	res  []*sqltypes.Result
}

func tapHandler(h *mariaHandler) *tapped {
	tp := &tapped{}
	fn := func(fast bool, r *sqltypes.Result) {
		tp.mu.Lock()
		tp.fast = append(tp.fast, fast)
		tp.res = append(tp.res, r)
		tp.mu.Unlock()
	}
	h.tap.Store(&fn)
	return tp
}

// take returns what was recorded since the last take: whether every result
// came from the fast path, and the results.
func (tp *tapped) take() (fast []bool, res []*sqltypes.Result) {
	tp.mu.Lock()
	defer tp.mu.Unlock()
	fast, res = tp.fast, tp.res
	tp.fast, tp.res = nil, nil
	return fast, res
}

// fieldKey is every attribute of a result field the wire carries.
type fieldKey struct {
	Name, Table, OrgTable, Database, OrgName string
	Type                                     querypb.Type
	ColumnLength, Charset, Decimals, Flags   uint32
}

func keyOf(f *querypb.Field) fieldKey {
	return fieldKey{f.Name, f.Table, f.OrgTable, f.Database, f.OrgName, f.Type, f.ColumnLength, f.Charset, f.Decimals, f.Flags}
}

// sameResult describes how two results differ ("" when identical).
func sameResult(a, b *sqltypes.Result) string {
	if len(a.Fields) != len(b.Fields) {
		return fmt.Sprintf("%d fields vs %d", len(a.Fields), len(b.Fields))
	}
	for i := range a.Fields {
		if ka, kb := keyOf(a.Fields[i]), keyOf(b.Fields[i]); ka != kb {
			return fmt.Sprintf("field %d: %+v vs %+v", i, ka, kb)
		}
	}
	if a.RowsAffected != b.RowsAffected || len(a.Rows) != len(b.Rows) {
		return fmt.Sprintf("%d/%d rows vs %d/%d", len(a.Rows), a.RowsAffected, len(b.Rows), b.RowsAffected)
	}
	for i := range a.Rows {
		if len(a.Rows[i]) != len(b.Rows[i]) {
			return fmt.Sprintf("row %d: %d vs %d values", i, len(a.Rows[i]), len(b.Rows[i]))
		}
		for j, va := range a.Rows[i] {
			vb := b.Rows[i][j]
			if va.Type() != vb.Type() || va.IsNull() != vb.IsNull() || !bytes.Equal(va.Raw(), vb.Raw()) {
				return fmt.Sprintf("row %d value %d: %v %q vs %v %q", i, j, va.Type(), va.Raw(), vb.Type(), vb.Raw())
			}
		}
	}
	return ""
}

// clientResult is what go-sql-driver makes of a result.
type clientResult struct {
	cols []string // name, type, length, nullable, precision/scale, scan type
	rows []string
	err  string
}

func runPrepared(st *gosql.Stmt, args ...any) clientResult {
	var cr clientResult
	rs, err := st.Query(args...)
	if err != nil {
		cr.err = err.Error()
		return cr
	}
	defer rs.Close()
	cts, err := rs.ColumnTypes()
	if err != nil {
		cr.err = err.Error()
		return cr
	}
	for _, ct := range cts {
		l, lok := ct.Length()
		n, nok := ct.Nullable()
		p, s, dok := ct.DecimalSize()
		cr.cols = append(cr.cols, fmt.Sprintf("%s %s len=%d/%v null=%v/%v dec=%d,%d/%v scan=%v",
			ct.Name(), ct.DatabaseTypeName(), l, lok, n, nok, p, s, dok, ct.ScanType()))
	}
	for rs.Next() {
		vals := make([]gosql.RawBytes, len(cts))
		ptrs := make([]any, len(cts))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			cr.err = err.Error()
			return cr
		}
		var b strings.Builder
		for i, v := range vals {
			if i > 0 {
				b.WriteByte('|')
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				fmt.Fprintf(&b, "%q", v)
			}
		}
		cr.rows = append(cr.rows, b.String())
	}
	if err := rs.Err(); err != nil {
		cr.err = err.Error()
	}
	return cr
}

func (a clientResult) diff(b clientResult) string {
	if a.err != b.err {
		return fmt.Sprintf("error %q vs %q", a.err, b.err)
	}
	if x, y := strings.Join(a.cols, "\n"), strings.Join(b.cols, "\n"); x != y {
		return fmt.Sprintf("columns\n%s\nvs\n%s", x, y)
	}
	if x, y := strings.Join(a.rows, "\n"), strings.Join(b.rows, "\n"); x != y {
		return fmt.Sprintf("rows\n%s\nvs\n%s", x, y)
	}
	return ""
}

const fastTypesTable = `CREATE TABLE fp.t (
	k INT AUTO_INCREMENT PRIMARY KEY,
	ti TINYINT, tu TINYINT UNSIGNED, si SMALLINT NOT NULL DEFAULT 0, mi MEDIUMINT UNSIGNED, i4 INT UNSIGNED,
	bi BIGINT, bu BIGINT UNSIGNED,
	de DECIMAL(8,3), dw DECIMAL(30,10) UNSIGNED, fl FLOAT, db DOUBLE, fm FLOAT(7,3),
	bt BIT(5), b64 BIT(64), dt DATE, dtm DATETIME, dt3 DATETIME(3), dt6 DATETIME(6), tsp TIMESTAMP NULL, ts3 TIMESTAMP(3) NULL,
	tm TIME, yr YEAR,
	ch CHAR(4), vc VARCHAR(10) COLLATE utf8mb4_bin, vl VARCHAR(12) CHARACTER SET latin1, tx TEXT, mt MEDIUMTEXT,
	bn BINARY(3), vb VARBINARY(8), bl BLOB, lb LONGBLOB,
	en ENUM('x','y','z'), st SET('a','b','c'), js JSON)`

// TestPointFastPathMatchesSlow runs point selects both ways and compares
// what the handler sends (fields and values, in process) and what the
// client sees (column types and values), for every column type.
func TestPointFastPathMatchesSlow(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mh := ts.s.mh
	tp := tapHandler(mh)
	mustExec(t, ts.open(""), "CREATE DATABASE fp", fastTypesTable,
		`INSERT INTO fp.t VALUES (1, -5, 250, -300, 16000000, 4000000000, -9000000000, 18446744073709551615,
		12.5, 12345678901234567890.0123456789, 0.1, 1.25, 1234.5678, b'10101', b'1111111111111111111111111111111111111111111111111111111111111111',
		'2020-01-02', '2021-02-03 04:05:06', '2021-02-03 04:05:06.789', '2021-02-03 04:05:06.000001',
		'2022-03-04 05:06:07', '2022-03-04 05:06:07.5', '-12:34:56', 2024,
		'ab', 'Héllo', 'Çà va', 'text', 'medium', 'ab', X'00FF', 'blob', X'000102',
		'y', 'a,c', '{"a": [1, 2.5, "x"], "b": null}')`,
		`INSERT INTO fp.t (k) VALUES (2)`,
		`INSERT INTO fp.t VALUES (3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '0000-00-00', '0000-00-00 00:00:00', NULL, NULL,
		NULL, NULL, '838:59:59', 0, '', '', '', '', '', '', '', '', '', 'x', '', 'null')`,
		"CREATE TABLE fp.c (a INT UNSIGNED, b BIGINT, v VARCHAR(5), PRIMARY KEY (a, b))",
		"INSERT INTO fp.c VALUES (1, -1, 'one'), (1, 2, 'two'), (4294967295, 9223372036854775807, 'max')",
		"CREATE TABLE fp.u (id BIGINT PRIMARY KEY, u SMALLINT, w INT, UNIQUE KEY uu (u), UNIQUE KEY uw (w, u))",
		"INSERT INTO fp.u VALUES (10, 1, 5), (20, 2, 5), (30, NULL, NULL)",
		"CREATE TABLE fp.tiny (k TINYINT UNSIGNED PRIMARY KEY, v INT)",
		"INSERT INTO fp.tiny VALUES (0, 1), (255, 2)")

	c := ts.conn("fp")
	ctx := context.Background()
	type stmtCase struct {
		q    string
		args [][]any
	}
	cases := []stmtCase{
		{"SELECT * FROM fp.t WHERE k = ?", [][]any{{1}, {2}, {3}, {4}, {int64(-1)}}},
		{"SELECT k, ti, bu, js, vl FROM t WHERE k = ?", [][]any{{1}, {3}, {99}}},
		{"SELECT `K`, Dt3, dt3, tsp FROM `fp`.`t` WHERE ? = `k`", [][]any{{1}, {uint64(2)}}},
		{"select v, b, a from fp.c where b = ? and a = ?", [][]any{{-1, 1}, {2, uint64(1)}, {int64(9223372036854775807), uint64(4294967295)}, {3, 1}}},
		{"SELECT * FROM fp.u WHERE u = ?", [][]any{{1}, {2}, {3}}},
		{"SELECT id FROM fp.u WHERE u = ? AND w = ?", [][]any{{1, 5}, {2, 5}, {1, 6}}},
		{"SELECT * FROM fp.tiny WHERE k = ?", [][]any{{0}, {255}, {uint8(255)}}},
	}
	run := func(st *gosql.Stmt, fast bool, args []any) (clientResult, *sqltypes.Result, []bool) {
		mh.noFast.Store(!fast)
		cr := runPrepared(st, args...)
		f, res := tp.take()
		if len(res) != 1 {
			t.Fatalf("%d results tapped", len(res))
		}
		return cr, res[0], f
	}
	for _, sc := range cases {
		st, err := c.PrepareContext(ctx, sc.q)
		if err != nil {
			t.Fatalf("%s: %v", sc.q, err)
		}
		if mh.points.lookup(sc.q) == nil {
			t.Fatalf("%s: not recognised as a point select", sc.q)
		}
		for _, args := range sc.args {
			slowC, slowR, f := run(st, false, args)
			if f[0] {
				t.Fatalf("%s %v: fast path taken while disabled", sc.q, args)
			}
			run(st, true, args) // may learn the fields
			fastC, fastR, f := run(st, true, args)
			if !f[0] {
				t.Fatalf("%s %v: fast path not taken", sc.q, args)
			}
			if d := sameResult(fastR, slowR); d != "" {
				t.Errorf("%s %v: handler results differ: %s", sc.q, args, d)
			}
			if d := fastC.diff(slowC); d != "" {
				t.Errorf("%s %v: client results differ: %s", sc.q, args, d)
			}
		}
		st.Close()
	}
	// The results are right, not merely equal.
	st, err := c.PrepareContext(ctx, "SELECT k, bu, vc, js FROM fp.t WHERE k = ?")
	if err != nil {
		t.Fatal(err)
	}
	mh.noFast.Store(false)
	for i := 0; i < 2; i++ {
		cr := runPrepared(st, 1)
		if want := `"1"|"18446744073709551615"|"Héllo"|"{\"a\":[1,2.5,\"x\"],\"b\":null}"`; cr.err != "" || strings.Join(cr.rows, "\n") != want {
			t.Fatalf("got %v %q, want %q", cr.err, cr.rows, want)
		}
		if cr := runPrepared(st, 4); cr.err != "" || len(cr.rows) != 0 {
			t.Fatalf("missing key: %v %q", cr.err, cr.rows)
		}
	}
	if f, _ := tp.take(); !f[len(f)-1] {
		t.Fatal("fast path not taken")
	}
	st.Close()

	// Under another character_set_results, the fields are learnt anew and
	// the values converted as go-mysql-server converts them.
	mustExec(t, c, "SET character_set_results = 'latin1'")
	st, err = c.PrepareContext(ctx, "SELECT vc, vl, ch, tx FROM fp.t WHERE k = ?")
	if err != nil {
		t.Fatal(err)
	}
	slowC, slowR, _ := run(st, false, []any{1})
	run(st, true, []any{1})
	fastC, fastR, f := run(st, true, []any{1})
	if !f[0] {
		t.Fatal("latin1: fast path not taken")
	}
	if d := sameResult(fastR, slowR); d != "" {
		t.Errorf("latin1: handler results differ: %s", d)
	}
	if d := fastC.diff(slowC); d != "" {
		t.Errorf("latin1: client results differ: %s", d)
	}
	st.Close()
}
