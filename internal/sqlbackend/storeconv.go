package sqlbackend

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/types"
)

// Converting a value to a column type as MariaDB stores it, and the
// condition met (storeValue, store.go, reports it). Pure functions, safe
// for concurrent use.

// storeCond is a condition met storing a value: its error number (0 for
// none), the type word of 1366/1292, and whether it is only a note.
type storeCond struct {
	code   int
	word   string
	text   string // the value as the message quotes it, when not all of it
	note   bool
	always bool // an error in every mode
}

// valueText is a value as 1366 and 1292 quote it.
func valueText(v interface{}) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	b := convertText(&types.Type{Kind: types.Blob, Length: math.MaxUint32}, v, true)
	return string(b.B)
}

// storeConvert converts v to column type t as MariaDB stores it, and
// reports the condition met (code 0 for none).
func storeConvert(ctx *sql.Context, t *types.Type, v interface{}, mode storeMode) (interface{}, storeCond) {
	if isJSON(t) {
		return v, storeCond{}
	}
	switch {
	case t.IsInteger():
		return storeInt(t, v)
	case t.Kind == types.Decimal:
		return storeDecimal(t, v)
	case t.Kind == types.Float || t.Kind == types.Double:
		if s, ok := BytesOf(v); ok {
			n := ScanNumber(s)
			out := ValueToSQL(t, types.Convert(t, s, nil))
			if t.Unsigned && strings.HasPrefix(n.Num, "-") && strings.Trim(n.Num, "-0.") != "" {
				return out, storeCond{code: mysql.ERWarnDataOutOfRange} // (stored as 0)
			}
			return out, n.textCond("double")
		}
		if d, ok := ToDecimal(v); ok && t.Unsigned && d.IsNegative() {
			return ValueToSQL(t, types.Value{}), storeCond{code: mysql.ERWarnDataOutOfRange}
		}
	case t.Kind == types.Enum:
		return storeEnum(t, v)
	case t.Kind == types.Set:
		return storeSet(t, v)
	case t.IsString() || t.Kind == types.Binary || t.Kind == types.VarBinary || t.Kind == types.Blob:
		return storeString(t, v)
	case t.Kind == types.Date || t.Kind == types.DateTime || t.Kind == types.Timestamp:
		return storeDate(ctx, t, v, mode)
	case t.Kind == types.Geometry:
		return storeGeometry(ctx, t, v)
	case t.Kind == types.Time:
		// Text in MariaDB's forms ('1 02:03:04.5', '12:00'), which
		// go-mysql-server's TIME does not all read; anything else is
		// left to it.
		if s, ok := BytesOf(v); ok {
			if c, ok := types.ConvertTime(t, s); ok {
				return gtypes.Timespan(c.I), storeCond{}
			}
		}
	}
	return v, storeCond{}
}

// numText is what scanNumber found in a string.
type numText struct {
	Num      string // the number's text (sign, digits, point, exponent), "" for none
	Trailing bool   // text other than spaces follows the number
	spaces   bool   // only spaces follow the number
}

// scanNumber reads the number a string starts with, as MySQL does when it
// stores a string into a numeric column: leading spaces, a sign, digits
// with an optional point, an optional exponent.
func ScanNumber(s []byte) numText {
	i := 0
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return numText{Trailing: true}
	}
	end := i
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			end = j
		}
	}
	n := numText{Num: string(s[start:end])}
	for _, c := range s[end:] {
		if !IsSpace(c) {
			n.Trailing = true
			break
		}
	}
	n.spaces = !n.Trailing && end < len(s)
	return n
}

func IsSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// textCond is the condition of a string that held n: 1366 when it holds
// no number, 1265 when text follows the number.
func (n numText) textCond(word string) storeCond {
	switch {
	case n.Num == "":
		return storeCond{code: mysql.ERTruncatedWrongValueForField, word: word}
	case n.Trailing:
		return storeCond{code: mysql.ERWarnDataTruncated}
	}
	return storeCond{}
}

// toDecimal returns a numeric value as a decimal; ok is false for values
// that are not numbers.
func ToDecimal(v interface{}) (decimal.Decimal, bool) {
	switch x := v.(type) {
	case int8:
		return decimal.NewFromInt(int64(x)), true
	case int16:
		return decimal.NewFromInt(int64(x)), true
	case int32:
		return decimal.NewFromInt(int64(x)), true
	case int64:
		return decimal.NewFromInt(x), true
	case int:
		return decimal.NewFromInt(int64(x)), true
	case uint8:
		return decimal.NewFromInt(int64(x)), true
	case uint16:
		return decimal.NewFromInt(int64(x)), true
	case uint32:
		return decimal.NewFromInt(int64(x)), true
	case uint64:
		return decimalFromUint(x), true
	case uint:
		return decimalFromUint(uint64(x)), true
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return decimal.Decimal{}, false
		}
		return decimal.NewFromFloat32(x), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return decimal.Decimal{}, false
		}
		return decimal.NewFromFloat(x), true
	case decimal.Decimal:
		return x, true
	case bool:
		if x {
			return decimal.NewFromInt(1), true
		}
		return decimal.Zero, true
	}
	return decimal.Decimal{}, false
}

