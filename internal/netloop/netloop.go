// Package netloop serves the connections of a request/response protocol
// whose requests may change rows through the engine's writer: the
// listener and its connection limits, the transports (raw system calls
// on Go's netpoller, TLS, descriptors owned by an event loop), the event
// loops, idle and partial-request timeouts, the turns that keep one
// connection from holding the others up, and the hand-off of writes to
// the writer (one UpdateAll per round of a write loop). A protocol plugs
// in as a Session per connection; HandlerSocket's read and write ports
// (hsfront) and memcached are served by it.
//
// Concurrency: a Listener is safe for concurrent use. A connection is
// served by one event loop (Linux, without TLS, when the listener has
// loops) or by a goroutine of its own; its Session is touched only by
// what serves it, and by the engine writer while that waits for the job
// the session prepared.
package netloop

import (
	"cmp"
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Session is one connection's protocol state. A turn answers what the
// connection has read: Begin, then Step until it reports the turn done
// (each false is a job for the writer: Job returns it, and Resume takes
// its result once it ran), then End. The Session is used only by what
// serves the connection, except Close.
type Session interface {
	// Quit reports whether in, the input at the start of a turn, asks
	// for the connection to close with nothing answered.
	Quit(in []byte) bool
	// Begin starts a turn over in, the connection's input not yet
	// consumed, appending the answers to *out.
	Begin(in []byte, out *[]byte)
	// Step answers requests until the turn is done (true) or until it
	// has prepared a job that must run on the engine writer (false).
	Step() bool
	// Job is the job the last Step prepared.
	Job() func(*engine.Job) error
	// Stalled reports, after the job ran without error, that it stopped
	// at a row lock before the end of its work; Wait then waits for the
	// lock (it may run on another goroutine) and reports whether work is
	// left for Job to run again. Resume follows the last run.
	Stalled() bool
	Wait() bool
	// Resume answers the prepared job, err being its result.
	Resume(err error)
	// End ends the turn: how many bytes of in it answered, and whether
	// the connection closes once the answers are written.
	End() (consumed int, close bool)
	// Complete reports whether rest, input left after a turn, holds a
	// whole request: the connection then gets another turn before it
	// reads more.
	Complete(rest []byte) bool
	// MaxPartial is the longest incomplete request the connection may
	// hold now; TooLong appends the answer to one longer than that,
	// after which the connection closes.
	MaxPartial() int
	TooLong(out []byte) []byte
	// Close releases what the session holds once the connection is gone
	// (row locks); it may run while a Wait is in progress.
	Close()
}

// Counters are a listener's connection counters, safe to read at any
// time. Several listeners may share one.
type Counters struct {
	Accepted atomic.Int64 // connections accepted
	Refused  atomic.Int64 // connections closed at once (MaxConns or MaxConnsPerPeer)
	// RefusedPeer counts the refusals for MaxConnsPerPeer (also in Refused).
	RefusedPeer atomic.Int64
	// Expired counts connections closed for Timeout or LineTimeout.
	Expired atomic.Int64
	// WriteRounds counts the UpdateAll calls of write loops (each commits
	// the jobs of one round of a loop).
	WriteRounds atomic.Int64
}

// Config configures a Listener. Every field but the engine, NewSession
// and the counters has a usable zero value.
type Config struct {
	// Name names the port in logs ("hs-read").
	Name string
	// Engine runs the sessions' jobs; JobCtx is their context (nil:
	// context.Background()): cancelling it skips jobs still queued.
	Engine *engine.Engine
	JobCtx context.Context
	// NewSession returns the session of a new connection.
	NewSession func(c *Conn) Session
	// Timeout closes a connection idle for that long (0 or negative:
	// never). Bytes that do not complete a request do not make it
	// active: only answered requests restart Timeout.
	Timeout time.Duration
	// LineTimeout closes a connection that leaves a request incomplete
	// for that long (0 or negative: never).
	LineTimeout time.Duration
	// MaxConns bounds the open connections (0: no bound); a connection
	// beyond it is closed at once. MaxConnsPerPeer bounds those of one
	// peer address (0: no bound).
	MaxConns, MaxConnsPerPeer int
	// Loops is the number of event loops (Linux, without TLS); 0 serves
	// each connection on a goroutine of its own.
	Loops int
	// Write says the sessions' turns prepare writer jobs: an event loop
	// then hands the jobs of all its ready connections to the writer at
	// once, after the round (see evloop_linux.go).
	Write bool
	// TLS, when set, serves a connection whose first byte starts a TLS
	// handshake over TLS (on a goroutine); TLSRequired closes the
	// others.
	TLS         *tls.Config
	TLSRequired bool
	// Logger receives errors (nil: none).
	Logger *slog.Logger
	// Counters and Open (the live connections) are counted into when
	// set.
	Counters *Counters
	Open     *atomic.Int64
}

// Listener serves one port.
type Listener struct {
	cfg Config
	ln  net.Listener

	mu       sync.Mutex
	conns    map[*Conn]struct{}
	peers    map[string]int // open connections per peer IP (under mu)
	closing  bool
	wg       sync.WaitGroup
	nconns   atomic.Int64
	acceptWG sync.WaitGroup
	loops    []*evloop // nil: a goroutine per connection
	nextLoop int
}

// Listen opens addr (host:port; port 0 picks a free one) and starts
// serving it.
func Listen(addr string, cfg Config) (*Listener, error) {
	if cfg.NewSession == nil || cfg.Engine == nil {
		return nil, errors.New("netloop: Engine and NewSession are required")
	}
	if cfg.TLSRequired && cfg.TLS == nil {
		return nil, errors.New("netloop: TLSRequired without TLS")
	}
	if cfg.JobCtx == nil {
		cfg.JobCtx = context.Background()
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Counters == nil {
		cfg.Counters = new(Counters)
	}
	if cfg.Open == nil {
		cfg.Open = new(atomic.Int64)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	l := &Listener{cfg: cfg, ln: ln, conns: map[*Conn]struct{}{}, peers: map[string]int{}}
	if cfg.TLS == nil {
		for i := 0; i < cfg.Loops; i++ {
			lp, err := newEvloop(l)
			if err != nil {
				break // not on this OS: goroutines serve the port
			}
			l.loops = append(l.loops, lp)
		}
	}
	l.acceptWG.Add(1)
	go l.accept()
	return l, nil
}

// Addr is the address the listener listens on.
func (l *Listener) Addr() net.Addr { return l.ln.Addr() }

// Loops is the number of event loops serving the port (0: a goroutine
// per connection).
func (l *Listener) Loops() int { return len(l.loops) }

// LoopConns is the number of connections each event loop serves.
func (l *Listener) LoopConns() []int {
	n := make([]int, len(l.loops))
	for i, lp := range l.loops {
		n[i] = lp.count()
	}
	return n
}

func (l *Listener) accept() {
	defer l.acceptWG.Done()
	var delay time.Duration
	st := l.cfg.Counters
	for {
		nc, err := l.ln.Accept()
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
			l.cfg.Logger.Error("accept", "port", l.cfg.Name, "err", err)
			time.Sleep(delay)
			continue
		}
		delay = 0
		st.Accepted.Add(1)
		tc, ok := nc.(*net.TCPConn)
		if !ok || (l.cfg.MaxConns > 0 && l.nconns.Load() >= int64(l.cfg.MaxConns)) {
			st.Refused.Add(1)
			nc.Close()
			continue
		}
		c := newConn(l, tc)
		l.mu.Lock()
		if l.closing {
			l.mu.Unlock()
			nc.Close()
			return
		}
		if lim := l.cfg.MaxConnsPerPeer; lim > 0 && l.peers[c.peerIP] >= lim {
			l.mu.Unlock()
			st.Refused.Add(1)
			st.RefusedPeer.Add(1)
			nc.Close()
			continue
		}
		l.peers[c.peerIP]++
		l.nconns.Add(1)
		l.conns[c] = struct{}{}
		l.wg.Add(1)
		l.mu.Unlock()
		l.cfg.Open.Add(1)
		c.sess = l.cfg.NewSession(c)
		if len(l.loops) > 0 {
			lp := l.loops[l.nextLoop%len(l.loops)]
			l.nextLoop++
			if err := lp.add(c, tc); err != nil {
				l.forget(c)
			}
			continue
		}
		go c.start(tc)
	}
}

// forget removes a finished connection.
func (l *Listener) forget(c *Conn) {
	l.mu.Lock()
	l.nconns.Add(-1) // before the connection leaves Conns, which callers watch
	if n := l.peers[c.peerIP] - 1; n > 0 {
		l.peers[c.peerIP] = n
	} else {
		delete(l.peers, c.peerIP)
	}
	delete(l.conns, c)
	l.mu.Unlock()
	l.cfg.Open.Add(-1)
	l.wg.Done()
}

// Stop stops accepting and asks every connection to finish the turn it
// is running (its writes committed and answered) and close; Wait waits
// for them.
func (l *Listener) Stop() {
	l.mu.Lock()
	l.closing = true
	conns := make([]*Conn, 0, len(l.conns))
	for c := range l.conns {
		conns = append(conns, c)
	}
	l.mu.Unlock()
	l.ln.Close()
	l.acceptWG.Wait()
	for _, lp := range l.loops {
		lp.shutdown()
	}
	for _, c := range conns {
		c.shutdown()
	}
}

// Wait returns when every connection is gone, or when ctx ends: then it
// closes the sockets of those left and returns ctx's error.
func (l *Listener) Wait(ctx context.Context) error {
	done := make(chan struct{})
	go func() { l.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		l.mu.Lock()
		for c := range l.conns {
			if c.nc != nil {
				c.nc.Close()
			}
		}
		l.mu.Unlock()
		return ctx.Err()
	}
}

// ConnInfo describes one live connection.
type ConnInfo struct {
	ID      uint64
	Peer    string
	State   string // idle, executing or writing
	Since   time.Time
	Session Session
}

// Conns lists the live connections, by id.
func (l *Listener) Conns() []ConnInfo {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]ConnInfo, 0, len(l.conns))
	for c := range l.conns {
		out = append(out, c.info())
	}
	slices.SortFunc(out, func(a, b ConnInfo) int { return cmp.Compare(a.ID, b.ID) })
	return out
}
