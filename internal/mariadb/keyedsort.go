package mariadb

import (
	"cmp"
	"container/heap"
	"io"
	"slices"
	"strings"
	"unsafe"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/iters"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// keyedSortRule: go-mysql-server's sort evaluates the ORDER BY keys of
// both rows at every comparison and compares text under its collation
// each time, character by character: ORDER BY c over the 100 rows of a
// sysbench range, a CHAR(120) in utf8mb4_general_ci, spent 15% of
// oltp_read_only's time in the collation's comparison. keyedSort
// evaluates each row's keys once and compares text under a UTF-8
// collation with the collation the store's indexes use (collation.Compare:
// no conversion, no allocation, done at the first differing character;
// sort keys made whole for every row cost more on sysbench's text, which
// differs in its first characters). Rows of equal keys keep their order,
// as in go-mysql-server's stable sort; NULLs go where its sort puts them.
//
// Its keys also compare text as MariaDB does where go-mysql-server's
// comparison does not: under a PAD SPACE collation (utf8mb4_general_ci,
// utf8mb4_bin, ...) 'a' and 'a ' are equal, so ORDER BY g, id orders
// them by id, where go-mysql-server put every 'a' first.
//
// The rule replaces a Sort, or a TopN (ORDER BY ... LIMIT, which keeps
// only the first rows: a bounded heap), that has a key of a UTF-8 text
// type or a key that is not a plain column; under a Window with such
// keys it puts one that sorts the rows as the window will (windowOrder).
// It runs last (after the columns' execution indexes are set, which the
// keys keep) and is a pure function of the plan, safe for concurrent use.
func keyedSortRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		var ks keyedSort
		var window *plan.Window
		switch x := n.(type) {
		case *plan.Sort:
			ks = keyedSort{fields: x.SortFields, child: x.Child}
			if d, ok := x.Child.(*plan.Distinct); ok && coversColumns(x.SortFields, d.Schema()) {
				// SELECT DISTINCT ... ORDER BY all its columns: rows equal
				// under the sort's comparison (its collations) are
				// adjacent once sorted, and the first of each run is kept
				ks.child, ks.distinct = d.Child, true
			}
		case *plan.TopN:
			ks = keyedSort{fields: x.Fields, child: x.Child, limit: x.Limit, calcFoundRows: x.CalcFoundRows}
		case *plan.Window:
			fields := windowOrder(x)
			if len(fields) == 0 {
				return n, transform.SameTree, nil
			}
			ks, window = keyedSort{fields: fields, child: x.Child}, x
		default:
			return n, transform.SameTree, nil
		}
		colls := make([]*collation.Collation, len(ks.fields))
		worth := false
		for i, f := range ks.fields {
			colls[i] = textCollation(ctx, f.Column)
			if _, col := f.Column.(*expression.GetField); colls[i] != nil || !col {
				worth = true
			}
		}
		if !worth && !ks.distinct {
			return n, transform.SameTree, nil
		}
		ks.colls = colls
		if window != nil {
			nw, err := window.WithChildren(&ks)
			if err != nil {
				return nil, transform.SameTree, err
			}
			return nw, transform.NewTree, nil
		}
		return &ks, transform.NewTree, nil
	})
}

// coversColumns reports whether fields are columns of the rows they
// sort, and name each column of sch (by table and name: in a subquery a
// column's index also counts the outer row's columns before it).
func coversColumns(fields sql.SortFields, sch sql.Schema) bool {
	if len(sch) == 0 {
		return false
	}
	named := map[[2]string]bool{}
	for _, f := range fields {
		gf, ok := f.Column.(*expression.GetField)
		if !ok {
			return false
		}
		named[[2]string{strings.ToLower(gf.Table()), strings.ToLower(gf.Name())}] = true
	}
	for _, c := range sch {
		if !named[[2]string{strings.ToLower(c.Source), strings.ToLower(c.Name)}] {
			return false
		}
	}
	return len(named) == len(sch)
}

