package mcfront

import (
	"bytes"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/mcproto"
	"github.com/handlerdb/handlerdb/internal/netloop"
	"github.com/handlerdb/handlerdb/internal/types"
)

// session is one connection's netloop.Session: a turn answers its
// complete requests in order; a request that changes rows ends the
// turn's step with a writer job (Step false), answered by Resume.
// Touched only by what serves the connection, and by the writer while
// that runs the job.
type session struct {
	s *Server
	c *netloop.Conn

	// the turn
	in       []byte
	out      *[]byte
	consumed int
	closed   bool
	pending  int // bytes of the requests the prepared run answers
	partial  int // what MaxPartial answers, set by End

	// swallow is how many bytes of a too large data block are still to
	// be discarded (they may come in later reads).
	swallow int

	mode  uint8 // modeUnknown until the first byte: text or binary
	req   mcproto.Request
	breq  mcproto.BinRequest
	run   []op     // the prepared run: run[:nrun]
	w     writeBuf // the run's point changes (on the writer)
	nrun  int
	jobFn func(*engine.Job) error

	// container is the connection's container ("get @@name" switches);
	// "" is the configuration's default.
	container string
	cached    *container // resolved container of the last request
	buf       []byte     // scratch for values read

	// A point read's state, made once (readKey): no allocation per get.
	q      engine.Query
	qkey   [1]types.Value
	kbuf   []byte
	findFn func(engine.Row) bool
	findC  *container
	findIt item
	found  bool

	// authed says the connection has logged in (Config.Authorize);
	// grants are its account's (nil: no authentication configured).
	authed bool
	grants Grants
}

// allowed reports whether the connection may read (or write) c's table.
func (ss *session) allowed(c *container, write bool) bool {
	return ss.grants == nil || ss.grants.Allowed(c.def.db, c.def.table, write)
}

// login checks user and password (Config.Authorize, after the
// back-off) and reports whether they are right.
func (ss *session) login(user, password []byte) bool {
	s := ss.s
	s.stats.AuthCmds.Add(1)
	host := ss.c.PeerIP()
	if !s.cfg.Backoff.Blocked(host) {
		if g, err := s.cfg.Authorize(host, string(user), string(password)); err == nil {
			ss.authed, ss.grants = true, g
			return true
		}
		s.cfg.Backoff.Failed(host)
	}
	s.stats.AuthErrors.Add(1)
	return false
}

// textLogin answers the request of a connection that must log in first:
// memcached -Y's ASCII authentication, a set whose value is "user
// password" (STORED); anything else, or a wrong password, is answered
// "CLIENT_ERROR unauthenticated" and the connection closed.
func (ss *session) textLogin(n int, perr mcproto.Error) {
	ss.consumed += n
	ss.closed = true
	if perr == mcproto.ErrNone && ss.req.Cmd == mcproto.CmdSet {
		user, password, ok := bytes.Cut(ss.req.Data, []byte(" "))
		if !ok {
			*ss.out = append(*ss.out, "CLIENT_ERROR bad authentication token format\r\n"...)
			return
		}
		if ss.login(user, password) {
			ss.closed = false
			*ss.out = append(*ss.out, mcproto.Stored...)
			return
		}
	}
	*ss.out = mcproto.AppendError(*ss.out, mcproto.ErrAuth)
}

func newSession(s *Server, c *netloop.Conn) *session {
	ss := &session{s: s, c: c, partial: mcproto.LineMax}
	ss.jobFn = ss.apply
	ss.findFn = ss.onRow
	return ss
}

