package hsproto

import "crypto/subtle"

// ExecEnv is what the executor knows about the connection and the handle a
// CmdExec request names, which CheckExec needs to find the error the plugin
// would answer first.
type ExecEnv struct {
	// Unauthenticated: the port has a secret and the connection has not
	// authenticated (3 unauth).
	Unauthenticated bool
	// ReadOnly: the request arrived on the read port.
	ReadOnly bool
	// Slots is one more than the highest index id ever opened successfully
	// on this connection (0 when none was). The plugin keeps its handles
	// in an array grown by each successful open and never shrunk while the
	// connection lives; an id at or beyond its end gets 2 stmtnum before
	// anything else is looked at, while an id inside it that was never
	// opened (a hole) gets 2 stmtnum only after the IN and filter checks.
	Slots uint64
	// Opened: a handle is open under the request's ID.
	Opened bool
	// FilterColumns is the number of filter columns that handle was opened
	// with (ignored unless Opened: a hole has none).
	FilterColumns int
}

// ClauseError returns the first error among the checks the plugin makes
// while reading the IN clause and the filters, given the number of filter
// columns of the handle (0 for a hole): 2 invalueslen, then for each
// filter in order 2 filtertype or 2 filterfld. ErrNone when none applies.
func (r *Request) ClauseError(numFilterColumns int) Error {
	if r.SyntaxErr == ErrInvalueslen {
		return ErrInvalueslen
	}
	n := uint64(0)
	if numFilterColumns > 0 {
		n = uint64(numFilterColumns)
	}
	// Parsing stopped at the filter with a bad type: every filter before
	// it was read in full (and had its column checked) first.
	for i := range r.Filters {
		if uint64(r.Filters[i].Col) >= n {
			return ErrFilterfld
		}
	}
	return r.SyntaxErr
}

// CheckExec returns the error the plugin answers to this CmdExec request
// before it touches the table, in the plugin's order (see the package
// documentation): unauth, stmtnum (beyond Slots), invalueslen, filtertype
// and filterfld, stmtnum (a hole), op, klen, then notimpl for S, readonly
// for an insert on the read port, and readonly then modop for a find with
// a modify part. ErrNone means the request goes on to the executor's own
// checks (kpnum, filterblob) and runs. For another Cmd it returns ErrCmd.
func (r *Request) CheckExec(env ExecEnv) Error {
	if r.Cmd != CmdExec {
		return ErrCmd
	}
	if env.Unauthenticated {
		return ErrUnauth
	}
	if uint64(r.ID) >= env.Slots {
		return ErrStmtnum
	}
	nf := 0
	if env.Opened {
		nf = env.FilterColumns
	}
	if e := r.ClauseError(nf); e != ErrNone {
		return e
	}
	if !env.Opened {
		return ErrStmtnum
	}
	if r.Op == OpInvalid {
		return ErrOp
	}
	if r.VLen == 0 {
		return ErrKlen
	}
	switch r.Op {
	case OpSQL:
		return ErrNotimpl
	case OpInsert:
		// An insert ignores any modify part.
		if env.ReadOnly {
			return ErrReadonly
		}
		return ErrNone
	}
	if r.Mod != ModNone {
		if env.ReadOnly {
			return ErrReadonly
		}
		if r.Mod == ModInvalid {
			return ErrModop
		}
	}
	return ErrNone
}

// CheckAuth answers a CmdAuth request for a port whose secret is secret
// (empty when the port has none): ErrAuthtype when the type token is not
// exactly "1" (the connection's state must be left as it was), ErrUnauth
// when the key does not match (the connection is no longer authorised,
// even if it was), ErrNone when it does (the connection is authorised;
// answer "0\t1\n"). On a port without a secret only an empty key matches,
// and nothing is ever refused for lack of authorisation there.
//
// The key is compared as the plugin does: the secret must have the length
// of the raw key token and equal the bytes the token's span holds after
// in-place decoding (the decoded key followed by the raw token's tail), so
// a key holding escapes only matches a secret with that odd tail.
func (r *Request) CheckAuth(secret []byte) Error {
	if r.Cmd != CmdAuth {
		return ErrCmd
	}
	if len(r.AuthType) != 1 || r.AuthType[0] != '1' {
		return ErrAuthtype
	}
	// Constant time: the comparison must not tell how much of a guess
	// was right.
	if subtle.ConstantTimeCompare(secret, r.authWindow) != 1 {
		return ErrUnauth
	}
	return ErrNone
}
