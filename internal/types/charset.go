package types

import (
	"github.com/handlerdb/handlerdb/internal/collation"
)

// This file holds the character-set helpers the conversions need on top of
// the collation package.

// isUTF8 reports whether c stores UTF-8 (utf8mb4 or utf8mb3).
func isUTF8(c *collation.Collation) bool {
	return c != nil && (c.Charset == "utf8mb4" || c.Charset == "utf8mb3")
}

// maxRuneLen is the longest character of c's character set in bytes.
func maxRuneLen(c *collation.Collation) int {
	if c == nil {
		return 1
	}
	return c.MaxCharLen()
}

// truncateBytes returns the longest prefix of s (already clean) of at most
// n bytes that does not split a character of c's character set.
func truncateBytes(c *collation.Collation, s []byte, n int) []byte {
	if len(s) <= n {
		return s
	}
	if isUTF8(c) {
		for n > 0 && s[n]&0xC0 == 0x80 {
			n--
		}
	}
	return s[:n]
}

// collEqual reports whether two strings are equal under c (bytes when c is
// nil).
func collEqual(c *collation.Collation, a, b []byte) bool {
	if c == nil {
		return string(a) == string(b)
	}
	return c.Equal(a, b)
}
