package mariadb

import (
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// sizeGuardedFuncs names the guarded functions (as FunctionName spells
// them) and how each bounds its result's length in bytes.
var sizeGuardedFuncs = map[string]func(ctx *sql.Context, args []interface{}) float64{
	"repeat": func(ctx *sql.Context, a []interface{}) float64 {
		return valueLen(a[0]) * nonNegative(ctx, a[1])
	},
	"lpad":  padBound,
	"rpad":  padBound,
	"space": func(ctx *sql.Context, a []interface{}) float64 { return nonNegative(ctx, a[0]) },
	"concat": func(ctx *sql.Context, a []interface{}) float64 {
		n := 0.0
		for _, v := range a {
			n += valueLen(v)
		}
		return n
	},
	"concat_ws": func(ctx *sql.Context, a []interface{}) float64 {
		n, k := 0.0, 0.0
		for _, v := range a[1:] {
			if v != nil {
				n += valueLen(v)
				k++
			}
		}
		if k > 1 {
			n += (k - 1) * valueLen(a[0])
		}
		return n
	},
	"replace": func(ctx *sql.Context, a []interface{}) float64 {
		s, ok1 := a[0].(string)
		from, ok2 := a[1].(string)
		to, ok3 := a[2].(string)
		if !ok1 || !ok2 || !ok3 {
			// A value of another type converts to text of its own
			// size's order; its replacement is bounded as a string's.
			return valueLen(a[0]) * (1 + valueLen(a[2]))
		}
		if from == "" || len(to) <= len(from) {
			return float64(len(s))
		}
		return float64(len(s)) + float64(strings.Count(s, from))*float64(len(to)-len(from))
	},
	"to_base64": func(ctx *sql.Context, a []interface{}) float64 {
		n := valueLen(a[0])
		return n*4/3 + n/57 + 4 // with a newline every 76 characters
	},
	"hex": func(ctx *sql.Context, a []interface{}) float64 { return 2 * valueLen(a[0]) },
	// JSON_ARRAY and JSON_OBJECT: a lower bound (each text quoted, a
	// separator between values), so that NULL is answered only when the
	// document surely passes the limit; text needing escapes can make a
	// document a few times longer than the bound.
	"json_array":  jsonBound,
	"json_object": jsonBound,
}

// jsonBound is a lower bound of the length of a JSON document holding
// the values a: text and bytes quoted, any other value at least one
// character, separators between them, brackets around.
func jsonBound(ctx *sql.Context, a []interface{}) float64 {
	n := 2.0
	for _, v := range a {
		switch x := v.(type) {
		case string:
			n += float64(len(x)) + 3
		case []byte:
			n += float64(len(x)) + 3
		default:
			n += 2
		}
	}
	return n
}

// padBound bounds LPAD/RPAD(str, len, pad): len characters of at most
// four bytes each (one each when both texts are ASCII).
func padBound(ctx *sql.Context, a []interface{}) float64 {
	n := nonNegative(ctx, a[1])
	per := 1.0
	for _, v := range [...]interface{}{a[0], padArg(a)} {
		if s, ok := v.(string); ok && !isASCII(s) {
			per = 4
		} else if !ok && v != nil {
			per = 4
		}
	}
	return n * per
}

// padArg is LPAD's third argument, nil when it has two.
func padArg(a []interface{}) interface{} {
	if len(a) > 2 {
		return a[2]
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// valueLen is the length in bytes of v as text: exact for strings and
// byte strings, a bound for numbers and times.
func valueLen(v interface{}) float64 {
	switch x := v.(type) {
	case nil:
		return 0
	case string:
		return float64(len(x))
	case []byte:
		return float64(len(x))
	case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, float32, float64, time.Time, decimal.Decimal:
		// (the common kinds first: asking for an interface costs more)
		return 64
	}
	if w, ok := v.(sql.AnyWrapper); ok {
		return float64(w.MaxByteLength())
	}
	return 64
}

// nonNegative is v as a count (0 when negative, NULL or not a number; the
// function itself then answers as it does).
func nonNegative(ctx *sql.Context, v interface{}) float64 {
	if v == nil {
		return 0
	}
	f, _, err := gtypes.Float64.Convert(ctx, v)
	if err != nil {
		return 0
	}
	if x, ok := f.(float64); ok && x > 0 {
		return x
	}
	return 0
}

// maxPacket is the session's max_allowed_packet (MariaDB's default when
// unreadable).
func maxPacket(ctx *sql.Context) int64 {
	if v, err := ctx.GetSessionVariable(ctx, "max_allowed_packet"); err == nil {
		if n, ok := sqlbackend.WideInt(v); ok {
			return n
		}
	}
	return 16 << 20
}

// ruleSizeGuard wraps every string function that can build a value
// larger than its arguments (REPEAT, LPAD, RPAD, SPACE, CONCAT,
// CONCAT_WS, REPLACE, TO_BASE64, HEX, JSON_ARRAY, JSON_OBJECT) in a sizeGuard, which decides from
// the arguments' values, before the function allocates anything, whether
// the result would pass max_allowed_packet; if so the result is NULL with
// warning 1301, as MariaDB answers ("Result of repeat() was larger than
// max_allowed_packet (16777216) - truncated"). Without it one
// SELECT REPEAT('x',1e9) took gigabytes. QUOTE becomes quoteFunc, which
// bounds itself.

// sizeGuardRule wraps the functions sizeGuardedFuncs names. It runs after
// fastConcatRule (whose concatWS it wraps too) and only when the
// statement's text names one of them.
func sizeGuardRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	has := func(w string) bool { return sqlbackend.QueryContainsFold(ctx, w) }
	if !has("repeat") && !has("pad") && !has("space") && !has("concat") && !has("replace") && !has("base64") &&
		!has("hex") && !has("json_") && !has("quote") {
		return n, transform.SameTree, nil
	}
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if q, ok := e.(*function.Quote); ok {
			return &quoteFunc{Quote: q}, transform.NewTree, nil
		}
		fe, ok := e.(sql.FunctionExpression)
		if !ok {
			return e, transform.SameTree, nil
		}
		bound := sizeGuardedFuncs[strings.ToLower(fe.FunctionName())]
		if bound == nil {
			return e, transform.SameTree, nil
		}
		if typeBounded(ctx, strings.ToLower(fe.FunctionName()), e.Children()) {
			// no bound to check, but the guard's check for a killed
			// statement stays (a join of derived rows has no other)
			return &killCheck{Expression: e}, transform.NewTree, nil
		}
		g, err := newSizeGuard(e, strings.ToLower(fe.FunctionName()), bound, e.Children())
		if err != nil {
			return nil, transform.SameTree, err
		}
		return g, transform.NewTree, nil
	})
}

