package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// explainRowsRule: go-mysql-server marks a query that reads one row by a
// unique key as returning at most one row, and its server then refuses
// more. The mark is wrong for EXPLAIN of such a query (several lines of
// plan) and for a set operation with such a branch (SELECT ... WHERE id > 1
// UNION SELECT ... WHERE id = 1 answered 1105 "max1Row iterator returned
// more than one row"): it is dropped for both.
func explainRowsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if qf == nil || !qf.IsSet(sql.QFlagMax1Row) {
		return n, transform.SameTree, nil
	}
	transform.Inspect(n, func(n sql.Node) bool {
		switch n.(type) {
		case *plan.DescribeQuery, *plan.SetOp:
			qf.Unset(sql.QFlagMax1Row)
			return false
		}
		return true
	})
	return n, transform.SameTree, nil
}
