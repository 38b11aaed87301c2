package hsproto

import (
	"bytes"
	"encoding/binary"
)

const (
	escPrefix = 0x01 // starts a two-byte escape
	escShift  = 0x40 // added to an escaped byte
	escMin    = 0x10 // bytes from here on travel as they are
)

// Value is one decoded protocol value: SQL NULL, or a byte string (which
// may be empty). B aliases the parsed line; it is meaningless when Null.
type Value struct {
	Null bool
	B    []byte
}

// AppendEscaped appends src to dst in the wire encoding: each byte below
// 0x10 becomes 0x01 followed by the byte plus 0x40; every other byte
// (0x10-0xff) is copied as it is. The result never holds a TAB, LF or CR.
func AppendEscaped(dst, src []byte) []byte {
	// Most values hold no byte to escape: look for the first one eight
	// bytes at a time, and copy a value without any at once.
	i := 0
	for len(src)-i >= 8 && !hasLow(binary.LittleEndian.Uint64(src[i:])) {
		i += 8
	}
	for i < len(src) && src[i] >= escMin {
		i++
	}
	if i == len(src) {
		return append(dst, src...)
	}
	start := 0
	for ; i < len(src); i++ {
		if c := src[i]; c < escMin {
			dst = append(dst, src[start:i]...)
			dst = append(dst, escPrefix, c+escShift)
			start = i + 1
		}
	}
	return append(dst, src[start:]...)
}

// hasLow reports whether one of the eight bytes of x is below escMin.
func hasLow(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	return (x-ones*escMin)&^x&highs != 0
}

// Unescape decodes b in place and returns the decoded prefix of b. 0x01
// followed by a byte c >= 0x40 stands for c-0x40 (so 0x01 'P' is 0x10 even
// though a sender would not escape it); every other byte stands for
// itself. A bad escape (0x01 followed by a byte below 0x40, or 0x01 as the
// last byte) ends the value there: the result is what was decoded before
// it, and it is not an error. Bytes of b after the result are left as they
// were.
func Unescape(b []byte) []byte {
	i := bytes.IndexByte(b, escPrefix)
	if i < 0 {
		return b[:len(b):len(b)]
	}
	w := i
	for i < len(b) {
		c := b[i]
		if c != escPrefix {
			b[w] = c
			w++
			i++
			continue
		}
		if i+1 >= len(b) || b[i+1] < escShift {
			break
		}
		b[w] = b[i+1] - escShift
		w++
		i += 2
	}
	return b[:w:w]
}

// DecodeToken decodes one value token in place: a token that is exactly
// the single byte 0x00 is NULL, anything else (including the empty token)
// is a string, decoded by Unescape.
func DecodeToken(tok []byte) Value {
	if len(tok) == 1 && tok[0] == 0 {
		return Value{Null: true}
	}
	return Value{B: Unescape(tok)}
}

// AppendToken appends v encoded as one request or response token: NULL as
// the single byte 0x00, a string by AppendEscaped. DecodeToken reverses it.
func AppendToken(dst []byte, v Value) []byte {
	if v.Null {
		return append(dst, 0)
	}
	return AppendEscaped(dst, v.B)
}

// AppendField appends one response field: a TAB, then v as AppendToken
// encodes it.
func AppendField(dst []byte, v Value) []byte {
	dst = append(dst, '\t')
	return AppendToken(dst, v)
}
