package mariadb

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// Dates and times in expressions, where go-mysql-server and MariaDB
// differ. Two rules, pure functions of the plan and safe for concurrent
// use; the expressions they build are immutable:
//
//   - temporalTypesRule types DATE_ADD, DATE_SUB and `x + INTERVAL ...`
//     as MariaDB does: a DATETIME(p) or TIMESTAMP(p) argument gives a
//     DATETIME(p) (with 6 digits only when the interval has
//     microseconds), a DATE with an interval of days or longer units a
//     DATE. go-mysql-server makes the first DATETIME(6) and, for `+`,
//     the second DATETIME, and cuts a DATETIME(3)'s fraction in `+`
//     (temporalArith).
//   - temporalTextRule gives a DATE, DATETIME or TIMESTAMP value passed
//     to a string function (CONCAT, CONCAT_WS, LENGTH, HEX, REPLACE, ...,
//     and LIKE) as MariaDB prints it: 'YYYY-MM-DD' for a DATE, the
//     column's number of fractional digits for the others.
//     go-mysql-server turns every time value into 'YYYY-MM-DD hh:mm:ss'
//     with the fraction's trailing zeros cut (temporalText). The same
//     rule gives an ENUM or SET value as its label in GROUP_CONCAT and
//     JSON_OBJECT/JSON_ARRAY, when chosen by IF, IFNULL, COALESCE or
//     CASE among other values, and when such a choice of ENUMs is given
//     to a string function, and in MAX and MIN, which compare labels
//     (enumText; columns given to a string function directly are
//     valuesRule's).
//   - cteTimeTypesRule (run first) gives a recursive CTE's DATE,
//     DATETIME or TIMESTAMP column its anchor's type, as MariaDB does,
//     where go-mysql-server promotes it to DATETIME(6).

// temporalTypesRule replaces the date arithmetic on a time value by a
// temporalArith.
func temporalTypesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, retypeDateArith)
}

func retypeDateArith(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	var date sql.Expression
	var iv *expression.Interval
	sub := false
	switch x := e.(type) {
	case *function.DateAdd:
		date, iv = x.Date, x.Interval
	case *function.DateSub:
		date, iv, sub = x.Date, x.Interval, true
	case *expression.Arithmetic:
		if x.Op != "+" && x.Op != "-" {
			return e, transform.SameTree, nil
		}
		if i, ok := x.Right().(*expression.Interval); ok {
			date, iv, sub = x.Left(), i, x.Op == "-"
		} else if i, ok := x.Left().(*expression.Interval); ok && x.Op == "+" {
			date, iv = x.Right(), i
		}
	}
	if iv == nil {
		return e, transform.SameTree, nil
	}
	dt, ok := safeType(date)
	if !ok {
		return e, transform.SameTree, nil
	}
	want := dateArithType(dt, timeDigitsOf(date), iv)
	if want == nil {
		return e, transform.SameTree, nil
	}
	return &temporalArith{date: date, iv: iv, sub: sub, typ: want, text: e.String()}, transform.NewTree, nil
}

// dateArithType is MariaDB's type of a date of type dt (digits of
// fraction, for a TIME) plus or minus iv, or nil where HandlerDB leaves
// go-mysql-server's.
func dateArithType(dt sql.Type, digits uint8, iv *expression.Interval) sql.Type {
	unit := strings.ToUpper(iv.Unit)
	prec := 0
	switch {
	case strings.Contains(unit, "MICROSECOND"):
		prec = 6
	case unit == "SECOND":
		// A fractional number of seconds gives as many digits in
		// MariaDB; go-mysql-server rounds it: not retyped. (A unit of
		// several parts ending in SECOND has whole seconds.)
		it, ok := safeType(iv.Child)
		if !ok || !gtypes.IsInteger(it) {
			return nil
		}
	}
	timeUnit := strings.Contains(unit, "HOUR") || strings.Contains(unit, "MINUTE") || strings.Contains(unit, "SECOND")
	switch dt.Type() {
	case sqltypes.Date:
		if !timeUnit {
			return gtypes.Date
		}
		return gtypes.MustCreateDatetimeType(sqltypes.Datetime, prec)
	case sqltypes.Datetime, sqltypes.Timestamp:
		if p := dt.(sql.DatetimeType).Precision(); p > prec {
			prec = p
		}
		return gtypes.MustCreateDatetimeType(sqltypes.Datetime, prec)
	case sqltypes.Time:
		// a TIME plus an interval is a TIME, as in MariaDB
		// (go-mysql-server made it today's DATETIME); evalTime
		return sqlbackend.TimeType{TimeType: gtypes.Time, Scale: uint8(max(prec, int(digits)))}
	}
	return nil
}

