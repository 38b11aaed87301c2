package mariadb

import (
	"fmt"
	"math"
	"math/big"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// Value conversions in expressions where go-mysql-server and MySQL differ,
// fixed by replacing expressions while planning (valuesRule, a pure
// function of the plan, safe for concurrent use; the replacements are
// immutable, except that truncatedNumber remembers the query it warned
// for, as a plan serves one query on one goroutine):
//
//   - an ENUM or SET value given to a string function (HEX, CONCAT,
//     LENGTH, ...) is its label, not its index (enumText);
//   - CHAR(N, ...) is the bytes of each N, big-endian without leading
//     zero bytes, and CHAR(0) the byte 0x00 (charBytes);
//   - CAST(string AS SIGNED/UNSIGNED) takes the digits the string starts
//     with, with warning 1292 when there is more (castInt);
//   - comparing a numeric column with a string that is no number compares
//     with the number it starts with (0 for none), with warning 1292,
//     where go-mysql-server fails with 1366 (truncatedNumber);
//   - BIGINT and BIGINT UNSIGNED +, - and * that overflow are error 1690,
//     not a wrapped result, and so is any integer +, - or * with an
//     unsigned operand whose result is below zero (unless sql_mode has
//     NO_UNSIGNED_SUBTRACTION, for -): checkedArith, which computes in
//     int64 while that does not overflow;
//   - +, - and * of two signed integers of at most 32 bits compute in
//     int64 with their type worked out once (narrowArith; only speed).

// stringFuncs are the string functions whose ENUM or SET arguments are
// labels.
var stringFuncs = map[string]bool{
	"hex": true, "concat": true, "concat_ws": true, "length": true, "octet_length": true,
	"char_length": true, "character_length": true, "upper": true, "lower": true, "ucase": true,
	"lcase": true, "substring": true, "substr": true, "left": true, "right": true, "replace": true,
	"trim": true, "ltrim": true, "rtrim": true, "reverse": true, "lpad": true, "rpad": true,
	"instr": true, "locate": true, "md5": true, "sha1": true, "sha": true, "sha2": true,
	"quote": true, "bit_length": true, "ascii": true, "ord": true, "repeat": true, "insert": true,
	"to_base64": true, "crc32": true, "mid": true, "strcmp": true,
}

// valuesRule replaces the expressions listed above.
func valuesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, replaceValueExpr)
}

func replaceValueExpr(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	// Types are asked only of expressions whose Type is cheap and safe
	// (columns, literals, the replacements): asking an arbitrary
	// expression walks its subtree (a long chain of + would make this
	// quadratic), and go-mysql-server's placeholders panic.
	switch x := e.(type) {
	case *function.Char:
		return &charBytes{args: x.Children(), coll: x.Collation}, transform.NewTree, nil
	case *expression.Convert:
		if ct, ok := cheapType(x.Child); ok && gtypes.IsText(ct) {
			t := x.Type()
			if t == gtypes.Int64 || t == gtypes.Uint64 {
				return &castInt{child: x.Child, unsigned: t == gtypes.Uint64, text: x.String()}, transform.NewTree, nil
			}
		}
	case *expression.Arithmetic:
		switch x.Op {
		case "+", "-", "*":
			lt, lok := cheapType(x.Left())
			rt, rok := cheapType(x.Right())
			if lok && rok && gtypes.IsInteger(lt) && gtypes.IsInteger(rt) &&
				(is64(lt) || is64(rt) || unsignedOperand(x.Left(), lt) || unsignedOperand(x.Right(), rt)) {
				return &checkedArith{Arithmetic: x, wide: is64(lt) || is64(rt)}, transform.NewTree, nil
			}
			if lok && rok && narrowSigned(lt) && narrowSigned(rt) {
				return &narrowArith{Arithmetic: x, typ: x.Type()}, transform.NewTree, nil
			}
		}
	case sql.FunctionExpression:
		if !stringFuncs[strings.ToLower(x.FunctionName())] {
			break
		}
		kids := e.Children()
		changed := false
		for i, c := range kids {
			if _, ok := c.(*expression.GetField); !ok {
				continue
			}
			if isEnumOrSet(c.Type()) {
				if !changed {
					kids = append([]sql.Expression(nil), kids...)
					changed = true
				}
				kids[i] = &enumText{child: c}
			}
		}
		if changed {
			ne, err := e.WithChildren(kids...)
			return ne, transform.NewTree, err
		}
	case expression.Comparer:
		l, r := x.Left(), x.Right()
		if nl, ok := numericText(r, l); ok {
			ne, err := e.WithChildren(nl, r)
			return ne, transform.NewTree, err
		}
		if nr, ok := numericText(l, r); ok {
			ne, err := e.WithChildren(l, nr)
			return ne, transform.NewTree, err
		}
	}
	return e, transform.SameTree, nil
}

