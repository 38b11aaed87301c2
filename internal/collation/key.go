package collation

import (
	"bytes"
	"unicode/utf8"
)

// iter yields the weights of a string in order, skipping ignorable
// characters and spelling out expansions. An invalid UTF-8 byte weighs as
// '?', the character it becomes when stored (see Clean).
type iter struct {
	t     *table
	s     []byte
	exp   []uint32 // rest of the current expansion
	latin bool
}

func (it *iter) next() (uint32, bool) {
	for {
		if len(it.exp) > 0 {
			w := it.exp[0]
			it.exp = it.exp[1:]
			return w, true
		}
		if len(it.s) == 0 {
			return 0, false
		}
		b := it.s[0]
		if it.latin {
			it.s = it.s[1:]
			return it.t.latin[b], true
		}
		if b < utf8.RuneSelf {
			it.s = it.s[1:]
			if w := it.t.ascii[b]; w != 0 {
				return w, true
			}
			continue
		}
		r, n := utf8.DecodeRune(it.s)
		it.s = it.s[n:]
		if r == utf8.RuneError && n == 1 {
			r = '?'
		}
		w, exp := it.t.lookup(r)
		if exp != nil {
			it.exp = exp
			continue
		}
		if w != 0 {
			return w, true
		}
	}
}

// restVsSpace compares w and the rest of the iterator with an endless run
// of spaces (the PAD SPACE rule for the longer of two strings).
func (it *iter) restVsSpace(w uint32) int {
	sp := it.t.space
	for {
		if w != sp {
			if w < sp {
				return -1
			}
			return 1
		}
		var ok bool
		if w, ok = it.next(); !ok {
			return 0
		}
	}
}

// Compare compares two strings under c and returns -1, 0 or +1. Under PAD
// SPACE the shorter weight sequence is compared as if padded with spaces,
// so "a" = "a " and "a\t" < "a". Invalid UTF-8 bytes compare as '?'.
// It does not allocate (after the collation's first use) and is safe for
// concurrent use.
func (c *Collation) Compare(a, b []byte) int {
	if c.kind == kindBinary {
		return bytes.Compare(a, b)
	}
	// Equal leading bytes weigh the same (there are no contractions), as
	// long as the cut falls on a character boundary in both strings.
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	if c.kind == kindUTF8 {
		for n > 0 && (n < len(a) && !utf8.RuneStart(a[n]) || n < len(b) && !utf8.RuneStart(b[n])) {
			n--
		}
	}
	t := c.table.get()
	latin := c.kind == kindLatin1
	ia := iter{t: t, s: a[n:], latin: latin}
	ib := iter{t: t, s: b[n:], latin: latin}
	for {
		wa, oka := ia.next()
		wb, okb := ib.next()
		switch {
		case oka && okb:
			if wa != wb {
				if wa < wb {
					return -1
				}
				return 1
			}
		case oka:
			if !c.PadSpace {
				return 1
			}
			return ia.restVsSpace(wa)
		case okb:
			if !c.PadSpace {
				return -1
			}
			return -ib.restVsSpace(wb)
		default:
			return 0
		}
	}
}

// Equal reports whether a and b compare equal under c (for a _ci
// collation, "A" and "á" are equal to "a"; under PAD SPACE, "a " equals
// "a"). It is safe for concurrent use.
func (c *Collation) Equal(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	if c.kind == kindBinary {
		return false
	}
	return c.Compare(a, b) == 0
}

// Key layout. Each weight w is one token: a marker byte, then w in 1, 2 or
// 3 big-endian bytes (the fewest that hold it; the marker says how many, and
// a longer token always holds a larger weight). The key ends with an end
// byte.
//
// NO PAD: markers 0x01..0x03, end 0x00, so a string sorts before its
// extensions.
//
// PAD SPACE: trailing space weights are dropped. Markers 0x01..0x03 ("low")
// are used for weights below the space weight, 0x05..0x07 ("high") for
// weights above it, and the end byte 0x04 sits in between, so where one
// string ends the other's next weight is compared against a space. A space
// that is not trailing is compared against the end by the first non-space
// weight after it, so it takes that weight's marker class.
//
// Binary: bytes as they are with 0x00 escaped as 0x00 0xFF, then 0x00 0x01.
const (
	markNoPad = 0x00 // + 1..3
	endNoPad  = 0x00
	markLow   = 0x00 // + 1..3
	endPad    = 0x04
	markHigh  = 0x04 // + 1..3
)

func appendWeight(dst []byte, mark byte, w uint32) []byte {
	switch {
	case w < 1<<8:
		return append(dst, mark+1, byte(w))
	case w < 1<<16:
		return append(dst, mark+2, byte(w>>8), byte(w))
	default:
		return append(dst, mark+3, byte(w>>16), byte(w>>8), byte(w))
	}
}

// AppendKey appends to dst an order-preserving, self-delimiting encoding of
// s: for any a, b, bytes.Compare(AppendKey(nil,a), AppendKey(nil,b)) equals
// c.Compare(a, b); strings that compare equal get identical keys; and no key
// is a proper prefix of another, so keys can be concatenated for composite
// indexes. It allocates only to grow dst, and is safe for concurrent use.
func (c *Collation) AppendKey(dst, s []byte) []byte {
	if c.kind == kindBinary {
		return appendBinaryKey(dst, s)
	}
	if cap(dst)-len(dst) < 2*len(s)+1 {
		dst = growBytes(dst, 2*len(s)+1)
	}
	t := c.table.get()
	it := iter{t: t, s: s, latin: c.kind == kindLatin1}
	if !c.PadSpace {
		for {
			w, ok := it.next()
			if !ok {
				return append(dst, endNoPad)
			}
			dst = appendWeight(dst, markNoPad, w)
		}
	}
	sp := t.space
	spaces := 0
	for {
		w, ok := it.next()
		if !ok {
			return append(dst, endPad) // trailing spaces dropped
		}
		if w == sp {
			spaces++
			continue
		}
		mark := byte(markHigh)
		if w < sp {
			mark = markLow
		}
		for ; spaces > 0; spaces-- {
			dst = appendWeight(dst, mark, sp)
		}
		dst = appendWeight(dst, mark, w)
	}
}

func appendBinaryKey(dst, s []byte) []byte {
	if cap(dst)-len(dst) < len(s)+2 {
		dst = growBytes(dst, len(s)+2)
	}
	for {
		i := bytes.IndexByte(s, 0)
		if i < 0 {
			dst = append(dst, s...)
			return append(dst, 0x00, 0x01)
		}
		dst = append(dst, s[:i]...)
		dst = append(dst, 0x00, 0xFF)
		s = s[i+1:]
	}
}

// growBytes returns b with room for at least n more bytes.
func growBytes(b []byte, n int) []byte {
	nb := make([]byte, len(b), max(len(b)+n, 2*cap(b)))
	copy(nb, b)
	return nb
}
