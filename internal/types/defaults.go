package types

// zeroDecimal holds enough "0.000..." for any DECIMAL scale.
const zeroDecimal = "0.000000000000000000000000000000"

// Zero returns the all-zero value of type t, what a column holds when its
// bytes in the record are all zero: 0, 0.0, the empty string, BINARY(n)'s
// n zero bytes, 0000-00-00, 00:00:00, YEAR 0000, and for ENUM index 0, the
// error value that prints as the empty string. For the kinds whose value
// lives in Value.B the bytes are newly allocated.
func Zero(t *Type) Value {
	return zeroInto(t, nil)
}

// zeroInto is Zero building its bytes in buf[:0].
func zeroInto(t *Type, buf []byte) Value {
	switch t.Kind {
	case Decimal:
		_, s := decimalShape(t)
		n := 1
		if s > 0 {
			n = s + 2
		}
		return Value{B: append(buf[:0], zeroDecimal[:n]...)}
	case Binary:
		b := buf[:0]
		for i := uint32(0); i < t.Length; i++ {
			b = append(b, 0)
		}
		return Value{B: b}
	case Char, VarChar, Text, VarBinary, Blob, Geometry:
		return Value{B: buf[:0]}
	}
	return Value{}
}

// ImplicitDefault returns MySQL's implicit default of a NOT NULL column of
// type t that has no DEFAULT clause: Zero(t), except that an ENUM gets its
// first member. (TIMESTAMP gets 0000-00-00 00:00:00, as with
// explicit_defaults_for_timestamp.)
func ImplicitDefault(t *Type) Value {
	return implicitInto(t, nil)
}

func implicitInto(t *Type, buf []byte) Value {
	if t.Kind == Enum && len(t.Elems) > 0 {
		return Value{I: 1}
	}
	return zeroInto(t, buf)
}

// InsertValue returns the value a HandlerSocket insert stores in column c.
// in is the value received, isNull says it was the NULL token, and omitted
// says the request carried no value for the column. The rules:
//
//   - omitted: the declared DEFAULT; without one (or with DEFAULT NULL or
//     DEFAULT CURRENT_TIMESTAMP, which HandlerSocket does not apply) the
//     column's record default: ImplicitDefault for a NOT NULL column,
//     Zero for a nullable one. Never NULL: HandlerSocket clears every null
//     flag before storing.
//   - the NULL token: NULL when c is nullable; otherwise the declared
//     DEFAULT, else ImplicitDefault (no error).
//   - anything else, the empty string included: Convert(in). An empty
//     string never gives the DEFAULT.
//
// AUTO_INCREMENT is not handled here. For the kinds whose value lives in
// Value.B the bytes are built in buf[:0] (never aliasing in or c.Default).
func (c *Column) InsertValue(in []byte, isNull, omitted bool, buf []byte) Value {
	def := c.Default
	if def != nil && def.Null {
		def = nil
	}
	switch {
	case omitted:
		if def != nil {
			return copyValue(*def, buf)
		}
		if c.Nullable {
			return zeroInto(&c.Type, buf)
		}
		return implicitInto(&c.Type, buf)
	case isNull:
		if c.Nullable {
			return NullValue
		}
		if def != nil {
			return copyValue(*def, buf)
		}
		return implicitInto(&c.Type, buf)
	}
	return Convert(&c.Type, in, buf)
}

// copyValue returns v with its bytes (if any) copied into buf[:0].
func copyValue(v Value, buf []byte) Value {
	if v.B != nil {
		v.B = append(buf[:0], v.B...)
	}
	return v
}
