package hsproto

import "bytes"

// Command is the kind of a request line, decided by its first token.
type Command uint8

const (
	// CmdInvalid is a line the plugin answers with 2 1 cmd: an empty line,
	// an empty first token (the line starts with a TAB), or a first token
	// that is not exactly "P", not exactly "A" and does not start with an
	// ASCII digit ("PP", "p", "X", "Q", "/").
	CmdInvalid Command = iota
	// CmdOpen is open_index: "P id db table index [columns [filtercolumns]]".
	CmdOpen
	// CmdAuth is auth: "A type key".
	CmdAuth
	// CmdExec is a request on an open index: a find, a find with a modify
	// part, or an insert. The first token starts with a digit and is the
	// index id.
	CmdExec
)

// Op is the operation token of a CmdExec request, as the plugin
// classifies it.
type Op uint8

const (
	// OpInvalid is any other token ("==", "!=", "=>", "<>", "x", ""): 2 op.
	OpInvalid Op = iota
	// OpEQ is "=": rows whose key equals (or has as prefix) the given key.
	OpEQ
	// OpGT is ">": ascending scan after the key.
	OpGT
	// OpGE is ">=": ascending scan from the key.
	OpGE
	// OpLT is "<": descending scan before the key.
	OpLT
	// OpLE is "<=": descending scan from the key.
	OpLE
	// OpInsert is "+": insert the key values as a row.
	OpInsert
	// OpSQL is "S": 2 notimpl (after the klen check).
	OpSQL
)

// IsFind reports whether o is one of the find (scan) operations.
func (o Op) IsFind() bool { return o >= OpEQ && o <= OpLE }

func parseOp(tok []byte) Op {
	switch len(tok) {
	case 1:
		switch tok[0] {
		case '=':
			return OpEQ
		case '>':
			return OpGT
		case '<':
			return OpLT
		case '+':
			return OpInsert
		case 'S':
			return OpSQL
		}
	case 2:
		if tok[1] == '=' {
			switch tok[0] {
			case '>':
				return OpGE
			case '<':
				return OpLE
			}
		}
	}
	return OpInvalid
}

// ModOp is the modify part of a find, decided by the first byte of its
// token only ("UX" is an update); see Request.ModReturnRows for '?'.
type ModOp uint8

const (
	// ModNone: no modify part, or an empty modify token (a plain find).
	ModNone ModOp = iota
	// ModUpdate ('U'): set the opened columns to the modify values.
	ModUpdate
	// ModDelete ('D'): delete the rows; values are ignored.
	ModDelete
	// ModIncrement ('+'): add ParseInt64 of each value to its column.
	ModIncrement
	// ModDecrement ('-'): subtract, refusing a row whose column would
	// change sign.
	ModDecrement
	// ModInvalid: any other first byte: 2 readonly on the read port, 2
	// modop on the write port.
	ModInvalid
)

func parseModOp(tok []byte) ModOp {
	if len(tok) == 0 {
		return ModNone
	}
	switch tok[0] {
	case 'U':
		return ModUpdate
	case 'D':
		return ModDelete
	case '+':
		return ModIncrement
	case '-':
		return ModDecrement
	}
	return ModInvalid
}

// FilterOp is the comparison of a filter, as the plugin classifies its
// token.
type FilterOp uint8

const (
	// FilterAlways: every row passes. The plugin gives this to an empty
	// op, an op of three bytes or more, and a two-byte op whose second
	// byte is not '=' (so "<>" lets every row through).
	FilterAlways FilterOp = iota
	// FilterEQ is "=".
	FilterEQ
	// FilterNE is "!=".
	FilterNE
	// FilterLT is "<".
	FilterLT
	// FilterLE is "<=".
	FilterLE
	// FilterGT is ">".
	FilterGT
	// FilterGE is ">=".
	FilterGE
	// FilterNever: no row passes. The plugin gives this to any other
	// one-byte op ("~") and to a two-byte op ending in '=' other than
	// ">=", "<=", "!=" (so "==" matches nothing).
	FilterNever
)

func parseFilterOp(tok []byte) FilterOp {
	switch {
	case len(tok) == 1:
		switch tok[0] {
		case '=':
			return FilterEQ
		case '<':
			return FilterLT
		case '>':
			return FilterGT
		}
		return FilterNever
	case len(tok) == 2 && tok[1] == '=':
		switch tok[0] {
		case '>':
			return FilterGE
		case '<':
			return FilterLE
		case '!':
			return FilterNE
		}
		return FilterNever
	}
	return FilterAlways
}

