package types

import "bytes"

// Compare compares two stored values of type t as MySQL orders them and
// returns -1, 0 or +1. NULL equals NULL and is lower than any other value.
// Numbers and dates compare by value, strings by t.Collation, the binary
// kinds by bytes, and ENUM and SET by position and bit mask (the order of
// ORDER BY and of an index, not the order of their names).
func Compare(t *Type, a, b Value) int {
	if a.Null || b.Null {
		switch {
		case a.Null && b.Null:
			return 0
		case a.Null:
			return -1
		}
		return 1
	}
	switch t.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt:
		if t.Unsigned {
			return cmpUint(uint64(a.I), uint64(b.I))
		}
		return cmpInt(a.I, b.I)
	case Bit, Set:
		return cmpUint(uint64(a.I), uint64(b.I))
	case Float, Double:
		switch {
		case a.F < b.F:
			return -1
		case a.F > b.F:
			return 1
		}
		return 0
	case Decimal:
		return compareDecimal(a.B, b.B)
	case Char, VarChar, Text:
		if t.Collation != nil {
			return sign(t.Collation.Compare(a.B, b.B))
		}
		return bytes.Compare(a.B, b.B)
	case Binary, VarBinary, Blob, Geometry:
		return bytes.Compare(a.B, b.B)
	}
	return cmpInt(a.I, b.I)
}

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func cmpUint(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// decParts splits decimal text into sign, integer digits (leading zeros
// removed) and fraction digits (trailing zeros removed).
func decParts(s []byte) (neg bool, intg, frac []byte) {
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	i := 0
	for i < len(s) && s[i] != '.' {
		i++
	}
	intg = s[:i]
	if i < len(s) {
		frac = s[i+1:]
	}
	for len(intg) > 0 && intg[0] == '0' {
		intg = intg[1:]
	}
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	if len(intg) == 0 && len(frac) == 0 {
		neg = false
	}
	return neg, intg, frac
}

// compareDecimal compares two decimal texts numerically.
func compareDecimal(a, b []byte) int {
	an, ai, af := decParts(a)
	bn, bi, bf := decParts(b)
	if an != bn {
		if an {
			return -1
		}
		return 1
	}
	c := cmpMagnitude(ai, af, bi, bf)
	if an {
		return -c
	}
	return c
}

func cmpMagnitude(ai, af, bi, bf []byte) int {
	if len(ai) != len(bi) {
		return cmpInt(int64(len(ai)), int64(len(bi)))
	}
	if c := bytes.Compare(ai, bi); c != 0 {
		return c
	}
	return bytes.Compare(af, bf)
}
