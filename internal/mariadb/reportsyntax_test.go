package mariadb

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// rewritten parses q as guardedParser does (retrying with dialectRewrite)
// and returns the statement reportRewrite makes of it, printed.
func rewritten(t *testing.T, q string) (string, error) {
	t.Helper()
	st, err := ast.Parse(q)
	if err != nil {
		rw, ok := DialectRewrite(q)
		if !ok {
			t.Fatalf("%s: %v", q, err)
		}
		if st, err = ast.Parse(rw); err != nil {
			t.Fatalf("%s: %v", rw, err)
		}
	}
	if err := ReportRewrite(q, st); err != nil {
		return "", err
	}
	return ast.String(st), nil
}

func TestWindowsOverGroups(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"SELECT g, COUNT(*) AS c, ROW_NUMBER() OVER (ORDER BY COUNT(*) DESC, g) AS rn FROM t GROUP BY g ORDER BY rn",
			"select __hdb_s1 as g, c as c, ROW_NUMBER() over ( order by c desc, __hdb_s1 asc) rn from (select g as __hdb_s1, COUNT(*) c, null as __hdb_s3 from t group by g) as __hdb_w order by rn asc"},
		{"SELECT t.g, SUM(SUM(n)) OVER (PARTITION BY t.h) AS s FROM t GROUP BY t.g, t.h HAVING COUNT(*) > 1 LIMIT 3",
			"select __hdb_s1 as g, SUM(__hdb_x1) over (partition by __hdb_x2) s from (select t.g as __hdb_s1, null as __hdb_s2, SUM(n) as __hdb_x1, t.h as __hdb_x2 from t group by t.g, t.h having COUNT(*) > 1) as __hdb_w limit 3"},
		// No aggregate, or no window: as written.
		{"SELECT g, ROW_NUMBER() OVER (ORDER BY g) FROM t", "select g, ROW_NUMBER() over ( order by g asc) from t"},
		{"SELECT g, COUNT(*) FROM t GROUP BY g", "select g, COUNT(*) from t group by g"},
		// A named window is written into the OVER clause; one defined
		// over another is left to go-mysql-server (which refuses it).
		{"SELECT g, COUNT(*), RANK() OVER w FROM t GROUP BY g WINDOW w AS (ORDER BY g)",
			"select __hdb_s1 as g, __hdb_s2 as `COUNT(*)`, RANK() over ( order by __hdb_s1 asc) from (select g as __hdb_s1, COUNT(*) __hdb_s2, null as __hdb_s3 from t group by g) as __hdb_w"},
		{"SELECT g, COUNT(*), RANK() OVER v FROM t GROUP BY g WINDOW w AS (ORDER BY g), v AS (w)",
			"select g, COUNT(*), RANK() over v from t group by g window w as ( order by g asc), v as (w)"},
	} {
		got, err := rewritten(t, c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.q, got, c.want)
		}
	}
}

func TestRollup(t *testing.T) {
	got, err := rewritten(t, "SELECT a, b AS bb, SUM(n) AS s FROM t GROUP BY a, bb WITH ROLLUP LIMIT 5")
	if err != nil {
		t.Fatal(err)
	}
	want := "select __hdb_c1 as a, bb as bb, s as s from (" +
		"select a as __hdb_c1, b as bb, SUM(n) as s, a as __hdb_g1, 0 as __hdb_r1, b as __hdb_g2, 0 as __hdb_r2 from t group by a, b " +
		"union all select a as __hdb_c1, null as bb, SUM(n) as s, a as __hdb_g1, 0 as __hdb_r1, null as __hdb_g2, 1 as __hdb_r2 from t group by a " +
		"union all select null as __hdb_c1, null as bb, SUM(n) as s, null as __hdb_g1, 1 as __hdb_r1, null as __hdb_g2, 1 as __hdb_r2 from t having count(*) > 0" +
		") as __hdb_rollup order by __hdb_r1 asc, __hdb_g1 asc, __hdb_r2 asc, __hdb_g2 asc limit 5"
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	// A grouping column inside an expression reads NULL in the rows that
	// roll it up, not inside an aggregate.
	got, err = rewritten(t, "SELECT CONCAT(a, '!'), MAX(a) FROM t GROUP BY 1 WITH ROLLUP")
	if err != nil {
		t.Fatal(err)
	}
	if want := "select __hdb_c1 as `CONCAT(a, '!')`, __hdb_c2 as `MAX(a)` from (select CONCAT(a, '!') as __hdb_c1, MAX(a) as __hdb_c2, CONCAT(a, '!') as __hdb_g1, 0 as __hdb_r1 from t group by CONCAT(a, '!') " +
		"union all select null as __hdb_c1, MAX(a) as __hdb_c2, null as __hdb_g1, 1 as __hdb_r1 from t having count(*) > 0) as __hdb_rollup order by __hdb_r1 asc, __hdb_g1 asc"; got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	// The HAVING of a rollup row reads a rolled-up column's greatest value.
	got, err = rewritten(t, "SELECT a, COUNT(*) AS c FROM t GROUP BY a WITH ROLLUP HAVING c > 1 AND a <> 'x'")
	if err != nil {
		t.Fatal(err)
	}
	if want := "select __hdb_c1 as a, c as c from (select a as __hdb_c1, COUNT(*) as c, a as __hdb_g1, 0 as __hdb_r1 from t group by a having c > 1 and a != 'x' " +
		"union all select null as __hdb_c1, COUNT(*) as c, null as __hdb_g1, 1 as __hdb_r1 from t having c > 1 and max(a) != 'x' and count(*) > 0) as __hdb_rollup order by __hdb_r1 asc, __hdb_g1 asc"; got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
	_, err = rewritten(t, "SELECT a, COUNT(*) FROM t GROUP BY a WITH ROLLUP ORDER BY a")
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Num != 1221 || se.Message != "Incorrect usage of CUBE/ROLLUP and ORDER BY" {
		t.Errorf("ORDER BY with ROLLUP: %v", err)
	}
	// Only WITH ROLLUP after GROUP BY's expressions becomes the marker.
	if rw, ok := DialectRewrite("SELECT 'WITH ROLLUP' FROM t GROUP BY a WITH  ROLLUP"); !ok || rw != "SELECT 'WITH ROLLUP' FROM t GROUP BY a ,__rollup__ " {
		t.Errorf("%q", rw)
	}
}