// cheapType returns the type of a column, a literal or one of the
// replacements here, whose Type does not walk a subtree.
func cheapType(e sql.Expression) (sql.Type, bool) {
	switch e.(type) {
	case *expression.GetField, *expression.Literal, *checkedArith, *castInt, *narrowArith:
		return e.Type(), true
	case *expression.Convert:
		// a CAST's type is its target's, asked of no child
		if t := e.Type(); is64(t) {
			return t, true
		}
	}
	return nil, false
}

func is64(t sql.Type) bool { return t == gtypes.Int64 || t == gtypes.Uint64 }

func isEnumOrSet(t sql.Type) bool {
	switch t.(type) {
	case sql.EnumType, sql.SetType:
		return true
	}
	return false
}

// numericText returns the replacement of lit, a string literal compared
// with col, a numeric column, when the string is not a number.
func numericText(col, lit sql.Expression) (sql.Expression, bool) {
	l, ok := lit.(*expression.Literal)
	if !ok {
		return nil, false
	}
	if _, ok := col.(*expression.GetField); !ok || !gtypes.IsNumber(col.Type()) || !gtypes.IsText(l.Type()) {
		return nil, false
	}
	s, ok := l.Value().(string)
	if !ok {
		return nil, false
	}
	n := sqlbackend.ScanNumber([]byte(s))
	if n.Num != "" && !n.Trailing {
		return nil, false
	}
	word := "DECIMAL"
	if gtypes.IsFloat(col.Type()) {
		word = "DOUBLE"
	}
	d := decimal.Zero
	if n.Num != "" {
		if v, err := decimal.NewFromString(n.Num); err == nil {
			d = v
		}
	}
	f, _ := d.Float64()
	return &truncatedNumber{value: f, text: s, word: word}, true
}

// truncatedNumber is a string compared as the number it starts with; it
// warns once per query (1292 Truncated incorrect DECIMAL value).
type truncatedNumber struct {
	value  float64
	text   string
	word   string
	warned *uint64 // the Pid of the query warned for, +1
}

var _ sql.Expression = (*truncatedNumber)(nil)

func (t *truncatedNumber) Resolved() bool                                           { return true }
func (t *truncatedNumber) String() string                                           { return fmt.Sprintf("%q", t.text) }
func (t *truncatedNumber) Type() sql.Type                                           { return gtypes.Float64 }
func (t *truncatedNumber) IsNullable() bool                                         { return false }
func (t *truncatedNumber) Children() []sql.Expression                               { return nil }
func (t *truncatedNumber) WithChildren(c ...sql.Expression) (sql.Expression, error) { return t, nil }

// Eval returns the number, warning the first time a query evaluates it.
func (t *truncatedNumber) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	if t.warned == nil {
		t.warned = new(uint64)
	}
	if *t.warned != ctx.Pid()+1 && ctx.Session != nil {
		*t.warned = ctx.Pid() + 1
		ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERTruncatedWrongValue,
			Message: fmt.Sprintf("Truncated incorrect %s value: '%s'", t.word, t.text)})
	}
	return t.value, nil
}

// enumText is an ENUM or SET value as its label.
type enumText struct {
	child sql.Expression
}

var _ sql.Expression = (*enumText)(nil)

func (t *enumText) Resolved() bool             { return t.child.Resolved() }
func (t *enumText) String() string             { return t.child.String() }
func (t *enumText) IsNullable() bool           { return t.child.IsNullable() }
func (t *enumText) Children() []sql.Expression { return []sql.Expression{t.child} }

// Type is text in the column's collation.
func (t *enumText) Type() sql.Type {
	coll := sql.Collation_Default
	if c, ok := t.child.Type().(sql.TypeWithCollation); ok {
		coll = c.Collation()
	}
	return gtypes.CreateLongText(coll)
}

