package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
)

// Guards against statements that go-mysql-server answers wrongly or
// panics on.

// ruleIntoFile refuses SELECT ... INTO OUTFILE / DUMPFILE to an account
// without the global FILE privilege, as MariaDB does (go-mysql-server
// asks FILE of LOAD DATA only): 1227, "Access denied; you need (at least
// one of) the FILE privilege(s) for this operation".

func intoFileRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	toFile := transform.InspectUp(n, func(n sql.Node) bool {
		into, ok := n.(*plan.Into)
		return ok && (into.Outfile != "" || into.Dumpfile != "")
	})
	if toFile && !hasFilePrivilege(ctx, a) {
		return nil, transform.SameTree, mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, "42000",
			"Access denied; you need (at least one of) the FILE privilege(s) for this operation")
	}
	return n, transform.SameTree, nil
}

// ruleShowCreateOfView makes SHOW CREATE TABLE of a view answer as SHOW
// CREATE VIEW does, as MariaDB's does: go-mysql-server gave it the view's
// four-column schema and a table's two-value row (a panic in the wire
// encoding).

func showCreateOfViewRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		sc, ok := n.(*plan.ShowCreateTable)
		if !ok || sc.IsView {
			return n, transform.SameTree, nil
		}
		if _, view := sc.Child.(*plan.SubqueryAlias); !view {
			return n, transform.SameTree, nil
		}
		nc := *sc
		nc.IsView = true
		return &nc, transform.NewTree, nil
	})
}

// maxJoinTables is MariaDB's limit of tables in one join (MAX_TABLES).
const maxJoinTables = 61

// ruleJoinTables refuses a join of more than maxJoinTables tables with
// MariaDB's 1116 before go-mysql-server's join planner, whose table sets
// hold 64 (a panic past them).

func joinTablesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	var err error
	transform.Inspect(n, func(n sql.Node) bool {
		if j, ok := n.(*plan.JoinNode); ok && err == nil && joinLeaves(j) > maxJoinTables {
			err = mysql.NewSQLError(mysql.ERTooManyTables, "HY000",
				"Too many tables; MariaDB can only use %d tables in a join", maxJoinTables)
		}
		return err == nil
	})
	return n, transform.SameTree, err
}

// mysql.ERTooManyTables is MariaDB's ER_TOO_MANY_TABLES.

// joinLeaves counts the tables (or derived tables) a join tree joins.
func joinLeaves(n sql.Node) int {
	j, ok := n.(*plan.JoinNode)
	if !ok {
		return 1
	}
	return joinLeaves(j.Left()) + joinLeaves(j.Right())
}
