package mariadb

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// keyedGroupRule: go-mysql-server groups rows by a 64-bit hash of each
// row's GROUP BY values, printed with fmt into a new xxhash per row (a
// fifth of an aggregation's time), and compares text by weights that keep
// trailing spaces: under a PAD SPACE collation it put 'a' and 'a ' in two
// groups, which MariaDB makes one. keyedGroupBy groups by the values
// themselves, encoded into one byte string per row: text under a UTF-8
// collation as the store's sort key of that collation (collation.
// AppendKey: equal texts, and only they, get equal keys), numbers in
// their decimal form, anything else as fmt prints it (go-mysql-server's
// own key); no two groups can share a hash. Aggregates and the order of
// the groups (first seen first) are go-mysql-server's.
//
// The rule replaces every GroupBy with grouping expressions (a GroupBy
// without them is one group, which go-mysql-server hashes nothing for).
// It runs last, after the columns' execution indexes are set, and is a
// pure function of the plan, safe for concurrent use.
func keyedGroupRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		g, ok := n.(*plan.GroupBy)
		if !ok || len(g.GroupByExprs) == 0 {
			return n, transform.SameTree, nil
		}
		return newKeyedGroupBy(ctx, g), transform.NewTree, nil
	})
}

// keyedGroupBy is a GroupBy that groups by encoded values (see
// keyedGroupRule). Its aggregates are held in heldAggs, which are not
// aggregations themselves: go-mysql-server validates a subquery's plan
// again within its parent's, and there an aggregation outside its own
// GroupBy node is an error. It keeps no state between executions: safe
// for concurrent use.
type keyedGroupBy struct {
	child    sql.Node
	selected []sql.Expression // the select list, aggregates as heldAggs
	grouping []sql.Expression
	sch      sql.Schema
	colls    []*collation.Collation // per grouping expression: its text's collation, or nil
}

var (
	_ sql.Node                 = (*keyedGroupBy)(nil)
	_ sql.Expressioner         = (*keyedGroupBy)(nil)
	_ sql.Projector            = (*keyedGroupBy)(nil)
	_ sql.ExecSourceRel        = (*keyedGroupBy)(nil)
	_ sql.CollationCoercible   = (*keyedGroupBy)(nil)
	_ sqlbackend.StatelessNode = (*keyedGroupBy)(nil)
)

// newKeyedGroupBy makes the node of g.
func newKeyedGroupBy(ctx *sql.Context, g *plan.GroupBy) *keyedGroupBy {
	k := &keyedGroupBy{child: g.Child, grouping: g.GroupByExprs, sch: g.Schema(),
		colls: make([]*collation.Collation, len(g.GroupByExprs))}
	for i, e := range g.GroupByExprs {
		k.colls[i] = textCollation(ctx, e)
	}
	k.selected = make([]sql.Expression, len(g.SelectedExprs))
	for i, e := range g.SelectedExprs {
		if a, ok := e.(sql.Aggregation); ok {
			e = &heldAgg{agg: a}
		}
		k.selected[i] = e
	}
	return k
}

// groupBy is the node as go-mysql-server's GroupBy, for printing.
func (k *keyedGroupBy) groupBy() *plan.GroupBy {
	sel := make([]sql.Expression, len(k.selected))
	for i, e := range k.selected {
		if h, ok := e.(*heldAgg); ok {
			e = h.agg
		}
		sel[i] = e
	}
	return plan.NewGroupBy(sel, k.grouping, k.child)
}

// Stateless marks the node for the plan cache.
func (k *keyedGroupBy) Stateless() {}

func (k *keyedGroupBy) Resolved() bool       { return k.child.Resolved() }
func (k *keyedGroupBy) IsReadOnly() bool     { return k.child.IsReadOnly() }
func (k *keyedGroupBy) Schema() sql.Schema   { return k.sch }
func (k *keyedGroupBy) Children() []sql.Node { return []sql.Node{k.child} }
func (k *keyedGroupBy) String() string       { return k.groupBy().String() }
func (k *keyedGroupBy) DebugString() string  { return sql.DebugString(k.groupBy()) }

// ProjectedExprs is the select list: the node is a projection, as
// go-mysql-server's GroupBy is, to the walks that number the columns of
// its rows and that prefix a subquery's rows with the outer row.
func (k *keyedGroupBy) ProjectedExprs() []sql.Expression { return k.selected }

// Expressions are the select list's, then the grouping's.
func (k *keyedGroupBy) Expressions() []sql.Expression {
	return append(append([]sql.Expression{}, k.selected...), k.grouping...)
}

func (k *keyedGroupBy) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, k.child)
}

func (k *keyedGroupBy) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(k, len(children), 1)
	}
	nk := *k
	nk.child = children[0]
	return &nk, nil
}

func (k *keyedGroupBy) WithExpressions(exprs ...sql.Expression) (sql.Node, error) {
	if len(exprs) != len(k.selected)+len(k.grouping) {
		return nil, sql.ErrInvalidChildrenNumber.New(k, len(exprs), len(k.selected)+len(k.grouping))
	}
	nk := *k
	nk.selected = exprs[:len(k.selected):len(k.selected)]
	nk.grouping = exprs[len(k.selected):]
	return &nk, nil
}

