package mariadb

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/dolthub/go-mysql-server/sql"
)

// TestTimeLiterals: text compared with a date or time column is
// converted once, and answers as before: a DATE compared with a time of
// day after midnight, a DATETIME with a date, text that is no ISO date
// (left to go-mysql-server), the literal on the left.
func TestTimeLiterals(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE ev (id INT PRIMARY KEY, day DATE, at DATETIME, ts TIMESTAMP NULL)",
		"INSERT INTO ev VALUES (1, '2024-03-01', '2024-03-01 00:00:00', '2024-03-01 10:00:00'), (2, '2024-02-29', '2024-03-01 12:30:00', NULL), (3, NULL, '2024-04-01 00:00:00', '2024-04-01 00:00:00')")
	b.ExpectRows(t, ctx, "SELECT id FROM ev WHERE at >= '2024-03-01' AND at < '2024-04-01' ORDER BY id", "1", "2")
	b.ExpectRows(t, ctx, "SELECT id FROM ev WHERE day = '2024-03-01' ORDER BY id", "1")
	b.ExpectRows(t, ctx, "SELECT id FROM ev WHERE day < '2024-03-01 00:00:01' ORDER BY id", "1", "2")
	b.ExpectRows(t, ctx, "SELECT id FROM ev WHERE '2024-03-01 12:30:00' <= at ORDER BY id", "2", "3")
	b.ExpectRows(t, ctx, "SELECT id FROM ev WHERE ts > '2024-03-01 09:59:59.5' ORDER BY id", "1", "3")
	b.ExpectRows(t, ctx, "SELECT id FROM ev WHERE at <=> '2024-04-01 00:00:00' ORDER BY id", "3")
	b.ExpectRows(t, ctx, "SELECT id FROM ev WHERE at > '2024/03/01 06:00' ORDER BY id", "2", "3")
	b.ExpectRows(t, ctx, "SELECT at = '2024-03-01', day >= '2024-02-29', at = '2024-03-01 12:30' FROM ev WHERE id = 2", "false|true|true")

	q := "SELECT id FROM ev WHERE at >= '2024-03-01'"
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	if s := sql.DebugString(n); !strings.Contains(s, "'2024-03-01'") {
		t.Fatalf("the literal does not print as written:\n%s", s)
	}
	found := false
	for _, e := range collectExprs(n) {
		if _, ok := e.(*isoTimeLiteral); ok {
			found = true
		}
	}
	if !found {
		t.Fatalf("%s: no converted literal in the plan:\n%s", q, sql.DebugString(n))
	}
}

// TestDecimalExtremes: grouped MIN and MAX of DECIMAL, with NULLs,
// negative values, an expression and a window (go-mysql-server's). Values
// print with %v: a decimal without its trailing zeros.
func TestDecimalExtremes(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE p (id INT PRIMARY KEY, g INT, amount DECIMAL(6,2) NULL)",
		"INSERT INTO p VALUES (1, 1, 2.50), (2, 1, -3.25), (3, 1, 10.00), (4, 2, NULL), (5, 2, 0.99), (6, 3, NULL), (7, 1, 9.99)")
	b.ExpectRows(t, ctx, "SELECT g, MIN(amount), MAX(amount), MIN(amount * 2) FROM p GROUP BY g ORDER BY g",
		"1|-3.25|10|-6.5", "2|0.99|0.99|1.98", "3|NULL|NULL|NULL")
	b.ExpectRows(t, ctx, "SELECT MIN(amount), MAX(amount) FROM p", "-3.25|10")
	b.ExpectRows(t, ctx, "SELECT id, MAX(amount) OVER (PARTITION BY g) FROM p WHERE g = 1 ORDER BY id", "1|10", "2|10", "3|10", "7|10")

	q := "SELECT g, MAX(amount) FROM p GROUP BY g"
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range collectExprs(n) {
		if _, ok := e.(*decimalExtreme); ok {
			found = true
		}
	}
	if !found {
		t.Fatalf("%s: MAX was not replaced:\n%s", q, sql.DebugString(n))
	}
}

// collectExprs returns every expression of the plan.
func collectExprs(n sql.Node) []sql.Expression {
	var out []sql.Expression
	transform.InspectExpressions(n, func(e sql.Expression) bool {
		if h, ok := e.(*heldAgg); ok { // keyedgroup.go
			e = h.agg
		}
		out = append(out, e)
		return true
	})
	return out
}

