package mariadb

import (
	"errors"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// NOT EXISTS (SELECT … WHERE inner.c = outer.c) is true for an outer row
// when no inner row makes the condition TRUE; a condition that is NULL
// (either column NULL) matches nothing. go-mysql-server turns NOT EXISTS
// into an anti-join, and its anti-join treats a NULL condition as NOT IN
// must, as a reason to drop the outer row: a LEFT JOIN's NULL-extended
// rows were missing, and every outer row as soon as an inner row read
// without an index had a NULL in the column.
//
// Two rules make such a join NOT EXISTS's. notExistsMarkRule, before the
// subqueries are unnested, adds to the WHERE of each correlated NOT
// EXISTS a notExistsMark: a condition that is always TRUE and reads one
// inner and one outer column, so that go-mysql-server moves it into the
// join condition with the correlated conditions. It presents itself as
// an equality that cannot key a lookup or a merge, which the join
// planner keeps as a residual condition while it plans the join as it
// would have (an anti-join, or the LEFT JOIN ... IS NULL it turns one
// into). notExistsJoinRule, on the final plan, takes the mark out of the
// join's condition and makes the rest (condition) IS TRUE, never NULL
// (a merge join keeps its condition: it matches no NULL key). A NOT
// EXISTS left as a subquery keeps the mark, which changes nothing. Both
// rules are pure functions of the plan; the mark is immutable.

func notExistsMarkRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !analyzer.FlagIsSet(qf, sql.QFlagScalarSubquery) {
		return n, transform.SameTree, nil // no EXISTS in the statement
	}
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		not, ok := e.(*expression.Not)
		if !ok {
			return e, transform.SameTree, nil
		}
		ex, ok := not.Child.(*plan.ExistsSubquery)
		if !ok || ex.Query == nil || ex.Query.Correlated().Empty() {
			return e, transform.SameTree, nil
		}
		q, changed := markWhere(ex.Query.Query, ex.Query.Correlated())
		if !changed {
			return e, transform.SameTree, nil
		}
		return expression.NewNot(plan.NewExistsSubquery(ex.Query.WithQuery(q))), transform.NewTree, nil
	})
}

// markWhere adds a notExistsMark to the WHERE of n, a subquery's plan
// (its filter below the select list, DISTINCT, ORDER BY and LIMIT), made
// of the columns of its first condition that reads both an outer column
// (of corr) and an inner one; changed is false when there is none.
func markWhere(n sql.Node, corr sql.ColSet) (sql.Node, bool) {
	switch x := n.(type) {
	case *plan.Project, *plan.Limit, *plan.Sort, *plan.Distinct, *plan.TopN, *plan.Offset:
		c, changed := markWhere(x.Children()[0], corr)
		if !changed {
			return n, false
		}
		nn, err := x.WithChildren(c)
		if err != nil {
			return n, false
		}
		return nn, true
	case *plan.Filter:
		conds := expression.SplitConjunction(x.Expression)
		for _, c := range conds {
			if _, ok := c.(*notExistsMark); ok {
				return n, false // marked before (a subquery analyzed again)
			}
		}
		for _, c := range conds {
			var inner, outer *expression.GetField
			transform.InspectExpr(c, func(e sql.Expression) bool {
				if gf, ok := e.(*expression.GetField); ok {
					if corr.Contains(gf.Id()) {
						outer = gf
					} else {
						inner = gf
					}
				}
				return false
			})
			if inner != nil && outer != nil {
				return plan.NewFilter(expression.NewAnd(x.Expression, &notExistsMark{inner: inner, outer: outer}), x.Child), true
			}
		}
	}
	return n, false
}

func notExistsJoinRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !analyzer.FlagIsSet(qf, sql.QFlagScalarSubquery) {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		j, ok := n.(*plan.JoinNode)
		if !ok || j.Filter == nil {
			return n, transform.SameTree, nil
		}
		var rest []sql.Expression
		marked := false
		for _, c := range expression.SplitConjunction(j.Filter) {
			if _, ok := c.(*notExistsMark); ok {
				marked = true
				continue
			}
			rest = append(rest, c)
		}
		if !marked {
			return n, transform.SameTree, nil
		}
		var f sql.Expression = expression.NewLiteral(true, gtypes.Boolean)
		switch {
		case len(rest) > 0 && j.Op.IsMerge():
			f = expression.JoinAnd(rest...)
		case len(rest) > 0:
			f = expression.NewIsTrue(expression.JoinAnd(rest...))
		}
		nj, err := j.WithExpressions(f)
		if err != nil {
			return n, transform.SameTree, nil
		}
		return nj, transform.NewTree, nil
	})
}

// notExistsMark is notExistsMarkRule's mark: TRUE, reading an inner and
// an outer column of the NOT EXISTS it marks. It is an
// expression.Equality that represents no equality, so that the join
// planner neither keys a lookup or merge by it nor gives up planning a
// join whose condition holds it.
type notExistsMark struct {
	inner, outer sql.Expression
}

var _ expression.Equality = (*notExistsMark)(nil)

// Resolved implements sql.Expression.
func (m *notExistsMark) Resolved() bool { return m.inner.Resolved() && m.outer.Resolved() }

// IsNullable implements sql.Expression.
func (m *notExistsMark) IsNullable() bool { return false }

// Type implements sql.Expression.
func (m *notExistsMark) Type() sql.Type { return gtypes.Boolean }

// Children implements sql.Expression.
func (m *notExistsMark) Children() []sql.Expression { return []sql.Expression{m.inner, m.outer} }

// WithChildren implements sql.Expression.
func (m *notExistsMark) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	if len(c) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(m, len(c), 2)
	}
	return &notExistsMark{inner: c[0], outer: c[1]}, nil
}

// String implements sql.Expression.
func (m *notExistsMark) String() string { return "__hdb_not_exists()" }

// Eval is TRUE.
func (m *notExistsMark) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) { return true, nil }

// Left and Right are the columns read.
func (m *notExistsMark) Left() sql.Expression  { return m.inner }
func (m *notExistsMark) Right() sql.Expression { return m.outer }

// RepresentsEquality is false: nothing is looked up by the mark.
func (m *notExistsMark) RepresentsEquality() bool { return false }

// SwapParameters swaps the columns.
func (m *notExistsMark) SwapParameters(ctx *sql.Context) (expression.Equality, error) {
	return &notExistsMark{inner: m.outer, outer: m.inner}, nil
}

// ToComparer fails: the mark compares nothing.
func (m *notExistsMark) ToComparer() (expression.Comparer, error) {
	return nil, errors.New("sqlbackend: the NOT EXISTS mark is no comparison")
}
