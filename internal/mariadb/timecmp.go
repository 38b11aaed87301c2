package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
)

// timesComparedWithText gives a comparison of a TIME with text its text
// side as a TIME (textAsTime), as MariaDB compares them: go-mysql-server
// compared a TIME that is no column (a CAST, SEC_TO_TIME, FLOOR of a
// TIME) with text as text, so CAST('00:00:01' AS TIME) = '00:00:01' was
// false.
func timesComparedWithText(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch e.(type) {
	case *expression.Equals, *expression.NullSafeEquals, *expression.LessThan, *expression.LessThanOrEqual,
		*expression.GreaterThan, *expression.GreaterThanOrEqual:
	default:
		return e, transform.SameTree, nil
	}
	ch := e.Children()
	lt, lok := safeType(ch[0])
	rt, rok := safeType(ch[1])
	if !lok || !rok {
		return e, transform.SameTree, nil
	}
	isTime := func(t sql.Type) bool { return gtypes.IsTimespan(t) || isTimeType(t) }
	switch {
	case isTime(lt) && gtypes.IsText(rt):
		return rewrapChildren(e, func(i int, c sql.Expression) sql.Expression {
			if i == 1 {
				return &textAsTime{child: c, typ: lt}
			}
			return nil
		})
	case isTime(rt) && gtypes.IsText(lt):
		return rewrapChildren(e, func(i int, c sql.Expression) sql.Expression {
			if i == 0 {
				return &textAsTime{child: c, typ: rt}
			}
			return nil
		})
	}
	return e, transform.SameTree, nil
}

// textAsTime is text read as a TIME of type typ (the other side's, so
// that the comparison compares two TIMEs): text that is no time is
// 00:00:00 with warning 1292, as in MariaDB.
type textAsTime struct {
	child sql.Expression
	typ   sql.Type
}

var _ sql.Expression = (*textAsTime)(nil)

func (t *textAsTime) Resolved() bool             { return t.child.Resolved() }
func (t *textAsTime) IsNullable() bool           { return t.child.IsNullable() }
func (t *textAsTime) Type() sql.Type             { return t.typ }
func (t *textAsTime) Children() []sql.Expression { return []sql.Expression{t.child} }
func (t *textAsTime) String() string             { return t.child.String() }

// CollationCoercibility: a time value's.
func (t *textAsTime) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// WithChildren replaces the text.
func (t *textAsTime) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	if len(c) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(t, len(c), 1)
	}
	return &textAsTime{child: c[0], typ: t.typ}, nil
}

// Eval reads the text as a TIME.
func (t *textAsTime) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := t.child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	tv, _, err := gtypes.Time.Convert(ctx, v)
	if err != nil || tv == nil {
		if ctx.Session != nil {
			s, _ := v.(string)
			if b, ok := v.([]byte); ok {
				s = string(b)
			}
			ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERTruncatedWrongValue,
				Message: "Truncated incorrect time value: '" + s + "'"})
		}
		return gtypes.Timespan(0), nil
	}
	return tv, nil
}
