package hs

import (
	"errors"
	"strconv"
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

// The server's error replies, one per token. Each is a *ServerError; test
// for them with errors.Is.
var (
	// ErrOpenTable (1 open_table): opening an index named a database or
	// table that does not exist (names are case sensitive).
	ErrOpenTable = &ServerError{1, "open_table"}
	// ErrIdxnum (2 idxnum): opening an index named an index the table does
	// not have (names are case sensitive; the primary key is "PRIMARY"),
	// or an index number beyond the table's indexes.
	ErrIdxnum = &ServerError{2, "idxnum"}
	// ErrFld (2 fld): opening an index named a column the table does not
	// have, in the column list or the filter-column list (names are case
	// sensitive; an empty name also fails).
	ErrFld = &ServerError{2, "fld"}
	// ErrStmtnum (2 stmtnum): a request named an index id that is not open
	// on the connection. The client opens every index it uses, so this
	// only shows when the server forgot the handle (it restarted the
	// connection's state) or a raw request was sent.
	ErrStmtnum = &ServerError{2, "stmtnum"}
	// ErrOp (2 op): the find operation is not one of =, >, >=, <, <=.
	ErrOp = &ServerError{2, "op"}
	// ErrKlen (2 klen): a find or insert with no values at all (the key or
	// the row is empty).
	ErrKlen = &ServerError{2, "klen"}
	// ErrKpnum (2 kpnum): a find gave more key values than the index has
	// key parts.
	ErrKpnum = &ServerError{2, "kpnum"}
	// ErrReadonly (2 readonly): an insert, update, delete, increment or
	// decrement was sent to the read port. The client sends writes to the
	// write port; this shows when the write address points at a read port.
	ErrReadonly = &ServerError{2, "readonly"}
	// ErrModop (2 modop): the modify operation is not U, D, + or -.
	ErrModop = &ServerError{2, "modop"}
	// ErrInvalueslen (2 invalueslen): an IN clause with no values.
	ErrInvalueslen = &ServerError{2, "invalueslen"}
	// ErrFilterfld (2 filterfld): a filter names a filter column that the
	// index was not opened with. The client reports this itself, wrapped,
	// when a Filter names a column missing from the index's filter columns.
	ErrFilterfld = &ServerError{2, "filterfld"}
	// ErrFiltertype (2 filtertype): a filter type other than F or W.
	ErrFiltertype = &ServerError{2, "filtertype"}
	// ErrFilterblob (2 filterblob): a filter compares a BLOB or TEXT column
	// with a non-NULL value, which HandlerSocket does not support.
	ErrFilterblob = &ServerError{2, "filterblob"}
	// ErrNotimpl (2 notimpl): the operation exists in the protocol but the
	// server does not implement it (op S).
	ErrNotimpl = &ServerError{2, "notimpl"}
	// ErrUnauth (3 unauth): the port requires authentication and the
	// connection has not authenticated, or the secret (or user:password)
	// given to the port is wrong. On a port without a secret, a non-empty
	// secret is refused with this error too.
	ErrUnauth = &ServerError{3, "unauth"}
	// ErrAuthtype (3 authtype): an authentication request whose type is
	// not 1 (plain secret).
	ErrAuthtype = &ServerError{3, "authtype"}
	// ErrCmd (2 cmd): the request line is empty or starts with an unknown
	// command.
	ErrCmd = &ServerError{2, "cmd"}
	// ErrLinelen (2 linelen): HandlerDB refused a request line longer than
	// its limit (16 MiB by default) and closed the connection.
	ErrLinelen = &ServerError{2, "linelen"}
	// ErrLockTables (1 lock_tables): the server could not lock the table
	// for the request.
	ErrLockTables = &ServerError{1, "lock_tables"}
	// ErrTblnum (2 tblnum): the index's table is no longer open on the
	// server (dropped or renamed since the index was opened).
	ErrTblnum = &ServerError{2, "tblnum"}
	// ErrDuplicateKey (1 121): an insert or update would give a unique
	// index (the primary key included) a value it already holds. Rows an
	// update changed before the failing one stay changed.
	ErrDuplicateKey = &ServerError{1, "121"}
)

// serverErrors lists the sentinels so that a reply maps to the shared value
// without allocating.
var serverErrors = []*ServerError{
	ErrOpenTable, ErrIdxnum, ErrFld, ErrStmtnum, ErrOp, ErrKlen, ErrKpnum,
	ErrReadonly, ErrModop, ErrInvalueslen, ErrFilterfld, ErrFiltertype,
	ErrFilterblob, ErrNotimpl, ErrUnauth, ErrAuthtype, ErrCmd, ErrLinelen,
	ErrLockTables, ErrTblnum, ErrDuplicateKey,
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

func describe(code int, token string) string {
	switch token {
	case "open_table":
		return "unknown database or table"
	case "idxnum":
		return "unknown index"
	case "fld":
		return "unknown column"
	case "stmtnum":
		return "index id not opened on this connection"
	case "op":
		return "unknown find operation"
	case "klen":
		return "no key or row values"
	case "kpnum":
		return "more key values than the index has key parts"
	case "readonly":
		return "write request on the read port"
	case "modop":
		return "unknown modify operation"
	case "invalueslen":
		return "IN clause without values"
	case "filterfld":
		return "filter column not opened"
	case "filtertype":
		return "unknown filter type"
	case "filterblob":
		return "filter value on a BLOB/TEXT column"
	case "notimpl":
		return "not implemented"
	case "unauth":
		return "not authenticated or wrong secret"
	case "authtype":
		return "unknown authentication type"
	case "cmd":
		return "unknown command"
	case "linelen":
		return "request line too long"
	case "lock_tables":
		return "could not lock the table"
	case "tblnum":
		return "table no longer open"
	case "121":
		if code == 1 {
			return "duplicate key"
		}
	}
	return ""
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
