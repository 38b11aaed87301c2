package hsfront

import (
	"bytes"
	"context"
	"sync"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/hsproto"
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

// session is a connection's protocol state: open handles and auth. It is
// touched only by the connection's goroutine, or by the engine writer while
// that goroutine waits on its batch.
type session struct {
	s       *Server
	c       *conn
	write   bool
	secret  []byte
	authed  bool
	user    string
	grants  Grants
	handles map[uint32]*handle // allocated on the first P
	slots   uint64             // one more than the highest id opened
}

func (ss *session) init(s *Server, write bool) {
	ss.s, ss.write = s, write
	if write {
		ss.secret = []byte(s.cfg.WriteSecret)
	} else {
		ss.secret = []byte(s.cfg.ReadSecret)
	}
}

// peerHost is the peer's IP address as text ("" when unknown), the host
// a SQL account is matched against and the key of the auth back-off.
func (ss *session) peerHost() string {
	if ss.c == nil {
		return ""
	}
	return ss.c.peerIP
}

// needAuth reports whether requests are refused until A succeeds.
func (ss *session) needAuth() bool {
	return (len(ss.secret) > 0 || ss.s.cfg.RequireAuth) && !ss.authed
}

// scratch is the per-batch working memory, pooled so that an idle
// connection holds none of it.
type scratch struct {
	req        hsproto.Request
	keys       []types.Value
	keyBufs    [][]byte
	in         []types.Value
	inBufs     [][]byte
	filters    []engine.Filter
	fBufs      [][]byte
	vals       []types.Value
	valBufs    [][]byte
	row        engine.Row
	fmt        []byte
	q          engine.Query
	m          engine.Modify
	out        *[]byte
	h          *handle
	executed   int    // lines the last lines call ran
	parsed     bool   // req holds the next line, already parsed (see lines)
	parsedRest []byte // what follows that line

	// find state, used by emit
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
// being read) and, on the read port, after the event loop's other ready
// connections had theirs.
const turnBudget = 256 << 10

// Why lines stopped before the end of the complete lines it was given.
type stopReason uint8

const (
	stopNone   stopReason = iota // every complete line was answered
	stopBudget                   // the turn's output reached turnBudget
	stopWriter                   // outside the writer: the next line needs it
	stopRead                     // inside the writer: the next line is a plain find
)

// batch answers the complete lines of buf into out and returns how many
// bytes it consumed, and whether the connection must close. On the write
// port a run of lines that change rows runs as one engine job (group
// commit across connections); finds between such runs run outside the
// writer, on committed data that holds every earlier run of the batch, so
// a scan never holds up the writes of other connections.
func (ss *session) batch(c *conn, buf []byte, out *[]byte) (int, bool) {
	sc := scratchPool.Get().(*scratch)
	sc.out = out
	defer func() {
		sc.req.Reset()
		sc.out, sc.h, sc.parsed, sc.parsedRest = nil, nil, false, nil
		scratchPool.Put(sc)
	}()
	consumed := 0
	for {
		n, stop := ss.lines(c, sc, buf[consumed:], nil)
		consumed += n
		if stop != stopWriter {
			return consumed, false
		}
		n, stop, ok := ss.writerRun(c, sc, buf[consumed:])
		consumed += n
		if !ok {
			return consumed, true
		}
		if stop != stopRead {
			return consumed, false
		}
	}
}

// writerRun runs the lines of buf that change rows as one writer job, up
// to the next plain find. If the group does not commit, every request of
// the run and every later complete line of buf fail, and ok is false: the
// connection must close (its handles may have changed in a batch the
// client will never see answered).
func (ss *session) writerRun(c *conn, sc *scratch, buf []byte) (n int, stop stopReason, ok bool) {
	out := sc.out
	start := len(*out)
	ran := false
	err := ss.s.e.Update(context.Background(), func(tx *engine.Job) error {
		ran = true
		*out = (*out)[:start]
		n, stop = ss.lines(c, sc, buf, tx)
		return nil
	})
	if err == nil {
		return n, stop, true
	}
	*out = (*out)[:start]
	// Count the lines to answer without framing again what was parsed:
	// parsing unescapes in place. Lines the job ran, the one left parsed,
	// then the untouched complete lines after.
	failed, rest := 0, buf[n:]
	if ran {
		failed = sc.executed
	}
	if sc.parsed {
		failed, rest = failed+1, sc.parsedRest
		sc.parsed, sc.parsedRest = false, nil
	}
	for {
		_, r, ok := hsproto.NextLine(rest)
		if !ok {
			break
		}
		failed, rest = failed+1, r
	}
	for ; failed > 0; failed-- {
		*out = hsproto.AppendError(*out, hsproto.ErrCommit)
	}
	return len(buf) - len(rest), stopNone, false
}

// asksSQL reports whether a parsed request may call into the SQL front: A
// when SQL accounts are enabled, P on a connection authenticated as one.
// Such lines run outside writer jobs: GRANT and the like hold the SQL
// front's user table while they wait for the writer to store the change,
// so asking from inside a job would stop both.
func (ss *session) asksSQL(r *hsproto.Request) bool {
	return (r.Cmd == hsproto.CmdAuth && ss.s.cfg.Authorize != nil) || (r.Cmd == hsproto.CmdOpen && ss.grants != nil)
}

// needsWriter reports whether a parsed request changes rows (insert or a
// modify), which on the write port runs inside a writer job.
func needsWriter(r *hsproto.Request) bool {
	return r.Cmd == hsproto.CmdExec && (r.Op == hsproto.OpInsert || r.Mod != hsproto.ModNone)
}

// lines executes the complete lines of buf (tx is nil outside the writer)
// and returns how many bytes it consumed and why it stopped. On the write
// port it stops before a line that needs the other side of the writer.
func (ss *session) lines(c *conn, sc *scratch, buf []byte, tx *engine.Job) (int, stopReason) {
	rest := buf
	observe := ss.s.cfg.Observe
	var t0 time.Time
	if observe != nil {
		t0 = time.Now()
	}
	// The server-wide counters are shared by every event loop: count
	// locally and add once per buffer, not once per request.
	var ops [NumOps][2]int64
	n := int64(0)
	stop := stopNone
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
			if len(*sc.out) >= turnBudget {
				stop = stopBudget
				break
			}
			sc.req.Parse(line)
			r = rr
		}
		start := len(*sc.out)
		if ss.write {
			if w := needsWriter(&sc.req); w && tx == nil {
				stop, sc.parsed, sc.parsedRest = stopWriter, true, r
				break
			} else if !w && tx != nil && n > 0 && (sc.req.Cmd == hsproto.CmdExec || ss.asksSQL(&sc.req)) {
				stop, sc.parsed, sc.parsedRest = stopRead, true, r
				break
			}
		}
		*sc.out = ss.exec(sc, tx, *sc.out)
		n++
		op, ok := classify(&sc.req), (*sc.out)[start] == '0'
		res := 0
		if !ok {
			res = 1
		}
		ops[op][res]++
		if observe != nil {
			// Each request's time runs from the end of the one before.
			t1 := time.Now()
			observe(ss.write, op, ok, t1.Sub(t0))
			t0 = t1
		}
		rest = r
	}
	if n > 0 {
		c.requests.Add(n)
		ss.s.stats.Requests.Add(n)
		for op := range ops {
			for res, k := range ops[op] {
				if k > 0 {
					ss.s.stats.Ops[portIndex(ss.write)][op][res].Add(k)
				}
			}
		}
	}
	sc.executed = int(n)
	return len(buf) - len(rest), stop
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

func (ss *session) exec(sc *scratch, tx *engine.Job, out []byte) []byte {
	r := &sc.req
	switch r.Cmd {
	case hsproto.CmdAuth:
		return ss.auth(r, out)
	case hsproto.CmdOpen:
		if ss.needAuth() {
			return hsproto.AppendError(out, hsproto.ErrUnauth)
		}
		return ss.open(r, tx, out)
	case hsproto.CmdExec:
		h := ss.handles[r.ID]
		env := hsproto.ExecEnv{Unauthenticated: ss.needAuth(), ReadOnly: !ss.write, Slots: ss.slots, Opened: h != nil}
		if h != nil {
			env.FilterColumns = len(h.fcolNames)
		}
		if e := r.CheckExec(env); e != hsproto.ErrNone {
			return hsproto.AppendError(out, e)
		}
		if e := ss.refresh(h, tx); e != hsproto.ErrNone {
			return hsproto.AppendError(out, e)
		}
		if need := required(r); h.privs&need != need {
			return hsproto.AppendError(out, hsproto.ErrUnauth)
		}
		sc.h = h
		if r.Op == hsproto.OpInsert {
			return ss.insert(sc, tx, out)
		}
		return ss.find(sc, tx, out)
	}
	return hsproto.AppendError(out, hsproto.ErrCmd)
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
	if ss.c != nil {
		ss.c.mu.Lock()
		ss.c.open = len(ss.handles)
		ss.c.mu.Unlock()
	}
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
