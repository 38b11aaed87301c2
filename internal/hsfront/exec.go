package hsfront

import (
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/hsproto"
	"github.com/handlerdb/handlerdb/internal/types"
)

// maxInLookups bounds the lookups of one IN clause.
const maxInLookups = 1 << 16

var findOps = [...]engine.FindOp{
	hsproto.OpEQ: engine.OpEQ,
	hsproto.OpGT: engine.OpGT,
	hsproto.OpGE: engine.OpGE,
	hsproto.OpLT: engine.OpLT,
	hsproto.OpLE: engine.OpLE,
}

var filterOps = [...]engine.CmpOp{
	hsproto.FilterEQ:    engine.CmpEQ,
	hsproto.FilterNE:    engine.CmpNE,
	hsproto.FilterLT:    engine.CmpLT,
	hsproto.FilterLE:    engine.CmpLE,
	hsproto.FilterGT:    engine.CmpGT,
	hsproto.FilterGE:    engine.CmpGE,
	hsproto.FilterNever: engine.CmpInvalid,
}

// storageError answers an engine error as errtable's table says: the
// plugin's answer to a handler error (1\t1\t121 for a duplicate key,
// 1\t1\t1 for any other failure).
func storageError(out []byte, err error) []byte {
	return hsproto.AppendError(out, errtable.HS(err))
}

// appendRow appends the handle's columns of row as response fields.
func appendRow(sc *scratch, out []byte, row engine.Row) []byte {
	h := sc.h
	for _, c := range h.cols {
		v := row[c]
		if v.Null {
			out = hsproto.AppendField(out, hsproto.Value{Null: true})
			continue
		}
		sc.fmt = types.AppendFormat(sc.fmt[:0], &h.t.Columns[c].Type, v)
		out = hsproto.AppendField(out, hsproto.Value{B: sc.fmt})
	}
	return out
}

// buildQuery fills sc.q from the request; it returns the executor-level
// error (kpnum, filterblob) if any.
func (ss *session) buildQuery(sc *scratch) hsproto.Error {
	r, h := &sc.req, sc.h
	t, idx := h.t, h.idx
	if int(r.VLen) > len(idx.Columns) {
		return hsproto.ErrKpnum
	}
	sc.filters = sc.filters[:0]
	for i := range r.Filters {
		f := &r.Filters[i]
		col := h.fcols[f.Col]
		ct := &t.Columns[col].Type
		if ct.IsBlob() && !f.Value.Null {
			return hsproto.ErrFilterblob
		}
		if f.Op == hsproto.FilterAlways {
			continue
		}
		sc.filters = append(sc.filters, engine.Filter{Stop: f.Stop(), Op: filterOps[f.Op], Column: col,
			Value: conv(&sc.fBufs, i, ct, f.Value)})
	}
	sc.keys = sc.keys[:0]
	for i := 0; i < int(r.VLen); i++ {
		sc.keys = append(sc.keys, conv(&sc.keyBufs, i, &t.Columns[idx.Columns[i]].Type, r.Key(i)))
	}
	sc.q = engine.Query{Index: idx, Op: findOps[r.Op], Key: sc.keys, Filters: sc.filters}
	if part := r.InKeyPart(); part >= 0 {
		sc.in = sc.in[:0]
		ct := &t.Columns[idx.Columns[min(part, len(idx.Columns)-1)]].Type
		// Values the line does not hold are empty strings: identical
		// lookups, each giving the same row at most once. Beyond what the
		// limit and offset can use, more of them change nothing, so a
		// huge declared count costs nothing.
		n := uint64(r.InCount)
		if extra := n - uint64(len(r.InValues)); n > uint64(len(r.InValues)) {
			n = uint64(len(r.InValues)) + min(extra, uint64(r.EffectiveLimit())+uint64(r.Offset), maxInLookups)
		}
		for i := 0; i < int(min(n, maxInLookups)); i++ {
			v := r.InValue(i)
			sc.in = append(sc.in, conv(&sc.inBufs, i, ct, v))
		}
		sc.q.In, sc.q.InPart = sc.in, part
	}
	return hsproto.ErrNone
}

