package mariadb

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// Two ALTER TABLE forms MariaDB accepts and go-mysql-server refuses:
//   - DROP CONSTRAINT name, where name is a UNIQUE key (MariaDB drops any
//     constraint of that name: a CHECK, a foreign key or a unique key;
//     go-mysql-server looks only at the first two, 1105 "does not exist");
//   - RENAME COLUMN a TO A, a change of case only (go-mysql-server finds
//     the new name taken by the column itself, 1060).
//
// ddlNamesRule rewrites the first into DROP INDEX and the second into the
// CHANGE COLUMN it stands for (the same definition under the new name).
// It runs before go-mysql-server resolves constraints; it is a pure
// function of the plan and the table's definition.

func ddlNamesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	switch n.(type) {
	case *plan.DropConstraint, *plan.RenameColumn, *plan.Block:
	default:
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch x := n.(type) {
		case *plan.DropConstraint:
			rt, ok := x.Child.(*plan.ResolvedTable)
			if !ok || hasCheckOrForeignKey(ctx, rt.Table, x.Name) {
				return n, transform.SameTree, nil
			}
			if name, ok := uniqueIndexNamed(ctx, rt.Table, x.Name); ok {
				return plan.NewAlterDropIndex(rt.SqlDatabase, rt, name), transform.NewTree, nil
			}
		case *plan.RenameColumn:
			rt, ok := x.Table.(*plan.ResolvedTable)
			if !ok || x.ColumnName == x.NewColumnName || !strings.EqualFold(x.ColumnName, x.NewColumnName) {
				return n, transform.SameTree, nil
			}
			sch := rt.Schema()
			i := sch.IndexOfColName(x.ColumnName)
			if i < 0 {
				return n, transform.SameTree, nil
			}
			col := *sch[i].Copy()
			col.Name = x.NewColumnName
			mc, err := plan.NewModifyColumnResolved(rt, x.ColumnName, col, nil).WithTargetSchema(x.TargetSchema())
			if err != nil {
				return n, transform.SameTree, nil
			}
			return mc, transform.NewTree, nil
		}
		return n, transform.SameTree, nil
	})
}

// hasCheckOrForeignKey reports whether t has a CHECK constraint or a
// foreign key (declared or referencing it) named name.
func hasCheckOrForeignKey(ctx *sql.Context, t sql.Table, name string) bool {
	if ft, ok := t.(sql.ForeignKeyTable); ok {
		decl, err1 := ft.GetDeclaredForeignKeys(ctx)
		ref, err2 := ft.GetReferencedForeignKeys(ctx)
		if err1 != nil || err2 != nil {
			return true // let go-mysql-server report it
		}
		for _, fk := range append(decl, ref...) {
			if strings.EqualFold(fk.Name, name) {
				return true
			}
		}
	}
	if ct, ok := t.(sql.CheckTable); ok {
		checks, err := ct.GetChecks(ctx)
		if err != nil {
			return true
		}
		for _, c := range checks {
			if strings.EqualFold(c.Name, name) {
				return true
			}
		}
	}
	return false
}

// uniqueIndexNamed returns the name of t's unique index named name (in
// any case), if there is one.
func uniqueIndexNamed(ctx *sql.Context, t sql.Table, name string) (string, bool) {
	it, ok := t.(sql.IndexAddressable)
	if !ok {
		return "", false
	}
	idxs, err := it.GetIndexes(ctx)
	if err != nil {
		return "", false
	}
	for _, ix := range idxs {
		if ix.IsUnique() && !strings.EqualFold(ix.ID(), "PRIMARY") && strings.EqualFold(ix.ID(), name) {
			return ix.ID(), true
		}
	}
	return "", false
}
