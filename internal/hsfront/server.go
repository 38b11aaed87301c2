// Package hsfront serves the HandlerSocket protocol over the engine: the
// read port and the write port (two netloop listeners), the
// per-connection open-index table and authentication (session), and the
// executor that turns each request into engine calls.
//
// Concurrency: a Server is safe for concurrent use. A read-port
// connection is served by one of the read port's event loops, a
// write-port connection by one of the write port's (Linux, without TLS;
// a goroutine of its own elsewhere: see netloop); a connection's session
// is touched only by what serves it (and, on the write port, by the
// engine writer while what serves it waits for the run's job).
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
	"sync/atomic"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/netloop"
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
	Backoff *netloop.Backoff
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

	read, write *netloop.Listener // nil: the port is off
	stats       Stats

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
	// Accepted, Refused, RefusedPeer, Expired and WriteRounds count both
	// ports' connections (see netloop.Counters).
	netloop.Counters
	Requests atomic.Int64 // request lines answered
	AuthFail atomic.Int64 // failed A requests
	// Ops counts answered requests by port (0 read, 1 write), operation
	// and result (0 ok, 1 error).
	Ops [2][NumOps][2]atomic.Int64
	// Open counts live connections by port (0 read, 1 write).
	Open [2]atomic.Int64
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
	s := &Server{e: e, cfg: cfg}
	s.jobCtx, s.cancelJobs = context.WithCancel(context.Background())
	s.lockCtx, s.cancelLocks = context.WithCancel(context.Background())
	return s
}

// Stats returns the server's counters.
func (s *Server) Stats() *Stats { return &s.stats }

// AuthBackoffs counts the A requests refused unchecked by Config.Backoff
// (for the handlerdb_auth_backoff_total metric).
func (s *Server) AuthBackoffs() int64 { return s.cfg.Backoff.Refused() }

// listenConfig is the netloop configuration of the read or the write
// port.
func (s *Server) listenConfig(write bool) netloop.Config {
	port := portIndex(write)
	name, loops := "hs-read", s.cfg.ReadLoops
	if write {
		name, loops = "hs-write", max(s.cfg.WriteLoops, 0)
	}
	if s.cfg.NoEventLoop {
		loops = 0
	}
	return netloop.Config{
		Name: name, Engine: s.e, JobCtx: s.jobCtx,
		NewSession: func(c *netloop.Conn) netloop.Session {
			return newSession(s, write, c)
		},
		Timeout: s.cfg.Timeout, LineTimeout: s.cfg.LineTimeout,
		MaxConns: s.cfg.MaxConns, MaxConnsPerPeer: max(s.cfg.MaxConnsPerPeer, 0),
		Loops: loops, Write: write,
		TLS: s.cfg.TLS, TLSRequired: s.cfg.TLSRequired,
		Logger:   s.cfg.Logger,
		Counters: &s.stats.Counters, Open: &s.stats.Open[port],
	}
}

// Start opens the listeners and starts accepting.
func (s *Server) Start() error {
	if err := s.cfg.Validate(); err != nil {
		return err
	}
	var err error
	if s.cfg.ReadAddr != "" {
		if s.read, err = netloop.Listen(s.cfg.ReadAddr, s.listenConfig(false)); err != nil {
			return fmt.Errorf("hsfront: read port: %w", err)
		}
	}
	if s.cfg.WriteAddr != "" {
		if s.write, err = netloop.Listen(s.cfg.WriteAddr, s.listenConfig(true)); err != nil {
			if s.read != nil {
				s.read.Stop()
			}
			return fmt.Errorf("hsfront: write port: %w", err)
		}
	}
	return nil
}

// ReadAddr is the read port's address (nil when disabled).
func (s *Server) ReadAddr() net.Addr {
	if s.read == nil {
		return nil
	}
	return s.read.Addr()
}

// WriteAddr is the write port's address (nil when disabled).
func (s *Server) WriteAddr() net.Addr {
	if s.write == nil {
		return nil
	}
	return s.write.Addr()
}

// Shutdown stops accepting, lets every connection finish the batch it is
// running (its writes committed and answered), closes the connections and
// returns when they are gone or ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	s.cancelLocks()
	ports := slices.DeleteFunc([]*netloop.Listener{s.read, s.write}, func(l *netloop.Listener) bool { return l == nil })
	for _, l := range ports {
		l.Stop()
	}
	var err error
	for _, l := range ports {
		if werr := l.Wait(ctx); werr != nil {
			err = werr
		}
	}
	s.cancelJobs() // jobs still queued for connections cut by ctx are skipped
	return err
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

// Conns lists the live connections of both ports, by id.
func (s *Server) Conns() []ConnInfo {
	var out []ConnInfo
	for _, l := range []*netloop.Listener{s.read, s.write} {
		if l == nil {
			continue
		}
		for _, ci := range l.Conns() {
			ss := ci.Session.(*session)
			ss.mu.Lock()
			open := ss.nopen
			ss.mu.Unlock()
			out = append(out, ConnInfo{ID: ci.ID, Write: ss.write, Peer: ci.Peer, OpenIndex: open,
				Requests: ss.requests.Load(), State: ci.State, Since: ci.Since})
		}
	}
	slices.SortFunc(out, func(a, b ConnInfo) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// loops reports how many event loops serve each port (for tests).
func (s *Server) loops() (read, write int) {
	if s.read != nil {
		read = s.read.Loops()
	}
	if s.write != nil {
		write = s.write.Loops()
	}
	return read, write
}

func portIndex(write bool) int {
	if write {
		return 1
	}
	return 0
}
