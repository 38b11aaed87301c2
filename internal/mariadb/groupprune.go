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
		t, ok := prunableUnder(g.Child)
		if !ok || len(t.pt.Projections()) > 0 {
			return n, transform.SameTree, nil
		}
		used := map[string]bool{}
		if !t.reads(used, g) || !t.reads(used, t.path...) {
			return n, transform.SameTree, nil
		}
		out, changed, err := t.project(used)
		if err != nil || !changed {
			return n, transform.SameTree, err
		}
		ng, err := g.WithChildren(out)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return ng, transform.NewTree, nil
	})
}

// prunable is a table under filters and its alias, whose columns a
// pruning rule (groupPruneRule, sortPruneRule) may cut to those read.
type prunable struct {
	top  sql.Node   // the path's first node (the table when there is none)
	path []sql.Node // the filters and the alias above the table, top first
	rt   *plan.ResolvedTable
	pt   sql.ProjectedTable
	ids  sql.FastIntSet // the table's id and its alias's
}

// prunableUnder returns the table n is, under filters and an alias.
func prunableUnder(n sql.Node) (*prunable, bool) {
	t := &prunable{top: n}
walk:
	for {
		switch x := n.(type) {
		case *plan.Filter, *plan.TableAlias:
			t.path = append(t.path, x)
			n = x.Children()[0]
		default:
			break walk
		}
	}
	var ok bool
	if t.rt, ok = n.(*plan.ResolvedTable); !ok {
		return nil, false
	}
	if t.pt, ok = t.rt.Table.(sql.ProjectedTable); !ok {
		return nil, false
	}
	t.ids.Add(int(t.rt.Id()))
	for _, p := range t.path {
		if ta, ok := p.(*plan.TableAlias); ok {
			t.ids.Add(int(ta.Id()))
		}
	}
	return t, true
}

// reads adds to used (by lower-case name) the table's columns that the
// expressions of nodes name; false when one of them holds a subquery or
// a star, whose columns cannot be listed.
func (t *prunable) reads(used map[string]bool, nodes ...sql.Node) bool {
	for _, node := range nodes {
		if ex, isEx := node.(sql.Expressioner); isEx && !t.readsExprs(used, ex.Expressions()...) {
			return false
		}
	}
	return true
}

// readsExprs is reads of expressions.
func (t *prunable) readsExprs(used map[string]bool, exprs ...sql.Expression) bool {
	ok := true
	for _, e := range exprs {
		transform.InspectExpr(e, func(e sql.Expression) bool {
			switch x := e.(type) {
			case *plan.Subquery, *expression.Star:
				ok = false
			case *expression.GetField:
				if t.ids.Contains(int(x.TableId())) {
					used[strings.ToLower(x.Name())] = true
				}
			}
			return !ok
		})
	}
	return ok
}

// project returns the path over the table read for the columns in used
// only; changed is false (and the node the path as it was) when those
// are all its columns, or none.
func (t *prunable) project(used map[string]bool) (n sql.Node, changed bool, err error) {
	var cols []string
	for _, c := range t.rt.Schema() {
		if used[strings.ToLower(c.Name)] {
			cols = append(cols, c.Name)
		}
	}
	if len(cols) == 0 || len(cols) == len(t.rt.Schema()) {
		return t.top, false, nil
	}
	nt, err := t.rt.WithTable(t.pt.WithProjections(cols))
	if err != nil {
		return t.top, false, nil
	}
	n, err = rebuildPath(t.path, nt.(sql.Node))
	return n, err == nil, err
}
