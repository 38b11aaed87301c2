package sqlbackend

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/types"
)

// Dates that time.Time cannot hold. MariaDB stores dates with a zero
// month or day (2020-00-15, 0000-00-01, 2020-05-00 10:00:00) unless
// NO_ZERO_IN_DATE is set, and days past the end of their month
// (2021-02-30) under ALLOW_INVALID_DATES; HandlerSocket writes them too.
// go-mysql-server holds DATE, DATETIME and TIMESTAMP values as
// time.Time, which has neither. Such a value crosses to go-mysql-server
// as an OddDate instead (the zero date 0000-00-00 stays go-mysql-server's
// zeroTime, and every other date a time.Time), and the places that must
// see it exactly are given oddType, a column type that knows it, or
// wrappers of their own (oddrule.go): the result columns (printing), the
// columns INSERT and UPDATE store into, ORDER BY, MIN and MAX,
// comparisons, and the functions YEAR, MONTH, DAY, DAYOFMONTH,
// DATE_FORMAT, CAST and CONCAT. Elsewhere go-mysql-server refuses the
// value with its conversion error. Values and functions here are
// immutable or pure: safe for concurrent use.

// OddDate is a DATE, DATETIME or TIMESTAMP value with a zero month or
// day, or a day its month does not have.
type OddDate struct {
	P     int64 // the value, packed by types.PackDateTime
	Date  bool  // a DATE (printed without time of day)
	Scale uint8 // fractional digits printed after the seconds
}

// engineType is the column type whose printing the value follows.
func (o OddDate) engineType() *types.Type {
	if o.Date {
		return &types.Type{Kind: types.Date}
	}
	return &types.Type{Kind: types.DateTime, Scale: o.Scale}
}

// String prints the value as MariaDB does (2020-00-15,
// 2020-05-00 10:00:00.000).
func (o OddDate) String() string {
	return string(types.AppendFormat(nil, o.engineType(), types.Value{I: o.P}))
}

// Number is the value as a number, as MariaDB gives it to arithmetic
// (20200015, 20200500100000.500): an integer for DATE and DATETIME(0), a
// decimal with the scale's digits otherwise.
func (o OddDate) Number() interface{} {
	y, mo, d, h, mi, s, us := types.UnpackDateTime(o.P)
	n := int64(y)*10000 + int64(mo)*100 + int64(d)
	if o.Date {
		return n
	}
	n = n*1000000 + int64(h)*10000 + int64(mi)*100 + int64(s)
	if o.Scale == 0 {
		return n
	}
	frac := int64(us) / int64(math.Pow10(6-int(o.Scale)))
	return decimal.NewFromInt(n).Shift(int32(o.Scale)).Add(decimal.NewFromInt(frac)).Shift(-int32(o.Scale))
}

// timePart is the mask of a packed date-time's time of day.
const timePart = 1<<41 - 1

// dateValue is go-mysql-server's value of a stored date-time p of column
// type t: the zero date, a time.Time, or an OddDate.
func dateValue(t *types.Type, p int64) interface{} {
	if p == 0 {
		return ZeroTime
	}
	if types.ValidDate(p) {
		return unpackTime(p)
	}
	if t.Kind == types.Date {
		return OddDate{P: p &^ timePart, Date: true}
	}
	return OddDate{P: p, Scale: t.Scale}
}

// packedOf returns the packed date-time a value stands for when compared
// with a date (microseconds kept): a date value, a string MariaDB reads
// as a date, or a number read as its digits. ok is false for anything
// else.
func PackedOf(v interface{}) (p int64, ok bool) {
	dt := &types.Type{Kind: types.DateTime, Scale: 6}
	switch x := v.(type) {
	case OddDate:
		return x.P, true
	case time.Time:
		return packTime(dt, x), true
	case string:
		c, ok := types.ConvertDate(dt, []byte(x), true)
		return c.I, ok
	case []byte:
		c, ok := types.ConvertDate(dt, x, true)
		return c.I, ok
	case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, uint, decimal.Decimal, float32, float64:
		if d, ok := ToDecimal(x); ok && d.Equal(d.Truncate(0)) {
			return numberToPacked(d)
		}
		c, ok := types.ConvertDate(dt, []byte(valueText(x)), true)
		return c.I, ok
	}
	return 0, false
}

