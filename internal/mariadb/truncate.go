package mariadb

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// TRUNCATE(x, d), which go-mysql-server lacks: x cut (toward zero) to d
// digits after the point, or -d digits before it. As in MySQL the result
// has x's kind: DECIMAL with d digits of scale (d a constant, else x's
// scale), an integer of x's type, or DOUBLE for anything else. A
// truncateFunc is immutable and safe for concurrent use.

// withTruncate registers TRUNCATE in a's function catalog and returns a.
func withTruncate(a *analyzer.Analyzer) *analyzer.Analyzer {
	a.Catalog.RegisterFunction(sql.NewEmptyContext(), sql.Function2{Name: "truncate", Fn: newTruncate})
	return a
}

type truncateFunc struct {
	expression.BinaryExpressionStub
}

var _ sql.FunctionExpression = (*truncateFunc)(nil)

func newTruncate(x, d sql.Expression) sql.Expression {
	if xt, ok := safeType(x); ok {
		switch {
		case isYear(xt) || xt.Type() == sqltypes.Date:
			// a DATE's number (MariaDB), not its Unix seconds
			x = numberOf(x)
		case xt.Type() == sqltypes.Time || xt.Type() == sqltypes.Datetime || xt.Type() == sqltypes.Timestamp:
			return &temporalTruncate{truncateFunc{expression.BinaryExpressionStub{LeftChild: x, RightChild: d}}}
		}
	}
	return &truncateFunc{expression.BinaryExpressionStub{LeftChild: x, RightChild: d}}
}

// temporalTruncate is TRUNCATE of a TIME, DATETIME or TIMESTAMP: the
// value with its fraction cut to d digits, of the same kind, as MariaDB
// computes it (go-mysql-server's read a TIME as no number and failed the
// statement, and a DATETIME as its Unix seconds).
type temporalTruncate struct {
	truncateFunc
}

// scale is the result's fractional digits: d (0 to 6) when constant,
// even above x's (MariaDB: TRUNCATE of a DATETIME to 2 prints .00), else
// x's.
func (t *temporalTruncate) scale() int {
	if d, ok := t.constDigits(); ok {
		return int(min(max(d, 0), 6))
	}
	if s := temporalScale(t.LeftChild.Type()); s >= 0 {
		return s
	}
	return 6
}

// Type is x's kind with the result's digits.
func (t *temporalTruncate) Type() sql.Type {
	if t.LeftChild.Type().Type() == sqltypes.Time {
		return sqlbackend.TimeType{TimeType: gmstypes.Time, Scale: uint8(t.scale())}
	}
	return gmstypes.MustCreateDatetimeType(sqltypes.Datetime, t.scale())
}

// WithChildren implements sql.Expression.
func (t *temporalTruncate) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(t, len(children), 2)
	}
	return &temporalTruncate{truncateFunc{expression.BinaryExpressionStub{LeftChild: children[0], RightChild: children[1]}}}, nil
}

// Eval cuts the fraction (toward zero) to d digits.
func (t *temporalTruncate) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	x, d, err := t.operands(ctx, row)
	if err != nil || x == nil {
		return nil, err
	}
	d = min(max(d, 0), 6)
	unit := int64(math.Pow10(int(6 - d))) // microseconds
	switch v := x.(type) {
	case gmstypes.Timespan:
		us := int64(v)
		return gmstypes.Timespan(us - us%unit), nil
	case time.Time:
		return v.Truncate(time.Duration(unit) * time.Microsecond), nil
	}
	return x, nil
}

// FunctionName implements sql.FunctionExpression.
func (t *truncateFunc) FunctionName() string { return "truncate" }

// Description implements sql.FunctionExpression.
func (t *truncateFunc) Description() string {
	return "truncates the number to d decimal places."
}

func (t *truncateFunc) String() string {
	return fmt.Sprintf("truncate(%s,%s)", t.LeftChild, t.RightChild)
}

// constDigits is d when it is a constant.
func (t *truncateFunc) constDigits() (int64, bool) {
	lit, ok := t.RightChild.(*expression.Literal)
	if !ok || lit.Value() == nil {
		return 0, false
	}
	f, _, err := gmstypes.Float64.Convert(context.Background(), lit.Value())
	if err != nil {
		return 0, false
	}
	return int64(math.Round(f.(float64))), true
}

