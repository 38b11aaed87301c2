package sqlbackend

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/shopspring/decimal"
)

// TestProjectedReads: a single-table read returns only the columns the
// statement uses (go-mysql-server's pruneTables), with the right values,
// also through a view (whose body's table read the result projection of
// oddDatesRule wraps) and for COUNT(*), which uses none.
func TestProjectedReads(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE ev (id INT PRIMARY KEY, kind ENUM('open','close') NOT NULL, grp CHAR(1), day DATE, at DATETIME, amount DECIMAL(6,2))",
		"INSERT INTO ev VALUES (1, 'open', 'a', '2024-01-05', '2024-01-05 08:00:00', 1.50), (2, 'close', 'b', NULL, '2024-02-01 10:00:00', 2.25), (3, 'open', 'a', '2024-03-01', '2024-03-01 00:00:00', 0.10)",
		"CREATE VIEW ev_v AS SELECT id, kind, day, at FROM ev")
	b.ExpectRows(t, ctx, "SELECT COUNT(*) FROM ev", "3")
	b.ExpectRows(t, ctx, "SELECT SUM(amount), MAX(day) FROM ev WHERE grp = 'a'", "1.6|2024-03-01 00:00:00 +0000 UTC")
	b.ExpectRows(t, ctx, "SELECT id, day, kind FROM ev_v ORDER BY id",
		"1|2024-01-05 00:00:00 +0000 UTC|1", "2|NULL|2", "3|2024-03-01 00:00:00 +0000 UTC|1")
	b.ExpectRows(t, ctx, "SELECT at, id FROM ev_v WHERE kind = 'close'", "2024-02-01 10:00:00 +0000 UTC|2")
	b.ExpectRows(t, ctx, "SELECT grp, COUNT(*) FROM ev GROUP BY grp ORDER BY grp", "a|2", "b|1")

	q := "SELECT SUM(amount) FROM ev"
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	var proj []string
	found := false
	transform.Inspect(n, func(n sql.Node) bool {
		if rt, ok := n.(*plan.ResolvedTable); ok {
			if pt, ok := rt.UnderlyingTable().(sql.ProjectedTable); ok {
				proj, found = pt.Projections(), true
			}
		}
		return true
	})
	if !found || len(proj) != 1 || proj[0] != "amount" {
		t.Fatalf("%s reads %v (found %v), want [amount]:\n%s", q, proj, found, sql.DebugString(n))
	}
}

// TestStoredDecimal: the stored text of a DECIMAL reads as the decimal
// NewFromString gives (value and exponent), short or long.
func TestStoredDecimal(t *testing.T) {
	for _, s := range []string{"0", "12.50", "-0.50", "-12", "0.000", "999999999999999999", "1234567890123456789.5", "-98765432109876543210", "5.", "7"} {
		want, err := decimal.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		got := storedDecimal([]byte(s))
		if got.Cmp(want) != 0 || got.Exponent() != want.Exponent() || got.String() != want.String() {
			t.Errorf("%q: got %s (exp %d), want %s (exp %d)", s, got, got.Exponent(), want, want.Exponent())
		}
	}
}

// TestAppendDecimal: appendDecimal prints as StringFixed of the decimal's
// own scale.
func TestAppendDecimal(t *testing.T) {
	for _, s := range []string{"0", "0.00", "12.50", "-0.05", "-12", "100", "999999999999999.9", "1234567890123456789.5", "0.000001", "-7.1"} {
		d, err := decimal.NewFromString(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range []decimal.Decimal{d, d.Mul(decimal.New(1, 3)), decimal.New(d.CoefficientInt64(), 2)} {
			if got, want := string(AppendDecimal([]byte("x"), v)), "x"+v.StringFixed(-v.Exponent()); got != want {
				t.Errorf("%s (exp %d): got %q, want %q", v, v.Exponent(), got, want)
			}
		}
	}
}
