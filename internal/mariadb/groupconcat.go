package mariadb

import (
	"container/heap"
	"crypto/sha256"
	"reflect"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// ruleBoundedGroupConcat replaces a GROUP_CONCAT over text by
// boundedGroupConcat, which keeps no more of its group than the result
// can use and reports warning 1260 ("Row N was cut by GROUP_CONCAT()"),
// as MariaDB does: without ORDER BY it stops keeping values once the
// result has group_concat_max_len bytes; with ORDER BY it keeps, of the
// rows seen so far, only those that come first in the result up to
// group_concat_max_len bytes (their sort keys and at most
// group_concat_max_len+1 bytes of each value), sorts them at the end and
// cuts. go-mysql-server's keeps every row of
// the group whole (its input row too) and cuts only at the end (4 GB
// held to return 1024 bytes). Over BLOB or binary values the bytes are
// concatenated as they are and the cut may fall inside a character.

// boundedGroupConcatRule swaps the GROUP_CONCATs it can, only when the
// statement's text names GROUP_CONCAT.
func boundedGroupConcatRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !sqlbackend.QueryContainsFold(ctx, "group_concat") {
		return n, transform.SameTree, nil
	}
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if g, ok := e.(*aggregation.GroupConcat); ok {
			if b := newBoundedGroupConcat(g); b != nil {
				return b, transform.NewTree, nil
			}
		}
		return e, transform.SameTree, nil
	})
}

// boundedGroupConcat is GROUP_CONCAT([DISTINCT] exprs [ORDER BY ...]
// SEPARATOR sep) accumulating at most about maxLen bytes of values. It is
// immutable, safe for concurrent use; each buffer belongs to one group's
// iterator.
type boundedGroupConcat struct {
	*aggregation.GroupConcat
	distinct bool
	sep      string
	maxLen   int
	exprs    []sql.Expression // the values concatenated
	binary   bool             // an argument is BLOB or binary: bytes taken as they are
	keys     []sql.Expression // ORDER BY's expressions, evaluated on the input row
	sortBy   []sql.SortField  // ORDER BY over a kept entry (keys..., value)
}

// newBoundedGroupConcat returns g bounded (nil when go-mysql-server's
// parts cannot be read). go-mysql-server keeps the clause's parts unexported; they
// are read (never written) through reflect.
func newBoundedGroupConcat(g *aggregation.GroupConcat) *boundedGroupConcat {
	v := reflect.ValueOf(g).Elem()
	sf, sep, dist, ml := v.FieldByName("sf"), v.FieldByName("separator"), v.FieldByName("distinct"), v.FieldByName("maxLen")
	if !sf.IsValid() || !sep.IsValid() || !dist.IsValid() || !ml.IsValid() || sf.Kind() != reflect.Slice {
		return nil
	}
	children := g.Children()
	nk := sf.Len()
	if nk > len(children) {
		return nil
	}
	b := &boundedGroupConcat{GroupConcat: g, distinct: dist.String() != "", sep: sep.String(), maxLen: int(ml.Int()),
		keys: children[:nk], exprs: children[nk:]}
	for _, c := range b.exprs {
		if gtypes.IsBlobType(c.Type()) || gtypes.IsBinaryType(c.Type()) {
			b.binary = true
		}
	}
	for i, k := range b.keys {
		f := sf.Index(i)
		order, nulls := f.FieldByName("Order"), f.FieldByName("NullOrdering")
		if !order.IsValid() || !nulls.IsValid() {
			return nil
		}
		col := expression.NewGetField(i, k.Type(), k.String(), k.IsNullable())
		b.sortBy = append(b.sortBy, sql.SortField{Column: col, Column2: col,
			Order: sql.SortOrder(intOf(order)), NullOrdering: sql.NullOrdering(intOf(nulls))})
	}
	return b
}

// intOf is the integer v holds, signed or not.
func intOf(v reflect.Value) int64 {
	switch v.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return int64(v.Uint())
	}
	return v.Int()
}

// NewBuffer implements sql.Aggregation.
func (b *boundedGroupConcat) NewBuffer() (sql.AggregationBuffer, error) {
	return &boundedConcatBuffer{gc: b}, nil
}

// WithChildren implements sql.Expression.
func (b *boundedGroupConcat) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	c, err := b.GroupConcat.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if g, ok := c.(*aggregation.GroupConcat); ok {
		if nb := newBoundedGroupConcat(g); nb != nil {
			return nb, nil
		}
	}
	return c, nil
}

// WithId implements sql.IdExpression.
func (b *boundedGroupConcat) WithId(id sql.ColumnId) sql.IdExpression {
	c := b.GroupConcat.WithId(id)
	if g, ok := c.(*aggregation.GroupConcat); ok {
		if nb := newBoundedGroupConcat(g); nb != nil {
			return nb
		}
	}
	return c
}

// boundedConcatBuffer accumulates one group; not safe for concurrent use.
type boundedConcatBuffer struct {
	gc      *boundedGroupConcat
	buf     strings.Builder
	n       int                   // values appended
	any     bool                  // a value was seen
	cut     int                   // the value that was cut (1-based), 0 while none
	seen    map[[32]byte]struct{} // DISTINCT's values so far (their SHA-256)
	parts   []string
	kept    *keptEntries // with ORDER BY: the entries that can reach the result
	keptLen int          // the length of the values kept
	seq     int          // entries seen
}

