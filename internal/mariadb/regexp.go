package mariadb

import (
	"regexp"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// regexpMatchTime bounds one match of the backtracking engine. MariaDB
// bounds PCRE2 by steps; a bound in time is what regexp2 offers, and
// half a second keeps a KILL answered within a second.
const regexpMatchTime = 500 * time.Millisecond

// mysql.ERRegexpError is ER_REGEXP_ERROR.

// ruleBoundedRegexp replaces go-mysql-server's REGEXP / RLIKE /
// REGEXP_LIKE, REGEXP_INSTR, REGEXP_SUBSTR and REGEXP_REPLACE, which
// match with ICU's backtracking engine compiled to WebAssembly (no step
// or time limit, deaf to the statement's cancellation: SELECT
// REPEAT('a',30) REGEXP '^(a+)+$b' kept a core busy past KILL), by
// regexpFunc, whose matcher never runs unbounded:
//
//   - REGEXP matches with Go's regexp package when its syntax takes the
//     pattern: time linear in the text, so no pattern makes it run long;
//   - every other pattern (back references, look-around, atomic groups,
//     possessive quantifiers) and the three functions that walk matches
//     use regexp2, a backtracking engine, with each match bounded by
//     regexpMatchTime and the statement's cancellation checked between
//     matches. A match past the bound counts as no match with warning
//     1139 "Regex error 'match limit exceeded'", as MariaDB answers when
//     PCRE2's match limit stops it.
//
// The answers are MariaDB's: REGEXP_SUBSTR without a match is the empty
// string,
// REGEXP_REPLACE stops at the first empty match and reads \0..\9 in
// the replacement as groups, and a pattern neither engine compiles is
// error 1139. REGEXP_REPLACE's result is bounded by max_allowed_packet
// as it is built (NULL and warning 1301 past it). MySQL's extra
// arguments (position, occurrence, return option, match type), which
// go-mysql-server's parser accepts, keep their MySQL meaning.

// boundedRegexpRule swaps every regular-expression function of the plan
// for a regexpFunc, only when the statement's text names one.
func boundedRegexpRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !sqlbackend.QueryContainsFold(ctx, "regexp") && !sqlbackend.QueryContainsFold(ctx, "rlike") {
		return n, transform.SameTree, nil
	}
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if f := newRegexpFunc(ctx, e); f != nil {
			return f, transform.NewTree, nil
		}
		return e, transform.SameTree, nil
	})
}

// regexpKind is which function a regexpFunc computes.
type regexpKind uint8

const (
	reLike    regexpKind = iota // text REGEXP pattern, REGEXP_LIKE(text, pattern[, flags])
	reInstr                     // REGEXP_INSTR(text, pattern, pos, occurrence, return_option[, flags])
	reSubstr                    // REGEXP_SUBSTR(text, pattern, pos, occurrence[, flags])
	reReplace                   // REGEXP_REPLACE(text, pattern, replacement[, pos[, occurrence[, flags]]])
)

// regexpFunc is one regular-expression function over args (in the
// function's argument order). fixed is the matcher compiled once when
// the pattern and flags are literals (fixedErr its compile error); a
// pattern computed per row is compiled per row. regexpFunc is immutable
// and safe for concurrent use: Go's regexp and regexp2's Regexp both
// are.
type regexpFunc struct {
	orig     sql.Expression // go-mysql-server's function: Type, String, coercibility
	kind     regexpKind
	args     []sql.Expression
	flags    int // index of the match-type argument in args; -1 if none
	fixed    *matcher
	fixedErr error
}

// newRegexpFunc is the regexpFunc of e, nil when e is not a regular
// expression function.
func newRegexpFunc(ctx *sql.Context, e sql.Expression) *regexpFunc {
	f := &regexpFunc{orig: e, args: e.Children(), flags: -1}
	switch e.(type) {
	case *function.RegexpLike:
		f.kind = reLike
		if len(f.args) > 2 {
			f.flags = 2
		}
	case *function.RegexpInstr:
		f.kind = reInstr
		if len(f.args) > 5 {
			f.flags = 5
		}
	case *function.RegexpSubstr:
		f.kind = reSubstr
		if len(f.args) > 4 {
			f.flags = 4
		}
	case *function.RegexpReplace:
		f.kind = reReplace
		if len(f.args) > 5 {
			f.flags = 5
		}
	default:
		return nil
	}
	if isLiteral(f.args[1]) && (f.flags < 0 || isLiteral(f.args[f.flags])) {
		f.fixed, f.fixedErr = f.compile(ctx, nil)
	}
	return f
}