// sizeGuard evaluates a guarded function's arguments once, bounds the
// result's length from them and, below max_allowed_packet, runs the
// function over those values (its children are argRefs reading them from
// the end of the row it is given). It is immutable, safe for concurrent
// use.
type sizeGuard struct {
	orig  sql.Expression // the function over args, for String, Type and coercibility
	fn    sql.Expression // the function over argRefs
	name  string
	bound func(*sql.Context, []interface{}) float64
	args  []sql.Expression
}

func newSizeGuard(orig sql.Expression, name string, bound func(*sql.Context, []interface{}) float64, args []sql.Expression) (*sizeGuard, error) {
	refs := make([]sql.Expression, len(args))
	for i, c := range args {
		refs[i] = &argRef{Expression: c, i: i, n: len(args)}
	}
	fn, err := orig.WithChildren(refs...)
	if err != nil {
		return nil, err
	}
	return &sizeGuard{orig: orig, fn: fn, name: name, bound: bound, args: args}, nil
}

// killCheck evaluates a function whose result needs no size guard, after
// the check for a killed statement the guard makes. Immutable, safe for
// concurrent use.
type killCheck struct {
	sql.Expression
}

func (k *killCheck) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return k.Expression.Eval(ctx, row)
}

func (k *killCheck) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := k.Expression.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &killCheck{Expression: e}, nil
}

// CollationCoercibility is the function's.
func (k *killCheck) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, k.Expression)
}

// typeBounded reports whether the types of a CONCAT's or CONCAT_WS's
// arguments bound its result below minPacket (columns of short types, as
// a checksum's CONCAT_WS of a row's columns): then no value can pass any
// session's limit and the function needs no guard.
func typeBounded(ctx *sql.Context, name string, args []sql.Expression) bool {
	if name != "concat" && name != "concat_ws" {
		return false
	}
	n := 0.0
	for i, a := range args {
		l := float64(a.Type().MaxTextResponseByteLength(ctx))
		switch x := a.(type) {
		case *expression.Literal:
			l = valueLen(x.Value())
		case *enumText:
			// a label, no longer than the column's text
			l = float64(x.child.Type().MaxTextResponseByteLength(ctx))
		}
		if name == "concat_ws" && i == 0 {
			l *= float64(len(args) - 2) // the separator, between the values
		}
		n += l
	}
	return n <= minPacket
}

// minPacket is the least max_allowed_packet a session can have: a
// result bounded below it needs no look-up of the session's value.
const minPacket = 1024