func TestAssignRewrite(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"SELECT @n := @n + 1 AS pos, name FROM t", "SELECT __hdb_assign('@n', @n + 1) AS pos, name FROM t"},
		{"SELECT @n := @n + 1 pos FROM t", "SELECT __hdb_assign('@n', @n + 1) pos FROM t"},
		{"SELECT @r := IF(@p = g, @r + 1, 1), @p := g FROM t", "SELECT __hdb_assign('@r', IF(@p = g, @r + 1, 1)), __hdb_assign('@p', g) FROM t"},
		{"SELECT x FROM t WHERE (@w := n DIV 2) > 3", "SELECT x FROM t WHERE (__hdb_assign('@w', n DIV 2)) > 3"},
		{"SELECT @c := CASE WHEN a THEN 1 ELSE 2 END, b FROM t", "SELECT __hdb_assign('@c', CASE WHEN a THEN 1 ELSE 2 END), b FROM t"},
		{"SET @a := (SELECT @b := 5)", "SET @a := (SELECT __hdb_assign('@b', 5))"},
		{"SELECT @`a b` := t.x FROM t", "SELECT __hdb_assign('@`a b`', t.x) FROM t"},
		// Only the first statement is rewritten.
		{"SELECT @a := 1; SELECT @b := 2", "SELECT __hdb_assign('@a', 1); SELECT @b := 2"},
	} {
		got, ok := AssignRewrite(c.q)
		if !ok || got != c.want {
			t.Errorf("%s:\n got %s (%v)\nwant %s", c.q, got, ok, c.want)
		}
		if back := UnassignText(got); !strings.HasPrefix(c.q, back) {
			t.Errorf("%s: unassignText gives %s", c.q, back)
		}
	}
	// Where := binding loosest changes the expression, and in SET's own
	// list, nothing is rewritten.
	for _, q := range []string{"SELECT @a := b AND c", "SELECT @a := b = c FROM t", "SET @a := 1, @b := 2", "SELECT 'x := 1'"} {
		if got, ok := AssignRewrite(q); ok {
			t.Errorf("%s: rewritten as %s", q, got)
		}
	}
}

func TestTypedLiteral(t *testing.T) {
	got, err := rewritten(t, "SELECT DATE '2024-01-01', TIMESTAMP '2024-01-01 10:00:00.25' AS ts, '2024-01-01', DATE '2024-01-01' + INTERVAL 1 DAY")
	if err != nil {
		t.Fatal(err)
	}
	// The string and the expression around a literal stay as they are.
	if want := "select CAST('2024-01-01' as date), CAST('2024-01-01 10:00:00.25' as datetime(2)) ts, '2024-01-01', '2024-01-01' + interval 1 DAY"; got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

// TestTypedLiteralValues: only values the text writes solely as DATE or
// TIMESTAMP literals are typed, and a DATE literal inside an expression
// keeps its type (DATE + INTERVAL is a DATE).
func TestTypedLiteralValues(t *testing.T) {
	for text, want := range map[string]string{
		"SELECT DATE '2024-02-29' + INTERVAL 1 DAY":                          "2024-02-29=date",
		"SELECT DATE '2024-02-29' + INTERVAL 1 DAY, '2024-02-29'":            "",
		"SELECT DATE '2024-02-29' + INTERVAL 1 DAY, \"2024-02-29\"":          "",
		"SELECT DATE '2024-02-29', TIMESTAMP '2024-02-29'":                   "",
		"SELECT CONCAT(TIMESTAMP '2024-02-29 10:00:00.5'), DATE'2024-01-01'": "2024-01-01=date 2024-02-29 10:00:00.5=datetime",
	} {
		var got []string
		for v, ct := range TypedLiteralValues(text) {
			got = append(got, v+"="+ct.Type)
		}
		slices.Sort(got)
		if strings.Join(got, " ") != want {
			t.Errorf("%s: got %q, want %q", text, strings.Join(got, " "), want)
		}
	}
}