// WithChildren keeps the wrapper.
func (t *enumText) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	if len(c) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(t, len(c), 1)
	}
	return &enumText{child: c[0]}, nil
}

// Eval returns the label of the child's value.
func (t *enumText) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := t.child.Eval(ctx, row)
	if err != nil || v == nil {
		return v, err
	}
	switch ct := t.child.Type().(type) {
	case sql.EnumType:
		if i, ok := v.(uint16); ok {
			s, _ := ct.At(int(i))
			return s, nil
		}
	case sql.SetType:
		if m, ok := v.(uint64); ok {
			return ct.BitsToString(m)
		}
	}
	return v, nil
}

// charBytes is MySQL's CHAR(N, ...) as a binary string.
type charBytes struct {
	args []sql.Expression
	coll sql.CollationID // CHAR(... USING charset): text in it
}

// text reports whether CHAR names a character set (USING).
func (c *charBytes) text() bool {
	return c.coll != sql.Collation_Unspecified && c.coll != sql.Collation_binary
}

var _ sql.Expression = (*charBytes)(nil)

func (c *charBytes) Resolved() bool {
	for _, a := range c.args {
		if !a.Resolved() {
			return false
		}
	}
	return true
}

func (c *charBytes) String() string {
	s := make([]string, len(c.args))
	for i, a := range c.args {
		s[i] = a.String()
	}
	return "char(" + strings.Join(s, ",") + ")"
}

// Type is a binary string, or text in the USING character set.
func (c *charBytes) Type() sql.Type {
	if c.text() {
		return gtypes.CreateLongText(c.coll)
	}
	return gtypes.LongBlob
}
func (c *charBytes) IsNullable() bool           { return false }
func (c *charBytes) Children() []sql.Expression { return c.args }

// WithChildren keeps the replacement.
func (c *charBytes) WithChildren(args ...sql.Expression) (sql.Expression, error) {
	return &charBytes{args: args, coll: c.coll}, nil
}

// Eval appends each argument's bytes; NULL arguments are skipped.
func (c *charBytes) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	var out []byte
	for _, a := range c.args {
		v, err := a.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		n, _, err := gtypes.Int64.Convert(ctx, v)
		if err != nil {
			return nil, err
		}
		u := uint32(n.(int64))
		switch {
		case u > 0xFFFFFF:
			out = append(out, byte(u>>24), byte(u>>16), byte(u>>8), byte(u))
		case u > 0xFFFF:
			out = append(out, byte(u>>16), byte(u>>8), byte(u))
		case u > 0xFF:
			out = append(out, byte(u>>8), byte(u))
		default:
			out = append(out, byte(u))
		}
	}
	if c.text() {
		return string(out), nil
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}

// castInt is CAST(string AS SIGNED/UNSIGNED).
type castInt struct {
	child    sql.Expression
	unsigned bool
	text     string
}

var _ sql.Expression = (*castInt)(nil)

func (c *castInt) Resolved() bool             { return c.child.Resolved() }
func (c *castInt) String() string             { return c.text }
func (c *castInt) IsNullable() bool           { return c.child.IsNullable() }
func (c *castInt) Children() []sql.Expression { return []sql.Expression{c.child} }

// Type is BIGINT or BIGINT UNSIGNED.
func (c *castInt) Type() sql.Type {
	if c.unsigned {
		return gtypes.Uint64
	}
	return gtypes.Int64
}

// WithChildren keeps the replacement.
func (c *castInt) WithChildren(k ...sql.Expression) (sql.Expression, error) {
	if len(k) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(k), 1)
	}
	n := *c
	n.child = k[0]
	return &n, nil
}

// Eval reads the integer the string starts with.
func (c *castInt) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := c.child.Eval(ctx, row)
	if err != nil || v == nil {
		return v, err
	}
	s, ok := sqlbackend.BytesOf(v)
	if !ok {
		out, _, err := c.Type().Convert(ctx, v)
		return out, err
	}
	i := 0
	for i < len(s) && sqlbackend.IsSpace(s[i]) {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	clean := i > digits
	for _, b := range s[i:] {
		if !sqlbackend.IsSpace(b) {
			clean = false
		}
	}
	n := new(big.Int)
	if i > digits {
		n.SetString(string(s[start:i]), 10)
	}
	if !clean && ctx.Session != nil {
		ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERTruncatedWrongValue,
			Message: fmt.Sprintf("Truncated incorrect INTEGER value: '%s'", s)})
	}
	if c.unsigned {
		if n.Sign() < 0 {
			if n.IsInt64() {
				if ctx.Session != nil {
					ctx.Session.Warn(&sql.Warning{Level: "Note", Code: 1105,
						Message: "Cast to unsigned converted negative integer to it's positive complement"})
				}
				return uint64(n.Int64()), nil
			}
			return uint64(0), nil
		}
		if !n.IsUint64() {
			return uint64(math.MaxUint64), nil
		}
		return n.Uint64(), nil
	}
	if !n.IsInt64() {
		if n.Sign() < 0 {
			return int64(math.MinInt64), nil
		}
		return int64(math.MaxInt64), nil
	}
	return n.Int64(), nil
}

