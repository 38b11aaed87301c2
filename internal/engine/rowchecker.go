package engine

// A RowChecker checks the row changes of HandlerSocket writes against
// constraints the engine does not know: the SQL front's foreign keys. SQL
// writes are checked by the SQL front before they reach the engine (and
// not at all under foreign_key_checks=0), so only the two write paths
// HandlerSocket takes consult it: Job.CheckedInsert and Job.FindModify.
//
// A write of a table the checker says nothing about costs one atomic load
// and its Involves call; Insert, Update and Delete (what SQL transactions
// replay) never consult it.

// RowChecker is consulted inside the writer's jobs, on the writer
// goroutine: it must not block on anything but the engine, and may read
// and write through the job it is given.
type RowChecker interface {
	// Involves reports whether changes of t need Check. It is called for
	// every row HandlerSocket writes and must be cheap.
	Involves(t *Table) bool
	// Check is called before each change of a row of t: old is nil for
	// an insert, row nil for a delete. It returns the error that refuses
	// the change, after making the changes the change implies (the
	// cascades of a foreign key) through tx.
	Check(tx *Job, t *Table, old, row Row) error
}

type rowCheckerBox struct{ c RowChecker }

// SetRowChecker installs c (nil removes it). It is safe to call at any
// time; jobs that already started may still use the previous checker.
func (e *Engine) SetRowChecker(c RowChecker) {
	if c == nil {
		e.checker.Store(nil)
		return
	}
	e.checker.Store(&rowCheckerBox{c})
}

// rowChecker returns the checker when it involves t, else nil.
func (tx *Job) rowChecker(t *Table) RowChecker {
	if b := tx.e.checker.Load(); b != nil && b.c.Involves(t) {
		return b.c
	}
	return nil
}

// CheckedInsert is Insert for a write that did not go through SQL
// (HandlerSocket's): the row checker sees the row first.
func (tx *Job) CheckedInsert(t *Table, row Row) (uint64, error) {
	if c := tx.rowChecker(t); c != nil {
		if err := c.Check(tx, t, nil, row); err != nil {
			return 0, err
		}
	}
	return tx.Insert(t, row)
}

// FindModify is batchWriter.FindModify (see there) with the row checker
// consulted before each row changes, when it involves t. The rows are then
// copied and changed one by one through Update and Delete.
func (tx *Job) FindModify(t *Table, q *Query, m *Modify) (int, error) {
	c := tx.rowChecker(t)
	if c == nil {
		return tx.batchWriter.FindModify(t, q, m)
	}
	if len(m.Values) < len(m.Columns) && m.Op != ModDelete {
		return 0, tableError(ErrBadRow, t, "")
	}
	var rows []Row
	if err := tx.Find(t, q, func(r Row) bool {
		rows = append(rows, r.Clone())
		return true
	}); err != nil {
		return 0, err
	}
	n := 0
	for _, r := range rows {
		if m.Before != nil {
			m.Before(r)
		}
		if m.Op == ModDelete {
			if err := c.Check(tx, t, r, nil); err != nil {
				return n, err
			}
			if _, err := tx.Delete(t, r); err != nil {
				return n, err
			}
			n++
			continue
		}
		nr := r.Clone()
		if !applyMod(t, m, nr) {
			continue
		}
		if err := c.Check(tx, t, r, nr); err != nil {
			return n, err
		}
		if _, err := tx.Update(t, r, nr); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
