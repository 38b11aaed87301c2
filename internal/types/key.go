package types

import (
	"bytes"
	"math"
)

// Key bytes.
const (
	keyNull    = 0x00 // the whole key of a NULL value
	keyNotNull = 0x01 // first byte of the key of every other value
)

// AppendKey appends to dst an order-preserving, self-delimiting encoding of
// the value v of type t: NULL is the single byte 0x00 and every other value
// starts with 0x01. For any two values a and b of type t,
// bytes.Compare(AppendKey(nil, t, a), AppendKey(nil, t, b)) equals
// Compare(t, a, b), equal values have identical keys, and no key is a
// proper prefix of another, so the keys of several columns can be
// concatenated into a composite key. v must be a value of type t as
// Convert, FromInt, Zero or ImplicitDefault produce it (integers within
// the type's range, dates with valid fields). AppendKey allocates only to
// grow dst.
//
// Layouts after the 0x01: integers big-endian in the type's width with the
// sign bit flipped for signed types; FLOAT (4 bytes) and DOUBLE (8 bytes)
// as IEEE bits with the usual sign flip; DECIMAL as sign class, digit
// count and digits; dates, times and years as fixed-width integers; BIT,
// ENUM and SET as unsigned integers; character strings by the column's
// collation; binary strings as their bytes with 0x00 escaped as 0x00 0xFF
// and a 0x00 0x01 terminator.
func AppendKey(dst []byte, t *Type, v Value) []byte {
	if v.Null {
		return append(dst, keyNull)
	}
	dst = append(dst, keyNotNull)
	switch t.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt:
		bits := intBits(t.Kind)
		u := uint64(v.I)
		if !t.Unsigned {
			u ^= 1 << (bits - 1)
		}
		return appendBE(dst, u, int(bits/8))
	case Bit:
		return appendBE(dst, uint64(v.I), (bitWidth(t)+7)/8)
	case Set:
		return appendBE(dst, uint64(v.I), setBytes(t))
	case Enum:
		return appendBE(dst, uint64(v.I), 2)
	case Year:
		y := v.I
		if y > 0 {
			y -= 1900
		}
		return append(dst, byte(y))
	case Date, DateTime, Timestamp, Time:
		return appendBE(dst, uint64(v.I)^1<<63, 8)
	case Float:
		f := float32(v.F)
		if f == 0 {
			f = 0
		}
		u := math.Float32bits(f)
		if u&(1<<31) != 0 {
			u = ^u
		} else {
			u |= 1 << 31
		}
		return appendBE(dst, uint64(u), 4)
	case Double:
		f := v.F
		if f == 0 {
			f = 0
		}
		u := math.Float64bits(f)
		if u&(1<<63) != 0 {
			u = ^u
		} else {
			u |= 1 << 63
		}
		return appendBE(dst, u, 8)
	case Decimal:
		return appendDecimalKey(dst, v.B)
	case Char, VarChar, Text:
		if t.Collation != nil {
			return t.Collation.AppendKey(dst, v.B)
		}
		return appendBytesKey(dst, v.B)
	}
	return appendBytesKey(dst, v.B)
}

// appendBE appends the n low bytes of u, most significant first.
func appendBE(dst []byte, u uint64, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, byte(u>>(8*uint(i))))
	}
	return dst
}

// appendBytesKey appends s with each 0x00 written as 0x00 0xFF, then the
// terminator 0x00 0x01: byte order is kept and a shorter string sorts
// before any longer one it prefixes.
func appendBytesKey(dst, s []byte) []byte {
	for {
		i := bytes.IndexByte(s, 0)
		if i < 0 {
			dst = append(dst, s...)
			break
		}
		dst = append(dst, s[:i]...)
		dst = append(dst, 0x00, 0xFF)
		s = s[i+1:]
	}
	return append(dst, 0x00, 0x01)
}

// Decimal key classes.
const (
	decNeg  = 0x01
	decZero = 0x02
	decPos  = 0x03
)

// appendDecimalKey encodes decimal text: a class byte (negative, zero,
// positive); for a positive value the number of integer digits and then
// every significant digit as 1-10, closed by 0x00; for a negative value
// the same with the count and digits complemented and closed by 0xFF, so
// larger magnitudes sort first.
func appendDecimalKey(dst, s []byte) []byte {
	neg, intg, frac := decParts(s)
	if len(intg) == 0 && len(frac) == 0 {
		return append(dst, decZero)
	}
	if !neg {
		dst = append(dst, decPos, byte(len(intg)))
		for _, c := range intg {
			dst = append(dst, c-'0'+1)
		}
		for _, c := range frac {
			dst = append(dst, c-'0'+1)
		}
		return append(dst, 0x00)
	}
	dst = append(dst, decNeg, ^byte(len(intg)))
	for _, c := range intg {
		dst = append(dst, ^(c - '0' + 1))
	}
	for _, c := range frac {
		dst = append(dst, ^(c - '0' + 1))
	}
	return append(dst, 0xFF)
}