// Eval implements sql.Expression. The function's children are argRefs,
// which read the values from the end of the row they are given: the
// values alone are that row.
func (g *sizeGuard) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	vals := make(sql.Row, len(g.args))
	limit := -1.0 // the session's max_allowed_packet, read when needed
	overLimit := func(bound float64) bool {
		if bound <= minPacket {
			return false
		}
		if limit < 0 {
			limit = float64(maxPacket(ctx))
		}
		return bound > limit
	}
	// acc bounds the text of the values so far, with room for the
	// separators and quotes of the additive functions (CONCAT,
	// CONCAT_WS, JSON_ARRAY, JSON_OBJECT): their bound of those values
	// is at most acc, so the exact bound is asked only past it.
	acc := 2.0
	for i, a := range g.args {
		v, err := a.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		vals[i] = v
		// With more than two arguments (CONCAT, CONCAT_WS) the bound of
		// those evaluated so far (the others as NULL) already decides,
		// so that the arguments held at once stay under the limit too.
		if len(g.args) > 2 && i < len(g.args)-1 {
			acc += valueLen(v) + 3 + valueLen(vals[0])
			if overLimit(acc) && overLimit(g.bound(ctx, vals)) {
				return g.overflow(ctx, limit)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if overLimit(g.bound(ctx, vals)) {
		return g.overflow(ctx, limit)
	}
	return g.fn.Eval(ctx, vals)
}

// overflow is the answer past max_allowed_packet: NULL and warning 1301.
func (g *sizeGuard) overflow(ctx *sql.Context, limit float64) (interface{}, error) {
	ctx.Warn(errtable.ERWarnAllowedPacketOverflowed, "Result of %s() was larger than max_allowed_packet (%d) - truncated", g.name, int64(limit))
	return nil, nil
}

// Children implements sql.Expression.
func (g *sizeGuard) Children() []sql.Expression { return g.args }

// WithChildren implements sql.Expression.
func (g *sizeGuard) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	orig, err := g.orig.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return newSizeGuard(orig, g.name, g.bound, children)
}

// Resolved implements sql.Expression.
func (g *sizeGuard) Resolved() bool { return g.orig.Resolved() }

// String implements sql.Expression.
func (g *sizeGuard) String() string { return g.orig.String() }

// Type implements sql.Expression.
func (g *sizeGuard) Type() sql.Type { return g.orig.Type() }

// IsNullable implements sql.Expression (NULL past max_allowed_packet).
func (g *sizeGuard) IsNullable() bool { return true }

// FunctionName implements sql.FunctionExpression.
func (g *sizeGuard) FunctionName() string { return g.name }

// Description implements sql.FunctionExpression.
func (g *sizeGuard) Description() string { return g.name + "() bounded by max_allowed_packet" }

// CollationCoercibility implements sql.CollationCoercible.
func (g *sizeGuard) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, g.orig)
}

// argRef is argument i of n of a sizeGuard's function: its value is
// row[len(row)-n+i], put there by the guard; it keeps the argument's
// expression for its type and coercibility. It is immutable.
type argRef struct {
	sql.Expression
	i, n int
}

// Eval implements sql.Expression.
func (r *argRef) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	return row[len(row)-r.n+r.i], nil
}

// Children implements sql.Expression.
func (r *argRef) Children() []sql.Expression { return nil }

// WithChildren implements sql.Expression.
func (r *argRef) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(r, len(children), 0)
	}
	return r, nil
}

// String implements sql.Expression.
func (r *argRef) String() string { return r.Expression.String() }

// CollationCoercibility implements sql.CollationCoercible.
func (r *argRef) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.GetCoercibility(ctx, r.Expression)
}

// quoteFunc is QUOTE(str) as MariaDB answers it: the bytes of str in
// single quotes with a backslash before ' and \, NUL as \0 and ^Z as
// \Z; NULL is the word NULL; a result past max_allowed_packet is NULL
// with warning 1301, decided before it is built. (go-mysql-server's
// took its argument as a BLOB, error 1406 past 65,535 bytes, and
// answered NULL for NULL.) It is immutable, safe for concurrent use.
type quoteFunc struct {
	*function.Quote
}

// Eval implements sql.Expression.
func (q *quoteFunc) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := q.Child.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	var s string
	switch x := v.(type) {
	case nil:
		return "NULL", nil
	case []byte:
		s = string(x)
	default:
		t, _, err := gtypes.LongText.Convert(ctx, v)
		if err != nil {
			return nil, err
		}
		if t, err = sql.UnwrapAny(ctx, t); err != nil {
			return nil, err
		}
		s, _ = t.(string)
	}
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'', '\\', 0, 0x1a:
			n++
		}
	}
	if limit := maxPacket(ctx); int64(n) > limit {
		ctx.Warn(errtable.ERWarnAllowedPacketOverflowed, "Result of quote() was larger than max_allowed_packet (%d) - truncated", limit)
		return nil, nil
	}
	b := make([]byte, 0, n)
	b = append(b, '\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '\\':
			b = append(b, '\\', c)
		case 0:
			b = append(b, '\\', '0')
		case 0x1a:
			b = append(b, '\\', 'Z')
		default:
			b = append(b, c)
		}
	}
	return string(append(b, '\'')), nil
}

// IsNullable implements sql.Expression.
func (q *quoteFunc) IsNullable() bool { return true }

// WithChildren implements sql.Expression.
func (q *quoteFunc) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	c, err := q.Quote.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if nq, ok := c.(*function.Quote); ok {
		return &quoteFunc{Quote: nq}, nil
	}
	return c, nil
}
