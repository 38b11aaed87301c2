package hs

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Pipeline queues requests and sends them all in one write on one
// connection when Exec is called, then reads their replies in order (the
// HandlerSocket way of executing many requests at once). Requests on
// several indexes may be mixed. A pipeline holding only finds goes to the
// read port; one holding any write goes to the write port, where the finds
// see the earlier writes of the same pipeline.
//
// Each queuing method returns a command whose result is available once
// Exec has returned. Exec empties the pipeline, which can then be reused.
//
// A Pipeline is not safe for concurrent use; use one per goroutine. The
// commands it returns may be read from any goroutine after Exec.
type Pipeline struct {
	c     *Client
	buf   []byte // the request lines
	cmds  []*cmd
	ixs   []*Index // distinct indexes of the queued requests
	write bool     // some request must go to the write port
	lines int      // queued request lines

	// per Exec scratch
	opening  []*Index
	openErrs []error
	op       Operation
	records  []DebugRecord
}

type cmdKind uint8

const (
	kindFind   cmdKind = iota // rows
	kindRows                  // modify with '?': rows
	kindCount                 // modify: row count
	kindInsert                // insert: id
)

// cmd is the state shared by every command type.
type cmd struct {
	kind  cmdKind
	name  string // for hooks and debug records: find, insert, update...
	ix    *Index
	done  bool
	err   error
	n     uint64
	res   *Result
	start int // the request line in Pipeline.buf (while queued)
	end   int
}

var errNotExecuted = errors.New("hs: pipeline not executed yet")

func (c *cmd) status() error {
	if !c.done {
		return errNotExecuted
	}
	return c.err
}

// FindCmd is a queued find, or a modify that returns the rows it changed.
type FindCmd struct {
	cmd
	r Result
}

// Err returns the command's error, or nil.
func (c *FindCmd) Err() error { return c.status() }

// Result returns the rows.
func (c *FindCmd) Result() (*Result, error) {
	if err := c.status(); err != nil {
		return nil, err
	}
	return c.res, nil
}

// Row returns the first row, or ErrNotFound when there is none.
func (c *FindCmd) Row() (Row, error) {
	if err := c.status(); err != nil {
		return Row{}, err
	}
	if c.res.Len() == 0 {
		return Row{}, ErrNotFound
	}
	return c.res.Row(0), nil
}

// ModifyCmd is a queued update, delete, increment or decrement.
type ModifyCmd struct{ cmd }

// Err returns the command's error, or nil.
func (c *ModifyCmd) Err() error { return c.status() }

// Count returns the number of rows changed.
func (c *ModifyCmd) Count() (int, error) {
	if err := c.status(); err != nil {
		return 0, err
	}
	return int(c.n), nil
}

// InsertCmd is a queued insert.
type InsertCmd struct{ cmd }

// Err returns the command's error, or nil.
func (c *InsertCmd) Err() error { return c.status() }

// ID returns the AUTO_INCREMENT value generated, or 0 when none was.
func (c *InsertCmd) ID() (uint64, error) {
	if err := c.status(); err != nil {
		return 0, err
	}
	return c.n, nil
}

// Pipeline returns an empty pipeline.
func (c *Client) Pipeline() *Pipeline { return &Pipeline{c: c} }

// Len returns the number of queued requests.
func (p *Pipeline) Len() int { return len(p.cmds) }

// Discard drops the queued requests without sending them; their commands
// fail with an error.
func (p *Pipeline) Discard() {
	for _, c := range p.cmds {
		if !c.done {
			c.done, c.err = true, errors.New("hs: pipeline discarded")
		}
	}
	p.reset()
}

func (p *Pipeline) reset() {
	clear(p.cmds)
	p.cmds = p.cmds[:0]
	clear(p.ixs)
	p.ixs = p.ixs[:0]
	p.buf = p.buf[:0]
	p.write = false
	p.lines = 0
	if cap(p.buf) > maxKeepBuf {
		p.buf = nil
	}
}

// Find queues a find.
func (p *Pipeline) Find(ix *Index, q Query) *FindCmd {
	fc := &FindCmd{}
	fc.res = &fc.r
	fc.kind, fc.name = kindFind, "find"
	p.addFind(&fc.cmd, ix, &q, 0, false, nil)
	return fc
}

