package sqlbackend

import (
	"errors"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
)

// Isolation and row locks, as InnoDB gives them.
//
// A statement's reads of a table are one of three kinds, decided when
// each iterator opens (source.open, readPlan):
//
//   - Consistent reads: a plain SELECT inside a multi-statement
//     transaction (BEGIN, or autocommit off) at REPEATABLE READ reads the
//     transaction's engine.Snapshot, taken at its first such read (or at
//     START TRANSACTION WITH CONSISTENT SNAPSHOT), with the transaction's
//     own writes laid over it. Commits of other sessions and HandlerSocket
//     writes after that point are invisible until the transaction ends.
//   - Locking reads: SELECT ... FOR UPDATE (exclusive) and LOCK IN SHARE
//     MODE (shared), every plain SELECT of a SERIALIZABLE transaction
//     (shared), and the reads of the table an UPDATE, DELETE or
//     INSERT ... SELECT writes (exclusive). Each row returned is locked in
//     the engine's LockTable until the transaction ends, and read as newly
//     committed (plus the transaction's writes): a row whose lock is new
//     to the transaction is read again, and skipped if it is gone or out
//     of the range it was found in (the version read before the lock may
//     be older than a commit that released it, waited for or not). The
//     editors lock the rows they write too.
//   - Current reads: everything else (autocommit statements, READ
//     COMMITTED and READ UNCOMMITTED transactions) reads the newest
//     committed data plus the transaction's writes, as each iterator
//     opens.
//
// A lock wait ends after @@innodb_lock_wait_timeout seconds with 1205
// (the statement fails, the transaction goes on); a wait that would close
// a cycle fails at once with 1213 and the whole transaction is rolled back,
// its locks released at once. Locks and the snapshot are released when the
// transaction commits or rolls back, and when the connection closes.
// Writes outside a transaction wait for these locks too, but not on the
// writer: a HandlerSocket or replica job that meets a locked row fails
// with engine.RowLockedError and its caller waits in a Locker of its own
// (hsfront's rowlock.go, engine.UpdateWaitingRowLocks); LOAD DATA ...
// REPLACE takes the rows it replaces in its stage's Locker (loaddata.go).
//
// Everything here runs on the session's goroutine, like the rest of
// Session; the engine's LockTable is what sessions share.

// lockMode is the lock a read takes on each row it returns.
type lockMode uint8

const (
	lockNone lockMode = iota
	lockShared
	lockExclusive
)

// isolation levels, as tx_isolation names them.
const (
	isoReadUncommitted = "READ-UNCOMMITTED"
	isoReadCommitted   = "READ-COMMITTED"
	isoRepeatableRead  = "REPEATABLE-READ"
	isoSerializable    = "SERIALIZABLE"
)

// sysVarsOnce installs the system variables the backend reads, once per
// process (go-mysql-server's variables are process-wide).
var sysVarsOnce sync.Once

// installSysVars replaces go-mysql-server's innodb_lock_wait_timeout (a
// global fixed at 1, as it has no row locks) by MariaDB's: session and
// global, 0 to 1073741824 seconds, 50 by default, and local_infile's
// default by MariaDB's (ON), and event_scheduler by DISABLED (events.go).
// It also makes the
// global values of tx_isolation and transaction_isolation one setting
// (aliasRegistry). It runs before the first Provider exists, so before
// any session reads the registry.
func installSysVars() {
	sysVarsOnce.Do(func() {
		sql.SystemVariables = aliasRegistry{sql.SystemVariables}
		sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{&sql.MysqlSystemVariable{
			// MariaDB's @@in_transaction: 1 while the session is in a
			// transaction (Session.GetSessionVariable answers it from
			// StatusFlags); read-only.
			Name:    "in_transaction",
			Scope:   sql.GetMysqlScope(sql.SystemVariableScope_Session),
			Dynamic: false,
			Type:    gmstypes.NewSystemIntType("in_transaction", 0, 1, false),
			Default: int64(0),
		}, &sql.MysqlSystemVariable{
			Name:    "innodb_lock_wait_timeout",
			Scope:   sql.GetMysqlScope(sql.SystemVariableScope_Both),
			Dynamic: true,
			Type:    gmstypes.NewSystemIntType("innodb_lock_wait_timeout", 0, 1073741824, false),
			Default: int64(50),
		}, &sql.MysqlSystemVariable{
			// MariaDB's default: LOAD DATA LOCAL reads the file the
			// client sends (go-mysql-server's is OFF, as MySQL 8's).
			Name:    "local_infile",
			Scope:   sql.GetMysqlScope(sql.SystemVariableScope_Global),
			Dynamic: true,
			Type:    gmstypes.NewSystemBoolType("local_infile"),
			Default: int8(1),
		}, &sql.MysqlSystemVariable{
			// No event scheduler runs here (events.go): DISABLED, as
			// a MariaDB started with --event-scheduler=DISABLED, which
			// refuses to turn it on or off.
			Name:    "event_scheduler",
			Scope:   sql.GetMysqlScope(sql.SystemVariableScope_Global),
			Dynamic: true,
			Type:    gmstypes.NewSystemEnumType("event_scheduler", "ON", "OFF", "DISABLED"),
			Default: "DISABLED",
			NotifyChanged: func(_ *sql.Context, scope sql.SystemVariableScope, _ sql.SystemVarValue) error {
				if scope.IsGlobalOnly() {
					return errtable.SQLError(errtable.EROptionPrevents, "--event-scheduler=DISABLED or --skip-grant-tables")
				}
				return nil
			},
		}})
	})
}