func isLiteral(e sql.Expression) bool {
	_, ok := e.(*expression.Literal)
	return ok
}

// compile builds the matcher of the pattern and flags for row: nil (and
// no error) when the pattern or flags are NULL.
func (f *regexpFunc) compile(ctx *sql.Context, row sql.Row) (*matcher, error) {
	pat, null, err := textArg(ctx, f.args[1], row)
	if err != nil || null {
		return nil, err
	}
	if pat == "" {
		return &matcher{}, nil // matches the empty string everywhere
	}
	lc, lco := sql.GetCoercibility(ctx, f.args[0])
	rc, rco := sql.GetCoercibility(ctx, f.args[1])
	coll, _ := sql.ResolveCoercibility(lc, lco, rc, rco)
	o := reOptions{ci: strings.HasSuffix(coll.String(), "_ci")}
	if f.flags >= 0 {
		fs, null, err := textArg(ctx, f.args[f.flags], row)
		if err != nil || null {
			return nil, err
		}
		for _, c := range fs {
			switch c {
			case 'c':
				o.ci = false
			case 'i':
				o.ci = true
			case 'm':
				o.multi = true
			case 'n':
				o.dotAll = true
			case 'u':
			default:
				return nil, sql.ErrInvalidArgument.New(f.orig.(sql.FunctionExpression).FunctionName())
			}
		}
	}
	return compileMatcher(pat, o, f.kind == reLike)
}

// textArg evaluates e as text; null when it is NULL.
func textArg(ctx *sql.Context, e sql.Expression, row sql.Row) (s string, null bool, err error) {
	v, err := e.Eval(ctx, row)
	if err != nil || v == nil {
		return "", v == nil, err
	}
	v, _, err = gtypes.LongText.Convert(ctx, v)
	if err != nil {
		return "", false, err
	}
	v, err = sql.UnwrapAny(ctx, v)
	if err != nil {
		return "", false, err
	}
	s, _ = v.(string)
	return s, false, nil
}

// intArg evaluates e as an integer; null when it is NULL.
func intArg(ctx *sql.Context, e sql.Expression, row sql.Row) (n int, null bool, err error) {
	v, err := e.Eval(ctx, row)
	if err != nil || v == nil {
		return 0, v == nil, err
	}
	v, _, err = gtypes.Int32.Convert(ctx, v)
	if err != nil {
		return 0, false, err
	}
	return int(v.(int32)), false, nil
}

// reOptions are a pattern's matching options.
type reOptions struct {
	ci, multi, dotAll bool
}

// matcher is one compiled pattern: re (Go's linear-time engine) when it
// serves, else bt (regexp2, bounded by regexpMatchTime); neither for
// the empty pattern, which matches the empty string at every place.
// A matcher is immutable and safe for concurrent use.
type matcher struct {
	re *regexp.Regexp
	bt *regexp2.Regexp
}

// compileMatcher compiles pat: with Go's engine when linear (the REGEXP
// operator only needs to know whether there is a match) and its syntax
// takes pat, else with regexp2 in its RE2-compatible mode (POSIX
// classes, \_ as _, possessive quantifiers, as PCRE reads them). A
// pattern neither takes is error 1139.
func compileMatcher(pat string, o reOptions, linear bool) (*matcher, error) {
	if linear {
		prefix := ""
		if o.ci {
			prefix += "i"
		}
		if o.multi {
			prefix += "m"
		}
		if o.dotAll {
			prefix += "s"
		}
		p := pat
		if prefix != "" {
			p = "(?" + prefix + ")" + pat
		}
		if re, err := regexp.Compile(p); err == nil {
			return &matcher{re: re}, nil
		}
	}
	opts := regexp2.RE2
	if o.ci {
		opts |= regexp2.IgnoreCase
	}
	if o.multi {
		opts |= regexp2.Multiline
	}
	if o.dotAll {
		opts |= regexp2.Singleline
	}
	bt, err := regexp2.Compile(pat, opts)
	if err != nil {
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		return nil, errtable.SQLError(mysql.ERRegexpError, msg)
	}
	bt.MatchTimeout = regexpMatchTime
	return &matcher{bt: bt}, nil
}

