package engine

import (
	"context"
)

// Txn is a multi-statement transaction (SQL's BEGIN ... COMMIT). Its writes
// go to a private batch over the committed data, so the transaction reads
// its own writes and nobody else sees them; unique keys are checked as each
// statement runs. Commit replays the transaction's row changes as one
// writer job, re-running every check against what committed meanwhile, so
// the transaction applies whole or not at all. Rollback drops it.
//
// A Txn is not safe for concurrent use: it belongs to one session.
// Find and NewIterator see committed data as it is at the moment of the
// read, plus the transaction's own writes (READ COMMITTED, and the current
// reads of locking statements); NewSnapshotIterator sees a Snapshot plus
// the transaction's writes (REPEATABLE READ). Writes and their checks are
// always against the newest committed data. Row locks are not the Txn's:
// the SQL session keeps them in a Locker (locks.go).
type Txn struct {
	w   batchWriter
	log []txnOp
	ws  txnWriteSet // the keys written, for snapshot reads (snapshot.go)
	// broken is set when a rollback to a savepoint could not rebuild the
	// batch: Commit then fails with it.
	broken error
	// quiet is set when no writer job was running or unfinished at
	// Begin; seq is then the engine's jobsStarted of that moment. If the
	// commit's job is the next job to start, nothing was written since,
	// so the duplicate-key checks every insert passed at its statement
	// still hold and the replay skips them.
	quiet bool
	seq   uint64
}

type txnOpKind uint8

const (
	txnInsert txnOpKind = iota
	txnUpdate
	txnDelete
)

type txnOp struct {
	kind     txnOpKind
	t        *Table
	old, row Row
	keepZero bool // an insert that keeps an explicit 0 id (InsertKeepZero)
}

// TxnSavepoint marks a point of a transaction to roll back to (the start
// of a statement, for statement atomicity).
type TxnSavepoint struct {
	size  int
	count uint32
	log   int
}

// Begin starts a transaction.
func (e *Engine) Begin() *Txn {
	x := &Txn{w: batchWriter{e: e, b: e.db.NewIndexedBatch()}}
	x.w.cachedReads(e)
	// jobsDone == jobsStarted (read in this order): every job begun so
	// far has ended, so the checks from now on read all it wrote.
	x.seq = e.jobsStarted.Load()
	x.quiet = e.jobsDone.Load() == x.seq
	return x
}

// Insert is Job.Insert inside the transaction. AUTO_INCREMENT ids are taken
// now, and kept even if the transaction rolls back (as InnoDB does).
func (x *Txn) Insert(t *Table, row Row) (uint64, error) {
	return x.insert(t, row, false)
}

// InsertKeepZero is Insert where an explicit 0 in the AUTO_INCREMENT
// column is stored as 0 and only NULL takes the next id (SQL's
// NO_AUTO_VALUE_ON_ZERO). The kept 0 takes no id from the counter, as in
// MySQL and in MariaDB (except one InnoDB quirk: right after a first
// generated id 1, MariaDB's counter skips one; corpus 13-sqlmode).
func (x *Txn) InsertKeepZero(t *Table, row Row) (uint64, error) {
	return x.insert(t, row, true)
}

func (x *Txn) insert(t *Table, row Row, keepZero bool) (uint64, error) {
	id, err := x.w.insert(t, row, keepZero)
	if err == nil {
		x.log = append(x.log, txnOp{kind: txnInsert, t: t, row: row.Clone(), keepZero: keepZero})
	}
	return id, err
}

// Update replaces the row with old's primary key by row.
func (x *Txn) Update(t *Table, old, row Row) (bool, error) {
	ok, err := x.w.Update(t, old, row)
	if err == nil && ok {
		x.log = append(x.log, txnOp{kind: txnUpdate, t: t, old: old.Clone(), row: row.Clone()})
	}
	return ok, err
}

// Delete removes the row with row's primary key.
func (x *Txn) Delete(t *Table, row Row) (bool, error) {
	ok, err := x.w.Delete(t, row)
	if err == nil && ok {
		x.log = append(x.log, txnOp{kind: txnDelete, t: t, row: row.Clone()})
	}
	return ok, err
}

