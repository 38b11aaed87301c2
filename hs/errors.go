package hs

import (
	"errors"
	"math"
	"strconv"

	"github.com/handlerdb/handlerdb/internal/hsproto"
)

// ServerError is an error reply of the server: the line
// "<Code>\t1\t<Token>". Code 1 with a numeric Token is a storage engine
// error (Token is the MySQL handler error number, 121 for a duplicate key);
// the other tokens are HandlerSocket's own words.
//
// Every error reply the client receives is a *ServerError, so errors.As
// gives access to Code and Token. errors.Is matches it against the
// sentinels below (ErrStmtnum, ErrDuplicateKey, ...) by Code and Token, so
// a reply the client does not know still compares equal to a ServerError
// with the same Code and Token.
type ServerError struct {
	// Code is the error code the server sent first: 1 for a failure to
	// open a table or a storage error, 2 for a malformed or refused
	// request, 3 for authentication.
	Code int
	// Token is the word (or handler error number) the server sent last.
	Token string
}

// Error returns a text such as "hs: 2 stmtnum (index id not opened on this
// connection)".
func (e *ServerError) Error() string {
	s := "hs: server error " + strconv.Itoa(e.Code) + " " + e.Token
	if d := describe(e.Code, e.Token); d != "" {
		s += " (" + d + ")"
	}
	return s
}

// Is reports whether target is a *ServerError with the same Code and Token.
func (e *ServerError) Is(target error) bool {
	t, ok := target.(*ServerError)
	return ok && t.Code == e.Code && t.Token == e.Token
}

// HandlerErrno returns the MySQL handler error number of a storage error
// (Code 1 and a numeric Token, e.g. 121), and false for every other reply.
func (e *ServerError) HandlerErrno() (int, bool) {
	if e.Code != 1 {
		return 0, false
	}
	n, err := strconv.Atoi(e.Token)
	return n, err == nil
}

// The server's error replies, one per token, made from the server's own
// table of replies (internal/hsproto) so that their codes and tokens are
// the ones it sends. Each is a *ServerError; test for them with
// errors.Is.
var (
	// ErrOpenTable (1 open_table): opening an index named a database or
	// table that does not exist (names are case sensitive).
	ErrOpenTable = sentinel(hsproto.ErrOpenTable)
	// ErrIdxnum (2 idxnum): opening an index named an index the table does
	// not have (names are case sensitive; the primary key is "PRIMARY"),
	// or an index number beyond the table's indexes.
	ErrIdxnum = sentinel(hsproto.ErrIdxnum)
	// ErrFld (2 fld): opening an index named a column the table does not
	// have, in the column list or the filter-column list (names are case
	// sensitive; an empty name also fails).
	ErrFld = sentinel(hsproto.ErrFld)
	// ErrStmtnum (2 stmtnum): a request named an index id that is not open
	// on the connection. The client opens every index it uses, so this
	// only shows when the server forgot the handle (it restarted the
	// connection's state) or a raw request was sent.
	ErrStmtnum = sentinel(hsproto.ErrStmtnum)
	// ErrOp (2 op): the find operation is not one of =, >, >=, <, <=.
	ErrOp = sentinel(hsproto.ErrOp)
	// ErrKlen (2 klen): a find or insert with no values at all (the key or
	// the row is empty).
	ErrKlen = sentinel(hsproto.ErrKlen)
	// ErrKpnum (2 kpnum): a find gave more key values than the index has
	// key parts.
	ErrKpnum = sentinel(hsproto.ErrKpnum)
	// ErrReadonly (2 readonly): an insert, update, delete, increment or
	// decrement was sent to the read port. The client sends writes to the
	// write port; this shows when the write address points at a read port.
	ErrReadonly = sentinel(hsproto.ErrReadonly)
	// ErrModop (2 modop): the modify operation is not U, D, + or -.
	ErrModop = sentinel(hsproto.ErrModop)
	// ErrInvalueslen (2 invalueslen): an IN clause with no values.
	ErrInvalueslen = sentinel(hsproto.ErrInvalueslen)
	// ErrFilterfld (2 filterfld): a filter names a filter column that the
	// index was not opened with. The client reports this itself, wrapped,
	// when a Filter names a column missing from the index's filter columns.
	ErrFilterfld = sentinel(hsproto.ErrFilterfld)
	// ErrFiltertype (2 filtertype): a filter type other than F or W.
	ErrFiltertype = sentinel(hsproto.ErrFiltertype)
	// ErrFilterblob (2 filterblob): a filter compares a BLOB or TEXT column
	// with a non-NULL value, which HandlerSocket does not support.
	ErrFilterblob = sentinel(hsproto.ErrFilterblob)
	// ErrNotimpl (2 notimpl): the operation exists in the protocol but the
	// server does not implement it (op S).
	ErrNotimpl = sentinel(hsproto.ErrNotimpl)
	// ErrUnauth (3 unauth): the port requires authentication and the
	// connection has not authenticated, or the secret (or user:password)
	// given to the port is wrong. On a port without a secret, a non-empty
	// secret is refused with this error too.
	ErrUnauth = sentinel(hsproto.ErrUnauth)
	// ErrAuthtype (3 authtype): an authentication request whose type is
	// not 1 (plain secret).
	ErrAuthtype = sentinel(hsproto.ErrAuthtype)
	// ErrCmd (2 cmd): the request line is empty or starts with an unknown
	// command.
	ErrCmd = sentinel(hsproto.ErrCmd)
	// ErrLinelen (2 linelen): HandlerDB refused a request line longer than
	// its limit (16 MiB by default) and closed the connection.
	ErrLinelen = sentinel(hsproto.ErrLinelen)
	// ErrLockTables (1 lock_tables): the server could not lock the table
	// for the request.
	ErrLockTables = sentinel(hsproto.ErrLockTables)
	// ErrTblnum (2 tblnum): the index's table is no longer open on the
	// server (dropped or renamed since the index was opened).
	ErrTblnum = sentinel(hsproto.ErrTblnum)
	// ErrCommit (1 commit): HandlerDB could not commit the group of writes
	// holding the request; nothing of the request was applied, and the
	// server closes the connection after answering its batch.
	ErrCommit = sentinel(hsproto.ErrCommit)
	// ErrResultlen (1 resultlen): a find's reply would have exceeded
	// HandlerDB's limit on one reply (16 MiB by default); nothing of it
	// was sent and the connection stays usable (ask for fewer rows).
	ErrResultlen = sentinel(hsproto.ErrResultlen)
	// ErrDuplicateKey (1 121): an insert or update would give a unique
	// index (the primary key included) a value it already holds. Rows an
	// update changed before the failing one stay changed.
	ErrDuplicateKey = sentinel(hsproto.ErrDuplicateKey)
	// ErrNoReferencedRow (1 151): an insert or update would give a child
	// row a foreign key value its parent table does not hold.
	ErrNoReferencedRow = sentinel(hsproto.ErrNoReferencedRow)
	// ErrRowIsReferenced (1 152): an update or delete of a parent row
	// that child rows reference under RESTRICT. Rows the request changed
	// before stay changed.
	ErrRowIsReferenced = sentinel(hsproto.ErrRowIsReferenced)
	// ErrFKDepth (1 193): a foreign key cascade would nest more than 15
	// levels deep.
	ErrFKDepth = sentinel(hsproto.ErrFKDepth)
	// ErrStorage (1 1): HandlerDB's storage engine failed otherwise (an
	// auto-increment column out of values, a closed or failing store).
	ErrStorage = sentinel(hsproto.ErrStorage)
)