// Accept reports whether a row passes the filter, given cv, the sign of
// the comparison of the row's column with the filter value (negative:
// column lower). The plugin's NULL rules decide cv without comparing: a
// NULL column gives 0 against a NULL value and -1 against any other; a
// non-NULL column gives 1 against a NULL value.
func (op FilterOp) Accept(cv int) bool {
	switch op {
	case FilterEQ:
		return cv == 0
	case FilterNE:
		return cv != 0
	case FilterLT:
		return cv < 0
	case FilterLE:
		return cv <= 0
	case FilterGT:
		return cv > 0
	case FilterGE:
		return cv >= 0
	case FilterAlways:
		return true
	}
	return false
}

// Filter is one "F|W op col value" clause of a find.
type Filter struct {
	// Type is 'F' (skip the rows that fail) or 'W' (end the scan at the
	// first row that fails). A row that fails a filter is not counted by
	// the offset or the limit.
	Type byte
	// OpToken is the raw comparison token and Op its classification.
	OpToken []byte
	Op      FilterOp
	// Col indexes the filter columns named by P (ParseUint32).
	Col uint32
	// Value is compared with the column, converted by the column's type.
	Value Value
}

// Stop reports whether a failing row ends the scan ('W').
func (f *Filter) Stop() bool { return f.Type == 'W' }

// Request is one parsed request line. Parse fills it; only the fields of
// its Cmd are meaningful. Byte slices alias the parsed line (see the
// package documentation). A Request is reused across lines without
// allocating once its slices have grown.
type Request struct {
	// Cmd is the kind of request.
	Cmd Command
	// ID is the index id: for CmdOpen the second token, for CmdExec the
	// first one, both read by ParseUint32 (so "1x2" is 12).
	ID uint32

	// DB, Table and Index are the raw P tokens, cut at their first 0x00
	// byte as the plugin reads them as C strings; they are not unescaped.
	// Missing tokens are empty. Names are compared case-sensitively. See
	// IndexName and IndexNumber for Index.
	DB, Table, Index []byte
	// Columns is the column list of P split on ',' (nothing for an empty
	// token; "k,,v" holds an empty name, which the executor refuses with 2
	// fld). Columns may repeat and fix the order of the result columns.
	Columns [][]byte
	// FilterColumns is the optional filter column list, split the same way.
	FilterColumns [][]byte

	// AuthType is the raw type token of A; only "1" is valid.
	AuthType []byte
	// AuthKey is the decoded key token of A (a lone 0x00 is not NULL here).
	// Use CheckAuth to compare it as the plugin does.
	AuthKey []byte
	// authWindow is the key token's span after decoding in place: the
	// plugin compares the secret with these bytes, over the raw length.
	authWindow []byte

	// OpToken is the raw operation token and Op its classification.
	OpToken []byte
	Op      Op
	// VLen is the declared number of key values (for OpInsert: of row
	// values).
	VLen uint32
	// Keys holds the key values present on the line, at most VLen of them.
	// When the line ends early the missing ones are empty strings: use Key.
	Keys []Value
	// Limit and Offset are the LIM part (0 when absent). A limit of 0
	// means 1 (EffectiveLimit). The plugin loops while
	// rows_returned < Limit + offset_still_to_skip in uint32 arithmetic,
	// so a sum that wraps returns fewer rows (none when it wraps to 0).
	Limit, Offset uint32

	// HasIn reports an IN clause "@ col n v1..vn". It is recognised only
	// right after the offset, by the first byte of its token being '@'.
	HasIn bool
	// InCol is the key part the IN values replace (ParseUint32); see
	// InKeyPart.
	InCol uint32
	// InCount is n, the declared number of IN values (never 0 in a
	// request without SyntaxErr).
	InCount uint32
	// InValues holds the IN values present, at most InCount: use InValue.
	// IN values are never NULL (a lone 0x00 is the one-byte string 0x00).
	InValues []Value

	// Filters are the F/W clauses, in order. They follow LIM and IN.
	Filters []Filter

	// ModToken is the raw modify token: the first token after LIM, IN and
	// the filters, whatever it is. Mod classifies it.
	ModToken []byte
	Mod      ModOp
	// ModReturnRows is set when the second byte of ModToken is '?': the
	// reply lists the rows as they were before the change, like a find.
	ModReturnRows bool
	// ModValues holds every token after ModToken, decoded. The plugin
	// reads exactly one per opened column (ModValue): extra ones are
	// ignored and missing ones are empty strings.
	ModValues []Value

	// SyntaxErr is ErrInvalueslen or ErrFiltertype when parsing stopped
	// there (the fields after that point are empty), else ErrNone. Do not
	// answer it directly: ClauseError and CheckExec put it in its place
	// among the other checks.
	SyntaxErr Error
}

// primaryName is the index an empty index name opens.
var primaryName = []byte("PRIMARY")

// cursor walks a line the way the plugin does: a token runs to the next
// TAB or the end, and skip steps over one byte (the TAB) if any is left.
type cursor struct {
	b []byte
	p int
}