// IsNumberValue reports whether v is a Go value of a SQL number.
func IsNumberValue(v interface{}) bool {
	switch v.(type) {
	case int8, int16, int32, int64, int, uint8, uint16, uint32, uint64, uint, decimal.Decimal, float32, float64:
		return true
	}
	return false
}

// asColumn converts an OddDate to the date kind of go-mysql-server type
// st: a DATE drops the time of day, a DATETIME keeps its scale's digits,
// a TIMESTAMP (which holds no such date) is the zero date.
func (o OddDate) AsColumn(st sql.DatetimeType) interface{} {
	switch st.Type() {
	case sqltypes.Date:
		return dateValue(&types.Type{Kind: types.Date}, o.P&^timePart)
	case sqltypes.Timestamp:
		return ZeroTime
	}
	scale := st.Precision()
	p := o.P
	if scale < 6 {
		div := int64(math.Pow10(6 - scale))
		us := p & (1<<24 - 1)
		p = p - us + us/div*div
	}
	return dateValue(&types.Type{Kind: types.DateTime, Scale: uint8(scale)}, p)
}

// oddDateOf returns a time.Time of go-mysql-server date type t as an
// OddDate: the same value, printed as MariaDB prints t (functions that
// must print or take apart any date use it).
func OddDateOf(tm time.Time, t sql.Type) OddDate {
	if t.Type() == sqltypes.Date {
		return OddDate{P: packTime(&types.Type{Kind: types.Date}, tm), Date: true}
	}
	scale := uint8(0)
	if dt, ok := t.(sql.DatetimeType); ok {
		scale = uint8(dt.Precision())
	}
	return OddDate{P: packTime(&types.Type{Kind: types.DateTime, Scale: scale}, tm), Scale: scale}
}

// printedDate is the text of a value of date, time or YEAR type t as
// MariaDB prints it, or the value unchanged when it is none of them.
func PrintedDate(v interface{}, t sql.Type) interface{} {
	switch x := v.(type) {
	case OddDate:
		return x.String()
	case time.Time:
		return OddDateOf(x, t).String()
	case gtypes.Timespan:
		if tt, ok := t.(TimeType); ok {
			return string(types.AppendFormat(nil, &types.Type{Kind: types.Time, Scale: tt.Scale}, types.Value{I: int64(x)}))
		}
		return x.String()
	case int16:
		if t.Type() == sqltypes.Year {
			return fmt.Sprintf("%04d", x) // a YEAR: four digits (0000)
		}
	}
	return v
}

// oddType is a DATE, DATETIME or TIMESTAMP type of go-mysql-server that
// also converts, compares and prints OddDate values. It is given only to
// the few expressions oddrule.go picks: go-mysql-server recognises its
// own date types by their concrete type, which oddType is not.
type OddType struct {
	sql.DatetimeType
}

var _ sql.DatetimeType = OddType{}

// oddTypeOf returns t with OddDate values understood when t is one of
// go-mysql-server's date types, and t otherwise.
func OddTypeOf(t sql.Type) sql.Type {
	if gtypes.IsTime(t) {
		return OddType{t.(sql.DatetimeType)}
	}
	return t
}

// Compare orders dates exactly when either value is an OddDate.
func (t OddType) Compare(ctx context.Context, a, b interface{}) (int, error) {
	_, ao := a.(OddDate)
	_, bo := b.(OddDate)
	if !ao && !bo {
		return t.DatetimeType.Compare(ctx, a, b)
	}
	if null, c := gtypes.CompareNulls(a, b); null {
		return c, nil
	}
	pa, aok := PackedOf(a)
	pb, bok := PackedOf(b)
	if !aok {
		return 0, gtypes.ErrConvertingToTime.New(a)
	}
	if !bok {
		return 0, gtypes.ErrConvertingToTime.New(b)
	}
	return ComparePacked(pa, pb), nil
}

// comparePacked orders two packed date-times.
func ComparePacked(a, b int64) int { return cmp.Compare(a, b) }

// Convert keeps an OddDate (in the type's kind) and converts anything
// else as go-mysql-server's type does; a string it refuses that MariaDB
// reads as a date (2020-00-15, 2021-02-30) becomes that date.
func (t OddType) Convert(ctx context.Context, v interface{}) (interface{}, sql.ConvertInRange, error) {
	if o, ok := v.(OddDate); ok {
		return o.AsColumn(t.DatetimeType), sql.InRange, nil
	}
	out, in, err := t.DatetimeType.Convert(ctx, v)
	if err != nil {
		// a text or a number (20200203, 20200203101112.5) MariaDB reads
		// as a date where go-mysql-server refuses it
		if _, text := BytesOf(v); text || IsNumberValue(v) {
			if p, ok := PackedOf(v); ok && p != 0 {
				return OddDate{P: p, Scale: 6}.AsColumn(t.DatetimeType), sql.InRange, nil
			}
		}
	}
	return out, in, err
}