// Get queues a find of the first row whose key equals key; FindCmd.Row
// returns it or ErrNotFound.
func (p *Pipeline) Get(ix *Index, key ...any) *FindCmd {
	fc := &FindCmd{}
	fc.res = &fc.r
	fc.kind, fc.name = kindFind, "find"
	q := Query{Op: EQ, Key: key, Limit: 1}
	p.addFind(&fc.cmd, ix, &q, 0, false, nil)
	return fc
}

// Insert queues an insert (see Index.Insert).
func (p *Pipeline) Insert(ix *Index, values ...any) *InsertCmd {
	ic := &InsertCmd{}
	ic.kind, ic.name = kindInsert, "insert"
	c := &ic.cmd
	c.ix = ix
	p.cmds = append(p.cmds, c)
	if err := p.check(ix); err != nil {
		c.done, c.err = true, err
		return ic
	}
	p.write = true
	start := len(p.buf)
	b := strconv.AppendInt(p.buf, int64(ix.id), 10)
	b = append(b, "\t+\t"...)
	b = strconv.AppendInt(b, int64(len(values)), 10)
	for _, v := range values {
		var ok bool
		if b, ok = appendValue(append(b, '\t'), v); !ok {
			p.buf = b[:start]
			c.done, c.err = true, fmt.Errorf("%w: cannot send a value of type %s", ErrValue, typeName(v))
			return ic
		}
	}
	p.buf = append(b, '\n')
	p.queued(c, start)
	return ic
}

// Update queues an update (see Index.Update).
func (p *Pipeline) Update(ix *Index, q Query, values ...any) *ModifyCmd {
	return p.addModify(ix, &q, 'U', values)
}

// UpdateReturning queues an update returning the rows as they were.
func (p *Pipeline) UpdateReturning(ix *Index, q Query, values ...any) *FindCmd {
	return p.addModifyReturning(ix, &q, 'U', values)
}

// Delete queues a delete (see Index.Delete).
func (p *Pipeline) Delete(ix *Index, q Query) *ModifyCmd {
	return p.addModify(ix, &q, 'D', nil)
}

// DeleteReturning queues a delete returning the deleted rows.
func (p *Pipeline) DeleteReturning(ix *Index, q Query) *FindCmd {
	return p.addModifyReturning(ix, &q, 'D', nil)
}

// Increment queues an increment (see Index.Increment).
func (p *Pipeline) Increment(ix *Index, q Query, amounts ...any) *ModifyCmd {
	return p.addModify(ix, &q, '+', amounts)
}

// IncrementReturning queues an increment returning the rows as they were.
func (p *Pipeline) IncrementReturning(ix *Index, q Query, amounts ...any) *FindCmd {
	return p.addModifyReturning(ix, &q, '+', amounts)
}

// Decrement queues a decrement (see Index.Decrement).
func (p *Pipeline) Decrement(ix *Index, q Query, amounts ...any) *ModifyCmd {
	return p.addModify(ix, &q, '-', amounts)
}

// DecrementReturning queues a decrement returning the rows as they were.
func (p *Pipeline) DecrementReturning(ix *Index, q Query, amounts ...any) *FindCmd {
	return p.addModifyReturning(ix, &q, '-', amounts)
}

var modNames = [256]string{'U': "update", 'D': "delete", '+': "increment", '-': "decrement"}

// addModify queues modify op (U, D, + or -) answering a row count.
func (p *Pipeline) addModify(ix *Index, q *Query, op byte, values []any) *ModifyCmd {
	mc := &ModifyCmd{}
	mc.kind, mc.name = kindCount, modNames[op]
	p.addFind(&mc.cmd, ix, q, op, false, values)
	return mc
}

// addModifyReturning queues modify op answering the rows as they were.
func (p *Pipeline) addModifyReturning(ix *Index, q *Query, op byte, values []any) *FindCmd {
	fc := &FindCmd{}
	fc.res = &fc.r
	fc.kind, fc.name = kindRows, modNames[op]
	p.addFind(&fc.cmd, ix, q, op, true, values)
	return fc
}

