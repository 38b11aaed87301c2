package sqlbackend

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Session is one SQL connection's session. It owns the connection's
// engine transaction: go-mysql-server starts a transaction before every
// statement (and commits it after the statement under autocommit, or at
// COMMIT), and the engine.Txn behind it is begun lazily, at the first
// write, so that a read-only statement costs nothing. Until then reads see
// committed data; afterwards they see committed data plus the session's
// own writes (READ COMMITTED).
//
// A Session is used by one connection at a time and is not safe for
// concurrent use, like go-mysql-server's own sessions.
type Session struct {
	*sql.BaseSession
	p *Provider

	txn        *engine.Txn
	savepoints []namedSavepoint
	gen        uint64               // counts the transactions begun
	stmtRefs   int                  // editors between StatementBegin and its end
	stmtClean  bool                 // the transaction was empty when the statement began
	stmtTable  uint32               // id of the table the statement writes first
	openIters  int                  // iterators open on txn's batch
	pendingRB  *engine.TxnSavepoint // a rollback waiting for openIters to reach 0
	functions  []string             // the stored functions being evaluated, outermost first (routines.go)
}

type namedSavepoint struct {
	name string
	sp   engine.TxnSavepoint
}

// transaction is go-mysql-server's handle on a session transaction; the
// state lives in the Session.
type transaction struct {
	readOnly bool
}

// String names the transaction for logs.
func (t *transaction) String() string { return "handlerdb transaction" }

// IsReadOnly reports START TRANSACTION READ ONLY.
func (t *transaction) IsReadOnly() bool { return t.readOnly }

var (
	_ sql.Session               = (*Session)(nil)
	_ sql.TransactionSession    = (*Session)(nil)
	_ sql.LifecycleAwareSession = (*Session)(nil)
)

// NewSession returns a session over p built on base.
func (p *Provider) NewSession(base *sql.BaseSession) *Session {
	return &Session{BaseSession: base, p: p}
}

// SessionOf returns the HandlerDB session of ctx, or nil when ctx carries
// another kind of session.
func SessionOf(ctx *sql.Context) *Session {
	if ctx == nil {
		return nil
	}
	s, _ := ctx.Session.(*Session)
	return s
}

// HasEngineTxn reports whether the session has begun its engine
// transaction (at its first write or savepoint): until then, and again
// once it is committed or rolled back, its reads see committed data only.
func (s *Session) HasEngineTxn() bool { return s.txn != nil }

// StartTransaction begins a transaction. A transaction left behind by a
// statement that failed under autocommit (go-mysql-server then drops it
// without a rollback) is rolled back first; one that a running statement
// is writing (a procedure called by its trigger starts transactions) goes
// on.
func (s *Session) StartTransaction(ctx *sql.Context, tc sql.TransactionCharacteristic) (sql.Transaction, error) {
	if s.stmtRefs == 0 {
		s.dropTxn()
	}
	return &transaction{readOnly: tc == sql.ReadOnly}, nil
}

// CommitTransaction commits the session's writes through the engine's
// writer (re-checking unique keys against what committed meanwhile); on
// error nothing of the transaction is applied. A commit asked for while a
// writing statement is still running (by a statement of a procedure that
// a trigger of the statement calls) waits for the statement's own commit.
func (s *Session) CommitTransaction(ctx *sql.Context, tx sql.Transaction) error {
	x := s.txn
	if x == nil || s.stmtRefs > 0 {
		return nil
	}
	s.applyPendingRollback(true)
	s.txn, s.savepoints, s.openIters, s.pendingRB, s.stmtRefs = nil, nil, 0, nil, 0
	if err := x.Commit(ctx); err != nil {
		return MapError(err)
	}
	return nil
}

// Rollback drops the session's writes.
func (s *Session) Rollback(ctx *sql.Context, tx sql.Transaction) error {
	s.dropTxn()
	return nil
}

// CreateSavepoint records a named point of the transaction.
func (s *Session) CreateSavepoint(ctx *sql.Context, tx sql.Transaction, name string) error {
	x := s.writeTxnNoCheck()
	s.applyPendingRollback(true)
	for i := range s.savepoints {
		if strings.EqualFold(s.savepoints[i].name, name) {
			s.savepoints = append(s.savepoints[:i], s.savepoints[i+1:]...)
			break
		}
	}
	s.savepoints = append(s.savepoints, namedSavepoint{name: name, sp: x.Savepoint()})
	return nil
}

// RollbackToSavepoint drops the writes made after the named savepoint and
// every savepoint made after it.
func (s *Session) RollbackToSavepoint(ctx *sql.Context, tx sql.Transaction, name string) error {
	for i := len(s.savepoints) - 1; i >= 0; i-- {
		if strings.EqualFold(s.savepoints[i].name, name) {
			sp := s.savepoints[i].sp
			s.savepoints = s.savepoints[:i+1]
			s.rollbackTo(sp)
			return nil
		}
	}
	return sql.ErrSavepointDoesNotExist.New(name)
}

// ReleaseSavepoint forgets the named savepoint.
func (s *Session) ReleaseSavepoint(ctx *sql.Context, tx sql.Transaction, name string) error {
	for i := len(s.savepoints) - 1; i >= 0; i-- {
		if strings.EqualFold(s.savepoints[i].name, name) {
			s.savepoints = append(s.savepoints[:i], s.savepoints[i+1:]...)
			return nil
		}
	}
	return sql.ErrSavepointDoesNotExist.New(name)
}

