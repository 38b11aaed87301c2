package types

// number is the numeric prefix of a client string, kept as the digits of the
// input (no allocation) so that every conversion can round exactly.
//
// The value is (-1 if neg) * intg.frac * 10^exp, where intg holds the digits
// before the decimal point (leading zeros removed) and frac the digits after
// it.
type number struct {
	neg   bool
	intg  []byte
	frac  []byte
	exp   int
	start int  // index of the sign or first digit (after leading spaces)
	end   int  // index just after the number
	ok    bool // at least one digit was seen
}

// maxExp bounds the decimal exponent a client can write; far beyond any
// type's range, it keeps the digit arithmetic free of overflow.
const maxExp = 1 << 20

// isSpace reports MySQL's ASCII white space (space, \t, \n, \v, \f, \r).
func isSpace(c byte) bool { return c == ' ' || (c >= '\t' && c <= '\r') }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// scanNumber reads the numeric prefix of s the way MySQL's string-to-number
// routines do: leading white space, an optional sign, digits with an
// optional decimal point, and an optional exponent (an 'e' not followed by
// digits is not part of the number). Anything after the prefix is ignored.
func scanNumber(s []byte) number {
	var n number
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	n.start = i
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		n.neg = s[i] == '-'
		i++
	}
	j := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	n.intg = s[j:i]
	n.ok = i > j
	if i < len(s) && s[i] == '.' {
		i++
		j = i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		n.frac = s[j:i]
		n.ok = n.ok || i > j
	}
	if !n.ok {
		n.neg = false
		n.intg, n.frac = nil, nil
		n.end = n.start
		return n
	}
	n.end = i
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		k := i + 1
		eneg := false
		if k < len(s) && (s[k] == '-' || s[k] == '+') {
			eneg = s[k] == '-'
			k++
		}
		if k < len(s) && isDigit(s[k]) {
			e := 0
			for k < len(s) && isDigit(s[k]) {
				if e < maxExp {
					e = e*10 + int(s[k]-'0')
				}
				k++
			}
			if e > maxExp {
				e = maxExp
			}
			if eneg {
				e = -e
			}
			n.exp = e
			n.end = k
		}
	}
	for len(n.intg) > 0 && n.intg[0] == '0' {
		n.intg = n.intg[1:]
	}
	return n
}

// digitAt returns the decimal digit of |n| that multiplies 10^p.
func (n *number) digitAt(p int) int {
	q := p - n.exp
	if q >= 0 {
		i := len(n.intg) - 1 - q
		if i >= 0 {
			return int(n.intg[i] - '0')
		}
		return 0
	}
	i := -q - 1
	if i < len(n.frac) {
		return int(n.frac[i] - '0')
	}
	return 0
}

// top returns the power of ten of the most significant non-zero digit of
// n, and false when n is zero.
func (n *number) top() (int, bool) {
	if len(n.intg) > 0 {
		return len(n.intg) - 1 + n.exp, true
	}
	for i, c := range n.frac {
		if c != '0' {
			return -(i + 1) + n.exp, true
		}
	}
	return 0, false
}

// roundUint returns |n| rounded half away from zero to an integer, and
// false when it does not fit in a uint64.
func (n *number) roundUint() (uint64, bool) {
	t, nz := n.top()
	if !nz || t < -1 {
		return 0, true
	}
	if t >= 20 {
		return 0, false
	}
	var v uint64
	for p := t; p >= 0; p-- {
		d := uint64(n.digitAt(p))
		if v > (1<<64-1-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	if n.digitAt(-1) >= 5 {
		if v == 1<<64-1 {
			return 0, false
		}
		v++
	}
	return v, true
}

// roundInt returns n rounded half away from zero and clamped to the int64
// range (with the unsigned range when unsigned: negative values give 0).
// The result is an int64 holding uint64 bits when unsigned.
func (n *number) roundInt(unsigned bool) int64 {
	u, fits := n.roundUint()
	if unsigned {
		if n.neg {
			return 0
		}
		if !fits {
			return -1 // all bits set: max uint64
		}
		return int64(u)
	}
	if n.neg {
		if !fits || u > 1<<63 {
			return -1 << 63
		}
		return -int64(u)
	}
	if !fits || u > 1<<63-1 {
		return 1<<63 - 1
	}
	return int64(u)
}
