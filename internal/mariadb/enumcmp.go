package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/collation"
)

// Comparisons of an ENUM column with a string.
//
// MariaDB compares an ENUM column with a string as text: the member's
// name against the string, under the column's collation (so 'old ' is
// 'old' in a PAD SPACE collation, '2' is no member's name, and 'old' >
// 'new'). go-mysql-server converts the string to a member's number
// instead: a string that names no member was an error ("value x is not
// valid for this Enum") on an indexed column, '2' was the second member,
// and < and > compared the members' numbers. enumCmpExpr rewrites such a
// comparison, with the column on one side and a string literal on the
// other, into one of the members' numbers whose names answer it: = and
// <=> the one member whose name equals the string (none: no value, or 0
// for <=>), an IN list its members' numbers, <, <=, > and >= the numbers
// of the names on that side of the string. Number 0 (the empty value an
// invalid string stored in a lax sql_mode) counts with the name ''. Like
// intRangeExpr it gives the same answer for every value of the column, a
// NULL included, so it applies to every expression.

// enumColumn returns the ENUM type and collation of e if it is an ENUM
// column whose names the collation compares as Go strings.
func enumColumn(e sql.Expression) (*expression.GetField, sql.EnumType, *collation.Collation, bool) {
	gf, ok := e.(*expression.GetField)
	if !ok {
		return nil, nil, nil, false
	}
	et, ok := gf.Type().(sql.EnumType)
	if !ok {
		return nil, nil, nil, false
	}
	c := collation.ByID(uint16(et.Collation()))
	if c == nil || c.Charset != "utf8mb4" && c.Charset != "utf8mb3" {
		return nil, nil, nil, false
	}
	return gf, et, c, true
}

// enumMembers returns the numbers of the members of et (0 for the empty
// value) whose names n answer holds(Compare(n, s)).
func enumMembers(et sql.EnumType, c *collation.Collation, s string, holds func(int) bool) []int64 {
	var out []int64
	if holds(c.Compare(nil, []byte(s))) {
		out = append(out, 0)
	}
	for i, name := range et.Values() {
		if holds(c.Compare([]byte(name), []byte(s))) {
			out = append(out, int64(i+1))
		}
	}
	return out
}

// noMember is a condition no value of the column meets (NULL for NULL).
func noMember(gf *expression.GetField, et sql.EnumType) sql.Expression {
	return expression.NewGreaterThan(gf, expression.NewLiteral(int64(et.NumberOfElements()), gtypes.Int64))
}

// memberIn is gf IN (the numbers ms), or noMember for none.
func memberIn(gf *expression.GetField, et sql.EnumType, ms []int64) sql.Expression {
	if len(ms) == 0 {
		return noMember(gf, et)
	}
	tup := make(expression.Tuple, len(ms))
	for i, m := range ms {
		tup[i] = expression.NewLiteral(m, gtypes.Int64)
	}
	if len(tup) == 1 {
		return expression.NewEquals(gf, tup[0])
	}
	return expression.NewInTuple(gf, tup)
}

// stringLit returns the value of a string literal.
func stringLit(e sql.Expression) (string, bool) {
	lit, ok := e.(*expression.Literal)
	if !ok {
		return "", false
	}
	s, ok := lit.Value().(string)
	return s, ok
}

// enumCmpExpr rewrites e if it compares an ENUM column with a string
// literal (see above).
func enumCmpExpr(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	eq := func(c int) bool { return c == 0 }
	if in, ok := e.(*expression.InTuple); ok {
		gf, et, coll, ok := enumColumn(in.Left())
		tup, isTuple := in.Right().(expression.Tuple)
		if !ok || !isTuple {
			return e, transform.SameTree, nil
		}
		var ms []int64
		for _, m := range tup {
			s, ok := stringLit(m)
			if !ok {
				return e, transform.SameTree, nil
			}
			ms = append(ms, enumMembers(et, coll, s, eq)...)
		}
		return memberIn(gf, et, ms), transform.NewTree, nil
	}
	left, right, flipped, ok := comparedWithLiteral(e) // intrange.go
	if !ok {
		return e, transform.SameTree, nil
	}
	gf, et, coll, ok := enumColumn(left)
	s, isText := stringLit(right)
	if !ok || !isText {
		return e, transform.SameTree, nil
	}
	var holds func(int) bool // of Compare(name, s)
	switch e.(type) {
	case *expression.Equals:
		ms := enumMembers(et, coll, s, eq)
		if len(ms) > 1 {
			return e, transform.SameTree, nil // (names equal under the collation)
		}
		return memberIn(gf, et, ms), transform.NewTree, nil
	case *expression.NullSafeEquals:
		ms := enumMembers(et, coll, s, eq)
		switch len(ms) {
		case 0:
			return expression.NewLiteral(false, gtypes.Boolean), transform.NewTree, nil
		case 1:
			return expression.NewNullSafeEquals(gf, expression.NewLiteral(ms[0], gtypes.Int64)), transform.NewTree, nil
		}
		return e, transform.SameTree, nil
	case *expression.GreaterThan:
		holds = func(c int) bool { return c > 0 }
	case *expression.GreaterThanOrEqual:
		holds = func(c int) bool { return c >= 0 }
	case *expression.LessThan:
		holds = func(c int) bool { return c < 0 }
	default:
		holds = func(c int) bool { return c <= 0 }
	}
	if flipped {
		h := holds
		holds = func(c int) bool { return h(-c) }
	}
	return memberIn(gf, et, enumMembers(et, coll, s, holds)), transform.NewTree, nil
}