// safeType returns e's type, or false where asking panics (placeholders
// of go-mysql-server not yet replaced) or the type is deferred.
func safeType(e sql.Expression) (t sql.Type, ok bool) {
	defer func() {
		if recover() != nil {
			t, ok = nil, false
		}
	}()
	t = e.Type()
	if t == nil || gtypes.IsDeferredType(t) {
		return nil, false
	}
	return t, true
}

// temporalArith is DATE_ADD, DATE_SUB, or a time plus or minus an
// INTERVAL, with MariaDB's result type typ: the date is added to with all
// its digits (go-mysql-server's `+` cuts them to its DATETIME(0)), and
// the zero date gives NULL with warning 1292, as in MariaDB.
type temporalArith struct {
	date sql.Expression
	iv   *expression.Interval
	sub  bool
	typ  sql.Type
	text string // the replaced expression's String
}

var _ sql.Expression = (*temporalArith)(nil)

func (r *temporalArith) Resolved() bool             { return r.date.Resolved() && r.iv.Resolved() }
func (r *temporalArith) String() string             { return r.text }
func (r *temporalArith) IsNullable() bool           { return true }
func (r *temporalArith) Children() []sql.Expression { return []sql.Expression{r.date, r.iv.Child} }
func (r *temporalArith) Type() sql.Type             { return r.typ }

// CollationCoercibility: a time value's.
func (r *temporalArith) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// WithChildren keeps the type and the interval's unit. The children are
// the date and the interval's value: go-mysql-server refuses an
// INTERVAL under any other expression than its own date arithmetic.
func (r *temporalArith) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	if len(c) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(r, len(c), 2)
	}
	iv := r.iv
	if c[1] != iv.Child {
		iv = expression.NewInterval(c[1], iv.Unit)
	}
	return &temporalArith{date: c[0], iv: iv, sub: r.sub, typ: r.typ, text: r.text}, nil
}

// Eval adds or subtracts the interval.
func (r *temporalArith) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := r.date.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	if o, ok := v.(sqlbackend.OddDate); ok { // a zero month or day: NULL, as in MariaDB
		if ctx.Session != nil {
			ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERTruncatedWrongValue,
				Message: "Incorrect datetime value: '" + o.String() + "'"})
		}
		return nil, nil
	}
	if tt, ok := r.typ.(sqlbackend.TimeType); ok {
		return r.evalTime(ctx, row, v, tt)
	}
	var tm time.Time
	if t, ok := v.(time.Time); ok && t.Year() > 0 && t.Year() < 9999 && shortcutEvaluated {
		// what DatetimeMaxPrecision.Convert makes of a time in range
		tm = t.UTC().Round(time.Microsecond)
	} else {
		tv, _, err := gtypes.DatetimeMaxPrecision.Convert(ctx, v)
		if err != nil || tv == nil {
			return nil, err
		}
		tm = tv.(time.Time)
	}
	if tm.Equal(sqlbackend.ZeroTime) {
		if ctx.Session != nil {
			ctx.Session.Warn(&sql.Warning{Level: "Warning", Code: mysql.ERTruncatedWrongValue,
				Message: "Incorrect datetime value: '" + string(appendTemporal(nil, tm, gtypes.Date)) + "'"})
		}
		return nil, nil
	}
	delta, null, err := r.delta(ctx, row)
	if err != nil || null {
		return nil, err
	}
	if r.sub {
		tm = delta.Sub(tm)
	} else {
		tm = delta.Add(tm)
	}
	res := gtypes.ValidateTime(tm)
	if res == nil {
		return nil, nil
	}
	out, _, err := r.typ.Convert(ctx, res)
	return out, err
}

