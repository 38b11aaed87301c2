package mariadb

import (
	"fmt"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// TIME(x), TIMESTAMP(x), TIMESTAMP(x, t), ADDTIME(x, t) and SUBTIME(x,
// t), as MariaDB has them. go-mysql-server's TIMESTAMP(x) was text (a client
// read a string, not a DATETIME), TIMESTAMP with two arguments was error
// 1582, and ADDTIME and SUBTIME did not exist (1305).
//
//   - TIMESTAMP(x) is CAST(x AS DATETIME(n)), n the digits of x;
//   - TIMESTAMP(x, t) is that plus the TIME t, a DATETIME with the most
//     digits of the two;
//   - ADDTIME and SUBTIME add or take away the TIME t: of a TIME a
//     TIME(n) (within -838:59:59.999999 to 838:59:59.999999), of a DATE,
//     DATETIME or TIMESTAMP a DATETIME(n); text is read as a date and
//     time or a time, and the answer is text with six digits, as
//     MariaDB's.

// timeFunctions are the functions of this file, overriding
// go-mysql-server's of the same names.
var timeFunctions = []sql.Function{
	sql.FunctionN{Name: "timestamp", Fn: newTimestamp},
	sql.Function2{Name: "addtime", Fn: func(x, t sql.Expression) sql.Expression { return newAddTime(x, t, false) }},
	sql.Function2{Name: "subtime", Fn: func(x, t sql.Expression) sql.Expression { return newAddTime(x, t, true) }},
	sql.Function1{Name: "time", Fn: newTimeOf},
}

// newTimeOf builds TIME(x): CAST(x AS TIME(n)), n the digits of x, as
// MariaDB's (go-mysql-server's was text: a TIME(3) printed six digits,
// a DECIMAL none, text that is no time 00:00:00).
func newTimeOf(x sql.Expression) sql.Expression {
	return newCastTime(expression.NewConvert(x, expression.ConvertToTime), timeDigitsOf(x))
}

// newTimestamp builds TIMESTAMP(x) or TIMESTAMP(x, t).
func newTimestamp(args ...sql.Expression) (sql.Expression, error) {
	switch len(args) {
	case 1:
		// (a DATETIME's digits are the cast's length)
		return expression.NewConvertWithLengthAndScale(args[0], expression.ConvertToDatetime, int(timeDigitsOf(args[0])), 0), nil
	case 2:
		return &addTime{args: [2]sql.Expression{args[0], args[1]}, name: "timestamp", asDatetime: true}, nil
	}
	return nil, sql.ErrInvalidArgumentNumber.New("TIMESTAMP", "1 or 2", len(args))
}

// timeDigitsOf is timeDigits of a resolved expression, 6 (any) of one
// not yet resolved.
func timeDigitsOf(e sql.Expression) uint8 {
	if !e.Resolved() {
		return 6
	}
	return timeDigits(e)
}

func newAddTime(x, t sql.Expression, sub bool) sql.Expression {
	name := "addtime"
	if sub {
		name = "subtime"
	}
	return &addTime{args: [2]sql.Expression{x, t}, name: name, sub: sub}
}

// addTime is TIMESTAMP(x, t), ADDTIME(x, t) or SUBTIME(x, t). Immutable;
// safe for concurrent use.
type addTime struct {
	args       [2]sql.Expression
	name       string
	sub        bool // SUBTIME: t is taken away
	asDatetime bool // TIMESTAMP: x is read as a DATETIME whatever its type
}

var _ sql.FunctionExpression = (*addTime)(nil)

// resultKind is what the function returns for x's type.
type resultKind uint8

const (
	resultDatetime resultKind = iota
	resultTime
	resultText // x is text: read as a date and time or a time, answered as text
)

func (a *addTime) kind() resultKind {
	if a.asDatetime {
		return resultDatetime
	}
	t := a.args[0].Type()
	switch {
	case isDateType(t):
		return resultDatetime
	case t.Type() == sqltypes.Time:
		return resultTime
	}
	return resultText
}

// digits is the most digits of the two arguments.
func (a *addTime) digits() uint8 {
	return max(timeDigitsOf(a.args[0]), timeDigitsOf(a.args[1]))
}

// FunctionName implements sql.FunctionExpression.
func (a *addTime) FunctionName() string { return a.name }

// Description implements sql.FunctionExpression.
func (a *addTime) Description() string { return "adds or subtracts a time." }

func (a *addTime) String() string { return fmt.Sprintf("%s(%s, %s)", a.name, a.args[0], a.args[1]) }

// Type is DATETIME(n), TIME(n) or text, by the first argument's type.
func (a *addTime) Type() sql.Type {
	switch a.kind() {
	case resultDatetime:
		return sqlbackend.OddTypeOf(gtypes.MustCreateDatetimeType(sqltypes.Datetime, int(a.digits())))
	case resultTime:
		return sqlbackend.TimeType{TimeType: gtypes.Time, Scale: a.digits()}
	}
	return gtypes.LongText
}

// IsNullable implements sql.Expression.
func (a *addTime) IsNullable() bool { return true }

// Resolved implements sql.Expression.
func (a *addTime) Resolved() bool { return a.args[0].Resolved() && a.args[1].Resolved() }

// Children implements sql.Expression.
func (a *addTime) Children() []sql.Expression { return a.args[:] }

// WithChildren implements sql.Expression.
func (a *addTime) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(a, len(children), 2)
	}
	out := *a
	out.args = [2]sql.Expression{children[0], children[1]}
	return &out, nil
}

