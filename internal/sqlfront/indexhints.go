package sqlfront

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Index hints (USE, FORCE and IGNORE INDEX) that name an index the table
// does not have fail with ER_KEY_DOES_NOT_EXIST (1176), as in MariaDB;
// go-mysql-server's planner drops the hints unread, so such a statement
// ran. The check is made on the parsed statement, where the hints still
// are, against the engine's catalog: a hint on a table that does not
// exist is left to the table's own error, and hints on views are not
// checked.

// indexHintsOf returns the function guardedParser calls to check a
// statement's index hints: it resolves a table name as resolve does.
// Safe for concurrent use.
func indexHintsOf(resolve func(db, name string) *engine.Table) func(ctx context.Context, query string, st ast.Statement) error {
	return func(ctx context.Context, query string, st ast.Statement) error {
		if !containsFold(query, "INDEX") && !containsFold(query, "KEY") {
			return nil
		}
		current := ""
		if sc, ok := ctx.(*sql.Context); ok && sc.Session != nil {
			current = sc.GetCurrentDatabase()
		}
		var bad error
		_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
			at, ok := n.(*ast.AliasedTableExpr)
			if !ok || at.Hints == nil || bad != nil {
				return bad == nil, nil
			}
			tn, ok := at.Expr.(ast.TableName)
			if !ok {
				return true, nil
			}
			db := current
			if !tn.DbQualifier.IsEmpty() {
				db = tn.DbQualifier.String()
			}
			t := resolve(db, tn.Name.String())
			if t == nil {
				return true, nil
			}
			shown := tn.Name.String()
			if !at.As.IsEmpty() {
				shown = at.As.String()
			}
			for _, ix := range at.Hints.Indexes {
				name := ix.String()
				if t.IndexFold(name) == nil {
					bad = mysql.NewSQLError(mysql.ERKeyDoesNotExist, "42000", "Key '%s' doesn't exist in table '%s'", name, shown)
					return false, nil
				}
			}
			return true, nil
		}, st)
		return bad
	}
}

// containsFold reports whether s holds word in any letter case (word in
// upper case).
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		if s[i]|0x20 == word[0]|0x20 && strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}
