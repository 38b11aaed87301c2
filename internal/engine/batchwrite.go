package engine

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"time"

	"github.com/cockroachdb/pebble/v2"

	"github.com/handlerdb/handlerdb/internal/types"
)

// batchWriter applies row changes to one indexed batch, keeping every
// index consistent. Not safe for concurrent use.
type batchWriter struct {
	e    *Engine
	b    *pebble.Batch
	rs   readState
	pend keySet // keys written to b, when point reads use the row cache
	gbuf []byte // the value of the last get
	buf  []byte
	// Scratch space of FindModify and updateRow, reused across calls.
	fm            []found
	fmVals, fmNew []types.Value
	fmBytes       []byte
	fmCollect     func(Row) bool
	oldPK, newPK  []byte
	key           []byte
	// Scratch space of Insert, checkUnique and putSecondary: the keys
	// built there are copied by the batch.
	insPK, uniqKey, uniqOld, secKey, secPK []byte
	dirty                                  map[*tableRuntime]uint32 // tables whose counters moved -> table id
	rows                                   int64                    // rows written through this batch
	// unchecked skips insert's duplicate-key checks: set only while a
	// Txn's commit replays inserts already checked (Txn.Commit).
	unchecked bool
	delta     rowDeltas   // row count change per table
	deltaLog  []deltaStep // the changes of delta, in order, for savepoints
	readOnly  bool        // every write fails with ErrReadOnly (a job while the engine is read-only)
	stage     *stageStore // a staged job's store (stage.go): writes and reads go there, not to b
	ahead     readAhead   // committed values read ahead for Apply (apply.go)
	// bounds, in the writer's job only, answers checkAbsent without a
	// read for keys above an index's last one (bounds.go).
	bounds *keyBounds
	// holder is the Locker whose row locks the job's changes pass
	// (Job.HoldLocks); ownRows skips the row locks (Job.OwnRows). Both
	// are reset after each job.
	holder  *Locker
	ownRows bool
	lockKey []byte
	// feeding: the writer's job while a change feed is installed notes
	// each row change in changes (feed.go).
	feeding  bool
	changes  []Change
	arena    changeArena // the changes' row copies
	jobStart int         // where the running job's changes start
	stmt     *Statement  // the statement the running job logs (LogStatement)
}

// rowDeltas is a batch's change of each table's row count; a table it
// holds had rows inserted, changed or deleted.
type rowDeltas map[*tableRuntime]int64

// commit applies the changes to the tables' counters once the batch has
// committed, and stamps the tables' update time. Only the writer (or a
// staged job's committer) calls it.
func (d rowDeltas) commit() {
	if len(d) == 0 {
		return
	}
	now := time.Now().UnixNano()
	for rt, n := range d {
		rt.rows.Add(n)
		rt.updated.Store(now)
	}
}

// deltaStep is one change of a table's row count, kept so that a savepoint
// can undo the changes after it without copying the map.
type deltaStep struct {
	rt *tableRuntime
	d  int64
}

// count records a change of t's row count by this batch.
func (w *batchWriter) count(t *Table, d int64) {
	if w.delta == nil {
		w.delta = rowDeltas{}
	}
	w.delta[t.rt] += d
	w.deltaLog = append(w.deltaLog, deltaStep{t.rt, d})
}

// touched records that the batch changes t's rows without changing their
// count (an update): t gets an entry of delta, once per batch.
func (w *batchWriter) touched(t *Table) {
	if w.delta == nil {
		w.delta = rowDeltas{}
	}
	if _, ok := w.delta[t.rt]; !ok {
		w.delta[t.rt] = 0
	}
}

// undoCounts takes back the row count changes after the first n of
// deltaLog.
func (w *batchWriter) undoCounts(n int) {
	for _, s := range w.deltaLog[n:] {
		w.delta[s.rt] -= s.d
	}
	clear(w.deltaLog[n:])
	w.deltaLog = w.deltaLog[:n]
}

