package mariadb

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// sortPruneRule reads only the columns a sorted report uses. An ORDER BY
// of a select-list alias makes go-mysql-server put, under the sort, a
// projection of the alias and of every column of the table, so that its
// pruneTables keeps them all and the table converts every column of
// every row: `SELECT r.id, ..., DATEDIFF(...) AS days_out FROM rental r
// WHERE ... ORDER BY days_out DESC, r.id LIMIT 10` spent two fifths of its
// time converting rows, two of whose columns nothing reads. For a
// projection over a sort (through LIMIT and OFFSET) over a projection
// over one table (through filters and its alias), the rule drops from
// the lower projection the table's columns that nothing above reads, and
// gives the table the projection of the columns still read.
//
// It leaves the plan as it is when an expression there holds a subquery
// or a star. The rule is a pure function of the plan, safe for
// concurrent use; it runs after the join planner, before go-mysql-server
// assigns the columns' execution indexes.
func sortPruneRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		top, ok := n.(*plan.Project)
		if !ok {
			return n, transform.SameTree, nil
		}
		// top -> [Limit|Offset]* -> Sort -> inner Project -> [Filter|TableAlias]* -> table
		var upper []sql.Node // the nodes between top and the inner projection
		child := top.Child
		for {
			switch x := child.(type) {
			case *plan.Limit, *plan.Offset:
				upper = append(upper, x)
				child = x.Children()[0]
				continue
			case *plan.Sort:
				upper = append(upper, x)
				child = x.Child
			}
			break
		}
		if len(upper) == 0 {
			return n, transform.SameTree, nil
		}
		if _, isSort := upper[len(upper)-1].(*plan.Sort); !isSort {
			return n, transform.SameTree, nil
		}
		inner, ok := child.(*plan.Project)
		if !ok {
			return n, transform.SameTree, nil
		}
		var path []sql.Node
		child = inner.Child
	walk:
		for {
			switch x := child.(type) {
			case *plan.Filter, *plan.TableAlias:
				path = append(path, x)
				child = x.Children()[0]
			default:
				break walk
			}
		}
		rt, ok := child.(*plan.ResolvedTable)
		if !ok {
			return n, transform.SameTree, nil
		}
		pt, ok := rt.Table.(sql.ProjectedTable)
		if !ok {
			return n, transform.SameTree, nil
		}
		ids := sql.FastIntSet{}
		ids.Add(int(rt.Id()))
		for _, p := range path {
			if ta, ok := p.(*plan.TableAlias); ok {
				ids.Add(int(ta.Id()))
			}
		}
		// the table's columns read above the inner projection, and by its
		// own expressions that are not the columns themselves and by the
		// filters below it
		above, below := map[string]bool{}, map[string]bool{}
		ok = true
		note := func(e sql.Expression, into map[string]bool) {
			transform.InspectExpr(e, func(e sql.Expression) bool {
				switch x := e.(type) {
				case *plan.Subquery, *expression.Star:
					ok = false
				case *expression.GetField:
					if ids.Contains(int(x.TableId())) {
						into[strings.ToLower(x.Name())] = true
					}
				}
				return !ok
			})
		}
		for _, node := range append([]sql.Node{top}, upper...) {
			if ex, isEx := node.(sql.Expressioner); isEx {
				for _, e := range ex.Expressions() {
					note(e, above)
				}
			}
		}
		var kept []sql.Expression
		for _, e := range inner.Projections {
			gf, isCol := e.(*expression.GetField)
			if isCol && ids.Contains(int(gf.TableId())) {
				if above[strings.ToLower(gf.Name())] {
					kept = append(kept, e)
					below[strings.ToLower(gf.Name())] = true
				}
				continue
			}
			kept = append(kept, e)
			note(e, below)
		}
		for _, p := range path {
			if ex, isEx := p.(sql.Expressioner); isEx {
				for _, e := range ex.Expressions() {
					note(e, below)
				}
			}
		}
		if !ok || len(kept) == len(inner.Projections) || len(kept) == 0 {
			return n, transform.SameTree, nil
		}
		var cols []string
		for _, c := range rt.Schema() {
			if below[strings.ToLower(c.Name)] {
				cols = append(cols, c.Name)
			}
		}
		if len(cols) == 0 {
			return n, transform.SameTree, nil
		}
		nt, err := rt.WithTable(pt.WithProjections(cols))
		if err != nil {
			return n, transform.SameTree, nil
		}
		leaf, err := rebuildPath(path, nt.(sql.Node))
		if err != nil {
			return nil, transform.SameTree, err
		}
		np := *inner // (its other fields as they were)
		np.Projections, np.Child = kept, leaf
		out, err := rebuildPath(upper, &np)
		if err != nil {
			return nil, transform.SameTree, err
		}
		nt2, err := top.WithChildren(out)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return nt2, transform.NewTree, nil
	})
}
