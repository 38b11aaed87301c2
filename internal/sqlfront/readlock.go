package sqlfront

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/mariadb"
)

// FLUSH TABLES WITH READ LOCK and UNLOCK TABLES: the engine's global read
// lock (engine.LockWrites) held by a connection. go-mysql-server takes
// FLUSH TABLES as a no-op, so a backup (mysqldump --master-data,
// mariadb-dump, a MySQL-flavored replica's copy) that reads its log
// position under the lock would read one its snapshot does not match.
// While a connection holds it, every other writer — SQL, HandlerSocket,
// memcached, a replica's applier — waits; the holder's own writes fail
// with 1223 (ER_CANT_UPDATE_WITH_READLOCK), as in MariaDB. Taking it
// commits the connection's open transaction (an implicit commit, as
// MariaDB's FLUSH). UNLOCK TABLES or the connection's end releases it;
// START TRANSACTION and COMMIT do not. The form naming tables (FLUSH TABLES t1, t2 WITH READ LOCK) takes
// the global lock too: a stronger lock than MariaDB's, never a weaker one.
// FLUSH [LOCAL | NO_WRITE_TO_BINLOG] TABLES [names] without the lock has
// nothing to do (there is no table cache to empty) and answers OK.

var (
	flushReadLockRe = regexp.MustCompile(`(?is)^\s*FLUSH\s+(?:(?:NO_WRITE_TO_BINLOG|LOCAL)\s+)?TABLES?\b(?:\s+[^;]*?)?\s+WITH\s+READ\s+LOCK\s*(?:;|$)`)
	flushTablesRe   = regexp.MustCompile(`(?is)^\s*FLUSH\s+(?:(?:NO_WRITE_TO_BINLOG|LOCAL)\s+)?TABLES?(?:\s+[\w$.` + "`" + `,\s]*?)?\s*(?:;|$)`)
	unlockTablesRe  = regexp.MustCompile(`(?is)^\s*UNLOCK\s+TABLES?\s*(?:;|$)`)
)

// readLocks are the connections that hold a share of the global read
// lock. Safe for concurrent use.
type readLocks struct {
	n  atomic.Int32 // how many: the statement path looks only when some do
	mu sync.Mutex
	by map[uint32]*engine.ReadLock // by connection id
}

// holding returns ctx marked for the engine when connection id holds the
// lock (its jobs then fail instead of waiting for itself).
func (r *readLocks) holding(ctx context.Context, id uint32) context.Context {
	if r.n.Load() == 0 {
		return ctx
	}
	r.mu.Lock()
	_, ok := r.by[id]
	r.mu.Unlock()
	if ok {
		return engine.HoldingReadLock(ctx)
	}
	return ctx
}

// release gives back connection id's share, if it holds one.
func (r *readLocks) release(id uint32) {
	if r.n.Load() == 0 {
		return
	}
	r.mu.Lock()
	l := r.by[id]
	if l != nil {
		delete(r.by, id)
		r.n.Add(-1)
	}
	r.mu.Unlock()
	if l != nil {
		l.Release()
	}
}

// readLockStatement runs FLUSH TABLES ... WITH READ LOCK, the first
// statement of query; rest is the text after it (ComMultiQuery's next
// statements; a text with more statements where only one is allowed is
// not this statement). It releases the lock at UNLOCK TABLES and lets
// that statement go on to go-mysql-server (which unlocks LOCK TABLES'
// tables). done is false for other statements.
func (h *mariaHandler) readLockStatement(ctx context.Context, c *mysql.Conn, query string, multi bool, cb mysql.ResultSpoolFn) (done bool, rest string, err error) {
	q := query
	for len(q) > 0 && isBlank(q[0]) {
		q = q[1:]
	}
	// (the first word decides before any pattern runs: UPDATE and the
	// other statements pass here on every text query)
	switch {
	case len(q) > 6 && strings.EqualFold(q[:6], "unlock"):
		if unlockTablesRe.MatchString(q) {
			h.readLocks.release(c.ConnectionID)
		}
		return false, "", nil
	case len(q) > 5 && strings.EqualFold(q[:5], "flush"):
		// (mariadb-dump sends FLUSH /*!40101 LOCAL */ TABLES first)
		q, _ = mariadb.ExecutableComments(q)
		m := flushReadLockRe.FindStringIndex(q)
		lock := m != nil
		if !lock {
			// FLUSH [LOCAL] TABLES [names]: nothing to flush (no table
			// cache), answered here since go-mysql-server refuses LOCAL.
			if m = flushTablesRe.FindStringIndex(q); m == nil {
				return false, "", nil
			}
		}
		if rest = q[m[1]:]; !multi && strings.TrimSpace(rest) != "" {
			return false, "", nil
		}
		if !h.hasPrivilege(c, sql.PrivilegeType_Reload) {
			return true, rest, sqlError(mysql.ERSpecifiedAccessDenied, "RELOAD")
		}
		if !lock {
			setStatusFlags(c)
			return true, rest, cb(&sqltypes.Result{}, strings.TrimSpace(rest) != "")
		}
	default:
		return false, "", nil
	}
	s := h.srv.Load()
	if s == nil {
		return false, "", nil
	}
	r := &h.readLocks
	r.mu.Lock()
	_, held := r.by[c.ConnectionID]
	r.mu.Unlock()
	if !held {
		// The statement ends the connection's transaction first, as
		// MariaDB's FLUSH does (an implicit commit).
		if err := h.Handler.ComQuery(ctx, c, "COMMIT", func(*sqltypes.Result, bool) error { return nil }); err != nil {
			return true, rest, err
		}
		l, err := s.e.LockWrites(ctx)
		if err != nil {
			return true, rest, err
		}
		r.mu.Lock()
		if r.by == nil {
			r.by = map[uint32]*engine.ReadLock{}
		}
		r.by[c.ConnectionID] = l
		r.n.Add(1)
		r.mu.Unlock()
	}
	setStatusFlags(c)
	return true, rest, cb(&sqltypes.Result{}, strings.TrimSpace(rest) != "")
}
