package types

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/handlerdb/handlerdb/internal/collation"
)

// ErrBadType is wrapped by every error ParseType returns.
var ErrBadType = errors.New("types: bad column type")

// Maximum lengths of the TEXT and BLOB families in bytes.
const (
	tinyMax   = 255
	blobMax   = 65535
	mediumMax = 16777215
	longMax   = 4294967295
)

// typeToken is one lexical token of a column type: a word, a number, a
// quoted string or a punctuation character.
type typeToken struct {
	kind byte // 'w' word, 'n' number, 's' string, or the punctuation byte
	text string
}

// lexType splits a column type definition into tokens.
func lexType(s string) ([]typeToken, error) {
	var toks []typeToken
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isSpace(c):
			i++
		case c == '(' || c == ')' || c == ',':
			toks = append(toks, typeToken{kind: c})
			i++
		case isDigit(c):
			j := i
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			toks = append(toks, typeToken{kind: 'n', text: s[i:j]})
			i = j
		case c == '\'' || c == '"':
			var b strings.Builder
			j := i + 1
			closed := false
			for j < len(s) {
				d := s[j]
				if d == '\\' && j+1 < len(s) {
					b.WriteByte(unescapeChar(s[j+1]))
					j += 2
					continue
				}
				if d == c {
					if j+1 < len(s) && s[j+1] == c {
						b.WriteByte(c)
						j += 2
						continue
					}
					closed = true
					j++
					break
				}
				b.WriteByte(d)
				j++
			}
			if !closed {
				return nil, fmt.Errorf("%w: unterminated string in %q", ErrBadType, s)
			}
			toks = append(toks, typeToken{kind: 's', text: b.String()})
			i = j
		case c == '_' || c == '`' || (c|0x20 >= 'a' && c|0x20 <= 'z'):
			j := i
			for j < len(s) && (s[j] == '_' || isDigit(s[j]) || (s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z')) {
				j++
			}
			if c == '`' {
				return nil, fmt.Errorf("%w: unexpected quoted name in %q", ErrBadType, s)
			}
			toks = append(toks, typeToken{kind: 'w', text: strings.ToLower(s[i:j])})
			i = j
		default:
			return nil, fmt.Errorf("%w: unexpected %q in %q", ErrBadType, c, s)
		}
	}
	return toks, nil
}

// unescapeChar maps the character after a backslash in a SQL string.
func unescapeChar(c byte) byte {
	switch c {
	case '0':
		return 0
	case 'n':
		return '\n'
	case 'r':
		return '\r'
	case 't':
		return '\t'
	case 'b':
		return '\b'
	case 'Z':
		return 26
	}
	return c
}

// typeParser consumes tokens.
type typeParser struct {
	toks []typeToken
	pos  int
	src  string
	// textLen is the n of TEXT(n)/BLOB(n), or -1.
	textLen int64
}

func (p *typeParser) peekWord(w string) bool {
	return p.pos < len(p.toks) && p.toks[p.pos].kind == 'w' && p.toks[p.pos].text == w
}

func (p *typeParser) acceptWord(w string) bool {
	if p.peekWord(w) {
		p.pos++
		return true
	}
	return false
}

func (p *typeParser) accept(kind byte) bool {
	if p.pos < len(p.toks) && p.toks[p.pos].kind == kind {
		p.pos++
		return true
	}
	return false
}

func (p *typeParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: %s in %q", ErrBadType, fmt.Sprintf(format, args...), p.src)
}

// number reads an unsigned decimal number token.
func (p *typeParser) number() (uint64, error) {
	if p.pos >= len(p.toks) || p.toks[p.pos].kind != 'n' {
		return 0, p.errorf("number expected")
	}
	v, err := strconv.ParseUint(p.toks[p.pos].text, 10, 32)
	if err != nil {
		return 0, p.errorf("number %s out of range", p.toks[p.pos].text)
	}
	p.pos++
	return v, nil
}

