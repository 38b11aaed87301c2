package sqlbackend

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// TestRangeRead checks joins whose condition bounds an indexed column of
// the inner table by the outer row: each must read an index range per
// outer row (rangeRead) and answer as the same join whose conjuncts are
// hidden from the rule (wrapped in IS TRUE), which scans the inner table
// for every outer row. The bounds meet the values exactly, fall between
// a DATETIME(2)'s steps and a DATE's days, lie outside a TINYINT's or an
// UNSIGNED column's range, or are NULL.
func TestRangeRead(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		`CREATE TABLE ev (id INT PRIMARY KEY, at DATETIME(2) NULL, d DATE NULL, n INT NULL, tn TINYINT NULL,
		  un INT UNSIGNED NULL, s VARCHAR(10) NULL, KEY kat (at), KEY kd (d), KEY kn (n, s), KEY ktn (tn), KEY kun (un))`,
		`CREATE TABLE bd (k INT PRIMARY KEY, lo DATETIME(6) NULL, hi DATETIME(6) NULL, dl DATE NULL,
		  il BIGINT NULL, ih BIGINT NULL)`)
	var rows []string
	for i := 0; i < 200; i++ {
		null := func(every int, v string) string {
			if i%every == 0 {
				return "NULL"
			}
			return v
		}
		rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s, %s, %s, 'v%d')", i,
			null(17, fmt.Sprintf("'2024-01-%02d %02d:00:00.%02d'", 1+i%10, i%24, i%3*25)),
			null(13, fmt.Sprintf("'2024-01-%02d'", 1+i%12)),
			null(11, fmt.Sprint(i%40-20)),
			null(9, fmt.Sprint(i%250-125)),
			null(7, fmt.Sprint(i*3)), i))
	}
	b.MustExec(t, ctx, "INSERT INTO ev VALUES "+strings.Join(rows, ", "))
	b.MustExec(t, ctx, `INSERT INTO bd VALUES
		(1, '2024-01-02 00:00:00', '2024-01-04 12:00:00.25', '2024-01-02', -5, 5),
		(2, '2024-01-03 05:00:00.249999', '2024-01-03 05:00:00.250001', '2024-01-03', 0, 0),
		(3, '2024-01-05 10:00:00.5', '2024-01-04 00:00:00', '2024-01-09', 7, -7),
		(4, NULL, '2024-01-06 00:00:00', NULL, NULL, 10),
		(5, '2024-01-08 23:59:59.999999', NULL, '2024-01-12', -1000, 1000),
		(6, '2024-01-01 00:00:00', '2024-01-11 00:00:00', '2024-01-01', -300, 300),
		(7, '2024-01-10 07:00:00.5', '2024-01-10 07:00:00.5', '2024-01-10', -2147483649, 4294967296),
		(8, '2024-01-07 00:00:00.75', '2024-01-07 00:00:00.75', '2024-01-07', 120, 127)`)
	// Each condition's conjuncts, separated by " ; ".
	for _, c := range []struct{ join, cond, cols string }{
		{"LEFT JOIN", "ev.at >= bd.lo ; ev.at < bd.hi", "ev.id, ev.at"},
		{"LEFT JOIN", "ev.at > bd.lo ; ev.at <= bd.hi", "ev.id"},
		{"LEFT JOIN", "ev.d BETWEEN bd.lo AND bd.hi", "ev.id, ev.d"},
		{"LEFT JOIN", "ev.at >= bd.dl ; ev.at <= bd.dl + INTERVAL 1 DAY", "ev.id, ev.at"},
		{"LEFT JOIN", "ev.at < bd.dl ; ev.at > bd.lo", "ev.id, ev.at"},
		{"JOIN", "ev.d > bd.dl + INTERVAL 1 DAY ; ev.d < bd.hi", "ev.id, ev.d"},
		{"LEFT JOIN", "bd.lo <= ev.at", "ev.id"},
		{"JOIN", "ev.n > bd.il ; ev.n <= bd.ih", "ev.id, ev.n, ev.s"},
		{"LEFT JOIN", "ev.n > bd.il ; ev.n <= bd.ih", "ev.id, ev.n, ev.s"},
		{"LEFT JOIN", "ev.tn >= bd.il ; ev.tn <= bd.ih", "ev.id, ev.tn"},
		{"LEFT JOIN", "ev.d > bd.dl + INTERVAL 1 DAY ; ev.d < bd.hi", "ev.id, ev.d"},
		{"JOIN", "ev.tn >= bd.il ; ev.tn <= bd.ih", "ev.id, ev.tn"},
		{"LEFT JOIN", "ev.un < bd.ih ; ev.un >= bd.il", "ev.id, ev.un"},
		{"LEFT JOIN", "ev.un BETWEEN bd.il AND bd.ih ; ev.s <> 'v3'", "ev.id, ev.un, ev.s"},
	} {
		conj := strings.Split(c.cond, " ; ")
		q := fmt.Sprintf("SELECT bd.k, %s FROM bd %s ev ON %s ORDER BY bd.k, ev.id", c.cols, c.join, strings.Join(conj, " AND "))
		hidden := slices.Clone(conj)
		for i := range hidden {
			hidden[i] = "(" + hidden[i] + ") IS TRUE"
		}
		ref := fmt.Sprintf("SELECT bd.k, %s FROM bd %s ev ON %s ORDER BY bd.k, ev.id", c.cols, c.join, strings.Join(hidden, " AND "))
		// (An inner join may have the indexed table outside: it is
		// then left as it is.)
		if c.join == "LEFT JOIN" && !usesRangeRead(t, b, ctx, q) {
			t.Fatalf("%s: no range read per row", q)
		}
		if usesRangeRead(t, b, ctx, ref) {
			t.Fatalf("%s: a range read per row", ref)
		}
		sameAnswers(t, b, ctx, q, ref, 4)
	}
	// A locking read in a transaction reads through the range too.
	b.MustExec(t, ctx, "BEGIN")
	got, err := b.Query(ctx, "SELECT bd.k, ev.id FROM bd JOIN ev ON ev.n >= bd.il AND ev.n < bd.ih WHERE bd.k = 1 ORDER BY ev.id FOR UPDATE")
	b.MustExec(t, ctx, "ROLLBACK")
	if err != nil || len(got) == 0 {
		t.Fatalf("locking range join: %q, %v", got, err)
	}
}

