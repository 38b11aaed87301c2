package sqlbackend

import (
	"regexp"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// ruleLinearRegexp replaces go-mysql-server's REGEXP / RLIKE /
// REGEXP_LIKE, which match with ICU's backtracking engine (compiled to
// WebAssembly, with no step or time limit and deaf to the statement's
// cancellation: SELECT REPEAT('a',30) REGEXP '^(a+)+$b' kept a core busy
// past KILL), by linearLike, which matches with Go's regexp package: its
// time is linear in the text, so no pattern can make one match run
// long. A pattern Go's syntax does not accept (back references,
// look-around, possessive quantifiers) still goes to ICU.
const ruleLinearRegexp analyzer.RuleId = 10382

// linearRegexpRule swaps every RegexpLike of the plan for a linearLike,
// only when the statement's text names REGEXP or RLIKE.
func linearRegexpRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if q := ctx.Query(); !containsFold(q, "regexp") && !containsFold(q, "rlike") {
		return n, transform.SameTree, nil
	}
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if r, ok := e.(*function.RegexpLike); ok {
			return newLinearLike(ctx, r), transform.NewTree, nil
		}
		return e, transform.SameTree, nil
	})
}

// linearLike is REGEXP_LIKE(text, pattern[, flags]) matched by Go's
// regexp (RE2 syntax and semantics, case-insensitive when the operands'
// collation is _ci or the flags say i; m and n flags as (?m) and (?s)).
// re is compiled once when the pattern and flags are literals; otherwise
// each row compiles its own. A pattern or flags Go cannot take are left
// to go-mysql-server's RegexpLike (orig). re is immutable and safe for
// concurrent use, and so is linearLike; orig is go-mysql-server's and
// keeps its own rules.
type linearLike struct {
	*function.RegexpLike
	re *regexp.Regexp
}

func newLinearLike(ctx *sql.Context, r *function.RegexpLike) *linearLike {
	l := &linearLike{RegexpLike: r}
	if _, ok := r.Pattern.(*expression.Literal); ok {
		if r.Flags == nil || isLiteral(r.Flags) {
			l.re, _ = l.compile(ctx, nil)
		}
	}
	return l
}

func isLiteral(e sql.Expression) bool {
	_, ok := e.(*expression.Literal)
	return ok
}

// compile builds the Go expression of the pattern and flags for row; nil
// when the pattern is NULL, ok false when Go cannot take them (or
// evaluating them fails, which RegexpLike then reports).
func (l *linearLike) compile(ctx *sql.Context, row sql.Row) (*regexp.Regexp, bool) {
	pv, err := l.Pattern.Eval(ctx, row)
	if err != nil {
		return nil, false
	}
	if pv == nil {
		return nil, false // RegexpLike answers NULL
	}
	pv, _, err = gtypes.LongText.Convert(ctx, pv)
	if err != nil {
		return nil, false
	}
	pat, ok := pv.(string)
	if !ok || pat == "" {
		return nil, false // RegexpLike reports the empty pattern
	}
	lc, lco := sql.GetCoercibility(ctx, l.Text)
	rc, rco := sql.GetCoercibility(ctx, l.Pattern)
	coll, _ := sql.ResolveCoercibility(lc, lco, rc, rco)
	ci := strings.HasSuffix(coll.String(), "_ci")
	multi, dotAll := false, false
	if l.Flags != nil {
		fv, err := l.Flags.Eval(ctx, row)
		if err != nil || fv == nil {
			return nil, false
		}
		fv, _, err = gtypes.LongText.Convert(ctx, fv)
		if err != nil {
			return nil, false
		}
		fs, _ := fv.(string)
		for _, f := range fs {
			switch f {
			case 'c':
				ci = false
			case 'i':
				ci = true
			case 'm':
				multi = true
			case 'n':
				dotAll = true
			case 'u':
			default:
				return nil, false // RegexpLike reports the flag
			}
		}
	}
	prefix := ""
	if ci {
		prefix += "i"
	}
	if multi {
		prefix += "m"
	}
	if dotAll {
		prefix += "s"
	}
	if prefix != "" {
		pat = "(?" + prefix + ")" + pat
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return nil, false
	}
	return re, true
}

// Eval implements sql.Expression.
func (l *linearLike) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	re := l.re
	if re == nil {
		var ok bool
		if re, ok = l.compile(ctx, row); !ok {
			return l.RegexpLike.Eval(ctx, row)
		}
	}
	tv, err := l.Text.Eval(ctx, row)
	if err != nil || tv == nil {
		return nil, err
	}
	tv, _, err = gtypes.LongText.Convert(ctx, tv)
	if err != nil {
		return nil, err
	}
	s, err := sql.UnwrapAny(ctx, tv)
	if err != nil {
		return nil, err
	}
	text, _ := s.(string)
	if re.MatchString(text) {
		return int8(1), nil
	}
	return int8(0), nil
}

// WithChildren implements sql.Expression.
func (l *linearLike) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	c, err := l.RegexpLike.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if r, ok := c.(*function.RegexpLike); ok {
		return newLinearLike(sql.NewEmptyContext(), r), nil
	}
	return c, nil
}
