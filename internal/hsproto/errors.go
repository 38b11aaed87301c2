package hsproto

// Error is one of the plugin's error replies: a numeric code and a word,
// sent as "<code>\t1\t<word>\n" (see AppendError). The zero value ErrNone
// means no error. Error is a plain value, not a Go error, so comparing and
// passing it never allocates.
//
// The codec decides some of them by itself (ErrCmd, ErrAuthtype,
// ErrInvalueslen, ErrFiltertype, ErrOp, ErrKlen, ErrModop, ErrNotimpl);
// the others need connection or table state, and are listed here so that
// every front writes them from one table. A storage error answers
// "1\t1\t<handler error number>"; the numbers HandlerDB sends are in the
// table too (ErrDuplicateKey, ErrStorage), so this table holds every
// error reply the server can send. AppendHandlerError writes any other
// number.
type Error uint8

// The error replies, with the condition that gives each. See the package
// documentation for the order in which they are checked.
const (
	// ErrNone is no error.
	ErrNone Error = iota
	// ErrCmd (2 cmd): empty line, or a first token that is neither exactly
	// "P", nor exactly "A", nor starts with a digit.
	ErrCmd
	// ErrUnauth (3 unauth): the port requires authentication and the
	// connection has not authenticated (P and numeric commands), or A with
	// a wrong key.
	ErrUnauth
	// ErrAuthtype (3 authtype): A whose type token is not exactly "1".
	ErrAuthtype
	// ErrOpenTable (1 open_table): P naming an unknown database or table.
	ErrOpenTable
	// ErrIdxnum (2 idxnum): P naming an unknown index, or an index number
	// beyond the table's indexes.
	ErrIdxnum
	// ErrFld (2 fld): P naming an unknown column, in either column list.
	ErrFld
	// ErrStmtnum (2 stmtnum): request on an index id not open on this
	// connection.
	ErrStmtnum
	// ErrInvalueslen (2 invalueslen): IN clause whose value count is 0.
	ErrInvalueslen
	// ErrFiltertype (2 filtertype): filter type token longer than one byte
	// (it starts with F or W, or it would not be a filter).
	ErrFiltertype
	// ErrFilterfld (2 filterfld): filter column not below the number of
	// filter columns opened by P.
	ErrFilterfld
	// ErrOp (2 op): operation other than =, >, >=, <, <=, + and S.
	ErrOp
	// ErrKlen (2 klen): vlen is 0.
	ErrKlen
	// ErrReadonly (2 readonly): insert or modify on the read port.
	ErrReadonly
	// ErrModop (2 modop): modify operation whose first byte is not U, D, +
	// or -.
	ErrModop
	// ErrNotimpl (2 notimpl): operation S.
	ErrNotimpl
	// ErrLockTables (1 lock_tables): the plugin could not lock the tables.
	ErrLockTables
	// ErrTblnum (2 tblnum): the handle's table is no longer open.
	ErrTblnum
	// ErrKpnum (2 kpnum): vlen larger than the index's number of key parts.
	ErrKpnum
	// ErrFilterblob (2 filterblob): filter with a non-NULL value on a BLOB
	// or TEXT column.
	ErrFilterblob

	// The replies below are HandlerDB's own; the plugin has none of them.

	// ErrLinelen (2 linelen): a request line longer than the server's
	// limit; the connection is closed after it.
	ErrLinelen
	// ErrCommit (1 commit): the group commit holding the request failed;
	// the connection is closed after the batch.
	ErrCommit
	// ErrResultlen (1 resultlen): a find whose reply would exceed the
	// server's limit on one reply; nothing of it is sent, the connection
	// stays usable.
	ErrResultlen

	// The storage errors: the plugin sends the number its handler call
	// returned (a MySQL HA_ERR_* value).

	// ErrDuplicateKey (1 121): an insert or modify would give a unique
	// index a value it holds (HA_ERR_FOUND_DUPP_KEY, as the plugin).
	ErrDuplicateKey
	// ErrNoReferencedRow (1 151): an insert or modify would give a child
	// row a foreign key value its parent table does not hold
	// (HA_ERR_NO_REFERENCED_ROW, as the plugin over InnoDB).
	ErrNoReferencedRow
	// ErrRowIsReferenced (1 152): a modify or delete of a parent row that
	// child rows reference under ON DELETE / ON UPDATE RESTRICT
	// (HA_ERR_ROW_IS_REFERENCED).
	ErrRowIsReferenced
	// ErrFKDepth (1 193): a foreign key cascade nested more than 15
	// levels deep (HA_ERR_FK_DEPTH_EXCEEDED).
	ErrFKDepth
	// ErrStorage (1 1): any other storage failure. HandlerDB's own: the
	// plugin sends the handler's number (167 for HA_ERR_AUTOINC_ERANGE...).
	ErrStorage

	numErrors
)