// args reads an optional "(n[,m])" and returns how many numbers it held.
func (p *typeParser) args() (n int, a, b uint64, err error) {
	if !p.accept('(') {
		return 0, 0, 0, nil
	}
	if a, err = p.number(); err != nil {
		return 0, 0, 0, err
	}
	n = 1
	if p.accept(',') {
		if b, err = p.number(); err != nil {
			return 0, 0, 0, err
		}
		n = 2
	}
	if !p.accept(')') {
		return 0, 0, 0, p.errorf("')' expected")
	}
	return n, a, b, nil
}

// elems reads "('a','b',...)".
func (p *typeParser) elems() ([]string, error) {
	if !p.accept('(') {
		return nil, p.errorf("'(' expected")
	}
	var out []string
	for {
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != 's' {
			return nil, p.errorf("quoted member expected")
		}
		out = append(out, p.toks[p.pos].text)
		p.pos++
		if p.accept(')') {
			return out, nil
		}
		if !p.accept(',') {
			return nil, p.errorf("',' or ')' expected")
		}
	}
}

// name reads a word or quoted string (a charset or collation name).
func (p *typeParser) name() (string, error) {
	if p.pos < len(p.toks) && (p.toks[p.pos].kind == 'w' || p.toks[p.pos].kind == 's') {
		p.pos++
		return strings.ToLower(p.toks[p.pos-1].text), nil
	}
	return "", p.errorf("name expected")
}

// ParseType parses a MySQL column type as written in CREATE TABLE, e.g.
// "INT UNSIGNED", "DECIMAL(10,3)", "FLOAT(7,2)", "DATETIME(3)",
// "VARCHAR(32) CHARACTER SET latin1 COLLATE latin1_bin" or
// "ENUM('a','b')". Keywords are case-insensitive. Integer display widths
// and ZEROFILL are accepted and ignored. Character kinds (and ENUM/SET)
// get collation.Default when no character set or collation is named;
// CHARACTER SET binary turns CHAR/VARCHAR/TEXT into BINARY/VARBINARY/BLOB.
// Column attributes (NULL, DEFAULT ...) are not part of the type.
func ParseType(def string) (Type, error) {
	toks, err := lexType(def)
	if err != nil {
		return Type{}, err
	}
	p := &typeParser{toks: toks, src: def, textLen: -1}
	if p.pos >= len(toks) || toks[0].kind != 'w' {
		return Type{}, p.errorf("type name expected")
	}
	word := toks[0].text
	p.pos++
	var t Type
	var n int
	var a, b uint64
	switch word {
	case "tinyint", "int1", "bool", "boolean":
		t.Kind = TinyInt
	case "smallint", "int2":
		t.Kind = SmallInt
	case "mediumint", "int3", "middleint":
		t.Kind = MediumInt
	case "int", "integer", "int4":
		t.Kind = Int
	case "bigint", "int8":
		t.Kind = BigInt
	case "decimal", "dec", "numeric", "fixed":
		t.Kind = Decimal
	case "float":
		t.Kind = Float
	case "double", "real", "float8":
		t.Kind = Double
		p.acceptWord("precision")
	case "float4":
		t.Kind = Float
	case "bit":
		t.Kind = Bit
	case "date":
		t.Kind = Date
	case "datetime":
		t.Kind = DateTime
	case "timestamp":
		t.Kind = Timestamp
	case "time":
		t.Kind = Time
	case "year":
		t.Kind = Year
	case "char", "character", "nchar":
		t.Kind = Char
		if p.acceptWord("varying") {
			t.Kind = VarChar
		}
	case "national":
		switch {
		case p.acceptWord("char"), p.acceptWord("character"):
			t.Kind = Char
			if p.acceptWord("varying") {
				t.Kind = VarChar
			}
		case p.acceptWord("varchar"):
			t.Kind = VarChar
		default:
			return Type{}, p.errorf("CHAR or VARCHAR expected after NATIONAL")
		}
	case "varchar", "nvarchar", "varcharacter":
		t.Kind = VarChar
	case "tinytext", "text", "mediumtext", "longtext", "long":
		t.Kind = Text
		if word == "long" {
			p.acceptWord("varchar")
		}
	case "binary":
		t.Kind = Binary
	case "varbinary":
		t.Kind = VarBinary
	case "tinyblob", "blob", "mediumblob", "longblob":
		t.Kind = Blob
	case "enum":
		t.Kind = Enum
	case "set":
		t.Kind = Set
	default:
		g, ok := geometryKind(word)
		if !ok {
			return Type{}, p.errorf("unknown type %s", strings.ToUpper(word))
		}
		t.Kind, t.Scale = Geometry, g
	}
	if t.Kind == Enum || t.Kind == Set {
		if t.Elems, err = p.elems(); err != nil {
			return Type{}, err
		}
		if t.Kind == Set && len(t.Elems) > 64 {
			return Type{}, p.errorf("SET has more than 64 members")
		}
		if t.Kind == Enum && len(t.Elems) > 65535 {
			return Type{}, p.errorf("ENUM has more than 65535 members")
		}
	} else if n, a, b, err = p.args(); err != nil {
		return Type{}, err
	}
	if err := t.setShape(p, word, n, a, b); err != nil {
		return Type{}, err
	}
	if err := p.attributes(&t); err != nil {
		return Type{}, err
	}
	if p.pos < len(p.toks) {
		return Type{}, p.errorf("unexpected %q", p.toks[p.pos].text)
	}
	return t, nil
}