// TestISOSortKeys: a sort and a window ordered by text of a date type
// (DATE() through a derived table) order as before, and the keys reach
// the sort as isoDate.
func TestISOSortKeys(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE r (id INT PRIMARY KEY, at DATETIME NULL)",
		"INSERT INTO r VALUES (1, '2024-02-10 10:00:00'), (2, '2024-01-31 23:00:00'), (3, '2024-02-10 08:00:00'), (4, NULL), (5, '2023-12-31 00:00:00'), (6, '2024-01-02 00:00:00')")
	q := "SELECT day, n, ROW_NUMBER() OVER (PARTITION BY YEAR(day) ORDER BY day DESC) AS rn FROM (SELECT DATE(at) AS day, COUNT(*) AS n FROM r GROUP BY DATE(at)) t ORDER BY day"
	b.ExpectRows(t, ctx, q, "NULL|1|1", "2023-12-31|1|1", "2024-01-02|1|3", "2024-01-31|1|2", "2024-02-10|2|1")
	b.ExpectRows(t, ctx, "SELECT DATE(at) AS d FROM r WHERE id <> 4 ORDER BY d DESC, id LIMIT 3", "2024-02-10", "2024-02-10", "2024-01-31")
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	sorts := 0
	transform.Inspect(n, func(n sql.Node) bool {
		var fields sql.SortFields
		switch s := n.(type) {
		case *plan.Sort:
			fields = s.SortFields
		case *keyedSort:
			fields = s.fields
		}
		for _, f := range fields {
			if strings.Contains(fmt.Sprintf("%T", unwrapOdd(f.Column)), "isoDate") {
				sorts++
			}
		}
		return true
	})
	if sorts == 0 {
		t.Fatalf("no isoDate sort key:\n%s", sql.DebugString(n))
	}
}

// unwrapOdd returns the expression an oddOut wraps (oddrule.go).
func unwrapOdd(e sql.Expression) sql.Expression {
	if o, ok := e.(*oddOut); ok {
		return o.child
	}
	return e
}

// TestFastCases: CASE (searched and simple, DECIMAL and text results, a
// literal ELSE, no ELSE) and DECIMAL compared with literals answer as
// before, the literal on either side, NULLs too; the plan holds the
// replacements.
func TestFastCases(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE p (id INT PRIMARY KEY, m ENUM('cash','card') NOT NULL, amount DECIMAL(6,2) NULL)",
		"INSERT INTO p VALUES (1, 'cash', 2.50), (2, 'card', 5.00), (3, 'card', 10.25), (4, 'cash', NULL), (5, 'card', -1.00)")
	b.ExpectRows(t, ctx, "SELECT SUM(CASE WHEN m = 'cash' THEN amount ELSE 0 END), SUM(CASE m WHEN 'card' THEN amount END), COUNT(CASE WHEN amount > 5 THEN 1 END) FROM p",
		"2.5|14.25|1")
	b.ExpectRows(t, ctx, "SELECT id, CASE WHEN amount >= 5 THEN 'big' WHEN amount < 0 THEN 'neg' ELSE 'small' END, CASE m WHEN 'cash' THEN amount * 2 ELSE 1.5 END FROM p ORDER BY id",
		"1|small|5", "2|big|1.5", "3|big|1.5", "4|small|NULL", "5|neg|1.5")
	b.ExpectRows(t, ctx, "SELECT id FROM p WHERE amount = 5 OR 10.25 <= amount OR amount < -0.5 ORDER BY id", "2", "3", "5")
	b.ExpectRows(t, ctx, "SELECT id, amount > 2.5, 3 > amount FROM p ORDER BY id",
		"1|false|true", "2|true|false", "3|true|false", "4|NULL|NULL", "5|false|true")

	q := "SELECT SUM(CASE WHEN m = 'cash' THEN amount ELSE 0 END), COUNT(CASE WHEN amount > 5 THEN 1 END) FROM p"
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	var cases, cmps int
	for _, e := range collectExprs(n) {
		transform.InspectExpr(e, func(e sql.Expression) bool {
			switch e.(type) {
			case *fastCase:
				cases++
			case *decimalCmp:
				cmps++
			}
			return false
		})
	}
	if cases == 0 || cmps == 0 {
		t.Fatalf("%d fastCase and %d decimalCmp, want some of each:\n%s", cases, cmps, sql.DebugString(n))
	}
}

