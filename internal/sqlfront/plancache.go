package sqlfront

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// The plan cache keeps, per connection, the analyzed plan of each SELECT
// text the connection ran, so that running the same text again skips
// go-mysql-server's parsing and analysis (about three quarters of a small
// report's time) and only builds and runs the plan's iterators.
//
// A plan is looked up by the exact statement text, so no value of one
// statement can reach another; it is used only when, since it was made,
//   - the current database is the same,
//   - the engine's catalog version (every DDL on tables) and the
//     provider's objects generation (views, triggers, routines) are the
//     same,
//   - no statement other than a plain read (SELECT, SHOW, transaction
//     control, USE) ran on any connection: SET, GRANT, DML and anything
//     else bump the cache's generation, which drops every plan (settings
//     the analysis reads, privileges, and the row counts the join planner
//     costs with).
//
// Only texts planCacheable admits are considered (no system variables,
// no time or random functions, no locking reads, no system schemas), only
// analyses that raised no warning are kept, and only plans
// sqlbackend.ReusablePlan passes (no node or expression keeping state
// between executions). Sessions with temporary tables bypass it.

// planCacheMax bounds the plans kept per connection; a connection that
// reaches it starts over with an empty cache.
const planCacheMax = 256

// planCache is the handler's plan cache. gen and conns are safe for
// concurrent use; a connection's connPlans is used only on the goroutine
// serving that connection.
type planCache struct {
	gen atomic.Uint64 // bumped by every statement that is not a plain read
	// settings is bumped by every statement that is neither a plain read
	// nor INSERT, UPDATE, DELETE or REPLACE (prepplans.go)
	settings atomic.Uint64
	conns    sync.Map // connection id -> *connPlans
	// check, when set (by tests), runs every cached plan once more,
	// discarding its results, before the run that answers: each answer
	// then comes from a plan executed before.
	check atomic.Bool
	// Hits counts the statements answered from a cached plan.
	Hits atomic.Int64
	// Rebound counts the prepared statements answered from a template.
	Rebound atomic.Int64
	// Bound counts the statements runBound ran (kept plans, templates).
	Bound atomic.Int64
}

// planKey is what a cached plan depends on besides its text.
type planKey struct {
	db       string
	cat, obj uint64
	gen      uint64
	vars     uint64 // the session's user variable assignments (Session.UserVars)
}

type cachedPlan struct {
	key   planKey
	plan  sql.Node // nil: the statement's plan cannot be reused
	reset func()   // clears the plan's state before a run (ReusablePlan)
}

type connPlans struct {
	m         map[string]*cachedPlan
	templates map[templateKey]*stmtTemplate // prepplans.go
	admits    map[string]string             // text -> templateAdmits
}

func (pc *planCache) conn(id uint32) *connPlans {
	if v, ok := pc.conns.Load(id); ok {
		return v.(*connPlans)
	}
	cp := &connPlans{m: map[string]*cachedPlan{}, templates: map[templateKey]*stmtTemplate{}, admits: map[string]string{}}
	pc.conns.Store(id, cp)
	return cp
}

// forget drops a closed connection's plans.
func (pc *planCache) forget(id uint32) { pc.conns.Delete(id) }

// ran notes that query ran outside the cache: unless it is a plain read,
// every cached plan is dropped.
func (pc *planCache) ran(query string) {
	switch firstWord(query) {
	case "select", "with", "show", "explain", "describe", "desc", "begin", "start", "commit", "rollback", "use", "help":
		return
	case "insert", "update", "delete", "replace":
	default:
		pc.settings.Add(1)
	}
	pc.gen.Add(1)
}

// firstWord returns the statement's first keyword in lower case.
func firstWord(query string) string {
	q := trimBlanks(query, true)
	end := strings.IndexAny(q, " \t\r\n(;")
	if end < 0 {
		end = len(q)
	}
	if end > 10 {
		return ""
	}
	return strings.ToLower(q[:end])
}

