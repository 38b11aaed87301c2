package types

import (
	"math"
	"strconv"
)

// AppendFormat appends the text of the non-NULL value v of type t to dst,
// exactly as MariaDB prints it (HandlerSocket and SQL print alike):
// integers in decimal, FLOAT with 6 significant digits and DOUBLE with the
// shortest round-trip digits (both switching to an exponent without '+',
// e.g. 3.40282e38 or 1e20, outside the range MySQL prints in full),
// FLOAT(M,D)/DOUBLE(M,D) and DECIMAL with their scale, dates as YYYY-MM-DD
// and YYYY-MM-DD hh:mm:ss[.fff], TIME as [-]hh:mm:ss[.fff] (hours may
// exceed 99), YEAR as four digits, BIT as its raw bytes, ENUM and SET by
// their member names, and strings as stored. It allocates only to grow
// dst. A NULL v appends nothing.
func AppendFormat(dst []byte, t *Type, v Value) []byte {
	if v.Null {
		return dst
	}
	switch t.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt:
		if t.Unsigned {
			return strconv.AppendUint(dst, uint64(v.I), 10)
		}
		return strconv.AppendInt(dst, v.I, 10)
	case Float, Double:
		return appendReal(dst, t, v.F)
	case Bit:
		n := (bitWidth(t) + 7) / 8
		for i := n - 1; i >= 0; i-- {
			dst = append(dst, byte(uint64(v.I)>>(8*uint(i))))
		}
		return dst
	case Date:
		y, mo, d, _, _, _, _ := UnpackDateTime(v.I)
		return appendDate(dst, y, mo, d)
	case DateTime, Timestamp:
		y, mo, d, h, mi, s, us := UnpackDateTime(v.I)
		dst = appendDate(dst, y, mo, d)
		dst = append(dst, ' ')
		dst = appendClock(dst, h, mi, s)
		return appendFraction(dst, us, t.Scale)
	case Time:
		us := v.I
		if us < 0 {
			dst = append(dst, '-')
			us = -us
		}
		s := us / microsPerSec
		h := s / 3600
		if h < 10 {
			dst = append(dst, '0')
		}
		dst = strconv.AppendInt(dst, h, 10)
		dst = append(dst, ':')
		dst = append2(dst, int(s/60%60))
		dst = append(dst, ':')
		dst = append2(dst, int(s%60))
		return appendFraction(dst, int(us%microsPerSec), t.Scale)
	case Year:
		return append4(dst, int(v.I))
	case Enum:
		if v.I >= 1 && v.I <= int64(len(t.Elems)) {
			return append(dst, t.Elems[v.I-1]...)
		}
		return dst
	case Set:
		first := true
		for i, m := range t.Elems {
			if i < 64 && uint64(v.I)&(1<<uint(i)) != 0 {
				if !first {
					dst = append(dst, ',')
				}
				dst = append(dst, m...)
				first = false
			}
		}
		return dst
	}
	return append(dst, v.B...)
}

func append2(dst []byte, n int) []byte {
	return append(dst, byte('0'+n/10%10), byte('0'+n%10))
}

func append4(dst []byte, n int) []byte {
	return append(dst, byte('0'+n/1000%10), byte('0'+n/100%10), byte('0'+n/10%10), byte('0'+n%10))
}

func appendDate(dst []byte, y, mo, d int) []byte {
	dst = append4(dst, y)
	dst = append(dst, '-')
	dst = append2(dst, mo)
	dst = append(dst, '-')
	return append2(dst, d)
}

func appendClock(dst []byte, h, mi, s int) []byte {
	dst = append2(dst, h)
	dst = append(dst, ':')
	dst = append2(dst, mi)
	dst = append(dst, ':')
	return append2(dst, s)
}

