package hs

import (
	"context"
	"errors"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Client is a HandlerSocket client: a pool of connections to the read port
// and one to the write port, and the indexes opened through it.
//
// A Client is safe for concurrent use by many goroutines; create one per
// server and share it. Close it when done.
type Client struct {
	opts    Options
	rd, wr  *pool
	closed  atomic.Bool
	pipes   sync.Pool
	debug   *debugRing
	hooks   []Hook
	mu      sync.Mutex
	indexes map[string]*Index
	nextID  int
}

// Open returns a Client for a DSN (see ParseDSN), for example
//
//	hs://secret@127.0.0.1:9998?wr_port=9999&wr_secret=other
func Open(dsn string) (*Client, error) {
	o, err := ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	return New(o)
}

// New returns a Client for opts, after filling its zero fields with their
// defaults (Options.EnsureDefaults) and checking it (Options.Validate). It
// does not connect: connections are opened when requests need them (use
// Ping to check the server now).
func New(opts Options) (*Client, error) {
	if err := opts.EnsureDefaults().Validate(); err != nil {
		return nil, err
	}
	c := &Client{opts: opts, hooks: append([]Hook(nil), opts.Hooks...)}
	if opts.ReadAddr != "" {
		c.rd = newPool(opts.ReadAddr, opts.ReadSecret, false, opts.ReadPoolSize, &c.opts)
	}
	if opts.WriteAddr != "" {
		c.wr = newPool(opts.WriteAddr, opts.WriteSecret, true, opts.WritePoolSize, &c.opts)
	}
	if opts.Debug {
		c.debug = &debugRing{recs: make([]DebugRecord, opts.DebugKeep), log: opts.DebugLog}
	}
	return c, nil
}

// Options returns the client's options, with the defaults EnsureDefaults
// filled in.
func (c *Client) Options() Options { return c.opts }

// Close closes the idle connections and makes every later call fail with
// ErrClosed; connections in use are closed when their requests end.
func (c *Client) Close() error {
	if c.closed.Swap(true) {
		return nil
	}
	if c.rd != nil {
		c.rd.close()
	}
	if c.wr != nil {
		c.wr.close()
	}
	return nil
}

// Stats are the counters of a client's two connection pools.
type Stats struct {
	Read, Write PoolStats
}

// Stats returns the pools' counters.
func (c *Client) Stats() Stats {
	return Stats{Read: c.rd.statsSnapshot(), Write: c.wr.statsSnapshot()}
}

// Ping checks that each configured port answers (and accepts the secret)
// by authenticating a pooled connection again.
func (c *Client) Ping(ctx context.Context) error {
	if c.closed.Load() {
		return ErrClosed
	}
	for _, p := range []*pool{c.rd, c.wr} {
		if p == nil {
			continue
		}
		cn, err := p.get(ctx)
		if err != nil {
			return err
		}
		cn.setDeadlines(ctx, &c.opts)
		err = cn.auth(p.secret)
		if err != nil && !errors.As(err, new(*ServerError)) {
			cn.broken = true
		}
		p.put(cn)
		if err != nil {
			return err
		}
	}
	return nil
}

func (c *Client) getPipeline() *Pipeline {
	if p, ok := c.pipes.Get().(*Pipeline); ok {
		return p
	}
	return &Pipeline{c: c}
}

// execOne runs a pipeline holding one request made by an Index method and
// recycles the pipeline; the request's command carries the outcome.
func (c *Client) execOne(ctx context.Context, p *Pipeline) {
	c.exec(ctx, p)
	p.reset()
	c.pipes.Put(p)
}

// exec sends p and reads its replies, with hooks, retry and debug records.
func (c *Client) exec(ctx context.Context, p *Pipeline) error {
	if len(p.cmds) == 0 {
		return nil
	}
	op := &p.op
	*op = Operation{Requests: p.lines, Payload: p.buf, Write: p.write}
	if len(p.cmds) == 1 {
		op.Name, op.Index = p.cmds[0].name, p.cmds[0].ix
	} else {
		op.Name = "pipeline"
	}
	hooks := c.hooks
	if len(hooks) > 0 {
		op.Start = time.Now()
		for _, h := range hooks {
			ctx = h.Before(ctx, op)
		}
	}
	err := c.run(ctx, p, op)
	if err == nil {
		for _, cm := range p.cmds {
			if cm.err != nil {
				err = cm.err
				break
			}
		}
	}
	if len(hooks) > 0 {
		op.Duration = time.Since(op.Start)
		op.Err = err
		for i := len(hooks) - 1; i >= 0; i-- {
			hooks[i].After(ctx, op)
		}
	}
	*op = Operation{}
	if c.debug != nil && len(p.records) > 0 {
		c.debug.add(p.records)
		clear(p.records)
		p.records = p.records[:0]
	}
	return err
}

// run picks the port, gets a connection and does the round trip, retrying
// an idempotent pipeline once when a reused connection turns out dead. On
// a connection error every command still waiting gets that error.
func (c *Client) run(ctx context.Context, p *Pipeline, op *Operation) (err error) {
	defer func() {
		if err != nil {
			for _, cm := range p.cmds {
				if !cm.done {
					cm.done, cm.err = true, err
				}
			}
		}
	}()
	if c.closed.Load() {
		return ErrClosed
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if p.lines == 0 {
		return nil // every request failed to encode
	}
	pl := c.rd
	if p.write || pl == nil {
		pl = c.wr
	}
	if pl == nil {
		return ErrNoWriteAddr
	}
	op.Addr = pl.addr
	for attempt := 0; ; attempt++ {
		cn, err := pl.get(ctx)
		if err != nil {
			return err
		}
		err = p.roundTrip(ctx, cn)
		op.BytesSent += cn.sent
		op.BytesReceived += cn.received
		reused := cn.reused
		if err != nil {
			cn.broken = true
		}
		pl.put(cn)
		if err == nil {
			return nil
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if d, ok := ctx.Deadline(); ok && !retryable(err) && !time.Now().Before(d) {
			// the connection's deadline was the context's, and fired
			// just before the context's own timer
			return context.DeadlineExceeded
		}
		if errors.Is(err, ErrProtocol) {
			return err
		}
		if attempt == 0 && reused && !p.write && retryable(err) {
			// a dead pooled connection: the finds are safe to send again
			for _, cm := range p.cmds {
				if cm.end > cm.start { // queued, not refused by encoding
					cm.done, cm.err, cm.n = false, nil, 0
					if cm.res != nil {
						*cm.res = Result{}
					}
				}
			}
			clear(p.records)
			p.records = p.records[:0]
			op.Retried = true
			continue
		}
		return err
	}
}

// retryable reports whether err looks like a connection the server closed
// (rather than a timeout, which may mean a slow request).
func retryable(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return false
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	return true
}
