package engine

import (
	"bytes"
	"math"

	"github.com/handlerdb/handlerdb/internal/types"
)

// Insert adds a row (one value per column, already converted). An
// AUTO_INCREMENT column that is NULL or 0 gets the next id, which is
// written into row and returned; an explicit value moves the counter past
// it, as InnoDB does, and 0 is returned. Every unique index is checked
// (against pending rows of the group too) before anything is written, so a
// failed insert writes nothing; a duplicate is a *DuplicateKeyError.
func (tx *batchWriter) Insert(t *Table, row Row) (uint64, error) {
	if err := checkRow(t, row); err != nil {
		return 0, err
	}
	var id uint64
	if t.AutoInc >= 0 {
		v := &row[t.AutoInc]
		typ := &t.Columns[t.AutoInc].Type
		tx.touch(t)
		if v.Null || v.I == 0 {
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
		tx.touch(t)
		rowID = t.rt.rowID.Add(1)
	}
	pk := tx.primaryKey(nil, t, row, rowID)
	if !t.Primary.Hidden {
		if err := tx.checkAbsent(t, t.Primary, pk); err != nil {
			return 0, withKey(err, t, t.Primary, row)
		}
	}
	for _, idx := range t.secondaries() {
		if err := tx.checkUnique(t, idx, row, nil); err != nil {
			return 0, err
		}
	}
	if err := tx.set(pk, encodeRow(tx.buf[:0], t, row, rowID)); err != nil {
		return 0, err
	}
	for _, idx := range t.secondaries() {
		if err := tx.putSecondary(t, idx, row, rowID); err != nil {
			return 0, err
		}
	}
	tx.rows++
	tx.count(t, 1)
	return id, nil
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
	if w.rs.ps.pend != nil {
		w.pend.add(k)
	}
	return w.b.Set(k, v, nil)
}

func (w *batchWriter) del(k []byte) error {
	if w.rs.ps.pend != nil {
		w.pend.add(k)
	}
	return w.b.Delete(k, nil)
}

func (w *batchWriter) delRange(start, end []byte) error {
	w.pend.all = true
	return w.b.DeleteRange(start, end, nil)
}

// get reads key as the batch sees it. The value is valid until the next
// get.
func (w *batchWriter) get(key []byte) ([]byte, bool, error) {
	v, found, err := w.rs.ps.get(w.b, key, w.gbuf)
	w.gbuf = v
	return v, found, err
}

// primaryKey appends the full primary index key of row.
func (tx *batchWriter) primaryKey(dst []byte, t *Table, row Row, rowID uint64) []byte {
	dst = append(dst, t.Primary.prefix...)
	return appendPKColumns(dst, t, row, rowID)
}

// secondaryKey appends idx's stored key for row: the index columns, plus
// the primary key columns unless idx is unique and row has no NULL in it.
func secondaryKey(dst []byte, t *Table, idx *Index, row Row, pkCols []byte) []byte {
	dst = appendIndexKey(dst, t, idx, row)
	if !idx.Unique || hasNull(idx, row) {
		dst = append(dst, pkCols...)
	}
	return dst
}

// checkAbsent fails with a *DuplicateKeyError when key exists in idx.
func (tx *batchWriter) checkAbsent(t *Table, idx *Index, key []byte) error {
	v, found, err := tx.get(key)
	if err != nil || !found {
		return err
	}
	var existing Row
	if idx.Primary {
		existing, _, _ = decodeRow(nil, t, v)
	} else {
		existing = tx.rowByPK(t, bytes.Clone(v))
	}
	existing = existing.Clone()
	return &DuplicateKeyError{Table: t.DB + "." + t.Name, Index: idx.Name, Existing: existing}
}

// rowByPK returns the row whose primary key columns are pkCols, or nil.
func (tx *batchWriter) rowByPK(t *Table, pkCols []byte) Row {
	k := append(append([]byte(nil), t.Primary.prefix...), pkCols...)
	v, found, err := tx.get(k)
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
func (tx *batchWriter) checkUnique(t *Table, idx *Index, row, old Row) error {
	if !idx.Unique || hasNull(idx, row) {
		return nil
	}
	key := appendIndexKey(nil, t, idx, row)
	if old != nil && !hasNull(idx, old) && bytes.Equal(key, appendIndexKey(nil, t, idx, old)) {
		return nil
	}
	return withKey(tx.checkAbsent(t, idx, key), t, idx, row)
}

// putSecondary writes row's entry in secondary index idx. For a unique
// index it also checks the key is free (used when building an index).
func (tx *batchWriter) putSecondary(t *Table, idx *Index, row Row, rowID uint64) error {
	pkCols := appendPKColumns(nil, t, row, rowID)
	key := secondaryKey(nil, t, idx, row, pkCols)
	if idx.Unique && !hasNull(idx, row) {
		if err := tx.checkAbsent(t, idx, key); err != nil {
			return withKey(err, t, idx, row)
		}
	}
	return tx.set(key, pkCols)
}

// deleteRow removes row (as stored) and its index entries.
func (tx *batchWriter) deleteRow(t *Table, row Row, rowID uint64) error {
	pkCols := appendPKColumns(nil, t, row, rowID)
	if err := tx.del(append(append([]byte(nil), t.Primary.prefix...), pkCols...)); err != nil {
		return err
	}
	for _, idx := range t.secondaries() {
		if err := tx.del(secondaryKey(nil, t, idx, row, pkCols)); err != nil {
			return err
		}
	}
	tx.rows++
	tx.count(t, -1)
	return nil
}

// updateRow replaces old (as stored) by row. Unique indexes are checked
// before anything is written.
func (tx *batchWriter) updateRow(t *Table, old, row Row, rowID uint64) error {
	if err := checkRow(t, row); err != nil {
		return err
	}
	tx.oldPK = appendPKColumns(tx.oldPK[:0], t, old, rowID)
	tx.newPK = appendPKColumns(tx.newPK[:0], t, row, rowID)
	oldPK, newPK := tx.oldPK, tx.newPK
	pkChanged := !bytes.Equal(oldPK, newPK)
	if pkChanged {
		if err := tx.checkAbsent(t, t.Primary, append(append([]byte(nil), t.Primary.prefix...), newPK...)); err != nil {
			return withKey(err, t, t.Primary, row)
		}
	}
	for _, idx := range t.secondaries() {
		if err := tx.checkUnique(t, idx, row, old); err != nil {
			return err
		}
	}
	if pkChanged {
		if err := tx.del(append(append([]byte(nil), t.Primary.prefix...), oldPK...)); err != nil {
			return err
		}
	}
	tx.key = append(append(tx.key[:0], t.Primary.prefix...), newPK...)
	tx.buf = encodeRow(tx.buf[:0], t, row, rowID)
	if err := tx.set(tx.key, tx.buf); err != nil {
		return err
	}
	for _, idx := range t.secondaries() {
		ok := secondaryKey(nil, t, idx, old, oldPK)
		nk := secondaryKey(nil, t, idx, row, newPK)
		if !pkChanged && bytes.Equal(ok, nk) {
			continue
		}
		if err := tx.del(ok); err != nil {
			return err
		}
		if err := tx.set(nk, newPK); err != nil {
			return err
		}
	}
	tx.rows++
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
func (tx *batchWriter) FindModify(t *Table, q *Query, m *Modify) (int, error) {
	if len(m.Values) < len(m.Columns) && m.Op != ModDelete {
		return 0, tableError(ErrBadRow, t, "")
	}
	// The rows found are copied into scratch space the batchWriter keeps
	// (a row appended after the space grew keeps pointing at the old
	// array, which stays valid), so a find-modify allocates nothing once
	// warm.
	tx.fm, tx.fmVals, tx.fmBytes = tx.fm[:0], tx.fmVals[:0], tx.fmBytes[:0]
	err := tx.rs.find(tx.b, t, q, func(r Row) bool {
		start := len(tx.fmVals)
		for _, v := range r {
			if v.B != nil {
				b0 := len(tx.fmBytes)
				tx.fmBytes = append(tx.fmBytes, v.B...)
				v.B = tx.fmBytes[b0:len(tx.fmBytes):len(tx.fmBytes)]
			}
			tx.fmVals = append(tx.fmVals, v)
		}
		tx.fm = append(tx.fm, found{row: tx.fmVals[start:len(tx.fmVals):len(tx.fmVals)], rowID: tx.rs.rowID})
		return true
	})
	if err != nil {
		return 0, err
	}
	n := 0
	nr := tx.fmNew[:0]
	defer func() { tx.fmNew = nr[:0] }()
	for _, f := range tx.fm {
		if m.Before != nil {
			m.Before(f.row)
		}
		if m.Op == ModDelete {
			if err := tx.deleteRow(t, f.row, f.rowID); err != nil {
				return n, err
			}
			n++
			continue
		}
		nr = append(nr[:0], f.row...)
		if !applyMod(t, m, nr) {
			continue
		}
		if err := tx.updateRow(t, f.row, nr, f.rowID); err != nil {
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
func (tx *batchWriter) Delete(t *Table, row Row) (bool, error) {
	stored, rowID, err := tx.lookup(t, row)
	if err != nil || stored == nil {
		return false, err
	}
	return true, tx.deleteRow(t, stored, rowID)
}

// Update replaces the row whose primary key equals that of old by row.
// It reports whether a row was there.
func (tx *batchWriter) Update(t *Table, old, row Row) (bool, error) {
	if len(row) != len(t.Columns) {
		return false, tableError(ErrBadRow, t, "")
	}
	stored, rowID, err := tx.lookup(t, old)
	if err != nil || stored == nil {
		return false, err
	}
	return true, tx.updateRow(t, stored, row, rowID)
}

// lookup finds the stored row with row's primary key (for a table without
// one: the first row equal to row in every column).
func (tx *batchWriter) lookup(t *Table, row Row) (Row, uint64, error) {
	if len(row) != len(t.Columns) {
		return nil, 0, tableError(ErrBadRow, t, "")
	}
	if !t.Primary.Hidden {
		k := tx.primaryKey(nil, t, row, 0)
		v, found, err := tx.get(k)
		if err != nil || !found {
			return nil, 0, err
		}
		r, _, err := decodeRow(nil, t, v)
		return r.Clone(), 0, err
	}
	var (
		hit   Row
		rowID uint64
	)
	err := tx.rs.find(tx.b, t, &Query{Index: t.Primary, Op: OpGE}, func(r Row) bool {
		for i := range r {
			if types.Compare(&t.Columns[i].Type, r[i], row[i]) != 0 {
				return true
			}
		}
		hit, rowID = r.Clone(), tx.rs.rowID
		return false
	})
	return hit, rowID, err
}
