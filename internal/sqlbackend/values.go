package sqlbackend

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Values cross between go-mysql-server and the engine here. go-mysql-server
// holds a column's value as the Go type its column type converts to:
// int8..int64 and uint8..uint64 by integer width (int32/uint32 for
// MEDIUMINT), float32/float64, decimal.Decimal, string for character
// columns, []byte for binary ones, time.Time for DATE/DATETIME/TIMESTAMP
// (0000-00-00 as the year-0 January 1st it uses; dates time.Time cannot
// hold as an OddDate, oddate.go), types.Timespan for TIME,
// int16 for YEAR, uint16 (1-based position) for ENUM, uint64 (bit mask)
// for SET and uint64 for BIT. The engine holds a types.Value per column.
// Every function here is pure and safe for concurrent use.

// zeroTime is how go-mysql-server represents the zero date 0000-00-00.
var ZeroTime = time.Unix(-62167219200, 0).UTC()

// ValueToSQL converts a stored value of type t into go-mysql-server's Go
// value (nil for NULL), which SQLType(t) converts for the wire. Bytes are
// copied: the result never aliases v.
func ValueToSQL(t *types.Type, v types.Value) interface{} {
	if v.Null {
		return nil
	}
	switch t.Kind {
	case types.TinyInt:
		if t.Unsigned {
			return uint8(v.I)
		}
		return int8(v.I)
	case types.SmallInt:
		if t.Unsigned {
			return uint16(v.I)
		}
		return int16(v.I)
	case types.MediumInt, types.Int:
		if t.Unsigned {
			return uint32(v.I)
		}
		return int32(v.I)
	case types.BigInt:
		if t.Unsigned {
			return uint64(v.I)
		}
		return v.I
	case types.Float:
		return float32(v.F)
	case types.Double:
		return v.F
	case types.Decimal:
		return storedDecimal(v.B)
	case types.Bit, types.Set:
		return uint64(v.I)
	case types.Enum:
		return uint16(v.I)
	case types.Year:
		return int16(v.I)
	case types.Time:
		return gtypes.Timespan(v.I)
	case types.Date, types.DateTime, types.Timestamp:
		return dateValue(t, v.I)
	case types.Char, types.VarChar, types.Text:
		return string(v.B)
	case types.Blob:
		if isJSON(t) {
			return gtypes.NewLazyJSONDocument(append([]byte{}, v.B...))
		}
		return append([]byte{}, v.B...)
	case types.Binary, types.VarBinary:
		return append([]byte{}, v.B...)
	case types.Geometry:
		return geometryToSQL(v.B)
	}
	return nil
}

// storedDecimal parses a stored DECIMAL's text ([-]digits[.digits]). Up
// to 18 digits it is read as an int64 and a scale (no text to parse
// twice: a read of DECIMAL columns spent a tenth of its time in
// decimal.NewFromString); the decimal is the one NewFromString gives.
func storedDecimal(b []byte) decimal.Decimal {
	var n int64
	digits, frac := 0, -1
	neg := len(b) > 0 && b[0] == '-'
	i := 0
	if neg {
		i = 1
	}
	ok := i < len(b)
	for ; i < len(b) && ok; i++ {
		c := b[i]
		switch {
		case c >= '0' && c <= '9':
			n = n*10 + int64(c-'0')
			digits++
			if frac >= 0 {
				frac++
			}
		case c == '.' && frac < 0:
			frac = 0
		default:
			ok = false
		}
	}
	if ok && digits > 0 && digits <= 18 {
		if neg {
			n = -n
		}
		return decimal.New(n, -int32(max(frac, 0)))
	}
	d, err := decimal.NewFromString(string(b))
	if err != nil {
		return decimal.Zero
	}
	return d
}

