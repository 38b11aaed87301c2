package types

import (
	"math"
	"strconv"
	"unsafe"
)

// intRange returns the smallest and largest value of an integer kind; for
// unsigned types the bounds are uint64 values held in int64 bits.
func intRange(t *Type) (lo, hi int64) {
	bits := intBits(t.Kind)
	if t.Unsigned {
		if bits == 64 {
			return 0, -1
		}
		return 0, 1<<bits - 1
	}
	return -1 << (bits - 1), 1<<(bits-1) - 1
}

// intBits is the storage width of an integer kind in bits.
func intBits(k Kind) uint {
	switch k {
	case TinyInt:
		return 8
	case SmallInt:
		return 16
	case MediumInt:
		return 24
	case Int:
		return 32
	default:
		return 64
	}
}

// clampInt clamps v (int64, or uint64 bits when unsigned) to t's range.
func clampInt(t *Type, v int64) int64 {
	lo, hi := intRange(t)
	if t.Unsigned {
		if uint64(v) > uint64(hi) {
			return hi
		}
		return v
	}
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

// convertInt stores text into an integer column: numeric prefix, rounding
// half away from zero, exponent, clamping to the type's range.
func convertInt(t *Type, in []byte) Value {
	if v, ok := plainDigits(in); ok {
		return Value{I: clampInt(t, v)}
	}
	n := scanNumber(in)
	return Value{I: clampInt(t, n.roundInt(t.Unsigned))}
}

// plainDigits reads in when it is 1 to 18 ASCII digits and nothing
// else, the usual key or value of a request: scanNumber and roundInt give
// the same number for it (TestPlainDigits), with no sign, point or
// exponent to look for.
func plainDigits(in []byte) (int64, bool) {
	if len(in) == 0 || len(in) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range in {
		d := c - '0'
		if d > 9 {
			return 0, false
		}
		v = v*10 + int64(d)
	}
	return v, true
}

// fromIntInt stores a signed 64-bit integer into an integer column.
func fromIntInt(t *Type, v int64) Value {
	if t.Unsigned && v < 0 {
		return Value{}
	}
	return Value{I: clampInt(t, v)}
}

// parseFloatPrefix returns the double value of the numeric prefix of in,
// correctly rounded, with overflow giving ±math.MaxFloat64 as MySQL does.
func parseFloatPrefix(in []byte) float64 {
	n := scanNumber(in)
	if !n.ok {
		return 0
	}
	t, nz := n.top()
	if !nz || t < -400 {
		return 0
	}
	if t > 400 {
		if n.neg {
			return -math.MaxFloat64
		}
		return math.MaxFloat64
	}
	s := in[n.start:n.end]
	// ParseFloat does not keep its argument, so a non-copying view is safe.
	f, _ := strconv.ParseFloat(unsafe.String(&s[0], len(s)), 64)
	switch {
	case math.IsInf(f, 1):
		f = math.MaxFloat64
	case math.IsInf(f, -1):
		f = -math.MaxFloat64
	case math.IsNaN(f):
		f = 0
	}
	return f
}

// storeReal stores a double into a FLOAT or DOUBLE column: FLOAT(M,D) and
// DOUBLE(M,D) round to D decimals and clamp to M digits, FLOAT rounds to
// float32 (clamping at its largest finite value), UNSIGNED clamps at 0,
// and negative zero becomes zero.
func storeReal(t *Type, f float64) Value {
	if math.IsNaN(f) {
		f = 0
	}
	if t.Unsigned && f < 0 {
		f = 0
	}
	if t.Length > 0 && t.Scale < 31 {
		f = roundScaled(f, int(t.Length), int(t.Scale))
	}
	if t.Kind == Float {
		if f > math.MaxFloat32 {
			f = math.MaxFloat32
		} else if f < -math.MaxFloat32 {
			f = -math.MaxFloat32
		}
		f = float64(float32(f))
	} else if math.IsInf(f, 0) {
		f = math.Copysign(math.MaxFloat64, f)
	}
	if f == 0 {
		f = 0 // no negative zero
	}
	return Value{F: f}
}

// roundScaled rounds f to d decimals (ties to even on the fraction, as
// MySQL's rint does) and clamps it to ±(10^(m-d) - 10^-d).
func roundScaled(f float64, m, d int) float64 {
	if math.IsInf(f, 0) {
		return f
	}
	p := math.Pow10(d)
	fl := math.Floor(f)
	f = fl + math.RoundToEven((f-fl)*p)/p
	max := math.Pow10(m-d) - 1/p
	if f > max {
		return max
	}
	if f < -max {
		return -max
	}
	return f
}

// convertReal stores text into a FLOAT or DOUBLE column.
func convertReal(t *Type, in []byte) Value {
	return storeReal(t, parseFloatPrefix(in))
}

// convertDecimal stores text into a DECIMAL column: the exact decimal
// value rounded half away from zero to the scale, clamped to the
// precision, written as canonical text into buf[:0].
func convertDecimal(t *Type, in []byte, buf []byte) Value {
	n := scanNumber(in)
	return Value{B: storeDecimal(t, &n, buf[:0])}
}

// decimalShape returns DECIMAL precision and scale, sanitised.
func decimalShape(t *Type) (p, s int) {
	p, s = int(t.Length), int(t.Scale)
	if s > 30 {
		s = 30
	}
	if p > 65 {
		p = 65
	}
	if p < s {
		p = s
	}
	if p == 0 {
		p = 1
	}
	return p, s
}

// storeDecimal appends the canonical text of n stored into DECIMAL t.
func storeDecimal(t *Type, n *number, dst []byte) []byte {
	p, s := decimalShape(t)
	ip := p - s // integer digits
	var d [65]byte
	neg := n.neg
	overflow := false
	if top, nz := n.top(); nz && top >= ip {
		overflow = true
	} else {
		for i := 0; i < p; i++ {
			d[i] = byte(n.digitAt(ip - 1 - i))
		}
		if n.digitAt(-s-1) >= 5 {
			i := p - 1
			for ; i >= 0; i-- {
				if d[i] == 9 {
					d[i] = 0
					continue
				}
				d[i]++
				break
			}
			overflow = i < 0
		}
	}
	if overflow {
		for i := 0; i < p; i++ {
			d[i] = 9
		}
	}
	zero := true
	for i := 0; i < p; i++ {
		if d[i] != 0 {
			zero = false
			break
		}
	}
	if neg && t.Unsigned {
		zero = true
		for i := 0; i < p; i++ {
			d[i] = 0
		}
	}
	return appendDecimalDigits(dst, neg && !zero, d[:p], ip)
}

// appendDecimalDigits writes digits (values 0-9) with ip integer digits as
// canonical DECIMAL text.
func appendDecimalDigits(dst []byte, neg bool, d []byte, ip int) []byte {
	if neg {
		dst = append(dst, '-')
	}
	i := 0
	for i < ip-1 && d[i] == 0 {
		i++
	}
	if ip == 0 {
		dst = append(dst, '0')
	}
	for ; i < ip; i++ {
		dst = append(dst, '0'+d[i])
	}
	if ip < len(d) {
		dst = append(dst, '.')
		for _, c := range d[ip:] {
			dst = append(dst, '0'+c)
		}
	}
	return dst
}

// fromIntDecimal stores an integer into a DECIMAL column.
func fromIntDecimal(t *Type, v int64, buf []byte) Value {
	var tmp [24]byte
	s := strconv.AppendInt(tmp[:0], v, 10)
	n := scanNumber(s)
	return Value{B: storeDecimal(t, &n, buf[:0])}
}

// convertBit stores the raw bytes of text into a BIT(n) column: leading
// zero bytes are dropped and a value wider than n bits becomes all ones.
func convertBit(t *Type, in []byte) Value {
	for len(in) > 0 && in[0] == 0 {
		in = in[1:]
	}
	w := bitWidth(t)
	nb := (w + 7) / 8
	if len(in) > nb {
		return Value{I: int64(bitMax(w))}
	}
	var v uint64
	for _, c := range in {
		v = v<<8 | uint64(c)
	}
	if v > bitMax(w) {
		v = bitMax(w)
	}
	return Value{I: int64(v)}
}

// bitWidth is BIT's width in bits (1 to 64).
func bitWidth(t *Type) int {
	w := int(t.Length)
	if w < 1 {
		return 1
	}
	if w > 64 {
		return 64
	}
	return w
}

func bitMax(w int) uint64 {
	if w >= 64 {
		return 1<<64 - 1
	}
	return 1<<uint(w) - 1
}

// fromIntBit stores an integer into BIT(n): its 64-bit pattern, all ones
// when it needs more than n bits.
func fromIntBit(t *Type, v int64) Value {
	m := bitMax(bitWidth(t))
	if uint64(v) > m {
		return Value{I: int64(m)}
	}
	return Value{I: v}
}

// convertYear stores text into a YEAR column: the rounded numeric prefix;
// 0-69 mean 2000-2069 and 70-99 mean 1970-1999, except that a value of 0
// written with exactly four characters ("0000") is the year 0000; text with
// no digits, negative values, 100-1900 and values above 2155 give 0000.
func convertYear(t *Type, in []byte) Value {
	n := scanNumber(in)
	if !n.ok {
		return Value{}
	}
	u, fits := n.roundUint()
	if !fits || (n.neg && u != 0) {
		return Value{}
	}
	if u == 0 && len(in) == 4 {
		return Value{}
	}
	return Value{I: yearFromInt(int64(u))}
}

// yearFromInt maps a two- or four-digit year number to the stored year
// (0 for values YEAR can't hold).
func yearFromInt(v int64) int64 {
	switch {
	case v < 0 || (v >= 100 && v <= 1900) || v > 2155:
		return 0
	case v < 70:
		return 2000 + v
	case v < 100:
		return 1900 + v
	}
	return v
}

// fromIntYear stores an integer into YEAR: 0 stays 0000.
func fromIntYear(v int64) Value {
	if v == 0 {
		return Value{}
	}
	return Value{I: yearFromInt(v)}
}
