package hsfront

import (
	"bytes"
	"sync"
	"sync/atomic"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/hsproto"
	"github.com/handlerdb/handlerdb/internal/netloop"
	"github.com/handlerdb/handlerdb/internal/types"
)

// handle is an index opened by P on one connection.
type handle struct {
	db, table, index string
	colNames         []string
	fcolNames        []string

	version uint64 // catalog version the fields below were resolved in
	t       *engine.Table
	idx     *engine.Index
	cols    []int // result / value columns, in P's order (may repeat)
	fcols   []int // filter columns

	privs Privileges // what requests on the handle may do, fixed at P
}

// session is a connection's protocol state: open handles and auth, and
// the batch of the turn in progress; it is the connection's
// netloop.Session. It is touched only by what serves the connection (its
// goroutine or its event loop), or by the engine writer while that waits
// for the batch's run; requests and open (under mu) are read by Conns.
type session struct {
	s       *Server
	c       *netloop.Conn // nil in tests that drive a session directly
	write   bool
	secret  []byte
	authed  bool
	user    string
	grants  Grants
	handles map[uint32]*handle // allocated on the first P
	slots   uint64             // one more than the highest id opened
	pf      engine.Prefetcher  // the write port's look-ahead over a run (writerun.go)
	locker  *engine.Locker     // the row locks a write waited for (rowlock.go); nil until one did
	bs      batchState         // the turn's batch (netloop's Begin to End)

	requests atomic.Int64 // requests answered, for ConnInfo
	mu       sync.Mutex
	nopen    int // number of open indexes, for ConnInfo (guarded by mu)
}

// newSession returns the session of connection c (nil in tests) on the
// read or the write port.
func newSession(s *Server, write bool, c *netloop.Conn) *session {
	ss := &session{s: s, c: c, write: write}
	if write {
		ss.secret = []byte(s.cfg.WriteSecret)
	} else {
		ss.secret = []byte(s.cfg.ReadSecret)
	}
	return ss
}

// peerHost is the peer's IP address as text ("" when unknown), the host
// a SQL account is matched against and the key of the auth back-off.
func (ss *session) peerHost() string {
	if ss.c == nil {
		return ""
	}
	return ss.c.PeerIP()
}

// preAuthLine is the longest line a connection may leave incomplete
// before it has authenticated on a port that requires it (issue #23: a
// peer allowed thousands of connections could otherwise make each buffer
// a MaxLine partial line before any credential). 4 KiB holds any A line
// with a SQL account (user names of 80 characters, passwords of a few
// hundred), escaped; a port's secret longer than about 2 KiB raises the
// limit to what its A line needs escaped (each byte at most two).
const preAuthLine = 4 << 10

// maxLine is the longest partial line the connection may hold now:
// Config.MaxLine, or before A succeeds where A is required, at most
// preAuthLine (or its secret's A line).
func (ss *session) maxLine() int {
	limit := ss.s.cfg.MaxLine
	if ss.needAuth() {
		limit = min(limit, max(preAuthLine, len("A\t1\t")+2*len(ss.secret)))
	}
	return limit
}

// needAuth reports whether requests are refused until A succeeds.
func (ss *session) needAuth() bool {
	return (len(ss.secret) > 0 || ss.s.cfg.RequireAuth) && !ss.authed
}

// reqState is one request converted for the engine: its handle, the key,
// filter and value columns in their column types, the query and the
// modify. The buffers are reused from request to request.
type reqState struct {
	h       *handle
	keys    []types.Value
	keyBufs [][]byte
	in      []types.Value
	inBufs  [][]byte
	filters []engine.Filter
	fBufs   [][]byte
	vals    []types.Value
	valBufs [][]byte
	given   []bool // insert: the columns the request gives
	row     engine.Row
	fmt     []byte
	q       engine.Query
	m       engine.Modify
}