// serverErrors lists the sentinels, so that a reply maps to the shared
// value without allocating; sentinel fills it while the package
// initializes.
var serverErrors []*ServerError

// sentinel returns the *ServerError of one of the server's replies.
func sentinel(e hsproto.Error) *ServerError {
	s := &ServerError{Code: int(e.Code()), Token: e.Word()}
	serverErrors = append(serverErrors, s)
	return s
}

// serverError returns the error for a reply's code and token: a shared
// sentinel when it is a known one, else a new *ServerError.
func serverError(code int, token []byte) *ServerError {
	for _, e := range serverErrors {
		if e.Code == code && e.Token == string(token) {
			return e
		}
	}
	return &ServerError{Code: code, Token: string(token)}
}

// descriptions say what each reply means, for ServerError.Error.
var descriptions = map[hsproto.Error]string{
	hsproto.ErrOpenTable:       "unknown database or table",
	hsproto.ErrIdxnum:          "unknown index",
	hsproto.ErrFld:             "unknown column",
	hsproto.ErrStmtnum:         "index id not opened on this connection",
	hsproto.ErrOp:              "unknown find operation",
	hsproto.ErrKlen:            "no key or row values",
	hsproto.ErrKpnum:           "more key values than the index has key parts",
	hsproto.ErrReadonly:        "write request on the read port",
	hsproto.ErrModop:           "unknown modify operation",
	hsproto.ErrInvalueslen:     "IN clause without values",
	hsproto.ErrFilterfld:       "filter column not opened",
	hsproto.ErrFiltertype:      "unknown filter type",
	hsproto.ErrFilterblob:      "filter value on a BLOB/TEXT column",
	hsproto.ErrNotimpl:         "not implemented",
	hsproto.ErrUnauth:          "not authenticated or wrong secret",
	hsproto.ErrAuthtype:        "unknown authentication type",
	hsproto.ErrCmd:             "unknown command",
	hsproto.ErrLinelen:         "request line too long",
	hsproto.ErrLockTables:      "could not lock the table",
	hsproto.ErrTblnum:          "table no longer open",
	hsproto.ErrCommit:          "group commit failed",
	hsproto.ErrResultlen:       "reply too large",
	hsproto.ErrDuplicateKey:    "duplicate key",
	hsproto.ErrNoReferencedRow: "foreign key: no parent row",
	hsproto.ErrRowIsReferenced: "foreign key: child rows reference the row",
	hsproto.ErrFKDepth:         "foreign key cascade too deep",
	hsproto.ErrStorage:         "storage engine error",
}

func describe(code int, token string) string {
	if code < 0 || code > math.MaxUint32 {
		return ""
	}
	e, ok := hsproto.ErrorOf(uint32(code), token)
	if !ok {
		return ""
	}
	return descriptions[e]
}

// Errors of the client itself.
var (
	// ErrNotFound is returned by Get (and FindCmd.Row) when no row matches
	// the key.
	ErrNotFound = errors.New("hs: no row found")
	// ErrClosed is returned by every call on a Client after Close.
	ErrClosed = errors.New("hs: client closed")
	// ErrNoWriteAddr is returned by a write (or a pipeline holding one)
	// when the client has no write address.
	ErrNoWriteAddr = errors.New("hs: no write address configured")
	// ErrNoAddr is returned by New when neither a read nor a write address
	// is given.
	ErrNoAddr = errors.New("hs: no address configured")
	// ErrProtocol is wrapped by errors about a reply the client could not
	// understand (the connection is then closed, since requests and replies
	// may no longer line up).
	ErrProtocol = errors.New("hs: protocol error")
	// ErrValue is wrapped by errors about a Go value that cannot be sent
	// (an unsupported type) or a name that cannot appear in a request (a
	// database, table, index or column name holding a TAB, LF, comma or a
	// byte below 0x10).
	ErrValue = errors.New("hs: invalid value")
)
