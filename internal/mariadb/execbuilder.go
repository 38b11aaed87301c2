package mariadb

import (
	"maps"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// aliasBuilder builds the row iterators of the plans the analyzer makes,
// as go-mysql-server's builder does, but a table alias as its table's
// iterator alone: go-mysql-server opens a tracing span with the alias'
// name and wraps the iterator for every alias it builds, and a lookup
// join builds its inner table once per outer row (a tenth of such a
// join's time with tracing off). The alias only names the table's
// columns for the analysis; its rows are the table's. Builders hold no
// state of a run: safe for concurrent use.
type aliasBuilder struct {
	base sql.NodeExecBuilder // go-mysql-server's builder, which calls Build first for every node
}

// newExecBuilder returns go-mysql-server's builder with aliasBuilder
// consulted first for every node it builds.
func newExecBuilder() sql.NodeExecBuilder {
	ab := &aliasBuilder{}
	ab.base = rowexec.NewOverrideBuilder(ab)
	return ab.base
}

// Build builds a table alias' table; nil for every other node, which the
// base builder then builds. The first node built for a statement, its
// plan's root, is noted in the session (sqlbackend.Session.NoteBuilt):
// the wire layer reads its result types there.
func (b *aliasBuilder) Build(ctx *sql.Context, n sql.Node, row sql.Row) (sql.RowIter, error) {
	if s, ok := ctx.Session.(*sqlbackend.Session); ok {
		s.NoteBuilt(ctx, n)
	}
	switch n := n.(type) {
	case *plan.TableAlias:
		return b.base.Build(ctx, n.Child, row)
	case *plan.ShowVariables:
		return showVariables(ctx, n)
	}
	return nil, nil
}

// showVariables lists the session's (or with GLOBAL the global) system
// variables that pass the LIKE or WHERE, sorted by name, as MariaDB
// prints them: a boolean one ON or OFF (go-mysql-server prints 1 or 0;
// a client that reads a setting, a replica checking its primary's
// rpl_semi_sync_master_enabled, compares the text).
func showVariables(ctx *sql.Context, n *plan.ShowVariables) (sql.RowIter, error) {
	var vals map[string]interface{}
	if n.Global {
		vals = sql.SystemVariables.GetAllGlobalVariables()
	} else {
		vals = ctx.GetAllSessionVariables()
	}
	names := slices.Sorted(maps.Keys(vals))
	rows := make([]sql.Row, 0, len(names))
	for _, name := range names {
		if n.Filter != nil {
			keep, err := n.Filter.Eval(ctx, sql.Row{strings.ToLower(name)})
			if err != nil {
				return nil, err
			}
			if keep, _, err = gtypes.Boolean.Convert(ctx, keep); err != nil || keep.(int8) == 0 {
				continue
			}
		}
		v := vals[name]
		if x, ok := v.(int8); ok {
			if sv, _, found := sql.SystemVariables.GetGlobal(name); found {
				if _, isBool := sv.GetType().(gtypes.SystemBoolType); isBool {
					v = "OFF"
					if x != 0 {
						v = "ON"
					}
				}
			}
		}
		rows = append(rows, sql.Row{name, v})
	}
	return sql.RowsToRowIter(rows...), nil
}
