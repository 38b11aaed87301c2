package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Point writes: an autocommit UPDATE or DELETE of the one row a primary
// key names, made by the SQL front's fast path without go-mysql-server's
// plan and iterators (sqlfront/pointwrite.go). Only the success of a
// plain write is served here; anything else (a trigger, a foreign key, a
// constraint, a value the front cannot convert exactly, an error of the
// engine's write) leaves nothing behind and sends the statement to
// go-mysql-server, whose answer is then the statement's.

// WritesPlain reports whether an UPDATE or DELETE (or with insert an
// INSERT) of rows of t changes only those rows, checking nothing more
// than the engine does: no trigger in t's database, no foreign key
// involving t, no CHECK constraint, no generated, ON UPDATE or JSON
// column (and for an INSERT no DEFAULT expression). It reads the
// catalog's SQL attributes; the caller keeps the answer while SchemaGen
// is unchanged. Safe for concurrent use.
func (p *Provider) WritesPlain(t *engine.Table, insert bool) bool {
	if p.Involves(t) {
		return false
	}
	d := &database{p: p, name: t.DB}
	o, err := d.objects()
	if err != nil || len(o.Triggers) > 0 {
		return false
	}
	m, err := p.tableMeta(t.ID)
	if err != nil {
		return false
	}
	return len(m.Checks) == 0 && len(m.ColumnChecks) == 0 && len(m.OnUpdate) == 0 &&
		len(m.Generated) == 0 && len(m.Stored) == 0 && len(m.JSON) == 0 && (!insert || len(m.Defaults) == 0)
}

// idle reports whether the session holds nothing of a transaction: no
// engine transaction, locks, snapshot, running statement or rollback of a
// deadlock victim.
func (s *Session) idle() bool {
	return s.txn == nil && !s.locked && !s.victim && s.stmtRefs == 0 && s.snap == nil
}

// pointTxn returns the engine transaction a point write of the session
// writes to, and whether the statement runs inside a transaction that
// outlives it (BEGIN, or autocommit off) rather than as an autocommit
// statement. ok is false when the write must go to go-mysql-server: an
// autocommit statement of a session that holds a transaction's state, a
// statement running or iterators open on the transaction, a deadlock's
// rollback pending, a READ ONLY transaction (whose error go-mysql-server
// reports), the global read lock held (the general path waits for it).
func (s *Session) pointTxn(ctx *sql.Context) (x *engine.Txn, multi, ok bool) {
	multi = inMultiStatementTxn(ctx)
	if s.victim || s.stmtRefs > 0 || s.openIters > 0 || s.pendingRB != nil || !multi && !s.idle() || s.p.e.ReadLocked() {
		return nil, multi, false
	}
	x, err := s.writeTxn()
	return x, multi, err == nil
}

// pointEnd ends a point write that wrote nothing: an autocommit
// statement lets go of its lock; a longer transaction keeps it, as it
// keeps the lock of a statement that failed.
func (s *Session) pointEnd(multi bool) {
	if !multi {
		s.dropTxn()
	}
}

// pointCommit ends a point write that wrote: an autocommit statement
// commits (returning the commit's error); inside a longer transaction the
// write stays in it.
func (s *Session) pointCommit(ctx *sql.Context, multi bool) error {
	if multi {
		return nil
	}
	return s.CommitTransaction(ctx, nil)
}