// readKey reads key k of container c on committed data: the item, its
// value in ss.buf (valid until the next read), and whether it was found
// (expired or not).
func (ss *session) readKey(c *container, k []byte) (item, bool) {
	kv, ok := c.keyValue(k, ss.kbuf[:0])
	if !ok {
		return item{}, false
	}
	if c.t.Columns[c.key].Type.Class() == types.ClassBytes {
		ss.kbuf = kv.B[:0] // (the converted key's buffer, kept)
	}
	ss.qkey[0] = kv
	ss.q = engine.Query{Index: c.idx, Key: ss.qkey[:], Limit: 1}
	ss.findC, ss.found = c, false
	ss.buf = ss.buf[:0]
	if err := ss.s.e.Find(c.t, &ss.q, ss.findFn); err != nil {
		ss.found = false
	}
	ss.findC, ss.qkey[0] = nil, types.Value{}
	return ss.findIt, ss.found
}

// onRow is readKey's find callback.
func (ss *session) onRow(r engine.Row) bool {
	ss.buf = ss.findC.readItem(r, &ss.findIt, ss.buf)
	ss.found = true
	return false
}

// Quit is false: quit is answered in order with the requests before it.
func (ss *session) Quit([]byte) bool { return false }

// Begin starts a turn over in.
func (ss *session) Begin(in []byte, out *[]byte) {
	ss.in, ss.out, ss.consumed, ss.closed = in, out, 0, false
	ss.s.stats.BytesRead.Add(int64(len(in)))
}

// Step answers requests until the input holds no complete one (true) or
// a run of writes is prepared for the writer (false). A run is the
// requests that change rows one after the other (up to maxRun): one job
// answers them all, in order; any other request ends it, so that it
// reads what the run wrote and its answer follows the run's.
func (ss *session) Step() bool {
	if ss.mode == modeUnknown && len(ss.in) > ss.consumed {
		ss.mode = modeText
		if ss.in[ss.consumed] == mcproto.BinaryMagic {
			ss.mode = modeBinary
		}
	}
	if ss.mode == modeBinary {
		return ss.binStep()
	}
	for !ss.closed {
		if ss.swallowing() || (len(*ss.out) >= turnOutput && ss.nrun == 0) {
			return true // (the rest waits for the answers to be written)
		}
		f, perr, ok := mcproto.Next(ss.in[ss.consumed+ss.pending:], ss.s.cfg.MaxItemSize, &ss.req)
		if !ok {
			break
		}
		if !ss.authed && ss.s.cfg.Authorize != nil {
			ss.textLogin(f.N, perr)
			continue
		}
		if perr == mcproto.ErrNone && ss.isWrite() {
			if ss.nrun == 0 {
				if _, err := ss.s.conf.get(true); err != nil {
					ss.consumed += f.N
					ss.s.stats.Cmds[ss.req.Cmd][1].Add(1)
					*ss.out = mcproto.AppendError(*ss.out, mcproto.ErrStorage)
					continue
				}
			}
			ss.prepareOp(f.N)
			if ss.nrun == maxRun {
				return false
			}
			continue
		}
		if ss.nrun > 0 {
			return false // the run first
		}
		if perr != mcproto.ErrNone {
			ss.consumed += f.N
			ss.swallow = f.Swallow
			if !ss.req.NoReply || perr == mcproto.ErrUnknown {
				*ss.out = mcproto.AppendError(*ss.out, perr)
			}
			if perr == mcproto.ErrTooLarge {
				ss.s.stats.StoreTooLarge.Add(1)
				// memcached drops the item the value would have replaced
				if ss.prepareUnlink() {
					return false
				}
			}
			continue
		}
		ss.prepare(f.N)
	}
	return ss.nrun == 0
}

// Protocols of a connection (its first byte decides, as memcached's).
const (
	modeUnknown = iota
	modeText
	modeBinary
)

// swallowing discards what the input holds of a data block being read
// past and reports whether more of it is still to come.
func (ss *session) swallowing() bool {
	if ss.swallow == 0 {
		return false
	}
	n := min(ss.swallow, len(ss.in)-ss.consumed)
	ss.consumed += n
	ss.swallow -= n
	return ss.swallow > 0
}