// windowOrder is the order go-mysql-server's window iterator sorts a
// Window's rows in for its first window function: the partition keys
// ascending, then the window's ORDER BY. A keyedSort below the Window
// hands it its rows in that order, which its own stable sort then
// checks in about one comparison a row, instead of evaluating the keys
// (YEAR(day), MONTH(day) ...) of both rows at every comparison. (The
// Window returns its rows in the order it reads them; a query that wants
// an order says ORDER BY.)
func windowOrder(w *plan.Window) sql.SortFields {
	for _, e := range w.SelectExprs {
		var def *sql.WindowDefinition
		transform.InspectExpr(e, func(e sql.Expression) bool {
			if wa, ok := e.(sql.WindowAdaptableExpression); ok && wa.Window() != nil {
				def = wa.Window()
				return true
			}
			return false
		})
		if def == nil {
			continue
		}
		fields := make(sql.SortFields, 0, len(def.PartitionBy)+len(def.OrderBy))
		for _, p := range def.PartitionBy {
			fields = append(fields, sql.SortField{Column: p, Order: sql.Ascending})
		}
		return append(fields, def.OrderBy...)
	}
	return nil
}

// textCollation is the collation a text key of a UTF-8 character set
// compares under (its derived collation, which COLLATION() names: the
// type of a CONCAT of two columns carries go-mysql-server's default
// collation, not theirs), nil for a key of any other type.
func textCollation(ctx *sql.Context, e sql.Expression) *collation.Collation {
	if _, ok := e.Type().(sql.StringType); !ok {
		return nil
	}
	id, _ := sql.GetCoercibility(ctx, e)
	c := collation.ByID(uint16(id))
	if c == nil || (c.Charset != "utf8mb4" && c.Charset != "utf8mb3") {
		return nil
	}
	return c
}

// keyedSort sorts its child's rows by keys computed once per row (see
// keyedSortRule). It keeps no state between executions: safe for
// concurrent use.
type keyedSort struct {
	fields sql.SortFields
	colls  []*collation.Collation // per field: the collation of its text, or nil
	child  sql.Node
	// limit, for a TopN: the rows kept (an integer literal), and
	// whether FOUND_ROWS() counts all rows read.
	limit         sql.Expression
	calcFoundRows bool
	// distinct: the node is also the DISTINCT below the sort, whose
	// fields are all the rows' columns; of rows whose keys compare equal
	// only the first read is returned
	distinct bool
}

var (
	_ sql.Node                 = (*keyedSort)(nil)
	_ sql.Expressioner         = (*keyedSort)(nil)
	_ sql.ExecSourceRel        = (*keyedSort)(nil)
	_ sql.CollationCoercible   = (*keyedSort)(nil)
	_ sqlbackend.StatelessNode = (*keyedSort)(nil)
	_ sqlbackend.SortingNode   = (*keyedSort)(nil)
)

// Stateless marks the node for the plan cache: all its state is in its
// iterators.
func (s *keyedSort) Stateless() {}

// Sorts marks the node as a sort (EXPLAIN's "Using filesort").
func (s *keyedSort) Sorts() {}

func (s *keyedSort) Resolved() bool {
	for _, f := range s.fields {
		if !f.Column.Resolved() {
			return false
		}
	}
	return s.child.Resolved()
}
func (s *keyedSort) IsReadOnly() bool     { return s.child.IsReadOnly() }
func (s *keyedSort) Schema() sql.Schema   { return s.child.Schema() }
func (s *keyedSort) Children() []sql.Node { return []sql.Node{s.child} }

func (s *keyedSort) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), 1)
	}
	ns := *s
	ns.child = children[0]
	return &ns, nil
}

// Expressions are the sort keys.
func (s *keyedSort) Expressions() []sql.Expression { return s.fields.ToExpressions() }

// WithExpressions takes new sort keys.
func (s *keyedSort) WithExpressions(exprs ...sql.Expression) (sql.Node, error) {
	if len(exprs) != len(s.fields) {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(exprs), len(s.fields))
	}
	ns := *s
	ns.fields = s.fields.FromExpressions(exprs...)
	return &ns, nil
}

