package mariadb

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// GREATEST, LEAST and ROUND over numbers as MariaDB computes them, where
// go-mysql-server's answers differ:
//
//   - GREATEST and LEAST of numbers: go-mysql-server refused any DECIMAL
//     argument ("unsupported type for greatest/least argument", so
//     GREATEST(price, 1) and even GREATEST(1, 2.5) failed) and answered
//     LEAST(1.5e0, 1) with 1.5. Here, when every argument is a number,
//     they compare as MariaDB does: as DOUBLE when one is FLOAT or
//     DOUBLE, else as DECIMAL (exactly, integers of either sign
//     included), the result of that type (a DECIMAL with the largest
//     scale and integer part of the arguments); NULL when one is NULL.
//     Other arguments (text, dates) go to go-mysql-server's.
//   - ROUND of a DECIMAL keeps go-mysql-server's value but has MariaDB's
//     scale: ROUND(12.345) is 12, not 12.000; ROUND(x, d) with d a
//     constant has d digits (ROUND(12.345, 5) is 12.34500). ROUND of a
//     YEAR or a DATE is of its number (go-mysql-server's was NULL, or an
//     error).
//
// WEEK of NULL is NULL (go-mysql-server's failed the statement), and
// SEC_TO_TIME, which go-mysql-server lacks, is there.
//
// The functions are given to the provider, which go-mysql-server asks
// before its own (sqlbackend.Provider.OverrideFunctions). The expressions
// are immutable and safe for concurrent use.

// numericFunctions are the replacements.
var numericFunctions = []sql.Function{
	sql.FunctionN{Name: "greatest", Fn: func(args ...sql.Expression) (sql.Expression, error) {
		return newExtremum(true, args)
	}},
	sql.FunctionN{Name: "least", Fn: func(args ...sql.Expression) (sql.Expression, error) {
		return newExtremum(false, args)
	}},
	sql.FunctionN{Name: "round", Fn: newRound},
	sql.Function1{Name: "floor", Fn: func(e sql.Expression) sql.Expression { return temporalRounding(e, true, function.NewFloor) }},
	sql.Function1{Name: "ceil", Fn: func(e sql.Expression) sql.Expression { return temporalRounding(e, false, function.NewCeil) }},
	sql.Function1{Name: "ceiling", Fn: func(e sql.Expression) sql.Expression { return temporalRounding(e, false, function.NewCeil) }},
	sql.Function1{Name: "sec_to_time", Fn: newSecToTime},
	sql.Function0{Name: "current_role", Fn: func() sql.Expression { return currentRole{} }},
	sql.FunctionN{Name: "week", Fn: func(args ...sql.Expression) (sql.Expression, error) {
		w, err := function.NewWeek(args...)
		if err != nil {
			return nil, err
		}
		return &nullOfNull{Expression: w}, nil
	}},
}

// nullOfNull is a function of go-mysql-server's that is NULL when its
// first argument is: WEEK(NULL) failed the statement ("invalid year"), so
// a WEEK over a column with a NULL failed every row.
type nullOfNull struct {
	sql.Expression
}

var _ sql.FunctionExpression = (*nullOfNull)(nil)

// FunctionName is the wrapped function's (the date rules of oddrule.go
// recognise it by name).
func (n *nullOfNull) FunctionName() string {
	if fe, ok := n.Expression.(sql.FunctionExpression); ok {
		return fe.FunctionName()
	}
	return ""
}

// Description is the wrapped function's.
func (n *nullOfNull) Description() string {
	if fe, ok := n.Expression.(sql.FunctionExpression); ok {
		return fe.Description()
	}
	return ""
}

// WithChildren keeps the wrapper.
func (n *nullOfNull) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := n.Expression.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &nullOfNull{Expression: e}, nil
}

// Eval is NULL for a NULL first argument, else the function's value;
// NULL with MariaDB's warning 1292 when that argument is text that is no
// date (go-mysql-server failed the statement).
func (n *nullOfNull) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	ch := n.Expression.Children()
	if len(ch) == 0 {
		return n.Expression.Eval(ctx, row)
	}
	v, err := ch[0].Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	out, err := n.Expression.Eval(ctx, row)
	if err != nil && gmstypes.IsText(ch[0].Type()) {
		ctx.Warn(mysql.ERTruncatedWrongValue, "Incorrect datetime value: '%v'", v)
		return nil, nil
	}
	return out, err
}