// decimalFromUint returns u as a decimal.
func decimalFromUint(u uint64) decimal.Decimal {
	return decimal.NewFromBigInt(new(big.Int).SetUint64(u), 0)
}

// intLimits are the limits of an integer column type.
func intLimits(t *types.Type) (lo, hi decimal.Decimal) {
	l := intLimitTable[intLimitKey{t.Kind, t.Unsigned}]
	return l.lo, l.hi
}

type intLimitKey struct {
	kind     types.Kind
	unsigned bool
}

// intLimit holds an integer type's limits as decimals and as int64
// (hiInt is math.MaxInt64 for BIGINT UNSIGNED, whose top exceeds it).
type intLimit struct {
	lo, hi       decimal.Decimal
	loInt, hiInt int64
}

// intLimitTable holds the limits of every integer type, computed once
// (storing a row computes them for each integer value); read-only after
// init.
var intLimitTable = func() map[intLimitKey]intLimit {
	m := map[intLimitKey]intLimit{}
	for kind, bits := range map[types.Kind]int{types.TinyInt: 8, types.SmallInt: 16, types.MediumInt: 24, types.Int: 32, types.BigInt: 64} {
		one := decimal.NewFromInt(1)
		p := decimal.NewFromInt(2).Pow(decimal.NewFromInt(int64(bits)))
		half := p.Div(decimal.NewFromInt(2))
		u := intLimit{lo: decimal.Zero, hi: p.Sub(one), hiInt: math.MaxInt64}
		if bits < 64 {
			u.hiInt = u.hi.IntPart()
		}
		m[intLimitKey{kind, true}] = u
		s := intLimit{lo: half.Neg(), hi: half.Sub(one)}
		s.loInt, s.hiInt = s.lo.IntPart(), s.hi.IntPart()
		m[intLimitKey{kind, false}] = s
	}
	return m
}()

// signedInt returns v as an int64 if it is a Go signed integer.
func signedInt(v interface{}) (int64, bool) {
	switch x := v.(type) {
	case int8:
		return int64(x), true
	case int16:
		return int64(x), true
	case int32:
		return int64(x), true
	case int64:
		return x, true
	case int:
		return int64(x), true
	}
	return 0, false
}

// wideInt is signedInt for unsigned values too (past MaxInt64 it gives
// MaxInt64): the reading of a system variable, whose type may be either.
func WideInt(v interface{}) (int64, bool) {
	switch x := v.(type) {
	case uint8:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint64:
		return int64(min(x, math.MaxInt64)), true
	case uint:
		return int64(min(uint64(x), math.MaxInt64)), true
	}
	return signedInt(v)
}

// GlobalInt returns the global value of the integer system variable
// name, signed or unsigned (false when it is unset or no integer).
func GlobalInt(name string) (int64, bool) {
	_, v, ok := sql.SystemVariables.GetGlobal(name)
	if !ok {
		return 0, false
	}
	return WideInt(v)
}

// intValue returns the go-mysql-server value of integer d (in range) in
// column type t.
func intValue(t *types.Type, d decimal.Decimal) interface{} {
	var v types.Value
	if t.Unsigned {
		v.I = int64(d.BigInt().Uint64())
	} else {
		v.I = d.IntPart()
	}
	return ValueToSQL(t, v)
}

