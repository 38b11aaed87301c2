package hsproto

import "bytes"

// NextLine returns the first complete request line of buf and the bytes
// after it. A line ends at the first LF; a single CR right before that LF
// is dropped, a CR anywhere else is data. line excludes the terminator and
// is never longer than needed (its capacity ends with it), so the caller
// may hand it to Request.Parse, which rewrites it in place.
//
// When buf holds no LF, ok is false, line is nil and rest is buf: the
// caller keeps those bytes until more arrive. An empty line is a complete
// line (and gets a response, 2 1 cmd).
func NextLine(buf []byte) (line, rest []byte, ok bool) {
	return NextLineFrom(buf, 0)
}

// NextLineFrom is NextLine for a buffer whose first from bytes are known
// to hold no LF, which saves scanning a long partial line again each time
// more bytes are appended to it: after NextLine or NextLineFrom returned
// ok == false for rest, pass from = len(rest) once new bytes have been
// appended to rest. from is clamped to [0, len(buf)].
func NextLineFrom(buf []byte, from int) (line, rest []byte, ok bool) {
	if from < 0 {
		from = 0
	}
	if from > len(buf) {
		from = len(buf)
	}
	i := bytes.IndexByte(buf[from:], '\n')
	if i < 0 {
		return nil, buf, false
	}
	i += from
	end := i
	if end > 0 && buf[end-1] == '\r' {
		end--
	}
	return buf[:end:end], buf[i+1:], true
}

// IsCloseRequest reports whether the plugin would close the connection
// without replying: it looks at the first byte of the connection's whole
// unprocessed input (a partial line left over plus the bytes just read),
// once after each read and before any line of it is executed, and closes
// when that byte is '/'. Everything still buffered is dropped and nothing
// is answered. A '/' at the start of a later line in the same buffer is an
// ordinary (unknown) command.
//
// The plugin also stops its whole listener when that byte is 'Q'; HandlerDB
// deliberately does not, and such a line simply gets 2 1 cmd.
func IsCloseRequest(buffered []byte) bool {
	return len(buffered) > 0 && buffered[0] == '/'
}