func (s *keyedSort) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, s.child)
}

func (s *keyedSort) String() string {
	pr := sql.NewTreePrinter()
	fields := make([]string, len(s.fields))
	for i, f := range s.fields {
		fields[i] = f.String()
	}
	if s.limit != nil {
		_ = pr.WriteNode("TopN(Limit: [%s]; %s)", s.limit, strings.Join(fields, ", "))
	} else {
		_ = pr.WriteNode("Sort(%s)", strings.Join(fields, ", "))
	}
	if s.distinct {
		_ = pr.WriteChildren("keys: computed once per row", "distinct: equal keys once", s.child.String())
	} else {
		_ = pr.WriteChildren("keys: computed once per row", s.child.String())
	}
	return pr.String()
}

// RowIter reads the child's rows, computes their keys and returns them
// sorted (for a TopN, the first limit of them).
func (s *keyedSort) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	limit := int64(-1)
	if s.limit != nil {
		n, err := iters.GetInt64Value(ctx, s.limit)
		if err != nil {
			return nil, err
		}
		limit = n
	}
	h := &keyedHeap{s: s, ctx: ctx}
	var found int64
	var slab []sortKey
	err := drainChild(ctx, s.child, row, func(r sql.Row) error {
		found++
		kr, err := s.keys(ctx, r, found, &slab)
		if err != nil {
			return err
		}
		if limit < 0 {
			h.rows = append(h.rows, kr)
			return nil
		}
		heap.Push(h, kr)
		if int64(h.Len()) > limit {
			heap.Pop(h)
		}
		return h.err
	})
	if err != nil {
		return nil, err
	}
	rows := h.rows
	slices.SortFunc(rows, h.order)
	if h.err != nil {
		return nil, h.err
	}
	out := make([]sql.Row, 0, len(rows))
	for i := range rows {
		if s.distinct && i > 0 {
			c, err := s.compare(ctx, rows[i-1].keys, rows[i].keys)
			if err != nil {
				return nil, err
			}
			if c == 0 {
				rows[i] = rows[i-1] // the run's first row stays the one compared
				continue
			}
		}
		out = append(out, rows[i].row)
	}
	return &sortedIter{rows: out, calcFoundRows: s.calcFoundRows, found: found}, nil
}

// drainChild builds child's iterator for row (with go-mysql-server's
// executor: the dialect's nodes run their children themselves), calls f
// on each of its rows and closes it, also when f or the iterator fails.
func drainChild(ctx *sql.Context, child sql.Node, row sql.Row, f func(sql.Row) error) error {
	iter, err := rowexec.DefaultBuilder.Build(ctx, child, row)
	if err != nil {
		return err
	}
	for {
		r, err := iter.Next(ctx)
		if err == io.EOF {
			return iter.Close(ctx)
		}
		if err == nil {
			err = f(r)
		}
		if err != nil {
			_ = iter.Close(ctx)
			return err
		}
	}
}

// keys computes the sort keys of r, the seq-th row read. Their slots
// come from slab, a chunk of slots for many rows (one allocation per
// keyedSlabRows rows, not one per row).
func (s *keyedSort) keys(ctx *sql.Context, r sql.Row, seq int64, slab *[]sortKey) (keyedRow, error) {
	n := len(s.fields)
	if len(*slab) < n {
		*slab = make([]sortKey, n*keyedSlabRows)
	}
	kr := keyedRow{row: r, seq: seq, keys: (*slab)[:n:n]}
	*slab = (*slab)[n:]
	for i, f := range s.fields {
		v, err := f.Column.Eval(ctx, r)
		if err != nil {
			return kr, sql.ErrUnableSort.Wrap(err)
		}
		if c := s.colls[i]; c != nil && v != nil {
			switch v.(type) {
			case string, []byte:
			default:
				// text as its type makes it, as the type's
				// comparison would
				if t, _, err := f.Column.Type().Convert(ctx, v); err == nil {
					v = t
				}
			}
			switch x := v.(type) {
			case string:
				// read only: the bytes of the string, not a copy
				kr.keys[i] = sortKey{text: unsafe.Slice(unsafe.StringData(x), len(x)), isText: true}
				continue
			case []byte:
				kr.keys[i] = sortKey{text: x, isText: true}
				continue
			}
		}
		kr.keys[i] = sortKey{v: v}
	}
	return kr, nil
}

