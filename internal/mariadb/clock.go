package mariadb

import (
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
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// clockRule types the clock functions of a query as MariaDB does, with
// the digits asked: NOW(n), CURRENT_TIMESTAMP(n), LOCALTIME(n),
// SYSDATE(n) and UTC_TIMESTAMP(n) are DATETIME(n), CURTIME(n) and
// CURRENT_TIME(n) TIME(n) (no n: 0). go-mysql-server typed a NOW with
// any digits DATETIME(6), so NOW(3) printed six and NOW(0) .000000;
// UTC_TIMESTAMP kept microseconds whatever its digits; CURTIME was text
// without a fraction (CURTIME(2) + 0 was 21 at 21:59:05).
//
// Only read-only plans are rewritten: go-mysql-server's DDL recognises
// its own NOW (a column's DEFAULT CURRENT_TIMESTAMP(n), ON UPDATE), and a
// write converts the value to its column anyway. The rule is a pure
// function of the plan.
func clockRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !n.IsReadOnly() {
		return n, transform.SameTree, nil
	}
	return everyExprDeep(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		var c *clock
		switch f := e.(type) {
		case *function.Now:
			c = newClock(f, f.Children(), false)
		case *function.UTCTimestamp:
			// (its digits are not a child: they are in its text)
			var args []sql.Expression
			if s := f.String(); len(s) > len("UTC_TIMESTAMP()") {
				d, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(s, "UTC_TIMESTAMP("), ")"))
				if err != nil {
					return e, transform.SameTree, nil
				}
				args = []sql.Expression{expression.NewLiteral(int64(d), gtypes.Int64)}
			}
			c = newClock(f, args, false)
		case *function.CurrTime:
			if now, err := function.NewNow(f.Children()...); err == nil {
				c = newClock(now, f.Children(), true)
			}
		}
		if c == nil {
			return e, transform.SameTree, nil
		}
		c.name = e.String()
		return c, transform.NewTree, nil
	})
}

// clock is a clock function typed with its digits: the instant of
// go-mysql-server's function (inner: NOW, SYSDATE or UTC_TIMESTAMP, in
// the session's time zone as it computes it) cut to the digits, as a
// DATETIME, or its time of day as a TIME. Immutable; safe for concurrent
// use.
type clock struct {
	inner  sql.Expression
	name   string // the function as written, for String
	digits uint8
	timeOf bool
}

var _ sql.FunctionExpression = (*clock)(nil)
var _ sql.NonDeterministicExpression = (*clock)(nil)

// newClock returns inner typed with the digits of args (its precision
// argument, when it has one), or nil when that is not an integer
// literal from 0 to 6 (go-mysql-server's function then keeps its own
// checks and answers).
func newClock(inner sql.Expression, args []sql.Expression, timeOf bool) *clock {
	c := &clock{inner: inner, timeOf: timeOf}
	if len(args) > 1 {
		return nil
	}
	if len(args) == 1 {
		lit, ok := args[0].(*expression.Literal)
		if !ok {
			return nil
		}
		d, ok := gtypes.CoalesceInt(lit.Value())
		if !ok || d < 0 || d > 6 {
			return nil
		}
		c.digits = uint8(d)
	}
	return c
}

// FunctionName implements sql.FunctionExpression.
func (c *clock) FunctionName() string {
	if f, ok := c.inner.(sql.FunctionExpression); ok {
		return f.FunctionName()
	}
	return c.name
}

// Description implements sql.FunctionExpression.
func (c *clock) Description() string { return "returns the current date and time or time of day." }

// IsNonDeterministic implements sql.NonDeterministicExpression: the
// value is the statement's time (SYSDATE's the call's), never a
// constant to fold.
func (c *clock) IsNonDeterministic() bool { return true }

func (c *clock) String() string { return c.name }

// Type is DATETIME(n) or TIME(n).
func (c *clock) Type() sql.Type {
	if c.timeOf {
		return sqlbackend.TimeType{TimeType: gtypes.Time, Scale: c.digits}
	}
	return gtypes.MustCreateDatetimeType(sqltypes.Datetime, int(c.digits))
}

// IsNullable implements sql.Expression.
func (c *clock) IsNullable() bool { return false }

// Resolved implements sql.Expression.
func (c *clock) Resolved() bool { return true }

// Children implements sql.Expression: the digits are part of the
// function, not an argument evaluated per row.
func (c *clock) Children() []sql.Expression { return nil }

// WithChildren implements sql.Expression.
func (c *clock) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 0)
	}
	return c, nil
}

// CollationCoercibility implements sql.CollationCoercible as the
// functions do.
func (c *clock) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// Eval returns the instant cut to the digits: a time.Time, or the
// time of day as go-mysql-server's TIME value.
func (c *clock) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := c.inner.Eval(ctx, row)
	if err != nil || v == nil {
		return v, err
	}
	t, ok := v.(time.Time)
	if !ok {
		return v, nil
	}
	unit := time.Second
	for range c.digits {
		unit /= 10
	}
	t = t.Truncate(unit)
	if !c.timeOf {
		return t, nil
	}
	us := int64(t.Hour()*3600+t.Minute()*60+t.Second())*1e6 + int64(t.Nanosecond()/1000)
	return gtypes.Timespan(us), nil
}
