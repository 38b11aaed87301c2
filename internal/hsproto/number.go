package hsproto

import (
	"math"
	"strconv"
)

// ParseUint32 parses a number the way the plugin reads index ids, vlen,
// limit, offset, the IN column and count and the filter column: every byte
// that is not an ASCII digit is skipped ("1x2" is 12, "abc" and "" are 0,
// "-5" is 5) and the value wraps modulo 2^32 (4294967296 is 0).
func ParseUint32(tok []byte) uint32 {
	var v uint32
	for _, c := range tok {
		if d := c - '0'; d <= 9 {
			v = v*10 + uint32(d)
		}
	}
	return v
}

// ParseInt64 parses the amount of a + or - modify the way the plugin does:
// one optional leading '-' or '+', then ASCII digits up to the first other
// byte ("7up" is 7, "abc" is 0, "+2" is 2, "-3x" is -3, " 3" is 0). The
// value wraps modulo 2^64 instead of overflowing.
func ParseInt64(b []byte) int64 {
	neg := false
	if len(b) > 0 {
		switch b[0] {
		case '-':
			neg = true
			b = b[1:]
		case '+':
			b = b[1:]
		}
	}
	var u uint64
	for _, c := range b {
		d := c - '0'
		if d > 9 {
			break
		}
		u = u*10 + uint64(d)
	}
	if neg {
		return -int64(u)
	}
	return int64(u)
}

// parseCInt emulates glibc atoi (an int cut from strtol) on a token that
// starts with a digit: digits up to the first other byte, saturating at
// the largest int64, then truncated to 32 bits.
func parseCInt(b []byte) int32 {
	var v uint64
	for _, c := range b {
		d := c - '0'
		if d > 9 {
			break
		}
		if v > (math.MaxInt64-uint64(d))/10 {
			v = math.MaxInt64
			continue
		}
		v = v*10 + uint64(d)
	}
	return int32(uint32(v))
}

// AppendUint appends the decimal form of v to dst.
func AppendUint(dst []byte, v uint64) []byte {
	return strconv.AppendUint(dst, v, 10)
}

// AppendInt appends the decimal form of v to dst.
func AppendInt(dst []byte, v int64) []byte {
	return strconv.AppendInt(dst, v, 10)
}
