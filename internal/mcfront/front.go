// Package mcfront serves the memcached protocol over the engine's
// tables (what MySQL's InnoDB memcached plugin did, removed in 8.3): one
// netloop listener, a session per connection that answers memcached's
// text protocol (mcproto), and the containers that map keys to rows.
// Reads run on committed data outside the writer; every change is a
// writer job (group commit with HandlerSocket's and SQL's), seen at once
// by the other fronts.
//
// Concurrency: a Server is safe for concurrent use; a connection's
// session is touched only by what serves it (its event loop or
// goroutine) and by the writer while that waits for the session's job.
package mcfront

import (
	"context"
	"crypto/tls"
	"errors"
	"hash/maphash"
	"log/slog"
	"net"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/mcproto"
	"github.com/handlerdb/handlerdb/internal/netloop"
)

// Config configures the memcached front. Zero values mean the defaults.
type Config struct {
	// Addr is host:port to listen on (port 0: any free port).
	Addr string
	// MaxItemSize bounds a value (default 1 MiB, memcached's -I).
	MaxItemSize int
	// FlushEnabled allows flush_all (memcached's -F turns it off; here it
	// is off unless enabled: it deletes every row of every container's
	// table).
	FlushEnabled bool
	// Timeout closes a connection idle for that long (default: never,
	// as memcached's idle_timeout 0; negative: never).
	Timeout time.Duration
	// MaxConns bounds the open connections (default 1024, memcached's
	// -c); MaxConnsPerPeer those of one peer (default MaxConns/2).
	MaxConns, MaxConnsPerPeer int
	// Loops is the number of event loops (Linux, no TLS; default
	// GOMAXPROCS, but none over an engine in DurabilitySync; negative: a
	// goroutine per connection). A loop waits for the commit of its
	// round's writes, and one port serves reads and writes here: where a
	// commit waits for an fsync, a goroutine per connection keeps a get
	// from waiting behind another connection's fsync (HandlerSocket's
	// write port makes the same choice).
	Loops int
	TLS   *tls.Config
	// Logger receives errors.
	Logger *slog.Logger
	// Authorize, when set, makes every connection authenticate first:
	// the text protocol with memcached's ASCII authentication (`set` of a
	// value "user password", as memcached -Y), the binary protocol with
	// SASL PLAIN. It checks the password of the SQL account user@host,
	// host being the peer's IP address, and returns its grants, which
	// decide each container's reads and writes. Safe for concurrent use.
	Authorize func(host, user, password string) (Grants, error)
	// Backoff, when set, refuses the logins of a peer that failed too
	// often (netloop.Backoff).
	Backoff *netloop.Backoff
	// SweepEvery is how often expired items are removed (sweep.go;
	// default a minute; negative: never).
	SweepEvery time.Duration
}

// Grants says which tables an authenticated account may use.
type Grants interface {
	// Allowed reports whether the account may read (write=false) or
	// write db.table.
	Allowed(db, table string, write bool) bool
}

func (c *Config) ensureDefaults() {
	if c.MaxItemSize == 0 {
		c.MaxItemSize = 1 << 20
	}
	if c.MaxConns == 0 {
		c.MaxConns = 1024
	}
	if c.MaxConnsPerPeer == 0 {
		c.MaxConnsPerPeer = max(1, c.MaxConns/2)
	}
	if c.Loops == 0 {
		c.Loops = runtime.GOMAXPROCS(0)
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.SweepEvery == 0 {
		c.SweepEvery = time.Minute
	}
}

// Stats are the front's counters, safe to read at any time (memcached's
// stats names).
type Stats struct {
	netloop.Counters
	Open atomic.Int64 // curr_connections
	// Cmds counts requests by command and result (0 ok or hit, 1 miss
	// or error).
	Cmds                                     [mcproto.NumAllCmds][2]atomic.Int64
	GetHits, GetMisses, GetExpired           atomic.Int64
	DeleteHits, DeleteMisses                 atomic.Int64
	IncrHits, IncrMisses, DecrHits, DecrMiss atomic.Int64
	CasHits, CasMisses, CasBadval            atomic.Int64
	TouchHits, TouchMisses                   atomic.Int64
	TotalItems                               atomic.Int64 // items stored
	AuthCmds, AuthErrors                     atomic.Int64
	Reclaimed                                atomic.Int64 // expired items the sweep removed
	BytesRead, BytesWritten                  atomic.Int64
	StoreTooLarge                            atomic.Int64
}

// Server is the memcached front.
type Server struct {
	e       *engine.Engine
	cfg     Config
	ln      *netloop.Listener
	conf    configCache
	stats   Stats
	started time.Time
	// casNext makes CAS values: each change takes the next. Seeded with
	// the start time in microseconds, so that values after a restart
	// follow those stored before (at under a million changes a second).
	casNext atomic.Uint64
	// tokens are the meta protocol's recache tokens and stale marks,
	// and, once a client asked for them (mg h or l), items' accesses.
	tokens   tokens
	tracking atomic.Bool

	jobCtx     context.Context
	cancelJobs context.CancelFunc
	sweepDone  chan struct{} // closed when the sweep has stopped (nil: none)
}

// New returns the front; Start opens the port. The configuration
// tables are made when the first request needs them (configCache.get).
func New(e *engine.Engine, cfg Config) *Server {
	if cfg.Loops == 0 && e.Options().Durability == engine.DurabilitySync {
		cfg.Loops = -1 // see Config.Loops
	}
	cfg.ensureDefaults()
	s := &Server{e: e, cfg: cfg, started: time.Now()}
	s.conf.e = e
	s.tokens.seed = maphash.MakeSeed()
	s.casNext.Store(uint64(time.Now().UnixMicro()))
	s.jobCtx, s.cancelJobs = context.WithCancel(context.Background())
	return s
}

// Stats returns the front's counters.
func (s *Server) Stats() *Stats { return &s.stats }

// Start opens the listener.
func (s *Server) Start() error {
	loops := max(s.cfg.Loops, 0)
	l, err := netloop.Listen(s.cfg.Addr, netloop.Config{
		Name: "memcached", Engine: s.e, JobCtx: s.jobCtx,
		NewSession: func(c *netloop.Conn) netloop.Session { return newSession(s, c) },
		Timeout:    s.cfg.Timeout, MaxConns: s.cfg.MaxConns, MaxConnsPerPeer: max(s.cfg.MaxConnsPerPeer, 0),
		Loops: loops, Write: true, TLS: s.cfg.TLS, Logger: s.cfg.Logger,
		Counters: &s.stats.Counters, Open: &s.stats.Open,
	})
	if err != nil {
		return err
	}
	s.ln = l
	if s.cfg.SweepEvery > 0 {
		s.sweepDone = make(chan struct{})
		go s.sweepLoop(s.cfg.SweepEvery)
	}
	return nil
}

// Addr is the listener's address (nil before Start).
func (s *Server) Addr() net.Addr {
	if s.ln == nil {
		return nil
	}
	return s.ln.Addr()
}

// Shutdown stops accepting, lets every connection finish its turn and
// returns when they are gone or ctx ends.
func (s *Server) Shutdown(ctx context.Context) error {
	if s.ln == nil {
		return nil
	}
	s.ln.Stop()
	err := s.ln.Wait(ctx)
	s.cancelJobs()
	if s.sweepDone != nil {
		<-s.sweepDone
	}
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// nextCas is a new CAS value.
func (s *Server) nextCas() uint64 { return s.casNext.Add(1) }
