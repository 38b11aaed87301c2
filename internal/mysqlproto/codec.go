package mysqlproto

import (
	"encoding/binary"
	"errors"
)

// errShort is the error of a reader that ran past its payload.
var errShort = errors.New("mysqlproto: packet too short")

// appendLenInt appends a length-encoded integer.
func appendLenInt(b []byte, n uint64) []byte {
	switch {
	case n < 251:
		return append(b, byte(n))
	case n < 1<<16:
		return append(b, 0xfc, byte(n), byte(n>>8))
	case n < 1<<24:
		return append(b, 0xfd, byte(n), byte(n>>8), byte(n>>16))
	default:
		return binary.LittleEndian.AppendUint64(append(b, 0xfe), n)
	}
}

// appendLenString appends a length-encoded string.
func appendLenString(b []byte, s string) []byte {
	return append(appendLenInt(b, uint64(len(s))), s...)
}

// appendLenBytes appends a length-encoded string given as bytes.
func appendLenBytes(b []byte, s []byte) []byte {
	return append(appendLenInt(b, uint64(len(s))), s...)
}

// reader reads the fields of one payload; the first read past its end
// sets err, and every later read returns zero values.
type reader struct {
	b   []byte
	err error
}

func (r *reader) fail() { r.err, r.b = errShort, nil }

func (r *reader) byte1() byte {
	if len(r.b) < 1 {
		r.fail()
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) uint16() uint16 {
	if len(r.b) < 2 {
		r.fail()
		return 0
	}
	v := binary.LittleEndian.Uint16(r.b)
	r.b = r.b[2:]
	return v
}

func (r *reader) uint32() uint32 {
	if len(r.b) < 4 {
		r.fail()
		return 0
	}
	v := binary.LittleEndian.Uint32(r.b)
	r.b = r.b[4:]
	return v
}

func (r *reader) uint64() uint64 {
	if len(r.b) < 8 {
		r.fail()
		return 0
	}
	v := binary.LittleEndian.Uint64(r.b)
	r.b = r.b[8:]
	return v
}

// bytes returns the next n bytes (a view of the payload).
func (r *reader) bytes(n int) []byte {
	if n < 0 || len(r.b) < n {
		r.fail()
		return nil
	}
	v := r.b[:n:n]
	r.b = r.b[n:]
	return v
}

// nulString reads up to a NUL byte, which it skips; without one, the rest.
func (r *reader) nulString() []byte {
	for i, c := range r.b {
		if c == 0 {
			v := r.b[:i:i]
			r.b = r.b[i+1:]
			return v
		}
	}
	v := r.b
	r.b = nil
	return v
}

// lenInt reads a length-encoded integer (0xfb, NULL in a row, reads as 0
// with null set).
func (r *reader) lenInt() (n uint64, null bool) {
	switch c := r.byte1(); {
	case r.err != nil:
		return 0, false
	case c < 0xfb:
		return uint64(c), false
	case c == 0xfb:
		return 0, true
	case c == 0xfc:
		return uint64(r.uint16()), false
	case c == 0xfd:
		b := r.bytes(3)
		if b == nil {
			return 0, false
		}
		return uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16, false
	case c == 0xfe:
		return r.uint64(), false
	default:
		r.fail()
		return 0, false
	}
}

// lenBytes reads a length-encoded string.
func (r *reader) lenBytes() []byte {
	n, _ := r.lenInt()
	if r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.fail()
		return nil
	}
	return r.bytes(int(n))
}
