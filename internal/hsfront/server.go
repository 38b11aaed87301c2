// Package hsfront serves the HandlerSocket protocol over the engine: the
// read-port and write-port listeners, the connection loop, the
// per-connection open-index table and authentication, and the executor
// that turns each request into engine calls.
//
// Concurrency: a Server is safe for concurrent use. A read-port
// connection is served by one of the read port's event loops, a
// write-port connection by one of the write port's (Linux, without TLS;
// a goroutine of its own elsewhere); a connection's state is touched only
// by what serves it (and, on the write port, by the engine writer while
// what serves it waits for the run's job).
package hsfront

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Config configures the HandlerSocket listeners. The zero value of each
// field means its default; New calls EnsureDefaults and Start Validate.
type Config struct {
	// ReadAddr and WriteAddr are host:port to listen on (port 0 picks a
	// free port); an empty address disables that port.
	ReadAddr, WriteAddr string
	// ReadSecret and WriteSecret, when non-empty, require `A 1 <secret>`
	// on that port before any P or find/modify (the plugin's
	// handlersocket_plain_secret and handlersocket_plain_secret_wr; the
	// write port does not fall back to the read secret).
	ReadSecret, WriteSecret string
	// Timeout closes a connection idle for that long (default 300 s, the
	// plugin's handlersocket_timeout); negative disables it.
	Timeout time.Duration
	// MaxLine is the longest request line accepted (default 16 MiB;
	// negative: invalid). A longer line is answered `2\t1\tlinelen` and
	// the connection closed. Before A succeeds on a port that requires
	// it, the limit is at most preAuthLine (see session.maxLine).
	MaxLine int
	// MaxResponse bounds one find's reply (default 16 MiB; negative: no
	// limit). A find whose rows would exceed it is answered
	// `1\t1\tresultlen` instead, and the connection stays usable.
	MaxResponse int
	// LineTimeout closes a connection that leaves a request line
	// incomplete for that long (default 30 s, like MySQL's
	// net_read_timeout; negative disables it). Bytes that do not complete
	// a line do not make a connection active: only answered requests
	// restart Timeout.
	LineTimeout time.Duration
	// MaxConns bounds the open connections of each port (default 10000;
	// negative: invalid); a connection beyond it is closed at once.
	MaxConns int
	// MaxConnsPerPeer bounds the open connections of one peer address on
	// each port (default MaxConns/2, so that no one host can take a whole
	// port; negative: no limit).
	MaxConnsPerPeer int
	// ReadLoops is the number of event loops serving the read port
	// (Linux; default 4 per GOMAXPROCS; negative: invalid). More loops
	// than processors keep a connection from waiting behind the whole
	// round of a loop that serves many: with one loop per processor, 16
	// connections pipelining 16 finds had a p99 latency 2.8 times that of
	// 4 loops per processor, for 10% more CPU per find.
	ReadLoops int
	// WriteLoops is the number of event loops serving the write port
	// (Linux; default GOMAXPROCS, but none over an engine in
	// DurabilitySync; negative: none, a goroutine per connection). Each
	// loop hands the writer the runs of all its ready connections at once
	// and waits for their commit, so with more than one loop a group is
	// prepared while another commits. When every commit waits for an
	// fsync, goroutines per connection answered 16 connections' inserts
	// sooner (the loop's round waits for the slowest fsync of its runs).
	WriteLoops int
	// Authorize, when set, enables `A 1 <user>:<password>`: it checks the
	// password of the SQL account user@host, host being the peer's IP
	// address, and returns the account's grants (see Grants and
	// TableGrants in session.go for what each request needs); a refused
	// request answers `3\t1\tunauth`. It must be safe for concurrent use.
	Authorize func(host, user, password string) (Grants, error)
	// Backoff, when set, refuses A from a peer address that failed too
	// often (see Backoff); both ports share it.
	Backoff *Backoff
	// TLS, when set, lets clients open TLS connections on both ports: a
	// connection whose first byte starts a TLS handshake is served over
	// TLS, any other as plain text unless TLSRequired.
	TLS *tls.Config
	// TLSRequired closes connections that do not start with a TLS
	// handshake.
	TLSRequired bool
	// NoEventLoop serves both ports with a goroutine per connection (the
	// event loops are used on Linux otherwise).
	NoEventLoop bool
	// RequireAuth makes both ports refuse P and every find or modify
	// until A succeeds, even on a port without a secret (then only a SQL
	// user can authenticate). Without it a port with no secret blocks
	// nothing, as in the plugin.
	RequireAuth bool
	// Logger receives connection-level events (debug) and errors.
	Logger *slog.Logger
	// Observe, when set, is called after each batch of requests (what one
	// read of a connection brought, or one run of writes), once per class
	// and result, with the port, the class, the result, each request's
	// share of the batch's time (a write run's includes its group commit)
	// and how many requests it stands for (for latency histograms). It must
	// be cheap and safe for concurrent use.
	Observe func(write bool, op Op, ok bool, d time.Duration, n int)
	// LockWait bounds how long a write waits for the row lock of an SQL
	// transaction (rowlock.go) before it answers a lock wait timeout, as
	// innodb_lock_wait_timeout bounds the plugin's; default 50s.
	LockWait time.Duration
	// LockWaitNow, when set, is asked at the start of each such wait
	// for the bound instead of LockWait (the server answers the SQL
	// side's @@global.innodb_lock_wait_timeout). It must be safe for
	// concurrent use.
	LockWaitNow func() time.Duration
}

