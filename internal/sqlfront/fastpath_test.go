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
	return clientRows(st.Query(args...))
}

// clientRows reads a result as the client sees it.
func clientRows(rs *gosql.Rows, err error) clientResult {
	var cr clientResult
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

// fastTypesSetup makes the tables the point-select tests read: every
// column type, a composite key, unique keys, a TINYINT UNSIGNED key.
var fastTypesSetup = []string{"CREATE DATABASE fp", fastTypesTable,
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
	"INSERT INTO fp.tiny VALUES (0, 1), (255, 2)"}

// fastTypesCases are point selects over fastTypesSetup's tables, each with
// the arguments it runs with.
var fastTypesCases = []struct {
	q    string
	args [][]any
}{
	{"SELECT * FROM fp.t WHERE k = ?", [][]any{{1}, {2}, {3}, {4}, {int64(-1)}}},
	{"SELECT k, ti, bu, js, vl FROM t WHERE k = ?", [][]any{{1}, {3}, {99}}},
	{"SELECT `K`, Dt3, dt3, tsp FROM `fp`.`t` WHERE ? = `k`", [][]any{{1}, {uint64(2)}}},
	{"select v, b, a from fp.c where b = ? and a = ?", [][]any{{-1, 1}, {2, uint64(1)}, {int64(9223372036854775807), uint64(4294967295)}, {3, 1}}},
	{"SELECT * FROM fp.u WHERE u = ?", [][]any{{1}, {2}, {3}}},
	{"SELECT id FROM fp.u WHERE u = ? AND w = ?", [][]any{{1, 5}, {2, 5}, {1, 6}}},
	{"SELECT * FROM fp.tiny WHERE k = ?", [][]any{{0}, {255}, {uint8(255)}}},
}

// TestPointFastPathMatchesSlow runs point selects both ways and compares
// what the handler sends (fields and values, in process) and what the
// client sees (column types and values), for every column type.
func TestPointFastPathMatchesSlow(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mh := ts.s.mh
	tp := tapCopies(mh)
	mustExec(t, ts.open(""), fastTypesSetup...)

	c := ts.conn("fp")
	ctx := context.Background()
	run := func(st *gosql.Stmt, fast bool, args []any) (clientResult, *sqltypes.Result, []bool) {
		mh.noFast.Store(!fast)
		cr := runPrepared(st, args...)
		res, f := tp.takeFast()
		if len(res) != 1 {
			t.Fatalf("%d results tapped", len(res))
		}
		return cr, res[0], f
	}
	for _, sc := range fastTypesCases {
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
		if want := `"1"|"18446744073709551615"|"Héllo"|"{\"a\": [1, 2.5, \"x\"], \"b\": null}"`; cr.err != "" || strings.Join(cr.rows, "\n") != want {
			t.Fatalf("got %v %q, want %q", cr.err, cr.rows, want)
		}
		if cr := runPrepared(st, 4); cr.err != "" || len(cr.rows) != 0 {
			t.Fatalf("missing key: %v %q", cr.err, cr.rows)
		}
	}
	if _, f := tp.takeFast(); !f[len(f)-1] {
		t.Fatal("fast path not taken")
	}
	st.Close()

	// compare runs query with the fast path off and then on, and compares
	// what the handler sent and what the client read.
	compare := func(label, query string) {
		t.Helper()
		st, err := c.PrepareContext(ctx, query)
		if err != nil {
			t.Fatal(err)
		}
		defer st.Close()
		slowC, slowR, _ := run(st, false, []any{1})
		run(st, true, []any{1})
		fastC, fastR, f := run(st, true, []any{1})
		if !f[0] {
			t.Fatalf("%s: fast path not taken", label)
		}
		if d := sameResult(fastR, slowR); d != "" {
			t.Errorf("%s: handler results differ: %s", label, d)
		}
		if d := fastC.diff(slowC); d != "" {
			t.Errorf("%s: client results differ: %s", label, d)
		}
	}

	// Under another character_set_results, the fields are learnt anew and
	// the values converted as go-mysql-server converts them.
	mustExec(t, c, "SET character_set_results = 'latin1'")
	compare("latin1", "SELECT vc, vl, ch, tx FROM fp.t WHERE k = ?")

	// Another time zone.
	mustExec(t, c, "SET character_set_results = 'utf8mb4'", "SET time_zone = '+05:00'")
	compare("time zone", "SELECT tsp, ts3, dtm FROM fp.t WHERE k = ?")
}

// TestPointFastPathConcurrent reads from several connections while the
// table is altered: every result must be whole and right for one version
// of the table.
func TestPointFastPathConcurrent(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE cc", "CREATE TABLE cc.t (k INT PRIMARY KEY, v BIGINT NOT NULL)")
	for i := 1; i <= 50; i++ {
		mustExec(t, db, fmt.Sprintf("INSERT INTO cc.t VALUES (%d, %d)", i, i*10))
	}
	pool := ts.open("cc")
	const workers, rounds = 4, 150
	errs := make(chan error, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			errs <- func() error {
				c, err := pool.Conn(context.Background())
				if err != nil {
					return err
				}
				defer c.Close()
				st, err := c.PrepareContext(context.Background(), "SELECT * FROM t WHERE k = ?")
				if err != nil {
					return err
				}
				defer st.Close()
				for i := 0; i < rounds; i++ {
					k := 1 + (i*7+w)%50
					cr := runPrepared(st, k)
					if cr.err != "" || len(cr.rows) != 1 {
						return fmt.Errorf("k=%d: %v %q", k, cr.err, cr.rows)
					}
					want := fmt.Sprintf("%q|%q", fmt.Sprint(k), fmt.Sprint(k*10))
					if cr.rows[0] != want && cr.rows[0] != want+`|"x"` {
						return fmt.Errorf("k=%d: %q, want %q", k, cr.rows[0], want)
					}
				}
				return nil
			}()
		}(w)
	}
	mustExec(t, db, "ALTER TABLE cc.t ADD COLUMN z CHAR(1) NOT NULL DEFAULT 'x'")
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	if ts.s.Stats().PointFast.Load() == 0 {
		t.Error("no execution took the fast path")
	}
}