// Find runs q over committed data plus the transaction's writes.
func (x *Txn) Find(t *Table, q *Query, fn func(Row) bool) error {
	return x.w.rs.find(x.w.b, t, q, fn)
}

// NewIterator iterates committed data plus the transaction's writes as of
// the call.
func (x *Txn) NewIterator(t *Table, idx *Index, rg Range, reverse bool) (*Iterator, error) {
	return newIterator(x.w.b, t, idx, rg, reverse, false)
}

// Empty reports whether the transaction has written nothing.
func (x *Txn) Empty() bool { return len(x.log) == 0 }

// Savepoint returns the current point of the transaction.
func (x *Txn) Savepoint() TxnSavepoint {
	return TxnSavepoint{size: x.w.b.Len(), count: x.w.b.Count(), log: len(x.log)}
}

// RollbackTo drops every write made after sp.
func (x *Txn) RollbackTo(sp TxnSavepoint) {
	if err := x.w.truncate(sp.size, sp.count); err != nil && x.broken == nil {
		x.broken = err
	}
	clear(x.log[sp.log:])
	x.log = x.log[:sp.log]
}

// Commit applies the transaction through the writer and ends it. On error
// (a unique key taken by a transaction that committed first, a closed
// engine, a failed group commit) nothing of it is applied.
func (x *Txn) Commit(ctx context.Context) error {
	defer x.Rollback()
	if x.broken != nil {
		return &Error{Kind: ErrCommitFailed, Detail: x.broken.Error(), Err: x.broken}
	}
	if len(x.log) == 0 {
		return nil
	}
	log := x.log
	quiet, seq := x.quiet, x.seq
	// (prompt: a session commits one transaction at a time)
	return x.w.e.update(ctx, func(tx *Job) error {
		// This job is the first since Begin: the store is as the
		// statements checked it (see Txn.quiet).
		tx.unchecked = quiet && tx.e.jobsStarted.Load() == seq+1
		defer func() { tx.unchecked = false }()
		// The rows it changes are locked by its session (editor.Update
		// and Delete lock each one).
		tx.OwnRows()
		for i := range log {
			op := &log[i]
			t := tx.current(op.t)
			if t == nil {
				return tableError(ErrTableDefChanged, op.t, op.t.DB+"."+op.t.Name)
			}
			var err error
			switch op.kind {
			case txnInsert:
				_, err = tx.insert(t, op.row.Clone(), op.keepZero)
			case txnUpdate:
				_, err = tx.Update(t, op.old, op.row)
			case txnDelete:
				_, err = tx.Delete(t, op.row)
			}
			if err != nil {
				return err
			}
		}
		return nil
	}, true)
}

// InsertNow inserts row into t as a job of its own: what a transaction
// holding only that insert commits, without the transaction's batch and
// the duplicate check its Insert makes before the commit makes it again
// (an ascending key's check costs no read in the writer: bounds.go). An
// AUTO_INCREMENT column that is NULL or 0 takes the next id, returned and
// written into row. refused is the insert's own error (a duplicate key, t
// replaced or dropped since, a read-only engine), with nothing written;
// err is the commit's.
func (e *Engine) InsertNow(ctx context.Context, t *Table, row Row) (id uint64, refused, err error) {
	err = e.update(ctx, func(tx *Job) error {
		if tx.current(t) != t {
			refused = tableError(ErrTableDefChanged, t, t.DB+"."+t.Name)
			return refused
		}
		id, refused = tx.Insert(t, row)
		return refused
	}, true) // (prompt: a SQL statement of its own)
	if refused != nil {
		return 0, refused, nil
	}
	return id, nil, err
}

// Rollback ends the transaction, dropping its writes. Safe to call twice.
func (x *Txn) Rollback() {
	if x.w.b != nil {
		x.w.b.Close()
		x.w.b = nil
	}
	x.log = nil
	x.ws = txnWriteSet{}
}

// current returns the catalog's present version of t (DDL may have
// replaced the definition since the statement ran), or nil if t is gone.
func (tx *Job) current(t *Table) *Table {
	d := tx.cat.dbs[t.DB]
	if d == nil {
		return nil
	}
	n := d.tables[t.Name]
	if n == nil || n.ID != t.ID {
		return nil
	}
	return n
}
