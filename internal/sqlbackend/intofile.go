package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
)

// ruleIntoFile refuses SELECT ... INTO OUTFILE / DUMPFILE to an account
// without the global FILE privilege, as MariaDB does (go-mysql-server
// asks FILE of LOAD DATA only): 1227, "Access denied; you need (at least
// one of) the FILE privilege(s) for this operation".
const ruleIntoFile analyzer.RuleId = 10445

func intoFileRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, _ *plan.Scope, _ analyzer.RuleSelector, _ *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	toFile := transform.InspectUp(n, func(n sql.Node) bool {
		into, ok := n.(*plan.Into)
		return ok && (into.Outfile != "" || into.Dumpfile != "")
	})
	if !toFile || a.Catalog.MySQLDb == nil || !a.Catalog.MySQLDb.Enabled() {
		return n, transform.SameTree, nil
	}
	if !a.Catalog.MySQLDb.UserHasPrivileges(ctx, sql.NewPrivilegedOperation(sql.PrivilegeCheckSubject{}, sql.PrivilegeType_File)) {
		return nil, transform.SameTree, mysql.NewSQLError(mysql.ERSpecifiedAccessDenied, "42000",
			"Access denied; you need (at least one of) the FILE privilege(s) for this operation")
	}
	return n, transform.SameTree, nil
}