// appendDecimal appends d as d.StringFixed(-d.Exponent()) prints it (the
// text go-mysql-server converts a decimal to), without the big.Int
// printing when the coefficient has at most 15 digits.
func AppendDecimal(b []byte, d decimal.Decimal) []byte {
	exp := d.Exponent()
	if exp > 0 || exp < -30 || d.NumDigits() > 15 {
		return append(b, d.StringFixed(-exp)...)
	}
	n := d.CoefficientInt64()
	if n < 0 {
		b = append(b, '-')
		n = -n
	}
	var tmp [20]byte
	digits := strconv.AppendInt(tmp[:0], n, 10)
	scale := int(-exp)
	if scale == 0 {
		return append(b, digits...)
	}
	if len(digits) <= scale {
		b = append(b, '0', '.')
		for i := len(digits); i < scale; i++ {
			b = append(b, '0')
		}
		return append(b, digits...)
	}
	b = append(b, digits[:len(digits)-scale]...)
	b = append(b, '.')
	return append(b, digits[len(digits)-scale:]...)
}

// unpackTime turns a packed date-time into a time.Time. Zero dates, which
// time.Time cannot hold, become go-mysql-server's zero time; a zero month
// or day of a partial date becomes 1 (dateValue gives those an OddDate).
func unpackTime(p int64) time.Time {
	y, mo, d, h, mi, s, us := types.UnpackDateTime(p)
	if y == 0 && mo == 0 && d == 0 && h == 0 && mi == 0 && s == 0 && us == 0 {
		return ZeroTime
	}
	if mo == 0 {
		mo = 1
	}
	if d == 0 {
		d = 1
	}
	if mo > 12 || d > 31 || h > 23 || mi > 59 || s > 59 {
		return time.Date(y, time.Month(mo), d, h, mi, s, us*1000, time.UTC) // normalizes
	}
	// time.Date's value, from the days since 1970-01-01 of the civil
	// date (its normalization and zone lookup cost a twentieth of a scan
	// of dates)
	yy := int64(y)
	if mo <= 2 {
		yy--
	}
	era := yy / 400
	if yy < 0 && yy%400 != 0 {
		era--
	}
	yoe := yy - era*400
	m := int64(mo)
	if m > 2 {
		m -= 3
	} else {
		m += 9
	}
	doy := (153*m+2)/5 + int64(d) - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	days := era*146097 + doe - 719468
	return time.Unix(days*86400+int64(h)*3600+int64(mi)*60+int64(s), int64(us)*1000).UTC()
}

// packTime packs a time.Time (taken in UTC) as a date-time of type t.
func packTime(t *types.Type, tm time.Time) int64 {
	if tm.Equal(ZeroTime) {
		return 0
	}
	tm = tm.UTC()
	y := tm.Year()
	if y < 0 || y > 9999 {
		return 0
	}
	if t.Kind == types.Date {
		return types.PackDateTime(y, int(tm.Month()), tm.Day(), 0, 0, 0, 0)
	}
	us := tm.Nanosecond() / 1000
	if t.Scale < 6 {
		div := int(math.Pow10(6 - int(t.Scale)))
		us = us / div * div
	}
	return types.PackDateTime(y, int(tm.Month()), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), us)
}

// rowToSQL converts an engine row of t into a go-mysql-server row.
func rowToSQL(t *engine.Table, sch sql.Schema, r engine.Row) sql.Row {
	out := make(sql.Row, len(r))
	for i := range r {
		out[i] = ValueToSQL(&t.Columns[i].Type, r[i])
	}
	return out
}

// rowFromSQL converts a go-mysql-server row into an engine row of t.
func rowFromSQL(ctx context.Context, t *engine.Table, row sql.Row) (engine.Row, error) {
	if len(row) != len(t.Columns) {
		return nil, fmt.Errorf("sqlbackend: row has %d values for %d columns of %s", len(row), len(t.Columns), t.Name)
	}
	out := make(engine.Row, len(row))
	for i := range row {
		v, err := valueFromSQL(ctx, &t.Columns[i].Type, row[i], false)
		if err != nil {
			return nil, fmt.Errorf("sqlbackend: column %s: %w", t.Columns[i].Name, err)
		}
		out[i] = v
	}
	return out, nil
}