// maxRun bounds the requests of one job.
const maxRun = 256

// isWrite reports whether the parsed request changes rows.
func (ss *session) isWrite() bool {
	switch c := ss.req.Cmd; {
	case c.IsStorage(), c == mcproto.CmdDelete, c == mcproto.CmdIncr, c == mcproto.CmdDecr,
		c == mcproto.CmdTouch, c == mcproto.CmdGat, c == mcproto.CmdGats:
		return true
	case c == mcproto.CmdFlushAll:
		return ss.s.cfg.FlushEnabled
	case c == mcproto.CmdMs, c == mcproto.CmdMd, c == mcproto.CmdMa:
		return true
	case c == mcproto.CmdMg:
		return ss.req.Meta.Flag('T') || ss.req.Meta.Flag('N') // a touch, an item made on a miss
	}
	return false
}

// turnOutput bounds a turn's answers: once they reach it, the requests
// after wait for the next turn (which comes once they are written).
const turnOutput = 256 << 10

// Job is the prepared run's writer job.
func (ss *session) Job() func(*engine.Job) error { return ss.jobFn }

// Stalled is false: memcached's writes do not wait for SQL row locks
// (a row an SQL transaction holds is written by the group that commits
// after it; see docs/MEMCACHED.md).
func (ss *session) Stalled() bool { return false }

// Wait is never called (Stalled is false).
func (ss *session) Wait() bool { return false }

// Resume answers the prepared run.
func (ss *session) Resume(err error) {
	ss.consumed += ss.pending
	ss.pending = 0
	for i := range ss.run[:ss.nrun] {
		o := &ss.run[i]
		if err != nil {
			o.res, o.err = resError, mcproto.ErrStorage
		}
		ss.answerWrite(o)
	}
	ss.nrun = 0
}

// End ends the turn.
func (ss *session) End() (int, bool) {
	rest := ss.in[ss.consumed:]
	ss.partial = mcproto.Partial(rest, ss.s.cfg.MaxItemSize, maxLine)
	if ss.mode == modeBinary {
		ss.partial = mcproto.BinaryHeader + ss.s.cfg.MaxItemSize + 1024
	}
	if ss.swallow > 0 {
		ss.partial = len(rest) + ss.swallow
	}
	n, closed := ss.consumed, ss.closed
	ss.s.stats.BytesWritten.Add(int64(len(*ss.out)))
	ss.in, ss.out = nil, nil
	return n, closed
}

// maxLine bounds a retrieval's line (many keys).
const maxLine = 1 << 20

// Complete reports whether rest holds a whole request (or bytes to
// swallow).
func (ss *session) Complete(rest []byte) bool {
	if len(rest) == 0 {
		return false
	}
	if ss.swallow > 0 {
		return true
	}
	if ss.mode == modeBinary {
		return len(rest) >= mcproto.BinaryHeader && len(rest) >= mcproto.BinaryHeader+mcproto.BinaryBodyLen(rest)
	}
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 {
		return false
	}
	var r mcproto.Request
	_, _, ok := mcproto.Next(rest, ss.s.cfg.MaxItemSize, &r)
	return ok
}

// MaxPartial is the longest incomplete request the connection may hold.
func (ss *session) MaxPartial() int { return ss.partial }

// TooLong answers nothing: memcached closes a connection whose line
// grows past its bound without a word.
func (ss *session) TooLong(out []byte) []byte { return out }

// Close has nothing to release.
func (ss *session) Close() {}

// Results of a request.
type result uint8

const (
	resStored result = iota
	resNotStored
	resExists
	resNotFound
	resDeleted
	resTouched
	resNumber
	resValues // gat/gats: the values in op.vals
	resError  // op.err
	resNone   // nothing to answer
	resFlushed
)