// TestPointSelectRecognition lists statements the fast path must leave to
// go-mysql-server.
func TestPointSelectRecognition(t *testing.T) {
	yes := []string{
		"SELECT id, name, email, created FROM hsbench.bench WHERE id = ?",
		"SELECT * FROM t WHERE k = ?",
		"select a from `d`.`t` where ? = b and c = ? and d = ?",
	}
	no := []string{
		"SELECT k FROM t WHERE k = ? LIMIT 1",
		"SELECT k FROM t WHERE k = ? ORDER BY k",
		"SELECT k FROM t WHERE k = ? FOR UPDATE",
		"SELECT k FROM t WHERE k = ? LOCK IN SHARE MODE",
		"SELECT x.k FROM t x WHERE k = ?",
		"SELECT k FROM t AS x WHERE k = ?",
		"SELECT k AS kk FROM t WHERE k = ?",
		"SELECT k + 1 FROM t WHERE k = ?",
		"SELECT COUNT(*) FROM t WHERE k = ?",
		"SELECT t.* FROM t WHERE k = ?",
		"SELECT *, k FROM t WHERE k = ?",
		"SELECT t.k FROM t WHERE k = ?",
		"SELECT k FROM t WHERE t.k = ?",
		"SELECT DISTINCT k FROM t WHERE k = ?",
		"SELECT SQL_CALC_FOUND_ROWS k FROM t WHERE k = ?",
		"SELECT /*+ JOIN_ORDER(t) */ k FROM t WHERE k = ?",
		"SELECT k FROM t WHERE k = 1",
		"SELECT k FROM t WHERE k = '1'",
		"SELECT k FROM t WHERE k > ?",
		"SELECT k FROM t WHERE k = ? OR k = ?",
		"SELECT k FROM t WHERE k IN (?)",
		"SELECT k FROM t WHERE k = ? + 1",
		"SELECT k FROM t WHERE k <=> ?",
		"SELECT k FROM t WHERE NOT k = ?",
		"SELECT k FROM t",
		"SELECT k FROM t, u WHERE k = ?",
		"SELECT k FROM t JOIN u ON t.k = u.k WHERE k = ?",
		"SELECT k FROM (SELECT k FROM t) s WHERE k = ?",
		"SELECT k FROM t WHERE k = (SELECT ?)",
		"SELECT k FROM t WHERE k = ? GROUP BY k",
		"SELECT k FROM t WHERE k = ? HAVING k = ?",
		"SELECT k FROM t WHERE k = ? INTO @x",
		"WITH c AS (SELECT 1) SELECT k FROM t WHERE k = ?",
		"SELECT k FROM t WHERE k = ? UNION SELECT k FROM t WHERE k = ?",
		"SELECT k FROM t WHERE k = ?; SELECT 1",
		"SELECT \"k\" FROM t WHERE k = ?",
		"SELECT k FROM t PARTITION (p0) WHERE k = ?",
		"SELECT k FROM t USE INDEX (PRIMARY) WHERE k = ?",
		"SELECT k FROM t AS OF '2020-01-01' WHERE k = ?",
		"UPDATE t SET v = 1 WHERE k = ?",
		"DELETE FROM t WHERE k = ?",
		"EXPLAIN SELECT k FROM t WHERE k = ?",
	}
	for _, q := range yes {
		if _, ok := parseFast(q).(*pointPlan); !ok {
			t.Errorf("not recognised: %s", q)
		}
	}
	for _, q := range no {
		if _, ok := parseFast(q).(*pointPlan); ok {
			t.Errorf("recognised: %s", q)
		}
	}
}

