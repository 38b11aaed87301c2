package sqlbackend

import (
	"reflect"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// Comparisons that go-mysql-server makes expensive per row.
//
// A date or time column compared with text ('2024-03-01'): go-mysql-server
// converts the text to a time for every row, trying its layouts in turn
// (each failed layout allocates an error). timeLiteralsRule converts such
// text once, when the plan is made: the literal becomes the same time,
// typed DATETIME(6), which is the type go-mysql-server compares the two
// sides in (comparison.castLeftAndRight). Text parseISODate does not take
// is left as it is.
//
// MIN and MAX of a DECIMAL: go-mysql-server compares each row's value
// with the smallest (or largest) so far through the DECIMAL type, which
// rounds both to its scale by printing and parsing them (half of a
// report's time over 5,000 payments). decimalExtremesRule replaces a
// grouped MIN or MAX of a DECIMAL argument by decimalExtreme, whose
// buffer compares two decimals directly; the values are the argument's,
// already of its scale, so the answer is the same.
//
// Both rules are pure functions of the plan; a decimalExtreme is
// immutable and each buffer it makes serves one group, on the goroutine
// of its statement.

const (
	ruleTimeLiterals    analyzer.RuleId = 10440
	ruleDecimalExtremes analyzer.RuleId = 10441
)

func timeLiteralsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		return transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, timeLiteral)
		})
	})
}

// timeLiteral replaces a text literal compared with a date or time by
// that time.
func timeLiteral(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch e.(type) {
	case *expression.Equals, *expression.NullSafeEquals, *expression.LessThan, *expression.LessThanOrEqual,
		*expression.GreaterThan, *expression.GreaterThanOrEqual:
	default:
		return e, transform.SameTree, nil
	}
	ch := e.Children()
	if len(ch) != 2 {
		return e, transform.SameTree, nil
	}
	l, r := ch[0], ch[1]
	var changed bool
	if t, ok := isoLiteral(r); ok && isDateTime(l.Type()) {
		r, changed = t, true
	} else if t, ok := isoLiteral(l); ok && isDateTime(r.Type()) {
		l, changed = t, true
	}
	if !changed {
		return e, transform.SameTree, nil
	}
	ne, err := e.WithChildren(l, r)
	if err != nil {
		return nil, transform.SameTree, err
	}
	return ne, transform.NewTree, nil
}

// isDateTime is true for DATE, DATETIME and TIMESTAMP (not TIME).
func isDateTime(t sql.Type) bool {
	_, ok := t.(sql.DatetimeType)
	return ok
}

// isoLiteral returns a text literal in an ISO date form as a DATETIME(6)
// literal of its time.
func isoLiteral(e sql.Expression) (sql.Expression, bool) {
	lit, ok := e.(*expression.Literal)
	if !ok || !gtypes.IsText(lit.Type()) {
		return nil, false
	}
	s, ok := lit.Value().(string)
	if !ok {
		return nil, false
	}
	t, ok := parseISODate(s)
	if !ok {
		return nil, false
	}
	return &isoTimeLiteral{Literal: expression.NewLiteral(t, gtypes.DatetimeMaxPrecision), text: lit.String()}, true
}

// isoTimeLiteral is the time of a text literal, printed (in EXPLAIN) as
// the text was.
type isoTimeLiteral struct {
	*expression.Literal
	text string
}

// String is the literal's text, quoted.
func (l *isoTimeLiteral) String() string { return l.text }

func decimalExtremesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if _, ok := n.(*plan.GroupBy); !ok {
			return n, transform.SameTree, nil
		}
		return transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				if x, ok := newDecimalExtreme(e); ok {
					return x, transform.NewTree, nil
				}
				return e, transform.SameTree, nil
			})
		})
	})
}

// decimalExtreme is go-mysql-server's grouped MIN or MAX (inner) of a
// DECIMAL argument, with a buffer that compares decimals directly.
type decimalExtreme struct {
	sql.Aggregation
	max bool
}

// newDecimalExtreme wraps e if it is a MIN or MAX without a window whose
// argument is DECIMAL.
func newDecimalExtreme(e sql.Expression) (*decimalExtreme, bool) {
	var max bool
	switch x := e.(type) {
	case *aggregation.Min:
		if x.Window() != nil {
			return nil, false
		}
	case *aggregation.Max:
		if x.Window() != nil {
			return nil, false
		}
		max = true
	default:
		return nil, false
	}
	agg := e.(sql.Aggregation)
	ch := agg.Children()
	if len(ch) != 1 || !gtypes.IsDecimal(ch[0].Type()) {
		return nil, false
	}
	return &decimalExtreme{Aggregation: agg, max: max}, true
}

var _ sql.Aggregation = (*decimalExtreme)(nil)

func (x *decimalExtreme) rewrap(e sql.Expression) sql.Expression {
	if nx, ok := newDecimalExtreme(e); ok {
		return nx
	}
	return e
}

// WithChildren keeps the replacement when the analyzer rebuilds the tree.
func (x *decimalExtreme) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := x.Aggregation.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return x.rewrap(e), nil
}

