package replica

import (
	"fmt"
	"strconv"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// convertRow turns one row image of a rows event (go-mysql's decoded
// values, one per column of the primary's table) into an engine row of t.
// skipped lists the columns the image left out (minimal row images); they
// are NULL in the result.
func convertRow(t *engine.Table, vals []any, skipped []int) (engine.Row, error) {
	if len(vals) != len(t.Columns) {
		return nil, fmt.Errorf("table %s.%s has %d columns here and %d on the primary", t.DB, t.Name, len(t.Columns), len(vals))
	}
	row := make(engine.Row, len(vals))
	for i, v := range vals {
		c := &t.Columns[i]
		var err error
		if row[i], err = convertValue(&c.Type, v); err != nil {
			return nil, fmt.Errorf("column %s.%s.%s: %w", t.DB, t.Name, c.Name, err)
		}
	}
	for _, i := range skipped {
		if i >= 0 && i < len(row) {
			row[i] = types.NullValue
		}
	}
	return row, nil
}

// intBits is the width of each integer kind.
var intBits = map[types.Kind]uint{types.TinyInt: 8, types.SmallInt: 16, types.MediumInt: 24, types.Int: 32, types.BigInt: 64}

// convertValue converts one decoded binlog value into typ's stored value.
// go-mysql decodes integers (signed unless it knew better), ENUM indexes,
// SET masks, BIT and YEAR as Go integers; FLOAT and DOUBLE as floats;
// DECIMAL, dates and times as text (ParseTime and UseDecimal off,
// TIMESTAMP in UTC); strings as string or []byte. Text goes through
// types.Convert, which parses dates and decimals and pads BINARY as the
// column's type says; the primary's values are already valid for the
// type, so no truncation rule applies.
func convertValue(typ *types.Type, v any) (types.Value, error) {
	if v == nil {
		return types.NullValue, nil
	}
	var n int64
	var isInt bool
	switch x := v.(type) {
	case int8:
		n, isInt = int64(x), true
	case int16:
		n, isInt = int64(x), true
	case int32:
		n, isInt = int64(x), true
	case int64:
		n, isInt = x, true
	case int:
		n, isInt = int64(x), true
	case uint8:
		n, isInt = int64(x), true
	case uint16:
		n, isInt = int64(x), true
	case uint32:
		n, isInt = int64(x), true
	case uint64:
		n, isInt = int64(x), true
	case float32:
		switch typ.Kind {
		case types.Float, types.Double:
			return types.Value{F: float64(x)}, nil
		}
		return text(typ, strconv.FormatFloat(float64(x), 'g', -1, 32))
	case float64:
		switch typ.Kind {
		case types.Float:
			return types.Value{F: float64(float32(x))}, nil
		case types.Double:
			return types.Value{F: x}, nil
		}
		return text(typ, strconv.FormatFloat(x, 'g', -1, 64))
	case string:
		return text(typ, x)
	case []byte:
		return bytesValue(typ, x)
	default:
		return types.Value{}, fmt.Errorf("unsupported binlog value %T (a partial JSON update? set binlog_row_value_options='')", v)
	}
	if !isInt {
		return types.Value{}, fmt.Errorf("unsupported binlog value %T", v)
	}
	switch k := typ.Kind; {
	case typ.IsInteger():
		if typ.Unsigned {
			// A signed decoding of an unsigned column: keep the bits.
			if bits := intBits[k]; bits < 64 {
				n &= 1<<bits - 1
			}
		}
		return types.Value{I: n}, nil
	case k == types.Enum, k == types.Set, k == types.Bit, k == types.Year:
		return types.Value{I: n}, nil
	case k == types.Float, k == types.Double:
		return types.Value{F: float64(n)}, nil
	}
	return text(typ, strconv.FormatInt(n, 10))
}

// text converts a value the binlog library gave as text.
func text(typ *types.Type, s string) (types.Value, error) {
	return bytesValue(typ, []byte(s))
}

func bytesValue(typ *types.Type, b []byte) (types.Value, error) {
	switch typ.Kind {
	case types.Date, types.DateTime, types.Timestamp, types.Time:
		// The binlog's values are exact (zero parts included, which
		// MySQL's text rules would not all keep): read them as they are.
		if v, ok := temporal(typ, b); ok {
			return v, nil
		}
		return types.Value{}, fmt.Errorf("unreadable date or time %q from the binlog", b)
	case types.Blob, types.VarBinary:
		// Bytes stay bytes (JSON too: the engine keeps its text).
		return types.Value{B: append([]byte(nil), b...)}, nil
	}
	v := types.Convert(typ, b, nil)
	if v.B != nil {
		v.B = append([]byte(nil), v.B...)
	}
	return v, nil
}

// temporal reads go-mysql's text of a DATE, DATETIME, TIMESTAMP (UTC) or
// TIME: digit groups with any separators, an optional leading '-' for
// TIME, an optional fraction.
func temporal(typ *types.Type, b []byte) (types.Value, bool) {
	neg := len(b) > 0 && b[0] == '-'
	if neg {
		b = b[1:]
	}
	var parts []int
	var frac []byte
	for i := 0; i < len(b); {
		if b[i] < '0' || b[i] > '9' {
			if b[i] == '.' && len(parts) >= 3 {
				j := i + 1
				for j < len(b) && b[j] >= '0' && b[j] <= '9' {
					j++
				}
				frac = b[i+1 : j]
				i = j
				continue
			}
			i++
			continue
		}
		n := 0
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			n = n*10 + int(b[i]-'0')
			i++
		}
		parts = append(parts, n)
	}
	us := 0
	for i := 0; i < 6; i++ {
		us *= 10
		if i < len(frac) {
			us += int(frac[i] - '0')
		}
	}
	if typ.Kind == types.Time {
		if len(parts) != 3 {
			return types.Value{}, false
		}
		v := ((int64(parts[0])*60+int64(parts[1]))*60+int64(parts[2]))*1_000_000 + int64(us)
		if neg {
			v = -v
		}
		return types.Value{I: v}, true
	}
	if neg || (len(parts) != 3 && len(parts) != 6) {
		return types.Value{}, false
	}
	for len(parts) < 6 {
		parts = append(parts, 0)
	}
	return types.Value{I: types.PackDateTime(parts[0], parts[1], parts[2], parts[3], parts[4], parts[5], us)}, true
}