// op is the prepared write and, after the job, its result.
type op struct {
	cmd     mcproto.Cmd
	cont    string // container name ("" default)
	keys    [][]byte
	data    []byte
	flags   uint32
	exp     int64 // absolute expiry: 0 never, 1 already expired
	cas     uint64
	delta   uint64
	noreply bool
	unlink  bool // delete without an answer (a value too large)
	meta    mcproto.MetaFlags

	// the binary protocol's request (bin): its opcode, opaque, whether
	// it is quiet and answers with the key, incr's initial value and
	// expiry (0xffffffff: no create)
	bin            bool
	opcode         byte
	opaque         uint32
	quiet, withKey bool
	initial        uint64
	binExp         uint32
	newCas         uint64 // the CAS of what the op stored

	mcode string           // a meta answer's code
	mitem mcproto.MetaItem // and its item (mcode VA or HD)

	res  result
	err  mcproto.Error
	num  uint64
	vals []item // gat/gats hits, in key order (values in vbuf)
	vbuf []byte
}

// item is a row as memcached sees it.
type item struct {
	key   []byte
	value []byte
	flags uint32
	cas   uint64
	exp   int64
}

// expireAt turns memcached's exptime into an absolute Unix time: 0
// never, relative seconds up to 30 days, else a Unix time; negative (or
// a time before now) is already expired (1).
func expireAt(exptime int64, now int64) int64 {
	switch {
	case exptime == 0:
		return 0
	case exptime < 0:
		return 1
	case exptime <= 30*24*3600:
		return now + exptime
	case exptime <= now:
		return 1
	}
	return exptime
}

// live reports whether an item with expiry exp is visible at now.
func live(exp, now int64) bool { return exp == 0 || exp > now }

// prepare answers a parsed request that needs no writer (n is its
// length).
func (ss *session) prepare(n int) {
	r := &ss.req
	st := &ss.s.stats
	switch r.Cmd {
	case mcproto.CmdQuit:
		ss.consumed += n
		ss.closed = true
		return
	case mcproto.CmdVersion:
		*ss.out = append(*ss.out, "VERSION "+Version+"\r\n"...)
	case mcproto.CmdVerbosity:
		if !r.NoReply {
			*ss.out = append(*ss.out, mcproto.OK...)
		}
	case mcproto.CmdStats:
		*ss.out = ss.stats(*ss.out, r.Args)
	case mcproto.CmdGet, mcproto.CmdGets:
		*ss.out = ss.get(*ss.out, r.Keys, r.Cmd == mcproto.CmdGets)
	case mcproto.CmdFlushAll: // (off: isWrite)
		*ss.out = mcproto.AppendError(*ss.out, mcproto.ErrFlushOff)
	case mcproto.CmdMn:
		*ss.out = append(*ss.out, "MN\r\n"...)
	case mcproto.CmdMg:
		*ss.out = ss.metaGet(*ss.out)
	case mcproto.CmdMe:
		*ss.out = ss.metaDebug(*ss.out)
	}
	st.Cmds[r.Cmd][0].Add(1)
	ss.consumed += n
}

// nextOp is the run's next op, reset.
func (ss *session) nextOp() *op {
	if ss.nrun == len(ss.run) {
		ss.run = append(ss.run, op{})
	}
	o := &ss.run[ss.nrun]
	ss.nrun++
	o.keys, o.vals, o.vbuf = o.keys[:0], o.vals[:0], o.vbuf[:0]
	o.res, o.err, o.num, o.unlink, o.bin, o.newCas = resNone, mcproto.ErrNone, 0, false, false, 0
	return o
}

