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
		if _, sorted := upper[len(upper)-1].(*plan.Sort); !sorted {
			return n, transform.SameTree, nil // LIMIT over no sort
		}
		inner, ok := child.(*plan.Project)
		if !ok {
			return n, transform.SameTree, nil
		}
		t, ok := prunableUnder(inner.Child)
		if !ok {
			return n, transform.SameTree, nil
		}
		// the table's columns read above the inner projection, and by its
		// own expressions that are not the columns themselves and by the
		// filters below it
		above, below := map[string]bool{}, map[string]bool{}
		if !t.reads(above, top) || !t.reads(above, upper...) || !t.reads(below, t.path...) {
			return n, transform.SameTree, nil
		}
		var kept []sql.Expression
		for _, e := range inner.Projections {
			if gf, isCol := e.(*expression.GetField); isCol && t.ids.Contains(int(gf.TableId())) {
				if name := strings.ToLower(gf.Name()); above[name] {
					kept = append(kept, e)
					below[name] = true
				}
				continue
			}
			kept = append(kept, e)
			if !t.readsExprs(below, e) {
				return n, transform.SameTree, nil
			}
		}
		if len(kept) == len(inner.Projections) || len(kept) == 0 {
			return n, transform.SameTree, nil
		}
		leaf, _, err := t.project(below)
		if err != nil {
			return nil, transform.SameTree, err
		}
		np := *inner // (its other fields as they were)
		np.Projections, np.Child = kept, leaf
		out, err := rebuildPath(upper, &np)
		if err != nil {
			return nil, transform.SameTree, err
		}
		nt, err := top.WithChildren(out)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return nt, transform.NewTree, nil
	})
}