// CollationCoercibility implements sql.CollationCoercible.
func (a *addTime) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// maxTimeSpan is 838:59:59.999999, the TIME bound.
const maxTimeSpan = gtypes.Timespan(maxTimeMicros)

// Eval adds (or takes away) the TIME t.
func (a *addTime) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	x, err := a.args[0].Eval(ctx, row)
	if err != nil || x == nil {
		return nil, err
	}
	tv, err := a.args[1].Eval(ctx, row)
	if err != nil || tv == nil {
		return nil, err
	}
	delta, ok := timeOf(ctx, tv)
	if !ok {
		return nil, nil
	}
	if a.sub {
		delta = -delta
	}
	kind := a.kind()
	digits := a.digits()
	if kind == resultText {
		if digits > 0 {
			digits = 6 // text has any number of digits: MariaDB prints six
		}
		if span, ok := timeOf(ctx, x); ok && !looksLikeDate(x) {
			return formatSpan(clampSpan(ctx, span+delta, digits), digits), nil
		}
	}
	if kind == resultTime {
		span, ok := timeOf(ctx, x)
		if !ok {
			return nil, nil
		}
		return truncSpan(clampSpan(ctx, span+delta, digits), digits), nil
	}
	dt, ok := a.datetimeOf(ctx, x)
	if !ok {
		return nil, nil
	}
	out := dt.Add(time.Duration(delta) * time.Microsecond)
	if out.Year() < 1 || out.Year() > 9999 {
		return nil, nil
	}
	unit := time.Second
	for range digits {
		unit /= 10
	}
	out = out.Truncate(unit)
	if kind == resultText {
		if digits == 0 {
			return out.Format("2006-01-02 15:04:05"), nil
		}
		return out.Format("2006-01-02 15:04:05.000000"), nil
	}
	return out, nil
}

// timeOf reads v as a TIME (timeValue; go-mysql-server's TIME for a
// number); false when it is none.
func timeOf(ctx *sql.Context, v interface{}) (gtypes.Timespan, bool) {
	ts, ok, known := timeValue(ctx, v)
	if known {
		return ts, ok
	}
	ts, err := gtypes.Time.ConvertToTimespan(v)
	return ts, err == nil
}

// datetimeOf reads v as a DATETIME; false when it is none or an odd
// date (a zero part), which has no instant to add to.
func (a *addTime) datetimeOf(ctx *sql.Context, v interface{}) (time.Time, bool) {
	if t, ok := v.(time.Time); ok {
		return t, true
	}
	out, _, err := gtypes.DatetimeMaxPrecision.Convert(ctx, v)
	if err != nil {
		ctx.Warn(mysql.ERTruncatedWrongValue, "Incorrect datetime value: '%v'", v)
		return time.Time{}, false
	}
	t, ok := out.(time.Time)
	return t, ok
}

// looksLikeDate reports whether text holds a date part (a '-' or '/'
// before any ':'), so that ADDTIME reads it as a date and time.
func looksLikeDate(v interface{}) bool {
	s, ok := sqlbackend.BytesOf(v)
	if !ok {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ':':
			return false
		case '-', '/':
			return i > 0
		}
	}
	return false
}

// clampSpan keeps a TIME within its bounds, with MariaDB's warning 1292
// when it cuts.
// (the value printed with the result's digits).
func clampSpan(ctx *sql.Context, s gtypes.Timespan, digits uint8) gtypes.Timespan {
	c := min(max(s, -maxTimeSpan), maxTimeSpan)
	if c != s {
		ctx.Warn(mysql.ERTruncatedWrongValue, "Truncated incorrect time value: '%s'", formatSpan(s, digits))
	}
	return c
}

// truncSpan cuts a TIME to digits fractional digits.
func truncSpan(s gtypes.Timespan, digits uint8) gtypes.Timespan {
	unit := int64(1)
	for range 6 - int(digits) {
		unit *= 10
	}
	return gtypes.Timespan(int64(s) / unit * unit)
}

// formatSpan prints a TIME as [-]H:MM:SS.ffffff with digits digits.
func formatSpan(s gtypes.Timespan, digits uint8) string {
	return string(types.AppendFormat(nil, &types.Type{Kind: types.Time, Scale: digits}, types.Value{I: int64(truncSpan(s, digits))}))
}