// checkedArith is +, - or * of integers where one side is BIGINT or
// unsigned: the result is unsigned when either side is, and a result out
// of range (of BIGINT, BIGINT UNSIGNED, or below zero) is error 1690.
type checkedArith struct {
	*expression.Arithmetic
	wide bool // one side is BIGINT: the result's type is BIGINT [UNSIGNED]
}

var _ sql.Expression = (*checkedArith)(nil)

func (c *checkedArith) unsigned() bool {
	return unsignedOperand(c.Left(), c.Left().Type()) || unsignedOperand(c.Right(), c.Right().Type())
}

// unsignedOperand reports whether e, of integer type t, is an unsigned
// operand as MariaDB sees it. go-mysql-server types an integer literal
// with the smallest type that holds it, so 200 is TINYINT UNSIGNED and
// 40000 SMALLINT UNSIGNED; in MariaDB every integer literal up to
// BIGINT's top is signed (k - 200 is negative for k = 10, not error
// 1690), and only one above it is BIGINT UNSIGNED, which go-mysql-server
// types as such.
func unsignedOperand(e sql.Expression, t sql.Type) bool {
	if !gtypes.IsUnsigned(t) {
		return false
	}
	if _, ok := e.(*expression.Literal); ok {
		return t == gtypes.Uint64
	}
	return true
}

// Type is BIGINT or BIGINT UNSIGNED when a side is BIGINT, else
// go-mysql-server's.
func (c *checkedArith) Type() sql.Type {
	if !c.wide {
		return c.Arithmetic.Type()
	}
	if c.unsigned() {
		return gtypes.Uint64
	}
	return gtypes.Int64
}

// WithChildren keeps the replacement.
func (c *checkedArith) WithChildren(k ...sql.Expression) (sql.Expression, error) {
	ne, err := c.Arithmetic.WithChildren(k...)
	if err != nil {
		return nil, err
	}
	if a, ok := ne.(*expression.Arithmetic); ok {
		return &checkedArith{Arithmetic: a, wide: c.wide}, nil
	}
	return ne, nil
}

// Eval computes exactly and checks the range.
func (c *checkedArith) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	lv, err := c.Left().Eval(ctx, row)
	if err != nil || lv == nil {
		return nil, err
	}
	rv, err := c.Right().Eval(ctx, row)
	if err != nil || rv == nil {
		return nil, err
	}
	if !c.unsigned() {
		// signed operands: in int64 unless it overflows (then exactly,
		// below, for the error)
		if l, ok := smallInt(lv); ok {
			if r, ok := smallInt(rv); ok {
				if n, ok := int64Arith(c.Op, l, r); ok {
					return n, nil
				}
			}
		}
	}
	l, lok := sqlbackend.ToDecimal(lv)
	r, rok := sqlbackend.ToDecimal(rv)
	if !lok || !rok {
		return c.Arithmetic.Eval(ctx, row)
	}
	var d decimal.Decimal
	switch c.Op {
	case "+":
		d = l.Add(r)
	case "-":
		d = l.Sub(r)
	default:
		d = l.Mul(r)
	}
	n := d.BigInt()
	if c.unsigned() {
		if n.Sign() < 0 && c.Op == "-" && sqlbackend.SessionSQLMode(ctx).ModeEnabled("NO_UNSIGNED_SUBTRACTION") {
			return c.Arithmetic.Eval(ctx, row)
		}
		if n.Sign() < 0 || !n.IsUint64() {
			return nil, errtable.SQLError(mysql.ERDataOutOfRange, "BIGINT UNSIGNED", mariaText(c.Arithmetic))
		}
		if !c.wide && !gtypes.IsUnsigned(c.Arithmetic.Type()) && n.IsInt64() {
			return n.Int64(), nil
		}
		return n.Uint64(), nil
	}
	if !n.IsInt64() {
		return nil, errtable.SQLError(mysql.ERDataOutOfRange, "BIGINT", mariaText(c.Arithmetic))
	}
	return n.Int64(), nil
}