// sameAnswers requires q to answer the rows ref answers, at least
// atLeast of them.
func sameAnswers(t *testing.T, b *TestBackend, ctx *sql.Context, q, ref string, atLeast int) {
	t.Helper()
	got, err := b.Query(ctx, q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	want, err := b.Query(ctx, ref)
	if err != nil {
		t.Fatalf("%s: %v", ref, err)
	}
	if len(want) < atLeast || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s:\n got %d rows %q\nwant %d rows %q", q, len(got), got, len(want), want)
	}
}

// usesRangeRead reports whether the plan of q reads a table through a
// rangeRead.
func usesRangeRead(t *testing.T, b *TestBackend, ctx *sql.Context, q string) bool {
	t.Helper()
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	found := false
	transform.Inspect(n, func(n sql.Node) bool {
		if _, ok := n.(*rangeRead); ok {
			found = true
		}
		return !found
	})
	return found
}

// TestLookupJoinPointRead checks lookup joins on a one-column integer primary
// key or the first column of a secondary index: each must read the inner
// rows through a rangeRead (keyLookupJoin) and answer as the same join whose condition is hidden
// from the planner (IS TRUE), which scans the inner table for every outer
// row. The outer keys are NULL, out of the key's range (a TINYINT, an
// UNSIGNED key), missing, or there; a text key is left to the lookup.
func TestLookupJoinPointRead(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE tk (id TINYINT PRIMARY KEY, v VARCHAR(5))",
		"CREATE TABLE uk (id INT UNSIGNED PRIMARY KEY, v VARCHAR(5))",
		"CREATE TABLE bk (id BIGINT PRIMARY KEY, v VARCHAR(5))",
		"CREATE TABLE o (k INT PRIMARY KEY, big BIGINT NULL, s VARCHAR(5) NULL)")
	var tk, uk, bk, o []string
	for i := -128; i < 128; i++ {
		if i%3 != 0 {
			tk = append(tk, fmt.Sprintf("(%d, 't%d')", i, i))
		}
	}
	for i := 0; i < 3000; i++ {
		uk = append(uk, fmt.Sprintf("(%d, 'u%d')", i*2, i))
		bk = append(bk, fmt.Sprintf("(%d, 'b%d')", i*1000-20000, i))
	}
	for i := 0; i < 30; i++ {
		big := fmt.Sprint([]int64{int64(i*2 - 20), 300, -129, 5000000000, -1, int64(i * 1000)}[i%6])
		if i%7 == 0 {
			big = "NULL"
		}
		o = append(o, fmt.Sprintf("(%d, %s, '%d')", i, big, i*3-20))
	}
	b.MustExec(t, ctx, "INSERT INTO tk VALUES "+strings.Join(tk, ", "), "INSERT INTO uk VALUES "+strings.Join(uk, ", "),
		"INSERT INTO bk VALUES "+strings.Join(bk, ", "), "INSERT INTO o VALUES "+strings.Join(o, ", "))
	for _, c := range []struct {
		join, inner, key string
		point            bool
	}{
		{"JOIN", "tk", "o.big", true},
		{"LEFT JOIN", "tk", "o.big", true},
		{"LEFT JOIN", "uk", "o.big", true},
		{"JOIN", "bk", "o.big", true},
		{"LEFT JOIN", "tk", "o.s", false},
	} {
		q := fmt.Sprintf("SELECT o.k, x.id, x.v FROM o %s %s x ON x.id = %s ORDER BY o.k, x.id", c.join, c.inner, c.key)
		ref := fmt.Sprintf("SELECT o.k, x.id, x.v FROM o %s %s x ON (x.id = %s) IS TRUE ORDER BY o.k, x.id", c.join, c.inner, c.key)
		// (An inner join may have the keyed table outside.)
		if got := usesRangeRead(t, b, ctx, q); got != c.point && (c.join == "LEFT JOIN" || got) {
			n, _ := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
			t.Fatalf("%s: a point read per row %v, want %v:\n%s", q, got, c.point, n)
		}
		sameAnswers(t, b, ctx, q, ref, 5)
	}
	// A secondary index's first column: every entry of the key, in the
	// index's order, as the lookup reads them.
	b.MustExec(t, ctx, "CREATE TABLE sk (id INT PRIMARY KEY, g SMALLINT NULL, v VARCHAR(5), KEY ig (g, v))")
	var sk []string
	for i := 0; i < 400; i++ {
		g := fmt.Sprint(i%50 - 25)
		if i%11 == 0 {
			g = "NULL"
		}
		sk = append(sk, fmt.Sprintf("(%d, %s, 's%d')", i, g, (i*7)%13))
	}
	b.MustExec(t, ctx, "INSERT INTO sk VALUES "+strings.Join(sk, ", "))
	for _, join := range []string{"JOIN", "LEFT JOIN"} {
		q := "SELECT o.k, x.id, x.v FROM o " + join + " sk x ON x.g = o.big ORDER BY o.k, x.v, x.id"
		ref := "SELECT o.k, x.id, x.v FROM o " + join + " sk x ON (x.g = o.big) IS TRUE ORDER BY o.k, x.v, x.id"
		if got := usesRangeRead(t, b, ctx, q); !got && join == "LEFT JOIN" {
			n, _ := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
			t.Fatalf("%s: no range read per row:\n%s", q, n)
		}
		sameAnswers(t, b, ctx, q, ref, 20)
	}
	// A lookup join on the build side of a hash join gets the build's
	// outer row in front of its own: its key's position counts it, and
	// the join's condition no longer holds the key's equality, so a
	// read of the whole table would be a wrong answer.
	b.MustExec(t, ctx, "CREATE TABLE hf (id INT PRIMARY KEY, dur INT)", "CREATE TABLE hi (id INT PRIMARY KEY, f_id INT)",
		"CREATE TABLE hr (id INT PRIMARY KEY, c_id INT, i_id INT, d INT, KEY ii (i_id), KEY ic (c_id))",
		"CREATE TABLE hc (id INT PRIMARY KEY, a INT, b INT)")
	const nc, nf, ni, nr = 60, 40, 120, 1500
	var hf, hi, hr, hc []string
	for i := 0; i < nc; i++ {
		hc = append(hc, fmt.Sprintf("(%d, %d, %d)", i, i%3, i%5))
	}
	for i := 0; i < nf; i++ {
		hf = append(hf, fmt.Sprintf("(%d, %d)", i, i%7))
	}
	for i := 0; i < ni; i++ {
		hi = append(hi, fmt.Sprintf("(%d, %d)", i, i%nf))
	}
	late := map[int]int{} // the answer, counted here
	for i := 0; i < nr; i++ {
		c, in, d := i%nc, (i*7)%(ni+10), i%9
		hr = append(hr, fmt.Sprintf("(%d, %d, %d, %d)", i, c, in, d))
		if in < ni && d > (in%nf)%7 {
			late[c]++
		}
	}
	b.MustExec(t, ctx, "INSERT INTO hf VALUES "+strings.Join(hf, ", "), "INSERT INTO hi VALUES "+strings.Join(hi, ", "),
		"INSERT INTO hr VALUES "+strings.Join(hr, ", "), "INSERT INTO hc VALUES "+strings.Join(hc, ", "), "ANALYZE TABLE hf, hi, hr, hc")
	q := "SELECT c.id, c.a + c.b, COUNT(*) AS n FROM hc c JOIN hr r ON r.c_id = c.id JOIN hi i ON i.id = r.i_id " +
		"JOIN hf f ON f.id = i.f_id AND r.d > f.dur GROUP BY c.id, c.a, c.b ORDER BY c.id"
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	if plan := sql.DebugString(n); !strings.Contains(plan, "HashLookup") || !usesRangeRead(t, b, ctx, q) {
		t.Fatalf("%s: not a range read under a hash join's build side:\n%s", q, plan)
	}
	var want []string
	for c := 0; c < nc; c++ {
		if late[c] > 0 {
			want = append(want, fmt.Sprintf("%d|%d|%d", c, c%3+c%5, late[c]))
		}
	}
	got, err := b.Query(ctx, q)
	if err != nil || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s: %v\n%s\nwant\n%s", q, err, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Joins inside a view, a derived table and a UNION are read the same
	// way (their positions come from the statement's assignExecIndexes).
	b.MustExec(t, ctx, "CREATE VIEW vj AS SELECT o.k, x.id, x.v FROM o LEFT JOIN tk x ON x.id = o.big",
		"CREATE VIEW vr AS SELECT o.k, x.id, x.v FROM o LEFT JOIN tk x ON (x.id = o.big) IS TRUE")
	for _, c := range []struct{ q, ref string }{
		{"SELECT k, id, v FROM vj WHERE k > 3 ORDER BY k, id", "SELECT k, id, v FROM vr WHERE k > 3 ORDER BY k, id"},
		{"SELECT d.k, d.v FROM (SELECT o.k, x.v FROM o JOIN bk x ON x.id = o.big) d ORDER BY d.k",
			"SELECT d.k, d.v FROM (SELECT o.k, x.v FROM o JOIN bk x ON (x.id = o.big) IS TRUE) d ORDER BY d.k"},
		{"SELECT o.k, x.v FROM o JOIN uk x ON x.id = o.big UNION ALL SELECT o.k, x.v FROM o JOIN tk x ON x.id = o.big ORDER BY 1, 2",
			"SELECT o.k, x.v FROM o JOIN uk x ON (x.id = o.big) IS TRUE UNION ALL SELECT o.k, x.v FROM o JOIN tk x ON (x.id = o.big) IS TRUE ORDER BY 1, 2"},
	} {
		if !usesRangeRead(t, b, ctx, c.q) {
			n, _ := b.SE.AnalyzeQuery(ctx.WithQuery(c.q), c.q)
			t.Fatalf("%s: no point read per row:\n%s", c.q, n)
		}
		sameAnswers(t, b, ctx, c.q, c.ref, 5)
	}
}