// Type implements sql.Expression.
func (t *truncateFunc) Type() sql.Type {
	xt := t.LeftChild.Type()
	if dt, ok := xt.(sql.DecimalType); ok {
		intDigits := int64(dt.Precision()) - int64(dt.Scale())
		scale := int64(dt.Scale())
		if d, ok := t.constDigits(); ok {
			scale = max(0, min(d, gmstypes.DecimalTypeMaxScale))
		}
		prec := max(1, min(intDigits+scale, gmstypes.DecimalTypeMaxPrecision))
		if scale > prec {
			scale = prec
		}
		return gmstypes.MustCreateDecimalType(uint8(prec), uint8(scale))
	}
	if gmstypes.IsInteger(xt) {
		return xt
	}
	return gmstypes.Float64
}

// IsNullable implements sql.Expression.
func (t *truncateFunc) IsNullable() bool { return true }

// WithChildren implements sql.Expression.
func (t *truncateFunc) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(t, len(children), 2)
	}
	return newTruncate(children[0], children[1]), nil
}

// operands evaluates x and d (rounded to an integer); x is nil when
// either is NULL.
func (t *truncateFunc) operands(ctx *sql.Context, row sql.Row) (x interface{}, d int64, err error) {
	x, err = t.LeftChild.Eval(ctx, row)
	if err != nil || x == nil {
		return nil, 0, err
	}
	dv, err := t.RightChild.Eval(ctx, row)
	if err != nil || dv == nil {
		return nil, 0, err
	}
	df, _, err := gmstypes.Float64.Convert(ctx, dv)
	if err != nil {
		return nil, 0, err
	}
	return x, int64(math.Round(df.(float64))), nil
}

// Eval implements sql.Expression.
func (t *truncateFunc) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	x, d, err := t.operands(ctx, row)
	if err != nil || x == nil {
		return nil, err
	}
	typ := t.Type()
	switch {
	case gmstypes.IsDecimal(typ):
		v, err := gmstypes.InternalDecimalType.ConvertNoBoundsCheck(x)
		if err != nil {
			return nil, err
		}
		return truncateDecimal(v, d).Round(int32(typ.(sql.DecimalType).Scale())), nil
	case gmstypes.IsInteger(typ):
		if d >= 0 {
			v, _, err := typ.Convert(ctx, x)
			return v, err
		}
		if gmstypes.IsUnsigned(typ) {
			v, _, err := gmstypes.Uint64.Convert(ctx, x)
			if err != nil {
				return nil, err
			}
			u := v.(uint64)
			if d < -19 {
				u = 0
			} else {
				p := uint64(math.Pow10(int(-d)))
				u = u / p * p
			}
			out, _, err := typ.Convert(ctx, u)
			return out, err
		}
		v, _, err := gmstypes.Int64.Convert(ctx, x)
		if err != nil {
			return nil, err
		}
		i := v.(int64)
		if d < -18 {
			i = 0
		} else {
			p := int64(math.Pow10(int(-d)))
			i = i / p * p
		}
		out, _, err := typ.Convert(ctx, i)
		return out, err
	}
	fv, _, err := gmstypes.Float64.Convert(ctx, x)
	if err != nil {
		return nil, err
	}
	return truncateFloat(fv.(float64), d), nil
}

// truncateDecimal cuts v toward zero to d digits after the point (d < 0:
// before it).
func truncateDecimal(v decimal.Decimal, d int64) decimal.Decimal {
	if d >= 0 {
		return v.Truncate(int32(min(d, math.MaxInt32)))
	}
	if d < -80 {
		return decimal.Zero
	}
	return v.Shift(int32(d)).Truncate(0).Shift(int32(-d))
}

// truncateFloat cuts f as MySQL's my_double_round does with truncate set.
func truncateFloat(f float64, d int64) float64 {
	d = max(min(d, 400), -400)
	if d < 0 {
		p := math.Pow10(int(-d))
		if math.IsInf(p, 0) {
			return 0
		}
		if f >= 0 {
			return math.Floor(f/p) * p
		}
		return math.Ceil(f/p) * p
	}
	p := math.Pow10(int(d))
	if math.IsInf(f*p, 0) {
		return f
	}
	if f >= 0 {
		return math.Floor(f*p) / p
	}
	return math.Ceil(f*p) / p
}