var errorInfo = [numErrors]struct {
	code  uint32
	word  string
	cause string // what makes the server send it (docs/HANDLERSOCKET.md's table)
	line  string // the whole response line
}{
	ErrNone:            {0, "", "", "0\t1\n"},
	ErrCmd:             {2, "cmd", "an empty line, or a first token other than P, A or a number", ""},
	ErrUnauth:          {3, "unauth", "authentication required and not done, a wrong key, a back-off, or missing privileges", ""},
	ErrAuthtype:        {3, "authtype", "A with an authentication type other than 1", ""},
	ErrOpenTable:       {1, "open_table", "P names an unknown database or table", ""},
	ErrIdxnum:          {2, "idxnum", "P names an unknown index, or an index number past the table's", ""},
	ErrFld:             {2, "fld", "P names an unknown column", ""},
	ErrStmtnum:         {2, "stmtnum", "a request on an index id not opened on this connection", ""},
	ErrInvalueslen:     {2, "invalueslen", "an IN clause of 0 values", ""},
	ErrFiltertype:      {2, "filtertype", "a filter type token longer than one byte", ""},
	ErrFilterfld:       {2, "filterfld", "a filter column past the filter columns P opened", ""},
	ErrOp:              {2, "op", "an operation other than =, >, >=, <, <=, + and S", ""},
	ErrKlen:            {2, "klen", "a find with 0 key values", ""},
	ErrReadonly:        {2, "readonly", "an insert or modify on the read port", ""},
	ErrModop:           {2, "modop", "a modify operation other than U, D, + or - (with or without ?)", ""},
	ErrNotimpl:         {2, "notimpl", "operation S", ""},
	ErrLockTables:      {1, "lock_tables", "the plugin could not lock the tables (HandlerDB never sends it)", ""},
	ErrTblnum:          {2, "tblnum", "the handle's table was dropped, or its definition changed under a transaction", ""},
	ErrKpnum:           {2, "kpnum", "more key values than the index has columns", ""},
	ErrFilterblob:      {2, "filterblob", "a filter with a value on a BLOB or TEXT column", ""},
	ErrLinelen:         {2, "linelen", "a request line longer than 16 MiB; the connection is closed", ""},
	ErrCommit:          {1, "commit", "the group commit holding the request failed; the connection is closed", ""},
	ErrResultlen:       {1, "resultlen", "a find whose reply would exceed --handlersocket-max-response", ""},
	ErrDuplicateKey:    {1, "121", "an insert or update that would duplicate a primary or unique key", ""},
	ErrNoReferencedRow: {1, "151", "an insert or update of a child row whose foreign key finds no parent row", ""},
	ErrRowIsReferenced: {1, "152", "an update or delete of a parent row that child rows reference (ON DELETE / ON UPDATE RESTRICT)", ""},
	ErrFKDepth:         {1, "193", "a foreign key cascade nested more than 15 levels deep", ""},
	ErrStorage:         {1, "1", "any other storage failure (see the engine conditions below)", ""},
}

func init() {
	for e := ErrCmd; e < numErrors; e++ {
		in := &errorInfo[e]
		in.line = string(rune('0'+in.code)) + "\t1\t" + in.word + "\n"
	}
}

// Errors returns every error reply, ErrNone excepted, in table order.
func Errors() []Error {
	out := make([]Error, 0, numErrors-1)
	for e := ErrCmd; e < numErrors; e++ {
		out = append(out, e)
	}
	return out
}

// ErrorOf returns the error reply with code and word, and false when the
// table has none (a handler number HandlerDB does not send, say).
func ErrorOf(code uint32, word string) (Error, bool) {
	for e := ErrCmd; e < numErrors; e++ {
		if in := &errorInfo[e]; in.code == code && in.word == word {
			return e, true
		}
	}
	return ErrNone, false
}

// Cause says in a few words what makes the server send the reply.
func (e Error) Cause() string {
	return errorInfo[e].cause
}

// Code is the numeric code sent first in the reply (0 for ErrNone).
func (e Error) Code() uint32 {
	return errorInfo[e].code
}

// Word is the word sent last in the reply ("" for ErrNone).
func (e Error) Word() string {
	return errorInfo[e].word
}

// String returns the word, or "none" for ErrNone.
func (e Error) String() string {
	if e == ErrNone {
		return "none"
	}
	return e.Word()
}