// touch marks t's counters for persisting with this batch.
func (w *batchWriter) touch(t *Table) {
	if w.dirty == nil {
		w.dirty = map[*tableRuntime]uint32{}
	}
	w.dirty[t.rt] = t.ID
}

// persistCounters writes the current value of every touched counter into
// the batch. Counters only grow (TRUNCATE aside), so the value written is
// at least every id the batch used.
func (w *batchWriter) persistCounters() {
	for rt, id := range w.dirty {
		w.set(tableSysKey(sysAutoInc, id), binary.BigEndian.AppendUint64(nil, rt.autoInc.Load()))
		w.set(tableSysKey(sysRowID, id), binary.BigEndian.AppendUint64(nil, rt.rowID.Load()))
	}
}

// truncate drops every write after the first size bytes (count records)
// of the batch. Rare (a job or statement failed), so it rebuilds the batch
// from those bytes.
// rebuildFault, set by the package's tests, makes truncate fail.
var rebuildFault error

func (w *batchWriter) truncate(size int, count uint32) error {
	if w.b.Len() == size {
		return nil
	}
	nb := w.e.db.NewIndexedBatch()
	const headerLen = 12
	if size > headerLen && count > 0 {
		data := append([]byte(nil), w.b.Repr()[:size]...)
		binary.LittleEndian.PutUint32(data[8:12], count)
		tmp := w.e.db.NewBatch()
		err := tmp.SetRepr(data)
		if err == nil {
			err = nb.Apply(tmp, nil)
		}
		if err == nil {
			err = rebuildFault
		}
		tmp.Close()
		if err != nil {
			// The batch still holds the writes to drop: it must not be
			// committed, and nothing of it may be kept silently.
			nb.Close()
			return fmt.Errorf("engine: rebuilding the batch: %w", err)
		}
	}
	w.b.Close()
	w.b = nb
	return nil
}

// Insert adds a row (one value per column, already converted). An
// AUTO_INCREMENT column that is NULL or 0 gets the next id, which is
// written into row and returned; an explicit value moves the counter past
// it, as InnoDB does, and 0 is returned. Every unique index is checked
// (against pending rows of the group too) before anything is written, so a
// failed insert writes nothing; a duplicate is a *DuplicateKeyError.
func (w *batchWriter) Insert(t *Table, row Row) (uint64, error) {
	return w.insert(t, row, false)
}

// insert is Insert; with keepZero, an explicit 0 in the AUTO_INCREMENT
// column is stored as 0 (SQL's NO_AUTO_VALUE_ON_ZERO) and only NULL takes
// the next id.
func (w *batchWriter) insert(t *Table, row Row, keepZero bool) (uint64, error) {
	if err := checkRow(t, row); err != nil {
		return 0, err
	}
	var id uint64
	if t.AutoInc >= 0 {
		v := &row[t.AutoInc]
		typ := &t.Columns[t.AutoInc].Type
		w.touch(t)
		if v.Null || (v.I == 0 && !keepZero) {
			var ok bool
			if id, ok = t.rt.nextAutoInc(autoIncMax(typ)); !ok {
				return 0, columnError(ErrAutoIncrementOverflow, t, t.Columns[t.AutoInc].Name, "")
			}
			*v = types.Value{I: int64(id)}
		} else if x := v.I; typ.Unsigned || x > 0 {
			t.rt.seenAutoInc(uint64(x))
		}
	}
	var rowID uint64
	if t.Primary.Hidden {
		w.touch(t)
		rowID = t.rt.rowID.Add(1)
	}
	pk := primaryKey(w.insPK[:0], t, row, rowID)
	w.insPK = pk
	if !t.Primary.Hidden && !w.unchecked {
		if err := w.checkAbsent(t, t.Primary, pk); err != nil {
			return 0, withKey(err, t, t.Primary, row)
		}
	}
	for _, idx := range t.secondaries() {
		if w.unchecked {
			break
		}
		if err := w.checkUnique(t, idx, row, nil); err != nil {
			return 0, err
		}
	}
	w.buf = encodeRow(w.buf[:0], t, row, rowID)
	if err := w.set(pk, w.buf); err != nil {
		return 0, err
	}
	for _, idx := range t.secondaries() {
		if err := w.putSecondary(t, idx, row, rowID); err != nil {
			return 0, err
		}
	}
	w.rows++
	w.count(t, 1)
	w.note(ChangeInsert, t, nil, row)
	return id, nil
}