// evalTime adds the interval to the TIME v, cut to tt's digits: NULL
// with warning 1441 for months or years, or past the TIME bounds.
func (r *temporalArith) evalTime(ctx *sql.Context, row sql.Row, v interface{}, tt sqlbackend.TimeType) (interface{}, error) {
	span, err := gtypes.Time.ConvertToTimespan(v)
	if err != nil {
		return nil, nil
	}
	delta, null, err := r.delta(ctx, row)
	if err != nil || null {
		return nil, err
	}
	us := (((delta.Days*24+delta.Hours)*60+delta.Minutes)*60+delta.Seconds)*1_000_000 + delta.Microseconds
	if r.sub {
		us = -us
	}
	out := span + gtypes.Timespan(us)
	if delta.Years != 0 || delta.Months != 0 || out > maxTimeSpan || out < -maxTimeSpan {
		// months have no fixed length; past the bounds: NULL, as
		// MariaDB's (a warning, not an error)
		ctx.Warn(errtable.ERDatetimeFunctionOverflow, "Datetime function: time field overflow")
		return nil, nil
	}
	return truncSpan(out, tt.Scale), nil
}

// delta is r.iv.EvalDelta, for a unit of one number (DAY, MONTH, ...)
// made without its allocation and unit-format lookup (a fifth of the
// arithmetic in a join that added a column's days to each row's date),
// and text read as MariaDB reads it: its integer prefix, with 1292 as a
// warning (a note when only spaces follow the number), where
// go-mysql-server failed the statement. null: the interval is NULL.
func (r *temporalArith) delta(ctx *sql.Context, row sql.Row) (td expression.TimeDelta, null bool, err error) {
	var field *int64
	scale := int64(1)
	switch r.iv.Unit {
	case "DAY":
		field = &td.Days
	case "WEEK":
		field, scale = &td.Days, 7
	case "HOUR":
		field = &td.Hours
	case "MINUTE":
		field = &td.Minutes
	case "SECOND":
		field = &td.Seconds
	case "MICROSECOND":
		field = &td.Microseconds
	case "MONTH":
		field = &td.Months
	case "QUARTER":
		field, scale = &td.Months, 3
	case "YEAR":
		field = &td.Years
	}
	if field == nil {
		if fields, ok := intervalParts[r.iv.Unit]; ok {
			val, err := r.iv.Child.Eval(ctx, row)
			if err != nil || val == nil {
				return td, true, err
			}
			text, ok := intervalText(val)
			if !ok {
				return td, true, nil
			}
			return partsDelta(fields, text)
		}
		d, err := r.iv.EvalDelta(ctx, row)
		if err != nil || d == nil {
			return td, true, err
		}
		return *d, false, nil
	}
	val, err := r.iv.Child.Eval(ctx, row)
	if err != nil || val == nil {
		return td, true, err
	}
	var num int64
	switch x := val.(type) {
	case int64:
		num = x
	case string, []byte:
		if r.iv.Unit == "SECOND" {
			// (MariaDB reads a text SECOND as a decimal, fraction kept:
			// left to go-mysql-server, which fails the statement)
			d, err := r.iv.EvalDelta(ctx, row)
			if err != nil || d == nil {
				return td, true, err
			}
			return *d, false, nil
		}
		t, _ := x.(string)
		if b, ok := x.([]byte); ok {
			t = string(b)
		}
		num = textInterval(ctx, t)
	default:
		if !shortcutEvaluated {
			d, err := r.iv.EvalDelta(ctx, row)
			if err != nil || d == nil {
				return td, true, err
			}
			return *d, false, nil
		}
		nv, _, err := gtypes.Int64.Convert(ctx, val)
		if err != nil {
			return td, true, err
		}
		num = nv.(int64)
	}
	*field = num * scale
	return td, false, nil
}

// intervalParts are the fields of each unit of several parts, in order,
// by their offset in a TimeDelta's fields (partField).
var intervalParts = map[string][]int{
	"YEAR_MONTH": {partYears, partMonths}, "DAY_HOUR": {partDays, partHours},
	"DAY_MINUTE": {partDays, partHours, partMinutes}, "DAY_SECOND": {partDays, partHours, partMinutes, partSeconds},
	"DAY_MICROSECOND": {partDays, partHours, partMinutes, partSeconds, partMicros},
	"HOUR_MINUTE":     {partHours, partMinutes}, "HOUR_SECOND": {partHours, partMinutes, partSeconds},
	"HOUR_MICROSECOND": {partHours, partMinutes, partSeconds, partMicros},
	"MINUTE_SECOND":    {partMinutes, partSeconds}, "MINUTE_MICROSECOND": {partMinutes, partSeconds, partMicros},
	"SECOND_MICROSECOND": {partSeconds, partMicros},
}