// setShape applies the parenthesised numbers to t.
func (t *Type) setShape(p *typeParser, word string, n int, a, b uint64) error {
	switch t.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt:
		if n > 1 {
			return p.errorf("integer takes one display width")
		}
	case Decimal:
		t.Length, t.Scale = 10, 0
		if n >= 1 {
			if a > 65 {
				return p.errorf("DECIMAL precision %d above 65", a)
			}
			t.Length = uint32(a)
		}
		if n == 2 {
			if b > 30 || b > a {
				return p.errorf("bad DECIMAL scale %d", b)
			}
			t.Scale = uint8(b)
		}
		if t.Length == 0 {
			t.Length = 1
		}
	case Float, Double:
		switch n {
		case 1:
			if t.Kind == Float {
				if a > 53 {
					return p.errorf("FLOAT precision %d above 53", a)
				}
				if a > 24 {
					t.Kind = Double
				}
			} else {
				return p.errorf("DOUBLE takes (M,D)")
			}
		case 2:
			if a > 255 || b > 30 || b > a || a == 0 {
				return p.errorf("bad (M,D) %d,%d", a, b)
			}
			t.Length, t.Scale = uint32(a), uint8(b)
		}
	case Bit:
		t.Length = 1
		if n == 1 {
			if a < 1 || a > 64 {
				return p.errorf("BIT width %d not in 1..64", a)
			}
			t.Length = uint32(a)
		}
	case DateTime, Timestamp, Time:
		if n == 1 {
			if a > 6 {
				return p.errorf("fractional seconds %d above 6", a)
			}
			t.Scale = uint8(a)
		}
	case Date:
		if n > 0 {
			return p.errorf("DATE takes no length")
		}
	case Year:
		if n == 1 && a != 2 && a != 4 {
			return p.errorf("YEAR takes (4)")
		}
	case Char, Binary:
		t.Length = 1
		if n == 1 {
			if a > 255 {
				return p.errorf("length %d above 255", a)
			}
			t.Length = uint32(a)
		}
	case VarChar, VarBinary:
		if n != 1 {
			return p.errorf("length required")
		}
		t.Length = uint32(a)
	case Text, Blob:
		switch word {
		case "tinytext", "tinyblob":
			t.Length = tinyMax
		case "mediumtext", "mediumblob", "long":
			t.Length = mediumMax
		case "longtext", "longblob":
			t.Length = longMax
		default:
			t.Length = blobMax
		}
		if n == 1 {
			// TEXT(n)/BLOB(n): the smallest family holding n characters
			// (resolved in attributes, once the character set is known).
			p.textLen = int64(a)
		}
	}
	if n == 2 && t.Kind != Decimal && t.Kind != Float && t.Kind != Double {
		return p.errorf("unexpected second length")
	}
	return nil
}