// scratch is the per-batch working memory, pooled so that an idle
// connection holds none of it.
type scratch struct {
	reqState
	req        hsproto.Request
	ahead      lookahead // the read port's look-ahead (prefetch.go)
	out        *[]byte
	parsed     bool       // req holds the next line, already parsed (see lines)
	parsedRest []byte     // what follows that line
	run        []*writeOp // the write port's current run (writerun.go)
	runLen     int        // the lines of run in use
	runSess    *session   // the session whose run applyFn applies
	runStart   time.Time  // when the run was prepared (with an Observe hook)
	applyFn    func(*engine.Job) error
	work       int // the turn's work so far (see turnWork)
	// A run stopped at a locked row (rowlock.go): the lines before
	// runFrom are applied (or answered); lockStop is the line that found
	// the row lock, lockErr names it (-1, nil otherwise).
	runFrom, lockStop int
	lockErr           *engine.RowLockedError

	// find state, used by emit
	findFilters           []engine.Filter // the find's filters, applied by emit
	ftable                *engine.Table
	rows                  []byte
	rowsEnd               int  // len(rows) past which the reply is too big; -1: no limit
	tooBig                bool // the find stopped at rowsEnd
	limit, skip, returned uint32
	emitFn                func(engine.Row) bool
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// conv converts protocol value v into column type t using the i-th buffer
// of bufs (grown as needed).
func conv(bufs *[][]byte, i int, t *types.Type, v hsproto.Value) types.Value {
	if v.Null {
		return types.NullValue
	}
	for len(*bufs) <= i {
		*bufs = append(*bufs, nil)
	}
	val := types.Convert(t, v.B, (*bufs)[i])
	if t.Class() == types.ClassBytes {
		(*bufs)[i] = val.B[:0]
	}
	return val
}

// turnBudget bounds the output of one turn of a connection: once a batch's
// answers reach it, the lines after are left for the next turn, which
// comes when that output is written (so a client that does not read stops
// being read) and, on an event loop, after the loop's other ready
// connections had theirs.
const turnBudget = 256 << 10

// turnWork bounds the work of one turn the same way, whatever its output:
// a line counts one, and a find adds every row it examines (those its
// filters refuse, those its offset skips and those it formats for a reply
// that then ends in resultlen), and one per IN value; a run of writes
// counts its lines, the rows they changed and scanWork for each modify
// that is not a point lookup. Without it, lines with tiny answers (a
// filtered scan matching nothing, a scan past MaxResponse) ran back to
// back for a whole read of the socket, and the loop's other connections
// waited seconds. A line is never split: the bound is checked between
// lines, so a turn is at most turnWork plus one line. 8192 rows are about
// 5 ms of scan; a batch of point finds (two units each) of one 16 KiB
// read stays one turn.
const turnWork = 8192

// scanWork is what a modify that scans (not a point lookup) counts for
// the turn's work, the writer not telling the rows it examined: a whole
// turn, so that such a modify ends its run and its turn, and the writer's
// group holds at most one of them per connection.
const scanWork = turnWork

// Why lines stopped before the end of the complete lines it was given.
type stopReason uint8

const (
	stopNone   stopReason = iota // every complete line was answered
	stopBudget                   // the turn's output reached turnBudget, or its work turnWork
	stopWriter                   // the next line changes rows (write port)
)

// batch answers the complete lines of buf into out and returns how many
// bytes it consumed, and whether the connection must close. On the write
// port a run of lines up to the next find runs as one engine job (group
// commit across connections): the connection parses and converts the
// run, the writer only applies it (writerun.go). Finds run outside the
// writer, on committed data that holds every earlier run of the batch, so
// a scan never holds up the writes of other connections.
//
// batch waits in Update for each run (tests drive a session with it).
// netloop drives the same steps through the netloop.Session methods
// below (Begin, Step, Resume, End), so that a write-port event loop can
// hand the writer the runs of all its ready connections at once.
func (ss *session) batch(buf []byte, out *[]byte) (int, bool) {
	ss.Begin(buf, out)
	for !ss.Step() {
		ss.Resume(ss.runJobs(ss.bs.sc))
	}
	return ss.End()
}

// batchState is a batch in progress: its scratch, its input and how far
// it got. Between step and resume its scratch holds a prepared run.
type batchState struct {
	sc       *scratch
	buf      []byte
	consumed int
	closed   bool   // the connection must close after the batch
	count    int    // lines of the prepared run
	rest     []byte // what follows the prepared run
}

// Quit reports a request to close the connection without answers (a
// first byte of '/', as the plugin takes it).
func (ss *session) Quit(in []byte) bool { return hsproto.IsCloseRequest(in) }

// Begin starts a batch over in's complete lines, answering into out.
func (ss *session) Begin(in []byte, out *[]byte) {
	sc := scratchPool.Get().(*scratch)
	sc.out, sc.work = out, 0
	ss.bs = batchState{sc: sc, buf: in}
}

// Step answers lines until the batch is done (true), or until a run of
// writes is prepared (false): then Job must run as a writer job, and
// Resume be called with its result.
func (ss *session) Step() bool {
	bs := &ss.bs
	sc := bs.sc
	for !bs.closed {
		n, stop := ss.lines(sc, bs.buf[bs.consumed:])
		bs.consumed += n
		if stop != stopWriter {
			return true
		}
		count, rest, apply := ss.prepareRun(sc, bs.buf[bs.consumed:])
		bs.count, bs.rest = count, rest
		if apply {
			return false
		}
		ss.Resume(nil)
	}
	return true
}

// Job is the prepared run's writer job.
func (ss *session) Job() func(*engine.Job) error { return ss.bs.sc.applyFn }

// Stalled reports that the run's job stopped at a row lock (rowlock.go);
// the session's Locker is made here, on the serving goroutine, before
// Wait, which may run on another, can race Close.
func (ss *session) Stalled() bool {
	if ss.bs.sc.lockStop < 0 {
		return false
	}
	if ss.locker == nil {
		ss.locker = ss.s.e.Locks().NewLocker()
	}
	return true
}

// Wait waits for the row lock the run stalled at (waitRowLock).
func (ss *session) Wait() bool { return ss.waitRowLock(ss.bs.sc) }

// Resume answers the prepared run, err being its job's result.
func (ss *session) Resume(err error) {
	bs := &ss.bs
	n, ok := ss.finishRun(bs.sc, bs.buf[bs.consumed:], bs.count, bs.rest, err)
	bs.consumed += n
	bs.closed = !ok
	bs.count, bs.rest = 0, nil
}

// End releases the batch's scratch and returns how many bytes it
// consumed and whether the connection must close.
func (ss *session) End() (int, bool) {
	bs := &ss.bs
	sc := bs.sc
	sc.req.Reset()
	sc.out, sc.h, sc.parsed, sc.parsedRest = nil, nil, false, nil
	scratchPool.Put(sc)
	n, closed := bs.consumed, bs.closed
	*bs = batchState{}
	return n, closed
}

// Complete reports whether rest holds a whole line.
func (ss *session) Complete(rest []byte) bool { return bytes.IndexByte(rest, '\n') >= 0 }

// MaxPartial is maxLine.
func (ss *session) MaxPartial() int { return ss.maxLine() }

// TooLong answers a line longer than maxLine (the connection closes).
func (ss *session) TooLong(out []byte) []byte { return hsproto.AppendError(out, hsproto.ErrLinelen) }

// Close lets go of the row locks the session's writes waited for.
func (ss *session) Close() { ss.releaseLocks() }

// needsWriter reports whether a parsed request changes rows (insert or a
// modify), which on the write port is applied by the writer.
func needsWriter(r *hsproto.Request) bool {
	return r.Cmd == hsproto.CmdExec && (r.Op == hsproto.OpInsert || r.Mod != hsproto.ModNone)
}

// lines executes the complete lines of buf outside the writer and
// returns how many bytes it consumed and why it stopped. On the write port
// it stops before a line that changes rows, leaving it parsed.
func (ss *session) lines(sc *scratch, buf []byte) (int, stopReason) {
	rest := buf
	var cnt opCounter
	cnt.start(ss, time.Time{})
	stop := stopNone
	ahead := 0 // lines left that the last look-ahead covered
	for {
		// Parse unescapes the line in place (an escaped byte may become
		// LF), so a line is framed and parsed once: a line this loop
		// stopped before is left parsed, with what follows it, for the
		// next call.
		var r []byte
		if sc.parsed {
			sc.parsed, r, sc.parsedRest = false, sc.parsedRest, nil
		} else {
			line, rr, ok := hsproto.NextLine(rest)
			if !ok {
				break
			}
			if len(*sc.out) >= turnBudget || sc.work >= turnWork {
				stop = stopBudget
				break
			}
			if !ss.write {
				if ahead == 0 {
					ahead = ss.prefetch(sc, rest)
				}
				ahead--
			}
			sc.req.Parse(line)
			r = rr
		}
		if ss.write && needsWriter(&sc.req) {
			stop, sc.parsed, sc.parsedRest = stopWriter, true, r
			break
		}
		start := len(*sc.out)
		sc.work++
		*sc.out = ss.exec(sc, *sc.out)
		cnt.add(&sc.req, (*sc.out)[start] == '0')
		rest = r
	}
	cnt.flush()
	return len(buf) - len(rest), stop
}

// opCounter counts a batch's requests by class and result. The server-wide
// counters are shared by every event loop: they are added once per buffer,
// not once per request. So is the latency hook (Config.Observe): the
// batch is timed once, and each of its requests is given an equal share
// of that time, with one call per class and result.
type opCounter struct {
	ss      *session
	observe func(write bool, op Op, ok bool, d time.Duration, n int)
	t0      time.Time
	n       int64
	ops     [NumOps][2]int64
}

// start begins a batch that began at t0 (used only with an Observe hook;
// the zero time asks start to read the clock).
func (k *opCounter) start(ss *session, t0 time.Time) {
	k.ss, k.observe = ss, ss.s.cfg.Observe
	if k.observe != nil {
		if t0.IsZero() {
			t0 = time.Now()
		}
		k.t0 = t0
	}
}

// add counts one answered request.
func (k *opCounter) add(r *hsproto.Request, ok bool) {
	res := 0
	if !ok {
		res = 1
	}
	k.ops[classify(r)][res]++
	k.n++
}

func (k *opCounter) flush() {
	if k.n == 0 {
		return
	}
	k.ss.requests.Add(k.n)
	st := &k.ss.s.stats
	st.Requests.Add(k.n)
	var share time.Duration
	if k.observe != nil {
		share = time.Since(k.t0) / time.Duration(k.n)
	}
	for op := range k.ops {
		for res, n := range k.ops[op] {
			if n > 0 {
				st.Ops[portIndex(k.ss.write)][op][res].Add(n)
				if k.observe != nil {
					k.observe(k.ss.write, Op(op), res == 0, share, int(n))
				}
			}
		}
	}
}

// classify names a parsed request's class.
func classify(r *hsproto.Request) Op {
	switch r.Cmd {
	case hsproto.CmdOpen:
		return OpOpen
	case hsproto.CmdAuth:
		return OpAuth
	case hsproto.CmdExec:
		if r.Op == hsproto.OpInsert {
			return OpInsert
		}
		switch r.Mod {
		case hsproto.ModNone:
			return OpFind
		case hsproto.ModUpdate:
			return OpUpdate
		case hsproto.ModDelete:
			return OpDelete
		case hsproto.ModIncrement:
			return OpIncrement
		case hsproto.ModDecrement:
			return OpDecrement
		}
	}
	return OpInvalid
}

// exec answers a request outside the writer: A, P, errors and finds.
func (ss *session) exec(sc *scratch, out []byte) []byte {
	r := &sc.req
	switch r.Cmd {
	case hsproto.CmdAuth:
		return ss.auth(r, out)
	case hsproto.CmdOpen:
		if ss.needAuth() {
			return hsproto.AppendError(out, hsproto.ErrUnauth)
		}
		return ss.open(r, nil, out)
	case hsproto.CmdExec:
		h, e := ss.checkExec(r, nil)
		if e != hsproto.ErrNone {
			return hsproto.AppendError(out, e)
		}
		sc.h = h
		return ss.find(sc, out)
	}
	return hsproto.AppendError(out, hsproto.ErrCmd)
}

// checkExec runs the checks of an exec request that come before the
// engine: the request against its handle, the handle against the catalog
// (tx's, or the published one when tx is nil), the handle's privileges.
func (ss *session) checkExec(r *hsproto.Request, tx *engine.Job) (*handle, hsproto.Error) {
	h := ss.handles[r.ID]
	env := hsproto.ExecEnv{Unauthenticated: ss.needAuth(), ReadOnly: !ss.write, Slots: ss.slots, Opened: h != nil}
	if h != nil {
		env.FilterColumns = len(h.fcolNames)
	}
	if e := r.CheckExec(env); e != hsproto.ErrNone {
		return nil, e
	}
	if e := ss.refresh(h, tx); e != hsproto.ErrNone {
		return nil, e
	}
	if need := required(r); h.privs&need != need {
		return nil, hsproto.ErrUnauth
	}
	return h, hsproto.ErrNone
}

func catalogOf(e *engine.Engine, tx *engine.Job) *engine.Catalog {
	if tx != nil {
		return tx.Catalog()
	}
	return e.Catalog()
}

// open runs P.
func (ss *session) open(r *hsproto.Request, tx *engine.Job, out []byte) []byte {
	h := &handle{db: string(r.DB), table: string(r.Table), index: string(r.Index), privs: allPrivileges}
	// The grants come first, so that a refused user cannot tell which
	// tables exist.
	if ss.grants != nil {
		h.privs = privilegesOf(ss.grants, h.db, h.table)
		if !mayOpen(h.privs, ss.write) {
			return hsproto.AppendError(out, hsproto.ErrUnauth)
		}
	}
	for _, c := range r.Columns {
		h.colNames = append(h.colNames, string(c))
	}
	for _, c := range r.FilterColumns {
		h.fcolNames = append(h.fcolNames, string(c))
	}
	if e := h.resolve(catalogOf(ss.s.e, tx), r); e != hsproto.ErrNone {
		return hsproto.AppendError(out, e)
	}
	if ss.handles == nil {
		ss.handles = map[uint32]*handle{}
	}
	ss.handles[r.ID] = h
	ss.mu.Lock()
	ss.nopen = len(ss.handles)
	ss.mu.Unlock()
	if uint64(r.ID)+1 > ss.slots {
		ss.slots = uint64(r.ID) + 1
	}
	return hsproto.AppendOK(out)
}

// resolve looks the handle's names up in cat. r is the P request (for its
// index-number rules), or nil when re-resolving by the stored names.
func (h *handle) resolve(cat *engine.Catalog, r *hsproto.Request) hsproto.Error {
	t, err := cat.Table(h.db, h.table)
	if err != nil {
		return hsproto.ErrOpenTable
	}
	var idx *engine.Index
	var n int
	var numeric bool
	if r != nil {
		n, numeric = r.IndexNumber()
	} else {
		n, numeric = indexNumber(h.index)
	}
	if numeric {
		if n < 0 || n >= len(t.Indexes) {
			return hsproto.ErrIdxnum
		}
		idx = t.Indexes[n]
	} else {
		name := h.index
		if name == "" {
			name = "PRIMARY"
		}
		if idx = t.Index(name); idx == nil {
			return hsproto.ErrIdxnum
		}
	}
	cols, ok := columnList(t, h.colNames)
	if !ok {
		return hsproto.ErrFld
	}
	fcols, ok := columnList(t, h.fcolNames)
	if !ok {
		return hsproto.ErrFld
	}
	h.t, h.idx, h.cols, h.fcols, h.version = t, idx, cols, fcols, cat.Version
	return hsproto.ErrNone
}

// indexNumber reads a stored index name as P does (leading digits, C atoi).
func indexNumber(name string) (int, bool) {
	var r hsproto.Request
	r.Index = []byte(name)
	return r.IndexNumber()
}

// columnList maps names to ordinals; HandlerSocket matches column names
// case-sensitively.
func columnList(t *engine.Table, names []string) ([]int, bool) {
	out := make([]int, 0, len(names))
	for _, n := range names {
		found := -1
		for i := range t.Columns {
			if t.Columns[i].Name == n {
				found = i
				break
			}
		}
		if found < 0 {
			return nil, false
		}
		out = append(out, found)
	}
	return out, true
}

// refresh re-resolves a handle after DDL changed the catalog.
func (ss *session) refresh(h *handle, tx *engine.Job) hsproto.Error {
	cat := catalogOf(ss.s.e, tx)
	if h.version == cat.Version {
		return hsproto.ErrNone
	}
	if e := h.resolve(cat, nil); e != hsproto.ErrNone {
		return hsproto.ErrTblnum
	}
	return hsproto.ErrNone
}

// auth runs A. The key is first compared with the port's whole secret
// (so a secret holding ':' works), then, when it does not match, taken as
// user:password of a SQL account connecting from the peer's address (the
// first ':' ends the user name; Config.Authorize decides). While the peer
// is backed off (Config.Backoff), A is refused without any check.
func (ss *session) auth(r *hsproto.Request, out []byte) []byte {
	e := r.CheckAuth(ss.secret)
	if e == hsproto.ErrAuthtype {
		return hsproto.AppendError(out, e) // the connection's state is kept
	}
	peer := ss.peerHost()
	bo := ss.s.cfg.Backoff
	// checked: a failure tells the peer something (a secret or an
	// account was tried), so it counts towards the back-off.
	checked := len(ss.secret) > 0 || ss.s.cfg.RequireAuth
	switch {
	case bo.Blocked(peer):
		e, checked = hsproto.ErrUnauth, false
	case e == hsproto.ErrNone && len(ss.secret) == 0 && ss.s.cfg.RequireAuth:
		// A port without a secret matches the empty key, as in the
		// plugin; when A is required there, it is no credential.
		e = hsproto.ErrUnauth
	case e == hsproto.ErrNone:
		ss.setUser("", nil) // the port's secret: every table
	case ss.s.cfg.Authorize != nil:
		var tried bool
		e, tried = ss.authUser(peer, r.AuthKey)
		checked = checked || tried
	}
	if e == hsproto.ErrNone {
		ss.authed = true
		return hsproto.AppendOK(out)
	}
	ss.authed = false
	ss.setUser("", nil)
	ss.s.stats.AuthFail.Add(1)
	if checked {
		bo.Failed(peer)
	}
	return hsproto.AppendError(out, e)
}

func (ss *session) setUser(user string, g Grants) {
	ss.user, ss.grants = user, g
}

// authUser checks `user:password` against the SQL accounts as connecting
// from host; tried says whether the key named an account at all.
func (ss *session) authUser(host string, key []byte) (e hsproto.Error, tried bool) {
	i := bytes.IndexByte(key, ':')
	if i < 0 {
		return hsproto.ErrUnauth, false
	}
	if host == "" {
		return hsproto.ErrUnauth, true // no address to match the account's host against
	}
	g, err := ss.s.cfg.Authorize(host, string(key[:i]), string(key[i+1:]))
	if err != nil {
		return hsproto.ErrUnauth, true
	}
	ss.setUser(string(key[:i]), g)
	return hsproto.ErrNone, true
}

// Privileges is a set of the table privileges HandlerSocket requests need.
type Privileges uint8

// The privileges, named as in GRANT.
const (
	PrivSelect Privileges = 1 << iota
	PrivInsert
	PrivUpdate
	PrivDelete

	allPrivileges = PrivSelect | PrivInsert | PrivUpdate | PrivDelete
)

// TableGrants is a Grants that tells each privilege apart. With it, as in
// MySQL, each request needs its own privileges on the handle's table:
//
//   - open_index: SELECT on the read port; INSERT, UPDATE or DELETE (any
//     one) on the write port;
//   - find: SELECT;
//   - insert: INSERT;
//   - U, +, - (with or without ?): UPDATE and SELECT; D and D?: DELETE and
//     SELECT. SELECT because they read rows: the rows a ? form returns,
//     and, for every form, which rows the key and filters match (MySQL
//     asks SELECT for the columns an UPDATE's or DELETE's WHERE reads;
//     without it a `+ 0` with a filter would tell any column's value).
//
// A refused request answers `3	1	unauth` and the connection goes on.
// The privileges are read at open_index, so a GRANT or REVOKE applies from
// the next P. A Grants without Privileges gets SELECT from Allowed(db,
// table, false) and INSERT, UPDATE and DELETE from Allowed(db, table,
// true). Implementations must be safe for concurrent use.
type TableGrants interface {
	Grants
	// Privileges returns the user's privileges on db.table.
	Privileges(db, table string) Privileges
}

// privilegesOf returns g's privileges on db.table.
func privilegesOf(g Grants, db, table string) Privileges {
	if tg, ok := g.(TableGrants); ok {
		return tg.Privileges(db, table)
	}
	var p Privileges
	if g.Allowed(db, table, false) {
		p |= PrivSelect
	}
	if g.Allowed(db, table, true) {
		p |= PrivInsert | PrivUpdate | PrivDelete
	}
	return p
}

// mayOpen reports whether privileges p let P open a table on the port.
func mayOpen(p Privileges, write bool) bool {
	if write {
		return p&(PrivInsert|PrivUpdate|PrivDelete) != 0
	}
	return p&PrivSelect != 0
}

// required is what a find, insert or modify needs (see TableGrants).
func required(r *hsproto.Request) Privileges { return opPrivileges[classify(r)] }

// opPrivileges are the privileges each class of request needs on its
// table: a modify reads the rows it matches (their count would tell their
// values), so it needs SELECT too.
var opPrivileges = [NumOps]Privileges{
	OpFind:      PrivSelect,
	OpInsert:    PrivInsert,
	OpUpdate:    PrivSelect | PrivUpdate,
	OpIncrement: PrivSelect | PrivUpdate,
	OpDecrement: PrivSelect | PrivUpdate,
	OpDelete:    PrivSelect | PrivDelete,
}