// valueFromSQL converts a go-mysql-server value into a stored value of
// type t. go-mysql-server has already converted it to the column's type,
// so this is mostly a change of representation; anything unexpected goes
// through its MySQL text and types.Convert. With asKey set the value is a
// bound of an index range: character and binary strings are then kept
// whole (not cut to the column length), so that a longer key does not
// compare equal to a stored prefix of it.
func valueFromSQL(ctx context.Context, t *types.Type, v interface{}, asKey bool) (types.Value, error) {
	if v == nil {
		return types.NullValue, nil
	}
	if isJSON(t) {
		return jsonValue(ctx, v)
	}
	if t.Kind == types.Geometry {
		return geometryFromSQL(t, v)
	}
	if w, ok := v.(sql.AnyWrapper); ok {
		u, err := w.UnwrapAny(ctx)
		if err != nil {
			return types.Value{}, err
		}
		v = u
	}
	if o, ok := v.(OddDate); ok && t.Kind != types.Date && t.Kind != types.DateTime && t.Kind != types.Timestamp {
		// A date into another type: its number or its text, as
		// MariaDB converts it.
		if t.IsString() || t.Kind == types.Binary || t.Kind == types.VarBinary || t.Kind == types.Blob {
			v = o.String()
		} else {
			v = o.Number()
		}
	}
	switch t.Kind {
	case types.TinyInt, types.SmallInt, types.MediumInt, types.Int, types.BigInt:
		switch x := v.(type) {
		case int8:
			return types.FromInt(t, int64(x)), nil
		case int16:
			return types.FromInt(t, int64(x)), nil
		case int32:
			return types.FromInt(t, int64(x)), nil
		case int64:
			return types.FromInt(t, x), nil
		case int:
			return types.FromInt(t, int64(x)), nil
		case uint8:
			return types.FromInt(t, int64(x)), nil
		case uint16:
			return types.FromInt(t, int64(x)), nil
		case uint32:
			return types.FromInt(t, int64(x)), nil
		case uint64:
			if t.Unsigned && t.Kind == types.BigInt {
				return types.Value{I: int64(x)}, nil
			}
			if x > math.MaxInt64 {
				x = math.MaxInt64
			}
			return types.FromInt(t, int64(x)), nil
		case bool:
			if x {
				return types.Value{I: 1}, nil
			}
			return types.Value{I: 0}, nil
		}
	case types.Float, types.Double:
		var f float64
		switch x := v.(type) {
		case float32:
			f = float64(x)
		case float64:
			f = x
		case int64:
			f = float64(x)
		case int32:
			f = float64(x)
		case uint64:
			f = float64(x)
		case decimal.Decimal:
			f, _ = x.Float64()
		default:
			return convertText(t, v, asKey), nil
		}
		if t.Kind == types.Float {
			f = float64(float32(f))
		}
		if t.Length == 0 || asKey {
			return types.Value{F: f}, nil
		}
		// FLOAT(M,D)/DOUBLE(M,D): let the engine round to D decimals.
		return types.Convert(t, strconv.AppendFloat(nil, f, 'g', -1, 64), nil), nil
	case types.Decimal:
		if d, ok := v.(decimal.Decimal); ok {
			return types.Convert(t, []byte(d.String()), nil), nil
		}
	case types.Bit, types.Set, types.Enum, types.Year:
		// go-mysql-server hands these over as uint64 (BIT, SET), uint16
		// (ENUM) or int16 (YEAR) once converted, int64 otherwise.
		switch x := v.(type) {
		case uint64:
			return types.Value{I: int64(x)}, nil
		case uint16:
			return types.Value{I: int64(x)}, nil
		case int16:
			return types.Value{I: int64(x)}, nil
		case int64:
			return types.Value{I: x}, nil
		}
	case types.Time:
		switch x := v.(type) {
		case gtypes.Timespan:
			return types.Value{I: truncMicros(int64(x), t.Scale)}, nil
		case time.Duration:
			return types.Value{I: truncMicros(x.Microseconds(), t.Scale)}, nil
		}
	case types.Date, types.DateTime, types.Timestamp:
		if tm, ok := v.(time.Time); ok {
			return types.Value{I: packTime(t, tm)}, nil
		}
		if o, ok := v.(OddDate); ok {
			c, _ := types.ConvertDate(t, []byte(o.String()), true)
			return c, nil
		}
	case types.Char, types.VarChar, types.Text:
		b, ok := BytesOf(v)
		if !ok {
			return convertText(t, v, asKey), nil
		}
		if asKey {
			c := t.Collation
			if c == nil {
				c = collation.Default
			}
			return types.Value{B: c.Clean(nil, b)}, nil
		}
		return types.Convert(t, b, nil), nil
	case types.Binary, types.VarBinary, types.Blob:
		b, ok := BytesOf(v)
		if !ok {
			return convertText(t, v, asKey), nil
		}
		if asKey {
			return types.Value{B: append([]byte{}, b...)}, nil
		}
		return types.Convert(t, b, nil), nil
	}
	return convertText(t, v, asKey), nil
}