// collectFound is FindModify's find callback: it copies row into the
// scratch space and records it in w.fm.
func (w *batchWriter) collectFound(r Row) bool {
	start := len(w.fmVals)
	for _, v := range r {
		if v.B != nil {
			b0 := len(w.fmBytes)
			w.fmBytes = append(w.fmBytes, v.B...)
			v.B = w.fmBytes[b0:len(w.fmBytes):len(w.fmBytes)]
		}
		w.fmVals = append(w.fmVals, v)
	}
	w.fm = append(w.fm, found{row: w.fmVals[start:len(w.fmVals):len(w.fmVals)], rowID: w.rs.rowID})
	return true
}

// checkRow refuses a row of the wrong width or with a NaN.
func checkRow(t *Table, row Row) error {
	if len(row) != len(t.Columns) {
		return tableError(ErrBadRow, t, "")
	}
	for i, c := range t.classes {
		if c == types.ClassFloat && !row[i].Null && math.IsNaN(row[i].F) {
			return columnError(ErrBadValue, t, t.Columns[i].Name, "NaN in column "+t.Columns[i].Name)
		}
	}
	return nil
}

// autoIncMax is the largest value an AUTO_INCREMENT column of typ holds.
func autoIncMax(typ *types.Type) uint64 {
	bits := map[types.Kind]uint{types.TinyInt: 8, types.SmallInt: 16, types.MediumInt: 24, types.Int: 32, types.BigInt: 64}[typ.Kind]
	if bits == 0 {
		bits = 64
	}
	if typ.Unsigned {
		if bits == 64 {
			return math.MaxUint64
		}
		return 1<<bits - 1
	}
	return 1<<(bits-1) - 1
}

// set, del and delRange write to the batch, remembering the keys written
// so that point reads of those keys go through the batch (see pointSource).
func (w *batchWriter) set(k, v []byte) error {
	if w.readOnly {
		return ErrReadOnly
	}
	if w.stage != nil {
		return w.stage.set(k, v)
	}
	if w.rs.ps.pend != nil {
		w.pend.add(k)
	}
	if w.bounds != nil {
		w.bounds.note(k)
	}
	return w.b.Set(k, v, nil)
}

func (w *batchWriter) del(k []byte) error {
	if w.readOnly {
		return ErrReadOnly
	}
	if w.stage != nil {
		return w.stage.del(k)
	}
	if w.rs.ps.pend != nil {
		w.pend.add(k)
	}
	return w.b.Delete(k, nil)
}

func (w *batchWriter) delRange(start, end []byte) error {
	if w.readOnly {
		return ErrReadOnly
	}
	if w.stage != nil {
		return errStageRange
	}
	w.pend.all = true
	return w.b.DeleteRange(start, end, nil)
}

// cachedReads sends w's point reads of keys it has not written (pend) to
// committed data through e's row cache, as Engine.Find reads; its own
// writes are read from its batch. Without a row cache every point read
// goes to the batch. A group's job and an SQL transaction read so.
func (w *batchWriter) cachedReads(e *Engine) {
	w.rs.ps = pointSource{db: e.db, cache: e.rc}
	if e.rc != nil {
		w.rs.ps.pend = &w.pend
	}
}