// prepareOp adds the parsed request, n bytes, to the run.
func (ss *session) prepareOp(n int) {
	r := &ss.req
	o := ss.nextOp()
	o.cmd, o.cont, o.data = r.Cmd, ss.container, r.Data
	o.keys = append(o.keys, r.Keys...)
	if r.Cmd.IsMeta() {
		order := append(o.meta.Order[:0], r.Meta.Order...)
		o.meta = r.Meta
		o.meta.Order = order
		o.mcode, o.mitem = "", mcproto.MetaItem{}
	}
	o.flags, o.cas, o.delta, o.noreply = r.Flags, r.Cas, r.Delta, r.NoReply
	o.exp = expireAt(r.Exptime, time.Now().Unix())
	if r.Cmd == mcproto.CmdFlushAll && (!r.HasDelay || r.Exptime <= 0) {
		o.exp = 0 // now
	}
	ss.pending += n
}

// prepareUnlink makes a run of the deletion, answered by nothing, of the
// key of a request whose value was too large.
func (ss *session) prepareUnlink() bool {
	if len(ss.req.Keys) == 0 {
		return false
	}
	if _, err := ss.s.conf.get(true); err != nil {
		return false
	}
	o := ss.nextOp()
	o.cmd, o.cont, o.data, o.unlink = mcproto.CmdDelete, ss.container, nil, true
	o.keys = append(o.keys, ss.req.Keys[0])
	return true
}

// answerWrite appends the answer of op o of the run that ran.
func (ss *session) answerWrite(o *op) {
	st := &ss.s.stats
	if o.unlink {
		o.keys = o.keys[:0]
		return
	}
	ok := o.res != resError && o.res != resNotFound && o.res != resNotStored && o.res != resExists
	res := 0
	if !ok {
		res = 1
	}
	st.Cmds[o.cmd][res].Add(1)
	out := *ss.out
	if o.bin {
		*ss.out = ss.binAnswer(out, o)
		o.data, o.keys = nil, o.keys[:0]
		return
	}
	if o.cmd.IsMeta() && o.res != resError {
		*ss.out = appendMetaAnswer(out, o.cmd, o.mcode, &o.meta, &o.mitem)
		return
	}
	switch o.res {
	case resValues:
		for i := range o.vals {
			it := &o.vals[i]
			out = mcproto.AppendValue(out, it.key, it.flags, it.value, it.cas, o.cmd == mcproto.CmdGats)
		}
		out = append(out, mcproto.End...)
	case resError:
		if !o.noreply {
			out = mcproto.AppendError(out, o.err)
		}
	case resNone:
	default:
		if !o.noreply {
			switch o.res {
			case resStored:
				out = append(out, mcproto.Stored...)
			case resNotStored:
				out = append(out, mcproto.NotStored...)
			case resExists:
				out = append(out, mcproto.Exists...)
			case resNotFound:
				out = append(out, mcproto.NotFound...)
			case resDeleted:
				out = append(out, mcproto.Deleted...)
			case resTouched:
				out = append(out, mcproto.Touched...)
			case resNumber:
				out = mcproto.AppendNumber(out, o.num)
			case resFlushed:
				out = append(out, mcproto.OK...)
			}
		}
	}
	*ss.out = out
	o.data, o.keys = nil, o.keys[:0]
}

// Version is what version answers.
const Version = "1.6.18-HandlerDB"

// resolve returns the container named name ("" the default) resolved
// against cat, from the session's cache when the catalog is the same.
func (ss *session) resolve(name string, cat *engine.Catalog, onWriter bool) (*container, error) {
	conf, err := ss.s.conf.get(!onWriter)
	if err != nil {
		return nil, err
	}
	if c := ss.cached; c != nil && c.cat == cat && c.conf == conf && (name == c.def.name || name == "" && c.isDefault) {
		return c, nil
	}
	d := conf.def
	if name != "" {
		if d = conf.defs[name]; d == nil {
			return nil, errNoContainer
		}
	}
	c, err := resolve(d, cat, conf.separator)
	if err != nil {
		return nil, err
	}
	c.isDefault, c.conf = d == conf.def, conf
	ss.cached = c
	return c, nil
}