// appendFraction appends '.' and the first scale digits of us (none when
// scale is 0).
func appendFraction(dst []byte, us int, scale uint8) []byte {
	if scale == 0 {
		return dst
	}
	if scale > 6 {
		scale = 6
	}
	dst = append(dst, '.')
	div := 100000
	for i := uint8(0); i < scale; i++ {
		dst = append(dst, byte('0'+us/div%10))
		div /= 10
	}
	return dst
}

// maxDecptFixed is the largest decimal exponent MySQL still prints in
// fixed notation for a number whose digits end before the decimal point,
// and its negation + 1 the smallest for numbers below 1.
const maxDecptFixed = 15

// appendReal prints a FLOAT or DOUBLE value.
func appendReal(dst []byte, t *Type, f float64) []byte {
	if t.Length > 0 && t.Scale < 31 {
		if f == 0 {
			f = 0
		}
		dst = strconv.AppendFloat(dst, f, 'f', int(t.Scale), 64)
		return fixNegZero(dst, len(dst))
	}
	if t.Kind == Float {
		return appendGeneral(dst, f, 6)
	}
	return appendGeneral(dst, f, -1)
}

// fixNegZero turns a printed "-0.00" at the end of dst into "0.00".
func fixNegZero(dst []byte, end int) []byte {
	i := end - 1
	for i >= 0 && (dst[i] == '0' || dst[i] == '.') {
		i--
	}
	if i >= 0 && dst[i] == '-' && i+1 < end {
		copy(dst[i:], dst[i+1:])
		dst = dst[:len(dst)-1]
	}
	return dst
}

// appendGeneral prints f like MySQL's my_gcvt: with prec significant
// digits (or the shortest round-trip digits when prec < 0), trailing zeros
// dropped, in fixed notation when 1e-15 <= |f| < 1e15 or the digits reach
// past the decimal point, else as d.ddde[-]x.
func appendGeneral(dst []byte, f float64, prec int) []byte {
	if f == 0 || math.IsNaN(f) {
		return append(dst, '0')
	}
	if math.IsInf(f, 0) {
		f = math.Copysign(math.MaxFloat64, f)
	}
	var tmp [32]byte
	var s []byte
	if prec > 0 {
		s = strconv.AppendFloat(tmp[:0], f, 'e', prec-1, 64)
	} else {
		s = strconv.AppendFloat(tmp[:0], f, 'e', -1, 64)
	}
	// s is [-]d[.ddd]e(+|-)xx
	neg := s[0] == '-'
	if neg {
		s = s[1:]
	}
	var digs [24]byte
	nd := 0
	i := 0
	for ; i < len(s) && s[i] != 'e'; i++ {
		if s[i] != '.' {
			digs[nd] = s[i]
			nd++
		}
	}
	exp := 0
	eneg := s[i+1] == '-'
	for _, c := range s[i+2:] {
		exp = exp*10 + int(c-'0')
	}
	if eneg {
		exp = -exp
	}
	for nd > 1 && digs[nd-1] == '0' {
		nd--
	}
	d := digs[:nd]
	decpt := exp + 1
	if neg {
		dst = append(dst, '-')
	}
	if decpt >= -maxDecptFixed+1 && (decpt <= maxDecptFixed || nd > decpt) {
		switch {
		case decpt <= 0:
			dst = append(dst, '0', '.')
			for k := 0; k < -decpt; k++ {
				dst = append(dst, '0')
			}
			dst = append(dst, d...)
		case decpt < nd:
			dst = append(dst, d[:decpt]...)
			dst = append(dst, '.')
			dst = append(dst, d[decpt:]...)
		default:
			dst = append(dst, d...)
			for k := nd; k < decpt; k++ {
				dst = append(dst, '0')
			}
		}
		return dst
	}
	dst = append(dst, d[0])
	if nd > 1 {
		dst = append(dst, '.')
		dst = append(dst, d[1:]...)
	}
	dst = append(dst, 'e')
	return strconv.AppendInt(dst, int64(decpt-1), 10)
}