// each calls fn with each successive match in s from the character
// start on, until fn returns false: the byte offsets of the match
// (loc[0], loc[1]) and of each group (loc[2k], loc[2k+1], -1 where the
// group took no part). After an empty match the search moves on by one
// character. A match the engine gives up on ends the walk with warning
// 1139, as MariaDB's match limit; the error is the statement's
// cancellation, checked before each match.
func (m *matcher) each(ctx *sql.Context, s string, start int, fn func(loc []int) bool) error {
	if m.bt == nil { // the empty pattern: an empty match at every place
		i := 0
		for b := range s {
			if i >= start && !fn([]int{b, b}) {
				return nil
			}
			i++
		}
		if i >= start {
			fn([]int{len(s), len(s)})
		}
		return nil
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	mt, err := m.bt.FindStringMatchStartingAt(s, start)
	for {
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return cerr
			}
			ctx.Warn(mysql.ERRegexpError, "Regex error 'match limit exceeded'")
			return nil
		}
		if mt == nil || !fn(locOf(mt)) {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		mt, err = m.bt.FindNextMatch(mt)
	}
}

// locOf is the byte offsets of mt and its groups, as each gives them.
func locOf(mt *regexp2.Match) []int {
	groups := mt.Groups()
	loc := make([]int, 2*len(groups))
	for i := range groups {
		g := &groups[i]
		if len(g.Captures) == 0 {
			loc[2*i], loc[2*i+1] = -1, -1
			continue
		}
		b, n := g.ByteRange()
		loc[2*i], loc[2*i+1] = b, b+n
	}
	return loc
}

// like reports whether s holds a match.
func (m *matcher) like(ctx *sql.Context, s string) (bool, error) {
	if m.re != nil {
		return m.re.MatchString(s), nil
	}
	found := false
	err := m.each(ctx, s, 0, func([]int) bool {
		found = true
		return false
	})
	return found, err
}

// nth is the occ-th match at or after character start.
func (m *matcher) nth(ctx *sql.Context, s string, start, occ int) (loc []int, ok bool, err error) {
	err = m.each(ctx, s, start, func(l []int) bool {
		if occ--; occ == 0 {
			loc, ok = l, true
			return false
		}
		return true
	})
	return loc, ok, err
}

// Eval implements sql.Expression.
func (f *regexpFunc) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	text, null, err := textArg(ctx, f.args[0], row)
	if err != nil || null {
		return nil, err
	}
	m, err := f.fixed, f.fixedErr
	if m == nil && err == nil {
		m, err = f.compile(ctx, row)
	}
	if err != nil || m == nil {
		return nil, err
	}
	switch f.kind {
	case reLike:
		ok, err := m.like(ctx, text)
		if err != nil {
			return nil, err
		}
		if ok {
			return int8(1), nil
		}
		return int8(0), nil
	case reReplace:
		return f.replace(ctx, row, m, text)
	}
	pos, null, err := intArg(ctx, f.args[2], row)
	if err != nil || null {
		return nil, err
	}
	occ, null, err := intArg(ctx, f.args[3], row)
	if err != nil || null {
		return nil, err
	}
	if pos < 1 || occ < 1 {
		return nil, sql.ErrInvalidArgumentDetails.New(f.FunctionName(), pos)
	}
	loc, ok, err := m.nth(ctx, text, pos-1, occ)
	if err != nil {
		return nil, err
	}
	if f.kind == reSubstr {
		if !ok {
			return "", nil // MariaDB: no match is the empty string
		}
		return text[loc[0]:loc[1]], nil
	}
	ret, null, err := intArg(ctx, f.args[4], row)
	if err != nil || null {
		return nil, err
	}
	if !ok {
		return int32(0), nil
	}
	at := loc[0]
	if ret != 0 {
		at = loc[1]
	}
	return int32(utf8.RuneCountInString(text[:at]) + 1), nil
}