// truncMicros drops the digits of a TIME value (signed microseconds)
// beyond scale, toward zero, as MariaDB stores it.
func truncMicros(us int64, scale uint8) int64 {
	if scale >= 6 {
		return us
	}
	m := int64(math.Pow10(6 - int(scale)))
	return us - us%m
}

// convertText stores v through its MySQL text, as a client string would be.
func convertText(t *types.Type, v interface{}, asKey bool) types.Value {
	var s []byte
	switch x := v.(type) {
	case string:
		s = []byte(x)
	case []byte:
		s = x
	case time.Time:
		if x.Equal(ZeroTime) {
			s = []byte("0000-00-00 00:00:00")
		} else {
			s = x.UTC().AppendFormat(nil, "2006-01-02 15:04:05.999999")
		}
	case OddDate:
		s = []byte(x.String())
	case gtypes.Timespan:
		s = []byte(x.String())
	case decimal.Decimal:
		s = []byte(x.String())
	case float32:
		s = strconv.AppendFloat(nil, float64(x), 'g', -1, 32)
	case float64:
		s = strconv.AppendFloat(nil, x, 'g', -1, 64)
	case bool:
		if x {
			s = []byte("1")
		} else {
			s = []byte("0")
		}
	default:
		s = []byte(fmt.Sprint(v))
	}
	if asKey && (t.IsString() || t.Kind == types.VarBinary || t.Kind == types.Blob || t.Kind == types.Binary) {
		return types.Value{B: append([]byte{}, s...)}
	}
	return types.Convert(t, s, nil)
}

// jsonValue stores a JSON document as its text.
func jsonValue(ctx context.Context, v interface{}) (types.Value, error) {
	w, ok := v.(sql.JSONWrapper)
	if !ok {
		c, _, err := gtypes.JSON.Convert(ctx, v)
		if err != nil {
			return types.Value{}, err
		}
		if w, ok = c.(sql.JSONWrapper); !ok {
			return types.Value{}, fmt.Errorf("sqlbackend: %T is not a JSON document", c)
		}
	}
	b, err := gtypes.MarshallJson(w)
	if err != nil {
		return types.Value{}, err
	}
	return types.Value{B: append([]byte{}, b...)}, nil
}

// bytesOf returns the bytes of a string or []byte value.
func BytesOf(v any) ([]byte, bool) {
	switch x := v.(type) {
	case string:
		return []byte(x), true
	case []byte:
		return x, true
	}
	return nil, false
}