// aliasRegistry is go-mysql-server's system variable registry with
// tx_isolation and transaction_isolation, and tx_read_only and
// transaction_read_only, set together (SET GLOBAL TRANSACTION writes the
// second of each). Safe for concurrent use
// as the registry it wraps.
type aliasRegistry struct {
	sql.SystemVariableRegistry
}

// SetGlobal sets a global variable and its alias.
func (r aliasRegistry) SetGlobal(ctx *sql.Context, name string, val interface{}) error {
	if err := r.SystemVariableRegistry.SetGlobal(ctx, name, val); err != nil {
		return err
	}
	if other, _ := transactionAlias(name); other != "" {
		_, v, _ := r.SystemVariableRegistry.GetGlobal(name)
		return r.SystemVariableRegistry.SetGlobal(ctx, other, v)
	}
	return nil
}

// transactionAlias returns the other name of a transaction variable, or
// "", and whether it is the isolation level's.
func transactionAlias(name string) (string, bool) {
	switch strings.ToLower(name) {
	case "tx_isolation":
		return "transaction_isolation", true
	case "transaction_isolation":
		return "tx_isolation", true
	case "tx_read_only":
		return "transaction_read_only", false
	case "transaction_read_only":
		return "tx_read_only", false
	}
	return "", false
}

// SetSessionVariable sets a session variable; tx_isolation and
// transaction_isolation are one setting, and so are tx_read_only and
// transaction_read_only (MariaDB 10.11 has the first of each, SET
// TRANSACTION writes the second in go-mysql-server). SET TRANSACTION
// ISOLATION LEVEL without SESSION or GLOBAL sets the level of the next
// transaction only, as in MariaDB.
func (s *Session) SetSessionVariable(ctx *sql.Context, name string, value interface{}) error {
	other, iso := transactionAlias(name)
	if iso && nextTxnOnly(ctx.Query()) {
		if str, ok := value.(string); ok {
			s.nextIso = strings.ToUpper(str)
			return nil
		}
	}
	if err := s.BaseSession.SetSessionVariable(ctx, name, value); err != nil {
		return err
	}
	if other == "" {
		return nil
	}
	v, err := s.BaseSession.GetSessionVariable(ctx, name)
	if err != nil {
		return err
	}
	return s.BaseSession.SetSessionVariable(ctx, other, v)
}

// nextTxnOnly reports whether q is SET TRANSACTION ... (no scope).
func nextTxnOnly(q string) bool {
	f := strings.Fields(q)
	return len(f) >= 2 && strings.EqualFold(f[0], "SET") && strings.EqualFold(f[1], "TRANSACTION")
}

// inMultiStatementTxn reports whether the statement runs inside a
// transaction that outlives it: after BEGIN, or with autocommit off.
func inMultiStatementTxn(ctx *sql.Context) bool {
	if ctx.GetIgnoreAutoCommit() {
		return true
	}
	ac, err := plan.IsSessionAutocommit(ctx)
	return err == nil && !ac
}

// isolation returns the transaction's isolation level, read at its first
// read: the level SET TRANSACTION gave the next transaction, else
// tx_isolation.
func (s *Session) isolation(ctx *sql.Context) string {
	if s.iso == "" && s.nextIso != "" {
		s.iso, s.nextIsoUsed = s.nextIso, true
	}
	if s.iso == "" {
		s.iso = isoRepeatableRead
		if v, err := s.GetSessionVariable(ctx, "tx_isolation"); err == nil {
			if str, ok := v.(string); ok && str != "" {
				s.iso = strings.ToUpper(str)
			}
		}
	}
	return s.iso
}

// readPlan decides how a read of t opened now reads (see the top of this
// file): from the snapshot, or newly committed data with a lock per row.
func (s *Session) readPlan(ctx *sql.Context, t *engine.Table) (snapshot bool, lock lockMode) {
	if s.stmtRefs > 0 {
		if t.ID == s.stmtTable {
			return false, lockExclusive
		}
		return false, lockNone
	}
	if m := s.lockClause(ctx); m != lockNone {
		return false, m
	}
	if !inMultiStatementTxn(ctx) {
		return false, lockNone
	}
	switch s.isolation(ctx) {
	case isoRepeatableRead:
		return true, lockNone
	case isoSerializable:
		return false, lockShared
	}
	return false, lockNone
}