// extremum is GREATEST (greatest) or LEAST of numbers, of TIMEs, or of
// DATEs, DATETIMEs and TIMESTAMPs (typed as MariaDB's: TIME(n) or
// DATETIME(n) of the most digits, DATE when all are; go-mysql-server
// failed on TIMEs and typed dates DATETIME(6)).
type extremum struct {
	greatest bool
	args     []sql.Expression
	typ      sql.Type
	float    bool         // compared as DOUBLE, else as DECIMAL
	temporal temporalKind // compared as TIMEs or as dates, not as numbers
}

// temporalKind is how extremum compares temporal arguments.
type temporalKind uint8

const (
	notTemporal temporalKind = iota
	timesOnly                // every argument a TIME
	datesOnly                // every argument a DATE, DATETIME or TIMESTAMP
)

var _ sql.FunctionExpression = (*extremum)(nil)

// newExtremum builds GREATEST or LEAST: ours when the arguments are all
// numbers (known once resolved), go-mysql-server's otherwise.
func newExtremum(greatest bool, args []sql.Expression) (sql.Expression, error) {
	if len(args) < 2 {
		name := "LEAST"
		if greatest {
			name = "GREATEST"
		}
		return nil, sql.ErrInvalidArgumentNumber.New(name, "2 or more", len(args))
	}
	e := &extremum{greatest: greatest, args: args}
	if e.Resolved() {
		if !e.settle() {
			return e.theirs()
		}
	}
	return e, nil
}

// settle decides the comparison and the type from the arguments' types;
// false when one is not a number and they are not all TIMEs or all
// dates.
func (e *extremum) settle() bool {
	if e.settleTemporal() {
		return true
	}
	intDigits, scale := 0, 0
	allUnsigned := true
	for _, a := range e.args {
		t := a.Type()
		switch {
		case t == gmstypes.Null:
			continue
		case gmstypes.IsFloat(t):
			e.float = true
		case gmstypes.IsDecimal(t):
			dt := t.(sql.DecimalType)
			intDigits = max(intDigits, int(dt.Precision())-int(dt.Scale()))
			scale = max(scale, int(dt.Scale()))
			allUnsigned = false
		case gmstypes.IsInteger(t):
			intDigits = max(intDigits, 20)
			if !gmstypes.IsUnsigned(t) {
				allUnsigned = false
			}
		default:
			return false
		}
	}
	switch {
	case e.float:
		e.typ = gmstypes.Float64
	case scale == 0 && intDigits <= 20:
		e.typ = gmstypes.Int64
		if allUnsigned {
			e.typ = gmstypes.Uint64
		}
		for _, a := range e.args {
			if gmstypes.IsUnsigned(a.Type()) && !allUnsigned {
				e.typ = gmstypes.MustCreateDecimalType(20, 0) // signed and unsigned
			}
		}
	default:
		e.typ = gmstypes.MustCreateDecimalType(uint8(min(intDigits+scale, gmstypes.DecimalTypeMaxPrecision)), uint8(scale))
	}
	return true
}

// settleTemporal types an extremum of TIMEs TIME(n), and one of DATEs,
// DATETIMEs and TIMESTAMPs DATETIME(n) (DATE when all are DATEs), n the
// most digits of an argument; a text among them is read as one of them
// and does not change the type. False for any other arguments.
func (e *extremum) settleTemporal() bool {
	kind, digits, allDates, any := notTemporal, 0, true, false
	for _, a := range e.args {
		t := a.Type()
		if t == gmstypes.Null {
			continue
		}
		any = true
		if gmstypes.IsText(t) {
			continue // read as the others' kind (MariaDB compares text with a date as a date)
		}
		k, d := notTemporal, 0
		switch t.Type() {
		case sqltypes.Time:
			k = timesOnly
			if tt, ok := t.(sqlbackend.TimeType); ok {
				d = int(tt.Scale)
			}
			allDates = false
		case sqltypes.Date:
			k = datesOnly
		case sqltypes.Datetime, sqltypes.Timestamp:
			k = datesOnly
			if dt, ok := t.(sql.DatetimeType); ok {
				d = dt.Precision()
			}
			allDates = false
		}
		if k == notTemporal || (kind != notTemporal && k != kind) {
			return false
		}
		kind, digits = k, max(digits, d)
	}
	if !any || kind == notTemporal {
		return false
	}
	e.temporal = kind
	switch {
	case kind == timesOnly:
		e.typ = sqlbackend.TimeType{TimeType: gmstypes.Time, Scale: uint8(digits)}
	case allDates:
		e.typ = sqlbackend.OddTypeOf(gmstypes.Date)
	default:
		e.typ = sqlbackend.OddTypeOf(gmstypes.MustCreateDatetimeType(sqltypes.Datetime, digits))
	}
	return true
}