func (c *cursor) end() bool { return c.p >= len(c.b) }

func (c *cursor) skip() {
	if c.p < len(c.b) {
		c.p++
	}
}

func (c *cursor) token() []byte {
	rest := c.b[c.p:]
	i := bytes.IndexByte(rest, '\t')
	if i < 0 {
		c.p = len(c.b)
		return rest
	}
	c.p += i
	return rest[:i:i]
}

// cutNUL returns b up to its first 0x00 byte.
func cutNUL(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i:i]
	}
	return b
}

// splitComma appends the ','-separated pieces of b to dst[:0]; an empty b
// gives none.
func splitComma(dst [][]byte, b []byte) [][]byte {
	dst = dst[:0]
	if len(b) == 0 {
		return dst
	}
	for {
		i := bytes.IndexByte(b, ',')
		if i < 0 {
			return append(dst, b)
		}
		dst = append(dst, b[:i:i])
		b = b[i+1:]
	}
}

// Parse parses one request line (without its line terminator; see
// NextLine) into r, replacing what r held. It decodes values in place, so
// it rewrites parts of line, and r's slices alias line afterwards. It
// never fails and never panics: see Cmd, SyntaxErr and the package
// documentation for how malformed lines come out.
func (r *Request) Parse(line []byte) {
	r.truncate()
	c := cursor{b: line}
	cmd := c.token()
	c.skip()
	switch {
	case len(cmd) == 0:
		r.Cmd = CmdInvalid
	case len(cmd) == 1 && cmd[0] == 'P':
		r.parseOpen(&c)
	case len(cmd) == 1 && cmd[0] == 'A':
		r.parseAuth(&c)
	case cmd[0]-'0' <= 9:
		r.Cmd = CmdExec
		r.ID = ParseUint32(cmd)
		r.parseExec(&c)
	default:
		r.Cmd = CmdInvalid
	}
}

// PeekFind reads the start of an exec line as Parse reads it, without
// decoding anything in place: the index id, the operation, the declared
// key count and the key tokens present (appended to keys[:0]; a lone 0x00
// is NULL, an escaped token is left as it is on the line). ok is false
// when line is not an exec request. It is a look-ahead: the line is
// parsed again by Parse when it runs.
func PeekFind(line []byte, keys []Value) (id uint32, op Op, vlen uint32, out []Value, ok bool) {
	c := cursor{b: line}
	cmd := c.token()
	if len(cmd) == 0 || cmd[0]-'0' > 9 {
		return 0, 0, 0, keys[:0], false
	}
	c.skip()
	out = keys[:0]
	opTok, vlen := execHead(&c, &out, false)
	return ParseUint32(cmd), parseOp(opTok), vlen, out, true
}

// execHead reads an exec line's operation token, declared key count and
// the key tokens present, appending them to keys. decode decodes escapes
// in place (Parse); without it an escaped token is left as it is.
func execHead(c *cursor, keys *[]Value, decode bool) (opTok []byte, vlen uint32) {
	opTok = c.token()
	c.skip()
	vlen = ParseUint32(c.token())
	// Once the line is used up every further key would be an empty
	// string: stop there (Key fills them in) rather than loop up to VLen.
	for i := uint32(0); i < vlen && !c.end(); i++ {
		c.skip()
		tok := c.token()
		v := Value{B: tok}
		switch {
		case len(tok) == 1 && tok[0] == 0:
			v = Value{Null: true}
		case decode:
			v.B = Unescape(tok)
		}
		*keys = append(*keys, v)
	}
	return opTok, vlen
}

func (r *Request) parseOpen(c *cursor) {
	r.Cmd = CmdOpen
	r.ID = ParseUint32(c.token())
	c.skip()
	r.DB = cutNUL(c.token())
	c.skip()
	r.Table = cutNUL(c.token())
	c.skip()
	r.Index = cutNUL(c.token())
	c.skip()
	r.Columns = splitComma(r.Columns, cutNUL(c.token()))
	c.skip()
	r.FilterColumns = splitComma(r.FilterColumns, cutNUL(c.token()))
	// Further tokens are ignored.
}

func (r *Request) parseAuth(c *cursor) {
	r.Cmd = CmdAuth
	r.AuthType = c.token()
	c.skip()
	key := c.token()
	r.authWindow = key
	r.AuthKey = Unescape(key)
	// Further tokens are ignored.
}

