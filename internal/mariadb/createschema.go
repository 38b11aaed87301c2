package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// schemaIsDatabaseRule: in MySQL and MariaDB, CREATE SCHEMA is a synonym
// of CREATE DATABASE. go-mysql-server plans it as a schema of the current
// database (for servers whose databases hold schemas) and, without a
// current database, fails with "no database selected" before falling back
// to CREATE DATABASE. HandlerDB's databases hold no schemas: the rule
// plans CREATE SCHEMA as CREATE DATABASE.
func schemaIsDatabaseRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if cs, ok := n.(*plan.CreateSchema); ok && cs.CreateDB != nil {
			db := *cs.CreateDB
			return &db, transform.NewTree, nil
		}
		return n, transform.SameTree, nil
	})
}
