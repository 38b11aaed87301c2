package main

import (
	"context"
	"math"
	"sync/atomic"

	"github.com/handlerdb/handlerdb/hs"
)

// hsTarget benchmarks HandlerSocket through package hs.
type hsTarget struct {
	o     *options
	c     *hs.Client
	bytes atomic.Int64
	row   *hs.Index    // id, name, email, created
	email *hs.Index    // email
	key   *hs.Index    // id
	gen   atomic.Int64 // makes every update write a new value
}

// byteHook counts the wire bytes of every request.
type byteHook struct{ n *atomic.Int64 }

func (h byteHook) Before(ctx context.Context, _ *hs.Operation) context.Context { return ctx }

func (h byteHook) After(_ context.Context, op *hs.Operation) {
	h.n.Add(int64(op.BytesSent + op.BytesReceived))
}

func openHS(o *options, dsn string) (*hsTarget, error) {
	opts, err := hs.ParseDSN(dsn)
	if err != nil {
		return nil, err
	}
	t := &hsTarget{o: o}
	opts.ReadPoolSize, opts.WritePoolSize = o.conns, o.conns
	opts.Hooks = append(opts.Hooks, byteHook{&t.bytes})
	if t.c, err = hs.New(opts); err != nil {
		return nil, err
	}
	t.row = t.c.Index(o.db, o.table, "PRIMARY", []string{"id", "name", "email", "created"})
	t.email = t.c.Index(o.db, o.table, "PRIMARY", []string{"email"})
	t.key = t.c.Index(o.db, o.table, "PRIMARY", []string{"id"})
	return t, nil
}

func (t *hsTarget) kind() string     { return "hs" }
func (t *hsTarget) wireBytes() int64 { return t.bytes.Load() }
func (t *hsTarget) close() error     { return t.c.Close() }

func (t *hsTarget) maxID(ctx context.Context) (int64, error) {
	r, err := t.key.Find(ctx, hs.Query{Op: hs.LE, Key: []any{math.MaxInt32}, Limit: 1})
	if err != nil || r.Len() == 0 {
		return 0, err
	}
	return r.Row(0).Value(0).Int64()
}

func (t *hsTarget) open(ctx context.Context) (targetConn, error) {
	if err := t.c.Ping(ctx); err != nil {
		return nil, err
	}
	return &hsConn{t: t, p: t.c.Pipeline()}, nil
}

// hsConn is one worker's pipeline; the client's pool gives it a connection
// per round trip (the pools have one connection per worker).
type hsConn struct {
	t    *hsTarget
	p    *hs.Pipeline
	cmds []interface{ Err() error }
}

func (c *hsConn) do(ctx context.Context, ops []op) int {
	t, p := c.t, c.p
	c.cmds = c.cmds[:0]
	for _, o := range ops {
		switch o.kind {
		case opGet:
			c.cmds = append(c.cmds, p.Get(t.row, o.id))
		case opRange:
			c.cmds = append(c.cmds, p.Find(t.row, hs.Query{Op: hs.GE, Key: []any{o.id}, Limit: t.o.rangeSize}))
		case opInsert:
			v := makeRow(o.id, t.o.valueSize, 0)
			c.cmds = append(c.cmds, p.Insert(t.row, o.id, v.name, v.email, v.created))
		case opUpdate:
			v := makeRow(o.id, t.o.valueSize, t.gen.Add(1))
			c.cmds = append(c.cmds, p.Update(t.email, hs.Eq(o.id), v.email))
		case opDelete:
			c.cmds = append(c.cmds, p.Delete(t.key, hs.Eq(o.id)))
		}
	}
	p.Exec(ctx)
	failed := 0
	for _, cmd := range c.cmds {
		if cmd.Err() != nil {
			failed++
		}
	}
	clear(c.cmds)
	return failed
}

func (c *hsConn) close() error { return nil }
