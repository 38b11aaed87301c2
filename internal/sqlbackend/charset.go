package sqlbackend

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/mysql"
)

// A database's default character set and collation are the engine's
// (engine.Database.Collation, set by CreateCollatedDatabase and
// SetCollation); go-mysql-server reads them through
// database.GetCollation. Two details of how MariaDB shows them are fixed
// here. Pure functions and per-statement nodes, safe for concurrent use.

// mysql.ERNotSupportedYet is the code of go-mysql-server's warning that CREATE
// DATABASE ignores CHARACTER SET and COLLATE, which HandlerDB does not.

// dropCharsetWarning removes that warning from the session.
func dropCharsetWarning(ctx *sql.Context) {
	if ctx == nil || ctx.Session == nil {
		return
	}
	ws := ctx.Session.Warnings() // newest first
	keep := ws[:0:0]
	dropped := false
	for _, w := range ws {
		if w.Code == mysql.ERNotSupportedYet && strings.HasPrefix(w.Message, "Setting CHARACTER SET, COLLATION") {
			dropped = true
			continue
		}
		keep = append(keep, w)
	}
	if !dropped {
		return
	}
	ctx.Session.ClearWarnings()
	for i := len(keep) - 1; i >= 0; i-- {
		ctx.Session.Warn(keep[i])
	}
}

// showCreateDatabaseRule puts SHOW CREATE DATABASE under a
// showCreateDatabase: MariaDB prints the binary character set without a
// COLLATE (`/*!40100 DEFAULT CHARACTER SET binary */`).
func ShowCreateDatabaseRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if sc, ok := n.(*plan.ShowCreateDatabase); ok {
			return &showCreateDatabase{Wrapper: Wrapper{sc}}, transform.NewTree, nil
		}
		return n, transform.SameTree, nil
	})
}

// showCreateDatabase runs its child, a SHOW CREATE DATABASE, and drops
// "COLLATE binary" from the statement it prints.
type showCreateDatabase struct {
	Wrapper
}

var _ sql.ExecSourceRel = (*showCreateDatabase)(nil)

func (c *showCreateDatabase) IsReadOnly() bool { return true }

// WithChildren replaces the child.
func (c *showCreateDatabase) WithChildren(children ...sql.Node) (sql.Node, error) {
	return Rewrap(c, children, func(w Wrapper) sql.Node { return &showCreateDatabase{Wrapper: w} })
}

// RowIter runs the child and rewrites its statement.
func (c *showCreateDatabase) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	iter, err := rowexec.DefaultBuilder.Build(ctx, c.Child, row)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		return nil, err
	}
	for _, r := range rows {
		if len(r) > 1 {
			if s, ok := r[1].(string); ok {
				r[1] = strings.Replace(s, "CHARACTER SET binary COLLATE binary */", "CHARACTER SET binary */", 1)
			}
		}
	}
	return sql.RowsToRowIter(rows...), nil
}