// get reads key as the batch sees it. The value is valid until the next
// get.
func (w *batchWriter) get(key []byte) ([]byte, bool, error) {
	if w.stage != nil {
		v, found, err := w.stage.get(key, w.gbuf)
		w.gbuf = v
		return v, found, err
	}
	if w.ahead.on && !w.pend.has(key) {
		if v, found, ok := w.ahead.get(key); ok {
			return v, found, nil
		}
	}
	v, found, err := w.rs.ps.get(w.b, key, w.gbuf)
	w.gbuf = v
	return v, found, err
}

// checkAbsent fails with a *DuplicateKeyError when key exists in idx.
func (w *batchWriter) checkAbsent(t *Table, idx *Index, key []byte) error {
	if w.bounds != nil && w.stage == nil && !w.pend.has(key) { // bounds come with pend (Job.begin)
		if above, err := w.bounds.above(w.b, idx.prefix, key); err != nil || above {
			return err
		}
	}
	v, found, err := w.get(key)
	if err != nil || !found {
		return err
	}
	var existing Row
	if idx.Primary {
		existing, _, _ = decodeRow(nil, t, v)
	} else {
		existing = w.rowByPK(t, bytes.Clone(v))
	}
	existing = existing.Clone()
	return &DuplicateKeyError{Table: t.DB + "." + t.Name, Index: idx.Name, Existing: existing}
}

// rowByPK returns the row whose primary key columns are pkCols, or nil.
func (w *batchWriter) rowByPK(t *Table, pkCols []byte) Row {
	k := append(append([]byte(nil), t.Primary.prefix...), pkCols...)
	v, found, err := w.get(k)
	if err != nil || !found {
		return nil
	}
	r, _, err := decodeRow(nil, t, v)
	if err != nil {
		return nil
	}
	return r.Clone()
}

// checkUnique checks that row's key in unique index idx is free; old is the
// row being replaced by an update (its own key does not count), or nil.
func (w *batchWriter) checkUnique(t *Table, idx *Index, row, old Row) error {
	if !idx.Unique || hasNull(idx, row) {
		return nil
	}
	key := appendIndexKey(w.uniqKey[:0], t, idx, row)
	w.uniqKey = key
	if old != nil && !hasNull(idx, old) {
		w.uniqOld = appendIndexKey(w.uniqOld[:0], t, idx, old)
		if bytes.Equal(key, w.uniqOld) {
			return nil
		}
	}
	return withKey(w.checkAbsent(t, idx, key), t, idx, row)
}

// putSecondary writes row's entry in secondary index idx. For a unique
// index it also checks the key is free (used when building an index).
func (w *batchWriter) putSecondary(t *Table, idx *Index, row Row, rowID uint64) error {
	pkCols := appendPKColumns(w.secPK[:0], t, row, rowID)
	key := secondaryKey(w.secKey[:0], t, idx, row, pkCols)
	w.secPK, w.secKey = pkCols, key
	if idx.Unique && !hasNull(idx, row) && !w.unchecked {
		if err := w.checkAbsent(t, idx, key); err != nil {
			return withKey(err, t, idx, row)
		}
	}
	return w.set(key, pkCols)
}

// checkRowLock fails with a *RowLockedError when the writer's job would
// change stored row of t while a Locker other than the job's holds its
// row lock. A transaction's private batch (not the writer's) needs no
// check: its session locked the row. The table's unlocked mark is moved
// to this job before the lock table is read (see tableRuntime.unlocked).
func (w *batchWriter) checkRowLock(t *Table, row Row) error {
	if !w.rs.inWriter || w.ownRows || t.rt == nil {
		return nil
	}
	e := w.e
	if seq := e.jobsStarted.Load(); t.rt.unlocked.Load() != seq {
		t.rt.unlocked.Store(seq)
	}
	if e.locks.n.Load() == 0 {
		return nil
	}
	w.lockKey = LockKey(w.lockKey[:0], t, row)
	if !e.locks.heldByOther(t.ID, w.lockKey, w.holder) {
		return nil
	}
	return &RowLockedError{Table: t, Key: append([]byte(nil), w.lockKey...)}
}

