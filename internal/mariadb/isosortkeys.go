package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// isoSortKeysRule wraps each ORDER BY key (of a Sort, a TopN and a
// window's PARTITION BY and ORDER BY) whose type is DATE, DATETIME or
// TIMESTAMP in isoDate: such a key can hold text (DATE() returns its date
// as text, and a derived table's column keeps it), which the sort would
// parse at every comparison, with the failed layouts' errors; isoDate
// hands it over as the time it stands for, which compares the same. The
// rows the sort returns are unchanged (the keys are evaluated apart).

func isoSortKeysRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch x := n.(type) {
		case *plan.Sort:
			if f, ok := isoSortFields(x.SortFields); ok {
				return plan.NewSort(f, x.Child), transform.NewTree, nil
			}
		case *plan.TopN:
			if f, ok := isoSortFields(x.Fields); ok {
				nn := *x
				nn.Fields = f
				return &nn, transform.NewTree, nil
			}
		case *plan.Window:
			return transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				return transform.Expr(e, isoWindowKeys)
			})
		}
		return n, transform.SameTree, nil
	})
}

// isoWindowKeys gives a window function's PARTITION BY and ORDER BY keys
// isoDate.
func isoWindowKeys(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	wa, ok := e.(sql.WindowAdaptableExpression)
	if !ok {
		return e, transform.SameTree, nil
	}
	w := wa.Window()
	if w == nil {
		return e, transform.SameTree, nil
	}
	f, changed := isoSortFields(w.OrderBy)
	part := w.PartitionBy
	copied := false
	for i, p := range w.PartitionBy {
		if k, ok := isoKey(p); ok {
			if !copied {
				part, copied = append([]sql.Expression(nil), w.PartitionBy...), true
			}
			part[i], changed = k, true
		}
	}
	if !changed {
		return e, transform.SameTree, nil
	}
	if f == nil {
		f = w.OrderBy
	}
	nw, err := w.FromExpressions(append(f.ToExpressions(), part...))
	if err != nil {
		return nil, transform.SameTree, err
	}
	return wa.WithWindow(nw), transform.NewTree, nil
}

// isoSortFields returns fields with their date keys in isoDate; ok is
// false when there is none to wrap.
func isoSortFields(fields sql.SortFields) (sql.SortFields, bool) {
	var out sql.SortFields
	for i, f := range fields {
		k, ok := isoKey(f.Column)
		if !ok {
			continue
		}
		if out == nil {
			out = append(sql.SortFields(nil), fields...)
		}
		out[i].Column = k
	}
	return out, out != nil
}

// isoKey returns a key of a date type in isoDate.
func isoKey(e sql.Expression) (sql.Expression, bool) {
	if _, done := e.(*isoDate); done || !isDateTime(e.Type()) {
		return nil, false
	}
	return &isoDate{e}, true
}
