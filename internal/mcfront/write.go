package mcfront

import (
	"bytes"
	"strconv"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/mcproto"
	"github.com/handlerdb/handlerdb/internal/types"
)

// apply runs the prepared run on the writer (the session's job), its
// requests in order. A request's failure is its answer, not the job's
// error: the other requests (the run's, the group's) commit. A failed
// change is rolled back to the savepoint taken before it.
func (ss *session) apply(tx *engine.Job) error {
	for i := range ss.run[:ss.nrun] {
		if err := ss.applyOp(tx, &ss.run[i]); err != nil {
			return err
		}
	}
	return nil
}

// applyOp runs one request of the run.
func (ss *session) applyOp(tx *engine.Job, o *op) error {
	st := &ss.s.stats
	c, err := ss.resolve(o.cont, tx.Catalog(), true)
	if err != nil {
		o.res, o.err = resError, mcproto.ErrStorage
		return nil
	}
	now := time.Now().Unix()
	if !ss.allowed(c, true) {
		o.res, o.err = resError, mcproto.ErrDenied
		return nil
	}
	sp := tx.Savepoint()
	fail := func() {
		tx.RollbackTo(sp)
		o.res, o.err = resError, mcproto.ErrStorage
	}
	switch o.cmd {
	case mcproto.CmdGat, mcproto.CmdGats:
		o.res = resValues
		for _, key := range o.keys {
			name, k, switchTo := splitContainer(key)
			if switchTo {
				continue
			}
			kc := c
			if name != "" {
				if kc, err = ss.resolve(name, tx.Catalog(), true); err != nil || !ss.allowed(kc, true) {
					continue
				}
			}
			it, found, kv, ok := ss.w.read(tx, kc, k, o)
			if !ok || !found || !live(it.exp, now) {
				st.TouchMisses.Add(1)
				st.GetMisses.Add(1)
				continue
			}
			if kc.exp >= 0 {
				if _, err := ss.w.modify(tx, kc, kv, []int{kc.exp}, []types.Value{{I: o.exp}}); err != nil {
					fail()
					return nil
				}
				it.exp = o.exp
			}
			st.TouchHits.Add(1)
			st.GetHits.Add(1)
			it.key = key
			o.vals = append(o.vals, it)
		}
		return nil
	case mcproto.CmdFlushAll:
		return ss.flush(tx, o)
	}
	name, key, switchTo := splitContainer(o.keys[0])
	if switchTo {
		o.res = resNotStored
		return nil
	}
	if name != "" {
		if c, err = ss.resolve(name, tx.Catalog(), true); err != nil {
			o.res, o.err = resError, mcproto.ErrStorage
			return nil
		}
		if !ss.allowed(c, true) {
			o.res, o.err = resError, mcproto.ErrDenied
			return nil
		}
	}
	if o.cmd.IsMeta() {
		ss.applyMeta(tx, o, c, key, now)
		return nil
	}
	if o.cmd == mcproto.CmdSet && !o.unlink {
		// set needs nothing of the row there: one update, or an insert
		kv, ok := c.keyValue(key, ss.w.kbuf[:0])
		ss.w.keepKey(c, kv)
		if !ok {
			o.res = resNotStored
			return nil
		}
		o.newCas = ss.s.nextCas()
		if err := ss.w.store(tx, c, kv, true, o.data, o.flags, o.newCas, o.exp); err != nil {
			tx.RollbackTo(sp)
			o.res, o.err = resError, mcproto.ErrStorage
			return nil
		}
		st.TotalItems.Add(1)
		o.res = resStored
		return nil
	}
	it, found, kv, ok := ss.w.read(tx, c, key, o)
	if o.unlink {
		if ok && found {
			if _, err := ss.w.delete(tx, c, kv); err != nil {
				tx.RollbackTo(sp)
			}
		}
		return nil
	}
	if !ok {
		// the key column cannot hold this key
		o.res = resNotStored
		if o.cmd == mcproto.CmdDelete || o.cmd == mcproto.CmdTouch || o.cmd == mcproto.CmdIncr || o.cmd == mcproto.CmdDecr || o.cmd == mcproto.CmdCas {
			o.res = resNotFound
		}
		return nil
	}
	exists := found && live(it.exp, now)
	if o.bin && o.cas != 0 && o.cmd != mcproto.CmdCas && exists && it.cas != o.cas {
		o.res = resExists // a binary request's CAS must match
		return nil
	}
	store := func(value []byte, flags uint32, exp int64) {
		o.newCas = ss.s.nextCas()
		if err := ss.w.store(tx, c, kv, found, value, flags, o.newCas, exp); err != nil {
			fail()
			return
		}
		st.TotalItems.Add(1)
		o.res = resStored
	}
	switch o.cmd {
	case mcproto.CmdSet:
		store(o.data, o.flags, o.exp)
	case mcproto.CmdAdd:
		if exists {
			o.res = resNotStored
			break
		}
		store(o.data, o.flags, o.exp)
	case mcproto.CmdReplace:
		if !exists {
			o.res = resNotStored
			break
		}
		store(o.data, o.flags, o.exp)
	case mcproto.CmdAppend, mcproto.CmdPrepend:
		if !exists {
			o.res = resNotStored
			break
		}
		v := make([]byte, 0, len(it.value)+len(o.data))
		if o.cmd == mcproto.CmdAppend {
			v = append(append(v, it.value...), o.data...)
		} else {
			v = append(append(v, o.data...), it.value...)
		}
		store(v, it.flags, it.exp)
	case mcproto.CmdCas:
		switch {
		case !exists:
			st.CasMisses.Add(1)
			o.res = resNotFound
		case it.cas != o.cas:
			st.CasBadval.Add(1)
			o.res = resExists
		default:
			st.CasHits.Add(1)
			store(o.data, o.flags, o.exp)
		}
	case mcproto.CmdDelete:
		if !found {
			st.DeleteMisses.Add(1)
			o.res = resNotFound
			break
		}
		if _, err := ss.w.delete(tx, c, kv); err != nil {
			fail()
			break
		}
		if !exists {
			// an expired row goes now, and counts as not there
			st.DeleteMisses.Add(1)
			o.res = resNotFound
			break
		}
		st.DeleteHits.Add(1)
		o.res = resDeleted
	case mcproto.CmdTouch:
		if !exists {
			st.TouchMisses.Add(1)
			o.res = resNotFound
			break
		}
		if c.exp >= 0 {
			if _, err := ss.w.modify(tx, c, kv, []int{c.exp}, []types.Value{{I: o.exp}}); err != nil {
				fail()
				break
			}
		}
		st.TouchHits.Add(1)
		o.res, o.newCas, o.flags = resTouched, it.cas, it.flags
	case mcproto.CmdIncr, mcproto.CmdDecr:
		incr := o.cmd == mcproto.CmdIncr
		if !exists && o.bin && o.binExp != 0xffffffff {
			// binary incr/decr of a missing item stores the initial value
			v := strconv.AppendUint(nil, o.initial, 10)
			o.newCas = ss.s.nextCas()
			if err := ss.w.store(tx, c, kv, found, v, 0, o.newCas, expireAt(int64(o.binExp), now)); err != nil {
				fail()
				break
			}
			o.res, o.num = resNumber, o.initial
			break
		}
		if !exists {
			if incr {
				st.IncrMisses.Add(1)
			} else {
				st.DecrMiss.Add(1)
			}
			o.res = resNotFound
			break
		}
		n, v, ok := arith(it.value, o.delta, incr)
		if !ok {
			o.res, o.err = resError, mcproto.ErrNonNumeric
			break
		}
		if incr {
			st.IncrHits.Add(1)
		} else {
			st.DecrHits.Add(1)
		}
		o.newCas = ss.s.nextCas()
		if err := ss.w.store(tx, c, kv, true, v, it.flags, o.newCas, it.exp); err != nil {
			fail()
			break
		}
		o.res, o.num = resNumber, n
	}
	return nil
}

