package hsfront

import (
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/hsproto"
	"github.com/handlerdb/handlerdb/internal/types"
)

// lookahead is the state of a read connection's look-ahead over its
// buffer (see session.prefetch); part of its scratch, so touched only by
// what serves the connection.
type lookahead struct {
	pf     engine.Prefetcher
	tokens []hsproto.Value
	keys   []types.Value
	bufs   [][]byte
}

// aheadLines is how many lines one look-ahead covers (engine.Prefetcher
// takes up to 16 lookups at once).
const aheadLines = 16

// prefetch looks ahead over the complete lines at the start of buf: the
// point finds among them on open handles have their row-cache memory
// requested now (engine.Prefetcher), so that their memory latencies
// overlap when they run. It returns how many lines it covered; a buffer
// of one line is left alone, as there is nothing to overlap it with.
//
// The lines are read by hsproto.PeekFind, which changes nothing in the
// buffer (Parse, which decodes escapes in place, reads each line once
// when it runs). What is read here is only a hint: an escaped key, a
// handle reopened or a table changed in between makes a prefetch useless,
// never a find wrong.
func (ss *session) prefetch(sc *scratch, buf []byte) int {
	line, rest, ok := hsproto.NextLine(buf)
	if !ok {
		return 0
	}
	if _, _, more := hsproto.NextLine(rest); !more {
		return 1
	}
	la := &sc.ahead
	n := 0
	for ; ok && n < aheadLines; n++ {
		ss.hint(la, line)
		line, rest, ok = hsproto.NextLine(rest)
	}
	la.pf.Issue()
	return n
}

// hint adds line's lookup to the look-ahead if it is a point find on an
// open handle. (A find with a modify part or an IN list may be hinted
// too: the read port refuses the one, and the other looks up its first
// key at least; either way the hint is only a load.)
func (ss *session) hint(la *lookahead, line []byte) {
	id, op, vlen, toks, ok := hsproto.PeekFind(line, la.tokens)
	la.tokens = toks
	if !ok || op != hsproto.OpEQ {
		return
	}
	h := ss.handles[id]
	if h == nil || len(toks) != int(vlen) || len(toks) != len(h.idx.Columns) { // a full key, every part on the line
		return
	}
	la.keys = la.keys[:0]
	for i, v := range toks {
		la.keys = append(la.keys, conv(&la.bufs, i, &h.t.Columns[h.idx.Columns[i]].Type, v))
	}
	la.pf.Add(ss.s.e, h.t, h.idx, la.keys)
}