// evalTemporal returns the greatest or least of the arguments' values
// as TIMEs or as dates (an odd date by its packed form).
func (e *extremum) evalTemporal(ctx *sql.Context, row sql.Row) (interface{}, error) {
	var best interface{}
	var bestKey int64
	for i, a := range e.args {
		v, err := a.Eval(ctx, row)
		if err != nil || v == nil {
			return nil, err
		}
		var key int64
		if e.temporal == timesOnly {
			ts, err := gmstypes.Time.ConvertToTimespan(v)
			if err != nil {
				return nil, err
			}
			key, v = int64(ts), ts
		} else {
			p, ok := sqlbackend.PackedOf(v)
			if !ok {
				return nil, gmstypes.ErrConvertingToTime.New(v)
			}
			key = p
		}
		if i == 0 || (e.greatest && key > bestKey) || (!e.greatest && key < bestKey) {
			best, bestKey = v, key
		}
	}
	if e.temporal == timesOnly {
		return best, nil
	}
	return inType(ctx, e.typ, best)
}

// theirs is go-mysql-server's function for these arguments.
func (e *extremum) theirs() (sql.Expression, error) {
	if e.greatest {
		return function.NewGreatest(e.args...)
	}
	return function.NewLeast(e.args...)
}

// FunctionName implements sql.FunctionExpression.
func (e *extremum) FunctionName() string {
	if e.greatest {
		return "greatest"
	}
	return "least"
}

// Description implements sql.FunctionExpression.
func (e *extremum) Description() string {
	return "returns the greatest or least of its arguments."
}

func (e *extremum) String() string {
	parts := make([]string, len(e.args))
	for i, a := range e.args {
		parts[i] = a.String()
	}
	return fmt.Sprintf("%s(%s)", e.FunctionName(), strings.Join(parts, ","))
}

// Resolved implements sql.Expression.
func (e *extremum) Resolved() bool {
	for _, a := range e.args {
		if !a.Resolved() {
			return false
		}
	}
	return true
}

// Children implements sql.Expression.
func (e *extremum) Children() []sql.Expression { return e.args }

// IsNullable implements sql.Expression.
func (e *extremum) IsNullable() bool {
	for _, a := range e.args {
		if a.IsNullable() {
			return true
		}
	}
	return false
}

// Type implements sql.Expression.
func (e *extremum) Type() sql.Type {
	if e.typ == nil {
		return gmstypes.Float64
	}
	return e.typ
}

// CollationCoercibility implements sql.CollationCoercible: a number's.
func (e *extremum) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// WithChildren implements sql.Expression.
func (e *extremum) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != len(e.args) {
		return nil, sql.ErrInvalidChildrenNumber.New(e, len(children), len(e.args))
	}
	return newExtremum(e.greatest, children)
}