// storeInt stores v into an integer column.
func storeInt(t *types.Type, v interface{}) (interface{}, storeCond) {
	if i, ok := signedInt(v); ok {
		// The common case, without decimals.
		l := intLimitTable[intLimitKey{t.Kind, t.Unsigned}]
		switch {
		case i < l.loInt:
			return intValue(t, l.lo), storeCond{code: mysql.ERWarnDataOutOfRange}
		case i > l.hiInt:
			return intValue(t, l.hi), storeCond{code: mysql.ERWarnDataOutOfRange}
		}
		return ValueToSQL(t, types.Value{I: i}), storeCond{}
	}
	var cond storeCond
	d, ok := ToDecimal(v)
	if !ok {
		s, isText := BytesOf(v)
		if !isText {
			return v, storeCond{}
		}
		n := ScanNumber(s)
		cond = n.textCond("integer")
		if n.Num == "" {
			return intValue(t, decimal.Zero), cond
		}
		var err error
		if d, err = decimal.NewFromString(n.Num); err != nil {
			return ValueToSQL(t, types.Convert(t, s, nil)), cond
		}
		if cond.code == 0 && n.spaces {
			cond = storeCond{code: mysql.ERWarnDataTruncated, note: true}
		}
	}
	d = d.Round(0)
	lo, hi := intLimits(t)
	switch {
	case d.LessThan(lo):
		return intValue(t, lo), storeCond{code: mysql.ERWarnDataOutOfRange}
	case d.GreaterThan(hi):
		return intValue(t, hi), storeCond{code: mysql.ERWarnDataOutOfRange}
	}
	return intValue(t, d), cond
}

// storeDecimal stores v into a DECIMAL column.
func storeDecimal(t *types.Type, v interface{}) (interface{}, storeCond) {
	var cond storeCond
	d, ok := ToDecimal(v)
	if !ok {
		s, isText := BytesOf(v)
		if !isText {
			return v, storeCond{}
		}
		n := ScanNumber(s)
		cond = n.textCond("decimal")
		if n.Num == "" {
			return decimalValue(t, decimal.Zero), cond
		}
		var err error
		if d, err = decimal.NewFromString(n.Num); err != nil {
			return v, storeCond{}
		}
	}
	scale := int32(t.Scale)
	r := d.Round(scale)
	if cond.code == 0 && !r.Equal(d) {
		cond = storeCond{code: mysql.ERWarnDataTruncated, note: true}
	}
	lo, hi := decimalLimits(t)
	switch {
	case r.LessThan(lo):
		return decimalValue(t, lo), storeCond{code: mysql.ERWarnDataOutOfRange}
	case r.GreaterThan(hi):
		return decimalValue(t, hi), storeCond{code: mysql.ERWarnDataOutOfRange}
	}
	return decimalValue(t, r), cond
}

// decimalLimit are the limits of DECIMAL(M,D): ±(10^(M-D) - 10^-D).
type decimalLimit struct{ lo, hi decimal.Decimal }

// decimalLimitCache holds the limits by (M, D, unsigned), computed once
// per shape rather than for every stored value; safe for concurrent use.
var decimalLimitCache sync.Map // [3]uint32 -> decimalLimit

// decimalLimits are the limits of a DECIMAL column type (0 for the low
// one of an unsigned type).
func decimalLimits(t *types.Type) (lo, hi decimal.Decimal) {
	u := uint32(0)
	if t.Unsigned {
		u = 1
	}
	key := [3]uint32{t.Length, uint32(t.Scale), u}
	if l, ok := decimalLimitCache.Load(key); ok {
		l := l.(decimalLimit)
		return l.lo, l.hi
	}
	scale := int32(t.Scale)
	l := decimalLimit{hi: decimal.New(1, int32(t.Length)-scale).Sub(decimal.New(1, -scale))}
	l.lo = l.hi.Neg()
	if t.Unsigned {
		l.lo = decimal.Zero
	}
	decimalLimitCache.Store(key, l)
	return l.lo, l.hi
}

// decimalValue is d (in range) as a DECIMAL column of t holds it.
func decimalValue(t *types.Type, d decimal.Decimal) interface{} {
	return ValueToSQL(t, types.Convert(t, []byte(d.StringFixed(int32(t.Scale))), nil))
}

// storeEnum stores v into an ENUM column: a member's name or a 1-based
// index; anything else is the error value ” (index 0) and 1265.
func storeEnum(t *types.Type, v interface{}) (interface{}, storeCond) {
	var idx int64
	if d, ok := ToDecimal(v); ok {
		d = d.Round(0)
		if d.IsPositive() && d.LessThanOrEqual(decimal.NewFromInt(int64(len(t.Elems)))) {
			idx = d.IntPart()
		}
	} else if s, ok := BytesOf(v); ok {
		idx = types.Convert(t, s, nil).I
	} else {
		return v, storeCond{}
	}
	if idx == 0 {
		return uint16(0), storeCond{code: mysql.ERWarnDataTruncated}
	}
	return uint16(idx), storeCond{}
}

