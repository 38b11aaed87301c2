package sqlbackend

import (
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// ruleBoundedGroupConcat replaces a GROUP_CONCAT without ORDER BY over
// text by boundedGroupConcat, which stops keeping values once the result
// has group_concat_max_len bytes and reports warning 1260 ("Row N was cut
// by GROUP_CONCAT()"), as MariaDB does. go-mysql-server's keeps every
// row of the group and cuts only at the end (4 GB held to return 1024
// bytes). With ORDER BY, or over BLOBs, go-mysql-server's stays.
const ruleBoundedGroupConcat analyzer.RuleId = 10383

// boundedGroupConcatRule swaps the GROUP_CONCATs it can, only when the
// statement's text names GROUP_CONCAT.
func boundedGroupConcatRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !containsFold(ctx.Query(), "group_concat") {
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

// boundedGroupConcat is GROUP_CONCAT([DISTINCT] exprs SEPARATOR sep)
// without ORDER BY, accumulating at most maxLen bytes. It is immutable,
// safe for concurrent use; each buffer belongs to one group's iterator.
type boundedGroupConcat struct {
	*aggregation.GroupConcat
	distinct bool
	sep      string
	maxLen   int
}

// newBoundedGroupConcat returns g bounded, or nil when g has an ORDER BY
// or a BLOB argument. go-mysql-server keeps the clause's parts unexported;
// they are read (never written) through reflect.
func newBoundedGroupConcat(g *aggregation.GroupConcat) *boundedGroupConcat {
	v := reflect.ValueOf(g).Elem()
	sf, sep, dist, ml := v.FieldByName("sf"), v.FieldByName("separator"), v.FieldByName("distinct"), v.FieldByName("maxLen")
	if !sf.IsValid() || !sep.IsValid() || !dist.IsValid() || !ml.IsValid() || sf.Len() != 0 {
		return nil
	}
	for _, c := range g.Children() {
		if gtypes.IsBlobType(c.Type()) || gtypes.IsBinaryType(c.Type()) {
			return nil
		}
	}
	return &boundedGroupConcat{GroupConcat: g, distinct: dist.String() != "", sep: sep.String(), maxLen: int(ml.Int())}
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
	gc    *boundedGroupConcat
	buf   strings.Builder
	n     int             // values appended
	any   bool            // a value was seen
	cut   int             // the value that was cut (1-based), 0 while none
	seen  map[string]bool // DISTINCT's values so far
	parts []string
}

// Update implements sql.AggregationBuffer.
func (g *boundedConcatBuffer) Update(ctx *sql.Context, row sql.Row) error {
	if g.cut != 0 {
		return nil // the result is complete: later values change nothing
	}
	exprs := g.gc.Children()
	g.parts = g.parts[:0]
	for _, e := range exprs {
		v, err := e.Eval(ctx, row)
		if err != nil {
			return err
		}
		if v == nil {
			return nil
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
			g.seen = map[string]bool{}
		}
		if g.seen[val] {
			return nil
		}
		g.seen[val] = true
	}
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
	return nil
}

// Eval implements sql.AggregationBuffer.
func (g *boundedConcatBuffer) Eval(ctx *sql.Context) (interface{}, error) {
	if !g.any {
		return nil, nil
	}
	s := g.buf.String()
	if g.cut != 0 {
		n := g.gc.maxLen
		for n > 0 && !utf8.RuneStart(s[n]) {
			n-- // not inside a character
		}
		s = s[:n]
		ctx.Warn(1260, "Row %d was cut by GROUP_CONCAT()", g.cut)
	}
	return s, nil
}

// Dispose implements sql.Disposable.
func (g *boundedConcatBuffer) Dispose() {}
