package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// scalarSubqueryRule: `x = (SELECT ...)` compares x with one value, and a
// subquery that returns more than one row is error 1242. go-mysql-server
// turns a comparison with a subquery in WHERE into a semi-join, which
// never checks the row count (v = (SELECT v FROM t) then means v IN
// (SELECT v FROM t)). The rule hides such subqueries behind
// scalarSubquery, which that rewrite does not recognise, so they are
// evaluated as scalars (and fail on a second row). The rule is a pure
// function of the plan, safe for concurrent use.
func scalarSubqueryRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if (qf != nil && !qf.SubqueryIsSet()) || !scope.IsEmpty() {
		// Only the outermost query: go-mysql-server plans the
		// subqueries of subqueries (correlated to outer scopes) with
		// rules that expect them as they are.
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		e, same, err := transform.Expr(f.Expression, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			c, ok := e.(expression.Comparer)
			if !ok {
				return e, transform.SameTree, nil
			}
			sq, ok := c.Right().(*plan.Subquery)
			if !ok || !sq.Query.Resolved() || len(sq.Query.Schema()) != 1 {
				// a row subquery compares as a tuple
				return e, transform.SameTree, nil
			}
			ne, err := e.WithChildren(c.Left(), &scalarSubquery{Subquery: sq})
			if err != nil {
				return nil, transform.SameTree, err
			}
			return ne, transform.NewTree, nil
		})
		if err != nil || same {
			return n, transform.SameTree, err
		}
		nf, err := f.WithExpressions(e)
		return nf, transform.NewTree, err
	})
}

// scalarSubquery is a subquery used as one value; it evaluates as the
// subquery does.
type scalarSubquery struct {
	*plan.Subquery
}

var _ sql.Expression = (*scalarSubquery)(nil)

// Reuse tells the plan cache (sqlbackend.ReusableExpression) to judge the
// wrapper by its child, the subquery.
func (s *scalarSubquery) Reuse() (bool, sql.Node, func()) { return true, nil, nil }

// Children is the subquery itself, so that the analyzer still finds and
// plans it.
func (s *scalarSubquery) Children() []sql.Expression { return []sql.Expression{s.Subquery} }

// WithChildren keeps the wrapper.
func (s *scalarSubquery) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), 1)
	}
	sq, ok := children[0].(*plan.Subquery)
	if !ok {
		return children[0], nil
	}
	return &scalarSubquery{Subquery: sq}, nil
}

// Eval evaluates the subquery as a scalar.
func (s *scalarSubquery) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	return s.Subquery.Eval(ctx, row)
}
