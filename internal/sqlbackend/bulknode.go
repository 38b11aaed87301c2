package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// bulkLeaf is what the nodes of the bulk paths (BulkInsertNode,
// LoadDataNode) share as go-mysql-server plan nodes: each writes the rows
// it holds into one version of one table and answers an OK result; it is
// built resolved and has no children. Like the nodes, it serves one
// execution on the session's goroutine.
type bulkLeaf struct {
	p   *Provider
	t   *engine.Table
	sch sql.Schema
}

// Resolved is true: the node is built resolved.
func (bulkLeaf) Resolved() bool { return true }

// Schema is the OK result's.
func (bulkLeaf) Schema() sql.Schema { return gtypes.OkResultSchema }

// Children is none.
func (bulkLeaf) Children() []sql.Node { return nil }

// IsReadOnly is false: the node writes.
func (bulkLeaf) IsReadOnly() bool { return false }

// leafWithChildren is WithChildren of the leaf n: it accepts no children.
func leafWithChildren(n sql.Node, children []sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 0)
	}
	return n, nil
}

// bulkTarget resolves the table a bulk statement of the session of ctx
// writes (dbName empty: the current database), or returns a nil table
// when the statement must take the ordinary path: no session of ours, or
// one with temporary tables (which a name may mean instead), a system
// schema or hidden table, or a table with triggers.
func (p *Provider) bulkTarget(ctx *sql.Context, dbName, table string) (*database, *engine.Table) {
	sess := SessionOf(ctx)
	if sess == nil || sess.HasTemporaryTables() {
		return nil, nil
	}
	if dbName == "" {
		dbName = ctx.GetCurrentDatabase()
	}
	if dbName == "" || isSystemSchema(dbName) || engine.IsHidden(table) {
		return nil, nil
	}
	sdb, err := p.Database(ctx, dbName)
	if err != nil {
		return nil, nil
	}
	d, ok := sdb.(*database)
	if !ok {
		return nil, nil
	}
	t := d.engineTable(table)
	if t == nil {
		return nil, nil
	}
	if trig, err := d.GetTriggers(ctx); err != nil || len(trig) > 0 {
		return nil, nil
	}
	return d, t
}
