package sqlbackend

import (
	"strings"
)

// Reading the text of a dump's INSERT without the SQL parser. mariadb-dump
// and mysqldump write each table's rows as
//
//	INSERT INTO `t` VALUES (1,'a',NULL),(2,'b\'c',0x00FF),...
//
// (with a column list under --complete-insert), a thousand rows or more a
// statement; building vitess's syntax tree and go-mysql-server's VALUES
// expressions for them cost more than storing the rows. ScanBulkInsert
// reads exactly that shape: a table name, an optional column list, and
// tuples of literals (NULL, numbers with an optional minus sign, quoted
// strings with MySQL's backslash escapes, 0x and X'' hexadecimal). Any
// other text (a comment, an expression, IGNORE, ON DUPLICATE KEY UPDATE,
// a second statement, a double-quoted string, a character set
// introducer...) is refused, and the statement takes the ordinary path.
//
// The scanner is a pure function of the text, safe for concurrent use.

// Kinds of BulkValue.
const (
	BulkNull    byte = iota // NULL
	BulkInt                 // an integer literal: Text is its digits, with a leading '-' if negative
	BulkDecimal             // a number with a point and no exponent: Text without the sign, Neg for '-'
	BulkFloat               // a number with an exponent: Text without the sign, Neg for '-'
	BulkString              // a quoted string: Text is its bytes, escapes decoded
	BulkHex                 // 0x.. or X'..': Text is the bytes
)

// BulkValue is one literal of a scanned INSERT.
type BulkValue struct {
	Kind byte
	Neg  bool
	Text string
}

// BulkInsert is what ScanBulkInsert read. Values holds the rows one after
// the other, Width values each.
type BulkInsert struct {
	DB, Table string   // DB is "" when the name has no qualifier
	Columns   []string // nil: no column list
	Width     int
	Values    []BulkValue
}

// Rows returns the number of rows.
func (b *BulkInsert) Rows() int {
	if b.Width == 0 {
		return 0
	}
	return len(b.Values) / b.Width
}

// bulkScanner walks the statement text.
type bulkScanner struct {
	s   string
	i   int
	buf []byte // scratch for strings with escapes
}

// ScanBulkInsert reads an INSERT of literal rows (see the comment above),
// or returns nil when the text is anything else. backslash says whether
// a backslash escapes in strings (false under NO_BACKSLASH_ESCAPES).
func ScanBulkInsert(text string, backslash bool) *BulkInsert {
	if !backslash {
		// Rare in dumps; the ordinary path handles it.
		return nil
	}
	sc := &bulkScanner{s: text}
	sc.space()
	if !sc.keyword("insert") {
		return nil
	}
	sc.space()
	if !sc.keyword("into") {
		return nil
	}
	sc.space()
	b := &BulkInsert{}
	name, ok := sc.ident()
	if !ok {
		return nil
	}
	if sc.peek() == '.' {
		sc.i++
		b.DB = name
		if name, ok = sc.ident(); !ok {
			return nil
		}
	}
	b.Table = name
	sc.space()
	if sc.peek() == '(' {
		column := func() bool {
			c, ok := sc.ident()
			b.Columns = append(b.Columns, c)
			return ok
		}
		if !sc.list(column) {
			return nil
		}
		sc.space()
	}
	if !sc.keyword("values") && !sc.keyword("value") {
		return nil
	}
	n := 0
	value := func() bool {
		v, ok := sc.literal()
		b.Values = append(b.Values, v)
		n++
		return ok
	}
	for {
		sc.space()
		if sc.peek() != '(' {
			return nil
		}
		n = 0
		if !sc.list(value) {
			return nil
		}
		if b.Width == 0 {
			b.Width = n
		} else if n != b.Width {
			// go-mysql-server's error (1136) on the ordinary path.
			return nil
		}
		sc.space()
		if sc.peek() == ',' {
			sc.i++
			continue
		}
		break
	}
	if sc.peek() == ';' {
		sc.i++
		sc.space()
	}
	if sc.i != len(sc.s) {
		return nil
	}
	if b.Columns != nil && len(b.Columns) != b.Width {
		return nil
	}
	return b
}

// list reads a parenthesized list, "(" item { "," item } ")", from the
// "(" at sc's position, item reading one element; false means the text
// is not that shape (an item that fails may have appended a zero value,
// which the caller drops with the statement).
func (sc *bulkScanner) list(item func() bool) bool {
	sc.i++ // the "("
	for {
		sc.space()
		if !item() {
			return false
		}
		sc.space()
		switch sc.peek() {
		case ',':
			sc.i++
		case ')':
			sc.i++
			return true
		default:
			return false
		}
	}
}

