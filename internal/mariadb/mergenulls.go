package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// mergeNullsRule gives each merge join's first condition, the comparison
// the join steps its two sides by, a NULL operand's answer without a
// stack trace. go-mysql-server's comparison answers a NULL key with a
// new ErrNilOperand, whose creation records the goroutine's stack (about
// 240k instructions), and the merge join skips that row: a LEFT JOIN on
// a nullable key spent a seventh of the report corpus' instructions
// there. nullKeyComparer answers with one error made once, which the
// join reads the same way (ErrNilOperand.Is). Only comparisons of
// columns and literals are wrapped: for them reading an operand twice
// (once to look for NULL, once in the comparison) costs next to nothing.
// It runs last (analyzer.OnceAfterAll), when the join's plan is final.
// The rule is a pure function of the plan.
func mergeNullsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		j, ok := n.(*plan.JoinNode)
		if !ok || !j.Op.IsMerge() || j.Filter == nil {
			return n, transform.SameTree, nil
		}
		conds := expression.SplitConjunction(j.Filter)
		cmp, ok := conds[0].(expression.Comparer)
		if !ok || !cheapOperand(cmp.Left()) || !cheapOperand(cmp.Right()) {
			return n, transform.SameTree, nil
		}
		if _, done := cmp.(*nullKeyComparer); done {
			return n, transform.SameTree, nil
		}
		conds[0] = &nullKeyComparer{Comparer: cmp}
		out := *j
		out.Filter = expression.JoinAnd(conds...)
		return &out, transform.NewTree, nil
	})
}

// cheapOperand reports whether e is a column or a literal.
func cheapOperand(e sql.Expression) bool {
	switch e.(type) {
	case *expression.GetField, *expression.Literal:
		return true
	}
	return false
}

// nilOperand is the one ErrNilOperand nullKeyComparer returns.
var nilOperand = expression.ErrNilOperand.New()

// nullKeyComparer is a comparison of columns and literals that answers a
// NULL operand with nilOperand (Compare) or NULL (Eval) before the
// comparison runs. Immutable; safe for concurrent use.
type nullKeyComparer struct {
	expression.Comparer
}

var _ expression.Comparer = (*nullKeyComparer)(nil)

// hasNull reports whether an operand of the comparison is NULL in row.
func (c *nullKeyComparer) hasNull(ctx *sql.Context, row sql.Row) (bool, error) {
	l, err := c.Left().Eval(ctx, row)
	if err != nil || l == nil {
		return l == nil, err
	}
	r, err := c.Right().Eval(ctx, row)
	return r == nil, err
}

// Compare is the comparison's, or nilOperand when an operand is NULL.
func (c *nullKeyComparer) Compare(ctx *sql.Context, row sql.Row) (int, error) {
	if null, err := c.hasNull(ctx, row); null || err != nil {
		if err == nil {
			err = nilOperand
		}
		return 0, err
	}
	return c.Comparer.Compare(ctx, row)
}

// Eval is the comparison's, or NULL when an operand is NULL.
func (c *nullKeyComparer) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	if null, err := c.hasNull(ctx, row); null || err != nil {
		return nil, err
	}
	return c.Comparer.Eval(ctx, row)
}

// WithChildren keeps the wrapper over the rebuilt comparison.
func (c *nullKeyComparer) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	n, err := c.Comparer.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if cmp, ok := n.(expression.Comparer); ok {
		return &nullKeyComparer{Comparer: cmp}, nil
	}
	return n, nil
}