// blobLength maps a requested TEXT/BLOB byte length to its family size.
func blobLength(n uint64) uint32 {
	switch {
	case n <= tinyMax:
		return tinyMax
	case n <= blobMax:
		return blobMax
	case n <= mediumMax:
		return mediumMax
	}
	return longMax
}

// attributes reads UNSIGNED/SIGNED/ZEROFILL, CHARACTER SET, COLLATE and
// BINARY, and resolves the collation of character kinds.
func (p *typeParser) attributes(t *Type) error {
	var cs, coll string
	binaryAttr := false
	for p.pos < len(p.toks) {
		switch {
		case p.acceptWord("unsigned"):
			if !isNumeric(t.Kind) {
				return p.errorf("UNSIGNED on a non-numeric type")
			}
			t.Unsigned = true
		case p.acceptWord("signed"):
			if !isNumeric(t.Kind) {
				return p.errorf("SIGNED on a non-numeric type")
			}
		case p.acceptWord("zerofill"):
			if !isNumeric(t.Kind) {
				return p.errorf("ZEROFILL on a non-numeric type")
			}
			t.Unsigned = true
		case p.peekWord("character") || p.peekWord("charset") || p.peekWord("char"):
			if p.acceptWord("character") || p.acceptWord("char") {
				if !p.acceptWord("set") {
					return p.errorf("SET expected after CHARACTER")
				}
			} else {
				p.pos++
			}
			name, err := p.name()
			if err != nil {
				return err
			}
			cs = name
		case p.acceptWord("collate"):
			name, err := p.name()
			if err != nil {
				return err
			}
			coll = name
		case p.acceptWord("binary"):
			binaryAttr = true
		case p.acceptWord("ascii"):
			cs = "latin1"
		case p.acceptWord("unicode"):
			cs = "ucs2"
		default:
			return p.errorf("unexpected %q", p.toks[p.pos].text)
		}
	}
	textual := t.IsString() || t.Kind == Enum || t.Kind == Set
	if !textual {
		if p.textLen >= 0 {
			t.Length = blobLength(uint64(p.textLen))
		}
		if cs != "" || coll != "" || binaryAttr {
			if (t.Kind == Binary || t.Kind == VarBinary || t.Kind == Blob) && (cs == "" || cs == "binary") && (coll == "" || coll == "binary") && !binaryAttr {
				return nil
			}
			return p.errorf("character set or collation on a non-character type")
		}
		return nil
	}
	c, err := resolveCollation(p, cs, coll, binaryAttr)
	if err != nil {
		return err
	}
	if c.Charset == "binary" && t.IsString() {
		switch t.Kind {
		case Char:
			t.Kind = Binary
		case VarChar:
			t.Kind = VarBinary
		case Text:
			t.Kind = Blob
		}
		c = nil
	}
	if p.textLen >= 0 {
		// TEXT(n) counts characters; the families count bytes.
		t.Length = blobLength(uint64(p.textLen) * uint64(maxRuneLen(c)))
	}
	t.Collation = c
	return nil
}

func isNumeric(k Kind) bool {
	return (k >= TinyInt && k <= BigInt) || k == Decimal || k == Float || k == Double
}

// resolveCollation picks the collation named by CHARACTER SET cs, COLLATE
// coll and the BINARY attribute.
func resolveCollation(p *typeParser, cs, coll string, binaryAttr bool) (*collation.Collation, error) {
	if coll != "" {
		c := collation.Lookup(coll)
		if c == nil {
			return nil, p.errorf("unknown collation %s", coll)
		}
		if cs != "" && collation.ForCharset(cs) != collation.ForCharset(c.Charset) {
			return nil, p.errorf("collation %s is not for character set %s", coll, cs)
		}
		return c, nil
	}
	if cs == "" {
		cs = collation.Default.Charset
	}
	if binaryAttr && cs != "binary" {
		c := collation.Lookup(cs + "_bin")
		if c == nil {
			return nil, p.errorf("no binary collation for character set %s", cs)
		}
		return c, nil
	}
	c := collation.ForCharset(cs)
	if c == nil {
		return nil, p.errorf("unknown character set %s", cs)
	}
	return c, nil
}

