package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"

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
	ta, ok := n.(*plan.TableAlias)
	if !ok {
		return nil, nil
	}
	return b.base.Build(ctx, ta.Child, row)
}
