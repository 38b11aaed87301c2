package mariadb

import (
	"bytes"
	"io"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// orderedGroupRule: a report's "the first n customers with their
// counts", GROUP BY k ORDER BY k LIMIT n, grouped every row of the table
// and sorted the groups before the limit took n of them. Where the
// grouping columns are a prefix of an index of the one table grouped, in
// the ORDER BY's order, the rule reads the table through that index (in
// its order) and groups with streamGroupBy, which returns each group as
// soon as the next begins: the groups come out in the ORDER BY's order,
// the sort goes, and a LIMIT above stops the reading after its n groups.
//
// It takes ascending orders of integer columns only (their index order
// is their value order, NULLs first as ORDER BY ... ASC puts them), of a GroupBy directly over the table, below a Sort or TopN
// through projections and filters (HAVING). It runs in OnceAfterAll,
// before keyedSortRule and keyedGroupRule, and is a pure function of the
// plan, safe for concurrent use.
func orderedGroupRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if ctx.Query() != "" && !sqlbackend.QueryContainsFold(ctx, "group") {
		return n, transform.SameTree, nil
	}
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch s := n.(type) {
		case *plan.Sort:
			if c, ok := streamGroups(ctx, s.SortFields, s.Child); ok {
				return c, transform.NewTree, nil
			}
		case *plan.TopN:
			if s.CalcFoundRows {
				return n, transform.SameTree, nil
			}
			if c, ok := streamGroups(ctx, s.Fields, s.Child); ok {
				return plan.NewLimit(s.Limit, c), transform.NewTree, nil
			}
		}
		return n, transform.SameTree, nil
	})
}

// streamGroups returns n, the child of a sort by fields, with its GroupBy
// made a streamGroupBy over an ordered index read, when that order is the
// sort's (see orderedGroupRule).
func streamGroups(ctx *sql.Context, fields sql.SortFields, n sql.Node) (sql.Node, bool) {
	switch c := n.(type) {
	case *plan.Project:
		nc, ok := streamGroups(ctx, fields, c.Child)
		if !ok {
			return nil, false
		}
		out, err := c.WithChildren(nc)
		return out, err == nil
	case *plan.Filter:
		nc, ok := streamGroups(ctx, fields, c.Child)
		if !ok {
			return nil, false
		}
		out, err := c.WithChildren(nc)
		return out, err == nil
	case *plan.Having:
		nc, ok := streamGroups(ctx, fields, c.Child)
		if !ok {
			return nil, false
		}
		out, err := c.WithChildren(nc)
		return out, err == nil
	case *plan.GroupBy:
		return orderedGroupBy(ctx, fields, c)
	}
	return nil, false
}

// orderedGroupBy makes g a streamGroupBy over its table read through an
// index whose first columns are the sort's, when they are g's grouping
// columns.
func orderedGroupBy(ctx *sql.Context, fields sql.SortFields, g *plan.GroupBy) (sql.Node, bool) {
	if len(fields) == 0 || len(fields) != len(g.GroupByExprs) {
		return nil, false
	}
	// the filters (WHERE) between the GroupBy and the table keep the
	// table's order
	var filters []*plan.Filter
	below := g.Child
	for {
		f, ok := below.(*plan.Filter)
		if !ok {
			break
		}
		filters = append(filters, f)
		below = f.Child
	}
	var rt *plan.ResolvedTable
	var alias *plan.TableAlias
	switch c := below.(type) {
	case *plan.ResolvedTable:
		rt = c
	case *plan.TableAlias:
		alias = c
		rt, _ = c.Child.(*plan.ResolvedTable)
	}
	if rt == nil {
		return nil, false
	}
	tableName := strings.ToLower(rt.Name())
	if alias != nil {
		tableName = strings.ToLower(alias.Name())
	}
	grouped := map[string]bool{}
	for _, e := range g.GroupByExprs {
		gf, ok := e.(*expression.GetField)
		if !ok || !strings.EqualFold(gf.Table(), tableName) || !orderedByValue(gf.Type()) {
			return nil, false
		}
		grouped[strings.ToLower(gf.Name())] = true
	}
	cols := make([]string, len(fields))
	for i, f := range fields {
		gf, ok := f.Column.(*expression.GetField)
		if !ok || f.Order != sql.Ascending || f.NullOrdering != sql.NullsFirst ||
			!strings.EqualFold(gf.Table(), tableName) || !grouped[strings.ToLower(gf.Name())] {
			return nil, false
		}
		cols[i] = strings.ToLower(gf.Name())
		delete(grouped, cols[i])
	}
	if len(grouped) != 0 {
		return nil, false
	}
	idxTbl, ok := rt.UnderlyingTable().(sql.IndexAddressableTable)
	if !ok {
		return nil, false
	}
	idxs, err := idxTbl.GetIndexes(ctx)
	if err != nil {
		return nil, false
	}
	for _, idx := range idxs {
		if idx.IsSpatial() || idx.IsVector() || idx.IsFullText() || !indexPrefix(idx.Expressions(), cols) {
			continue
		}
		if oi, ok := idx.(sql.OrderedIndex); ok && oi.Order() == sql.IndexOrderNone {
			continue
		}
		lookup, err := sql.NewMySQLIndexBuilder(idx).Build(ctx)
		if err != nil || !idx.CanSupport(ctx, lookup.Ranges.(sql.MySQLRangeCollection).ToRanges()...) {
			continue
		}
		ita, err := plan.NewStaticIndexedAccessForTableNode(ctx, rt, lookup)
		if err != nil {
			return nil, false
		}
		var child sql.Node = ita
		if alias != nil {
			if child, err = alias.WithChildren(ita); err != nil {
				return nil, false
			}
		}
		for i := len(filters) - 1; i >= 0; i-- {
			if child, err = filters[i].WithChildren(child); err != nil {
				return nil, false
			}
		}
		k := newKeyedGroupBy(ctx, g)
		k.child = child
		return &streamGroupBy{keyedGroupBy: *k}, true
	}
	return nil, false
}