// arith is incr (or decr) of the number old by delta, as memcached
// computes it: incr wraps at 2^64, decr stops at 0; v is the new value
// to store, padded with spaces to old's length when shorter (memcached
// rewrites the number in place when no other thread holds the item: else
// it writes a new item of the number's length, which it does at random).
// ok is false when old is no number.
func arith(old []byte, delta uint64, incr bool) (n uint64, v []byte, ok bool) {
	n, ok = mcproto.ParseUint64(old)
	if !ok || len(old) == 0 {
		return 0, nil, false
	}
	switch {
	case incr:
		n += delta
	case delta > n:
		n = 0
	default:
		n -= delta
	}
	v = strconv.AppendUint(make([]byte, 0, max(len(old), 20)), n, 10)
	for len(v) < len(old) {
		v = append(v, ' ')
	}
	return n, v, true
}

// read finds key's row in c inside the job: ok is false when the key
// column cannot hold key; the value is copied into o's buffer.
func (w *writeBuf) read(tx *engine.Job, c *container, key []byte, o *op) (it item, found bool, kv types.Value, ok bool) {
	kv, ok = c.keyValue(key, w.kbuf[:0])
	if !ok {
		return it, false, kv, false
	}
	w.keepKey(c, kv)
	tx.Find(c.t, w.query(c, kv), func(r engine.Row) bool {
		start := len(o.vbuf)
		o.vbuf = c.readItem(r, &it, o.vbuf)
		it.value = o.vbuf[start:len(o.vbuf):len(o.vbuf)]
		found = true
		return false
	})
	return it, found, kv, true
}

