package mariadb

import (
	"github.com/handlerdb/handlerdb/internal/sqlbackend"

	"reflect"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/types"
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

func timeLiteralsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, timeLiteral)
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

func fastCasesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch x := e.(type) {
		case *expression.Case:
			return newFastCase(x), transform.NewTree, nil
		case *function.DateFormat:
			if f, ok := newFastDateFormat(x); ok {
				return f, transform.NewTree, nil
			}
		case *oddExpr:
			if df, ok := x.Expression.(*function.DateFormat); ok && x.op == oddFormat {
				if f, ok := newFastDateFormat(df); ok {
					return &oddExpr{Expression: f, op: x.op}, transform.NewTree, nil
				}
			}
		case *expression.GreaterThan, *expression.GreaterThanOrEqual, *expression.LessThan,
			*expression.LessThanOrEqual, *expression.Equals:
			if d, ok := newDecimalCmp(e); ok {
				return d, transform.NewTree, nil
			}
		}
		return e, transform.SameTree, nil
	})
}

// fastCase is a go-mysql-server CASE evaluated as its Eval does.
type fastCase struct {
	*expression.Case
	typ   sql.Type
	dec   sql.DecimalType // typ, when a DECIMAL
	conds []sql.Expression
	// lits holds the converted value of each literal branch (the
	// branches, then ELSE); ok marks those.
	lits []interface{}
	ok   []bool
}

func newFastCase(c *expression.Case) *fastCase {
	f := &fastCase{Case: c, typ: c.Type()}
	f.dec, _ = f.typ.(sql.DecimalType)
	values := make([]sql.Expression, 0, len(c.Branches)+1)
	for _, b := range c.Branches {
		cond := b.Cond
		if c.Expr != nil {
			cond = expression.NewEquals(c.Expr, b.Cond)
		}
		f.conds = append(f.conds, cond)
		values = append(values, b.Value)
	}
	if c.Else != nil {
		values = append(values, c.Else)
	}
	f.lits = make([]interface{}, len(values))
	f.ok = make([]bool, len(values))
	for i, v := range values {
		if lit, ok := v.(*expression.Literal); ok {
			f.lits[i], f.ok[i] = f.convert(nil, lit.Value()), true
		}
	}
	return f
}

// convert is the value as CASE returns it: converted to the CASE's type,
// or as it is when it does not convert.
func (f *fastCase) convert(ctx *sql.Context, v interface{}) interface{} {
	if d, ok := v.(decimal.Decimal); ok && f.dec != nil && d.Exponent() == -int32(f.dec.Scale()) && d.NumDigits() <= int(f.dec.Precision()) {
		return d
	}
	if ret, _, err := f.typ.Convert(ctx, v); err == nil {
		return ret
	}
	return v
}

// Eval returns the value of the first branch whose condition holds,
// else ELSE's, else NULL.
func (f *fastCase) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	for i, b := range f.Branches {
		res, err := sql.EvaluateCondition(ctx, f.conds[i], row)
		if err != nil {
			return nil, err
		}
		if sql.IsTrue(res) {
			return f.value(ctx, i, b.Value, row)
		}
	}
	if f.Else != nil {
		return f.value(ctx, len(f.Branches), f.Else, row)
	}
	return nil, nil
}

func (f *fastCase) value(ctx *sql.Context, i int, e sql.Expression, row sql.Row) (interface{}, error) {
	if f.ok[i] {
		return f.lits[i], nil
	}
	v, err := e.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	return f.convert(ctx, v), nil
}

// Type is the CASE's type.
func (f *fastCase) Type() sql.Type { return f.typ }

// WithChildren keeps the replacement when the tree is rebuilt.
func (f *fastCase) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	c, err := f.Case.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if cc, ok := c.(*expression.Case); ok {
		return newFastCase(cc), nil
	}
	return c, nil
}

// decimalCmp is a comparison (orig) of a DECIMAL expression with a
// literal, as a decimal.
type decimalCmp struct {
	sql.Expression
	col     sql.Expression
	lit     decimal.Decimal
	litLeft bool
	holds   func(cmp int) bool
}

