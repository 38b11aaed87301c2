package sqlfront

import (
	"fmt"
	"strings"
	"testing"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// leaves lists a UNION tree's operands in order, and its depth.
func leaves(s ast.SelectStatement) ([]string, int) {
	so, ok := s.(*ast.SetOp)
	if !ok {
		return []string{ast.String(s)}, 0
	}
	l, dl := leaves(so.Left)
	r, dr := leaves(so.Right)
	return append(l, r...), 1 + max(dl, dr)
}

// TestBalanceUnions: a long chain of one kind of UNION is regrouped into
// a shallow tree with its operands in order and its ORDER BY and LIMIT on
// the root; a mixed chain, and a short one, keep their shape.
func TestBalanceUnions(t *testing.T) {
	chain := func(n int, op func(i int) string) string {
		var b strings.Builder
		b.WriteString("SELECT 0 AS n")
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, " %s SELECT %d", op(i), i)
		}
		return b.String()
	}
	parse := func(q string) ast.Statement {
		st, err := ast.Parse(q)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	for _, c := range []struct {
		name     string
		q        string
		maxDepth int
	}{
		{"UNION ALL", chain(1000, func(int) string { return "UNION ALL" }) + " ORDER BY n DESC LIMIT 3", 10},
		{"UNION", chain(100, func(int) string { return "UNION" }), 7},
		{"UNION and UNION DISTINCT", chain(100, func(i int) string { return map[bool]string{true: "UNION", false: "UNION DISTINCT"}[i%2 == 0] }), 7},
		{"mixed", chain(100, func(i int) string { return map[bool]string{true: "UNION", false: "UNION ALL"}[i%2 == 0] }), 99},
		{"short", chain(10, func(int) string { return "UNION ALL" }), 9},
		{"EXCEPT", chain(100, func(int) string { return "EXCEPT" }), 99},
	} {
		before := parse(c.q)
		wantLeaves, _ := leaves(before.(ast.SelectStatement))
		st := balanceUnions(parse(c.q), c.q)
		root := st.(*ast.SetOp)
		got, depth := leaves(root)
		if strings.Join(got, ";") != strings.Join(wantLeaves, ";") {
			t.Errorf("%s: operands reordered", c.name)
		}
		if depth > c.maxDepth || (c.maxDepth == 99 || c.maxDepth == 9) && depth != len(wantLeaves)-1 {
			t.Errorf("%s: depth %d (want at most %d, or the chain's own)", c.name, depth, c.maxDepth)
		}
		if strings.HasSuffix(c.q, "LIMIT 3") && (root.OrderBy == nil || root.Limit == nil) {
			t.Errorf("%s: ORDER BY or LIMIT left the root", c.name)
		}
	}
	// A chain in a derived table is regrouped too.
	q := "SELECT COUNT(*) FROM (" + chain(200, func(int) string { return "UNION ALL" }) + ") u"
	st := balanceUnions(parse(q), q)
	sel := st.(*ast.Select)
	sub := sel.From[0].(*ast.AliasedTableExpr).Expr.(*ast.Subquery)
	if _, depth := leaves(sub.Select); depth > 8 {
		t.Errorf("derived table: depth %d", depth)
	}
}