// keyedSlabRows is how many rows' keys one slab allocation holds.
const keyedSlabRows = 64

// keyedHeap holds keyed rows; as a heap, the last in sort order is on
// top (a TopN drops it when it holds one row too many).
type keyedHeap struct {
	s    *keyedSort
	ctx  *sql.Context
	rows []keyedRow
	err  error
}

// order orders two rows by their keys, then by the order they were read
// (-1, 0 or 1; an error is kept in h.err).
func (h *keyedHeap) order(a, b keyedRow) int {
	if h.err != nil {
		return 0
	}
	c, err := h.s.compare(h.ctx, a.keys, b.keys)
	if err != nil {
		h.err = err
		return 0
	}
	if c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}

// before reports whether a sorts before b (order).
func (h *keyedHeap) before(a, b keyedRow) bool { return h.order(a, b) < 0 }

func (h *keyedHeap) Len() int           { return len(h.rows) }
func (h *keyedHeap) Less(i, j int) bool { return h.before(h.rows[j], h.rows[i]) }
func (h *keyedHeap) Swap(i, j int)      { h.rows[i], h.rows[j] = h.rows[j], h.rows[i] }
func (h *keyedHeap) Push(x any)         { h.rows = append(h.rows, x.(keyedRow)) }
func (h *keyedHeap) Pop() any {
	last := h.rows[len(h.rows)-1]
	h.rows = h.rows[:len(h.rows)-1]
	return last
}

// sortedIter returns sorted rows; a TopN's sets FOUND_ROWS() when it
// closes, as go-mysql-server's does.
type sortedIter struct {
	rows          []sql.Row
	i             int
	calcFoundRows bool
	found         int64
}

func (it *sortedIter) Next(*sql.Context) (sql.Row, error) {
	if it.i >= len(it.rows) {
		return nil, io.EOF
	}
	it.i++
	return it.rows[it.i-1], nil
}

func (it *sortedIter) Close(ctx *sql.Context) error {
	if it.calcFoundRows {
		ctx.SetLastQueryInfoInt(sql.FoundRows, it.found)
	}
	return nil
}

// keyedRow is a row and its sort keys.
type keyedRow struct {
	row  sql.Row
	seq  int64 // the order it was read in
	keys []sortKey
}

// sortKey is one sort key of a row: a text compared under its field's
// collation (isText), or a value compared by the field's type; nil v and
// !isText is NULL.
type sortKey struct {
	v      interface{}
	text   []byte
	isText bool
}

// compare orders two rows' keys as go-mysql-server's Sorter.Less does
// (its NULL placement and descending keys): -1, 0 or 1.
func (s *keyedSort) compare(ctx *sql.Context, a, b []sortKey) (int, error) {
	for i, f := range s.fields {
		ak, bk := &a[i], &b[i]
		if f.Order == sql.Descending {
			ak, bk = bk, ak
		}
		anull, bnull := ak.v == nil && !ak.isText, bk.v == nil && !bk.isText
		if anull && bnull {
			continue
		} else if anull {
			if f.NullOrdering == sql.NullsFirst {
				return -1, nil
			}
			return 1, nil
		} else if bnull {
			if f.NullOrdering == sql.NullsFirst {
				return 1, nil
			}
			return -1, nil
		}
		var cmp int
		if ak.isText && bk.isText {
			cmp = s.colls[i].Compare(ak.text, bk.text)
		} else {
			if ak.isText || bk.isText {
				// a text key beside a value its type did not make text
				return 0, sql.ErrUnableSort.New()
			}
			c, err := f.Column.Type().Compare(ctx, ak.v, bk.v)
			if err != nil {
				return 0, err
			}
			cmp = c
		}
		if cmp != 0 {
			return cmp, nil
		}
	}
	return 0, nil
}