func (r *Request) parseExec(c *cursor) {
	r.OpToken, r.VLen = execHead(c, &r.Keys, true)
	r.Op = parseOp(r.OpToken)
	c.skip()
	r.Limit = ParseUint32(c.token())
	c.skip()
	r.Offset = ParseUint32(c.token())
	if c.end() {
		return
	}
	c.skip()
	if !c.end() && c.b[c.p] == '@' {
		r.HasIn = true
		c.token() // "@", or anything starting with '@'
		c.skip()
		r.InCol = ParseUint32(c.token())
		c.skip()
		r.InCount = ParseUint32(c.token())
		if r.InCount == 0 {
			r.SyntaxErr = ErrInvalueslen
			return
		}
		for i := uint32(0); i < r.InCount && !c.end(); i++ {
			c.skip()
			r.InValues = append(r.InValues, Value{B: Unescape(c.token())})
		}
		c.skip()
	}
	for !c.end() && (c.b[c.p] == 'F' || c.b[c.p] == 'W') {
		typ := c.token()
		c.skip()
		op := c.token()
		c.skip()
		col := ParseUint32(c.token())
		c.skip()
		val := c.token()
		c.skip()
		if len(typ) != 1 {
			r.SyntaxErr = ErrFiltertype
			return
		}
		r.Filters = append(r.Filters, Filter{
			Type:    typ[0],
			OpToken: op,
			Op:      parseFilterOp(op),
			Col:     col,
			Value:   DecodeToken(val),
		})
	}
	if c.end() {
		return
	}
	r.ModToken = c.token()
	r.Mod = parseModOp(r.ModToken)
	r.ModReturnRows = len(r.ModToken) > 1 && r.ModToken[1] == '?'
	for !c.end() {
		c.skip()
		r.ModValues = append(r.ModValues, DecodeToken(c.token()))
	}
}

// Reset empties r and drops every reference it holds into earlier lines,
// keeping the capacity of its slices. Parse does not need it; call it
// before a connection returns its read buffer to a pool and goes idle.
func (r *Request) Reset() {
	clear(r.Columns[:cap(r.Columns)])
	clear(r.FilterColumns[:cap(r.FilterColumns)])
	clear(r.Keys[:cap(r.Keys)])
	clear(r.InValues[:cap(r.InValues)])
	clear(r.Filters[:cap(r.Filters)])
	clear(r.ModValues[:cap(r.ModValues)])
	r.truncate()
}

// truncate empties r, keeping the capacity of its slices.
func (r *Request) truncate() {
	*r = Request{
		Columns:       r.Columns[:0],
		FilterColumns: r.FilterColumns[:0],
		Keys:          r.Keys[:0],
		InValues:      r.InValues[:0],
		Filters:       r.Filters[:0],
		ModValues:     r.ModValues[:0],
	}
}

// Key returns key value i (0 <= i < VLen): Keys[i], or the empty string
// for a key the line did not hold. For OpInsert these are the row values.
func (r *Request) Key(i int) Value {
	if i < len(r.Keys) {
		return r.Keys[i]
	}
	return Value{}
}

// InValue returns IN value i (0 <= i < InCount): InValues[i], or the empty
// string for a value the line did not hold.
func (r *Request) InValue(i int) Value {
	if i < len(r.InValues) {
		return r.InValues[i]
	}
	return Value{}
}

// ModValue returns the modify value for opened column i: ModValues[i], or
// the empty string when the line holds fewer values than columns.
func (r *Request) ModValue(i int) Value {
	if i < len(r.ModValues) {
		return r.ModValues[i]
	}
	return Value{}
}

// EffectiveLimit is Limit, except that 0 (also an absent LIM) means 1.
func (r *Request) EffectiveLimit() uint32 {
	if r.Limit == 0 {
		return 1
	}
	return r.Limit
}

// InKeyPart returns the key part the IN values replace, or -1 when there
// is no IN clause or InCol does not fit a C int (>= 2^31), which the plugin
// then treats as no IN clause at all. With an IN clause the plugin looks
// up the key once per IN value, in order, taking the first matching row of
// each (a value with no match is skipped); the limit and offset count
// across the whole list. When InKeyPart >= VLen no key part is replaced,
// and the same key is looked up InCount times.
func (r *Request) InKeyPart() int {
	if !r.HasIn || int32(r.InCol) < 0 {
		return -1
	}
	return int(r.InCol)
}

// IndexName returns the index name to look up when IndexNumber is not
// numeric: Index, or "PRIMARY" when Index is empty.
func (r *Request) IndexName() []byte {
	if len(r.Index) == 0 {
		return primaryName
	}
	return r.Index
}

// IndexNumber reports whether Index names an index by number (it starts
// with an ASCII digit) and which: the leading digits read as C atoi does
// ("1x" is 1, "4294967296" is 0). n < 0 (a number too large for a C int)
// or n >= the number of indexes is 2 idxnum. 0 is the first index, which
// is PRIMARY when the table has a primary key.
func (r *Request) IndexNumber() (n int, numeric bool) {
	if len(r.Index) == 0 || r.Index[0]-'0' > 9 {
		return 0, false
	}
	return int(parseCInt(r.Index)), true
}