// PointWrite makes the UPDATE (change returns the new row) or DELETE
// (change is nil) of the row of t whose primary key is key, as a
// statement of the session, the way go-mysql-server's plan of that
// statement makes it over this backend: the row as the statement reads it
// (the newest commit, or the transaction's writes over it when the
// transaction has written before), locked exclusively (read again when
// the lock had to be waited for), changed in the session's engine
// transaction, and committed when the statement is an autocommit one.
// matched reports that the row exists, changed that it was written (an
// UPDATE that leaves the row as it was writes nothing).
//
// ok is false, with nothing written, when the statement must go to
// go-mysql-server instead (see pointTxn), when change declines the row
// (returns ok false), or when the engine refuses the write (a duplicate, a
// read-only engine). An autocommit statement then holds no lock either; a
// longer transaction keeps the row's lock, which go-mysql-server's run of
// the statement takes again. err is an error of the lock (a wait timeout,
// a deadlock) or of the commit, as the statement would have returned it.
//
// Call it on the session's goroutine between SessionCommandBegin and
// SessionCommandEnd, with go-mysql-server's transaction open for a
// statement inside a longer transaction.
func (s *Session) PointWrite(ctx *sql.Context, t *engine.Table, key []types.Value, change func(old engine.Row) (engine.Row, bool)) (matched, changed, ok bool, err error) {
	if t.Primary.Hidden {
		return false, false, false, nil
	}
	x, multi, ok := s.pointTxn(ctx)
	if !ok {
		return false, false, false, nil
	}
	// Reads of the table a statement writes go to committed data while
	// the transaction is empty (readsCommitted).
	var f rowFinder = s.p.e
	if !x.Empty() {
		f = x
	}
	row, err := primaryRow(f, t, key)
	if err != nil || row == nil {
		s.pointEnd(multi)
		return false, false, err == nil, MapError(err)
	}
	fresh, err := s.lockRow(ctx, t, row, lockExclusive)
	if err != nil {
		s.pointEnd(multi)
		return false, false, true, err
	}
	if fresh {
		if row, err = primaryRow(f, t, key); err != nil || row == nil {
			s.pointEnd(multi)
			return false, false, err == nil, MapError(err)
		}
	}
	var nrow engine.Row
	if change != nil {
		if nrow, ok = change(row); !ok {
			s.pointEnd(multi)
			return false, false, false, nil
		}
		if sameRow(row, nrow) {
			s.pointEnd(multi)
			return true, false, true, nil
		}
	}
	sp := x.Savepoint()
	if change != nil {
		if _, err = x.Update(t, row, nrow); err == nil {
			s.stmtIDs.noteUpdate(t, row, nrow)
		}
	} else {
		_, err = x.Delete(t, row)
	}
	if err != nil {
		s.rollbackTo(sp)
		s.pointEnd(multi)
		return false, false, false, nil
	}
	if err := s.pointCommit(ctx, multi); err != nil {
		return true, false, true, err
	}
	return true, true, true, nil
}

// PointInsert makes the INSERT of row into t, as a statement of the
// session, the way go-mysql-server's plan of a one-row INSERT makes it
// over this backend: the row inserted in the session's engine
// transaction (an AUTO_INCREMENT column that is NULL or 0 takes the next
// id, written into row), or for an autocommit statement in a job of its
// own (Engine.InsertNow: the same commit without the transaction). id is the id generated, 0 for none. ok is false, with nothing
// written, when the statement must go to go-mysql-server instead (see
// pointTxn) or the engine refuses the row (a duplicate key, a read-only
// engine). err is an error of the commit. Call it as PointWrite.
func (s *Session) PointInsert(ctx *sql.Context, t *engine.Table, row engine.Row) (id uint64, ok bool, err error) {
	if !inMultiStatementTxn(ctx) {
		// An autocommit insert is a job of its own (Engine.InsertNow).
		if !s.idle() {
			return 0, false, nil
		}
		id, refused, err := s.p.e.InsertNow(ctx, t, row)
		if refused != nil {
			return 0, false, nil
		}
		if err != nil {
			return 0, true, MapError(err)
		}
		s.stmtIDs.noteInsert(t, row, id)
		return id, true, nil
	}
	x, multi, ok := s.pointTxn(ctx)
	if !ok {
		return 0, false, nil
	}
	sp := x.Savepoint()
	if id, err = x.Insert(t, row); err != nil {
		s.rollbackTo(sp)
		s.pointEnd(multi)
		return 0, false, nil
	}
	s.stmtIDs.noteInsert(t, row, id)
	if err := s.pointCommit(ctx, multi); err != nil {
		return 0, true, err
	}
	return id, true, nil
}