// Grants says which tables an authenticated SQL user may open.
type Grants interface {
	// Allowed reports whether the user may read (write=false) or write the
	// table db.table.
	Allowed(db, table string, write bool) bool
}

// EnsureDefaults fills every zero field with its default (see each
// field: zero means the default; a negative value means none where the
// field says so, and is invalid elsewhere).
func (c *Config) EnsureDefaults() {
	if c.Timeout == 0 {
		c.Timeout = 300 * time.Second
	}
	if c.MaxLine == 0 {
		c.MaxLine = 16 << 20
	}
	if c.MaxResponse == 0 {
		c.MaxResponse = 16 << 20
	}
	if c.LineTimeout == 0 {
		c.LineTimeout = 30 * time.Second
	}
	if c.MaxConns == 0 {
		c.MaxConns = 10000
	}
	if c.MaxConnsPerPeer == 0 {
		c.MaxConnsPerPeer = max(1, c.MaxConns/2)
	}
	if c.ReadLoops == 0 {
		c.ReadLoops = 4 * max(1, runtime.GOMAXPROCS(0))
	}
	if c.WriteLoops == 0 {
		c.WriteLoops = max(1, runtime.GOMAXPROCS(0))
	}
	if c.WriteLoops < 0 {
		c.WriteLoops = -1
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.LockWait == 0 {
		c.LockWait = 50 * time.Second
	}
}

// Validate reports the first invalid setting.
func (c *Config) Validate() error {
	switch {
	case c.MaxLine < 0:
		return errors.New("hsfront: negative MaxLine")
	case c.MaxConns < 0:
		return errors.New("hsfront: negative MaxConns")
	case c.ReadLoops < 0:
		return errors.New("hsfront: negative ReadLoops")
	case c.TLSRequired && c.TLS == nil:
		return errors.New("hsfront: TLSRequired without TLS")
	}
	return nil
}

// Server is the HandlerSocket front.
type Server struct {
	e   *engine.Engine
	cfg Config

	lnRead, lnWrite net.Listener

	mu       sync.Mutex
	conns    map[*conn]struct{}
	peers    [2]map[string]int // open connections per port and peer IP (under mu)
	closing  bool
	wg       sync.WaitGroup
	nconns   [2]atomic.Int64 // open connections per port
	stats    Stats
	acceptWG sync.WaitGroup
	loops    []*evloop // read-port event loops (nil: goroutine per connection)
	nextLoop int
	wloops   []*evloop // write-port event loops (nil: goroutine per connection)
	nextW    int

	// jobCtx is the context of the write port's engine jobs: Shutdown
	// cancels it when its own context ends before the connections are
	// gone, so that jobs still queued for them are skipped.
	jobCtx     context.Context
	cancelJobs context.CancelFunc
	// lockCtx is the context of the writes' row lock waits: Shutdown
	// cancels it first, so that no wait holds up a connection's close.
	lockCtx     context.Context
	cancelLocks context.CancelFunc
}

// Stats are the front's counters, safe to read at any time.
type Stats struct {
	Accepted atomic.Int64 // connections accepted
	Refused  atomic.Int64 // connections closed at once (MaxConns or MaxConnsPerPeer)
	// RefusedPeer counts the refusals for MaxConnsPerPeer (also in Refused).
	RefusedPeer atomic.Int64
	// Expired counts connections closed for Timeout or LineTimeout.
	Expired  atomic.Int64
	Requests atomic.Int64 // request lines answered
	AuthFail atomic.Int64 // failed A requests
	// Ops counts answered requests by port (0 read, 1 write), operation
	// and result (0 ok, 1 error).
	Ops [2][NumOps][2]atomic.Int64
	// Open counts live connections by port (0 read, 1 write).
	Open [2]atomic.Int64
	// WriteRounds counts the UpdateAll calls of the write port's event
	// loops (each commits the runs of one round of a loop).
	WriteRounds atomic.Int64
}

// Op classifies a request for metrics.
type Op uint8

// Request classes.
const (
	OpOpen Op = iota
	OpAuth
	OpFind
	OpInsert
	OpUpdate
	OpDelete
	OpIncrement
	OpDecrement
	OpInvalid
	NumOps
)

var opNames = [NumOps]string{"open_index", "auth", "find", "insert", "update", "delete", "increment", "decrement", "invalid"}

func (o Op) String() string { return opNames[o] }

// New returns a server; Start opens its listeners.
// The configuration is checked by Start.
func New(e *engine.Engine, cfg Config) *Server {
	if cfg.WriteLoops == 0 && e.Options().Durability == engine.DurabilitySync {
		cfg.WriteLoops = -1 // see Config.WriteLoops
	}
	cfg.EnsureDefaults()
	s := &Server{e: e, cfg: cfg, conns: map[*conn]struct{}{}, peers: [2]map[string]int{{}, {}}}
	s.jobCtx, s.cancelJobs = context.WithCancel(context.Background())
	s.lockCtx, s.cancelLocks = context.WithCancel(context.Background())
	return s
}

// Stats returns the server's counters.
func (s *Server) Stats() *Stats { return &s.stats }

// Start opens the listeners and starts accepting.
func (s *Server) Start() error {
	if err := s.cfg.Validate(); err != nil {
		return err
	}
	var err error
	if s.cfg.ReadAddr != "" {
		if s.lnRead, err = net.Listen("tcp", s.cfg.ReadAddr); err != nil {
			return fmt.Errorf("hsfront: read port: %w", err)
		}
	}
	if s.cfg.WriteAddr != "" {
		if s.lnWrite, err = net.Listen("tcp", s.cfg.WriteAddr); err != nil {
			if s.lnRead != nil {
				s.lnRead.Close()
			}
			return fmt.Errorf("hsfront: write port: %w", err)
		}
	}
	if s.lnRead != nil && s.cfg.TLS == nil && !s.cfg.NoEventLoop {
		for i := 0; i < max(1, s.cfg.ReadLoops); i++ {
			l, err := newEvloop(s, false)
			if err != nil {
				break // not on this OS: goroutines serve the read port too
			}
			s.loops = append(s.loops, l)
		}
	}
	if s.lnWrite != nil && s.cfg.TLS == nil && !s.cfg.NoEventLoop && s.cfg.WriteLoops > 0 {
		for i := 0; i < s.cfg.WriteLoops; i++ {
			l, err := newEvloop(s, true)
			if err != nil {
				break
			}
			s.wloops = append(s.wloops, l)
		}
	}
	for _, l := range []struct {
		ln    net.Listener
		write bool
	}{{s.lnRead, false}, {s.lnWrite, true}} {
		if l.ln != nil {
			s.acceptWG.Add(1)
			go s.accept(l.ln, l.write)
		}
	}
	return nil
}

// ReadAddr is the read port's address (nil when disabled).
func (s *Server) ReadAddr() net.Addr {
	if s.lnRead == nil {
		return nil
	}
	return s.lnRead.Addr()
}

// WriteAddr is the write port's address (nil when disabled).
func (s *Server) WriteAddr() net.Addr {
	if s.lnWrite == nil {
		return nil
	}
	return s.lnWrite.Addr()
}

func (s *Server) accept(ln net.Listener, write bool) {
	defer s.acceptWG.Done()
	var delay time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of file descriptors and the like: back off, go on.
			if delay == 0 {
				delay = 5 * time.Millisecond
			} else if delay < time.Second {
				delay *= 2
			}
			s.cfg.Logger.Error("hs accept", "err", err)
			time.Sleep(delay)
			continue
		}
		delay = 0
		s.stats.Accepted.Add(1)
		tc, ok := nc.(*net.TCPConn)
		port := portIndex(write)
		if !ok || s.nconns[port].Load() >= int64(s.cfg.MaxConns) {
			s.stats.Refused.Add(1)
			nc.Close()
			continue
		}
		c := newConn(s, tc, write)
		s.mu.Lock()
		if s.closing {
			s.mu.Unlock()
			nc.Close()
			return
		}
		if lim := s.cfg.MaxConnsPerPeer; lim > 0 && s.peers[port][c.peerIP] >= lim {
			s.mu.Unlock()
			s.stats.Refused.Add(1)
			s.stats.RefusedPeer.Add(1)
			nc.Close()
			continue
		}
		s.peers[port][c.peerIP]++
		s.nconns[port].Add(1)
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		s.stats.Open[portIndex(write)].Add(1)
		if !write && len(s.loops) > 0 {
			l := s.loops[s.nextLoop%len(s.loops)]
			s.nextLoop++
			if err := l.add(c, tc); err != nil {
				s.forget(c)
			}
			continue
		}
		if write && len(s.wloops) > 0 {
			l := s.wloops[s.nextW%len(s.wloops)]
			s.nextW++
			if err := l.add(c, tc); err != nil {
				s.forget(c)
			}
			continue
		}
		go c.start(tc)
	}
}

