package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// editor writes the rows of one statement into the session's engine
// transaction. StatementBegin marks a savepoint and DiscardChanges rolls
// back to it, so a statement that fails part way leaves nothing behind,
// even inside a longer transaction. Under a context without a HandlerDB
// session (go-mysql-server's internal contexts) the editor runs its own
// transaction and commits it when closed.
//
// An editor belongs to one statement of one session and is not safe for
// concurrent use.
type editor struct {
	t     *table
	sess  *Session
	own   *engine.Txn
	sp    engine.TxnSavepoint
	spSet bool
	err   error
}

var _ sql.TableEditor = (*editor)(nil)

func (t *table) newEditor(ctx *sql.Context) *editor {
	return &editor{t: t, sess: SessionOf(ctx)}
}

// txn returns the transaction the editor writes to.
func (ed *editor) txn() (*engine.Txn, error) {
	if ed.sess != nil {
		return ed.sess.writeTxn()
	}
	if ed.own == nil {
		ed.own = ed.t.db.p.e.Begin()
	}
	return ed.own, nil
}

// writeTxn is txn for a row change: it first reports an error an earlier
// step of the statement left behind.
func (ed *editor) writeTxn(ctx *sql.Context) (*engine.Txn, error) {
	if ed.err != nil {
		return nil, ed.err
	}
	if err := ed.t.db.p.e.WaitWrites(ctx); err != nil { // (FLUSH TABLES WITH READ LOCK)
		return nil, MapError(err)
	}
	return ed.txn()
}

// StatementBegin marks where the statement's writes start. A second call
// before the statement ends does nothing: go-mysql-server begins the
// statement of INSERT ... ON DUPLICATE KEY UPDATE on its inserter and on
// its updater, which under a foreign key handler are the same editors,
// and ends it once.
func (ed *editor) StatementBegin(ctx *sql.Context) {
	if ed.spSet {
		return
	}
	x, err := ed.txn()
	if err != nil {
		ed.err = err
		return
	}
	ed.sp, ed.spSet = x.Savepoint(), true
	if s := SessionOf(ctx); s != nil {
		s.autoIncAsked = 0 // what an earlier statement left
	}
	if ed.sess != nil {
		ed.sess.statementBegin(x, ed.t.t)
	}
}

// DiscardChanges drops every write of the statement.
func (ed *editor) DiscardChanges(ctx *sql.Context, cause error) error {
	if !ed.spSet {
		return nil
	}
	ed.spSet = false
	if ed.sess != nil {
		ed.sess.statementEnd()
		ed.sess.rollbackTo(ed.sp)
	} else if ed.own != nil {
		ed.own.RollbackTo(ed.sp)
	}
	return nil
}

// StatementComplete keeps the statement's writes in the transaction.
func (ed *editor) StatementComplete(ctx *sql.Context) error {
	if ed.spSet && ed.sess != nil {
		ed.sess.statementEnd()
	}
	ed.spSet = false
	return nil
}

// Close commits the editor's own transaction, if it has one.
func (ed *editor) Close(ctx *sql.Context) error {
	if ed.own == nil {
		return nil
	}
	x := ed.own
	ed.own = nil
	return MapError(x.Commit(ctx))
}

// Insert inserts a row. A generated AUTO_INCREMENT id is written back into
// row, where go-mysql-server reads LAST_INSERT_ID() from.
func (ed *editor) Insert(ctx *sql.Context, row sql.Row) error {
	x, err := ed.writeTxn(ctx)
	if err != nil {
		return err
	}
	t := ed.t.t
	er, err := rowFromSQL(ctx, t, row)
	if err != nil {
		return err
	}
	var id uint64
	sess := SessionOf(ctx)
	gen := t.AutoInc >= 0 && (er[t.AutoInc].Null || er[t.AutoInc].I == 0)
	if ed.keepZero(ctx, er) {
		id, err = x.InsertKeepZero(t, er)
	} else {
		id, err = x.Insert(t, er)
	}
	if err != nil {
		if gen && !er[t.AutoInc].Null && er[t.AutoInc].I != 0 {
			// The id the engine took stays the row's, as in InnoDB: a
			// REPLACE that deletes the duplicate inserts the row again
			// with it rather than taking another.
			row[t.AutoInc] = ValueToSQL(&t.Columns[t.AutoInc].Type, er[t.AutoInc])
			if sess != nil {
				sess.stmtIDs.retryID = uint64(er[t.AutoInc].I)
			}
		}
		return dupKeyError(t, ed.t.ts.sch.Schema, err)
	}
	if id != 0 && t.AutoInc >= 0 {
		row[t.AutoInc] = ValueToSQL(&t.Columns[t.AutoInc].Type, er[t.AutoInc])
	}
	if sess != nil {
		sess.stmtIDs.noteInsert(t, er, id)
	}
	return nil
}

// keepZero reports whether row's AUTO_INCREMENT value is an explicit 0 to
// store as it is: NO_AUTO_VALUE_ON_ZERO is on and go-mysql-server did not
// ask for an id for this row (it asks, through GetNextAutoIncrementValue,
// just before inserting a row whose value is NULL, or 0 without the mode).
func (ed *editor) keepZero(ctx *sql.Context, row engine.Row) bool {
	t := ed.t.t
	if t.AutoInc < 0 {
		return false
	}
	s := SessionOf(ctx)
	asked := s != nil && s.autoIncAsked > 0
	if asked {
		s.autoIncAsked--
	}
	v := row[t.AutoInc]
	return !asked && !v.Null && v.I == 0 && SessionSQLMode(ctx).ModeEnabled(sql.NoAutoValueOnZero)
}

// Update replaces the row with old's primary key by row.
func (ed *editor) Update(ctx *sql.Context, old, row sql.Row) error {
	x, err := ed.writeTxn(ctx)
	if err != nil {
		return err
	}
	t := ed.t.t
	eo, err := rowFromSQL(ctx, t, old)
	if err != nil {
		return err
	}
	en, err := rowFromSQL(ctx, t, row)
	if err != nil {
		return err
	}
	if err := ed.lock(ctx, eo); err != nil {
		return err
	}
	if err := ed.lock(ctx, en); err != nil {
		return err
	}
	if _, err := x.Update(t, eo, en); err != nil {
		return dupKeyError(t, ed.t.ts.sch.Schema, err)
	}
	if s := SessionOf(ctx); s != nil {
		s.stmtIDs.noteUpdate(t, eo, en)
	}
	return nil
}

// Delete deletes the row with row's primary key.
func (ed *editor) Delete(ctx *sql.Context, row sql.Row) error {
	x, err := ed.writeTxn(ctx)
	if err != nil {
		return err
	}
	t := ed.t.t
	er, err := rowFromSQL(ctx, t, row)
	if err != nil {
		return err
	}
	if err := ed.lock(ctx, er); err != nil {
		return err
	}
	if _, err := x.Delete(t, er); err != nil {
		return MapError(err)
	}
	return nil
}

// lock takes the exclusive row lock of a row the statement updates or
// deletes (the row as it was, the row as it becomes), held until the
// transaction ends. Inserted rows take no lock (no other transaction sees
// them before the commit, which re-checks unique keys); rows of a table
// without a primary key are locked by their reads only.
func (ed *editor) lock(ctx *sql.Context, r engine.Row) error {
	if ed.sess == nil || ed.t.t.Primary.Hidden {
		return nil
	}
	_, err := ed.sess.lockRow(ctx, ed.t.t, r, lockExclusive)
	return err
}
