package mariadb

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// The analyzer runs HandlerDB's rules of one phase as one rule of its own
// (rulePreAnalyze, rulePostValidation): go-mysql-server spells the id of
// every rule it runs (RuleId.String, two allocations for an id it does not
// know) on every statement, so thirteen rules cost 26 allocations of a
// point select where one costs two.

// ruleBatch returns a rule that applies rules in order, each unless the
// selector skips its id, as go-mysql-server's batch does: on an error it
// returns the last node a rule made before it.
func ruleBatch(rules ...analyzer.Rule) analyzer.RuleFunc {
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		return applyRules(ctx, a, n, scope, sel, qf, rules, ^uint64(0))
	}
}

// applyRules applies the rules whose bit is set in want (every rule past
// the 64th runs), in order, as ruleBatch describes.
func applyRules(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags, rules []analyzer.Rule, want uint64) (sql.Node, transform.TreeIdentity, error) {
	same := transform.SameTree
	for i, r := range rules {
		if (i < 64 && want&(1<<i) == 0) || !sel(r.Id) {
			continue
		}
		next, s, err := r.Apply(ctx, a, n, scope, sel, qf)
		if err != nil {
			return n, same, err
		}
		if next != nil {
			n = next
		}
		same = same && s
	}
	return n, same, nil
}

// gatedRule is a rule of a gated batch: gate reports whether a node of the
// plan is one the rule acts on (nil: every plan).
type gatedRule struct {
	analyzer.Rule
	gate func(sql.Node) bool
}

// gatedRuleBatch is ruleBatch for rules that act on nodes of a few kinds
// (CREATE TABLE, SHOW, ...): one walk over the plan's nodes, as the rules'
// own walks see them (children, opaque nodes included), finds the rules
// whose gate a node passes, and only those run. A point select walks its
// plan once instead of once per rule.
func gatedRuleBatch(rules ...gatedRule) analyzer.RuleFunc {
	all := make([]analyzer.Rule, len(rules))
	for i, r := range rules {
		all[i] = r.Rule
	}
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		var want uint64
		markGates(n, rules, &want)
		return applyRules(ctx, a, n, scope, sel, qf, all, want)
	}
}

// markGates sets bit i of want for each rule i whose gate n or a node
// under it passes (or that has no gate).
func markGates(n sql.Node, rules []gatedRule, want *uint64) {
	if n == nil {
		return
	}
	for i, r := range rules {
		if r.gate == nil || r.gate(n) {
			*want |= 1 << i
		}
	}
	for _, c := range n.Children() {
		markGates(c, rules, want)
	}
}

// rebuildPath puts leaf under path, a chain of one-child nodes from the
// top down (the nodes a rule walked through to reach the one it
// replaced), and returns the new top.
func rebuildPath(path []sql.Node, leaf sql.Node) (sql.Node, error) {
	n := leaf
	for i := len(path) - 1; i >= 0; i-- {
		var err error
		if n, err = path[i].WithChildren(n); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// isNode is a gate passing nodes of type T.
func isNode[T sql.Node](n sql.Node) bool {
	_, ok := n.(T)
	return ok
}

// isDescribeOrSetOp passes EXPLAIN and UNION / INTERSECT / EXCEPT.
func isDescribeOrSetOp(n sql.Node) bool {
	switch n.(type) {
	case *plan.DescribeQuery, *plan.SetOp:
		return true
	}
	return false
}

// isShowOfTable passes the SHOW statements mariaShowRule prints.
func isShowOfTable(n sql.Node) bool {
	switch n.(type) {
	case *plan.ShowCreateTable, *plan.ShowColumns, *plan.ShowIndexes:
		return true
	}
	return false
}

// isInfoSchemaTable passes a resolved table of information_schema.
func isInfoSchemaTable(n sql.Node) bool {
	rt, ok := n.(*plan.ResolvedTable)
	if !ok {
		return false
	}
	db, ok := rt.Table.(sql.Databaseable)
	return (ok && strings.EqualFold(db.Database(), sql.InformationSchemaDatabaseName)) ||
		(rt.Database() != nil && strings.EqualFold(rt.Database().Name(), sql.InformationSchemaDatabaseName))
}

// everyExpr applies f to every expression, and each one's children, of
// every node of n, opaque nodes included: the walk of most of our
// expression rules.
// everyExprDeep is everyExpr over n and the plans of the subqueries its
// expressions hold, for rules that run before go-mysql-server unnests a
// subquery (IN (SELECT ...), EXISTS) into the plan: an unnested subquery
// is never analyzed on its own.
func everyExprDeep(n sql.Node, f transform.ExprFunc) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if sq, ok := e.(*plan.Subquery); ok && sq.Query != nil {
			q, same, err := everyExprDeep(sq.Query, f)
			if err != nil || same {
				return e, transform.SameTree, err
			}
			return sq.WithQuery(q), transform.NewTree, nil
		}
		return f(e)
	})
}

func everyExpr(n sql.Node, f transform.ExprFunc) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		return transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, f)
		})
	})
}