func newDecimalCmp(e sql.Expression) (*decimalCmp, bool) {
	ch := e.Children()
	if len(ch) != 2 {
		return nil, false
	}
	d := &decimalCmp{Expression: e, col: ch[0]}
	lit, ok := decimalLiteral(ch[1], ch[0].Type())
	if !ok {
		if lit, ok = decimalLiteral(ch[0], ch[1].Type()); !ok {
			return nil, false
		}
		d.col, d.litLeft = ch[1], true
	}
	d.lit = lit
	switch e.(type) {
	case *expression.GreaterThan:
		d.holds = func(c int) bool { return c > 0 }
	case *expression.GreaterThanOrEqual:
		d.holds = func(c int) bool { return c >= 0 }
	case *expression.LessThan:
		d.holds = func(c int) bool { return c < 0 }
	case *expression.LessThanOrEqual:
		d.holds = func(c int) bool { return c <= 0 }
	case *expression.Equals:
		d.holds = func(c int) bool { return c == 0 }
	default:
		return nil, false
	}
	return d, true
}

// decimalLiteral returns an integer literal, or a decimal literal of at
// most t's scale, compared with a value of the DECIMAL type t, as a
// decimal.
func decimalLiteral(e sql.Expression, t sql.Type) (decimal.Decimal, bool) {
	dt, ok := t.(sql.DecimalType)
	if !ok || !gtypes.IsDecimal(t) {
		return decimal.Decimal{}, false
	}
	lit, ok := e.(*expression.Literal)
	if !ok {
		return decimal.Decimal{}, false
	}
	switch v := lit.Value().(type) {
	case decimal.Decimal:
		if -v.Exponent() <= int32(dt.Scale()) {
			return v, true
		}
	case int8, int16, int32, int64, uint8, uint16, uint32:
		n, _ := smallInt(v)
		return decimal.NewFromInt(n), true
	}
	return decimal.Decimal{}, false
}

// Eval compares a decimal value with the literal; anything else goes to
// the original comparison.
func (d *decimalCmp) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := d.col.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	x, ok := v.(decimal.Decimal)
	if !ok {
		return d.Expression.Eval(ctx, row)
	}
	c := x.Cmp(d.lit)
	if d.litLeft {
		c = -c
	}
	return d.holds(c), nil
}

// WithChildren returns the original comparison over the new children,
// compared as a decimal again if it still can be.
func (d *decimalCmp) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := d.Expression.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if nd, ok := newDecimalCmp(e); ok {
		return nd, nil
	}
	return e, nil
}

// fastDateFormat is DATE_FORMAT with a constant format whose specifiers
// formatOddDate knows (oddate.go, MariaDB's words and digits): a
// date-time value is written by that formatter; go-mysql-server's
// compiled the format anew for every row (a third of a report that
// groups rentals by weekday). Any other value (text, the zero date, an
// OddDate, which oddExpr handles) goes to go-mysql-server's DATE_FORMAT.
// fastCasesRule installs it, also inside the oddExpr that wraps a
// DATE_FORMAT of a date. Immutable, safe for concurrent use.
type fastDateFormat struct {
	*function.DateFormat
	format string
}

// newFastDateFormat returns the replacement of f, if its format is a
// text literal without week specifiers.
func newFastDateFormat(f *function.DateFormat) (*fastDateFormat, bool) {
	ch := f.Children()
	if len(ch) != 2 {
		return nil, false
	}
	lit, ok := ch[1].(*expression.Literal)
	if !ok {
		return nil, false
	}
	s, ok := lit.Value().(string)
	if !ok {
		return nil, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '%' {
			i++
			if i == len(s) {
				return nil, false // a lone % at the end: go-mysql-server's error
			}
			switch s[i] {
			case 'U', 'u', 'V', 'v', 'X', 'x':
				return nil, false
			}
		}
	}
	return &fastDateFormat{DateFormat: f, format: s}, true
}

// Eval formats a date-time value; anything else goes to go-mysql-server.
func (f *fastDateFormat) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := f.Children()[0].Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, nil
	}
	tm, ok := v.(time.Time)
	if !ok || tm.Equal(sqlbackend.ZeroTime) {
		return f.DateFormat.Eval(ctx, row)
	}
	tm = tm.UTC()
	y, mo, d := tm.Date()
	h, mi, s := tm.Clock()
	if y < 1 || y > 9999 {
		return f.DateFormat.Eval(ctx, row)
	}
	out, ok := sqlbackend.FormatOddDate(sqlbackend.OddDate{P: types.PackDateTime(y, int(mo), d, h, mi, s, tm.Nanosecond()/1000)}, f.format)
	if !ok {
		return f.DateFormat.Eval(ctx, row)
	}
	return out, nil
}

// WithChildren keeps the replacement when it still applies.
func (f *fastDateFormat) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := f.DateFormat.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if df, ok := e.(*function.DateFormat); ok {
		if nf, ok := newFastDateFormat(df); ok {
			return nf, nil
		}
	}
	return e, nil
}