// deleteRow removes row (as stored) and its index entries.
func (w *batchWriter) deleteRow(t *Table, row Row, rowID uint64) error {
	if err := w.checkRowLock(t, row); err != nil {
		return err
	}
	pkCols := appendPKColumns(nil, t, row, rowID)
	if err := w.del(append(append([]byte(nil), t.Primary.prefix...), pkCols...)); err != nil {
		return err
	}
	for _, idx := range t.secondaries() {
		if err := w.del(secondaryKey(nil, t, idx, row, pkCols)); err != nil {
			return err
		}
	}
	w.rows++
	w.count(t, -1)
	w.note(ChangeDelete, t, row, nil)
	return nil
}

// updateRow replaces old (as stored) by row. Unique indexes are checked
// before anything is written.
func (w *batchWriter) updateRow(t *Table, old, row Row, rowID uint64) error {
	if err := checkRow(t, row); err != nil {
		return err
	}
	if err := w.checkRowLock(t, old); err != nil {
		return err
	}
	w.touched(t) // the row count stays; the table's update time moves
	w.oldPK = appendPKColumns(w.oldPK[:0], t, old, rowID)
	w.newPK = appendPKColumns(w.newPK[:0], t, row, rowID)
	oldPK, newPK := w.oldPK, w.newPK
	pkChanged := !bytes.Equal(oldPK, newPK)
	if pkChanged {
		if err := w.checkAbsent(t, t.Primary, append(append([]byte(nil), t.Primary.prefix...), newPK...)); err != nil {
			return withKey(err, t, t.Primary, row)
		}
	}
	for _, idx := range t.secondaries() {
		if err := w.checkUnique(t, idx, row, old); err != nil {
			return err
		}
	}
	if pkChanged {
		if err := w.del(append(append([]byte(nil), t.Primary.prefix...), oldPK...)); err != nil {
			return err
		}
	}
	w.key = append(append(w.key[:0], t.Primary.prefix...), newPK...)
	w.buf = encodeRow(w.buf[:0], t, row, rowID)
	if err := w.set(w.key, w.buf); err != nil {
		return err
	}
	for _, idx := range t.secondaries() {
		ok := secondaryKey(w.uniqOld[:0], t, idx, old, oldPK)
		nk := secondaryKey(w.secKey[:0], t, idx, row, newPK)
		w.uniqOld, w.secKey = ok, nk
		if !pkChanged && bytes.Equal(ok, nk) {
			continue
		}
		if err := w.del(ok); err != nil {
			return err
		}
		if err := w.set(nk, newPK); err != nil {
			return err
		}
	}
	w.rows++
	w.note(ChangeUpdate, t, old, row)
	return nil
}

// ModOp is the change FindModify makes to each row found.
type ModOp uint8

// Modify operations, as HandlerSocket's U, D, + and -.
const (
	ModUpdate    ModOp = iota // set Columns to Values
	ModDelete                 // delete the row
	ModIncrement              // add Values[i].I to the integer value of Columns[i]
	ModDecrement              // subtract; a row whose value would change sign is left alone and not counted
)

// Modify describes the change FindModify makes.
type Modify struct {
	Op      ModOp
	Columns []int
	// Values are the new values (ModUpdate, converted to the columns'
	// types) or the amounts in I (ModIncrement/ModDecrement, where a Null
	// amount leaves its column alone). One per Columns entry.
	Values []types.Value
	// Before, when set, is called with every row found, as it was before
	// the change, in find order (the row is valid only during the call).
	Before func(Row)
}

type found struct {
	row   Row
	rowID uint64
}

