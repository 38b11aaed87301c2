package mariadb

import (
	"math"
	"math/big"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/shopspring/decimal"
)

// Comparisons of an integer column with a number beyond its type.
//
// go-mysql-server builds an index lookup from a comparison by converting
// the number to the column's type, and the conversion clamps it: on a
// TINYINT column, i = 300 read the rows of 127, i > -9000000000 read
// (-128, +inf) and lost the rows of -128, and on an INT UNSIGNED column
// u > -1 read nothing. intRangeRule rewrites each such comparison, before
// the lookups are planned, into one with the type's own limit that is
// true, false or NULL for exactly the same values of the column (a NULL
// column stays NULL): i > -9000000000 is i >= -128, i = 300 is i > 127
// (no value), u > -1 is u >= 0. An IN list loses its members beyond the
// type (none left: no value); a NULL-safe equality with one is 0. A
// string that holds an integer within the type becomes that integer
// (integerString). The
// rewrite is an identity over the column's values, so it applies to
// every expression of the plan, not only to conditions.

// intRangeRule rewrites the comparisons of integer columns with numbers
// beyond their type (see above), and of ENUM columns with strings
// (enumcmp.go).
func intRangeRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExprDeep(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if ne, same, err := intRangeExpr(e); err != nil || same == transform.NewTree {
			return ne, same, err
		}
		return enumCmpExpr(e) // enumcmp.go
	})
}

// intWidths are the integer column types: their bits, and whether
// unsigned.
var intWidths = map[query.Type]struct {
	bits     uint
	unsigned bool
}{
	sqltypes.Int8: {8, false}, sqltypes.Uint8: {8, true}, sqltypes.Int16: {16, false}, sqltypes.Uint16: {16, true},
	sqltypes.Int24: {24, false}, sqltypes.Uint24: {24, true}, sqltypes.Int32: {32, false}, sqltypes.Uint32: {32, true},
	sqltypes.Int64: {64, false}, sqltypes.Uint64: {64, true},
}

// intLimits returns the range of an integer column's type.
func intLimits(t sql.Type) (lo, hi *big.Int, ok bool) {
	w, ok := intWidths[t.Type()]
	if !ok {
		return nil, nil, false
	}
	one := big.NewInt(1)
	if w.unsigned {
		return new(big.Int), new(big.Int).Sub(new(big.Int).Lsh(one, w.bits), one), true
	}
	hi = new(big.Int).Sub(new(big.Int).Lsh(one, w.bits-1), one)
	return new(big.Int).Neg(new(big.Int).Lsh(one, w.bits-1)), hi, true
}

// beyond reports whether the number v lies below lo (-1) or above hi
// (+1) of a column's range; 0 for a number within it, or anything that
// is not a number (a string is one when it holds nothing else).
func beyond(v interface{}, lo, hi *big.Int) int {
	var x *big.Float
	switch n := v.(type) {
	case int8:
		x = new(big.Float).SetInt64(int64(n))
	case int16:
		x = new(big.Float).SetInt64(int64(n))
	case int32:
		x = new(big.Float).SetInt64(int64(n))
	case int64:
		x = new(big.Float).SetInt64(n)
	case int:
		x = new(big.Float).SetInt64(int64(n))
	case uint8:
		x = new(big.Float).SetUint64(uint64(n))
	case uint16:
		x = new(big.Float).SetUint64(uint64(n))
	case uint32:
		x = new(big.Float).SetUint64(uint64(n))
	case uint64:
		x = new(big.Float).SetUint64(n)
	case uint:
		x = new(big.Float).SetUint64(uint64(n))
	case float64:
		if math.IsNaN(n) || math.IsInf(n, 0) {
			return 0
		}
		x = big.NewFloat(n)
	case decimal.Decimal:
		x, _ = new(big.Float).SetString(n.String())
	case string:
		// (a number in a string is compared as that number)
		x, _ = new(big.Float).SetString(strings.TrimSpace(n))
	default:
		return 0
	}
	if x == nil {
		return 0
	}
	switch {
	case x.Cmp(new(big.Float).SetInt(lo)) < 0:
		return -1
	case x.Cmp(new(big.Float).SetInt(hi)) > 0:
		return 1
	}
	return 0
}