// Eval implements sql.Expression.
func (e *extremum) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	if e.typ == nil && !e.settle() {
		ne, err := e.theirs()
		if err != nil {
			return nil, err
		}
		return ne.Eval(ctx, row)
	}
	if e.temporal != notTemporal {
		return e.evalTemporal(ctx, row)
	}
	var best interface{}
	var bestF float64
	var bestD decimal.Decimal
	for i, a := range e.args {
		v, err := a.Eval(ctx, row)
		if err != nil || v == nil {
			return nil, err
		}
		if e.float {
			f, _, err := gmstypes.Float64.Convert(ctx, v)
			if err != nil {
				return nil, err
			}
			x := f.(float64)
			if i == 0 || (e.greatest && x > bestF) || (!e.greatest && x < bestF) {
				bestF, best = x, x
			}
			continue
		}
		d, ok := sqlbackend.ToDecimal(v)
		if !ok {
			return nil, fmt.Errorf("%s: %v is not a number", e.FunctionName(), v)
		}
		if c := d.Cmp(bestD); i == 0 || (e.greatest && c > 0) || (!e.greatest && c < 0) {
			bestD, best = d, d
		}
	}
	return inType(ctx, e.typ, best)
}

// inType converts v to t; a DECIMAL gets t's scale (go-mysql-server's
// DECIMAL of an expression prints a value with the digits it has).
func inType(ctx *sql.Context, t sql.Type, v interface{}) (interface{}, error) {
	out, _, err := t.Convert(ctx, v)
	if d, ok := out.(decimal.Decimal); ok && err == nil {
		if dt, ok := t.(sql.DecimalType); ok {
			return d.Round(int32(dt.Scale())), nil
		}
	}
	return out, err
}

// decimalRound is ROUND of a DECIMAL with MariaDB's result scale: the
// value is go-mysql-server's ROUND's.
type decimalRound struct {
	sql.Expression // go-mysql-server's ROUND
	typ            sql.Type
}

var _ sql.FunctionExpression = (*decimalRound)(nil)

// newRound builds ROUND: go-mysql-server's, typed as MariaDB types it
// when its argument is a DECIMAL.
func newRound(args ...sql.Expression) (sql.Expression, error) {
	if len(args) > 0 && args[0].Resolved() && (isYear(args[0].Type()) || (isDateType(args[0].Type()) && args[0].Type().Type() == sqltypes.Date)) {
		// ROUND of a YEAR (go-mysql-server's was NULL) or a DATE: of
		// its number (MariaDB rounds a TIME or DATETIME as one)
		args = append([]sql.Expression{numberOf(args[0])}, args[1:]...)
	}
	if len(args) == 1 && args[0].Resolved() && temporalScale(args[0].Type()) == 0 {
		// ROUND of a DATETIME, TIMESTAMP or TIME without fractional
		// digits: the value (go-mysql-server's failed the statement)
		return args[0], nil
	}
	if len(args) > 0 && args[0].Resolved() && isEnumSetBit(args[0].Type()) {
		// ROUND of an ENUM, SET or BIT: of its index or bits
		// (go-mysql-server's was NULL)
		args = append([]sql.Expression{expression.NewConvert(args[0], expression.ConvertToUnsigned)}, args[1:]...)
	} else if len(args) > 0 && args[0].Resolved() && gmstypes.IsText(args[0].Type()) {
		// ROUND of text: of its number, as MariaDB reads it ('blob' is 0;
		// go-mysql-server's ROUND failed the statement)
		args = append([]sql.Expression{expression.NewConvert(args[0], expression.ConvertToDouble)}, args[1:]...)
	}
	r, err := function.NewRound(args...)
	if err != nil {
		return nil, err
	}
	if len(args) == 0 || !args[0].Resolved() {
		return r, nil
	}
	dt, ok := args[0].Type().(sql.DecimalType)
	if !ok || !gmstypes.IsDecimal(args[0].Type()) {
		return r, nil
	}
	scale := 0
	if len(args) == 2 {
		lit, ok := args[1].(*expression.Literal)
		if !ok {
			return r, nil // a scale known only per row: go-mysql-server's
		}
		d, ok := sqlbackend.ToDecimal(lit.Value())
		if !ok {
			return r, nil
		}
		scale = int(min(max(d.IntPart(), 0), int64(gmstypes.DecimalTypeMaxScale)))
	}
	intDigits := int(dt.Precision()) - int(dt.Scale()) + 1 // (a carry: 9.9 rounds to 10)
	prec := min(max(intDigits+scale, 1), gmstypes.DecimalTypeMaxPrecision)
	return &decimalRound{Expression: r, typ: gmstypes.MustCreateDecimalType(uint8(prec), uint8(min(scale, prec)))}, nil
}