// heldAgg holds an aggregate of a keyedGroupBy's select list; it is not
// itself an aggregation (see keyedGroupBy) and is never evaluated.
type heldAgg struct {
	agg sql.Aggregation
}

func (h *heldAgg) Resolved() bool             { return h.agg.Resolved() }
func (h *heldAgg) String() string             { return h.agg.String() }
func (h *heldAgg) Type() sql.Type             { return h.agg.Type() }
func (h *heldAgg) IsNullable() bool           { return h.agg.IsNullable() }
func (h *heldAgg) Children() []sql.Expression { return h.agg.Children() }

// Id is the aggregate's column id (0 if it has none).
func (h *heldAgg) Id() sql.ColumnId {
	if ide, ok := h.agg.(sql.IdExpression); ok {
		return ide.Id()
	}
	return 0
}

// WithId sets the aggregate's column id.
func (h *heldAgg) WithId(id sql.ColumnId) sql.IdExpression {
	if ide, ok := h.agg.(sql.IdExpression); ok {
		if a, ok := ide.WithId(id).(sql.Aggregation); ok {
			return &heldAgg{agg: a}
		}
	}
	return h
}

func (h *heldAgg) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	return nil, sql.ErrAggregationUnsupported.New(h.agg.String())
}

func (h *heldAgg) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	n, err := h.agg.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	a, ok := n.(sql.Aggregation)
	if !ok {
		return nil, fmt.Errorf("aggregate %s became %T", h.agg, n)
	}
	return &heldAgg{agg: a}, nil
}

// RowIter reads the child's rows into their groups and returns one row a
// group, in the order the groups were first seen.
func (k *keyedGroupBy) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	groups := map[string]int{}
	var bufs [][]sql.AggregationBuffer
	dispose := func() {
		for _, bs := range bufs {
			for _, b := range bs {
				b.Dispose()
			}
		}
	}
	var key []byte
	err := drainChild(ctx, k.child, row, func(r sql.Row) error {
		var err error
		if key, err = k.key(ctx, key[:0], r); err != nil {
			return err
		}
		gi, ok := groups[string(key)]
		if !ok {
			bs := make([]sql.AggregationBuffer, len(k.selected))
			for j, e := range k.selected {
				if h, isAgg := e.(*heldAgg); isAgg {
					bs[j], err = h.agg.NewBuffer()
				} else {
					// a plain expression keeps the group's first value
					bs[j], err = aggregation.NewFirst(e).NewBuffer()
				}
				if err != nil {
					return err
				}
			}
			gi = len(bufs)
			groups[string(key)] = gi
			bufs = append(bufs, bs)
		}
		for _, b := range bufs[gi] {
			if err := b.Update(ctx, r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		dispose()
		return nil, err
	}
	out := make([]sql.Row, len(bufs))
	for i, bs := range bufs {
		out[i] = make(sql.Row, len(bs))
		for j, b := range bs {
			if out[i][j], err = b.Eval(ctx); err != nil {
				dispose()
				return nil, err
			}
		}
	}
	dispose()
	return sql.RowsToRowIter(out...), nil
}

// key appends r's grouping key to dst: each value tagged by its kind and
// self-delimited (length-prefixed where it is not a sort key, which
// delimits itself).
func (k *keyedGroupBy) key(ctx *sql.Context, dst []byte, r sql.Row) ([]byte, error) {
	for i, e := range k.grouping {
		v, err := e.Eval(ctx, r)
		if err != nil {
			return nil, err
		}
		if v == nil {
			dst = append(dst, 'N')
			continue
		}
		if c := k.colls[i]; c != nil {
			var text []byte
			switch x := v.(type) {
			case string:
				text = []byte(x)
			case []byte:
				text = x
			default:
				if t, _, err := e.Type().Convert(ctx, v); err == nil {
					if s, ok := t.(string); ok {
						text = []byte(s)
					}
				}
			}
			if text != nil {
				dst = c.AppendKey(append(dst, 'T'), text)
				continue
			}
		}
		if st, ok := e.Type().(sql.StringType); ok {
			// text under another collation: its weights, as go-mysql-
			// server groups it
			if t, err := gtypes.ConvertToString(ctx, v, st, nil); err == nil {
				var w bytes.Buffer
				if err := st.Collation().WriteWeightString(&w, t); err == nil {
					dst = append(dst, 'W')
					dst = strconv.AppendInt(dst, int64(w.Len()), 10)
					dst = append(append(dst, ':'), w.Bytes()...)
					continue
				}
			}
		}
		var s string
		switch x := v.(type) {
		case uint64:
			s = strconv.FormatUint(x, 10)
		case string:
			s = x
		case []byte:
			s = string(x)
		default:
			if n, ok := sqlbackend.WideInt(v); ok { // the other integers
				s = strconv.FormatInt(n, 10)
			} else {
				s = fmt.Sprintf("%v", v) // go-mysql-server's own form of the value
			}
		}
		dst = append(dst, 'V')
		dst = strconv.AppendInt(dst, int64(len(s)), 10)
		dst = append(dst, ':')
		dst = append(dst, s...)
	}
	return dst, nil
}
