package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// DROP DATABASE answers how many tables it dropped, as MariaDB does;
// go-mysql-server always says one row. The rule puts the statement under
// a dropDatabase node, which counts the database's tables (temporary
// tables of the session aside, as the engine hides them) and then runs it.

// dropDatabaseRule wraps DROP DATABASE when p answers as MariaDB (see
// Provider.MariaDB; the enginetest keeps go-mysql-server's answer); with
// a nil p it changes nothing.
func DropDatabaseRule(p *Provider) analyzer.RuleFunc {
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		if p == nil || !p.maria {
			return n, transform.SameTree, nil
		}
		wrapped := false
		transform.Inspect(n, func(n sql.Node) bool {
			_, ok := n.(*dropDatabase)
			wrapped = wrapped || ok
			return !wrapped
		})
		if wrapped {
			return n, transform.SameTree, nil
		}
		return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
			if d, ok := n.(*plan.DropDB); ok {
				return &dropDatabase{Wrapper: Wrapper{d}, p: p, name: d.DbName}, transform.NewTree, nil
			}
			return n, transform.SameTree, nil
		})
	}
}

type dropDatabase struct {
	Wrapper
	p    *Provider
	name string
}

var _ sql.ExecSourceRel = (*dropDatabase)(nil)

func (d *dropDatabase) IsReadOnly() bool { return false }

// WithChildren replaces the DROP DATABASE.
func (d *dropDatabase) WithChildren(children ...sql.Node) (sql.Node, error) {
	return Rewrap(d, children, func(w Wrapper) sql.Node { return &dropDatabase{Wrapper: w, p: d.p, name: d.name} })
}

// RowIter counts the tables, drops the database and answers the count.
func (d *dropDatabase) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	tables := 0
	if n, ok := d.p.dbName(d.name); ok {
		if db, err := d.p.e.Catalog().Database(n); err == nil {
			tables = len(db.Tables())
		}
	}
	iter, err := rowexec.DefaultBuilder.Build(ctx, d.Child, row)
	if err != nil {
		return nil, err
	}
	if _, err := sql.RowIterToRows(ctx, iter); err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(types.NewOkResult(tables))), nil
}