// storeSet stores v into a SET column: members' names joined by commas,
// or a bit mask; unknown members are dropped with 1265.
func storeSet(t *types.Type, v interface{}) (interface{}, storeCond) {
	full := uint64(1)<<uint(len(t.Elems)) - 1
	if d, ok := ToDecimal(v); ok {
		d = d.Round(0)
		if d.IsNegative() || d.GreaterThan(decimalFromUint(full)) {
			return uint64(d.BigInt().Uint64()) & full, storeCond{code: mysql.ERWarnDataTruncated}
		}
		return d.BigInt().Uint64(), storeCond{}
	}
	s, ok := BytesOf(v)
	if !ok {
		return v, storeCond{}
	}
	mask := uint64(types.Convert(t, s, nil).I)
	cond := storeCond{}
	if len(s) > 0 {
		for _, part := range strings.Split(string(s), ",") {
			if types.Convert(t, []byte(part), nil).I == 0 {
				cond = storeCond{code: mysql.ERWarnDataTruncated}
			}
		}
	}
	return mask, cond
}

// storeString stores v into a character or binary column: a value longer
// than the column is cut, with 1406 (1265 when not strict), or only a note
// when what is cut is trailing spaces.
func storeString(t *types.Type, v interface{}) (interface{}, storeCond) {
	s, ok := BytesOf(v)
	if !ok {
		if _, num := ToDecimal(v); !num {
			return v, storeCond{}
		}
		if _, isFloat := v.(float64); isFloat {
			return v, storeCond{}
		}
		if _, isFloat := v.(float32); isFloat {
			return v, storeCond{}
		}
		s = convertText(&types.Type{Kind: types.Blob, Length: math.MaxUint32}, v, true).B
	}
	limit := int(t.Length)
	var rest []byte
	switch t.Kind {
	case types.Char, types.VarChar:
		if utf8.RuneCount(s) > limit {
			n, i := 0, 0
			for i < len(s) && n < limit {
				_, w := utf8.DecodeRune(s[i:])
				i += w
				n++
			}
			rest = s[i:]
		}
	default:
		if len(s) > limit {
			rest = s[limit:]
		}
	}
	out := ValueToSQL(t, types.Convert(t, s, nil))
	if t.IsString() && !utf8.Valid(s) && utf8Charset(t) {
		// Invalid UTF-8 becomes '?' (1366, from the first bad byte).
		return out, storeCond{code: mysql.ERTruncatedWrongValueForField, word: "string", text: badBytes(s)}
	}
	if len(rest) == 0 {
		return out, storeCond{}
	}
	if t.IsString() && strings.TrimRight(string(rest), " ") == "" {
		if t.Kind == types.Char {
			return out, storeCond{}
		}
		return out, storeCond{code: mysql.ERWarnDataTruncated, note: true}
	}
	return out, storeCond{code: mysql.ERDataTooLong}
}

// storeDate stores v, a string or a number, into a DATE, DATETIME or
// TIMESTAMP column: a value that is no date is 1292 (strict) or the zero
// date with 1265; text after the date is 1292 (strict) or 1265; a zero
// date under NO_ZERO_DATE is 1292 or 1264; a date with a zero month or
// day under NO_ZERO_IN_DATE is 1292 or the zero date with 1265, and is
// stored as written otherwise (an OddDate); a day past the end of its
// month is stored as written under ALLOW_INVALID_DATES, and is 1292 or
// the zero date with 1265 otherwise; a time part lost by DATE is a note.
func storeDate(ctx *sql.Context, t *types.Type, v interface{}, mode storeMode) (interface{}, storeCond) {
	s, ok := BytesOf(v)
	switch x := v.(type) {
	case time.Time:
		if !x.Equal(ZeroTime) {
			return v, storeCond{}
		}
		s, ok = []byte("0000-00-00"), true
	case OddDate:
		s, ok = []byte(x.String()), true
	}
	if !ok {
		d, num := ToDecimal(v)
		if !num {
			return v, storeCond{}
		}
		s = []byte(valueText(v))
		if d.IsZero() {
			s = []byte("0000-00-00") // the number 0 is the zero date
		}
	}
	word := "date"
	if t.Kind != types.Date {
		word = "datetime"
	}
	refuse := storeCond{code: mysql.ERTruncatedWrongValue, word: word}
	truncated := storeCond{code: mysql.ERWarnDataTruncated}
	// bad is the outcome of a value MariaDB does not store in this mode.
	bad := func() (interface{}, storeCond) {
		if mode.strict {
			return nil, refuse
		}
		return ZeroTime, truncated
	}
	f, trailing, ok := scanDate(s)
	if !ok {
		return bad()
	}
	if f.fields && !f.allZero && f.mo <= 12 && f.d <= 31 && f.y <= 9999 {
		switch {
		case f.mo == 0 || f.d == 0:
			if mode.noZeroInDate {
				return bad()
			}
		case !types.ValidDate(types.PackDateTime(f.y, f.mo, f.d, 0, 0, 0, 0)):
			if !mode.allowInvalidDates {
				return bad()
			}
		}
	}
	c, _ := types.ConvertDate(t, s, mode.allowInvalidDates)
	p := c.I
	_, mo, d, _, _, _, _ := types.UnpackDateTime(p)
	switch {
	case p == 0 && !f.allZero:
		// types.ConvertDate found no date (an invalid one)
		return bad()
	case p == 0:
		if mode.noZeroDate {
			if mode.strict {
				return nil, refuse
			}
			return ZeroTime, storeCond{code: mysql.ERWarnDataOutOfRange}
		}
	case mo == 0 || d == 0:
		// a zero month or day written without separators (20200015)
		if mode.noZeroInDate {
			return bad()
		}
	case !types.ValidDate(p) && !mode.allowInvalidDates:
		return bad()
	}
	out := dateValue(t, p)
	if trailing {
		// Text after the date. go-mysql-server's own forms (ISO 8601
		// with T and Z) stay accepted as it accepts them.
		if gv, _, err := SQLType(t).Convert(ctx, string(s)); err == nil {
			return gv, storeCond{}
		}
		if mode.strict {
			return nil, refuse
		}
		return out, truncated
	}
	if t.Kind == types.Date && f.timeSet {
		return out, storeCond{code: mysql.ERWarnDataTruncated, note: true}
	}
	return out, storeCond{}
}

