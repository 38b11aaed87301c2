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
func (st *reqState) appendRow(out []byte, row engine.Row) []byte {
	h := st.h
	for _, c := range h.cols {
		v := row[c]
		if v.Null {
			out = hsproto.AppendField(out, hsproto.Value{Null: true})
			continue
		}
		st.fmt = types.AppendFormat(st.fmt[:0], &h.t.Columns[c].Type, v)
		out = hsproto.AppendField(out, hsproto.Value{B: st.fmt})
	}
	return out
}

// buildQuery fills st.q from request r on st.h; it returns the
// executor-level error (kpnum, filterblob) if any.
func (st *reqState) buildQuery(r *hsproto.Request) hsproto.Error {
	sc, h := st, st.h
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

// find runs a find (without a modify part) on committed data.
func (ss *session) find(sc *scratch, out []byte) []byte {
	r, h := &sc.req, sc.h
	if e := sc.buildQuery(r); e != hsproto.ErrNone {
		return hsproto.AppendError(out, e)
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
		// emit applies the filters, so that it sees, and counts in the
		// turn's work, every row the find examines.
		sc.findFilters, sc.q.Filters, sc.ftable = sc.q.Filters, nil, h.t
		sc.work += len(sc.q.In)
		err := ss.s.e.Find(h.t, &sc.q, sc.emitFn)
		out, sc.rows, sc.ftable, sc.findFilters = sc.rows, nil, nil, nil
		if sc.tooBig {
			return hsproto.AppendError(out[:start], hsproto.ErrResultlen)
		}
		if err != nil {
			return storageError(out[:start], err)
		}
	}
	return hsproto.AppendEnd(out)
}

// emit is the find callback: it counts the row in the turn's work,
// applies the filters (a failing W filter ends the find, as in the
// engine) and the offset, appends the row, and stops the find once the
// reply outgrows Config.MaxResponse.
func (sc *scratch) emit(row engine.Row) bool {
	sc.work++
	for i := range sc.findFilters {
		if f := &sc.findFilters[i]; !f.Pass(sc.ftable, row) {
			return !f.Stop
		}
	}
	if sc.skip > 0 {
		sc.skip--
	} else {
		sc.returned++
		sc.rows = sc.appendRow(sc.rows, row)
		if sc.rowsEnd >= 0 && len(sc.rows) > sc.rowsEnd {
			sc.tooBig = true
			return false
		}
	}
	return sc.returned < sc.limit+sc.skip
}

// prepareModify converts the modify part of r (U, D, + and -, and their
// ? forms) into st.m, after buildQuery. It reports false, with the answer
// in out, when the plugin answers without taking a row.
func (st *reqState) prepareModify(r *hsproto.Request, out *[]byte) bool {
	h := st.h
	limit, offset := r.EffectiveLimit(), r.Offset
	if uint64(limit)+uint64(offset) >= 1<<32 {
		// The plugin's row loop ends before it takes any row.
		if r.ModReturnRows {
			*out = hsproto.AppendEnd(hsproto.AppendResultHeader(*out, len(h.cols)))
		} else {
			*out = hsproto.AppendOKNum(*out, 0)
		}
		return false
	}
	st.q.Limit, st.q.Offset = int(limit), int(offset)
	st.m = engine.Modify{Columns: h.cols}
	st.vals = st.vals[:0]
	switch r.Mod {
	case hsproto.ModUpdate:
		st.m.Op = engine.ModUpdate
		for i, c := range h.cols {
			st.vals = append(st.vals, conv(&st.valBufs, i, &h.t.Columns[c].Type, r.ModValue(i)))
		}
	case hsproto.ModDelete:
		st.m.Op = engine.ModDelete
	case hsproto.ModIncrement, hsproto.ModDecrement:
		st.m.Op = engine.ModIncrement
		if r.Mod == hsproto.ModDecrement {
			st.m.Op = engine.ModDecrement
		}
		for i := range h.cols {
			v := r.ModValue(i)
			if v.Null {
				st.vals = append(st.vals, types.NullValue)
			} else {
				st.vals = append(st.vals, types.Value{I: hsproto.ParseInt64(v.B)})
			}
		}
	}
	st.m.Values = st.vals
	return true
}

// prepareInsert converts `id + vlen v1..vn` into st.row: the given
// columns, then every other column's insert default.
func (st *reqState) prepareInsert(r *hsproto.Request) {
	t := st.h.t
	n := len(t.Columns)
	if cap(st.row) < n {
		st.row = make(engine.Row, n)
	}
	st.row = st.row[:n]
	if cap(st.given) < n {
		st.given = make([]bool, n)
	}
	given := st.given[:n]
	clear(given)
	for len(st.valBufs) < n {
		st.valBufs = append(st.valBufs, nil)
	}
	for i, c := range st.h.cols {
		if i >= int(r.VLen) {
			break
		}
		v := r.Key(i)
		col := &t.Columns[c]
		st.row[c] = col.InsertValue(v.B, v.Null, false, st.valBufs[c])
		if b := st.row[c].B; b != nil {
			st.valBufs[c] = b[:0]
		}
		given[c] = true
	}
	for c := range t.Columns {
		if !given[c] {
			st.row[c] = t.Columns[c].InsertValue(nil, false, true, nil)
		}
	}
}