// WithId implements sql.IdExpression.
func (x *decimalExtreme) WithId(id sql.ColumnId) sql.IdExpression {
	e := x.Aggregation.WithId(id)
	if r, ok := x.rewrap(e).(sql.IdExpression); ok {
		return r
	}
	return e
}

// WithWindow returns go-mysql-server's windowed function (its window
// function compares as before).
func (x *decimalExtreme) WithWindow(w *sql.WindowDefinition) sql.WindowAdaptableExpression {
	return x.Aggregation.WithWindow(w)
}

// NewBuffer implements sql.Aggregation.
func (x *decimalExtreme) NewBuffer() (sql.AggregationBuffer, error) {
	c, err := transform.Clone(x.Aggregation.Children()[0])
	if err != nil {
		return nil, err
	}
	return &extremeBuffer{expr: c, max: x.max}, nil
}

// extremeBuffer keeps the smallest (or largest) value of its group.
type extremeBuffer struct {
	expr sql.Expression
	max  bool
	val  interface{}
}

// Update takes a row's value if it is smaller (larger) than the kept one;
// NULL is skipped.
func (b *extremeBuffer) Update(ctx *sql.Context, row sql.Row) error {
	v, err := b.expr.Eval(ctx, row)
	if err != nil {
		return err
	}
	if reflect.TypeOf(v) == nil {
		return nil
	}
	if b.val == nil {
		b.val = v
		return nil
	}
	var cmp int
	d1, ok1 := v.(decimal.Decimal)
	d2, ok2 := b.val.(decimal.Decimal)
	if ok1 && ok2 {
		cmp = d1.Cmp(d2)
	} else if cmp, err = b.expr.Type().Compare(ctx, v, b.val); err != nil {
		return err
	}
	if (b.max && cmp > 0) || (!b.max && cmp < 0) {
		b.val = v
	}
	return nil
}

// Eval returns the kept value (NULL if none).
func (b *extremeBuffer) Eval(ctx *sql.Context) (interface{}, error) { return b.val, nil }

// Dispose implements sql.Disposable.
func (b *extremeBuffer) Dispose() { expression.Dispose(b.expr) }

// isoSortKeysRule wraps each ORDER BY key (of a Sort, a TopN and a
// window's PARTITION BY and ORDER BY) whose type is DATE, DATETIME or
// TIMESTAMP in isoDate: such a key can hold text (DATE() returns its date
// as text, and a derived table's column keeps it), which the sort would
// parse at every comparison, with the failed layouts' errors; isoDate
// hands it over as the time it stands for, which compares the same. The
// rows the sort returns are unchanged (the keys are evaluated apart).
const ruleISOSortKeys analyzer.RuleId = 10442

func isoSortKeysRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch x := n.(type) {
		case *plan.Sort:
			if f, ok := isoSortFields(x.SortFields); ok {
				return plan.NewSort(f, x.Child), transform.NewTree, nil
			}
		case *plan.TopN:
			if f, ok := isoSortFields(x.Fields); ok {
				nn := *x
				nn.Fields = f
				return &nn, transform.NewTree, nil
			}
		case *plan.Window:
			return transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				return transform.Expr(e, isoWindowKeys)
			})
		}
		return n, transform.SameTree, nil
	})
}

// isoWindowKeys gives a window function's PARTITION BY and ORDER BY keys
// isoDate.
func isoWindowKeys(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	wa, ok := e.(sql.WindowAdaptableExpression)
	if !ok {
		return e, transform.SameTree, nil
	}
	w := wa.Window()
	if w == nil {
		return e, transform.SameTree, nil
	}
	f, changed := isoSortFields(w.OrderBy)
	part := w.PartitionBy
	copied := false
	for i, p := range w.PartitionBy {
		if k, ok := isoKey(p); ok {
			if !copied {
				part, copied = append([]sql.Expression(nil), w.PartitionBy...), true
			}
			part[i], changed = k, true
		}
	}
	if !changed {
		return e, transform.SameTree, nil
	}
	if f == nil {
		f = w.OrderBy
	}
	nw, err := w.FromExpressions(append(f.ToExpressions(), part...))
	if err != nil {
		return nil, transform.SameTree, err
	}
	return wa.WithWindow(nw), transform.NewTree, nil
}

// isoSortFields returns fields with their date keys in isoDate; ok is
// false when there is none to wrap.
func isoSortFields(fields sql.SortFields) (sql.SortFields, bool) {
	var out sql.SortFields
	for i, f := range fields {
		k, ok := isoKey(f.Column)
		if !ok {
			continue
		}
		if out == nil {
			out = append(sql.SortFields(nil), fields...)
		}
		out[i].Column = k
	}
	return out, out != nil
}

// isoKey returns a key of a date type in isoDate.
func isoKey(e sql.Expression) (sql.Expression, bool) {
	if _, done := e.(*isoDate); done || !isDateTime(e.Type()) {
		return nil, false
	}
	return &isoDate{e}, true
}