// forget removes a finished connection.
func (s *Server) forget(c *conn) {
	port := portIndex(c.write)
	s.mu.Lock()
	s.nconns[port].Add(-1) // before the connection leaves Conns, which callers watch
	if n := s.peers[port][c.peerIP] - 1; n > 0 {
		s.peers[port][c.peerIP] = n
	} else {
		delete(s.peers[port], c.peerIP)
	}
	delete(s.conns, c)
	s.mu.Unlock()
	s.stats.Open[portIndex(c.write)].Add(-1)
	s.wg.Done()
}

// Shutdown stops accepting, lets every connection finish the batch it is
// running (its writes committed and answered), closes the connections and
// returns when they are gone or ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	s.cancelLocks()
	s.mu.Lock()
	s.closing = true
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, ln := range []net.Listener{s.lnRead, s.lnWrite} {
		if ln != nil {
			ln.Close()
		}
	}
	s.acceptWG.Wait()
	for _, l := range s.loops {
		l.shutdown()
	}
	for _, l := range s.wloops {
		l.shutdown()
	}
	for _, c := range conns {
		c.shutdown()
	}
	done := make(chan struct{})
	go func() { s.wg.Wait(); close(done) }()
	select {
	case <-done:
		s.cancelJobs()
		return nil
	case <-ctx.Done():
		s.cancelJobs() // jobs still queued for these connections are skipped
		for _, c := range conns {
			c.nc.Close()
		}
		return ctx.Err()
	}
}

// ConnInfo describes one live connection (for SHOW PROCESSLIST).
type ConnInfo struct {
	ID        uint64
	Write     bool
	Peer      string
	OpenIndex int
	Requests  int64
	State     string
	Since     time.Time
}

// Conns lists the live connections, by id.
func (s *Server) Conns() []ConnInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ConnInfo, 0, len(s.conns))
	for c := range s.conns {
		out = append(out, c.info())
	}
	slices.SortFunc(out, func(a, b ConnInfo) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

func portIndex(write bool) int {
	if write {
		return 1
	}
	return 0
}