// dateText is what scanDate read.
type dateText struct {
	allZero bool // every digit is 0
	timeSet bool // a non-zero time of day follows the date
	fields  bool // y, mo, d were written as separate groups
	y, mo   int
	d       int
}

// scanDate reads a date or date-time as MySQL writes them: digit groups
// separated by punctuation (year, month, day, hour, minute, second,
// fraction), or digits alone (YYYYMMDD[hhmmss]). trailing reports text
// after it; ok is false for text that starts with no date at all.
func scanDate(s []byte) (f dateText, trailing, ok bool) {
	i := 0
	for i < len(s) && IsSpace(s[i]) {
		i++
	}
	var groups [][]byte
	for i < len(s) && len(groups) < 7 {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			break
		}
		groups = append(groups, s[i:j])
		i = j
		if i < len(s) && len(groups) < 7 && (s[i] == '-' || s[i] == ':' || s[i] == '.' || s[i] == ' ' || s[i] == 'T' || s[i] == '/') &&
			i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			i++
		}
	}
	for ; i < len(s); i++ {
		if !IsSpace(s[i]) {
			trailing = true
		}
	}
	if len(groups) == 0 || (len(groups) < 3 && len(groups[0]) < 6) {
		return f, trailing, false
	}
	f.allZero = true
	for _, g := range groups {
		for _, c := range g {
			if c != '0' {
				f.allZero = false
			}
		}
	}
	if len(groups) >= 3 {
		num := func(g []byte) int {
			n := 0
			for _, c := range g {
				if n < 1e6 {
					n = n*10 + int(c-'0')
				}
			}
			return n
		}
		f.fields = true
		f.y, f.mo, f.d = num(groups[0]), num(groups[1]), num(groups[2])
		if len(groups[0]) <= 2 {
			if f.y < 70 {
				f.y += 2000
			} else {
				f.y += 1900
			}
		}
	}
	if len(groups) > 3 {
		for _, g := range groups[3:] {
			for _, c := range g {
				if c != '0' {
					f.timeSet = true
				}
			}
		}
	} else if len(groups) == 1 && len(groups[0]) > 8 {
		for _, c := range groups[0][8:] {
			if c != '0' {
				f.timeSet = true
			}
		}
	}
	return f, trailing, true
}

// utf8Charset reports whether a character column holds UTF-8.
func utf8Charset(t *types.Type) bool {
	c := t.Collation
	return c == nil || strings.HasPrefix(c.Charset, "utf8")
}

// badBytes prints the bytes of s from its first invalid UTF-8 sequence
// as MariaDB's 1366 does: at most 6, those outside printable ASCII as
// \xHH, then "..." when there are more.
func badBytes(s []byte) string {
	i := 0
	for i < len(s) {
		r, w := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && w <= 1 {
			break
		}
		i += w
	}
	var b strings.Builder
	rest := s[i:]
	for j, c := range rest {
		if j == 6 {
			b.WriteString("...")
			break
		}
		if c < 0x20 || c >= 0x7F {
			fmt.Fprintf(&b, "\\x%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