// addFind encodes a find, with a modify part when mod is not 0:
// id op vlen key... limit offset [@ part n v...] [F|W op col v]... [mod[?] v...]
func (p *Pipeline) addFind(c *cmd, ix *Index, q *Query, mod byte, ret bool, values []any) {
	c.ix = ix
	p.cmds = append(p.cmds, c)
	if err := p.check(ix); err != nil {
		c.done, c.err = true, err
		return
	}
	start := len(p.buf)
	err := p.encodeFind(ix, q, mod, ret, values)
	if err != nil {
		p.buf = p.buf[:start]
		c.done, c.err = true, err
		return
	}
	if mod != 0 {
		p.write = true
	}
	p.queued(c, start)
}

func (p *Pipeline) encodeFind(ix *Index, q *Query, mod byte, ret bool, values []any) error {
	var ok bool
	b := strconv.AppendInt(p.buf, int64(ix.id), 10)
	b = append(b, '\t')
	op := q.Op
	if op == "" {
		op = EQ
	}
	if !validName(string(op), false) {
		return fmt.Errorf("%w: find operation %q", ErrValue, strings.Clone(string(op)))
	}
	b = append(b, op...)
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(len(q.Key)), 10)
	for _, v := range q.Key {
		if b, ok = appendValue(append(b, '\t'), v); !ok {
			p.buf = b
			return fmt.Errorf("%w: cannot send a key of type %s", ErrValue, typeName(v))
		}
	}
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(max(q.Limit, 0)), 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(max(q.Offset, 0)), 10)
	if in := q.In; in != nil {
		b = append(b, "\t@\t"...)
		b = strconv.AppendInt(b, int64(max(in.KeyPart, 0)), 10)
		b = append(b, '\t')
		b = strconv.AppendInt(b, int64(len(in.Values)), 10)
		for _, v := range in.Values {
			if b, ok = appendValue(append(b, '\t'), v); !ok {
				p.buf = b
				return fmt.Errorf("%w: cannot send an IN value of type %s", ErrValue, typeName(v))
			}
		}
	}
	for i := range q.Filters {
		f := &q.Filters[i]
		t := f.Type
		if t == 0 {
			t = Skip
		}
		if t != Skip && t != Stop {
			p.buf = b
			return fmt.Errorf("%w: filter type %q", ErrValue, byte(t))
		}
		col, found := ix.filterLookup[f.Column]
		if !found {
			p.buf = b
			return fmt.Errorf("hs: filter column %q is not among the filter columns of %s: %w", strings.Clone(f.Column), ix.String(), ErrFilterfld)
		}
		fop := f.Op
		if fop == "" {
			fop = EQ
		}
		if !validName(string(fop), false) {
			p.buf = b
			return fmt.Errorf("%w: filter operation %q", ErrValue, strings.Clone(string(fop)))
		}
		b = append(b, '\t', byte(t), '\t')
		b = append(b, fop...)
		b = append(b, '\t')
		b = strconv.AppendInt(b, int64(col), 10)
		if b, ok = appendValue(append(b, '\t'), f.Value); !ok {
			p.buf = b
			return fmt.Errorf("%w: cannot send a filter value of type %s", ErrValue, typeName(f.Value))
		}
	}
	if mod != 0 {
		b = append(b, '\t', mod)
		if ret {
			b = append(b, '?')
		}
		for _, v := range values {
			if b, ok = appendValue(append(b, '\t'), v); !ok {
				p.buf = b
				return fmt.Errorf("%w: cannot send a value of type %s", ErrValue, typeName(v))
			}
		}
	}
	p.buf = append(b, '\n')
	return nil
}

var errOtherClient = errors.New("hs: the index belongs to another Client than the pipeline")

// check returns the error that keeps a request on ix from being sent.
func (p *Pipeline) check(ix *Index) error {
	if ix.c != p.c {
		// index ids are per client: another client's id may name another
		// index on this client's connections
		return errOtherClient
	}
	return ix.err
}

// queued records that c's request line starts at start in p.buf.
func (p *Pipeline) queued(c *cmd, start int) {
	c.start, c.end = start, len(p.buf)
	p.lines++
	for i := len(p.ixs) - 1; i >= 0; i-- {
		if p.ixs[i] == c.ix {
			return
		}
	}
	p.ixs = append(p.ixs, c.ix)
}