const (
	partYears = iota
	partMonths
	partDays
	partHours
	partMinutes
	partSeconds
	partMicros
)

// partField is the field of td that part names.
func partField(td *expression.TimeDelta, part int) *int64 {
	return [...]*int64{&td.Years, &td.Months, &td.Days, &td.Hours, &td.Minutes, &td.Seconds, &td.Microseconds}[part]
}

// intervalText is an interval's value as the text MariaDB reads its
// parts from (a number as it prints: 1.25 MINUTE_SECOND is 1:25).
func intervalText(v interface{}) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []byte:
		return string(x), true
	case decimal.Decimal:
		// (with all its digits: a DECIMAL(6,3) 1.25 is 1.250, one
		// minute and 250 seconds as MINUTE_SECOND)
		if e := x.Exponent(); e < 0 {
			return x.StringFixed(-e), true
		}
		return x.String(), true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case float32:
		return strconv.FormatFloat(float64(x), 'f', -1, 32), true
	}
	return fmt.Sprint(v), true
}

// partsDelta reads text as MariaDB reads the value of an INTERVAL of
// several parts (fields, most significant first): spaces then '-' make
// it negative; the parts are the runs of digits, whatever separates
// them; fewer runs than parts fill the last parts (INTERVAL '2'
// YEAR_MONTH is two months); the microseconds' run is a fraction of a
// second ('1.5' SECOND_MICROSECOND is 1.5 s, past six digits cut); no
// digits at all is no time; a run of digits past the last part is NULL.
func partsDelta(fields []int, text string) (td expression.TimeDelta, null bool, err error) {
	s := strings.TrimLeft(text, " \t\n\r")
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	skip := func() {
		for s != "" && (s[0] < '0' || s[0] > '9') {
			s = s[1:]
		}
	}
	skip()
	vals := make([]int64, 0, len(fields))
	lastDigits := 0
	for len(vals) < len(fields) && s != "" {
		n, i := int64(0), 0
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if n < 1e15 {
				n = n*10 + int64(s[i]-'0')
			}
		}
		vals, lastDigits, s = append(vals, n), i, s[i:]
		skip()
	}
	if s != "" {
		return td, true, nil
	}
	// (missing parts are the leading ones)
	vals = append(make([]int64, len(fields)-len(vals)), vals...)
	if fields[len(fields)-1] == partMicros && lastDigits > 0 {
		us := &vals[len(vals)-1]
		for d := lastDigits; d < 6; d++ {
			*us *= 10
		}
		for d := lastDigits; d > 6; d-- {
			*us /= 10
		}
	}
	for i, f := range fields {
		v := vals[i]
		if neg {
			v = -v
		}
		*partField(&td, f) = v
	}
	return td, false, nil
}

// textInterval reads an INTERVAL's text value as MariaDB does: the
// integer its prefix holds ('1.9' is 1, 'x' is 0), with warning 1292
// when anything but the number follows it, a note when only spaces do.
func textInterval(ctx *sql.Context, s string) int64 {
	n, digits, rest := textPrefix(s)
	level := ""
	switch {
	case !digits || strings.TrimRight(rest, " \t\n\r") != "":
		level = "Warning"
	case rest != "":
		level = "Note"
	}
	if level != "" && ctx.Session != nil {
		ctx.Session.Warn(&sql.Warning{Level: level, Code: mysql.ERTruncatedWrongValue,
			Message: "Truncated incorrect INTEGER value: '" + s + "'"})
	}
	return n
}

