package types

import (
	"bytes"
	"errors"
)

// errBadKey is DecodeKey's answer to bytes that AppendKey cannot have
// written for the type.
var errBadKey = errors.New("types: malformed key")

// KeyReversible reports whether AppendKey keeps every value of type t
// whole, so that DecodeKey gives the value back: integers, BIT, ENUM, SET,
// YEAR, dates and times, DECIMAL, and binary strings and strings without a
// collation. Character strings with a collation are keyed by their sort
// weights (case and accents folded, pad spaces dropped), FLOAT and DOUBLE
// have -0 keyed as 0, and the other kinds are not keyed at all: none of
// them can be read back. Safe for concurrent use.
func KeyReversible(t *Type) bool {
	switch t.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt, Bit, Set, Enum, Year,
		Date, DateTime, Timestamp, Time, Decimal, Binary, VarBinary, Blob:
		return true
	case Char, VarChar, Text:
		return t.Collation == nil
	}
	return false
}

// DecodeKey reads back the value whose AppendKey of type t starts key,
// for a type KeyReversible admits. It returns the value, the number of
// bytes of key it took, and buf: DecodeKey appends the bytes of a DECIMAL
// or of a string holding 0x00 to buf (a string without one aliases key),
// and the value's B may alias either, so it is valid while both are.
// DecodeKey allocates only to grow buf.
func DecodeKey(t *Type, key, buf []byte) (v Value, n int, out []byte, err error) {
	if len(key) == 0 {
		return Value{}, 0, buf, errBadKey
	}
	if key[0] == keyNull {
		return NullValue, 1, buf, nil
	}
	if key[0] != keyNotNull {
		return Value{}, 0, buf, errBadKey
	}
	body := key[1:]
	fixed := func(width int) (uint64, bool) {
		if len(body) < width {
			return 0, false
		}
		var u uint64
		for i := 0; i < width; i++ {
			u = u<<8 | uint64(body[i])
		}
		return u, true
	}
	var u uint64
	var ok bool
	switch t.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt:
		bits := intBits(t.Kind)
		if u, ok = fixed(int(bits / 8)); !ok {
			break
		}
		if !t.Unsigned {
			u ^= 1 << (bits - 1)
			if bits < 64 && u&(1<<(bits-1)) != 0 {
				u |= ^uint64(0) << bits // sign-extend
			}
		}
		return Value{I: int64(u)}, 1 + int(bits/8), buf, nil
	case Bit:
		w := (bitWidth(t) + 7) / 8
		if u, ok = fixed(w); ok {
			return Value{I: int64(u)}, 1 + w, buf, nil
		}
	case Set:
		w := setBytes(t)
		if u, ok = fixed(w); ok {
			return Value{I: int64(u)}, 1 + w, buf, nil
		}
	case Enum:
		if u, ok = fixed(2); ok {
			return Value{I: int64(u)}, 3, buf, nil
		}
	case Year:
		if u, ok = fixed(1); ok {
			y := int64(u)
			if y > 0 {
				y += 1900
			}
			return Value{I: y}, 2, buf, nil
		}
	case Date, DateTime, Timestamp, Time:
		if u, ok = fixed(8); ok {
			return Value{I: int64(u ^ 1<<63)}, 9, buf, nil
		}
	case Decimal:
		return decodeDecimalKey(t, body, buf)
	case Binary, VarBinary, Blob:
		return decodeBytesKey(body, buf)
	case Char, VarChar, Text:
		if t.Collation == nil {
			return decodeBytesKey(body, buf)
		}
	}
	return Value{}, 0, buf, errBadKey
}

// decodeBytesKey reads back appendBytesKey's encoding at the start of
// body (after the 0x01 of a non-NULL key).
func decodeBytesKey(body, buf []byte) (Value, int, []byte, error) {
	i := bytes.IndexByte(body, 0)
	if i < 0 || i+1 >= len(body) {
		return Value{}, 0, buf, errBadKey
	}
	if body[i+1] == 0x01 {
		return Value{B: body[:i:i]}, 1 + i + 2, buf, nil
	}
	// The value holds 0x00 bytes, written 0x00 0xFF: unescape into buf.
	start := len(buf)
	p := 0
	for {
		i := bytes.IndexByte(body[p:], 0)
		if i < 0 || p+i+1 >= len(body) {
			return Value{}, 0, buf[:start], errBadKey
		}
		buf = append(buf, body[p:p+i]...)
		p += i
		switch body[p+1] {
		case 0xFF:
			buf = append(buf, 0)
			p += 2
		case 0x01:
			b := buf[start:len(buf):len(buf)]
			return Value{B: b}, 1 + p + 2, buf, nil
		default:
			return Value{}, 0, buf[:start], errBadKey
		}
	}
}

// decodeDecimalKey reads back appendDecimalKey's encoding at the start of
// body as DECIMAL text in t's canonical form (t.Scale decimals).
func decodeDecimalKey(t *Type, body, buf []byte) (Value, int, []byte, error) {
	if len(body) == 0 {
		return Value{}, 0, buf, errBadKey
	}
	start := len(buf)
	class := body[0]
	if class == decZero {
		buf = append(buf, '0')
		if t.Scale > 0 {
			buf = append(buf, '.')
			for i := 0; i < int(t.Scale); i++ {
				buf = append(buf, '0')
			}
		}
		return Value{B: buf[start:len(buf):len(buf)]}, 2, buf, nil
	}
	if (class != decPos && class != decNeg) || len(body) < 2 {
		return Value{}, 0, buf, errBadKey
	}
	neg := class == decNeg
	flip := func(b byte) byte {
		if neg {
			return ^b
		}
		return b
	}
	intg := int(flip(body[1]))
	end := byte(0x00)
	if neg {
		end = 0xFF
	}
	j := bytes.IndexByte(body[2:], end)
	if j < 0 || j < intg {
		return Value{}, 0, buf, errBadKey
	}
	digits := body[2 : 2+j]
	if neg {
		buf = append(buf, '-')
	}
	if intg == 0 {
		buf = append(buf, '0')
	}
	for _, d := range digits[:intg] {
		d = flip(d)
		if d < 1 || d > 10 {
			return Value{}, 0, buf[:start], errBadKey
		}
		buf = append(buf, '0'+d-1)
	}
	frac := digits[intg:]
	if len(frac) > int(t.Scale) {
		return Value{}, 0, buf[:start], errBadKey
	}
	if t.Scale > 0 {
		buf = append(buf, '.')
		for _, d := range frac {
			d = flip(d)
			if d < 1 || d > 10 {
				return Value{}, 0, buf[:start], errBadKey
			}
			buf = append(buf, '0'+d-1)
		}
		for i := len(frac); i < int(t.Scale); i++ {
			buf = append(buf, '0')
		}
	}
	return Value{B: buf[start:len(buf):len(buf)]}, 1 + 2 + j + 1, buf, nil
}