// Exec sends the queued requests in one write and reads every reply. It
// returns the first error among the commands (a server error reply of one
// request does not stop the others), or the connection error that ended
// the exchange. The pipeline is empty afterwards.
//
// A pipeline of finds only is retried once on a new connection when the
// pooled connection it used turns out to be dead; one holding writes is
// never retried, since the server may have applied them.
func (p *Pipeline) Exec(ctx context.Context) error {
	err := p.c.exec(ctx, p)
	p.reset()
	return err
}

// roundTrip sends the pipeline on cn and reads the replies into the
// commands. A non-nil error is a connection or protocol error: cn is then
// broken.
func (p *Pipeline) roundTrip(ctx context.Context, cn *conn) error {
	cl := p.c
	cn.sent, cn.received = 0, 0
	cn.setDeadlines(ctx, &cl.opts)
	if ctx.Done() != nil {
		stop := context.AfterFunc(ctx, func() { cn.nc.SetDeadline(aLongTimeAgo) })
		defer func() {
			if !stop() {
				cn.broken = true
				cn.deadline = true
			}
		}()
	}
	debug := cl.debug != nil
	// open the indexes this connection does not have yet, in the same write
	p.opening = p.opening[:0]
	for _, ix := range p.ixs {
		if !cn.isOpen(ix.id) {
			p.opening = append(p.opening, ix)
		}
	}
	out := p.buf
	if len(p.opening) > 0 {
		w := cn.wbuf[:0]
		for _, ix := range p.opening {
			w = append(w, ix.openLine...)
		}
		w = append(w, p.buf...)
		cn.wbuf = w
		out = w
	}
	start := time.Now()
	if err := cn.write(out); err != nil {
		return err
	}
	p.openErrs = p.openErrs[:0]
	anyOpenErr := false
	for _, ix := range p.opening {
		line, err := cn.readLine()
		if err != nil {
			return err
		}
		code, _, rest, err := parseHeader(line)
		if err != nil {
			cn.broken = true
			return err
		}
		var oe error
		if code == 0 {
			cn.setOpen(ix.id)
		} else {
			oe = serverError(code, rest)
			anyOpenErr = true
		}
		p.openErrs = append(p.openErrs, oe)
		if debug {
			p.records = append(p.records, DebugRecord{Time: start, Addr: cn.pool.addr, Request: string(ix.openLine[:len(ix.openLine)-1]), Reply: debugReply(line), Duration: time.Since(start), Err: oe})
		}
	}
	for _, c := range p.cmds {
		if c.done {
			continue
		}
		line, err := cn.readLine()
		if err != nil {
			return err
		}
		var reply string
		if debug {
			reply = debugReply(line)
		}
		if anyOpenErr {
			if oe := p.openErr(c.ix); oe != nil {
				c.done, c.err = true, oe
				continue
			}
		}
		if err := c.parse(line); err != nil {
			cn.broken = true
			return err
		}
		c.done = true
		if debug {
			p.records = append(p.records, DebugRecord{Time: start, Addr: cn.pool.addr, Request: string(p.buf[c.start : c.end-1]), Reply: reply, Duration: time.Since(start), Err: c.err})
		}
	}
	return nil
}

var aLongTimeAgo = time.Unix(1, 0)

func (p *Pipeline) openErr(ix *Index) error {
	for i, o := range p.opening {
		if o == ix {
			return p.openErrs[i]
		}
	}
	return nil
}

// parse reads c's reply line.
func (c *cmd) parse(line []byte) error {
	code, ncols, rest, err := parseHeader(line)
	if err != nil {
		return err
	}
	if code != 0 {
		c.err = serverError(code, rest)
		return nil
	}
	switch c.kind {
	case kindFind, kindRows:
		return c.res.fill(c.ix.cols, ncols, rest)
	case kindCount:
		n, i := parseDecimal(rest, 0)
		if i != len(rest) {
			return protocolErr(line)
		}
		c.n = uint64(n)
	case kindInsert:
		if rest == nil {
			c.n = 0
			return nil
		}
		n, err := strconv.ParseUint(unsafeString(rest), 10, 64)
		if err != nil {
			return protocolErr(line)
		}
		c.n = n
	}
	return nil
}

func debugReply(line []byte) string {
	const max = 4096
	if len(line) > max {
		return string(line[:max]) + "..."
	}
	return string(line)
}
