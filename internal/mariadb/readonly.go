package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// readOnlyRule refuses a change of data or schema in a read-only
// transaction with MariaDB's 1792: go-mysql-server checks only the
// transaction START TRANSACTION READ ONLY opened, and only its INSERT,
// UPDATE and DELETE, where MariaDB also refuses them under SET SESSION
// TRANSACTION READ ONLY (tx_read_only) in autocommit, and refuses DDL.
// Writes to temporary tables pass, as in MariaDB.
func readOnlyRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !writesOrDDL(n) || !sqlbackend.InReadOnlyTransaction(ctx) {
		return n, transform.SameTree, nil
	}
	return nil, transform.SameTree, sql.ErrReadOnlyTransaction.New()
}

// writesOrDDL reports whether n changes rows of a table that is not
// temporary, or the schema.
func writesOrDDL(n sql.Node) bool {
	switch n := n.(type) {
	case *plan.InsertInto:
		return !temporaryTarget(n.Destination)
	case *plan.Update, *plan.DeleteFrom:
		return !temporaryTarget(n)
	case *plan.CreateTable:
		return !n.Temporary()
	case *plan.DropTable:
		for _, t := range n.Tables {
			if !temporaryTarget(t) {
				return true
			}
		}
		return false
	case *plan.AlterPK, *plan.AlterDefaultSet, *plan.AlterDefaultDrop, *plan.AddColumn, *plan.DropColumn,
		*plan.RenameColumn, *plan.ModifyColumn, *plan.AlterIndex, *plan.AlterTableCollation, *plan.AlterAutoIncrement,
		*plan.RenameTable, *plan.Truncate, *plan.CreateIndex, *plan.CreateView, *plan.DropView,
		*plan.CreateDB, *plan.DropDB, *plan.CreateTrigger, *plan.DropTrigger, *plan.CreateProcedure, *plan.DropProcedure,
		*plan.CreateCheck, *plan.DropCheck, *plan.CreateForeignKey, *plan.DropForeignKey:
		return true
	}
	return false
}

// temporaryTarget reports whether the table n writes is a temporary one.
func temporaryTarget(n sql.Node) bool {
	temp, found := false, false
	transform.Inspect(n, func(n sql.Node) bool {
		if rt, ok := n.(*plan.ResolvedTable); ok && !found {
			found = true
			if tt, ok := rt.Table.(sql.TemporaryTable); ok {
				temp = tt.IsTemporary()
			}
		}
		return !found
	})
	return temp
}
