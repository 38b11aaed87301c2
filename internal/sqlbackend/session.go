package sqlbackend

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Session is one SQL connection's session. It owns the connection's
// engine transaction: go-mysql-server starts a transaction before every
// statement (and commits it after the statement under autocommit, or at
// COMMIT), and the engine.Txn behind it is begun lazily, at the first
// write, so that a read-only statement costs nothing. How reads see
// committed data and the session's own writes (a REPEATABLE READ
// snapshot, row locks) is described in isolation.go; the snapshot and the
// row locks are the Session's too, released when the transaction ends.
//
// A Session is used by one connection at a time and is not safe for
// concurrent use, like go-mysql-server's own sessions.
type Session struct {
	// foldText and foldSeen remember QueryContainsFold's answers for the
	// statement text foldText.
	foldText string
	foldSeen map[string]bool
	// autoIncAsked counts go-mysql-server's requests for an
	// AUTO_INCREMENT id that no inserted row has taken yet (table.go).
	autoIncAsked int
	// stmtIDs: what the current statement's writes tell its OK packet.
	stmtIDs StatementIDs
	*sql.BaseSession
	p *Provider

	// ddlLogged and ddlLoggedText are the query (ctx.Pid, text) whose
	// statement a DDL job has logged (Provider.ddlJob): its later jobs
	// log nothing.
	ddlLogged     uint64
	ddlLoggedText string

	// userVars counts the session's user variable assignments (SET,
	// :=, INTO, a routine's SET): a kept plan that read one (go-mysql-
	// server folds a variable in a filter into a literal) is good only
	// while it is unchanged (sqlfront's plan cache).
	userVars uint64

	txn        *engine.Txn
	savepoints []namedSavepoint
	gen        uint64               // counts the transactions begun
	stmtRefs   int                  // editors between StatementBegin and its end
	stmtClean  bool                 // the transaction was empty when the statement began
	stmtTable  uint32               // id of the table the statement writes first
	openIters  int                  // iterators open on txn's batch
	pendingRB  *engine.TxnSavepoint // a rollback waiting for openIters to reach 0

	temps   map[string]string // temporary tables: tempKey -> hidden name (temp.go)
	tempSeq int               // counts the temporary tables created
	// The transaction's reads (isolation.go).
	snap        *engine.Snapshot // REPEATABLE READ's snapshot, from the first consistent read
	iso         string           // the transaction's isolation level, "" until its first read
	nextIso     string           // the level SET TRANSACTION gave the next transaction
	nextIsoUsed bool             // the transaction running took nextIso
	locker      *engine.Locker   // its row locks
	locked      bool             // locker may hold locks
	lockBuf     []byte
	autoLocks   bool // locks were taken by an autocommit statement
	victim      bool // a deadlock rolled the transaction back; its batch goes once unread
	lcQuery     string
	authMemos   map[any]AuthMemo // the fast paths' authorizations (AuthMemoOf)
	spareWalk   *rangeIter       // a closed walk of a rangeRead, for its next outer row (rangejoin.go)
	// The first plan node built for statement resultPid: its result's
	// (NoteBuilt, ResultSchema).
	resultPid   uint64
	resultNode  sql.Node
	currentRole string // SET ROLE's role (CurrentRole)
	lcKnown     bool
	lcMode      lockMode // the lock clause of statement lcQuery
	functions   []string // the stored functions being evaluated, outermost first (routines.go)
	// programs holds the FunctionRunner's compiled functions of the
	// session, by its own keys (only the runner reads or writes it).
	programs map[string]any
	// keyOnlyWalks counts the index walks that decoded their rows from
	// the entries, reading no primary row (project.go).
	keyOnlyWalks int
	pool         iterPool // iterators of committed data to reuse (iterpool.go)
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

// Programs returns the session's map of compiled stored functions, for
// the provider's FunctionRunner alone (on the session's goroutine).
func (s *Session) Programs() map[string]any {
	if s.programs == nil {
		s.programs = map[string]any{}
	}
	return s.programs
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
// once it is committed or rolled back, its reads see no writes of its own
// (committed data, or inside a REPEATABLE READ transaction its snapshot).
func (s *Session) HasEngineTxn() bool { return s.txn != nil }

// The transaction bits of the status flags of OK and EOF packets.
const (
	StatusInTrans         = 0x0001 // SERVER_STATUS_IN_TRANS
	StatusAutocommit      = 0x0002 // SERVER_STATUS_AUTOCOMMIT
	StatusInTransReadOnly = 0x2000 // SERVER_STATUS_IN_TRANS_READONLY
	StatusDBDropped       = 0x0100 // SERVER_STATUS_DB_DROPPED, after DROP DATABASE
	// StatusTxnBits are the bits StatusFlags decides.
	StatusTxnBits = StatusInTrans | StatusAutocommit | StatusInTransReadOnly
)

// StatusFlags are the transaction bits of the status flags the session's
// OK and EOF packets carry, as MariaDB sets them: AUTOCOMMIT while
// @@autocommit is 1; IN_TRANS from START TRANSACTION / BEGIN to its end,
// and with autocommit off once the transaction has read or written a
// table (SELECT 1 or SET does not set it); IN_TRANS_READONLY inside
// START TRANSACTION READ ONLY. PyMySQL and mysqlclient read AUTOCOMMIT to decide whether
// rollback() has anything to undo. Call it on the session's goroutine.
func (s *Session) StatusFlags() uint16 {
	var f uint16
	auto := true
	if v, err := s.GetSessionVariable(nil, "autocommit"); err == nil {
		if n, ok := WideInt(v); ok {
			auto = n != 0
		}
	}
	if auto {
		f |= StatusAutocommit
	}
	explicit := s.GetIgnoreAutoCommit()
	if explicit || !auto && (s.txn != nil || s.iso != "" || s.locked) {
		f |= StatusInTrans
	}
	if tx, ok := s.GetTransaction().(*transaction); ok && explicit && tx.readOnly {
		f |= StatusInTransReadOnly
	}
	return f
}

// StartTransaction begins a transaction. A transaction left behind by a
// statement that failed under autocommit (go-mysql-server then drops it
// without a rollback) is rolled back first; one that a running statement
// is writing (a procedure called by its trigger starts transactions) goes
// on.
func (s *Session) StartTransaction(ctx *sql.Context, tc sql.TransactionCharacteristic) (sql.Transaction, error) {
	if s.stmtRefs == 0 {
		s.dropTxn()
		if startsWithConsistentSnapshot(ctx) && s.isolation(ctx) == isoRepeatableRead {
			snap := s.snapshot()
			if f := s.p.SnapshotPosition; f != nil {
				seq, err := snap.FeedSeq()
				var file string
				var pos uint64
				if err == nil {
					file, pos, err = f(seq)
				}
				if err != nil {
					return nil, err
				}
				_ = s.SetStatusVariable(ctx, "Binlog_snapshot_file", file)
				_ = s.SetStatusVariable(ctx, "Binlog_snapshot_position", pos)
			}
		}
	}
	return &transaction{readOnly: tc == sql.ReadOnly || TxReadOnly(ctx)}, nil
}

// TxReadOnly reports whether the session's transactions are read only by
// default: SET SESSION TRANSACTION READ ONLY (transaction_read_only) or
// MariaDB's tx_read_only.
func TxReadOnly(ctx *sql.Context) bool {
	if ctx == nil || ctx.Session == nil {
		return false
	}
	for _, name := range [...]string{"transaction_read_only", "tx_read_only"} {
		if v, err := ctx.GetSessionVariable(ctx, name); err == nil {
			if on, err := sql.ConvertToBool(ctx, v); err == nil && on {
				return true
			}
		}
	}
	return false
}

// InReadOnlyTransaction reports whether ctx's statement runs in a read
// only transaction: START TRANSACTION READ ONLY, or the session's
// default (TxReadOnly) for the transaction autocommit opens.
func InReadOnlyTransaction(ctx *sql.Context) bool {
	if tx, ok := ctx.GetTransaction().(*transaction); ok && tx.readOnly {
		return true
	}
	return TxReadOnly(ctx)
}

// CommitTransaction commits the session's writes through the engine's
// writer (re-checking unique keys against what committed meanwhile); on
// error nothing of the transaction is applied. Its row locks and snapshot
// are released after the commit. A commit asked for while a writing
// statement is still running (by a statement of a procedure that a trigger
// of the statement calls) waits for the statement's own commit. The
// transaction of a deadlock victim was rolled back: nothing is committed.
func (s *Session) CommitTransaction(ctx *sql.Context, tx sql.Transaction) error {
	if s.stmtRefs > 0 {
		return nil
	}
	x := s.txn
	if x == nil || s.victim {
		s.victim = false
		s.dropTxn()
		return nil
	}
	s.applyPendingRollback(true)
	s.txn, s.savepoints, s.openIters, s.pendingRB, s.stmtRefs = nil, nil, 0, nil, 0
	err := x.Commit(ctx)
	s.releaseTxnState()
	if err != nil {
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

// StatementIDs is what a statement's row writes tell its OK packet's
// insert id (the SQL front's withStatus reads it; the editors write it).
type StatementIDs struct {
	Inserted  int    // rows inserted
	FirstID   uint64 // the first AUTO_INCREMENT id generated, 0 for none
	Updated   int    // rows updated in a table with an AUTO_INCREMENT column
	UpdatedID uint64 // the AUTO_INCREMENT value of the last of them
	retryID   uint64 // the id a row that met a duplicate took, for its retry
}

// noteInsert records a row inserted into t, with the AUTO_INCREMENT id
// the engine generated for it (0 for none).
func (ids *StatementIDs) noteInsert(t *engine.Table, row engine.Row, id uint64) {
	ids.Inserted++
	if id == 0 && t.AutoInc >= 0 && ids.retryID != 0 && uint64(row[t.AutoInc].I) == ids.retryID {
		id = ids.retryID // a REPLACE's row inserted again with its id
	}
	ids.retryID = 0
	if id != 0 && ids.FirstID == 0 {
		ids.FirstID = id
	}
}

// noteUpdate records a row of t updated from old to row.
func (ids *StatementIDs) noteUpdate(t *engine.Table, old, row engine.Row) {
	if t.AutoInc >= 0 && !row[t.AutoInc].Null && !sameRow(old, row) {
		ids.Updated++
		ids.UpdatedID = uint64(row[t.AutoInc].I)
	}
}

// BeginStatementIDs starts the StatementIDs of a new statement.
func (s *Session) BeginStatementIDs() { s.stmtIDs = StatementIDs{} }

// StatementIDs returns the StatementIDs of the statement since
// BeginStatementIDs.
func (s *Session) StatementIDs() StatementIDs { return s.stmtIDs }

// statementEnd records that an editor's statement ended.
func (s *Session) statementEnd() {
	if s.stmtRefs > 0 {
		s.stmtRefs--
	}
}

// CommandEnd is called after each command of the connection. Locks an
// autocommit statement took are released even when the statement failed
// (go-mysql-server then leaves its transaction behind).
func (s *Session) CommandEnd() {
	s.pool.flush()
	if s.autoLocks && s.stmtRefs == 0 && s.openIters == 0 {
		s.dropTxn()
	}
}

// SessionEnd rolls back whatever the closing connection left uncommitted
// and drops its temporary tables.
func (s *Session) SessionEnd() {
	s.pool.flush()
	s.dropTxn()
	s.dropTemporaries()
}

// writeTxn returns the session's engine transaction, beginning it if
// needed, or an error inside a READ ONLY transaction.
func (s *Session) writeTxn() (*engine.Txn, error) {
	if tx, ok := s.GetTransaction().(*transaction); ok && tx.readOnly {
		return nil, sql.ErrReadOnlyTransaction.New()
	}
	return s.writeTxnNoCheck(), nil
}

func (s *Session) writeTxnNoCheck() *engine.Txn {
	s.settle()
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

// dropTxn rolls the transaction back and releases its locks and snapshot.
func (s *Session) dropTxn() {
	if s.txn != nil {
		s.txn.Rollback()
	}
	s.txn, s.savepoints, s.openIters, s.pendingRB, s.stmtRefs = nil, nil, 0, nil, 0
	s.victim = false
	s.releaseTxnState()
}

// commitPending commits what the session wrote before a DDL statement,
// as MySQL does implicitly, ending the transaction (its snapshot and locks
// too).
func (s *Session) commitPending(ctx *sql.Context) error {
	if s == nil {
		return nil
	}
	if s.txn == nil {
		if s.stmtRefs == 0 {
			s.releaseTxnState()
		}
		return nil
	}
	return s.CommitTransaction(ctx, s.GetTransaction())
}

// source opens iterators for one table read: over the session's snapshot,
// its transaction or committed data (see readPlan).
type source struct {
	e    *engine.Engine
	sess *Session
	ctx  *sql.Context
	// own makes every read see the session's writes, the statement's own
	// too, over the newest commits (never the snapshot, and without
	// locks): foreign key checks and actions read that way (see fk.go).
	own bool
	// pooled: the iterator open returned last may go back to the
	// session's pool (iterpool.go), with the quiet point mark.
	pooled bool
	mark   uint64
}

func newSource(ctx *sql.Context, e *engine.Engine) *source {
	return &source{e: e, sess: SessionOf(ctx), ctx: ctx}
}

// open returns an iterator, the transaction generation it reads (0 when
// it reads no batch of the transaction), which closed needs, and the lock
// to take on each row it returns.
func (s *source) open(t *engine.Table, idx *engine.Index, rg engine.Range, reverse bool) (*engine.Iterator, uint64, lockMode, error) {
	s.pooled = false
	return s.openIter(t, idx, rg, reverse)
}

func (s *source) openIter(t *engine.Table, idx *engine.Index, rg engine.Range, reverse bool) (*engine.Iterator, uint64, lockMode, error) {
	if s.sess == nil {
		it, err := s.e.NewIterator(t, idx, rg, reverse)
		return it, 0, lockNone, err
	}
	if s.own {
		if s.sess.txn == nil {
			it, err := s.e.NewIterator(t, idx, rg, reverse)
			return it, 0, lockNone, err
		}
		s.sess.applyPendingRollback(false)
		it, err := s.sess.txn.NewIterator(t, idx, rg, reverse)
		if err != nil {
			return nil, 0, lockNone, err
		}
		s.sess.openIters++
		return it, s.sess.gen, lockNone, nil
	}
	s.sess.settle()
	useSnap, lock := s.sess.readPlan(s.ctx, t)
	if useSnap {
		snap := s.sess.snapshot()
		if !snap.Holds(t, idx) {
			// InnoDB's answer to a table changed after the read view.
			return nil, 0, lockNone, errDefChanged(t.DB, t.Name)
		}
		if s.sess.txn == nil {
			it, err := snap.NewIterator(t, idx, rg, reverse)
			return it, 0, lockNone, err
		}
		s.sess.applyPendingRollback(false)
		it, err := s.sess.txn.NewSnapshotIterator(snap, t, idx, rg, reverse)
		if err != nil {
			return nil, 0, lockNone, err
		}
		s.sess.openIters++
		return it, s.sess.gen, lockNone, nil
	}
	if !s.sess.readsCommitted(t) {
		s.sess.applyPendingRollback(false)
		it, err := s.sess.txn.NewIterator(t, idx, rg, reverse)
		if err != nil {
			return nil, 0, lockNone, err
		}
		s.sess.openIters++
		return it, s.sess.gen, lock, nil
	}
	if it, mark := s.sess.pool.take(s.e, t, idx, rg, reverse); it != nil {
		s.pooled, s.mark = true, mark
		return it, 0, lock, nil
	}
	mark, quiet := s.e.QuietPoint()
	it, err := s.e.NewIterator(t, idx, rg, reverse)
	s.pooled, s.mark = quiet && err == nil, mark
	return it, 0, lock, err
}

// pointRead reads the row of t whose primary key is key (nil if there is
// none) as open would read it, with one point lookup instead of an
// iterator: committed data through Engine.Find and its row cache, or the
// session's transaction (its writes over the newest commits) through
// Txn.Find, or the session's snapshot (snapshotPointRow), with the
// generation and lock open would return. ok is false when open would lay
// the transaction's writes over the snapshot, which takes an iterator.
func (s *source) pointRead(t *engine.Table, key []types.Value) (row engine.Row, gen uint64, lock lockMode, ok bool, err error) {
	if s.sess != nil && s.sess.p.noPointReads.Load() {
		return nil, 0, lockNone, false, nil
	}
	if s.sess == nil || s.own && s.sess.txn == nil {
		row, err = primaryRow(s.e, t, key)
		return row, 0, lockNone, true, err
	}
	if !s.own {
		s.sess.settle()
		var snap bool
		if snap, lock = s.sess.readPlan(s.ctx, t); snap {
			return s.snapshotPointRow(t, key)
		}
		if s.sess.readsCommitted(t) {
			row, err = primaryRow(s.e, t, key)
			return row, 0, lock, true, err
		}
	}
	s.sess.applyPendingRollback(false)
	row, err = primaryRow(s.sess.txn, t, key)
	return row, s.sess.gen, lock, true, err
}

// PointRow reads, for a point select served outside go-mysql-server
// (the SQL front's fast path), the row of t whose primary key is key as a
// SELECT of the session reads it (nil if there is none): in its open
// transaction, the snapshot under REPEATABLE READ, its writes over the
// newest commits under READ COMMITTED. ok is false when that read is more
// than one point lookup (a SERIALIZABLE read's lock, writes laid over a
// snapshot): the statement must then go to go-mysql-server. Not safe for
// concurrent use, like the session.
func (s *Session) PointRow(ctx *sql.Context, t *engine.Table, key []types.Value) (row engine.Row, ok bool, err error) {
	src := &source{e: s.p.e, sess: s, ctx: ctx}
	row, _, lock, ok, err := src.pointRead(t, key)
	if !ok || lock != lockNone {
		return nil, false, nil
	}
	return row, true, MapError(err)
}

// snapshotPointRow is pointRead's snapshot case: the row as the
// session's snapshot holds it, when the transaction has written nothing
// (ok is false otherwise: its writes are laid over the snapshot by an
// iterator).
func (s *source) snapshotPointRow(t *engine.Table, key []types.Value) (row engine.Row, gen uint64, lock lockMode, ok bool, err error) {
	snap := s.sess.snapshot()
	if !snap.Holds(t, t.Primary) {
		return nil, 0, lockNone, true, errDefChanged(t.DB, t.Name)
	}
	if s.sess.txn != nil {
		s.sess.applyPendingRollback(false)
		if !s.sess.txn.Empty() {
			return nil, 0, lockNone, false, nil
		}
	}
	row, err = primaryRow(snap, t, key)
	return row, 0, lockNone, true, err
}

// rowFinder reads rows by key: committed data (*engine.Engine), a
// transaction's view (*engine.Txn) or a snapshot (*engine.Snapshot).
type rowFinder interface {
	Find(t *engine.Table, q *engine.Query, fn func(engine.Row) bool) error
}

// primaryRow returns a copy of the row of t whose primary key is key as f
// reads it, or nil if there is none.
func primaryRow(f rowFinder, t *engine.Table, key []types.Value) (engine.Row, error) {
	var out engine.Row
	err := f.Find(t, &engine.Query{Index: t.Primary, Op: engine.OpEQ, Key: key, Limit: 1}, func(r engine.Row) bool {
		out = r.Clone()
		return false
	})
	return out, err
}

// reread returns the newest version of row (the one a lock wait may have
// let another transaction change), as the view the iterator of
// generation gen reads has it, or nil if it is gone. A table without a
// primary key has no way to find the row again: row itself is returned.
func (s *source) reread(t *engine.Table, row engine.Row, gen uint64) (engine.Row, error) {
	if t.Primary.Hidden {
		return row.Clone(), nil
	}
	key := make([]types.Value, len(t.Primary.Columns))
	for i, c := range t.Primary.Columns {
		key[i] = row[c]
	}
	if gen != 0 && s.sess != nil && s.sess.txn != nil && gen == s.sess.gen {
		return primaryRow(s.sess.txn, t, key)
	}
	return primaryRow(s.e, t, key)
}

// release closes (or pools) the iterator open returned last, over idx of
// t on generation gen.
func (s *source) release(it *engine.Iterator, gen uint64, t *engine.Table, idx *engine.Index) {
	if s.pooled && s.sess != nil {
		s.sess.pool.put(pooledIter{it: it, t: t, idx: idx, mark: s.mark})
	} else {
		_ = it.Close()
	}
	s.pooled = false
	s.closed(gen)
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
		s.sess.settle()
	}
}

// AuthMemo is an authorization the SQL front's fast paths remember: the
// account, current database and grant-table generation it was given
// under.
type AuthMemo struct {
	User, Address, DB string
	Grants            uint64
}

// maxAuthMemos bounds a session's memos; past it they are forgotten.
const maxAuthMemos = 64

// AuthMemoOf returns the memo kept for key (a plan pointer: the map keeps
// it alive, so its address names no other plan). The session's own
// goroutine only.
func (s *Session) AuthMemoOf(key any) (AuthMemo, bool) {
	m, ok := s.authMemos[key]
	return m, ok
}

// SetAuthMemo keeps m for key. The session's own goroutine only.
func (s *Session) SetAuthMemo(key any, m AuthMemo) {
	if s.authMemos == nil || len(s.authMemos) >= maxAuthMemos {
		s.authMemos = map[any]AuthMemo{}
	}
	s.authMemos[key] = m
}

// NoteBuilt records n, a plan node built to run, when it is the first
// node built for ctx's statement (its process id): that is the root of
// the statement's plan, built before its rows are read; nodes built
// later (subqueries, a join's inner side per row) are parts of it. The
// session's own goroutine only.
func (s *Session) NoteBuilt(ctx *sql.Context, n sql.Node) {
	if pid := ctx.Pid(); pid != s.resultPid {
		s.resultPid, s.resultNode = pid, n
	}
}

// ResultSchema returns the schema of the root of the last statement whose
// plan was built (NoteBuilt), nil when none was. A statement answered
// without building a plan leaves the previous statement's: callers
// check that it describes the fields they have. The session's own
// goroutine only.
func (s *Session) ResultSchema() sql.Schema {
	if s.resultNode == nil {
		return nil
	}
	return s.resultNode.Schema()
}

// CurrentRole is the role SET ROLE made current ("" for none), which
// CURRENT_ROLE() returns. The session's own goroutine only.
func (s *Session) CurrentRole() string { return s.currentRole }

// SetCurrentRole records SET ROLE's role ("" for NONE).
func (s *Session) SetCurrentRole(role string) { s.currentRole = role }

// GetSessionVariable is the session's value of a system variable; the
// binary log's variables, global only and computed (@@gtid_binlog_pos,
// @@gtid_current_pos, @@gtid_executed, @@gtid_purged), are the server's
// log's (Provider.LogVariable), else read from the global, which
// computes them (the session's copy was made when it began);
// @@in_transaction is the session's StatusFlags' InTrans bit.
func (s *Session) GetSessionVariable(ctx *sql.Context, name string) (interface{}, error) {
	switch len(name) {
	case len("in_transaction"):
		if strings.EqualFold(name, "in_transaction") {
			if s.StatusFlags()&StatusInTrans != 0 {
				return int64(1), nil
			}
			return int64(0), nil
		}
	case len("gtid_binlog_pos"), len("gtid_current_pos"), len("gtid_executed"), len("gtid_purged"):
		switch lower := strings.ToLower(name); lower {
		case "gtid_binlog_pos", "gtid_current_pos", "gtid_executed", "gtid_purged":
			if f := s.p.LogVariable; f != nil {
				return f(lower)
			}
			if _, v, ok := sql.SystemVariables.GetGlobal(lower); ok {
				return v, nil
			}
		}
	}
	return s.BaseSession.GetSessionVariable(ctx, name)
}

// SetUserVariable counts the assignment (UserVars) and makes it.
func (s *Session) SetUserVariable(ctx *sql.Context, name string, value interface{}, typ sql.Type) error {
	s.userVars++
	return s.BaseSession.SetUserVariable(ctx, name, value, typ)
}

// UserVars counts the session's user variable assignments so far. On
// the session's goroutine only.
func (s *Session) UserVars() uint64 { return s.userVars }