// SQL prints a date as MariaDB does: an OddDate, and a time.Time with as
// many fractional digits as the type has (go-mysql-server drops trailing
// zeros, and the MySQL front, which pads them from the field's decimals,
// is not told them for a type that is not go-mysql-server's own).
// Anything else is printed as go-mysql-server's type does.
func (t OddType) SQL(ctx *sql.Context, dest []byte, v interface{}) (sqltypes.Value, error) {
	et := &types.Type{Kind: types.DateTime, Scale: uint8(t.Precision())}
	if t.Type() == sqltypes.Date {
		et = &types.Type{Kind: types.Date}
	}
	switch x := v.(type) {
	case OddDate:
		return sqltypes.MakeTrusted(t.Type(), types.AppendFormat(dest, et, types.Value{I: x.P})), nil
	case time.Time:
		if y := x.UTC().Year(); y >= 0 && y <= 9999 {
			return sqltypes.MakeTrusted(t.Type(), types.AppendFormat(dest, et, types.Value{I: packTime(et, x)})), nil
		}
	}
	return t.DatetimeType.SQL(ctx, dest, v)
}

// Equals compares the types under the wrappers.
func (t OddType) Equals(other sql.Type) bool {
	if o, ok := other.(OddType); ok {
		other = o.DatetimeType
	}
	return t.DatetimeType.Equals(other)
}

// dayNumber is MariaDB's day number of a date (calc_daynr), which counts
// a zero or past-the-end day of a month on from the month's start.
func dayNumber(y, mo, d int) int {
	if y == 0 && mo == 0 {
		return 0
	}
	n := 365*y + 31*(mo-1) + d
	if mo <= 2 {
		y--
	} else {
		n -= (mo*4 + 23) / 10
	}
	return n + y/4 - (y/100+1)*3/4
}

var weekdayNames = [7]string{"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}

// formatOddDate formats an OddDate as MariaDB's DATE_FORMAT does; ok is
// false where MariaDB's answer is NULL: a month name of month 0, a day of
// the week of a date with neither month nor year, a day of the year of
// month 0, and (not computed here) the week numbers %U %u %V %v %X %x.
func FormatOddDate(o OddDate, f string) (string, bool) {
	y, mo, d, h, mi, s, us := types.UnpackDateTime(o.P)
	h12 := h % 12
	if h12 == 0 {
		h12 = 12
	}
	ampm := "AM"
	if h >= 12 {
		ampm = "PM"
	}
	var b []byte
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' || i+1 == len(f) {
			b = append(b, c)
			continue
		}
		i++
		switch f[i] {
		case 'M', 'b':
			if mo == 0 {
				return "", false
			}
			name := time.Month(mo).String()
			if f[i] == 'b' {
				name = name[:3]
			}
			b = append(b, name...)
		case 'W', 'a', 'w':
			if mo == 0 && y == 0 {
				return "", false
			}
			wd := (dayNumber(y, mo, d) + 5) % 7
			switch f[i] {
			case 'W':
				b = append(b, weekdayNames[wd]...)
			case 'a':
				b = append(b, weekdayNames[wd][:3]...)
			default:
				b = appendNumber(b, (wd+1)%7, 1)
			}
		case 'j':
			if mo == 0 {
				return "", false
			}
			b = appendNumber(b, dayNumber(y, mo, d)-dayNumber(y, 1, 1)+1, 3)
		case 'U', 'u', 'V', 'v', 'X', 'x':
			return "", false
		case 'D':
			b = appendNumber(b, d, 1)
			switch {
			case d >= 10 && d <= 19:
				b = append(b, "th"...)
			case d%10 == 1:
				b = append(b, "st"...)
			case d%10 == 2:
				b = append(b, "nd"...)
			case d%10 == 3:
				b = append(b, "rd"...)
			default:
				b = append(b, "th"...)
			}
		case 'Y':
			b = appendNumber(b, y, 4)
		case 'y':
			b = appendNumber(b, y%100, 2)
		case 'm':
			b = appendNumber(b, mo, 2)
		case 'c':
			b = appendNumber(b, mo, 1)
		case 'd':
			b = appendNumber(b, d, 2)
		case 'e':
			b = appendNumber(b, d, 1)
		case 'f':
			b = appendNumber(b, us, 6)
		case 'H':
			b = appendNumber(b, h, 2)
		case 'k':
			b = appendNumber(b, h, 1)
		case 'h', 'I':
			b = appendNumber(b, h12, 2)
		case 'l':
			b = appendNumber(b, h12, 1)
		case 'i':
			b = appendNumber(b, mi, 2)
		case 'S', 's':
			b = appendNumber(b, s, 2)
		case 'p':
			b = append(b, ampm...)
		case 'r':
			b = appendNumber(b, h12, 2)
			b = append(b, ':')
			b = appendNumber(b, mi, 2)
			b = append(b, ':')
			b = appendNumber(b, s, 2)
			b = append(b, ' ')
			b = append(b, ampm...)
		case 'T':
			b = appendNumber(b, h, 2)
			b = append(b, ':')
			b = appendNumber(b, mi, 2)
			b = append(b, ':')
			b = appendNumber(b, s, 2)
		default:
			b = append(b, f[i])
		}
	}
	return string(b), true
}

