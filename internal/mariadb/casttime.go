package mariadb

import (
	"time"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// castTimeRule gives CAST(x AS TIME) of text, of a date and time, of a
// TIME (to the cast's digits) or of a parameter MariaDB's answer: go-mysql-server reads text as a time only
// ("03:25:45"), so that text with a date ("2011-01-01 03:25:45", as a
// client sends a DATETIME parameter) and a zero date gave NULL where
// MariaDB takes the time of day. The rule is a pure function of the plan.
func castTimeRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		c, ok := e.(*expression.Convert)
		if !ok || c.Type().Type() != gtypes.Time.Type() {
			return e, transform.SameTree, nil
		}
		switch c.Child.(type) {
		case *expression.BindVar, *expression.Literal:
		default:
			if t := c.Child.Type(); !gtypes.IsText(t) && !isDateType(t) && t.Type() != gtypes.Time.Type() && !gtypes.IsDecimal(t) {
				return e, transform.SameTree, nil
			}
		}
		return newCastTime(c, timeDigits(c)), transform.NewTree, nil
	})
}

// castTime is CAST(x AS TIME(n)) of text, a DECIMAL ([-]HHMMSS.ffffff)
// or a date and time, read as MariaDB reads it (types.ConvertTime: a
// time, or a date and time whose time of day it takes), the fraction
// truncated to n digits; text or a number that is no time is NULL with
// MariaDB's warning 1292 (go-mysql-server read empty text as 00:00:00 and
// dropped a DECIMAL's fraction). Other values go to go-mysql-server's
// Convert. Immutable; safe for concurrent use.
type castTime struct {
	*expression.Convert
	digits uint8
	date   bool // the argument is a DATE: its time of day is 00:00:00
}

func newCastTime(c *expression.Convert, digits uint8) *castTime {
	return &castTime{Convert: c, digits: digits, date: c.Child.Type().Type() == gtypes.Date.Type()}
}

var _ sql.Expression = (*castTime)(nil)

// WithChildren rebuilds over the new argument (a parameter bound).
func (c *castTime) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	n, err := c.Convert.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	conv, ok := n.(*expression.Convert)
	if !ok {
		return n, nil
	}
	return newCastTime(conv, c.digits), nil
}

// Type is TIME(n): go-mysql-server's CAST is typed TIME without its
// digits, so a TIME(1) printed six (go-sql-driver's TestDateTime).
func (c *castTime) Type() sql.Type {
	return sqlbackend.TimeType{TimeType: gtypes.Time, Scale: c.digits}
}

// Eval returns the time as go-mysql-server's TIME holds it.
func (c *castTime) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := c.Child.Eval(ctx, row)
	if v == nil || err != nil {
		return nil, err
	}
	if c.date {
		return gtypes.Timespan(0), nil
	}
	us, ok, known := timeValue(ctx, v)
	if !known {
		return c.Convert.Eval(ctx, row)
	}
	if !ok {
		return nil, nil
	}
	return truncSpan(us, c.digits), nil
}

// timeValue reads v as MariaDB reads a value where a TIME is wanted: a
// TIME as it is, a date and time's time of day, text or a DECIMAL
// ([-]HHMMSS.ffffff) as types.ConvertTime reads them; ok is false, with
// MariaDB's warning 1292, for text or a DECIMAL that is no time (empty text too,
// which go-mysql-server read as 00:00:00; it dropped a DECIMAL's
// fraction). known is false for a value of any other kind, left to
// go-mysql-server's conversion.
func timeValue(ctx *sql.Context, v interface{}) (us gtypes.Timespan, ok, known bool) {
	var text []byte
	switch x := v.(type) {
	case gtypes.Timespan:
		return x, true, true
	case time.Time:
		return gtypes.Timespan(int64(x.Hour()*3600+x.Minute()*60+x.Second())*1e6 + int64(x.Nanosecond()/1000)), true, true
	case string:
		text = []byte(x)
	case []byte:
		text = x
	case decimal.Decimal:
		text = []byte(x.String())
	default:
		return 0, false, false
	}
	tv, ok := types.ConvertTime(&types.Type{Kind: types.Time, Scale: 6}, text)
	if !ok {
		ctx.Warn(mysql.ERTruncatedWrongValue, "Incorrect time value: '%s'", text)
		return 0, false, true
	}
	return gtypes.Timespan(tv.I), true, true
}
