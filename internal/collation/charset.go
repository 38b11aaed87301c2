package collation

import "unicode/utf8"

// Clean appends to dst the bytes of s as a column of c's character set
// stores them: for utf8mb4 every byte that is not part of a valid UTF-8
// sequence becomes '?' (one '?' per bad byte, as MariaDB does: "\xFF\xFE"
// is stored as "??"); utf8mb3 also stores each character of four bytes
// (outside the Basic Multilingual Plane) as four '?', as the plugin's
// stores do ("x😀y" is "x????y"); latin1 and binary
// keep every byte. NUL and control bytes are kept. It allocates only to
// grow dst, and is safe for concurrent use.
func (c *Collation) Clean(dst, s []byte) []byte {
	if c.kind != kindUTF8 || utf8.Valid(s) && (!c.mb3 || !hasFourByte(s)) {
		return append(dst, s...)
	}
	for len(s) > 0 {
		if s[0] < utf8.RuneSelf {
			dst = append(dst, s[0])
			s = s[1:]
			continue
		}
		r, n := utf8.DecodeRune(s)
		if r == utf8.RuneError && n == 1 || c.mb3 && n == 4 {
			dst = append(dst, "????"[:n]...)
		} else {
			dst = append(dst, s[:n]...)
		}
		s = s[n:]
	}
	return dst
}

// hasFourByte reports whether s holds a byte that starts a four-byte UTF-8
// sequence.
func hasFourByte(s []byte) bool {
	for _, b := range s {
		if b >= 0xF0 {
			return true
		}
	}
	return false
}

// MaxCharLen is the longest character of c's character set in bytes: 4
// for utf8mb4, 3 for utf8mb3, 1 for latin1 and binary. Safe for
// concurrent use.
func (c *Collation) MaxCharLen() int {
	switch {
	case c.kind != kindUTF8:
		return 1
	case c.mb3:
		return 3
	}
	return 4
}

// Truncate returns the prefix of s that holds at most maxChars characters
// of c's character set (s itself if it is short enough). For latin1 and
// binary a character is a byte; for utf8mb4 an invalid byte counts as one
// character, as it does once cleaned. It never splits a valid UTF-8
// character, does not allocate, and is safe for concurrent use.
func (c *Collation) Truncate(s []byte, maxChars int) []byte {
	if maxChars <= 0 {
		return s[:0]
	}
	if c.kind != kindUTF8 {
		if len(s) > maxChars {
			return s[:maxChars]
		}
		return s
	}
	if len(s) <= maxChars {
		return s // never more characters than bytes
	}
	i := 0
	for n := 0; n < maxChars && i < len(s); n++ {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRune(s[i:])
		i += size
	}
	return s[:i]
}

// CharLen returns the number of characters in s: bytes for latin1 and
// binary, UTF-8 characters for utf8mb4 (an invalid byte counts as one). It
// is safe for concurrent use.
func (c *Collation) CharLen(s []byte) int {
	if c.kind != kindUTF8 {
		return len(s)
	}
	return utf8.RuneCount(s)
}