// lockClause returns the lock clause of the statement running (FOR
// UPDATE, LOCK IN SHARE MODE), which go-mysql-server's planner drops: the
// text is parsed again when it holds one of the clause's words, once per
// statement.
func (s *Session) lockClause(ctx *sql.Context) lockMode {
	q := ctx.Query()
	if q == s.lcQuery && s.lcKnown {
		return s.lcMode
	}
	s.lcQuery, s.lcKnown, s.lcMode = q, true, lockNone
	if !ContainsFold(q, "for update") && !ContainsFold(q, "share mode") {
		return lockNone
	}
	st, err := ast.Parse(q)
	if err != nil {
		return lockNone
	}
	var lock string
	switch st := st.(type) {
	case *ast.Select:
		lock = st.Lock
	case *ast.SetOp:
		lock = st.Lock
	}
	switch lock {
	case ast.ForUpdateStr, ast.ForUpdateSkipLockedStr:
		s.lcMode = lockExclusive
	case ast.ShareModeStr:
		s.lcMode = lockShared
	}
	return s.lcMode
}

// memoFoldLen is the length from which QueryContainsFold remembers its
// answers.
const memoFoldLen = 2048

// QueryContainsFold is ContainsFold of the statement's text: the
// analyzer's rules gate themselves on the words of the text, and
// go-mysql-server analyzes each SELECT of a UNION, and each subquery, as
// a statement of its own, so a long text would be scanned once per
// SELECT and rule (a UNION of 4,000 SELECTs spent 95% of its planning
// there). For a long text the answers are remembered in the session,
// until the text changes. On the session's goroutine.
func QueryContainsFold(ctx *sql.Context, sub string) bool {
	q := ctx.Query()
	s, ok := ctx.Session.(*Session)
	if !ok || len(q) < memoFoldLen {
		return ContainsFold(q, sub)
	}
	if len(s.foldText) != len(q) || unsafe.StringData(s.foldText) != unsafe.StringData(q) {
		s.foldText, s.foldSeen = q, map[string]bool{}
	}
	v, ok := s.foldSeen[sub]
	if !ok {
		v = ContainsFold(q, sub)
		s.foldSeen[sub] = v
	}
	return v
}

// ContainsFold reports whether s contains sub (non-empty, lower-case
// ASCII) in any ASCII case; the dialect and the SQL front scan statement
// texts with it.
func ContainsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := 0
		for ; j < len(sub); j++ {
			c := s[i+j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != sub[j] {
				break
			}
		}
		if j == len(sub) {
			return true
		}
	}
	return false
}

// snapshot returns the transaction's snapshot, taking it at the first
// consistent read.
func (s *Session) snapshot() *engine.Snapshot {
	if s.snap == nil {
		s.snap = s.p.e.NewSnapshot()
	}
	return s.snap
}

// lockTimeout is @@innodb_lock_wait_timeout.
func (s *Session) lockTimeout(ctx *sql.Context) time.Duration {
	v, err := s.GetSessionVariable(ctx, "innodb_lock_wait_timeout")
	if err != nil {
		return 50 * time.Second
	}
	switch n := v.(type) {
	case int64:
		return time.Duration(n) * time.Second
	case int:
		return time.Duration(n) * time.Second
	}
	return 50 * time.Second
}

// lockRow locks row of t for the transaction. It reports whether the lock
// is new to the transaction (engine.Locker.Lock): the row must then be
// read again. A deadlock rolls the transaction back (its locks
// at once, its writes as soon as no iterator reads them) and ends it.
func (s *Session) lockRow(ctx *sql.Context, t *engine.Table, row engine.Row, mode lockMode) (bool, error) {
	if mode == lockNone {
		return false, nil
	}
	if s.locker == nil {
		s.locker = s.p.e.Locks().NewLocker()
	}
	s.locked = true
	if !inMultiStatementTxn(ctx) {
		s.autoLocks = true
	}
	s.lockBuf = engine.LockKey(s.lockBuf[:0], t, row)
	fresh, err := s.locker.Lock(ctx, t, s.lockBuf, mode == lockExclusive, s.lockTimeout(ctx))
	if errors.Is(err, engine.ErrDeadlock) {
		// As InnoDB: the whole transaction is rolled back and over, and the
		// session's next statements autocommit again.
		s.victim = true
		s.releaseTxnState()
		s.settle()
		ctx.SetIgnoreAutoCommit(false)
	}
	if err != nil {
		return fresh, MapError(err)
	}
	return fresh, nil
}

// releaseTxnState lets go of the transaction's locks and snapshot.
func (s *Session) releaseTxnState() {
	if s.locked {
		s.locker.ReleaseAll()
		s.locked = false
	}
	if s.snap != nil {
		_ = s.snap.Close()
		s.snap = nil
	}
	s.iso, s.autoLocks = "", false
	if s.nextIsoUsed {
		s.nextIso, s.nextIsoUsed = "", false
	}
}

// settle drops the transaction of a deadlock victim once no iterator
// reads its batch.
func (s *Session) settle() {
	if s.victim && s.openIters == 0 {
		s.victim = false
		s.dropTxn()
	}
}

// startsWithConsistentSnapshot reports START TRANSACTION WITH CONSISTENT
// SNAPSHOT, which go-mysql-server parses and forgets.
func startsWithConsistentSnapshot(ctx *sql.Context) bool {
	return ContainsFold(ctx.Query(), "consistent snapshot")
}