// temporalTextRule wraps the time arguments of string functions and LIKE
// in temporalText.
func temporalTextRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	retyped := map[sql.ColumnId]sql.Type{}
	n, same, err := transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		return transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				ne, same, err := temporalArgs(e)
				if err == nil && !same {
					// A MAX or MIN of labels is text where the query reads it.
					if id, ok := ne.(sql.IdExpression); ok && id.Id() != 0 {
						switch ne.(type) {
						case *aggregation.Max, *aggregation.Min:
							retyped[id.Id()] = ne.Type()
						}
					}
				}
				return ne, same, err
			})
		})
	})
	if err != nil || len(retyped) == 0 {
		return n, same, err
	}
	// A HAVING that names such a MAX or MIN by its alias compares its
	// labels too (MariaDB; an ORDER BY of the alias sorts by index).
	aliases := map[sql.ColumnId]sql.Type{}
	transform.InspectExpressions(n, func(e sql.Expression) bool {
		if al, ok := e.(*expression.Alias); ok && al.Id() != 0 {
			if ie, ok := al.Child.(sql.IdExpression); ok {
				if t, ok := retyped[ie.Id()]; ok {
					aliases[al.Id()] = t
				}
			}
		}
		return false
	})
	n, _, err = retypeColumns(n, retyped)
	if err != nil || len(aliases) == 0 {
		return n, transform.NewTree, err
	}
	n, _, err = transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if _, ok := n.(*plan.Having); !ok {
			return n, transform.SameTree, nil
		}
		return transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				return retypeGetField(e, aliases)
			})
		})
	})
	return n, transform.NewTree, err
}

// retypeGetField gives a GetField whose column retyped lists that type.
func retypeGetField(e sql.Expression, retyped map[sql.ColumnId]sql.Type) (sql.Expression, transform.TreeIdentity, error) {
	x, ok := e.(*expression.GetField)
	if !ok {
		return e, transform.SameTree, nil
	}
	t, ok := retyped[x.Id()]
	if !ok || x.Id() == 0 || gtypes.TypesEqual(t, x.Type()) {
		return e, transform.SameTree, nil
	}
	gf := expression.NewGetFieldWithTable(x.Index(), int(x.TableId()), t, x.Database(), x.Table(), x.Name(), x.IsNullable())
	return gf.WithId(x.Id()), transform.NewTree, nil
}

// textFuncs are the functions besides stringFuncs whose time arguments
// are text: GROUP_CONCAT, and JSON_OBJECT and JSON_ARRAY, which
// go-mysql-server would give an RFC 3339 time.
var textFuncs = map[string]bool{"group_concat": true, "json_object": true, "json_array": true}

func temporalArgs(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	if vals := choiceValues(e); vals != nil {
		return enumChoices(e, vals)
	}
	switch e.(type) {
	case *aggregation.Max, *aggregation.Min:
		// MariaDB compares an ENUM's or SET's labels in MAX and MIN.
		if gf, ok := e.Children()[0].(*expression.GetField); ok && isEnumOrSet(gf.Type()) {
			ne, err := e.WithChildren(&enumText{child: gf})
			return ne, transform.NewTree, err
		}
		return e, transform.SameTree, nil
	}
	stringFunc := false
	switch x := e.(type) {
	case *expression.Like:
	case *expression.Convert:
		// CAST(... AS CHAR); Type of a Convert reads its target only.
		if !gtypes.IsText(x.Type()) {
			return e, transform.SameTree, nil
		}
	case sql.FunctionExpression:
		name := strings.ToLower(x.FunctionName())
		if !stringFuncs[name] && !textFuncs[name] {
			return e, transform.SameTree, nil
		}
		stringFunc = stringFuncs[name]
	default:
		return e, transform.SameTree, nil
	}
	kids := e.Children()
	changed := false
	for i, c := range kids {
		if i < groupConcatOrder(e) {
			continue // GROUP_CONCAT's ORDER BY: an ENUM sorts by its index
		}
		if f, ok := c.(sql.FunctionExpression); ok && stringFuncs[strings.ToLower(f.FunctionName())] {
			continue // text; and asking its type would walk its arguments again
		}
		switch c.(type) {
		case *temporalText, *enumText:
			continue
		}
		t, ok := safeType(c)
		if !ok {
			continue
		}
		if isEnumOrSet(t) {
			// An ENUM or SET column of a string function is valuesRule's.
			if _, col := c.(*expression.GetField); col && stringFunc {
				continue
			}
			if !changed {
				kids = append([]sql.Expression(nil), kids...)
				changed = true
			}
			kids[i] = &enumText{child: c}
			continue
		}
		dt, ok := t.(sql.DatetimeType)
		if !ok {
			continue
		}
		if dt, ok = commonTemporal(c, dt); !ok {
			continue
		}
		if !changed {
			kids = append([]sql.Expression(nil), kids...)
			changed = true
		}
		kids[i] = &temporalText{child: c, typ: dt}
	}
	if !changed {
		return e, transform.SameTree, nil
	}
	ne, err := e.WithChildren(kids...)
	return ne, transform.NewTree, err
}