// CommandBegin is called before each command of the connection.
func (s *Session) CommandBegin() error {
	s.stmtRefs = 0
	return nil
}

// statementBegin records that a writing statement starts (once per
// editor; t is the table the editor writes). While it runs, its reads of
// the table it writes first do not see its own writes: a table read twice
// by one statement (the inner side of UPDATE ... JOIN, INSERT ... SELECT
// from the same table) must not find rows the statement has just changed.
// Other tables (those a trigger writes and then reads) are read with the
// statement's writes. When the transaction held nothing before the
// statement, those snapshot reads go to committed data; otherwise they see
// the transaction's earlier writes and the statement's own ones too (the
// engine has no snapshot of a transaction to read instead).
func (s *Session) statementBegin(x *engine.Txn, t *engine.Table) {
	if s.stmtRefs == 0 {
		s.stmtClean, s.stmtTable = x.Empty(), t.ID
	}
	s.stmtRefs++
}

// readsCommitted reports whether a read of t goes to committed data
// rather than to the transaction (see statementBegin).
func (s *Session) readsCommitted(t *engine.Table) bool {
	return s.txn == nil || (s.stmtRefs > 0 && s.stmtClean && t.ID == s.stmtTable)
}

// statementEnd records that an editor's statement ended.
func (s *Session) statementEnd() {
	if s.stmtRefs > 0 {
		s.stmtRefs--
	}
}

// CommandEnd is called after each command of the connection.
func (s *Session) CommandEnd() {}

// SessionEnd rolls back whatever the closing connection left uncommitted.
func (s *Session) SessionEnd() { s.dropTxn() }

// writeTxn returns the session's engine transaction, beginning it if
// needed, or an error inside a READ ONLY transaction.
func (s *Session) writeTxn() (*engine.Txn, error) {
	if tx, ok := s.GetTransaction().(*transaction); ok && tx.readOnly {
		return nil, sql.ErrReadOnlyTransaction.New()
	}
	return s.writeTxnNoCheck(), nil
}

func (s *Session) writeTxnNoCheck() *engine.Txn {
	if s.txn == nil {
		s.txn = s.p.e.Begin()
		s.gen++
		s.openIters = 0
	}
	s.applyPendingRollback(false)
	return s.txn
}

// rollbackTo drops the writes made after sp, now or, while iterators are
// open on the transaction, as soon as the last one closes (rolling back
// replaces the batch they read).
func (s *Session) rollbackTo(sp engine.TxnSavepoint) {
	if s.txn == nil {
		return
	}
	if s.pendingRB != nil {
		// An earlier statement point is still pending: it is at or
		// before sp unless sp belongs to a later savepoint.
		s.applyPendingRollback(true)
	}
	if s.openIters > 0 {
		s.pendingRB = &sp
		return
	}
	s.txn.RollbackTo(sp)
}

// applyPendingRollback performs a rollback deferred by rollbackTo once no
// iterator is open (or regardless, with force: the iterators are stale).
func (s *Session) applyPendingRollback(force bool) {
	if s.pendingRB == nil || s.txn == nil {
		s.pendingRB = nil
		return
	}
	if s.openIters > 0 && !force {
		return
	}
	sp := *s.pendingRB
	s.pendingRB = nil
	s.txn.RollbackTo(sp)
}

func (s *Session) dropTxn() {
	if s.txn != nil {
		s.txn.Rollback()
	}
	s.txn, s.savepoints, s.openIters, s.pendingRB, s.stmtRefs = nil, nil, 0, nil, 0
}

// commitPending commits what the session wrote before a DDL statement,
// as MySQL does implicitly.
func (s *Session) commitPending(ctx *sql.Context) error {
	if s == nil || s.txn == nil {
		return nil
	}
	return s.CommitTransaction(ctx, s.GetTransaction())
}

// source opens iterators for one table read: over the session's
// transaction when it has one, else over committed data.
type source struct {
	e    *engine.Engine
	sess *Session
	// own makes every read see the session's writes, the statement's own
	// too: foreign key checks and actions read that way (see fk.go).
	own bool
}

func newSource(ctx *sql.Context, e *engine.Engine) *source {
	return &source{e: e, sess: SessionOf(ctx)}
}

// open returns an iterator and the transaction generation it reads (0 for
// committed data), which closed needs.
func (s *source) open(t *engine.Table, idx *engine.Index, rg engine.Range, reverse bool) (*engine.Iterator, uint64, error) {
	if s.sess != nil && s.sess.txn != nil && (s.own || !s.sess.readsCommitted(t)) {
		s.sess.applyPendingRollback(false)
		it, err := s.sess.txn.NewIterator(t, idx, rg, reverse)
		if err != nil {
			return nil, 0, err
		}
		s.sess.openIters++
		return it, s.sess.gen, nil
	}
	it, err := s.e.NewIterator(t, idx, rg, reverse)
	return it, 0, err
}

// closed records that an iterator opened by open on generation gen was
// closed.
func (s *source) closed(gen uint64) {
	if gen == 0 || s.sess == nil || gen != s.sess.gen {
		return
	}
	if s.sess.openIters > 0 {
		s.sess.openIters--
	}
	if s.sess.openIters == 0 {
		s.sess.applyPendingRollback(false)
	}
}
