package types

import (
	"math"
	"strconv"
)

// Convert stores the client string in into a column of type t the way
// MySQL's non-strict Field::store does (what HandlerSocket does with every
// value it writes): numbers take the numeric prefix and round half away
// from zero, clamping at the type's limits; dates accept MySQL's layouts
// and become zero dates when invalid; strings are cleaned and cut to the
// column length; ENUM and SET take names or numbers. Convert never fails
// and never panics.
//
// For the kinds whose value lives in Value.B, the bytes are appended to
// buf[:0], so a caller that reuses buf avoids allocating; the result never
// aliases in. The result is never NULL: the NULL token is the caller's
// business (see Column.InsertValue).
func Convert(t *Type, in []byte, buf []byte) Value {
	switch t.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt:
		return convertInt(t, in)
	case Decimal:
		return convertDecimal(t, in, buf)
	case Float, Double:
		return convertReal(t, in)
	case Bit:
		return convertBit(t, in)
	case Date, DateTime, Timestamp:
		return convertDate(t, in)
	case Time:
		return convertTime(t, in)
	case Year:
		return convertYear(t, in)
	case Char, VarChar, Text:
		return convertString(t, in, buf)
	case Binary, VarBinary, Blob:
		return convertBinary(t, in, buf)
	case Enum:
		return convertEnum(t, in)
	case Set:
		return convertSet(t, in)
	case Geometry:
		return convertGeometry(t, in, buf)
	}
	return Value{}
}

// FromInt stores the signed 64-bit integer n into a column of type t, as
// MySQL stores an integer expression (used for HandlerSocket's increment
// and decrement): integer kinds clamp (UNSIGNED clamps negatives to 0),
// DECIMAL clamps to its precision, BIT keeps the bit pattern (all ones
// when too wide), YEAR maps 1-99 like text does and keeps 0 as 0000, ENUM
// takes a valid position (else 0), SET keeps the bits its storage holds,
// and the temporal and string kinds convert the decimal text of n. For the
// kinds whose value lives in Value.B the bytes are newly allocated.
func FromInt(t *Type, n int64) Value {
	switch t.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt:
		return fromIntInt(t, n)
	case Decimal:
		return fromIntDecimal(t, n, nil)
	case Float, Double:
		return storeReal(t, float64(n))
	case Bit:
		return fromIntBit(t, n)
	case Year:
		return fromIntYear(n)
	case Enum:
		return fromIntEnum(t, n)
	case Set:
		return fromIntSet(t, n)
	}
	var tmp [24]byte
	return Convert(t, strconv.AppendInt(tmp[:0], n, 10), nil)
}

// ValInt returns the integer value of a stored value as MySQL's val_int()
// does: integers as stored (UNSIGNED values as their uint64 bits), FLOAT
// and DOUBLE rounded to nearest (ties to even) and clamped to the int64
// range, DECIMAL rounded half away from zero, BIT, ENUM (position) and SET
// (mask) as numbers, DATE as YYYYMMDD, DATETIME and TIMESTAMP as
// YYYYMMDDhhmmss, TIME as [-]hhmmss, YEAR as the year, and the string kinds
// by the rounded numeric prefix of their text. NULL gives 0.
func ValInt(t *Type, v Value) int64 {
	if v.Null {
		return 0
	}
	switch t.Kind {
	case Float, Double:
		f := v.F
		switch {
		case math.IsNaN(f):
			return 0
		case f <= math.MinInt64:
			return math.MinInt64
		case f >= math.MaxInt64:
			return math.MaxInt64
		}
		return int64(math.RoundToEven(f))
	case Decimal, Char, VarChar, Text, Binary, VarBinary, Blob, Geometry:
		n := scanNumber(v.B)
		return n.roundInt(false)
	case Date:
		y, mo, d, _, _, _, _ := UnpackDateTime(v.I)
		return int64(y)*10000 + int64(mo)*100 + int64(d)
	case DateTime, Timestamp:
		y, mo, d, h, mi, s, _ := UnpackDateTime(v.I)
		return ((int64(y)*10000+int64(mo)*100+int64(d))*100+int64(h))*10000 +
			int64(mi)*100 + int64(s)
	case Time:
		us := v.I
		neg := us < 0
		if neg {
			us = -us
		}
		s := us / microsPerSec
		r := s/3600*10000 + s/60%60*100 + s%60
		if neg {
			return -r
		}
		return r
	}
	return v.I
}