// find runs a find, or a find with a modify part (write port only).
func (ss *session) find(sc *scratch, tx *engine.Job, out []byte) []byte {
	r, h := &sc.req, sc.h
	if e := ss.buildQuery(sc); e != hsproto.ErrNone {
		return hsproto.AppendError(out, e)
	}
	if r.Mod != hsproto.ModNone {
		return ss.modify(sc, tx, out)
	}
	start := len(out)
	out = hsproto.AppendResultHeader(out, len(h.cols))
	// The plugin's loop: go on while returned < limit + skip still to do,
	// in uint32 arithmetic; rows failing a filter are not counted.
	sc.limit, sc.skip, sc.returned = r.EffectiveLimit(), r.Offset, 0
	if sc.returned < sc.limit+sc.skip {
		if sc.emitFn == nil {
			sc.emitFn = sc.emit // bound once per pooled scratch: no allocation per find
		}
		sc.rows, sc.rowsEnd, sc.tooBig = out, len(out)+ss.s.cfg.MaxResponse, false
		if ss.s.cfg.MaxResponse < 0 {
			sc.rowsEnd = -1
		}
		var err error
		if tx != nil {
			err = tx.Find(h.t, &sc.q, sc.emitFn)
		} else {
			err = ss.s.e.Find(h.t, &sc.q, sc.emitFn)
		}
		out, sc.rows = sc.rows, nil
		if sc.tooBig {
			return hsproto.AppendError(out[:start], hsproto.ErrResultlen)
		}
		if err != nil {
			return storageError(out[:start], err)
		}
	}
	return hsproto.AppendEnd(out)
}

// emit is the find callback: it applies the offset and appends the row,
// and stops the find once the reply outgrows Config.MaxResponse.
func (sc *scratch) emit(row engine.Row) bool {
	if sc.skip > 0 {
		sc.skip--
	} else {
		sc.returned++
		sc.rows = appendRow(sc, sc.rows, row)
		if sc.rowsEnd >= 0 && len(sc.rows) > sc.rowsEnd {
			sc.tooBig = true
			return false
		}
	}
	return sc.returned < sc.limit+sc.skip
}

// modify runs U, D, + and - (and their ? forms).
func (ss *session) modify(sc *scratch, tx *engine.Job, out []byte) []byte {
	r, h := &sc.req, sc.h
	limit, offset := r.EffectiveLimit(), r.Offset
	if uint64(limit)+uint64(offset) >= 1<<32 {
		// The plugin's row loop ends before it takes any row.
		if r.ModReturnRows {
			return hsproto.AppendEnd(hsproto.AppendResultHeader(out, len(h.cols)))
		}
		return hsproto.AppendOKNum(out, 0)
	}
	sc.q.Limit, sc.q.Offset = int(limit), int(offset)
	sc.m = engine.Modify{Columns: h.cols}
	sc.vals = sc.vals[:0]
	switch r.Mod {
	case hsproto.ModUpdate:
		sc.m.Op = engine.ModUpdate
		for i, c := range h.cols {
			sc.vals = append(sc.vals, conv(&sc.valBufs, i, &h.t.Columns[c].Type, r.ModValue(i)))
		}
	case hsproto.ModDelete:
		sc.m.Op = engine.ModDelete
	case hsproto.ModIncrement, hsproto.ModDecrement:
		sc.m.Op = engine.ModIncrement
		if r.Mod == hsproto.ModDecrement {
			sc.m.Op = engine.ModDecrement
		}
		for i := range h.cols {
			v := r.ModValue(i)
			if v.Null {
				sc.vals = append(sc.vals, types.NullValue)
			} else {
				sc.vals = append(sc.vals, types.Value{I: hsproto.ParseInt64(v.B)})
			}
		}
	}
	sc.m.Values = sc.vals
	start := len(out)
	if r.ModReturnRows {
		out = hsproto.AppendResultHeader(out, len(h.cols))
		sc.m.Before = func(row engine.Row) { out = appendRow(sc, out, row) }
	}
	n, err := tx.FindModify(h.t, &sc.q, &sc.m)
	sc.m.Before = nil
	if err != nil {
		return storageError(out[:start], err)
	}
	if r.ModReturnRows {
		return hsproto.AppendEnd(out)
	}
	return hsproto.AppendOKNum(out, uint64(n))
}

// insert runs `id + vlen v1..vn`.
func (ss *session) insert(sc *scratch, tx *engine.Job, out []byte) []byte {
	r, h := &sc.req, sc.h
	t := h.t
	n := len(t.Columns)
	if cap(sc.row) < n {
		sc.row = make(engine.Row, n)
	}
	sc.row = sc.row[:n]
	given := make([]bool, n) // small; columns given a value
	for len(sc.valBufs) < n {
		sc.valBufs = append(sc.valBufs, nil)
	}
	for i, c := range h.cols {
		if i >= int(r.VLen) {
			break
		}
		v := r.Key(i)
		col := &t.Columns[c]
		sc.row[c] = col.InsertValue(v.B, v.Null, false, sc.valBufs[c])
		if b := sc.row[c].B; b != nil {
			sc.valBufs[c] = b[:0]
		}
		given[c] = true
	}
	for c := range t.Columns {
		if !given[c] {
			sc.row[c] = t.Columns[c].InsertValue(nil, false, true, nil)
		}
	}
	id, err := tx.CheckedInsert(t, sc.row)
	if err != nil {
		return storageError(out, err)
	}
	if t.AutoInc >= 0 {
		return hsproto.AppendOKNum(out, id)
	}
	return hsproto.AppendOK(out)
}