// FunctionName implements sql.FunctionExpression.
func (r *decimalRound) FunctionName() string { return "round" }

// Description implements sql.FunctionExpression.
func (r *decimalRound) Description() string { return "rounds the number to d decimal places." }

// Type implements sql.Expression.
func (r *decimalRound) Type() sql.Type { return r.typ }

// WithChildren implements sql.Expression.
func (r *decimalRound) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return newRound(children...)
}

// Eval implements sql.Expression: the rounded value in the result type.
func (r *decimalRound) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := r.Expression.Eval(ctx, row)
	if err != nil || v == nil {
		return v, err
	}
	return inType(ctx, r.typ, v)
}

// secToTime is SEC_TO_TIME(x), which go-mysql-server lacks: x seconds as
// a TIME with x's fractional digits (6 for a FLOAT or DOUBLE, none for an
// integer), within -838:59:59.999999 to 838:59:59.999999, a value past
// them cut to the bound with MariaDB's warning 1292. A date or time
// argument is its number (numberOf). Immutable, safe for concurrent use.
type secToTime struct {
	expression.UnaryExpression
	typ sqlbackend.TimeType
}

var _ sql.FunctionExpression = (*secToTime)(nil)

// maxTimeMicros is 838:59:59.999999 in microseconds.
const maxTimeMicros = (838*3600+59*60+59)*1_000_000 + 999_999

func newSecToTime(x sql.Expression) sql.Expression {
	if x.Resolved() && (isTemporal(x.Type()) || isYear(x.Type())) {
		x = numberOf(x)
	}
	scale := 0
	if x.Resolved() {
		switch t := x.Type(); {
		case gmstypes.IsDecimal(t):
			scale = min(int(t.(sql.DecimalType).Scale()), 6)
		case gmstypes.IsFloat(t), gmstypes.IsText(t):
			scale = 6
		}
	}
	return &secToTime{UnaryExpression: expression.UnaryExpression{Child: x},
		typ: sqlbackend.TimeType{TimeType: gmstypes.Time, Scale: uint8(scale)}}
}

// FunctionName implements sql.FunctionExpression.
func (s *secToTime) FunctionName() string { return "sec_to_time" }

// Description implements sql.FunctionExpression.
func (s *secToTime) Description() string { return "converts seconds to a time." }

func (s *secToTime) String() string { return fmt.Sprintf("sec_to_time(%s)", s.Child) }

// Type implements sql.Expression.
func (s *secToTime) Type() sql.Type { return s.typ }

// IsNullable implements sql.Expression.
func (s *secToTime) IsNullable() bool { return true }

// WithChildren implements sql.Expression.
func (s *secToTime) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), 1)
	}
	return newSecToTime(children[0]), nil
}

// Eval implements sql.Expression.
func (s *secToTime) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := s.Child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	d, ok := sqlbackend.ToDecimal(v)
	if !ok {
		f, _, err := gmstypes.Float64.Convert(ctx, v)
		if err != nil {
			return nil, nil
		}
		d = decimal.NewFromFloat(f.(float64))
	}
	us := d.Shift(6).Round(int32(s.typ.Scale) - 6).IntPart()
	if us > maxTimeMicros || us < -maxTimeMicros {
		ctx.Warn(mysql.ERTruncatedWrongValue, "Truncated incorrect time value: '%s'", d.String())
		us = min(max(us, -maxTimeMicros), maxTimeMicros)
	}
	unit := int64(1)
	for range 6 - int(s.typ.Scale) {
		unit *= 10
	}
	return gmstypes.Timespan(us / unit * unit), nil
}

// currentRole is CURRENT_ROLE(): the role SET ROLE made current, or NULL
// (go-mysql-server lacks the function; sqlfront's roles.go runs SET ROLE).
type currentRole struct{}

var _ sql.FunctionExpression = currentRole{}

func (currentRole) FunctionName() string       { return "current_role" }
func (currentRole) Description() string        { return "returns the current role." }
func (currentRole) Resolved() bool             { return true }
func (currentRole) String() string             { return "CURRENT_ROLE()" }
func (currentRole) Type() sql.Type             { return gmstypes.LongText }
func (currentRole) IsNullable() bool           { return true }
func (currentRole) Children() []sql.Expression { return nil }
func (c currentRole) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 0)
	}
	return c, nil
}