// groupConcatOrder is the number of ORDER BY expressions that lead the
// children of a GROUP_CONCAT (0 for anything else); go-mysql-server
// keeps the count unexported.
func groupConcatOrder(e sql.Expression) int {
	g, ok := e.(*aggregation.GroupConcat)
	if !ok || g == nil {
		return 0
	}
	if f := reflect.ValueOf(g).Elem().FieldByName("sf"); f.IsValid() && f.Kind() == reflect.Slice {
		return f.Len()
	}
	return len(g.Children()) // unknown: leave every child
}

// choiceValues gives the positions among e's children of the values a
// conditional expression (IF, IFNULL, COALESCE, CASE) chooses from, or
// nil for any other expression.
func choiceValues(e sql.Expression) []int {
	switch x := e.(type) {
	case *function.If:
		return []int{1, 2}
	case *function.IfNull:
		return []int{0, 1}
	case *function.Coalesce:
		v := make([]int, len(x.Children()))
		for i := range v {
			v[i] = i
		}
		return v
	case *expression.Case:
		var v []int
		i := 0
		if x.Expr != nil {
			i++
		}
		for range x.Branches {
			v = append(v, i+1)
			i += 2
		}
		if x.Else != nil {
			v = append(v, i)
		}
		return v
	}
	return nil
}

// enumChoices: go-mysql-server types a conditional expression that
// chooses between an ENUM or SET column and anything else as text, and
// then gives the column's index as its value ('1' for 'open'); MariaDB
// gives the label. Such columns are given as their labels (enumText).
func enumChoices(e sql.Expression, vals []int) (sql.Expression, transform.TreeIdentity, error) {
	t, ok := safeType(e)
	if !ok || isEnumOrSet(t) {
		return e, transform.SameTree, nil // the result's own type prints labels
	}
	kids := e.Children()
	changed := false
	for _, i := range vals {
		if i >= len(kids) {
			continue
		}
		gf, ok := kids[i].(*expression.GetField)
		if !ok || !isEnumOrSet(gf.Type()) {
			continue
		}
		if !changed {
			kids = append([]sql.Expression(nil), kids...)
			changed = true
		}
		kids[i] = &enumText{child: gf}
	}
	// A choice between a time value and text or a number is text in
	// MariaDB (IFNULL(date_col, 'never'), COALESCE(d, 0)): the time
	// values are given as their text (temporalText), which also makes
	// go-mysql-server type the choice as text instead of converting
	// 'never' to a DATE.
	var times []int
	other := false
	for _, i := range vals {
		if i >= len(kids) {
			continue
		}
		t, ok := safeType(kids[i])
		if !ok || t == gtypes.Null {
			continue
		}
		if _, isDT := t.(sql.DatetimeType); isDT {
			if _, done := kids[i].(*temporalText); !done {
				times = append(times, i)
			}
			continue
		}
		if _, done := kids[i].(*temporalText); !done {
			other = true
		}
	}
	if other && len(times) > 0 {
		if !changed {
			kids = append([]sql.Expression(nil), kids...)
			changed = true
		}
		for _, i := range times {
			t, _ := safeType(kids[i])
			kids[i] = &temporalText{child: kids[i], typ: t.(sql.DatetimeType)}
		}
	}
	if !changed {
		return e, transform.SameTree, nil
	}
	ne, err := e.WithChildren(kids...)
	return ne, transform.NewTree, err
}

// commonTemporal is the type MariaDB gives e, of go-mysql-server's type
// t, when e chooses among values (IFNULL, COALESCE, IF, CASE, ...):
// go-mysql-server takes one argument's type, MariaDB a DATETIME with the
// most digits when the time arguments are not all DATEs. ok is false
// when an argument's type is unknown.
func commonTemporal(e sql.Expression, t sql.DatetimeType) (sql.DatetimeType, bool) {
	switch e.(type) {
	case *function.IfNull, *function.Coalesce, *function.If, *expression.Case, *function.NullIf,
		*function.Greatest, *function.Least:
	default:
		return t, true
	}
	allDates, prec := true, 0
	for _, c := range e.Children() {
		ct, ok := safeType(c)
		if !ok {
			return nil, false
		}
		dt, ok := ct.(sql.DatetimeType)
		if !ok {
			continue
		}
		if dt.Type() != sqltypes.Date {
			allDates = false
			if p := dt.Precision(); p > prec {
				prec = p
			}
		}
	}
	if allDates {
		return gtypes.Date, true
	}
	return gtypes.MustCreateDatetimeType(sqltypes.Datetime, prec), true
}

