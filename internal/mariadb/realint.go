package mariadb

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/errtable"
)

// A FLOAT or DOUBLE read as an integer, as MariaDB reads it: rounded half
// to even (rint: 2.5 is 2, 3.5 is 4), and, past the integer type's range,
// the nearest end of it with note 1916 (a negative double as UNSIGNED is
// 0). go-mysql-server rounds half away from zero (2.5 was 3), and its
// conversion of a double at or below 0 to an unsigned integer overflows
// (CAST(0e0 AS UNSIGNED) was 9223372036854775808, and so was BIT_OR of a
// column of DOUBLE zeros).
//
// realsToInteger applies it to CAST(x AS SIGNED | UNSIGNED) of a FLOAT or
// DOUBLE x, and to the FLOAT or DOUBLE argument of BIT_OR, BIT_AND and
// BIT_XOR (read as a signed integer, whose bits they combine: BIT_OR(-1e0)
// is 18446744073709551615, as in MariaDB), whose text arguments are read
// as signed integers too (go-mysql-server read '-2' as 0 and rounded
// '7.5' to 8).

// realToInteger is a FLOAT or DOUBLE expression read as an integer.
type realToInteger struct {
	expression.UnaryExpression
	unsigned bool
	text     bool // the child is text: its integer prefix ('7.5' is 7, 'blob' 0)
}

var _ sql.Expression = (*realToInteger)(nil)

// Type is BIGINT or BIGINT UNSIGNED.
func (r *realToInteger) Type() sql.Type {
	if r.unsigned {
		return gtypes.Uint64
	}
	return gtypes.Int64
}

// IsNullable is the child's.
func (r *realToInteger) IsNullable() bool { return r.Child.IsNullable() }

func (r *realToInteger) String() string {
	if r.unsigned {
		return fmt.Sprintf("cast(%s as unsigned)", r.Child)
	}
	return fmt.Sprintf("cast(%s as signed)", r.Child)
}

// WithChildren returns a copy over children[0].
func (r *realToInteger) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(r, len(children), 1)
	}
	return &realToInteger{UnaryExpression: expression.UnaryExpression{Child: children[0]}, unsigned: r.unsigned, text: r.text}, nil
}

// Eval reads the child's value as an integer (see above).
func (r *realToInteger) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := r.Child.Eval(ctx, row)
	if err != nil || v == nil {
		return v, err
	}
	if r.text {
		return integerPrefix(v), nil
	}
	f, _, err := gtypes.Float64.Convert(ctx, v)
	if err != nil {
		return nil, err
	}
	x := math.RoundToEven(f.(float64))
	overflow := func(to string) {
		s := strings.Replace(strconv.FormatFloat(f.(float64), 'g', -1, 64), "e+", "e", 1)
		ctx.Session.Warn(&sql.Warning{Level: "Note", Code: errtable.ERDataOverflow,
			Message: fmt.Sprintf("Got overflow when converting '%s' to %s. Value truncated", s, to)})
	}
	if r.unsigned {
		switch {
		case x < 0:
			overflow("UNSIGNED BIGINT")
			return uint64(0), nil
		case x >= 1<<64:
			overflow("UNSIGNED BIGINT")
			return uint64(math.MaxUint64), nil
		}
		return uint64(x), nil
	}
	switch {
	case x < -(1 << 63):
		overflow("SIGNED BIGINT")
		return int64(math.MinInt64), nil
	case x >= 1<<63:
		overflow("SIGNED BIGINT")
		return int64(math.MaxInt64), nil
	}
	return int64(x), nil
}

// isReal reports whether t is FLOAT or DOUBLE.
func isReal(t sql.Type) bool { return gtypes.IsFloat(t) }

// realsToInteger replaces e as described above.
func realsToInteger(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch x := e.(type) {
	case *expression.Convert:
		t := x.Type()
		if !gtypes.IsInteger(t) || !isReal(x.Child.Type()) {
			return e, transform.SameTree, nil
		}
		return &realToInteger{UnaryExpression: expression.UnaryExpression{Child: x.Child}, unsigned: gtypes.IsUnsigned(t)}, transform.NewTree, nil
	case sql.FunctionExpression:
		switch strings.ToLower(x.FunctionName()) {
		case "bitor", "bitand", "bitxor":
		default:
			return e, transform.SameTree, nil
		}
		return rewrapChildren(e, func(_ int, c sql.Expression) sql.Expression {
			switch t := c.Type(); {
			case isReal(t):
				return &realToInteger{UnaryExpression: expression.UnaryExpression{Child: c}}
			case gtypes.IsText(t):
				// text as a signed integer ('7.5' is 7, '-2' all bits but
				// the last), as MariaDB reads it for bits
				return &realToInteger{UnaryExpression: expression.UnaryExpression{Child: c}, text: true}
			}
			return nil
		})
	}
	return e, transform.SameTree, nil
}

// integerPrefix reads a text value as MariaDB reads a string as an
// integer: blanks, a sign and the digits that follow (none is 0), past
// BIGINT's range its nearest end.
func integerPrefix(v interface{}) int64 {
	switch x := v.(type) {
	case string:
		n, _, _ := textPrefix(x)
		return n
	case []byte:
		n, _, _ := textPrefix(string(x))
		return n
	}
	f, _, _ := gtypes.Int64.Convert(context.Background(), v)
	n, _ := f.(int64)
	return n
}

// textPrefix is integerPrefix of text s, whether it held any digit, and
// the text after the number.
func textPrefix(s string) (n int64, digits bool, rest string) {
	s = strings.TrimLeft(s, " \t\n\r")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var u uint64
	i := 0
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		d := uint64(s[i] - '0')
		if u > (math.MaxUint64-d)/10 {
			u = math.MaxUint64 // (the digits are still read)
		} else {
			u = u*10 + d
		}
	}
	digits, rest = i > 0, s[i:]
	switch {
	case neg && u >= 1<<63:
		return math.MinInt64, digits, rest
	case neg:
		return -int64(u), digits, rest
	case u > math.MaxInt64:
		return math.MaxInt64, digits, rest
	}
	return int64(u), digits, rest
}
