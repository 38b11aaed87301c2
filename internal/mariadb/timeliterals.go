package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// Comparisons that go-mysql-server makes expensive per row.
//
// A date or time column compared with text ('2024-03-01'): go-mysql-server
// converts the text to a time for every row, trying its layouts in turn
// (each failed layout allocates an error). timeLiteralsRule converts such
// text once, when the plan is made: the literal becomes the same time,
// typed DATETIME(6), which is the type go-mysql-server compares the two
// sides in (comparison.castLeftAndRight). Text parseISODate does not take
// is left as it is.
//
// timeLiteralsRule is a pure function of the plan; the literals it makes
// are immutable.

func timeLiteralsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, timeLiteral)
}

// timeLiteral replaces a text literal compared with a date or time by
// that time.
func timeLiteral(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	ch, ok := comparedPair(e) // oddrule.go
	if !ok {
		return e, transform.SameTree, nil
	}
	l, r := ch[0], ch[1]
	var changed bool
	if t, ok := isoLiteral(r); ok && isDateTime(l.Type()) {
		r, changed = t, true
	} else if t, ok := isoLiteral(l); ok && isDateTime(r.Type()) {
		l, changed = t, true
	}
	if !changed {
		return e, transform.SameTree, nil
	}
	ne, err := e.WithChildren(l, r)
	if err != nil {
		return nil, transform.SameTree, err
	}
	return ne, transform.NewTree, nil
}

// isDateTime is true for DATE, DATETIME and TIMESTAMP (not TIME).
func isDateTime(t sql.Type) bool {
	_, ok := t.(sql.DatetimeType)
	return ok
}

// isoLiteral returns a text literal in an ISO date form as a DATETIME(6)
// literal of its time.
func isoLiteral(e sql.Expression) (sql.Expression, bool) {
	lit, ok := e.(*expression.Literal)
	if !ok || !gtypes.IsText(lit.Type()) {
		return nil, false
	}
	s, ok := lit.Value().(string)
	if !ok {
		return nil, false
	}
	t, ok := parseISODate(s)
	if !ok {
		return nil, false
	}
	return &isoTimeLiteral{Literal: expression.NewLiteral(t, gtypes.DatetimeMaxPrecision), text: lit.String()}, true
}

// isoTimeLiteral is the time of a text literal, printed (in EXPLAIN) as
// the text was.
type isoTimeLiteral struct {
	*expression.Literal
	text string
}

// String is the literal's text, quoted.
func (l *isoTimeLiteral) String() string { return l.text }
