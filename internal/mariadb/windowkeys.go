package mariadb

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// windowKeysRule computes a window's partition and order keys once per
// row. go-mysql-server sorts a window's rows with expression.Sorter,
// which evaluates the PARTITION BY and ORDER BY expressions on both rows
// of every comparison (n log n evaluations of, say, YEAR(day) and
// MONTH(day) in report 38 of the corpus), and evaluates the partition
// keys again to find the partitions' ends. The rule puts a Project under
// the Window that appends each such expression that is not a column (or
// a literal) to the child's row, once, and makes the windows read those
// columns: the same values, compared by the same types. It runs in
// OnceAfterAll, once the columns have their positions (the child's own
// keep theirs; the keys come after them), and only in the top level of
// an analysis, where a Window's rows are its child's alone. A key that is
// not deterministic, or reads a subquery, stays as it is.
func windowKeysRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !scope.IsEmpty() {
		return n, transform.SameTree, nil
	}
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		w, ok := n.(*plan.Window)
		if !ok {
			return n, transform.SameTree, nil
		}
		nw, ok, err := windowKeys(w)
		if err != nil || !ok {
			return n, transform.SameTree, err
		}
		return nw, transform.NewTree, nil
	})
}

// windowKeys returns w over a Project of its keys (see windowKeysRule);
// ok is false when no key is worth computing ahead.
func windowKeys(w *plan.Window) (sql.Node, bool, error) {
	sch := w.Child.Schema()
	base := len(sch)
	var keys []sql.Expression
	pos := map[string]int{}
	key := func(e sql.Expression) sql.Expression {
		switch e.(type) {
		case *expression.GetField, *expression.Literal:
			return e
		}
		movable := true
		transform.InspectExpr(e, func(x sql.Expression) bool {
			switch x := x.(type) {
			case *expression.GetField:
				movable = movable && x.Index() >= 0 && x.Index() < base
			case sql.NonDeterministicExpression:
				movable = movable && !x.IsNonDeterministic()
			case sql.ExpressionWithNodes:
				movable = false
			}
			return !movable
		})
		if !movable {
			return e
		}
		s := e.String()
		p, seen := pos[s]
		if !seen {
			p = base + len(keys)
			pos[s] = p
			keys = append(keys, e)
		}
		return expression.NewGetField(p, e.Type(), fmt.Sprintf("window key %d", p-base), e.IsNullable())
	}
	exprs, _, err := windowFuncs(w, func(wa sql.WindowAdaptableExpression) (*sql.WindowDefinition, error) {
		def := wa.Window()
		old := def.ToExpressions()
		mapped := make([]sql.Expression, len(old))
		for j, e := range old {
			mapped[j] = key(e)
		}
		return def.FromExpressions(mapped)
	})
	if err != nil {
		return nil, false, err
	}
	if len(keys) == 0 {
		return nil, false, nil
	}
	cols := make([]sql.Expression, 0, base+len(keys))
	for i, c := range sch {
		cols = append(cols, expression.NewGetFieldWithTable(i, 0, c.Type, c.DatabaseSource, c.Source, c.Name, c.Nullable))
	}
	cols = append(cols, keys...)
	nw, err := w.WithChildren(plan.NewProject(cols, w.Child))
	if err != nil {
		return nil, false, err
	}
	nw, err = nw.(*plan.Window).WithExpressions(exprs...)
	if err != nil {
		return nil, false, err
	}
	return nw, true, nil
}

// windowFuncs gives each window function of w's select list (aliased or
// not) the definition fn makes for it; fn returns the function's own
// definition, or nil, to leave it as it is. It returns the select list
// (w's own expressions when nothing changed) and whether anything did.
func windowFuncs(w *plan.Window, fn func(sql.WindowAdaptableExpression) (*sql.WindowDefinition, error)) ([]sql.Expression, bool, error) {
	exprs := make([]sql.Expression, len(w.SelectExprs))
	changed := false
	for i, se := range w.SelectExprs {
		exprs[i] = se
		inner := se
		alias, isAlias := se.(*expression.Alias)
		if isAlias {
			inner = alias.Child
		}
		wa, ok := inner.(sql.WindowAdaptableExpression)
		if !ok || wa.Window() == nil {
			continue
		}
		nd, err := fn(wa)
		if err != nil {
			return nil, false, err
		}
		if nd == nil || nd == wa.Window() {
			continue
		}
		var ne sql.Expression = wa.WithWindow(nd)
		if isAlias {
			if ne, err = alias.WithChildren(ne); err != nil {
				return nil, false, err
			}
		}
		exprs[i], changed = ne, true
	}
	return exprs, changed, nil
}