// writeBuf is the writer-side scratch of point changes: the query, the
// modify, the columns and values a store writes, reused from change to
// change (a set used to allocate each of them). A session's belongs to
// its job, the sweep's to its goroutine; the engine keeps none of them
// past the call.
type writeBuf struct {
	q     engine.Query
	qkey  [1]types.Value
	mod   engine.Modify
	cols  []int
	vals  []types.Value
	parts [][]byte
	kbuf  []byte
}

// keepKey keeps the buffer of a key converted into kbuf (a binary key
// is its bytes) for the next conversion.
func (w *writeBuf) keepKey(c *container, kv types.Value) {
	if c.t.Columns[c.key].Type.Class() == types.ClassBytes && cap(kv.B) > cap(w.kbuf) {
		w.kbuf = kv.B[:0]
	}
}

// query is the point query of key value kv in c.
func (w *writeBuf) query(c *container, kv types.Value) *engine.Query {
	w.qkey[0] = kv
	w.q = engine.Query{Index: c.idx, Key: w.qkey[:], Limit: 1}
	return &w.q
}

// modify sets columns of kv's row.
func (w *writeBuf) modify(tx *engine.Job, c *container, kv types.Value, cols []int, vals []types.Value) (int, error) {
	w.mod = engine.Modify{Op: engine.ModUpdate, Columns: cols, Values: vals}
	return tx.FindModify(c.t, w.query(c, kv), &w.mod)
}

// delete deletes kv's row.
func (w *writeBuf) delete(tx *engine.Job, c *container, kv types.Value) (int, error) {
	w.mod = engine.Modify{Op: engine.ModDelete}
	return tx.FindModify(c.t, w.query(c, kv), &w.mod)
}

// store writes the item: the value split over the value columns (the
// last takes what is left), flags, cas and expiry where the container
// has columns for them; an update when the row exists, else an insert
// with the other columns at their defaults.
func (w *writeBuf) store(tx *engine.Job, c *container, kv types.Value, exists bool, value []byte, flags uint32, cas uint64, exp int64) error {
	cols, vals := w.cols[:0], w.vals[:0]
	parts := append(w.parts[:0], value)
	if len(c.values) > 1 {
		parts = bytes.SplitN(value, c.separator, len(c.values))
	}
	for i, col := range c.values {
		t := &c.t.Columns[col].Type
		var v types.Value
		if i < len(parts) {
			v = types.Convert(t, parts[i], nil)
		} else if c.t.Columns[col].Nullable {
			v = types.Value{Null: true}
		} else {
			v = types.Convert(t, nil, nil)
		}
		cols, vals = append(cols, col), append(vals, v)
	}
	for _, x := range [...]struct {
		col int
		v   int64
	}{{c.flags, int64(flags)}, {c.cas, int64(cas)}, {c.exp, exp}} {
		if x.col >= 0 {
			cols, vals = append(cols, x.col), append(vals, types.Value{I: x.v})
		}
	}
	w.cols, w.vals, w.parts = cols, vals, parts[:0]
	if exists {
		n, err := w.modify(tx, c, kv, cols, vals)
		if err != nil || n > 0 {
			return err
		}
		// (set stores without reading first: no row, an insert)
	}
	row := make(engine.Row, len(c.t.Columns))
	for i := range c.t.Columns {
		col := &c.t.Columns[i]
		switch {
		case col.Default != nil:
			row[i] = *col.Default
		case col.Nullable || col.AutoIncrement:
			row[i] = types.Value{Null: true}
		default:
			row[i] = types.Convert(&col.Type, nil, nil)
		}
	}
	row[c.key] = kv
	for i, col := range cols {
		row[col] = vals[i]
	}
	_, err := tx.CheckedInsert(c.t, row)
	return err
}

// flush deletes every item of the default container's table (flush_all
// without a delay; with one, the items expire then).
func (ss *session) flush(tx *engine.Job, o *op) error {
	c, err := ss.resolve("", tx.Catalog(), true)
	if err != nil {
		o.res, o.err = resError, mcproto.ErrStorage
		return nil
	}
	var keys []types.Value
	tx.Find(c.t, &engine.Query{Index: c.idx}, func(r engine.Row) bool {
		if o.exp != 0 && c.exp >= 0 && !r[c.exp].Null && r[c.exp].I != 0 && r[c.exp].I <= o.exp {
			return true // expires before the flush would
		}
		v := r[c.key]
		v.B = bytes.Clone(v.B)
		keys = append(keys, v)
		return true
	})
	for _, kv := range keys {
		var err error
		if o.exp == 0 || c.exp < 0 {
			_, err = ss.w.delete(tx, c, kv)
		} else {
			_, err = ss.w.modify(tx, c, kv, []int{c.exp}, []types.Value{{I: o.exp}})
		}
		if err != nil {
			return err
		}
	}
	o.res = resFlushed
	return nil
}
