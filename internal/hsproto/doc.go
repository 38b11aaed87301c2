// Package hsproto is the HandlerSocket wire codec: it frames request lines,
// parses them into a reusable Request without allocating, decodes and
// encodes values, and appends responses to a caller-owned buffer. It does
// no I/O and knows nothing of tables; internal/hsfront runs connections and
// executes requests on top of it.
//
// Everything here reproduces the MariaDB 10.11 HandlerSocket plugin byte
// for byte; testdata/conformance (NOTES.md and the recorded cases) is the
// reference. Where this package's documentation and a recorded case
// disagree, the case wins.
//
// # Connection loop
//
// A connection reads whatever is available, appends it to its buffer and
// then answers every complete line, in order, with exactly one response
// line each:
//
//	if hsproto.IsCloseRequest(buf) { close without replying }
//	for {
//		line, rest, ok := hsproto.NextLine(buf)
//		if !ok { break } // buf holds a partial line: keep it for the next read
//		req.Parse(line)  // decodes values in place inside line
//		out = execute(&req, out)
//		buf = rest
//	}
//	write(out)
//
// Parse never fails: every malformed line still yields a Request whose
// fields say what the plugin would answer, once the executor has added
// what only it knows (which index ids are open, the port, the table).
//
// # Check precedence
//
// The plugin checks a request in a fixed order and answers the first
// failure only. The executor must follow the same order to give the same
// bytes. For each line:
//
//  1. Any line: Request.Cmd is CmdInvalid: 2 cmd (empty line, empty first
//     token, or a first token that is not exactly "P", not exactly "A" and
//     does not start with a digit). Unknown commands get cmd even before
//     authentication.
//  2. CmdAuth: Request.CheckAuth: 3 authtype (type token not exactly "1";
//     the connection's state is left alone), else 3 unauth (wrong key: the
//     connection loses any earlier authorisation), else 0 1 (authorised).
//     A is never refused for lack of authorisation.
//  3. CmdOpen: 3 unauth if the port has a secret and the connection is not
//     authorised; then, in the executor: 1 open_table (database or table
//     unknown), 2 idxnum (index name unknown or number out of range; see
//     Request.IndexNumber), 2 fld (a name of Columns unknown), 2 fld (a
//     name of FilterColumns unknown). Only a successful open creates or
//     replaces the handle.
//
// CmdExec (find, insert, modify) goes through Request.CheckExec, given an
// ExecEnv, which applies steps 4 to 11 in this order:
//
//  4. 3 unauth, as for CmdOpen.
//  5. 2 stmtnum when ID is not below the connection's slot count (one more
//     than the highest id ever opened successfully on it).
//  6. 2 invalueslen: IN clause whose count is 0.
//  7. For each filter in order: 2 filtertype (type token longer than one
//     byte), then 2 filterfld (column not below the handle's number of
//     filter columns, which is 0 when the id is a hole: below the slot
//     count but never opened).
//  8. 2 stmtnum for such a hole.
//  9. 2 op: Op is OpInvalid.
//  10. 2 klen: VLen is 0.
//  11. By operation. S: 2 notimpl, on either port. +: 2 readonly on the read
//     port; an insert ignores its modify part, IN and filters (though step
//     6 and 7 still apply). Find ops with a modify part (Mod != ModNone): 2
//     readonly on the read port, then 2 modop for ModInvalid.
//
// Then the executor goes on, for finds:
//
//  12. 2 kpnum: VLen larger than the number of key parts of the index.
//  13. 2 filterblob: a filter with a non-NULL value on a BLOB/TEXT column.
//  14. The scan and the changes. Storage errors answer 1 1 <handler error
//     number> (121 duplicate key); a find that fails part way drops the
//     rows already appended (truncate the output back to where the header
//     began) and answers only the error. Changes already made stay.
//
// # Numbers
//
// ParseUint32 is the lenient parser used for ids, vlen, limit, offset, IN
// column and count and filter column: every non-digit byte is skipped and
// the value wraps at 32 bits. ParseInt64 reads the +/- amounts of a modify:
// one optional sign, then digits up to the first non-digit, wrapping at 64
// bits. Request.IndexNumber reads a numeric index name like C atoi.
//
// # Values
//
// A value token is decoded by DecodeToken: a token of exactly one 0x00
// byte is NULL; otherwise 0x01 followed by a byte b >= 0x40 stands for
// b-0x40 and decoding stops silently at a bad escape. Tokens are split on
// every single TAB, so two TABs make an empty (not NULL) token. Responses
// encode values with AppendField (NULL as a lone 0x00).
//
// # Responses
//
// Every response line has the shape "errcode TAB numcols [TAB value...]
// LF". AppendOK, AppendOKNum, AppendError, AppendHandlerError and, for
// rows, AppendResultHeader, AppendField and AppendEnd write them into a
// caller-owned buffer; they allocate only when that buffer must grow.
//
// # Ownership
//
// A Request's byte slices alias the line passed to Parse, which Parse
// modifies (values are decoded in place). They are valid until that buffer
// is reused; parsing the same bytes twice decodes them twice. The Request
// keeps its slices' capacity across calls, so parsing allocates only while
// a connection sees requests larger than any before.
package hsproto
