package mariadb

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// numbersAsDates gives YEAR, MONTH, DAY, QUARTER, WEEKDAY, DAYOFWEEK,
// DAYOFYEAR, TO_DAYS, LAST_DAY, DAYNAME, MONTHNAME and CAST to DATE or
// DATETIME their number operands as the dates MariaDB reads them as: the
// digits YYYYMMDD[HHMMSS] (or YYMMDD...), 0 the zero date (numberDate).
// go-mysql-server answered CAST(20200102 AS DATE) and MONTH(20200102)
// with NULL, CAST(0 AS DATE) with NULL, MONTH(0) with 1 and WEEKDAY(0)
// with 5.
func numbersAsDates(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch x := e.(type) {
	case *function.Year, *function.Month, *function.Day, *function.Quarter, *function.Weekday, *function.DayOfWeek,
		*function.DayOfYear, *function.ToDays, *function.LastDay, *function.DayName, *function.MonthName:
	case *expression.Convert:
		if !gtypes.IsTime(x.Type()) {
			return e, transform.SameTree, nil
		}
	default:
		return e, transform.SameTree, nil
	}
	return rewrapChildren(e, func(_ int, c sql.Expression) sql.Expression {
		t, ok := safeType(c)
		if !ok || !gtypes.IsNumber(t) || isYear(t) || isEnumSetBit(t) {
			return nil
		}
		return &numberDate{child: c}
	})
}

// numberDate is a number read as a date (a DATETIME(6)): its digits as
// MariaDB reads a number where a date is wanted, NULL with warning 1292
// for a number that is no date. The zero date and dates with a zero
// month or day are the OddDates the date rules take.
type numberDate struct {
	child sql.Expression
}

var _ sql.Expression = (*numberDate)(nil)

func (n *numberDate) Resolved() bool             { return n.child.Resolved() }
func (n *numberDate) IsNullable() bool           { return true }
func (n *numberDate) Type() sql.Type             { return gtypes.DatetimeMaxPrecision }
func (n *numberDate) Children() []sql.Expression { return []sql.Expression{n.child} }
func (n *numberDate) String() string             { return n.child.String() }

// CollationCoercibility: a time value's.
func (n *numberDate) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// WithChildren replaces the number.
func (n *numberDate) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	if len(c) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(c), 1)
	}
	return &numberDate{child: c[0]}, nil
}

// Eval reads the number as a date.
func (n *numberDate) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := n.child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	switch v.(type) {
	case float32, float64, decimal.Decimal:
		d, _ := sqlbackend.ToDecimal(v)
		// a fraction is dropped, with a note (MariaDB)
		if !d.Equal(d.Truncate(0)) && ctx.Session != nil {
			ctx.Session.Warn(&sql.Warning{Level: "Note", Code: mysql.ERTruncatedWrongValue,
				Message: "Truncated incorrect date value: '" + d.String() + "'"})
		}
		v = d.Truncate(0)
	}
	p, ok := sqlbackend.PackedOf(v)
	if !ok {
		if ctx.Session != nil {
			ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERTruncatedWrongValue,
				Message: fmt.Sprintf("Incorrect datetime value: '%v'", v)})
		}
		return nil, nil
	}
	return sqlbackend.OddDate{P: p, Scale: 6}.AsColumn(gtypes.DatetimeMaxPrecision), nil
}
