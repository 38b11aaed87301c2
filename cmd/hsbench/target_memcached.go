package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync/atomic"
	"time"
)

// mcTarget benchmarks the memcached text protocol: get for gets, set for
// inserts and updates, delete for deletes. Keys are the decimal ids.
type mcTarget struct {
	o     *options
	addr  string
	bytes atomic.Int64
	gen   atomic.Int64
}

func (t *mcTarget) kind() string                         { return "memcached" }
func (t *mcTarget) wireBytes() int64                     { return t.bytes.Load() }
func (t *mcTarget) close() error                         { return nil }
func (t *mcTarget) maxID(context.Context) (int64, error) { return 0, nil }

func (t *mcTarget) open(ctx context.Context) (targetConn, error) {
	var d net.Dialer
	dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	nc, err := d.DialContext(dctx, "tcp", t.addr)
	if err != nil {
		return nil, err
	}
	cc := countingConn{Conn: nc, n: &t.bytes}
	return &mcConn{t: t, nc: nc, r: bufio.NewReaderSize(cc, 64<<10), w: bufio.NewWriterSize(cc, 64<<10)}, nil
}

// mcConn is one worker's connection.
type mcConn struct {
	t  *mcTarget
	nc net.Conn
	r  *bufio.Reader
	w  *bufio.Writer
	b  []byte
}

var errMC = errors.New("memcached: unexpected reply")

// do writes every request, then reads every reply.
func (c *mcConn) do(ctx context.Context, ops []op) int {
	d := time.Now().Add(30 * time.Second)
	if cd, ok := ctx.Deadline(); ok && cd.Before(d) {
		d = cd
	}
	c.nc.SetDeadline(d)
	b := c.b[:0]
	for _, o := range ops {
		switch o.kind {
		case opGet:
			b = append(b, "get "...)
			b = strconv.AppendInt(b, o.id, 10)
		case opDelete:
			b = append(b, "delete "...)
			b = strconv.AppendInt(b, o.id, 10)
		default: // insert, update
			v := makeRow(o.id, c.t.o.valueSize, c.t.gen.Add(1)).email
			b = append(b, "set "...)
			b = strconv.AppendInt(b, o.id, 10)
			b = append(b, " 0 0 "...)
			b = strconv.AppendInt(b, int64(len(v)), 10)
			b = append(b, "\r\n"...)
			b = append(b, v...)
		}
		b = append(b, "\r\n"...)
	}
	c.b = b
	if _, err := c.w.Write(b); err != nil {
		return len(ops)
	}
	if err := c.w.Flush(); err != nil {
		return len(ops)
	}
	failed := 0
	for i, o := range ops {
		if err := c.reply(o); err != nil {
			if errors.Is(err, errMC) {
				failed++
				continue
			}
			return failed + len(ops) - i // the connection is lost
		}
	}
	return failed
}

// reply reads the reply to o; errMC is a reply that says the request
// failed, any other error a broken connection.
func (c *mcConn) reply(o op) error {
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		return err
	}
	switch o.kind {
	case opGet:
		for bytes.HasPrefix(line, []byte("VALUE ")) {
			f := bytes.Fields(line)
			if len(f) < 4 {
				return fmt.Errorf("memcached: bad VALUE line %q", line)
			}
			n, err := strconv.Atoi(string(f[3]))
			if err != nil {
				return fmt.Errorf("memcached: bad VALUE line %q", line)
			}
			if _, err := c.r.Discard(n + 2); err != nil {
				return err
			}
			if line, err = c.r.ReadSlice('\n'); err != nil {
				return err
			}
		}
		if !bytes.Equal(line, []byte("END\r\n")) {
			return errMC
		}
	case opDelete:
		if !bytes.Equal(line, []byte("DELETED\r\n")) && !bytes.Equal(line, []byte("NOT_FOUND\r\n")) {
			return errMC
		}
	default:
		if !bytes.Equal(line, []byte("STORED\r\n")) {
			return errMC
		}
	}
	return nil
}

func (c *mcConn) close() error {
	if c.nc == nil {
		return nil
	}
	_, err := io.WriteString(c.nc, "quit\r\n")
	c.nc.Close()
	return err
}
