package types

import (
	"unsafe"

	"github.com/handlerdb/handlerdb/internal/collation"
)

// sbytes views a string as bytes without copying; the result must not be
// modified.
func sbytes(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// convertString stores text into CHAR, VARCHAR or TEXT: invalid characters
// become '?', the value is cut to the column length (characters for
// CHAR/VARCHAR, bytes on a character boundary for TEXT), and CHAR drops
// trailing spaces. The result is built in buf[:0].
func convertString(t *Type, in []byte, buf []byte) Value {
	c := t.Collation
	if c == nil {
		c = collation.Default
	}
	// Cleaning never lengthens the input (a bad byte becomes one '?') and
	// no character takes more than maxRuneLen bytes, so input beyond this
	// limit can't reach the stored value: don't clean it. The limit keeps
	// every character that starts inside the stored part whole.
	limit := int(t.Length) * maxRuneLen(c)
	if t.Kind == Text {
		limit = int(t.Length) + maxRuneLen(c) - 1
	}
	if len(in) > limit {
		in = in[:limit]
	}
	b := c.Clean(buf[:0], in)
	if t.Kind == Text {
		b = truncateBytes(c, b, int(t.Length))
	} else {
		b = c.Truncate(b, int(t.Length))
	}
	if t.Kind == Char {
		b = trimSpaces(b)
	}
	return Value{B: b}
}

// trimSpaces drops trailing 0x20 bytes.
func trimSpaces(b []byte) []byte {
	n := len(b)
	for n > 0 && b[n-1] == ' ' {
		n--
	}
	return b[:n]
}

// convertBinary stores bytes into BINARY (cut and padded with 0x00 to the
// length), VARBINARY or BLOB (cut to the length).
func convertBinary(t *Type, in []byte, buf []byte) Value {
	n := int(t.Length)
	if len(in) > n {
		in = in[:n]
	}
	b := append(buf[:0], in...)
	if t.Kind == Binary {
		for len(b) < n {
			b = append(b, 0)
		}
	}
	return Value{B: b}
}

// convertEnum stores text into an ENUM: a member name (compared by the
// collation, trailing spaces ignored), else a number selecting a member by
// position, else the error value, the empty string (index 0).
func convertEnum(t *Type, in []byte) Value {
	in = trimSpaces(in)
	for i, m := range t.Elems {
		if collEqual(t.Collation, in, sbytes(m)) {
			return Value{I: int64(i + 1)}
		}
	}
	if len(in) < 6 {
		if v, ok := parseUintStrict(in); ok && v <= uint64(len(t.Elems)) {
			return Value{I: int64(v)}
		}
	}
	return Value{}
}

// parseUintStrict parses the whole of s as an unsigned decimal number after
// optional leading spaces and sign, like C's strtoull: a '-' negates the
// result modulo 2^64. ok is false without digits, with trailing bytes or on
// overflow.
func parseUintStrict(s []byte) (uint64, bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	neg := false
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		neg = s[i] == '-'
		i++
	}
	if i == len(s) {
		return 0, false
	}
	var v uint64
	for ; i < len(s); i++ {
		c := s[i]
		if !isDigit(c) {
			return 0, false
		}
		d := uint64(c - '0')
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	if neg {
		v = -v
	}
	return v, true
}

// setBytes is the storage size of a SET in bytes: 1, 2, 3, 4 or 8.
func setBytes(t *Type) int {
	n := (len(t.Elems) + 7) / 8
	switch {
	case n == 0:
		return 1
	case n > 4:
		return 8
	}
	return n
}

// setMembersMask has one bit per member of a SET.
func setMembersMask(t *Type) uint64 {
	n := len(t.Elems)
	if n >= 64 {
		return 1<<64 - 1
	}
	return 1<<uint(n) - 1
}

// convertSet stores text into a SET: comma-separated member names
// (unknown names are dropped), else, when no name matched, a number taken
// as the bit mask (bits beyond the members are dropped: "8" into
// SET('x','y','z') is the empty set).
func convertSet(t *Type, in []byte) Value {
	var mask uint64
	for rest := in; len(in) > 0; {
		j := 0
		for j < len(rest) && rest[j] != ',' {
			j++
		}
		item := rest[:j]
		for i, m := range t.Elems {
			if i < 64 && collEqual(t.Collation, item, sbytes(m)) {
				mask |= 1 << uint(i)
				break
			}
		}
		if j == len(rest) {
			break
		}
		rest = rest[j+1:]
	}
	if mask == 0 && len(in) > 0 && len(in) < 22 {
		if v, ok := parseUintStrict(in); ok {
			mask = v & setMembersMask(t)
		}
	}
	return Value{I: int64(mask)}
}

// fromIntSet stores an integer into a SET: its bits of the members.
func fromIntSet(t *Type, v int64) Value {
	return Value{I: int64(uint64(v) & setMembersMask(t))}
}

// fromIntEnum stores an integer into an ENUM: a valid position, else 0.
func fromIntEnum(t *Type, v int64) Value {
	if v < 0 || v > int64(len(t.Elems)) {
		return Value{}
	}
	return Value{I: v}
}