// appendNumber is strconv.AppendInt for the formatter.
func appendNumber(dst []byte, n int, width int) []byte {
	s := strconv.Itoa(n)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}

// HasTime reports whether a schema has a DATE, DATETIME or TIMESTAMP
// column of go-mysql-server's own types.
func HasTime(sch sql.Schema) bool {
	for _, c := range sch {
		if gtypes.IsTime(c.Type) {
			return true
		}
	}
	return false
}

// OddSchema is sch with its date types made oddType.
func OddSchema(sch sql.Schema) sql.Schema {
	out := sch.Copy()
	for _, c := range out {
		c.Type = OddTypeOf(c.Type)
	}
	return out
}

// OddTable returns a copy of our table under go-mysql-server's process
// wrapper whose schema has oddType for its dates; ok is false when there
// is none to change.
func OddTable(st sql.Table) (sql.Table, bool) {
	switch x := st.(type) {
	case *table:
		if x.oddSch != nil || !HasTime(x.ts.sch.Schema) {
			return st, false
		}
		c := *x
		c.oddSch = OddSchema(x.ts.sch.Schema)
		return &c, true
	case *indexedTable:
		if t, ok := OddTable(x.table); ok {
			return &indexedTable{table: t.(*table), lookup: x.lookup}, true
		}
	case *plan.ProcessTable:
		if t, ok := OddTable(x.Table); ok {
			nn := *x
			nn.Table = t
			return &nn, true
		}
	}
	return st, false
}

// numberToPacked reads a whole number as MariaDB's number_to_datetime
// does: 0 the zero date; YYMMDD (years 2000-2069 below 700101),
// YYYYMMDD, YYMMDDHHMMSS or YYYYMMDDHHMMSS by its size, anything between
// those ranges no date; then each part in its range, a zero month or day
// allowed, a day past its month's end not.
func numberToPacked(d decimal.Decimal) (int64, bool) {
	if d.Sign() < 0 || !d.LessThan(decimal.New(1, 14)) {
		return 0, false
	}
	nr := d.IntPart()
	switch {
	case nr == 0:
		return 0, true
	case nr < 101:
		return 0, false
	case nr <= 691231:
		nr = (nr + 20000000) * 1000000
	case nr < 700101:
		return 0, false
	case nr <= 991231:
		nr = (nr + 19000000) * 1000000
	case nr < 10000101:
		return 0, false
	case nr <= 99991231:
		nr *= 1000000
	case nr < 101000000:
		return 0, false
	case nr <= 691231235959:
		nr += 20000000000000
	case nr < 700101000000:
		return 0, false
	case nr <= 991231235959:
		nr += 19000000000000
	case nr < 10000101000000:
		return 0, false
	case nr > 99991231235959:
		return 0, false
	}
	ymd, hms := nr/1000000, nr%1000000
	y, mo, day := int(ymd/10000), int(ymd/100%100), int(ymd%100)
	h, mi, sec := int(hms/10000), int(hms/100%100), int(hms%100)
	if mo > 12 || day > 31 || h > 23 || mi > 59 || sec > 59 {
		return 0, false
	}
	if mo != 0 && day != 0 && day > time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
		return 0, false
	}
	return types.PackDateTime(y, mo, day, h, mi, sec, 0), true
}