// TestPointFastPathFallsBack checks that executions the fast path must
// not serve go to go-mysql-server and answer as it does.
func TestPointFastPathFallsBack(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mh := ts.s.mh
	tp := tapCopies(mh)
	root := ts.open("")
	mustExec(t, root, "CREATE DATABASE fb",
		"CREATE TABLE fb.t (k INT PRIMARY KEY, v VARCHAR(10), n INT, UNIQUE KEY un (n))",
		"INSERT INTO fb.t VALUES (1, 'one', 10), (2, 'two', 20)",
		"CREATE TABLE fb.tiny (k TINYINT UNSIGNED PRIMARY KEY)", "INSERT INTO fb.tiny VALUES (44)",
		"CREATE TABLE fb.ub (k BIGINT UNSIGNED PRIMARY KEY)", "INSERT INTO fb.ub VALUES (18446744073709551615)",
		"CREATE VIEW fb.vw AS SELECT k, v FROM fb.t")
	c := ts.conn("fb")
	ctx := context.Background()
	conns := map[*gosql.Stmt]*gosql.Conn{} // each statement's connection
	prep := func(c *gosql.Conn, q string) *gosql.Stmt {
		t.Helper()
		st, err := c.PrepareContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		t.Cleanup(func() { st.Close() })
		conns[st] = c
		return st
	}
	// both runs st fast path off, then on, and returns the client results
	// and whether the second was served by the fast path. A statement
	// that failed leaves go-mysql-server's transaction behind, which
	// would send the next one to go-mysql-server too: SELECT 1 in between
	// clears it.
	both := func(st *gosql.Stmt, args ...any) (slow, fast clientResult, tookFast bool) {
		t.Helper()
		mh.noFast.Store(true)
		slow = runPrepared(st, args...)
		mh.noFast.Store(false)
		queryRows(t, conns[st], "SELECT 1")
		tp.take()
		fast = runPrepared(st, args...)
		_, f := tp.takeFast()
		return slow, fast, len(f) > 0 && f[len(f)-1]
	}
	// mustFallBack fails unless an execution both ways agrees and was not
	// served by the fast path.
	mustFallBack := func(what string, st *gosql.Stmt, args ...any) clientResult {
		t.Helper()
		slow, fast, took := both(st, args...)
		if took {
			t.Errorf("%s: served by the fast path", what)
		}
		if d := fast.diff(slow); d != "" {
			t.Errorf("%s: %s", what, d)
		}
		return fast
	}
	mustBeFast := func(what string, st *gosql.Stmt, args ...any) clientResult {
		t.Helper()
		queryRows(t, conns[st], "SELECT 1")
		runPrepared(st, args...) // may learn the fields
		slow, fast, took := both(st, args...)
		if !took {
			t.Errorf("%s: not served by the fast path", what)
		}
		if d := fast.diff(slow); d != "" {
			t.Errorf("%s: %s", what, d)
		}
		return fast
	}

	st := prep(c, "SELECT k, v FROM t WHERE k = ?")
	mustBeFast("int", st, 1)
	// Parameters the key column does not hold exactly.
	for _, arg := range []any{"1", "1abc", 1.0, 1.5, nil, []byte{1}} {
		mustFallBack(fmt.Sprintf("param %T %v", arg, arg), st, arg)
	}
	tiny := prep(c, "SELECT k FROM tiny WHERE k = ?")
	mustBeFast("tiny", tiny, 44)
	for _, arg := range []any{300, -1, uint64(1 << 63)} {
		mustFallBack(fmt.Sprintf("tiny %v", arg), tiny, arg)
	}
	ub := prep(c, "SELECT k FROM ub WHERE k = ?")
	mustBeFast("bigint unsigned", ub, uint64(18446744073709551615))
	mustFallBack("bigint unsigned -1", ub, -1)
	// Non-key and not-whole-key columns, views, system tables.
	unique := prep(c, "SELECT k FROM t WHERE n = ?")
	mustBeFast("unique", unique, 20)
	mustFallBack("non-key", prep(c, "SELECT k FROM t WHERE v = ?"), "one")
	mustFallBack("view", prep(c, "SELECT k, v FROM vw WHERE k = ?"), 1)
	mustFallBack("information_schema", prep(c, "SELECT table_name FROM information_schema.tables WHERE table_rows = ?"), 1)

	// Inside a REPEATABLE READ transaction that has written, the statement
	// reads the writes laid over the snapshot: go-mysql-server serves it.
	mustExec(t, c, "BEGIN", "INSERT INTO t VALUES (50, 'fifty', 500)")
	if r := mustFallBack("in transaction", st, 50); strings.Join(r.rows, ",") != `"50"|"fifty"` {
		t.Errorf("transaction's own write not read: %q", r.rows)
	}
	mustExec(t, c, "ROLLBACK")
	if r := mustBeFast("after rollback", st, 50); len(r.rows) != 0 {
		t.Errorf("rolled back row read: %q", r.rows)
	}
	// A transaction that has written nothing reads its snapshot on the
	// fast path: a commit made after its first read stays unseen.
	mustExec(t, c, "BEGIN")
	if r := mustBeFast("transaction snapshot", st, 2); strings.Join(r.rows, ",") != `"2"|"two"` {
		t.Errorf("transaction read %q", r.rows)
	}
	mustExec(t, root, "UPDATE fb.t SET v = 'TWO' WHERE k = 2")
	if r := mustBeFast("transaction snapshot after a commit", st, 2); strings.Join(r.rows, ",") != `"2"|"two"` {
		t.Errorf("snapshot read %q after another session's commit", r.rows)
	}
	mustExec(t, c, "COMMIT")
	if r := mustBeFast("after commit", st, 2); strings.Join(r.rows, ",") != `"2"|"TWO"` {
		t.Errorf("read %q after the commit", r.rows)
	}
	mustExec(t, root, "UPDATE fb.t SET v = 'two' WHERE k = 2")
	// READ COMMITTED reads the transaction's writes over the newest
	// commits, with one point lookup too.
	mustExec(t, c, "SET TRANSACTION ISOLATION LEVEL READ COMMITTED", "BEGIN", "INSERT INTO t VALUES (50, 'fifty', 500)")
	if r := mustBeFast("read committed, own write", st, 50); strings.Join(r.rows, ",") != `"50"|"fifty"` {
		t.Errorf("read committed: own write not read: %q", r.rows)
	}
	mustExec(t, c, "ROLLBACK")
	// SERIALIZABLE locks what it reads.
	mustExec(t, c, "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE", "BEGIN")
	mustFallBack("serializable", st, 1)
	mustExec(t, c, "COMMIT")
	mustExec(t, c, "SET autocommit = 0")
	mustBeFast("autocommit off", st, 1)
	mustExec(t, c, "COMMIT", "SET autocommit = 1")
	mustBeFast("autocommit on", st, 1)
	mustExec(t, c, "SET sql_select_limit = 0")
	if r := mustFallBack("sql_select_limit", st, 1); len(r.rows) != 0 {
		t.Errorf("sql_select_limit ignored: %q", r.rows)
	}
	mustExec(t, c, "SET sql_select_limit = DEFAULT")
	mustBeFast("sql_select_limit default", st, 1)

	// Session state a SELECT leaves behind: FOUND_ROWS(), warnings.
	for _, fast := range []bool{false, true} {
		mh.noFast.Store(!fast)
		runPrepared(st, 1)
		runPrepared(st, 1)
		expectRows(t, c, "SELECT FOUND_ROWS()", "1")
		runPrepared(st, 3)
		expectRows(t, c, "SELECT FOUND_ROWS()", "0")
		mustExec(t, c, "SELECT 1/0")
		if n := len(queryRows(t, c, "SHOW WARNINGS")); n == 0 {
			t.Fatal("no warning to clear")
		}
		mustExec(t, c, "SELECT 1/0")
		runPrepared(st, 1)
		if w := queryRows(t, c, "SHOW WARNINGS"); len(w) != 0 {
			t.Errorf("fast=%v: warnings left after the select: %q", fast, w)
		}
	}
	mh.noFast.Store(false)

	// DDL: the statement follows the table's new definition.
	star := prep(c, "SELECT * FROM t WHERE k = ?")
	mustBeFast("star", star, 2)
	mustExec(t, root, "ALTER TABLE fb.t ADD COLUMN z INT DEFAULT 7")
	if r := mustBeFast("star after ADD COLUMN", star, 2); strings.Join(r.rows, ",") != `"2"|"two"|"20"|"7"` {
		t.Errorf("after ADD COLUMN: %q", r.rows)
	}
	mustExec(t, root, "ALTER TABLE fb.t DROP PRIMARY KEY, ADD PRIMARY KEY (n)")
	mustFallBack("no longer the key", st, 2)
	mustFallBack("no longer the key, star", star, 2)
	if r := mustBeFast("new primary key", unique, 20); strings.Join(r.rows, ",") != `"2"` {
		t.Errorf("new primary key: %q", r.rows)
	}
	mustExec(t, root, "DROP TABLE fb.t")
	if r := mustFallBack("dropped table", st, 2); r.err == "" {
		t.Error("dropped table still read")
	}

	// Privileges: go-mysql-server's check, every execution.
	mustExec(t, root, "CREATE TABLE fb.p (k INT PRIMARY KEY, v INT)", "INSERT INTO fb.p VALUES (1, 100)",
		"CREATE USER 'pu'@'%' IDENTIFIED BY 'pw'", "GRANT SELECT ON fb.p TO 'pu'@'%'")
	pdb, err := gosql.Open("mysql", ts.dsn("pu", "pw", "fb"))
	if err != nil {
		t.Fatal(err)
	}
	defer pdb.Close()
	pc, err := pdb.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	pst := prep(pc, "SELECT v FROM p WHERE k = ?")
	mustBeFast("granted", pst, 1)
	mustExec(t, root, "REVOKE SELECT ON fb.p FROM 'pu'@'%'")
	before := mh.stats.PointFast.Load()
	if r := mustFallBack("revoked", pst, 1); !strings.Contains(r.err, "denied") {
		t.Errorf("revoked: got %q %q", r.err, r.rows)
	}
	if mh.stats.PointFast.Load() != before {
		t.Error("revoked: served by the fast path")
	}
	mustExec(t, root, "GRANT SELECT ON fb.* TO 'pu'@'%'")
	mustBeFast("granted on the database", pst, 1)

	// Statement counters count fast executions as selects.
	sel := mh.stats.Queries[StmtSelect][0].Load()
	fast := mh.stats.PointFast.Load()
	runPrepared(pst, 1)
	if mh.stats.Queries[StmtSelect][0].Load() != sel+1 || mh.stats.PointFast.Load() != fast+1 {
		t.Error("fast select not counted")
	}
}

