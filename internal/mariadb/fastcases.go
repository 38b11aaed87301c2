package mariadb

import (
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// CASE and DECIMAL comparisons, per row.
//
// go-mysql-server's CASE works out its type from its branches and, for a
// simple CASE, builds its comparisons anew for every row, then converts
// the chosen value to that type; a DECIMAL's conversion prints and
// parses the value and raises ten to a power with big.Int to check its
// bounds (a third of a report of CASE aggregates). fastCase keeps the
// type and the comparisons, converts literal values once, and takes a
// decimal already of the type's scale and within its precision as it
// is (what the conversion gives back). A comparison of a DECIMAL with
// an integer literal, or a decimal literal of no more digits of scale,
// converts both sides to decimals for every row; decimalCmp compares
// the value with the literal, as a decimal, directly.
//
// fastCasesRule runs last (in analyzer.OnceAfterAll): HandlerDB's
// earlier rules (decimalagg.go, temporal.go) look for *expression.Case.
// Both expressions are immutable and safe for concurrent use.

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