func (sc *bulkScanner) peek() byte {
	if sc.i < len(sc.s) {
		return sc.s[sc.i]
	}
	return 0
}

// space skips white space. Comments are not skipped: a text with one is
// refused by whatever comes next.
func (sc *bulkScanner) space() {
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case ' ', '\t', '\n', '\r':
			sc.i++
		default:
			return
		}
	}
}

// keyword consumes word (lower case) in any case, when it is followed by
// something other than an identifier character.
func (sc *bulkScanner) keyword(word string) bool {
	end := sc.i + len(word)
	if end > len(sc.s) || !strings.EqualFold(sc.s[sc.i:end], word) {
		return false
	}
	if end < len(sc.s) && identChar(sc.s[end]) {
		return false
	}
	sc.i = end
	return true
}

// identChar reports whether c may continue an unquoted identifier (the
// scanner accepts ASCII names only; others are quoted in dumps).
func identChar(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// bulkReserved are words that cannot be unquoted names here.
var bulkReserved = []string{"values", "value", "select", "set", "partition", "table", "with", "ignore", "low_priority", "high_priority", "delayed", "into", "default"}

// ident reads a name: backquoted (a doubled backquote standing for one) or a plain
// ASCII word that does not start with a digit and is not reserved.
func (sc *bulkScanner) ident() (string, bool) {
	if sc.peek() == '`' {
		sc.i++
		var out []byte
		start := sc.i
		for sc.i < len(sc.s) {
			c := sc.s[sc.i]
			if c == '`' {
				if sc.i+1 < len(sc.s) && sc.s[sc.i+1] == '`' {
					out = append(out, sc.s[start:sc.i+1]...)
					sc.i += 2
					start = sc.i
					continue
				}
				var name string
				if out == nil {
					name = sc.s[start:sc.i]
				} else {
					name = string(append(out, sc.s[start:sc.i]...))
				}
				sc.i++
				if name == "" {
					return "", false
				}
				return name, true
			}
			sc.i++
		}
		return "", false
	}
	start := sc.i
	for sc.i < len(sc.s) && identChar(sc.s[sc.i]) && sc.s[sc.i] < 0x80 {
		sc.i++
	}
	word := sc.s[start:sc.i]
	// The parser takes no unquoted word that starts with a digit or holds
	// a '$' (which MySQL allows): such a statement goes to it, for its error.
	if word == "" || word[0] >= '0' && word[0] <= '9' || strings.IndexByte(word, '$') >= 0 || sc.i < len(sc.s) && sc.s[sc.i] >= 0x80 {
		return "", false
	}
	for _, r := range bulkReserved {
		if strings.EqualFold(word, r) {
			return "", false
		}
	}
	return word, true
}

// literal reads one value of a tuple.
func (sc *bulkScanner) literal() (BulkValue, bool) {
	c := sc.peek()
	switch {
	case c == '\'':
		return sc.str()
	case c == 'N' || c == 'n':
		if sc.keyword("null") {
			return BulkValue{Kind: BulkNull}, true
		}
		return BulkValue{}, false
	case c == 'X' || c == 'x':
		return sc.hexQuoted()
	case c == '-':
		sc.i++
		c = sc.peek()
		if !(c >= '0' && c <= '9' || c == '.') {
			return BulkValue{}, false
		}
		v, ok := sc.number()
		if !ok || v.Kind == BulkHex {
			return BulkValue{}, false
		}
		if v.Kind == BulkInt {
			v.Text = "-" + v.Text
		} else {
			v.Neg = true
		}
		return v, true
	case c >= '0' && c <= '9' || c == '.':
		return sc.number()
	}
	return BulkValue{}, false
}

// number reads digits with an optional point and exponent, or 0x hex.
func (sc *bulkScanner) number() (BulkValue, bool) {
	s := sc.s
	start := sc.i
	if sc.i+1 < len(s) && s[sc.i] == '0' && s[sc.i+1] == 'x' {
		j := sc.i + 2
		for j < len(s) && isHexDigit(s[j]) {
			j++
		}
		if j == sc.i+2 || j < len(s) && identChar(s[j]) {
			return BulkValue{}, false
		}
		digits := s[sc.i+2 : j]
		sc.i = j
		return BulkValue{Kind: BulkHex, Text: decodeHex(digits)}, true
	}
	digits := 0
	for sc.i < len(s) && s[sc.i] >= '0' && s[sc.i] <= '9' {
		sc.i++
		digits++
	}
	kind := BulkInt
	if sc.i < len(s) && s[sc.i] == '.' {
		kind = BulkDecimal
		sc.i++
		for sc.i < len(s) && s[sc.i] >= '0' && s[sc.i] <= '9' {
			sc.i++
			digits++
		}
	}
	if digits == 0 {
		return BulkValue{}, false
	}
	if sc.i < len(s) && (s[sc.i] == 'e' || s[sc.i] == 'E') {
		j := sc.i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k == j {
			return BulkValue{}, false
		}
		kind = BulkFloat
		sc.i = k
	}
	if sc.i < len(s) && (identChar(s[sc.i]) || s[sc.i] == '.') {
		// 1abc, 1.2.3: the tokenizer's business.
		return BulkValue{}, false
	}
	text := s[start:sc.i]
	if kind == BulkInt && len(text) > 1 && text[0] == '0' {
		// Leading zeros read the same; keep the text as written.
		return BulkValue{Kind: kind, Text: text}, true
	}
	return BulkValue{Kind: kind, Text: text}, true
}

// hexQuoted reads X'..' (an even number of hex digits).
func (sc *bulkScanner) hexQuoted() (BulkValue, bool) {
	s := sc.s
	if sc.i+1 >= len(s) || s[sc.i+1] != '\'' {
		return BulkValue{}, false
	}
	j := sc.i + 2
	for j < len(s) && isHexDigit(s[j]) {
		j++
	}
	if j >= len(s) || s[j] != '\'' || (j-sc.i-2)%2 != 0 {
		return BulkValue{}, false
	}
	digits := s[sc.i+2 : j]
	sc.i = j + 1
	if sc.i < len(s) && identChar(s[sc.i]) {
		return BulkValue{}, false
	}
	return BulkValue{Kind: BulkHex, Text: decodeHex(digits)}, true
}

func isHexDigit(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// decodeHex decodes hex digits, padding an odd count with a leading 0 as
// the parser does.
func decodeHex(d string) string {
	if len(d)%2 == 1 {
		d = "0" + d
	}
	out := make([]byte, len(d)/2)
	for i := range out {
		out[i] = hexVal(d[2*i])<<4 | hexVal(d[2*i+1])
	}
	return string(out)
}

func hexVal(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// str reads a single-quoted string with MySQL's escapes: \0 \' \" \b \n
// \r \t \Z \\, a backslash before any other ASCII character standing for
// that character, and a doubled quote for a quote (\% and \_, which MySQL reads
// with their backslash, are refused). Two strings in a row (which SQL
// concatenates) are refused.
func (sc *bulkScanner) str() (BulkValue, bool) {
	s := sc.s
	sc.i++ // the quote
	start := sc.i
	out := sc.buf[:0]
	escaped := false
	for sc.i < len(s) {
		c := s[sc.i]
		switch c {
		case '\'':
			if sc.i+1 < len(s) && s[sc.i+1] == '\'' {
				out = append(out, s[start:sc.i+1]...)
				sc.i += 2
				start = sc.i
				escaped = true
				continue
			}
			var text string
			if escaped {
				out = append(out, s[start:sc.i]...)
				text = string(out)
				sc.buf = out
			} else {
				text = s[start:sc.i]
			}
			sc.i++
			j := sc.i
			for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
				j++
			}
			if j < len(s) && (s[j] == '\'' || s[j] == '"') {
				return BulkValue{}, false
			}
			return BulkValue{Kind: BulkString, Text: text}, true
		case '\\':
			if sc.i+1 >= len(s) {
				return BulkValue{}, false
			}
			out = append(out, s[start:sc.i]...)
			escaped = true
			e := s[sc.i+1]
			switch e {
			case '0':
				out = append(out, 0)
			case 'b':
				out = append(out, '\b')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'Z':
				out = append(out, 26)
			case '%', '_':
				// MySQL keeps the backslash, the parser does not:
				// leave it to the ordinary path.
				return BulkValue{}, false
			default:
				if e >= 0x80 {
					// A backslash before a multibyte character:
					// leave it to the parser.
					return BulkValue{}, false
				}
				out = append(out, e)
			}
			sc.i += 2
			start = sc.i
			continue
		}
		sc.i++
	}
	return BulkValue{}, false
}