// int64Arith returns l op r (op +, - or *); ok is false when it
// overflows an int64.
func int64Arith(op string, l, r int64) (int64, bool) {
	switch op {
	case "+":
		s := l + r
		return s, (s > l) == (r > 0)
	case "-":
		s := l - r
		return s, (s < l) == (r > 0)
	default:
		if l == 0 || r == 0 {
			return 0, true
		}
		p := l * r
		return p, p/r == l && !(l == -1 && r == math.MinInt64) && !(r == -1 && l == math.MinInt64)
	}
}

// narrowSigned reports whether t is a signed integer type of at most 32
// bits (YEAR aside): +, - and * of two such never leave an int64.
func narrowSigned(t sql.Type) bool {
	switch t {
	case gtypes.Int8, gtypes.Int16, gtypes.Int24, gtypes.Int32:
		return true
	}
	return false
}

// narrowArith is +, - or * of two signed integers of at most 32 bits,
// computed in int64 (where it cannot overflow) with its type worked out
// once: go-mysql-server's Arithmetic asks its own type, walking its
// operands' types, and converts both operands to it, for every row (a
// fifth of a report of such sums). Immutable; safe for concurrent use.
type narrowArith struct {
	*expression.Arithmetic
	typ sql.Type // go-mysql-server's type of the expression
}

var _ sql.Expression = (*narrowArith)(nil)

// Type is go-mysql-server's, worked out when the expression was made.
func (n *narrowArith) Type() sql.Type { return n.typ }

// WithChildren keeps the replacement.
func (n *narrowArith) WithChildren(k ...sql.Expression) (sql.Expression, error) {
	ne, err := n.Arithmetic.WithChildren(k...)
	if err != nil {
		return nil, err
	}
	if a, ok := ne.(*expression.Arithmetic); ok {
		return &narrowArith{Arithmetic: a, typ: a.Type()}, nil
	}
	return ne, nil
}

// Eval computes in int64; values of another kind take go-mysql-server's
// way.
func (n *narrowArith) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	lv, err := n.Left().Eval(ctx, row)
	if err != nil || lv == nil {
		return nil, err
	}
	rv, err := n.Right().Eval(ctx, row)
	if err != nil || rv == nil {
		return nil, err
	}
	l, lok := smallInt(lv)
	r, rok := smallInt(rv)
	if !lok || !rok || n.typ != gtypes.Int64 {
		return n.Arithmetic.Eval(ctx, row)
	}
	v, _ := int64Arith(n.Op, l, r)
	return v, nil
}

// mysql.ERDataOutOfRange is ER_DATA_OUT_OF_RANGE.

// mariaText prints an expression as MariaDB's 1690 quotes it: columns as
// `db`.`table`.`column`, operators between spaces.
func mariaText(e sql.Expression) string {
	switch x := e.(type) {
	case *checkedArith:
		return mariaText(x.Arithmetic)
	case *narrowArith:
		return mariaText(x.Arithmetic)
	case *expression.Arithmetic:
		return mariaText(x.Left()) + " " + x.Op + " " + mariaText(x.Right())
	case *expression.GetField:
		s := "`" + x.Name() + "`"
		if x.Table() != "" {
			s = "`" + x.Table() + "`." + s
			if x.Database() != "" {
				s = "`" + x.Database() + "`." + s
			}
		}
		return s
	case *expression.Literal:
		if v, ok := x.Value().(string); ok {
			return "'" + v + "'"
		}
		return fmt.Sprint(x.Value())
	case *castInt:
		as := "signed"
		if x.unsigned {
			as = "unsigned"
		}
		return "cast(" + mariaText(x.child) + " as " + as + ")"
	case *expression.Convert:
		if t := x.Type(); is64(t) {
			as := "signed"
			if t == gtypes.Uint64 {
				as = "unsigned"
			}
			return "cast(" + mariaText(x.Child) + " as " + as + ")"
		}
	}
	return e.String()
}