// planUncacheable holds words whose presence keeps a text out of the
// cache: what the analysis may fold to a value of the moment (time,
// randomness, session information, system variables), locking and INTO
// clauses, and reads of the system schemas. A user variable (@name) may
// be cached: the plan's key holds the session's count of assignments,
// so a plan that folded a variable's value into a literal is made again
// once any variable changes; a text that assigns one (:=) runs once.
var planUncacheable = newWordSet(
	"@@", ":=", "into", "for update", "share", "found_rows", "row_count", "last_insert_id",
	"rand", "uuid", "now", "cur", "sysdate", "timestamp", "utc_", "unix_",
	"information_schema", "performance_schema", "mysql", "sys.", "match", "sleep", "lock",
	"connection_id", "database", "schema", "user", "version", "benchmark", "nextval", "sql_",
)

// planCacheable reports whether query's text is a SELECT the cache may
// keep (see planUncacheable).
func planCacheable(query string) bool {
	switch firstWord(query) {
	case "select", "with":
	default:
		return false
	}
	return uncacheableFree(query, "")
}

// runOnceUnsafe holds the words of planUncacheable that also keep a
// SELECT from running once through runPlan: INTO (the statement's
// answer is not its rows), locking reads, full-text search, sequences,
// SQL_ options and the system schemas stay on go-mysql-server's path.
var runOnceUnsafe = newWordSet(
	"into", "for update", "share", "lock", "match", "nextval", "sql_",
	"information_schema", "performance_schema", "mysql", "sys.",
)

// runsOnce reports whether query is a SELECT that cachedQuery may analyze
// and run once though the cache may not keep its plan (it reads user
// variables, the time, ...).
func runsOnce(query string) bool {
	switch firstWord(query) {
	case "select", "with":
	default:
		return false
	}
	return !runOnceUnsafe.in(query, "")
}

// uncacheableFree reports whether query holds none of planUncacheable's
// words but except.
func uncacheableFree(query, except string) bool {
	return !planUncacheable.in(query, except)
}

// wordSet is a set of lower-case ASCII words looked for anywhere in a
// text, case-insensitively, in one pass: the words are indexed by their
// first byte, so each byte of the text is compared with the few words
// that begin with it (a search word by word cost 180k instructions for
// a 300-byte report, a fifth of running its cached plan). Read-only
// after newWordSet; safe for concurrent use.
type wordSet struct {
	byFirst [256][]string
}

func newWordSet(words ...string) *wordSet {
	ws := &wordSet{}
	for _, w := range words {
		ws.byFirst[w[0]] = append(ws.byFirst[w[0]], w)
	}
	return ws
}

// in reports whether text holds one of the set's words other than
// except, in any case.
func (ws *wordSet) in(text, except string) bool {
	for i := 0; i < len(text); i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		for _, w := range ws.byFirst[c] {
			if w != except && len(text)-i >= len(w) && hasPrefixFold(text[i:], w) {
				return true
			}
		}
	}
	return false
}

// hasPrefixFold reports whether s begins with the lower-case ASCII word
// w, in any case (len(s) >= len(w)).
func hasPrefixFold(s, w string) bool {
	for j := 1; j < len(w); j++ {
		c := s[j]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[j] {
			return false
		}
	}
	return true
}