// TestExactSumCoefficients: SUM and AVG of DECIMAL summed as
// coefficients give the exact decimal: one scale, two scales in one
// expression, values too long for the shortcut, and a sum that would
// overflow int64.
func TestExactSumCoefficients(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE p (id INT PRIMARY KEY, a DECIMAL(6,2), c DECIMAL(8,3), big DECIMAL(30,2))",
		"INSERT INTO p VALUES (1, 1.25, 0.001, 9999999999999999999999999999.99), (2, -0.50, 2.5, 1), (3, NULL, NULL, NULL), (4, 100.00, -1, 0.01)",
		"CREATE TABLE q (id INT PRIMARY KEY, v DECIMAL(18,0))",
		"INSERT INTO q VALUES (1, 999999999999999), (2, 999999999999999), (3, -5)")
	for i := 0; i < 12; i++ {
		b.MustExec(t, ctx, fmt.Sprintf("INSERT INTO q SELECT id + %d, v FROM q WHERE id <= 3", 3*(i+1)))
	}
	b.ExpectRows(t, ctx, "SELECT SUM(a), SUM(c), SUM(big), AVG(a), SUM(IF(id = 2, a, c)) FROM p",
		"100.75|1.501|10000000000000000000000000001|33.583333|-1.5")
	b.ExpectRows(t, ctx, "SELECT COUNT(*), SUM(v) FROM q", "39|25999999999999909")
}

// TestFastDateFormat: the formatter gives go-mysql-server's text for
// date-times of every weekday and month, midnight and noon, the
// specifiers the reports use and the others it takes; and the rule puts
// it in the plan, also under the oddExpr of a date column.
func TestFastDateFormat(t *testing.T) {
	ctx := sql.NewEmptyContext()
	formats := []string{"%Y-%m", "%W", "%a %b %e %Y", "%M %D, %y", "%H:%i:%s", "%k %l %h %I %p", "%r", "%T", "%j", "%c/%d", "%f", "%w", "%%Y 100%%", "plain", "%S%Z"}
	start := time.Date(2023, 12, 25, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 400; i++ {
		tm := start.Add(time.Duration(i) * (31*time.Hour + 7*time.Minute + 13*time.Second + 250*time.Millisecond))
		for _, f := range formats {
			df := function.NewDateFormat(expression.NewLiteral(tm, gtypes.DatetimeMaxPrecision), expression.NewLiteral(f, gtypes.LongText)).(*function.DateFormat)
			want, err := df.Eval(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			ff, ok := newFastDateFormat(df)
			if !ok {
				t.Fatalf("%q not taken", f)
			}
			got, err := ff.Eval(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%v %q: got %q, go-mysql-server %q", tm, f, got, want)
			}
		}
	}
	if _, ok := newFastDateFormat(function.NewDateFormat(expression.NewLiteral(start, gtypes.Datetime), expression.NewLiteral("%U", gtypes.LongText)).(*function.DateFormat)); ok {
		t.Error("the week specifier U was taken")
	}

	b := newTestBackend(t)
	sctx := b.Session()
	b.MustExec(t, sctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE r (id INT PRIMARY KEY, at DATETIME NULL, d DATE NULL)",
		"INSERT INTO r VALUES (1, '2024-02-29 13:05:09', '2024-02-29'), (2, NULL, '0000-00-00'), (3, '2024-03-03 00:00:00', NULL)")
	b.ExpectRows(t, sctx, "SELECT id, DATE_FORMAT(at, '%W %Y-%m-%d %r'), DATE_FORMAT(d, '%a %M %e') FROM r ORDER BY id",
		"1|Thursday 2024-02-29 01:05:09 PM|Thu February 29", "2|NULL|NULL", "3|Sunday 2024-03-03 12:00:00 AM|NULL")
	q := "SELECT DATE_FORMAT(at, '%W') FROM r"
	n, err := b.SE.AnalyzeQuery(sctx.WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, e := range collectExprs(n) {
		if o, ok := e.(*oddExpr); ok {
			_, found = o.Expression.(*fastDateFormat)
		}
		if _, ok := e.(*fastDateFormat); ok {
			found = true
		}
	}
	if !found {
		t.Fatalf("no fastDateFormat:\n%s", sql.DebugString(n))
	}
}
