package sqlbackend

import (
	"bytes"
	"context"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// A row an UPDATE changes only in ways its collation does not see ('a' to
// 'A' under a case-insensitive collation, 'a' to 'a ' under PAD SPACE) is
// a changed row in MariaDB and MySQL: the server compares the stored
// record's bytes, so the row is written and counted. go-mysql-server
// compares the old and new row with the column types' Compare, which for
// text is the collation's: it neither writes such a row nor counts it, and
// the statement's new value is lost.
//
// exactUpdateRule marks the target of a single-table UPDATE and of an
// INSERT ... ON DUPLICATE KEY UPDATE (the tables go-mysql-server takes the
// comparing schema from) so that its Schema answers text columns with
// exactText, which compares bytes; a foreign key handler in between gets
// that schema too. The table objects are the statement's own (newTable),
// and by the time the rule runs (last, in OnceAfterAll) every expression
// of the plan is built, so only the row comparison of the write and
// nullability checks see the marked schema. A multi-table UPDATE compares
// joined rows by the schema of the node under its UpdateSource: the rule
// marks every table under it and types the text columns of a projection
// there exactText (exactJoinRows).

func ExactUpdateRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if qf != nil && !qf.IsSet(sql.QFlagUpdate) && !qf.IsSet(sql.QFlagInsert) {
		return n, transform.SameTree, nil
	}
	transform.Inspect(n, func(n sql.Node) bool {
		switch n := n.(type) {
		case *plan.Update:
			if j, ok := n.Child.(*plan.UpdateJoin); ok {
				exactJoinRows(j)
			} else if u, err := plan.GetUpdatable(n.Child); err == nil {
				markExact(u)
			}
		case *plan.InsertInto:
			if len(n.OnDupExprs) > 0 {
				markExact(n.Destination)
			}
		}
		return true
	})
	return n, transform.SameTree, nil
}

// exactJoinRows makes a multi-table UPDATE compare joined rows by bytes:
// go-mysql-server takes the joined row's schema from the node under the
// UpdateSource (at run time), a projection of the join's columns or the
// join itself, whose schema is its tables'.
func exactJoinRows(j *plan.UpdateJoin) {
	src, ok := j.Child.(*plan.UpdateSource)
	if !ok {
		return
	}
	transform.Inspect(src.Child, func(n sql.Node) bool {
		switch n := n.(type) {
		case *plan.ResolvedTable:
			markExact(n)
		case *plan.IndexedTableAccess:
			markExact(n.TableNode)
		}
		return true
	})
	p, ok := src.Child.(*plan.Project)
	if !ok {
		return
	}
	exprs := make([]sql.Expression, len(p.Projections))
	changed := false
	for i, e := range p.Projections {
		exprs[i] = e
		gf, ok := e.(*expression.GetField)
		if !ok {
			continue
		}
		st, ok := gf.Type().(sql.StringType)
		if !ok || !gtypes.IsText(st) || gtypes.IsBinaryType(st) {
			continue
		}
		if _, done := gf.Type().(exactText); done {
			continue
		}
		exprs[i] = expression.NewGetFieldWithTable(gf.Index(), int(gf.TableId()), exactText{st},
			gf.Database(), gf.Table(), gf.Name(), gf.IsNullable()).WithId(gf.Id()).(sql.Expression)
		changed = true
	}
	if changed {
		if np, err := p.WithExpressions(exprs...); err == nil {
			src.Child = np
		}
	}
}

// markExact marks the table x resolves to as compared byte for byte.
func markExact(x interface{}) {
	switch x := x.(type) {
	case *table:
		x.exactCompare = true
	case *indexedTable:
		x.table.exactCompare = true
	case *plan.ResolvedTable:
		markExact(x.Table)
	case *plan.ForeignKeyHandler:
		markExact(x.Table)
		x.Sch = exactTextSchema(x.Sch)
	case *plan.InsertDestination:
		markExact(x.Child)
		x.Sch = exactTextSchema(x.Sch)
	case sql.TableWrapper: // go-mysql-server's process tracking wraps tables
		markExact(x.Underlying())
	}
}

// exactTextSchema returns sch with its collated text columns typed
// exactText (sch itself when it has none, or has them already).
func exactTextSchema(sch sql.Schema) sql.Schema {
	var out sql.Schema
	for i, c := range sch {
		st, ok := c.Type.(sql.StringType)
		if !ok || !gtypes.IsText(c.Type) || gtypes.IsBinaryType(c.Type) {
			continue
		}
		if _, done := c.Type.(exactText); done {
			continue
		}
		if out == nil {
			out = append(sql.Schema(nil), sch...)
		}
		cc := *c
		cc.Type = exactText{st}
		out[i] = &cc
	}
	if out == nil {
		return sch
	}
	return out
}

// exactSchema is the table's schema with its collated text columns typed
// exactText. Built once per tableSchema; shared, not to be modified.
func (ts *tableSchema) exactSchema() sql.Schema {
	ts.exactOnce.Do(func() { ts.exact = exactTextSchema(ts.sch.Schema) })
	return ts.exact
}

// exactText is a text type whose Compare compares the values' bytes.
type exactText struct{ sql.StringType }

// Compare orders a and b by their bytes (NULL first).
func (e exactText) Compare(ctx context.Context, a, b interface{}) (int, error) {
	if a == nil || b == nil {
		switch {
		case a == nil && b == nil:
			return 0, nil
		case a == nil:
			return -1, nil
		}
		return 1, nil
	}
	return bytes.Compare(textBytes(a), textBytes(b)), nil
}

// textBytes is a text value's bytes.
func textBytes(v interface{}) []byte {
	switch x := v.(type) {
	case string:
		return []byte(x)
	case []byte:
		return x
	case fmt.Stringer:
		return []byte(x.String())
	}
	return []byte(fmt.Sprint(v))
}