// cachedQuery runs query from the connection's plan cache when it can;
// done is false when the statement must take the ordinary path. It runs
// on c's goroutine.
func (h *mariaHandler) cachedQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (done bool, err error) {
	if h.noPlanCache.Load() {
		return false, nil
	}
	cacheable := planCacheable(query)
	if !cacheable && !runsOnce(query) {
		return false, nil
	}
	s, ext, sctx, ok := h.planSession(ctx, c, query)
	if !ok {
		return false, nil
	}
	if !cacheable {
		// analyzed now and run once, as the ordinary path would, but
		// on the connection's goroutine (go-mysql-server's handler
		// starts four goroutines, a channel of 512 rows and a timer for
		// every statement: most of a small statement's time)
		sctx.ClearWarnings()
		n, err := s.engine.AnalyzeQuery(sctx, sql.RemoveSpaceAndDelimiter(query, ';'))
		if err != nil || len(sctx.Warnings()) > 0 {
			sctx.ClearWarnings()
			return false, nil
		}
		return true, h.runPlan(ctx, c, s, ext, sctx, query, n, nil, "Com_select", callback)
	}
	key := s.planKey(sctx, h.plans.gen.Load())
	text := sql.RemoveSpaceAndDelimiter(query, ';')
	cp := h.plans.conn(c.ConnectionID)
	ent := cp.m[text]
	if ent != nil && ent.plan == nil && ent.key.db == key.db && ent.key.cat == key.cat && ent.key.obj == key.obj {
		// A text whose plan could not be kept takes the ordinary path
		// without a second analysis here: only DDL or a change of
		// database can change that, not the statements that bump gen.
		return false, nil
	}
	if ent == nil || ent.key != key {
		if len(cp.m) >= planCacheMax {
			clear(cp.m)
		}
		ent = &cachedPlan{key: key}
		cp.m[text] = ent
		sctx.ClearWarnings()
		n, err := s.engine.AnalyzeQuery(sctx, text)
		if err != nil || len(sctx.Warnings()) > 0 {
			// The ordinary path reports the error or the warnings.
			sctx.ClearWarnings()
			return false, nil
		}
		if reset, ok := sqlbackend.ReusablePlan(n); ok {
			ent.plan, ent.reset = n, reset
		}
	} else if ent.plan != nil {
		h.plans.Hits.Add(1)
	}
	if ent.plan == nil {
		return false, nil
	}
	return true, h.runPlan(ctx, c, s, ext, sctx, query, ent.plan, ent.reset, "Com_select", callback)
}

// planSession returns what running a kept plan for query on c needs: the
// server, the handler that runs bound plans and the statement's context;
// ok is false when there is none, or the session has temporary tables
// (which a kept plan cannot see come and go).
func (h *mariaHandler) planSession(ctx context.Context, c *mysql.Conn, query string) (s *Server, ext mysql.ExtendedHandler, sctx *sql.Context, ok bool) {
	s = h.srv.Load()
	ext, ok = h.Handler.(mysql.ExtendedHandler)
	if s == nil || !ok {
		return nil, nil, nil, false
	}
	sctx, err := s.srv.SessionManager().NewContextWithQuery(ctx, c, query)
	if err != nil {
		return nil, nil, nil, false
	}
	sess := sqlbackend.SessionOf(sctx)
	if sess == nil || sess.HasTemporaryTables() {
		return nil, nil, nil, false
	}
	return s, ext, sctx, true
}

// planKey is the key of a plan made now in sctx's database, under the
// cache generation gen.
func (s *Server) planKey(sctx *sql.Context, gen uint64) planKey {
	k := planKey{db: sctx.GetCurrentDatabase(), cat: s.e.Catalog().Version, obj: s.p.ObjectsGen(), gen: gen}
	if sess := sqlbackend.SessionOf(sctx); sess != nil {
		k.vars = sess.UserVars()
	}
	return k
}

// runPlan runs a kept plan n (its state cleared by reset) as the
// statement query, counted as com; in check mode it runs it once more
// first, discarding the results (only for a read: com "Com_select"). A
// plan analyzed for this run alone has no reset and runs once.
// It runs the plan with runBound, or with go-mysql-server's handler
// when gmsResults is set (tests compare the two).
func (h *mariaHandler) runPlan(ctx context.Context, c *mysql.Conn, s *Server, ext mysql.ExtendedHandler, sctx *sql.Context, query string, n sql.Node, reset func(), com string, callback mysql.ResultSpoolFn) error {
	run := func(cb mysql.ResultSpoolFn) error {
		if h.gmsResults.Load() {
			return ext.ComExecuteBound(ctx, c, query, n, cb)
		}
		h.plans.Bound.Add(1)
		return h.runBound(c, s, sctx, query, n, cb)
	}
	if reset == nil {
		// a plan analyzed for this run alone
		reset = func() {}
	} else if h.plans.check.Load() && com == "Com_select" {
		reset()
		sctx.ClearWarnings()
		if err := run(func(*sqltypes.Result, bool) error { return nil }); err != nil {
			return err
		}
	}
	reset()
	sctx.ClearWarnings()
	sql.IncrementStatusVariable(sctx, "Questions", 1)
	sql.IncrementStatusVariable(sctx, com, 1)
	return run(callback)
}