// TestTextPointSelects runs the point selects of TestPointFastPathMatchesSlow
// as text, with their arguments written in as literals, with the fast
// path off and then on (its first run learns the fields), and compares
// what the client reads: columns and values. Texts whose literals the
// template does not cut (a negative key, a number of 19 digits) take
// go-mysql-server's path both times (so does k = -1, whose template
// k = -? is no point select); the others must take the fast path.
func TestTextPointSelects(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mh := ts.s.mh
	mustExec(t, ts.open(""), fastTypesSetup...)
	c := ts.conn("fp")
	ctx := context.Background()
	query := func(q string, fast bool) clientResult {
		mh.noFast.Store(!fast)
		return clientRows(c.QueryContext(ctx, q))
	}
	served, cut := 0, 0
	check := func(q string) {
		t.Helper()
		slow := query(q, false)
		query(q, true) // may learn the fields
		before := mh.stats.PointFast.Load()
		fast := query(q, true)
		if d := fast.diff(slow); d != "" {
			t.Errorf("%s: client results differ: %s", q, d)
		}
		if tmpl, _, ok := textTemplate(q); ok && isPointPlan(parseFast(tmpl)) {
			cut++
			if mh.stats.PointFast.Load() == before {
				t.Errorf("%s: fast path not taken", q)
			}
		}
		served++
	}
	for _, sc := range fastTypesCases {
		for _, args := range sc.args {
			check(textWith(sc.q, args))
		}
	}
	mustExec(t, c, "SET character_set_results = 'latin1'")
	check("SELECT vc, vl, ch, tx FROM fp.t WHERE k = 1")
	mustExec(t, c, "SET character_set_results = 'utf8mb4'", "SET time_zone = '+05:00'")
	check("SELECT tsp, ts3, dtm FROM fp.t WHERE k = 1")
	// Not point selects: the plan cache's path, with the same answers.
	for _, q := range []string{"SELECT k, 1 FROM fp.t WHERE k = 1", "SELECT k FROM fp.t WHERE k = 1 OR k = 2", "SELECT COUNT(*) FROM fp.t WHERE k = 1"} {
		before := mh.stats.PointFast.Load()
		if d := query(q, true).diff(query(q, false)); d != "" {
			t.Errorf("%s: results differ: %s", q, d)
		}
		if mh.stats.PointFast.Load() != before {
			t.Errorf("%s took the point fast path", q)
		}
	}
	if cut < served/2 {
		t.Fatalf("%d of %d texts were cut into point-select templates", cut, served)
	}
}

func isPointPlan(p any) bool {
	_, ok := p.(*pointPlan)
	return ok
}
