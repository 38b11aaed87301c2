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
// the run fails and ok is false: the connection must close (its handles
// may have changed in a batch the client will never see answered).
func (ss *session) writerRun(c *conn, sc *scratch, buf []byte) (n int, stop stopReason, ok bool) {
	out := sc.out
	start := len(*out)
	ran := false
	err := ss.s.e.Update(context.Background(), func(tx *engine.Tx) error {
		ran = true
		*out = (*out)[:start]
		n, stop = ss.lines(c, sc, buf, tx)
		return nil
	})
	if err == nil {
		return n, stop, true
	}
	*out = (*out)[:start]
	if !ran {
		n = completeLines(buf)
	}
	for i := countLines(buf[:n]); i > 0; i-- {
		*out = hsproto.AppendError(*out, hsproto.ErrCommit)
	}
	return n, stopNone, false
}

// completeLines returns the length of buf's complete lines.
func completeLines(buf []byte) int {
	if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
		return i + 1
	}
	return 0
}

func countLines(b []byte) int {
	return bytes.Count(b, []byte{'\n'})
}

// needsWriter reports whether a parsed request changes rows (insert or a
// modify), which on the write port runs inside a writer job.
func needsWriter(r *hsproto.Request) bool {
	return r.Cmd == hsproto.CmdExec && (r.Op == hsproto.OpInsert || r.Mod != hsproto.ModNone)
}

// lines executes the complete lines of buf (tx is nil outside the writer)
// and returns how many bytes it consumed and why it stopped. On the write
// port it stops before a line that needs the other side of the writer.
func (ss *session) lines(c *conn, sc *scratch, buf []byte, tx *engine.Tx) (int, stopReason) {
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
			} else if !w && tx != nil && n > 0 && sc.req.Cmd == hsproto.CmdExec {
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

func (ss *session) exec(sc *scratch, tx *engine.Tx, out []byte) []byte {
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
		sc.h = h
		if r.Op == hsproto.OpInsert {
			return ss.insert(sc, tx, out)
		}
		return ss.find(sc, tx, out)
	}
	return hsproto.AppendError(out, hsproto.ErrCmd)
}

func catalogOf(e *engine.Engine, tx *engine.Tx) *engine.Catalog {
	if tx != nil {
		return tx.Catalog()
	}
	return e.Catalog()
}

// open runs P.
func (ss *session) open(r *hsproto.Request, tx *engine.Tx, out []byte) []byte {
	h := &handle{db: string(r.DB), table: string(r.Table), index: string(r.Index)}
	for _, c := range r.Columns {
		h.colNames = append(h.colNames, string(c))
	}
	for _, c := range r.FilterColumns {
		h.fcolNames = append(h.fcolNames, string(c))
	}
	if e := h.resolve(catalogOf(ss.s.e, tx), r); e != hsproto.ErrNone {
		return hsproto.AppendError(out, e)
	}
	if ss.grants != nil && !ss.grants.Allowed(h.db, h.table, ss.write) {
		return hsproto.AppendError(out, hsproto.ErrUnauth)
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
func (ss *session) refresh(h *handle, tx *engine.Tx) hsproto.Error {
	cat := catalogOf(ss.s.e, tx)
	if h.version == cat.Version {
		return hsproto.ErrNone
	}
	if e := h.resolve(cat, nil); e != hsproto.ErrNone {
		return hsproto.ErrTblnum
	}
	return hsproto.ErrNone
}

// auth runs A.
func (ss *session) auth(r *hsproto.Request, out []byte) []byte {
	e := r.CheckAuth(ss.secret)
	if e == hsproto.ErrNone {
		ss.setUser("", nil) // the port's secret: every table
	} else if e == hsproto.ErrUnauth && ss.s.cfg.Authorize != nil {
		e = ss.authUser(r.AuthKey)
	}
	switch e {
	case hsproto.ErrNone:
		ss.authed = true
		return hsproto.AppendOK(out)
	case hsproto.ErrUnauth:
		ss.authed = false
		ss.setUser("", nil)
		ss.s.stats.AuthFail.Add(1)
	}
	return hsproto.AppendError(out, e)
}

func (ss *session) setUser(user string, g Grants) {
	ss.user, ss.grants = user, g
}

// authUser checks `user:password` against the SQL users.
func (ss *session) authUser(key []byte) hsproto.Error {
	for i, b := range key {
		if b == ':' {
			g, err := ss.s.cfg.Authorize(string(key[:i]), string(key[i+1:]))
			if err != nil {
				return hsproto.ErrUnauth
			}
			ss.setUser(string(key[:i]), g)
			return hsproto.ErrNone
		}
	}
	return hsproto.ErrUnauth
}