// keptEntries are a GROUP_CONCAT ... ORDER BY's entries (keys..., value
// cut to maxLen+1 bytes, arrival number), kept as a heap whose top is the
// entry that comes last in the result (ties in arrival order, as a stable
// sort leaves them), so that the entries past the cut can be dropped as
// they come. Not safe for concurrent use.
type keptEntries struct {
	s *expression.Sorter // s.Rows are the entries
}

func (h *keptEntries) value(i int) string { r := h.s.Rows[i]; return r[len(r)-2].(string) }

// before reports whether entry i comes before entry j in the result.
func (h *keptEntries) before(i, j int) bool {
	if h.s.Less(i, j) {
		return true
	}
	if h.s.Less(j, i) {
		return false
	}
	ri, rj := h.s.Rows[i], h.s.Rows[j]
	return ri[len(ri)-1].(int) < rj[len(rj)-1].(int)
}

func (h *keptEntries) Len() int           { return len(h.s.Rows) }
func (h *keptEntries) Swap(i, j int)      { h.s.Rows[i], h.s.Rows[j] = h.s.Rows[j], h.s.Rows[i] }
func (h *keptEntries) Less(i, j int) bool { return h.before(j, i) } // the last in the result on top
func (h *keptEntries) Push(x any)         { h.s.Rows = append(h.s.Rows, x.(sql.Row)) }
func (h *keptEntries) Pop() any {
	r := h.s.Rows[len(h.s.Rows)-1]
	h.s.Rows = h.s.Rows[:len(h.s.Rows)-1]
	return r
}

// inResultOrder sorts a keptEntries in the result's order.
type inResultOrder struct{ *keptEntries }

func (o inResultOrder) Less(i, j int) bool { return o.before(i, j) }

// Update implements sql.AggregationBuffer.
func (g *boundedConcatBuffer) Update(ctx *sql.Context, row sql.Row) error {
	if g.cut != 0 {
		return nil // the result is complete: later values change nothing
	}
	exprs := g.gc.exprs
	g.parts = g.parts[:0]
	for _, e := range exprs {
		v, err := e.Eval(ctx, row)
		if err != nil {
			return err
		}
		if v == nil {
			return nil
		}
		if bs, ok := v.([]byte); ok && g.gc.binary {
			g.parts = append(g.parts, string(bs))
			continue
		}
		v, _, err = gtypes.LongText.Convert(ctx, v)
		if err != nil {
			return err
		}
		s, err := sql.UnwrapAny(ctx, v)
		if err != nil {
			return err
		}
		str, _ := s.(string)
		g.parts = append(g.parts, str)
	}
	val := strings.Join(g.parts, "")
	if g.gc.distinct {
		if g.seen == nil {
			g.seen = map[[32]byte]struct{}{}
		}
		h := sha256.Sum256([]byte(val))
		if _, ok := g.seen[h]; ok {
			return nil
		}
		g.seen[h] = struct{}{}
	}
	if len(g.gc.keys) == 0 {
		g.add(val)
		return nil
	}
	if len(val) > g.gc.maxLen+1 {
		// The result is cut inside this value wherever it sorts.
		val = strings.Clone(val[:g.gc.maxLen+1])
	}
	e := make(sql.Row, len(g.gc.keys)+2)
	for i, k := range g.gc.keys {
		v, err := k.Eval(ctx, row)
		if err != nil {
			return err
		}
		e[i] = v
	}
	e[len(g.gc.keys)] = val
	e[len(g.gc.keys)+1] = g.seq
	g.seq++
	if g.kept == nil {
		g.kept = &keptEntries{s: &expression.Sorter{SortFields: g.gc.sortBy, Ctx: ctx}}
	}
	h := g.kept
	heap.Push(h, e)
	g.keptLen += len(val)
	// Drop the entry that comes last while the others already pass
	// maxLen: the result is cut before it.
	for n := h.Len(); n > 1; n = h.Len() {
		l := len(h.value(0))
		if g.keptLen-l+(n-2)*len(g.gc.sep) <= g.gc.maxLen {
			break
		}
		heap.Pop(h)
		g.keptLen -= l
	}
	return h.s.LastError
}

// add appends val to the result, noting the cut once it passes maxLen.
func (g *boundedConcatBuffer) add(val string) {
	if g.any {
		g.buf.WriteString(g.gc.sep)
	}
	g.any = true
	g.n++
	g.buf.WriteString(val)
	if g.buf.Len() > g.gc.maxLen {
		g.cut = g.n
		g.seen = nil
	}
}

// Eval implements sql.AggregationBuffer.
func (g *boundedConcatBuffer) Eval(ctx *sql.Context) (interface{}, error) {
	if h := g.kept; h != nil {
		h.s.Ctx = ctx
		sort.Sort(inResultOrder{h})
		if h.s.LastError != nil {
			return nil, h.s.LastError
		}
		for i := range h.s.Rows {
			g.add(h.value(i))
			if g.cut != 0 {
				break
			}
		}
		g.kept = nil
	}
	if !g.any {
		return nil, nil
	}
	s := g.buf.String()
	if g.cut != 0 {
		n := g.gc.maxLen
		for n > 0 && !g.gc.binary && !utf8.RuneStart(s[n]) {
			n-- // not inside a character
		}
		s = s[:n]
		ctx.Warn(errtable.ERCutValueGroupConcat, "Row %d was cut by GROUP_CONCAT()", g.cut)
	}
	return s, nil
}

// Dispose implements sql.Disposable.
func (g *boundedConcatBuffer) Dispose() {}