// orderedByValue reports whether an index orders a column of type t by
// the value ORDER BY sorts: integers (not text, whose order is its
// collation's, nor temporal columns, which reach the sort through the
// zero-date wrappers of oddDatesRule).
func orderedByValue(t sql.Type) bool { return gtypes.IsInteger(t) }

// indexPrefix reports whether an index's columns (as "table.column")
// start with cols.
func indexPrefix(exprs []string, cols []string) bool {
	if len(exprs) < len(cols) {
		return false
	}
	for i, c := range cols {
		e := strings.ToLower(exprs[i])
		if j := strings.LastIndexByte(e, '.'); j >= 0 {
			e = e[j+1:]
		}
		if e != c {
			return false
		}
	}
	return true
}

// streamGroupBy is a keyedGroupBy over rows that come in the order of its
// grouping (see orderedGroupRule): it returns each group when the next
// begins, reading no further than the groups asked for. Stateless, as
// keyedGroupBy.
type streamGroupBy struct {
	keyedGroupBy
}

func (s *streamGroupBy) String() string { return "Stream" + s.keyedGroupBy.String() }
func (s *streamGroupBy) DebugString() string {
	return "Stream" + s.keyedGroupBy.DebugString()
}

func (s *streamGroupBy) WithChildren(children ...sql.Node) (sql.Node, error) {
	n, err := s.keyedGroupBy.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &streamGroupBy{keyedGroupBy: *n.(*keyedGroupBy)}, nil
}

func (s *streamGroupBy) WithExpressions(exprs ...sql.Expression) (sql.Node, error) {
	n, err := s.keyedGroupBy.WithExpressions(exprs...)
	if err != nil {
		return nil, err
	}
	return &streamGroupBy{keyedGroupBy: *n.(*keyedGroupBy)}, nil
}

// RowIter reads the child lazily, one group a row.
func (s *streamGroupBy) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	iter, err := rowexec.DefaultBuilder.Build(ctx, s.child, row)
	if err != nil {
		return nil, err
	}
	return &streamGroupIter{k: &s.keyedGroupBy, child: iter}, nil
}

// streamGroupIter is the iterator of a streamGroupBy: pending is the
// first row of the next group (a copy: the child may reuse its rows) and
// key its grouping key.
type streamGroupIter struct {
	k       *keyedGroupBy
	child   sql.RowIter
	pending sql.Row
	key, nk []byte
	done    bool
}

func (it *streamGroupIter) Next(ctx *sql.Context) (sql.Row, error) {
	if it.done {
		return nil, io.EOF
	}
	if it.pending == nil {
		r, err := it.child.Next(ctx)
		if err == io.EOF {
			it.done = true
			return nil, io.EOF
		}
		if err != nil {
			return nil, err
		}
		if it.key, err = it.k.key(ctx, it.key[:0], r); err != nil {
			return nil, err
		}
		it.pending = append(sql.Row(nil), r...)
	}
	bufs := make([]sql.AggregationBuffer, len(it.k.selected))
	dispose := func() {
		for _, b := range bufs {
			if b != nil {
				b.Dispose()
			}
		}
	}
	for j, e := range it.k.selected {
		var err error
		if h, isAgg := e.(*heldAgg); isAgg {
			bufs[j], err = h.agg.NewBuffer()
		} else {
			// a plain expression keeps the group's first value
			bufs[j], err = aggregation.NewFirst(e).NewBuffer()
		}
		if err != nil {
			dispose()
			return nil, err
		}
	}
	update := func(r sql.Row) error {
		for _, b := range bufs {
			if err := b.Update(ctx, r); err != nil {
				return err
			}
		}
		return nil
	}
	if err := update(it.pending); err != nil {
		dispose()
		return nil, err
	}
	it.pending = nil
	for {
		r, err := it.child.Next(ctx)
		if err == io.EOF {
			it.done = true
			break
		}
		if err == nil {
			it.nk, err = it.k.key(ctx, it.nk[:0], r)
		}
		if err != nil {
			dispose()
			return nil, err
		}
		if !bytes.Equal(it.nk, it.key) {
			it.key, it.nk = it.nk, it.key
			it.pending = append(sql.Row(nil), r...)
			break
		}
		if err := update(r); err != nil {
			dispose()
			return nil, err
		}
	}
	out := make(sql.Row, len(bufs))
	for j, b := range bufs {
		v, err := b.Eval(ctx)
		if err != nil {
			dispose()
			return nil, err
		}
		out[j] = v
	}
	dispose()
	return out, nil
}

func (it *streamGroupIter) Close(ctx *sql.Context) error { return it.child.Close(ctx) }
