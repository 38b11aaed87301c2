package mariadb

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// INSERT ... RETURNING (sqlfront's returning.go reads the clause into the
// tree). go-mysql-server has such a list in its plan, for PostgreSQL's
// syntax, but its index assignment replaces the first expressions of the
// list by the table's CHECK conditions, leaves a literal INSERT's list
// unplaced ("RETURNING id" read the second column) and panics on *. Two
// rules keep the list out of that assignment:
//
//   - returningRule, first among the last rules (before go-mysql-server
//     places expressions), moves the list, * expanded into the table's
//     columns, into a projection over the INSERT that only carries it,
//     and gives the INSERT the table's columns as its list meanwhile;
//   - returningPlaceRule, last, puts the carried list back into the
//     INSERT, each column placed by its name in the inserted row, and
//     drops the carrier.
//
// Both are pure functions of the plan.

func returningRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !analyzer.FlagIsSet(qf, sql.QFlagInsert) {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if p, ok := n.(*plan.Project); ok {
			if _, done := p.Child.(*plan.InsertInto); done {
				return n, transform.SameTree, nil
			}
		}
		ii, ok := n.(*plan.InsertInto)
		if !ok || len(ii.Returning) == 0 || ii.Destination == nil {
			return n, transform.SameTree, nil
		}
		sch := ii.Destination.Schema()
		var exprs []sql.Expression
		for _, e := range ii.Returning {
			if _, ok := e.(*expression.Star); ok {
				exprs = append(exprs, tableColumns(sch)...)
				continue
			}
			exprs = append(exprs, e)
		}
		nii := *ii
		nii.Returning = tableColumns(sch)
		return plan.NewProject(placeColumns(exprs, sch), &nii), transform.NewTree, nil
	})
}

func returningPlaceRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !analyzer.FlagIsSet(qf, sql.QFlagInsert) {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		p, ok := n.(*plan.Project)
		if !ok {
			return n, transform.SameTree, nil
		}
		ii, ok := p.Child.(*plan.InsertInto)
		if !ok || len(ii.Returning) == 0 || ii.Destination == nil {
			return n, transform.SameTree, nil
		}
		nii := *ii
		nii.Returning = placeColumns(p.Projections, ii.Destination.Schema())
		return &nii, transform.NewTree, nil
	})
}

// tableColumns reads each column of sch at its place.
func tableColumns(sch sql.Schema) []sql.Expression {
	out := make([]sql.Expression, len(sch))
	for k, c := range sch {
		out[k] = expression.NewGetFieldWithTable(k, 0, c.Type, c.DatabaseSource, c.Source, c.Name, c.Nullable)
	}
	return out
}

// placeColumns returns exprs with each column read at its place in sch,
// found by name.
func placeColumns(exprs []sql.Expression, sch sql.Schema) []sql.Expression {
	out := make([]sql.Expression, len(exprs))
	for i, e := range exprs {
		ne, _, err := transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			gf, ok := e.(*expression.GetField)
			if !ok {
				return e, transform.SameTree, nil
			}
			for k, c := range sch {
				if strings.EqualFold(c.Name, gf.Name()) && (gf.Table() == "" || strings.EqualFold(c.Source, gf.Table())) {
					return gf.WithIndex(k), transform.NewTree, nil
				}
			}
			return e, transform.SameTree, nil
		})
		if err != nil {
			ne = e
		}
		out[i] = ne
	}
	return out
}
