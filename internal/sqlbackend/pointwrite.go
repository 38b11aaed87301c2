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

// PointWrite makes, as an autocommit statement of the session, the UPDATE
// (change returns the new row) or DELETE (change is nil) of the row of t
// whose primary key is key, the way go-mysql-server's plan of that
// statement makes it over this backend: the newest committed row, locked
// exclusively (read again when the lock had to be waited for), changed in
// the session's engine transaction and committed. matched reports that
// the row exists, changed that it was written (an UPDATE that leaves the
// row as it was writes nothing).
//
// ok is false, with nothing written and no lock held, when the statement
// must go to go-mysql-server instead: the session has a transaction or
// locks of its own, change declines the row (returns ok false), or the
// engine refuses the write (a duplicate, a read-only engine). err is an
// error of the lock (a wait timeout) or of the commit, as the statement
// would have returned it.
//
// Call it on the session's goroutine between SessionCommandBegin and
// SessionCommandEnd, outside any go-mysql-server transaction.
func (s *Session) PointWrite(ctx *sql.Context, t *engine.Table, key []types.Value, change func(old engine.Row) (engine.Row, bool)) (matched, changed, ok bool, err error) {
	if !s.idle() || t.Primary.Hidden {
		return false, false, false, nil
	}
	row, err := primaryRow(s.p.e, t, key)
	if err != nil || row == nil {
		return false, false, err == nil, MapError(err)
	}
	fresh, err := s.lockRow(ctx, t, row, lockExclusive)
	if err != nil {
		s.releaseTxnState()
		return false, false, true, err
	}
	if fresh {
		if row, err = primaryRow(s.p.e, t, key); err != nil || row == nil {
			s.releaseTxnState()
			return false, false, err == nil, MapError(err)
		}
	}
	var nrow engine.Row
	if change != nil {
		if nrow, ok = change(row); !ok {
			s.releaseTxnState()
			return false, false, false, nil
		}
		if sameRow(row, nrow) {
			s.releaseTxnState()
			return true, false, true, nil
		}
	}
	x := s.writeTxnNoCheck()
	if change != nil {
		if _, err = x.Update(t, row, nrow); err == nil {
			s.stmtIDs.noteUpdate(t, row, nrow)
		}
	} else {
		_, err = x.Delete(t, row)
	}
	if err != nil {
		s.stmtIDs = StatementIDs{}
		s.dropTxn()
		return false, false, false, nil
	}
	if err := s.CommitTransaction(ctx, nil); err != nil {
		return true, false, true, err
	}
	return true, true, true, nil
}

// PointInsert makes, as an autocommit statement of the session, the
// INSERT of row into t the way go-mysql-server's plan of a one-row INSERT
// makes it over this backend: the row inserted in the session's engine
// transaction (an AUTO_INCREMENT column that is NULL or 0 takes the next
// id, written into row) and committed. id is the id generated, 0 for
// none. ok is false, with nothing written, when the statement must go to
// go-mysql-server instead: the session has a transaction of its own, or
// the engine refuses the row (a duplicate key, a read-only engine). err is
// an error of the commit. Call it as PointWrite.
func (s *Session) PointInsert(ctx *sql.Context, t *engine.Table, row engine.Row) (id uint64, ok bool, err error) {
	if !s.idle() {
		return 0, false, nil
	}
	x := s.writeTxnNoCheck()
	id, err = x.Insert(t, row)
	if err != nil {
		s.dropTxn()
		return 0, false, nil
	}
	s.stmtIDs.noteInsert(t, row, id)
	if err := s.CommitTransaction(ctx, nil); err != nil {
		return 0, true, err
	}
	return id, true, nil
}