// integerString returns the integer literal of v if v is a string that
// holds exactly an integer (spaces around it aside): MariaDB compares an
// integer column with it as that integer, where go-mysql-server compares
// them as DOUBLEs, which tell BIGINTs past 2^53 apart no more
// (id > '1234567890123456788' found neither ...789 nor ...790).
func integerString(v interface{}) (sql.Expression, bool) {
	s, ok := v.(string)
	if !ok {
		return nil, false
	}
	n, ok := new(big.Int).SetString(strings.TrimSpace(s), 10)
	switch {
	case !ok:
		return nil, false
	case n.IsInt64():
		return expression.NewLiteral(n.Int64(), gtypes.Int64), true
	case n.IsUint64():
		return expression.NewLiteral(n.Uint64(), gtypes.Uint64), true
	}
	return nil, false
}

// limitOf is the literal of a limit of a column type.
func limitOf(v *big.Int) sql.Expression {
	if v.Sign() < 0 || v.IsInt64() {
		return expression.NewLiteral(v.Int64(), gtypes.Int64)
	}
	return expression.NewLiteral(v.Uint64(), gtypes.Uint64)
}

// comparedWithLiteral returns the sides of a comparison (=, <=>, <, <=,
// >, >=) with a literal on the right: flipped when the literal was on
// the left (the comparison then asks the opposite of the right side).
func comparedWithLiteral(e sql.Expression) (left, right sql.Expression, flipped, ok bool) {
	switch e.(type) {
	case *expression.Equals, *expression.NullSafeEquals, *expression.GreaterThan, *expression.GreaterThanOrEqual,
		*expression.LessThan, *expression.LessThanOrEqual:
	default:
		return nil, nil, false, false
	}
	ch := e.Children()
	left, right = ch[0], ch[1]
	if _, isLit := left.(*expression.Literal); isLit {
		return right, left, true, true
	}
	return left, right, false, true
}

// intRangeExpr rewrites e if it compares an integer column with a number
// beyond the column's type.
func intRangeExpr(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch c := e.(type) {
	case *expression.InTuple:
		gf, ok := c.Left().(*expression.GetField)
		tup, isTuple := c.Right().(expression.Tuple)
		if !ok || !isTuple {
			return e, transform.SameTree, nil
		}
		lo, hi, ok := intLimits(gf.Type())
		if !ok {
			return e, transform.SameTree, nil
		}
		var kept expression.Tuple
		changed := false
		for _, m := range tup {
			if lit, isLit := m.(*expression.Literal); isLit {
				if beyond(lit.Value(), lo, hi) != 0 {
					continue
				}
				if n, ok := integerString(lit.Value()); ok {
					m, changed = n, true
				}
			}
			kept = append(kept, m)
		}
		switch {
		case len(kept) == len(tup) && !changed:
			return e, transform.SameTree, nil
		case len(kept) == 0:
			return expression.NewGreaterThan(gf, limitOf(hi)), transform.NewTree, nil
		}
		return expression.NewInTuple(gf, kept), transform.NewTree, nil
	}
	left, right, flipped, ok := comparedWithLiteral(e)
	if !ok {
		return e, transform.SameTree, nil
	}
	gf, ok := left.(*expression.GetField)
	lit, isLit := right.(*expression.Literal)
	if !ok || !isLit {
		return e, transform.SameTree, nil
	}
	lo, hi, ok := intLimits(gf.Type())
	if !ok {
		return e, transform.SameTree, nil
	}
	side := beyond(lit.Value(), lo, hi)
	if side == 0 {
		n, ok := integerString(lit.Value())
		if !ok {
			return e, transform.SameTree, nil
		}
		if flipped {
			ne, err := e.WithChildren(n, left)
			return ne, transform.NewTree, err
		}
		ne, err := e.WithChildren(left, n)
		return ne, transform.NewTree, err
	}
	// What the comparison asks of the column (the literal on the right).
	var above bool // col > / >= the literal
	switch e.(type) {
	case *expression.NullSafeEquals:
		return expression.NewLiteral(false, gtypes.Boolean), transform.NewTree, nil
	case *expression.Equals:
		if side > 0 {
			return expression.NewGreaterThan(gf, limitOf(hi)), transform.NewTree, nil
		}
		return expression.NewLessThan(gf, limitOf(lo)), transform.NewTree, nil
	case *expression.GreaterThan, *expression.GreaterThanOrEqual:
		above = !flipped
	default:
		above = flipped
	}
	switch {
	case above && side < 0: // every value
		return expression.NewGreaterThanOrEqual(gf, limitOf(lo)), transform.NewTree, nil
	case above: // no value
		return expression.NewGreaterThan(gf, limitOf(hi)), transform.NewTree, nil
	case side > 0: // every value
		return expression.NewLessThanOrEqual(gf, limitOf(hi)), transform.NewTree, nil
	}
	return expression.NewLessThan(gf, limitOf(lo)), transform.NewTree, nil // no value
}