// splitContainer takes "@@name.key" apart; a key without the prefix is
// the session's container's.
func splitContainer(key []byte) (name string, k []byte, switchTo bool) {
	if !bytes.HasPrefix(key, []byte("@@")) {
		return "", key, false
	}
	rest := key[2:]
	if i := bytes.IndexByte(rest, '.'); i >= 0 {
		return string(rest[:i]), rest[i+1:], false
	}
	return string(rest), nil, true
}

// keyValue converts key into the key column's type; ok is false when
// the column cannot hold it exactly (it would name another row).
func (c *container) keyValue(key []byte, buf []byte) (types.Value, bool) {
	t := &c.t.Columns[c.key].Type
	v := types.Convert(t, key, buf)
	if v.Null {
		return v, false
	}
	if t.Class() == types.ClassBytes && bytes.Equal(v.B, key) {
		return v, true
	}
	return v, bytes.Equal(types.AppendFormat(nil, t, v), key)
}

// readItem fills it from row r, the value appended to buf.
func (c *container) readItem(r engine.Row, it *item, buf []byte) []byte {
	start := len(buf)
	for i, col := range c.values {
		if i > 0 {
			buf = append(buf, c.separator...)
		}
		buf = types.AppendFormat(buf, &c.t.Columns[col].Type, r[col])
	}
	it.value = buf[start:]
	it.flags, it.cas, it.exp = 0, 0, 0
	if c.flags >= 0 && !r[c.flags].Null {
		it.flags = uint32(r[c.flags].I)
	}
	if c.cas >= 0 && !r[c.cas].Null {
		it.cas = uint64(r[c.cas].I)
	}
	if c.exp >= 0 && !r[c.exp].Null {
		it.exp = r[c.exp].I
	}
	return buf
}

// get answers get and gets outside the writer, on committed data.
func (ss *session) get(out []byte, keys [][]byte, withCas bool) []byte {
	st := &ss.s.stats
	now := time.Now().Unix()
	cat := ss.s.e.Catalog()
	for _, key := range keys {
		name, k, switchTo := splitContainer(key)
		if switchTo {
			conf, err := ss.s.conf.get(true)
			if err != nil || conf.defs[name] == nil {
				continue
			}
			ss.container = name
			d := conf.defs[name]
			out = mcproto.AppendValue(out, key, 0, []byte(d.db+"/"+d.table), 0, withCas)
			continue
		}
		if name == "" {
			name = ss.container
		}
		c, err := ss.resolve(name, cat, false)
		if err != nil || !ss.allowed(c, false) {
			st.GetMisses.Add(1)
			continue
		}
		it, found := ss.readKey(c, k)
		switch {
		case !found:
			st.GetMisses.Add(1)
		case !live(it.exp, now):
			st.GetMisses.Add(1)
			st.GetExpired.Add(1)
		default:
			st.GetHits.Add(1)
			out = mcproto.AppendValue(out, key, it.flags, it.value, it.cas, withCas)
			if ss.s.tracking.Load() {
				ss.s.tokens.access(tokenKey(c, k), it.cas, now)
			}
		}
	}
	return append(out, mcproto.End...)
}

