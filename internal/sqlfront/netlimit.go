package sqlfront

import (
	"context"
	"net"
	"time"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/netutil"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// The wire layer reads every packet whole, and parses a COM_STMT_PREPARE
// with the vitess grammar (to count its placeholders) before any handler
// sees it. So:
//
//   - a packet longer than max_allowed_packet (read from the global
//     variable when the connection is accepted; 16 MiB by default, as in
//     MariaDB 10.11) is read past without being kept and answered with
//     ER_NET_PACKET_TOO_LARGE (1153), and the connection closed, as
//     MariaDB does (mysqlproto's SetMaxPacket);
//   - a COM_STMT_PREPARE longer than maxPrepareLen is refused before it
//     is parsed (wireConn.prepare).
//
// go-mysql-server's check for clients that disconnect during a statement
// needs the bare TCP connection, which the wrapper hides; watchStatement
// does the same check through it.

const (
	// defaultMaxAllowedPacket is the default of max_allowed_packet.
	defaultMaxAllowedPacket = 16 << 20
	// maxPrepareLen bounds a COM_STMT_PREPARE packet: the vitess parser
	// walks the tree it builds recursively, with up to 160 bytes of stack
	// per byte of text, 160 MiB here (the process dies at 512 MiB).
	maxPrepareLen = 1 << 20
	// peerCheckInterval is how often a running statement checks that its
	// client is still connected (one non-blocking peek at the socket), so
	// a statement whose client has gone stops within about half a second.
	peerCheckInterval = 500 * time.Millisecond
)

var (
	errPacketTooLarge = mysql.NewSQLError(mysql.ERNetPacketTooLarge, "08S01",
		"Got a packet bigger than 'max_allowed_packet' bytes")
	errPrepareTooLong = mysql.NewSQLError(errtable.ERStackOverrun, "HY000",
		"Thread stack overrun: a prepared statement's text is longer than %d bytes", maxPrepareLen)
)

// maxAllowedPacket returns the global max_allowed_packet.
func maxAllowedPacket() int64 {
	if n, ok := sqlbackend.GlobalInt("max_allowed_packet"); ok {
		return min(n, 1<<40)
	}
	return defaultMaxAllowedPacket
}

// limitConnOf returns the limitConn under c's connection (through TLS),
// or nil.
func limitConnOf(c *mysql.Conn) *limitConn {
	nc := c.Conn
	for range 4 {
		switch x := nc.(type) {
		case *limitConn:
			return x
		case netutil.ConnWithTimeouts:
			nc = x.Conn
		case interface{ NetConn() net.Conn }: // *tls.Conn
			nc = x.NetConn()
		default:
			return nil
		}
	}
	return nil
}

// watchStatement marks a statement of c as running and returns a context
// that is cancelled if the client disconnects meanwhile, and the function
// that ends the watch. The listener's watcher (watchPeers) looks at every
// running statement's socket each peerCheckInterval. A statement whose
// context is never cancelled (the wire layer's for every command: the
// background context) runs on the connection's own context instead, made once:
// starting and ending a watch then costs two atomic stores. A watch
// inside a running one (a fast path under its command's) changes nothing.
func watchStatement(ctx context.Context, c *mysql.Conn) (context.Context, func()) {
	lc := limitConnOf(c)
	if lc == nil || lc.running.Load() {
		return ctx, noWatch
	}
	lc.running.Store(true)
	if ctx.Done() == nil {
		if engine.HoldsReadLock(ctx) { // (readlock.go: the mark stays)
			return engine.HoldingReadLock(lc.ctx), lc.endWatch
		}
		return lc.ctx, lc.endWatch
	}
	sctx, cancel := context.WithCancel(ctx)
	lc.cancel.Store(&cancel)
	return sctx, func() {
		lc.cancel.Store(nil)
		cancel()
		lc.running.Store(false)
	}
}

func noWatch() {}

// watchPeers cancels, every peerCheckInterval until done is closed, the
// running statements of l's connections whose client has gone.
func (l *limitListener) watchPeers(done <-chan struct{}) {
	t := time.NewTicker(peerCheckInterval)
	defer t.Stop()
	var running []*limitConn
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		running = running[:0]
		l.mu.Lock()
		for lc := range l.live {
			if lc.running.Load() {
				running = append(running, lc)
			}
		}
		l.mu.Unlock()
		for _, lc := range running {
			if lc.running.Load() && lc.peerClosed() {
				lc.cancelConn()
				if cancel := lc.cancel.Load(); cancel != nil {
					(*cancel)()
				}
			}
		}
		clear(running)
	}
}