// String returns the type as MariaDB's SHOW CREATE TABLE prints it, e.g.
// "int(11)", "int(10) unsigned", "decimal(10,3)", "varchar(5)" or
// "enum('a','b')". A character type whose collation is not
// collation.Default gets " CHARACTER SET cs COLLATE name".
// DefaultWidth is the display width MySQL gives an integer type when its
// definition names none (int(11), int(10) unsigned, bigint(20)); 0 for
// other kinds.
func DefaultWidth(t *Type) int {
	widths := [...]int{TinyInt: 4, SmallInt: 6, MediumInt: 9, Int: 11, BigInt: 20}
	switch t.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt:
		w := widths[t.Kind]
		if t.Unsigned && t.Kind != BigInt {
			w--
		}
		return w
	}
	return 0
}

func (t *Type) String() string {
	var b strings.Builder
	switch t.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt:
		names := [...]string{TinyInt: "tinyint", SmallInt: "smallint", MediumInt: "mediumint", Int: "int", BigInt: "bigint"}
		fmt.Fprintf(&b, "%s(%d)", names[t.Kind], DefaultWidth(t))
	case Decimal:
		p, s := decimalShape(t)
		fmt.Fprintf(&b, "decimal(%d,%d)", p, s)
	case Float, Double:
		if t.Kind == Float {
			b.WriteString("float")
		} else {
			b.WriteString("double")
		}
		if t.Length > 0 {
			fmt.Fprintf(&b, "(%d,%d)", t.Length, t.Scale)
		}
	case Bit:
		fmt.Fprintf(&b, "bit(%d)", bitWidth(t))
	case Date:
		b.WriteString("date")
	case DateTime, Timestamp, Time:
		b.WriteString([...]string{DateTime: "datetime", Timestamp: "timestamp", Time: "time"}[t.Kind])
		if t.Scale > 0 {
			fmt.Fprintf(&b, "(%d)", t.Scale)
		}
	case Year:
		b.WriteString("year(4)")
	case Char:
		fmt.Fprintf(&b, "char(%d)", t.Length)
	case VarChar:
		fmt.Fprintf(&b, "varchar(%d)", t.Length)
	case Binary:
		fmt.Fprintf(&b, "binary(%d)", t.Length)
	case VarBinary:
		fmt.Fprintf(&b, "varbinary(%d)", t.Length)
	case Text, Blob:
		prefix := map[uint32]string{tinyMax: "tiny", blobMax: "", mediumMax: "medium", longMax: "long"}[t.Length]
		if t.Kind == Text {
			b.WriteString(prefix + "text")
		} else {
			b.WriteString(prefix + "blob")
		}
	case Geometry:
		b.WriteString(GeometryName(t))
	case Enum, Set:
		if t.Kind == Enum {
			b.WriteString("enum(")
		} else {
			b.WriteString("set(")
		}
		for i, e := range t.Elems {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteByte('\'')
			b.WriteString(strings.ReplaceAll(e, "'", "''"))
			b.WriteByte('\'')
		}
		b.WriteByte(')')
	default:
		return "invalid"
	}
	if t.Unsigned && isNumeric(t.Kind) {
		b.WriteString(" unsigned")
	}
	if t.Collation != nil && t.Collation.Name != collation.Default.Name &&
		(t.IsString() || t.Kind == Enum || t.Kind == Set) {
		fmt.Fprintf(&b, " CHARACTER SET %s COLLATE %s", t.Collation.Charset, t.Collation.Name)
	}
	return b.String()
}