// replace is REGEXP_REPLACE: each match (from the position, or only the
// occurrence-th) replaced by the replacement with \N read as group N.
// As MariaDB, it stops at the first empty match. The result is bounded
// by max_allowed_packet while it grows.
func (f *regexpFunc) replace(ctx *sql.Context, row sql.Row, m *matcher, text string) (interface{}, error) {
	repl, null, err := textArg(ctx, f.args[2], row)
	if err != nil || null {
		return nil, err
	}
	pos, occ := 1, 0
	if len(f.args) > 3 {
		if pos, null, err = intArg(ctx, f.args[3], row); err != nil || null {
			return nil, err
		}
		if pos < 1 {
			return nil, sql.ErrInvalidArgumentDetails.New(f.FunctionName(), pos)
		}
	}
	if len(f.args) > 4 {
		if occ, null, err = intArg(ctx, f.args[4], row); err != nil || null {
			return nil, err
		}
	}
	limit := int(maxPacket(ctx))
	var b strings.Builder
	done, seen, over := 0, 0, false
	err = m.each(ctx, text, pos-1, func(loc []int) bool {
		if loc[0] == loc[1] {
			return false
		}
		if seen++; occ != 0 && seen != occ {
			return true
		}
		b.WriteString(text[done:loc[0]])
		appendReplacement(&b, repl, text, loc)
		done = loc[1]
		over = b.Len() > limit
		return occ == 0 && !over
	})
	if err != nil {
		return nil, err
	}
	if over {
		ctx.Warn(errtable.ERWarnAllowedPacketOverflowed, "Result of %s() was larger than max_allowed_packet (%d) - truncated", f.FunctionName(), limit)
		return nil, nil
	}
	if done == 0 {
		return text, nil
	}
	b.WriteString(text[done:])
	if b.Len() > limit {
		ctx.Warn(errtable.ERWarnAllowedPacketOverflowed, "Result of %s() was larger than max_allowed_packet (%d) - truncated", f.FunctionName(), limit)
		return nil, nil
	}
	return b.String(), nil
}

// appendReplacement writes repl for the match loc of text: \0..\9 are
// the match and its groups (nothing for a group that took no part), a
// backslash before any other character is that character, a trailing
// backslash is dropped.
func appendReplacement(b *strings.Builder, repl, text string, loc []int) {
	for i := 0; i < len(repl); i++ {
		c := repl[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i == len(repl) {
			return
		}
		c = repl[i]
		if c < '0' || c > '9' {
			b.WriteByte(c)
			continue
		}
		if g := int(c - '0'); 2*g+1 < len(loc) && loc[2*g] >= 0 {
			b.WriteString(text[loc[2*g]:loc[2*g+1]])
		}
	}
}

// FunctionName implements sql.FunctionExpression.
func (f *regexpFunc) FunctionName() string {
	return f.orig.(sql.FunctionExpression).FunctionName()
}

// Description implements sql.FunctionExpression.
func (f *regexpFunc) Description() string {
	return f.orig.(sql.FunctionExpression).Description()
}

// Children implements sql.Expression.
func (f *regexpFunc) Children() []sql.Expression { return f.args }

// WithChildren implements sql.Expression.
func (f *regexpFunc) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	c, err := f.orig.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if n := newRegexpFunc(sql.NewEmptyContext(), c); n != nil {
		return n, nil
	}
	return c, nil
}

// Resolved implements sql.Expression.
func (f *regexpFunc) Resolved() bool { return f.orig.Resolved() }

// String implements sql.Expression.
func (f *regexpFunc) String() string { return f.orig.String() }

// Type implements sql.Expression.
func (f *regexpFunc) Type() sql.Type { return f.orig.Type() }

// IsNullable implements sql.Expression.
func (f *regexpFunc) IsNullable() bool { return true }

// CollationCoercibility implements sql.CollationCoercible.
func (f *regexpFunc) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	if c, ok := f.orig.(sql.CollationCoercible); ok {
		return c.CollationCoercibility(ctx)
	}
	return sql.Collation_binary, 6
}