// FindModify runs q inside the job and changes every row it finds (the
// rows are collected first, so a change never makes a row be found twice).
// It returns how many rows were changed; updating a row to the values it
// already has counts. An error part way (a duplicate key) leaves the rows
// changed before it changed, as HandlerSocket does; a caller that wants
// all or nothing returns the error from its job.
func (w *batchWriter) FindModify(t *Table, q *Query, m *Modify) (int, error) {
	if len(m.Values) < len(m.Columns) && m.Op != ModDelete {
		return 0, tableError(ErrBadRow, t, "")
	}
	// The rows found are copied into scratch space the batchWriter keeps
	// (a row appended after the space grew keeps pointing at the old
	// array, which stays valid), so a find-modify allocates nothing once
	// warm.
	w.fm, w.fmVals, w.fmBytes = w.fm[:0], w.fmVals[:0], w.fmBytes[:0]
	if w.fmCollect == nil {
		w.fmCollect = w.collectFound // bound once: no allocation per call
	}
	err := w.rs.find(w.b, t, q, w.fmCollect)
	if err != nil {
		return 0, err
	}
	n := 0
	nr := w.fmNew[:0]
	defer func() { w.fmNew = nr[:0] }()
	for _, f := range w.fm {
		if m.Before != nil {
			m.Before(f.row)
		}
		if m.Op == ModDelete {
			if err := w.deleteRow(t, f.row, f.rowID); err != nil {
				return n, err
			}
			n++
			continue
		}
		nr = append(nr[:0], f.row...)
		if !applyMod(t, m, nr) {
			continue
		}
		if err := w.updateRow(t, f.row, nr, f.rowID); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// applyMod changes nr as m says; false means the row is left alone.
func applyMod(t *Table, m *Modify, nr Row) bool {
	for i, c := range m.Columns {
		v := m.Values[i]
		switch m.Op {
		case ModUpdate:
			if v.Null && !t.Columns[c].Nullable {
				// NULL into a NOT NULL column leaves it alone, as
				// HandlerSocket's update does.
				continue
			}
			nr[c] = v
		case ModIncrement, ModDecrement:
			if v.Null || nr[c].Null {
				continue
			}
			typ := &t.Columns[c].Type
			old := types.ValInt(typ, nr[c])
			var nv int64
			if m.Op == ModIncrement {
				nv = old + v.I
			} else {
				nv = old - v.I
				if (old < 0 && nv > 0) || (old > 0 && nv < 0) {
					return false
				}
			}
			nr[c] = types.FromInt(typ, nv)
		}
	}
	return true
}

// Delete removes the row whose primary key equals that of row.
// It reports whether a row was there.
func (w *batchWriter) Delete(t *Table, row Row) (bool, error) {
	stored, rowID, err := w.lookup(t, row)
	if err != nil || stored == nil {
		return false, err
	}
	return true, w.deleteRow(t, stored, rowID)
}

// Update replaces the row whose primary key equals that of old by row.
// It reports whether a row was there.
func (w *batchWriter) Update(t *Table, old, row Row) (bool, error) {
	if len(row) != len(t.Columns) {
		return false, tableError(ErrBadRow, t, "")
	}
	stored, rowID, err := w.lookup(t, old)
	if err != nil || stored == nil {
		return false, err
	}
	return true, w.updateRow(t, stored, row, rowID)
}

// lookup finds the stored row with row's primary key (for a table without
// one: the first row equal to row in every column).
func (w *batchWriter) lookup(t *Table, row Row) (Row, uint64, error) {
	if len(row) != len(t.Columns) {
		return nil, 0, tableError(ErrBadRow, t, "")
	}
	if !t.Primary.Hidden {
		k := primaryKey(nil, t, row, 0)
		v, found, err := w.get(k)
		if err != nil || !found {
			return nil, 0, err
		}
		r, _, err := decodeRow(nil, t, v)
		return r.Clone(), 0, err
	}
	if w.stage != nil {
		return w.stage.lookupHidden(t, row)
	}
	var (
		hit   Row
		rowID uint64
	)
	err := w.rs.find(w.b, t, &Query{Index: t.Primary, Op: OpGE}, func(r Row) bool {
		for i := range r {
			if types.Compare(&t.Columns[i].Type, r[i], row[i]) != 0 {
				return true
			}
		}
		hit, rowID = r.Clone(), w.rs.rowID
		return false
	})
	return hit, rowID, err
}