// temporalText is a DATE, DATETIME or TIMESTAMP value as text, printed
// as MariaDB prints a value of typ.
type temporalText struct {
	child sql.Expression
	typ   sql.DatetimeType
}

var _ sql.Expression = (*temporalText)(nil)

func (t *temporalText) Resolved() bool             { return t.child.Resolved() }
func (t *temporalText) String() string             { return t.child.String() }
func (t *temporalText) IsNullable() bool           { return t.child.IsNullable() }
func (t *temporalText) Children() []sql.Expression { return []sql.Expression{t.child} }

// Type is text of at most 26 characters.
func (t *temporalText) Type() sql.Type {
	return gtypes.MustCreateString(sqltypes.VarChar, 26, sql.Collation_Default)
}

// CollationCoercibility: the connection's collation, with a number's
// coercibility (MariaDB's for a time value converted to text).
func (t *temporalText) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return ctx.GetCollation(), 5
}

// WithChildren keeps the type.
func (t *temporalText) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	if len(c) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(t, len(c), 1)
	}
	return &temporalText{child: c[0], typ: t.typ}, nil
}

// Eval prints the child's value (a time.Time or an OddDate); another value
// (a string go-mysql-server's date arithmetic returns for a string) is
// left as is.
func (t *temporalText) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := t.child.Eval(ctx, row)
	if err != nil || v == nil {
		return v, err
	}
	return t.text(v), nil
}

// text is Eval's answer for the child's value v (not nil).
func (t *temporalText) text(v interface{}) interface{} {
	if o, ok := v.(sqlbackend.OddDate); ok { // a zero month or day (oddate.go)
		o.Date = t.typ.Type() == sqltypes.Date
		if !o.Date {
			o.Scale = uint8(t.typ.Precision())
		}
		return o.String()
	}
	tm, ok := v.(time.Time)
	if !ok {
		return v
	}
	var buf [32]byte
	return string(appendTemporal(buf[:0], tm, t.typ))
}

// appendEval appends the text Eval gives to b when the child's value is
// a time.Time (no string made: done); otherwise it returns Eval's answer
// in v (nil for NULL) and b as it was.
func (t *temporalText) appendEval(ctx *sql.Context, row sql.Row, b []byte) (out []byte, v interface{}, done bool, err error) {
	v, err = t.child.Eval(ctx, row)
	if err != nil || v == nil {
		return b, nil, false, err
	}
	if tm, ok := v.(time.Time); ok {
		return appendTemporal(b, tm, t.typ), nil, true, nil
	}
	return b, t.text(v), false, nil
}

// appendTemporal appends tm as MariaDB prints a value of type typ: the
// date, and for DATETIME and TIMESTAMP the time with Precision digits;
// 0000-00-00 for go-mysql-server's zero date.
func appendTemporal(b []byte, tm time.Time, typ sql.DatetimeType) []byte {
	date := typ.Type() == sqltypes.Date
	if tm.Equal(sqlbackend.ZeroTime) {
		if date {
			return append(b, "0000-00-00"...)
		}
		b = append(b, "0000-00-00 00:00:00"...)
		if p := typ.Precision(); p > 0 {
			b = append(b, ".000000"[:p+1]...)
		}
		return b
	}
	y, mo, d := tm.Date()
	if y < 0 || y > 9999 {
		if date {
			return tm.AppendFormat(b, "2006-01-02")
		}
		b = tm.AppendFormat(b, "2006-01-02 15:04:05")
		if p := typ.Precision(); p > 0 {
			frac := tm.AppendFormat(nil, ".000000")
			b = append(b, frac[:p+1]...)
		}
		return b
	}
	// The digits by hand: time.Format reads its layout for every value.
	b = appendDigits(b, y, 4)
	b = append(b, '-')
	b = appendDigits(b, int(mo), 2)
	b = append(b, '-')
	b = appendDigits(b, d, 2)
	if date {
		return b
	}
	h, mi, s := tm.Clock()
	b = append(b, ' ')
	b = appendDigits(b, h, 2)
	b = append(b, ':')
	b = appendDigits(b, mi, 2)
	b = append(b, ':')
	b = appendDigits(b, s, 2)
	if p := typ.Precision(); p > 0 {
		var frac [7]byte
		f := append(frac[:0], '.')
		f = appendDigits(f, tm.Nanosecond()/1000, 6)
		b = append(b, f[:p+1]...)
	}
	return b
}