// Eval returns the session's current role, or NULL.
func (currentRole) Eval(ctx *sql.Context, _ sql.Row) (interface{}, error) {
	if s := sqlbackend.SessionOf(ctx); s != nil && s.CurrentRole() != "" {
		return s.CurrentRole(), nil
	}
	return nil, nil
}

// IsNonDeterministic keeps CURRENT_ROLE() from being folded into a plan:
// SET ROLE changes it.
func (currentRole) IsNonDeterministic() bool { return true }

// temporalScale is the fractional digits of a DATETIME, TIMESTAMP or
// TIME type, -1 for any other type.
func temporalScale(t sql.Type) int {
	switch x := t.(type) {
	case sqlbackend.TimeType:
		return int(x.Scale)
	case sql.DatetimeType:
		if t.Type() == sqltypes.Date {
			return -1
		}
		return x.Precision()
	}
	if gmstypes.IsTimespan(t) {
		return 0
	}
	return -1
}

// temporalRounding is FLOOR (floor) or CEIL of e as MariaDB computes it
// where go-mysql-server's differs: of a DATE or YEAR, of its number
// (FLOOR(DATE '2020-02-03') is 20200203, go-mysql-server's was the Unix
// seconds); of a DATETIME, TIMESTAMP or TIME without fractional digits,
// the value itself (go-mysql-server's was Unix seconds or 0); FLOOR of a
// DATETIME or TIMESTAMP with fractional digits, the value without them.
// FLOOR or CEIL of a TIME(n), the TIME of whole seconds below or above it
// (timeRounding; go-mysql-server's kept the fraction). (CEIL of a
// DATETIME(n) stays go-mysql-server's.)
func temporalRounding(e sql.Expression, floor bool, gms func(sql.Expression) sql.Expression) sql.Expression {
	if !e.Resolved() {
		return gms(e)
	}
	t := e.Type()
	if isYear(t) || t.Type() == sqltypes.Date {
		return gms(numberOf(e))
	}
	if t.Type() == sqltypes.Time {
		// (a CAST to TIME(n) is typed TIME without its digits)
		return &timeRounding{child: e, floor: floor}
	}
	switch scale := temporalScale(t); {
	case scale == 0:
		return e
	case scale > 0 && floor:
		// (CAST AS DATETIME drops the digits; CAST AS TIME keeps them)
		return expression.NewConvert(e, expression.ConvertToDatetime)
	}
	return gms(e)
}

// timeRounding is FLOOR (floor) or CEIL of a TIME(n) with n > 0: the
// TIME of whole seconds at or below (above) it, as in MariaDB.
type timeRounding struct {
	child sql.Expression
	floor bool
}

var _ sql.Expression = (*timeRounding)(nil)

func (r *timeRounding) Resolved() bool             { return r.child.Resolved() }
func (r *timeRounding) IsNullable() bool           { return r.child.IsNullable() }
func (r *timeRounding) Children() []sql.Expression { return []sql.Expression{r.child} }

// Type is TIME without fractional digits.
func (r *timeRounding) Type() sql.Type {
	return sqlbackend.TimeType{TimeType: gmstypes.Time, Scale: 0}
}

func (r *timeRounding) String() string {
	if r.floor {
		return "FLOOR(" + r.child.String() + ")"
	}
	return "CEIL(" + r.child.String() + ")"
}

// CollationCoercibility: a time value's.
func (r *timeRounding) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_binary, 5
}

// WithChildren replaces the TIME.
func (r *timeRounding) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	if len(c) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(r, len(c), 1)
	}
	return &timeRounding{child: c[0], floor: r.floor}, nil
}

// Eval rounds the TIME's microseconds to whole seconds.
func (r *timeRounding) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := r.child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	ts, ok := v.(gmstypes.Timespan)
	if !ok {
		return v, nil
	}
	us := int64(ts)
	sec := us / 1e6
	if rem := us % 1e6; rem != 0 {
		if r.floor && rem < 0 {
			sec--
		} else if !r.floor && rem > 0 {
			sec++
		}
	}
	return gmstypes.Timespan(sec * 1e6), nil
}
