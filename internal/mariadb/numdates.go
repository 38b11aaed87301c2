package mariadb

import (
	"fmt"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// numbersAsDates gives YEAR, MONTH, DAY, QUARTER and CAST to DATE or
// DATETIME their number operands as the dates MariaDB reads them as: the
// digits YYYYMMDD[HHMMSS] (or YYMMDD...), 0 the zero date (numberDate).
// go-mysql-server answered CAST(20200102 AS DATE) and MONTH(20200102)
// with NULL, CAST(0 AS DATE) with NULL and MONTH(0) with 1.
func numbersAsDates(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch x := e.(type) {
	case *function.Year, *function.Month, *function.Day, *function.Quarter:
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
	var p int64
	d, ok := sqlbackend.ToDecimal(v)
	if ok {
		p, ok = numberToPacked(d)
	}
	if !ok {
		if ctx.Session != nil {
			ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERTruncatedWrongValue,
				Message: fmt.Sprintf("Incorrect datetime value: '%v'", v)})
		}
		return nil, nil
	}
	return sqlbackend.OddDate{P: p, Scale: 6}.AsColumn(gtypes.DatetimeMaxPrecision), nil
}

// numberToPacked reads a whole number as MariaDB's number_to_datetime
// does: 0 the zero date; YYMMDD (years 2000-2069 below 700101),
// YYYYMMDD, YYMMDDHHMMSS or YYYYMMDDHHMMSS by its size, anything between
// those ranges no date; then each part in its range, a zero month or day
// allowed, a day past its month's end not.
func numberToPacked(d decimal.Decimal) (int64, bool) {
	if d.Sign() < 0 || !d.LessThan(decimal.New(1, 14)) {
		return 0, false
	}
	nr := d.IntPart()
	switch {
	case nr == 0:
		return 0, true
	case nr < 101:
		return 0, false
	case nr <= 691231:
		nr = (nr + 20000000) * 1000000
	case nr < 700101:
		return 0, false
	case nr <= 991231:
		nr = (nr + 19000000) * 1000000
	case nr < 10000101:
		return 0, false
	case nr <= 99991231:
		nr *= 1000000
	case nr < 101000000:
		return 0, false
	case nr <= 691231235959:
		nr += 20000000000000
	case nr < 700101000000:
		return 0, false
	case nr <= 991231235959:
		nr += 19000000000000
	case nr < 10000101000000:
		return 0, false
	case nr > 99991231235959:
		return 0, false
	}
	ymd, hms := nr/1000000, nr%1000000
	y, mo, day := int(ymd/10000), int(ymd/100%100), int(ymd%100)
	h, mi, sec := int(hms/10000), int(hms/100%100), int(hms%100)
	if mo > 12 || day > 31 || h > 23 || mi > 59 || sec > 59 {
		return 0, false
	}
	if mo != 0 && day != 0 && day > time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return 0, false
	}
	return types.PackDateTime(y, mo, day, h, mi, sec, 0), true
}