// appendDigits appends n (0 <= n) in at least width digits, zero-padded.
func appendDigits(b []byte, n, width int) []byte {
	switch {
	case width == 2 && n < 100:
		return append(b, byte('0'+n/10), byte('0'+n%10))
	case width == 4 && n < 10000:
		return append(b, byte('0'+n/1000), byte('0'+n/100%10), byte('0'+n/10%10), byte('0'+n%10))
	}
	var tmp [20]byte
	i := len(tmp)
	for n > 0 || len(tmp)-i < width {
		i--
		tmp[i] = byte('0' + n%10)
		n /= 10
	}
	return append(b, tmp[i:]...)
}

// cteTimeTypesRule: go-mysql-server types a recursive CTE's columns as
// the anchor's types promoted (a DATE becomes DATETIME(6)); MariaDB
// keeps the anchor's types. The rule gives the CTE's time columns the
// anchor's type back, and so every GetField of those columns, in the
// recursive part and in the query around the CTE (its subqueries too).
func cteTimeTypesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	retyped := map[sql.ColumnId]sql.Type{}
	n, same, err := transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if sq, ok := n.(*plan.SubqueryAlias); ok {
			// The CTE as the query reads it: its columns have ids of
			// their own.
			if _, ok := sq.Child.(*plan.RecursiveCte); ok {
				sch := sq.Schema()
				if sq.Columns().Len() == len(sch) {
					i := 0
					sq.Columns().ForEach(func(id sql.ColumnId) {
						if _, ok := sch[i].Type.(sql.DatetimeType); ok {
							retyped[id] = sch[i].Type
						}
						i++
					})
				}
			}
			return n, transform.SameTree, nil
		}
		r, ok := n.(*plan.RecursiveCte)
		if !ok {
			return n, transform.SameTree, nil
		}
		kids := r.Children()
		sch := r.Schema()
		if len(kids) == 0 || len(kids[0].Schema()) != len(sch) || r.Columns().Len() != len(sch) {
			return n, transform.SameTree, nil
		}
		anchor := kids[0].Schema()
		var out sql.Schema
		i := 0
		r.Columns().ForEach(func(id sql.ColumnId) {
			at := anchor[i].Type
			if _, ok := at.(sql.DatetimeType); ok && !gtypes.TypesEqual(at, sch[i].Type) {
				if out == nil {
					out = sch.Copy()
				}
				out[i].Type = at
				retyped[id] = at
			}
			i++
		})
		if out == nil {
			return n, transform.SameTree, nil
		}
		return r.WithSchema(out), transform.NewTree, nil
	})
	if err != nil || len(retyped) == 0 {
		return n, same, err
	}
	n, _, err = retypeColumns(n, retyped)
	return n, transform.NewTree, err
}

// retypeColumns gives the GetFields of the columns in retyped their type,
// in n and the subqueries of its expressions.
func retypeColumns(n sql.Node, retyped map[sql.ColumnId]sql.Type) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch x := e.(type) {
		case *expression.GetField:
			t, ok := retyped[x.Id()]
			if !ok || x.Id() == 0 || gtypes.TypesEqual(t, x.Type()) {
				return e, transform.SameTree, nil
			}
			gf := expression.NewGetFieldWithTable(x.Index(), int(x.TableId()), t, x.Database(), x.Table(), x.Name(), x.IsNullable())
			return gf.WithId(x.Id()), transform.NewTree, nil
		case *plan.Subquery:
			q, same, err := retypeColumns(x.Query, retyped)
			if err != nil || same {
				return e, transform.SameTree, err
			}
			return x.WithQuery(q), transform.NewTree, nil
		}
		return e, transform.SameTree, nil
	})
}
