package mariadb

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// timeToSecRule replaces go-mysql-server's TIME_TO_SEC, which reads its
// argument as a time of day (dropping the fraction, the hours past 23 and
// the sign, and refusing text that is no datetime), by timeToSec. The rule
// is a pure function of the plan.
func timeToSecRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		f, ok := e.(*function.TimeToSec)
		if !ok {
			return e, transform.SameTree, nil
		}
		return newTimeToSec(f.Child), transform.NewTree, nil
	})
}

// timeToSec is TIME_TO_SEC(x) as MariaDB computes it: x read as a TIME
// (hours up to 838, negative times negative), in seconds with as many
// fractional digits as x has (a TIME(n), DATETIME(n) or TIMESTAMP(n)
// column or CAST n; a DECIMAL its scale; text 6, a text literal the digits
// it writes; an integer 0). With no digits the result is an integer, else
// a DECIMAL. Text that is no time gives NULL and warning 1292. Immutable;
// safe for concurrent use.
type timeToSec struct {
	expression.UnaryExpression
	scale uint8
}

var _ sql.Expression = (*timeToSec)(nil)

func newTimeToSec(arg sql.Expression) *timeToSec {
	return &timeToSec{UnaryExpression: expression.UnaryExpression{Child: arg}, scale: timeDigits(arg)}
}

// timeDigits is how many fractional digits TIME_TO_SEC(e) keeps.
func timeDigits(e sql.Expression) uint8 {
	if c, ok := e.(*castTime); ok {
		return c.digits
	}
	if c, ok := e.(*expression.Convert); ok && c.Type().Type() == gtypes.Time.Type() {
		// CAST(x AS TIME(n)): go-mysql-server's TIME type has no n,
		// the expression's text does.
		s := c.String()
		if i := strings.LastIndexByte(s, '('); i >= 0 && strings.HasSuffix(s, "))") {
			if n, err := strconv.Atoi(s[i+1 : len(s)-2]); err == nil && n >= 0 && n <= 6 {
				return uint8(n)
			}
		}
		return 0
	}
	if l, ok := e.(*expression.Literal); ok {
		if s, ok := l.Value().(string); ok {
			if i := strings.LastIndexByte(s, '.'); i >= 0 {
				n := 0
				for _, c := range s[i+1:] {
					if c < '0' || c > '9' {
						break
					}
					n++
				}
				return uint8(min(n, 6))
			}
			return 0
		}
	}
	t := e.Type()
	switch x := t.(type) {
	case sqlbackend.TimeType:
		return x.Scale
	case sql.DatetimeType:
		if t.Type() == gtypes.Date.Type() {
			return 0
		}
		return uint8(min(x.Precision(), 6))
	case sql.DecimalType:
		return uint8(min(x.Scale(), 6))
	}
	if gtypes.IsText(t) || gtypes.IsFloat(t) || gtypes.IsTime(t) {
		return 6
	}
	return 0
}

// Type is BIGINT without fractional digits, else a DECIMAL that holds
// 838:59:59 in seconds with them.
func (f *timeToSec) Type() sql.Type {
	if f.scale == 0 {
		return gtypes.Int64
	}
	return gtypes.MustCreateDecimalType(7+f.scale, f.scale)
}

// IsNullable: text that is no time gives NULL.
func (f *timeToSec) IsNullable() bool { return true }

func (f *timeToSec) String() string { return fmt.Sprintf("TIME_TO_SEC(%s)", f.Child) }

// FunctionName is the SQL name.
func (f *timeToSec) FunctionName() string { return "time_to_sec" }

// WithChildren rebuilds over the new argument.
func (f *timeToSec) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(f, len(children), 1)
	}
	return newTimeToSec(children[0]), nil
}

// Eval returns the seconds of the argument.
func (f *timeToSec) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := f.Child.Eval(ctx, row)
	if v == nil || err != nil {
		return nil, err
	}
	var us int64 // microseconds
	switch x := v.(type) {
	case gtypes.Timespan:
		us = int64(x)
	case time.Time:
		us = int64(x.Hour()*3600+x.Minute()*60+x.Second())*1e6 + int64(x.Nanosecond()/1000)
	default:
		var text string
		switch y := x.(type) {
		case string:
			text = y
		case []byte:
			text = string(y)
		case decimal.Decimal:
			text = y.String()
		default:
			text = fmt.Sprint(y)
		}
		tv, ok := types.ConvertTime(&types.Type{Kind: types.Time, Scale: 6}, []byte(text))
		if !ok {
			ctx.Warn(mysql.ERTruncatedWrongValue, "Incorrect time value: '%s'", text)
			return nil, nil
		}
		us = tv.I
	}
	if f.scale == 0 {
		return us / 1e6, nil
	}
	// Truncated to the argument's digits, as MariaDB's TIME is.
	d := decimal.New(us, -6).Truncate(int32(f.scale))
	return d, nil
}
