package mariadb

import (
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// isoDatesRule gives YEAR, MONTH, DAY, DATE and the other functions that
// take one date part their argument already as a time when it is text
// in the ISO form (DATE() returns its date as text, so YEAR(DATE(x)) gets
// text): go-mysql-server parses such text by trying layouts in turn, and
// each failed layout allocates an error, for every row (and, in a
// window's ORDER BY, for every comparison). isoDate parses the two ISO
// forms directly and leaves any other text to go-mysql-server, which
// parses it as before. The rule is a pure function of the plan.
func isoDatesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch e.(type) {
		case *function.Year, *function.Quarter, *function.Month, *function.Day, *function.Weekday,
			*function.Hour, *function.Minute, *function.Second, *function.DayOfWeek, *function.DayOfYear, *function.Date:
		default:
			return e, transform.SameTree, nil
		}
		ch := e.Children()
		if len(ch) != 1 {
			return e, transform.SameTree, nil
		}
		if _, done := ch[0].(*isoDate); done {
			return e, transform.SameTree, nil
		}
		ne, err := e.WithChildren(&isoDate{ch[0]})
		if err != nil {
			return nil, transform.SameTree, err
		}
		return ne, transform.NewTree, nil
	})
}

// isoDate is its argument, but text of the form YYYY-MM-DD or
// YYYY-MM-DD HH:MM:SS[.fraction] (a valid date and time) is returned as
// that time in UTC, as go-mysql-server's parsing gives it. Its type is the
// argument's.
type isoDate struct {
	sql.Expression
}

var _ sql.Expression = (*isoDate)(nil)

// Eval returns the argument's value, ISO text as a time.
func (d *isoDate) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := d.Expression.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	switch s := v.(type) {
	case string:
		if t, ok := parseISODate(s); ok {
			return t, nil
		}
	case []byte:
		if t, ok := parseISODate(string(s)); ok {
			return t, nil
		}
	}
	return v, nil
}

// Children is the argument.
func (d *isoDate) Children() []sql.Expression { return []sql.Expression{d.Expression} }

// WithChildren replaces the argument.
func (d *isoDate) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(d, len(children), 1)
	}
	return &isoDate{children[0]}, nil
}

// String is the argument's.
func (d *isoDate) String() string { return d.Expression.String() }

// appendISODate appends t's date as YYYY-MM-DD (t's year within 0-9999).
func appendISODate(b []byte, t time.Time) []byte {
	y, m, d := t.Date()
	return append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10), '-',
		byte('0'+int(m)/10), byte('0'+int(m)%10), '-', byte('0'+d/10), byte('0'+d%10))
}

// parseISODate parses YYYY-MM-DD and YYYY-MM-DD HH:MM:SS with an
// optional fraction of 1 to 9 digits; ok is false for anything else,
// including dates that do not exist and the zero date.
func parseISODate(s string) (time.Time, bool) {
	if len(s) != 10 && (len(s) < 19 || len(s) == 20 || len(s) > 29) {
		return time.Time{}, false
	}
	num := func(from, to int) (int, bool) {
		n := 0
		for i := from; i < to; i++ {
			c := s[i]
			if c < '0' || c > '9' {
				return 0, false
			}
			n = n*10 + int(c-'0')
		}
		return n, true
	}
	y, ok1 := num(0, 4)
	mo, ok2 := num(5, 7)
	day, ok3 := num(8, 10)
	if !ok1 || !ok2 || !ok3 || s[4] != '-' || s[7] != '-' || y == 0 || mo < 1 || mo > 12 || day < 1 {
		return time.Time{}, false
	}
	var h, mi, sec, nsec int
	if len(s) > 10 {
		var ok4, ok5, ok6 bool
		h, ok4 = num(11, 13)
		mi, ok5 = num(14, 16)
		sec, ok6 = num(17, 19)
		if s[10] != ' ' || s[13] != ':' || s[16] != ':' || !ok4 || !ok5 || !ok6 || h > 23 || mi > 59 || sec > 59 {
			return time.Time{}, false
		}
		if len(s) > 19 {
			if s[19] != '.' {
				return time.Time{}, false
			}
			f, ok := num(20, len(s))
			if !ok {
				return time.Time{}, false
			}
			for i := len(s) - 20; i < 9; i++ {
				f *= 10
			}
			nsec = f
		}
	}
	t := time.Date(y, time.Month(mo), day, h, mi, sec, nsec, time.UTC)
	if t.Day() != day { // February 30th and the like
		return time.Time{}, false
	}
	return t, true
}
