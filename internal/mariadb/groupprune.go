package mariadb

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// groupPruneRule reads only the columns an aggregation uses. go-mysql-
// server asks a table for the columns a plan uses (pruneTables) only
// while the nodes above it are of a few kinds; a HAVING stops it, as do
// the semi-joins an IN (SELECT ...) becomes, and the table below then
// converts every column of every row: `SELECT customer_id FROM payment
// GROUP BY customer_id HAVING COUNT(*) >= 12` spent a third of its time
// converting the five columns it never reads. A GROUP BY's output is its
// own select list, so nothing above it reads the table's columns: the
// rule gives the table under a GROUP BY (through filters and an alias)
// the columns that the GROUP BY and those filters name.
//
// It leaves a table that already has a projection, and the plan as it is
// when an expression there holds a subquery or a star, whose columns it
// cannot list. The rule is a pure function of the plan, safe for
// concurrent use; it runs after the join planner, before go-mysql-server
// assigns the columns' execution indexes.
func groupPruneRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		g, ok := n.(*plan.GroupBy)
		if !ok {
			return n, transform.SameTree, nil
		}
		// The chain from the GROUP BY down to the table.
		var path []sql.Node
		child := g.Child
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
		if !ok || len(pt.Projections()) > 0 {
			return n, transform.SameTree, nil
		}
		ids := sql.FastIntSet{}
		ids.Add(int(rt.Id()))
		for _, p := range path {
			if ta, ok := p.(*plan.TableAlias); ok {
				ids.Add(int(ta.Id()))
			}
		}
		used := map[string]bool{}
		ok = true
		for _, node := range append([]sql.Node{g}, path...) {
			ex, isEx := node.(sql.Expressioner)
			if !isEx {
				continue
			}
			for _, e := range ex.Expressions() {
				transform.InspectExpr(e, func(e sql.Expression) bool {
					switch x := e.(type) {
					case *plan.Subquery, *expression.Star:
						ok = false
					case *expression.GetField:
						if ids.Contains(int(x.TableId())) {
							used[strings.ToLower(x.Name())] = true
						}
					}
					return !ok
				})
			}
		}
		if !ok {
			return n, transform.SameTree, nil
		}
		var cols []string
		for _, c := range rt.Schema() {
			if used[strings.ToLower(c.Name)] {
				cols = append(cols, c.Name)
			}
		}
		if len(cols) == len(rt.Schema()) {
			return n, transform.SameTree, nil
		}
		nt, err := rt.WithTable(pt.WithProjections(cols))
		if err != nil {
			return n, transform.SameTree, nil
		}
		out, err := rebuildPath(path, nt.(sql.Node))
		if err != nil {
			return nil, transform.SameTree, err
		}
		ng, err := g.WithChildren(out)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return ng, transform.NewTree, nil
	})
}
