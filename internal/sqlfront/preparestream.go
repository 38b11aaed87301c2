package sqlfront

import (
	"bufio"
	"encoding/binary"
	"io"
	"strings"
)

// The vitess listener parses every COM_STMT_PREPARE with its own grammar
// (to count the placeholders) before any handler sees it, and that
// grammar has no INSERT ... RETURNING, which GORM sends for every create
// to a MariaDB of 10.5 or later: the client got a syntax error. On a
// plain-text connection, prepareStream, under the connection's reads,
// hides a RETURNING clause of a prepared INSERT in a comment vitess skips
// (/*hdb:RETURNING ...*/, the packet's length fixed up), and the guarded
// parser takes the comment out again before it parses (unmarkReturning),
// so go-mysql-server gets the statement as written. A prepared DO, which
// that grammar lacks too, becomes a marked SELECT (markDo). A connection that
// asks for TLS or compression is passed through untouched from its first
// packet on (its bytes after that are not packets). Placeholders inside
// the RETURNING list are not counted by vitess, and so not accepted.
//
// A prepareStream is used by the connection's one reading goroutine.

const returningMark = "/*hdb:"

// prepareStream frames the client's packets of one connection, reading
// through a small buffer of its own (a packet's header and command byte
// are read apart from its body; the buffer keeps that to one read of the
// socket).
type prepareStream struct {
	r      io.Reader
	br     *bufio.Reader
	off    bool   // TLS or compression: bytes pass as they come
	first  bool   // the first packet (the handshake response) was seen
	out    []byte // bytes ready to hand out
	err    error  // what to answer once out is handed out
	remain int    // bytes of the current packet to pass through unread
}

const (
	streamBuffer = 4 << 10
	capCompress  = 0x20
	capSSL       = 0x800
	comPrepare   = 0x16
	maxPayload   = 0xffffff
)

// Read hands out the stream, rewritten as described above. A packet cut
// short by the end of the stream (or a read error) is handed out as far
// as it came, then the error.
func (s *prepareStream) Read(b []byte) (int, error) {
	if s.br == nil {
		s.br = bufio.NewReaderSize(s.r, streamBuffer)
	}
	for {
		if len(s.out) > 0 {
			n := copy(b, s.out)
			s.out = s.out[n:]
			return n, nil
		}
		if s.err != nil {
			return 0, s.err
		}
		if s.off {
			return s.br.Read(b)
		}
		if s.remain > 0 {
			n, err := s.br.Read(b[:min(len(b), s.remain)])
			s.remain -= n
			return n, err
		}
		hdr, ok := s.read(nil, 4)
		if !ok {
			continue
		}
		plen := int(hdr[0]) | int(hdr[1])<<8 | int(hdr[2])<<16
		if !s.first {
			// The handshake response (or the request for TLS): read it
			// whole, it is short, and decide from its capabilities.
			s.first = true
			pkt, ok := s.read(hdr, plen)
			if !ok {
				s.off = true
				continue
			}
			if plen < 4 || binary.LittleEndian.Uint32(pkt[4:])&(capSSL|capCompress) != 0 {
				s.off = true
			}
			s.out = pkt
			continue
		}
		if hdr[3] != 0 || plen == 0 || plen >= maxPayload {
			s.out, s.remain = hdr, plen
			continue
		}
		pkt, ok := s.read(hdr, 1)
		if !ok {
			continue
		}
		if pkt[4] != comPrepare {
			s.out, s.remain = pkt, plen-1
			continue
		}
		if pkt, ok = s.read(pkt, plen-1); !ok {
			continue
		}
		if q, ok := markPrepared(string(pkt[5:])); ok && len(q)+1 < maxPayload {
			n := len(q) + 1
			pkt = append([]byte{byte(n), byte(n >> 8), byte(n >> 16), 0, comPrepare}, q...)
		}
		s.out = pkt
	}
}

// read appends n bytes of the stream to buf; ok is false when the stream
// ended or failed first, the bytes read so far then waiting in out and
// the error in err.
func (s *prepareStream) read(buf []byte, n int) ([]byte, bool) {
	start := len(buf)
	buf = append(buf, make([]byte, n)...)
	got, err := io.ReadFull(s.br, buf[start:])
	if err != nil {
		s.out, s.err = buf[:start+got], err
		if err == io.ErrUnexpectedEOF {
			s.err = io.EOF
		}
		return nil, false
	}
	return buf, true
}

// markPrepared is q as vitess is given it to prepare: with a RETURNING
// clause hidden (markReturning), or DO as a marked SELECT (markDo); ok is
// false when q is neither.
func markPrepared(q string) (string, bool) {
	if q2, ok := markReturning(q); ok {
		return q2, true
	}
	return markDo(q)
}

// doMark starts the text of a prepared DO: vitess's grammar has no DO
// (DO RELEASE_LOCK(?) is common), so DO expr, ... is prepared as the
// SELECT of its expressions, which ComPrepare answers with no columns and
// ComStmtExecute runs with its rows dropped (wire.go).
const doMark = "/*hdb:DO*/SELECT"

// markDo turns DO expr[, ...] into doMark expr[, ...]; ok is false for
// any other statement.
func markDo(q string) (string, bool) {
	t := strings.TrimLeft(q, " \t\r\n")
	if len(t) < 3 || !strings.EqualFold(t[:2], "DO") || !isBlank(t[2]) && t[2] != '(' {
		return q, false
	}
	return doMark + t[2:], true
}

// markReturning hides the RETURNING clause of an INSERT in a comment; ok
// is false when q has none (or the clause holds a comment's end).
func markReturning(q string) (string, bool) {
	if firstWord(q) != "insert" {
		return q, false
	}
	at := returningAt(q)
	if at < 0 || strings.Contains(q[at:], "*/") {
		return q, false
	}
	end := len(strings.TrimRight(q, " \t\r\n;"))
	if end <= at+len("returning") {
		return q, false // the word, and no list: an alias
	}
	return q[:at] + returningMark + q[at:end] + "*/" + q[end:], true
}

// unmarkReturning is q with a RETURNING clause markReturning hid put back.
func unmarkReturning(q string) string {
	i := strings.Index(q, returningMark)
	if i < 0 {
		return q
	}
	rest := q[i+len(returningMark):]
	if len(rest) < len("returning") || !strings.EqualFold(rest[:len("returning")], "returning") {
		return q
	}
	j := strings.LastIndex(q, "*/")
	if j < i {
		return q
	}
	return q[:i] + q[i+len(returningMark):j] + q[j+2:]
}
