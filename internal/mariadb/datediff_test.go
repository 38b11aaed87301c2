package mariadb

import (
	"fmt"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// TestDateDiff compares dateDiff with go-mysql-server's DATEDIFF over
// dates, datetimes around midnight, text and NULL.
func TestDateDiff(t *testing.T) {
	ctx := sql.NewEmptyContext()
	base := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	var vals []sql.Expression
	for _, v := range []interface{}{"2025-01-01", "2024-02-29 23:59:59", "2024-03-01 00:00:00.5", "1999-12-31", "20240315", nil, "not a date"} {
		if v == nil {
			vals = append(vals, expression.NewLiteral(nil, gtypes.Null))
		} else {
			vals = append(vals, expression.NewLiteral(v, gtypes.LongText))
		}
	}
	for i := 0; i < 40; i++ {
		v := base.Add(time.Duration(i*83*7919) * time.Minute)
		vals = append(vals, expression.NewLiteral(v, gtypes.DatetimeMaxPrecision))
		vals = append(vals, expression.NewLiteral(time.Date(v.Year(), v.Month(), v.Day(), 0, 0, 0, 0, time.UTC), gtypes.Date))
	}
	vals = append(vals, expression.NewLiteral(time.Date(2024, 3, 1, 23, 30, 0, 0, time.UTC), gtypes.DatetimeMaxPrecision))
	n := 0
	for _, a := range vals {
		for _, b := range vals {
			want, werr := function.NewDateDiff(a, b).Eval(ctx, nil)
			d := &dateDiff{DateDiff: function.NewDateDiff(a, b).(*function.DateDiff)}
			got, gerr := d.Eval(ctx, nil)
			if fmt.Sprint(want) != fmt.Sprint(got) || (werr == nil) != (gerr == nil) {
				t.Errorf("DATEDIFF(%s, %s): %v (%v), want %v (%v)", a, b, got, gerr, want, werr)
			}
			n++
		}
	}
	if n < 1000 {
		t.Fatalf("%d cases", n)
	}
}

func TestDateDiffRule(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE r (id INT NOT NULL PRIMARY KEY, rented DATETIME NOT NULL, returned DATETIME NULL)",
		"INSERT INTO r VALUES (1, '2024-01-01 23:50:00', '2024-01-02 00:10:00'), (2, '2024-02-28 10:00:00', '2024-03-01 09:00:00'), (3, '2024-03-01 10:00:00', NULL)")
	q := "SELECT id, DATEDIFF(returned, rented), DATEDIFF('2025-01-01', rented) FROM r WHERE DATEDIFF(returned, rented) >= 0 OR returned IS NULL ORDER BY id"
	b.ExpectRows(t, ctx, q, "1|1|366", "2|2|308", "3|NULL|306")
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	transform.InspectExpressions(n, func(e sql.Expression) bool {
		if o, ok := e.(*oddExpr); ok { // the date rule's wrapper (oddrule.go)
			e = o.Expression
		}
		switch e.(type) {
		case *dateDiff:
			found++
		case *function.DateDiff:
			t.Errorf("go-mysql-server's DATEDIFF left in the plan")
		}
		return true
	})
	if found == 0 {
		t.Errorf("no dateDiff in the plan")
	}
}