// stats answers stats and stats settings.
func (ss *session) stats(out []byte, args [][]byte) []byte {
	line := func(name string, v any) {
		out = append(out, "STAT "...)
		out = append(out, name...)
		out = append(out, ' ')
		switch x := v.(type) {
		case int64:
			out = strconv.AppendInt(out, x, 10)
		case int:
			out = strconv.AppendInt(out, int64(x), 10)
		case string:
			out = append(out, x...)
		}
		out = append(out, "\r\n"...)
	}
	s := ss.s
	st := &s.stats
	if len(args) > 0 {
		switch string(args[0]) {
		case "settings":
			line("maxbytes", int64(0))
			line("maxconns", s.cfg.MaxConns)
			if a := s.Addr(); a != nil {
				line("tcpport", int64(portOf(a)))
			}
			line("udpport", 0)
			line("verbosity", 0)
			line("evictions", "off")
			line("cas_enabled", "yes")
			line("item_size_max", s.cfg.MaxItemSize)
			line("flush_enabled", yesNo(s.cfg.FlushEnabled))
			line("idle_timeout", int64(max(s.cfg.Timeout, 0)/time.Second))
			line("binding_protocol", "ascii")
			return append(out, mcproto.End...)
		case "items", "slabs", "sizes", "conns":
			return append(out, mcproto.End...)
		case "reset":
			return append(out, "RESET\r\n"...)
		case "detail":
			return mcproto.AppendError(out, mcproto.ErrStatsDetail)
		default:
			return mcproto.AppendError(out, mcproto.ErrUnknown)
		}
	}
	now := time.Now()
	cmds := func(c mcproto.Cmd) int64 { return st.Cmds[c][0].Load() + st.Cmds[c][1].Load() }
	line("pid", os.Getpid())
	line("uptime", int64(now.Sub(s.started)/time.Second))
	line("time", now.Unix())
	line("version", Version)
	line("pointer_size", 64)
	line("max_connections", s.cfg.MaxConns)
	line("curr_connections", st.Open.Load())
	line("total_connections", st.Accepted.Load())
	line("rejected_connections", st.Refused.Load())
	line("cmd_get", st.GetHits.Load()+st.GetMisses.Load())
	var sets int64
	for c := mcproto.CmdSet; c <= mcproto.CmdCas; c++ {
		sets += cmds(c)
	}
	line("cmd_set", sets)
	line("cmd_flush", cmds(mcproto.CmdFlushAll))
	line("cmd_touch", cmds(mcproto.CmdTouch)+cmds(mcproto.CmdGat)+cmds(mcproto.CmdGats))
	line("get_hits", st.GetHits.Load())
	line("get_misses", st.GetMisses.Load())
	line("get_expired", st.GetExpired.Load())
	line("delete_misses", st.DeleteMisses.Load())
	line("delete_hits", st.DeleteHits.Load())
	line("incr_misses", st.IncrMisses.Load())
	line("incr_hits", st.IncrHits.Load())
	line("decr_misses", st.DecrMiss.Load())
	line("decr_hits", st.DecrHits.Load())
	line("cas_misses", st.CasMisses.Load())
	line("cas_hits", st.CasHits.Load())
	line("cas_badval", st.CasBadval.Load())
	line("touch_hits", st.TouchHits.Load())
	line("touch_misses", st.TouchMisses.Load())
	line("store_too_large", st.StoreTooLarge.Load())
	line("bytes_read", st.BytesRead.Load())
	line("bytes_written", st.BytesWritten.Load())
	line("threads", runtime.GOMAXPROCS(0))
	items, bytes := ss.itemStats()
	line("bytes", bytes)
	line("curr_items", items)
	line("total_items", st.TotalItems.Load())
	line("evictions", 0)
	line("reclaimed", st.Reclaimed.Load())
	return append(out, mcproto.End...)
}

// itemStats counts the default container's rows and their value bytes
// (a scan of the table: stats is not a hot path).
func (ss *session) itemStats() (items, size int64) {
	c, err := ss.resolve("", ss.s.e.Catalog(), false)
	if err != nil {
		return 0, 0
	}
	now := time.Now().Unix()
	var it item
	buf := ss.buf[:0]
	ss.s.e.Find(c.t, &engine.Query{Index: c.idx}, func(r engine.Row) bool {
		buf = c.readItem(r, &it, buf[:0])
		if live(it.exp, now) {
			items++
			size += int64(len(it.value))
		}
		return true
	})
	return items, size
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func portOf(a any) int {
	type porter interface{ String() string }
	if p, ok := a.(porter); ok {
		s := p.String()
		if i := bytes.LastIndexByte([]byte(s), ':'); i >= 0 {
			n, _ := strconv.Atoi(s[i+1:])
			return n
		}
	}
	return 0
}
