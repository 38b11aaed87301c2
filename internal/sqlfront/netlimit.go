package sqlfront

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/netutil"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// The vitess listener reads every packet whole, whatever its size, and
// parses a COM_STMT_PREPARE itself before any handler sees it. The
// limitConn that wraps each connection of the MySQL listener
// (connlimit.go) therefore counts the bytes a client sends while the
// server owes it a reply:
//
//   - more than max_allowed_packet (read from the global variable when the
//     connection is accepted; 16 MiB by default, as in MariaDB 10.11)
//     closes the connection, as MySQL does with ER_NET_PACKET_TOO_LARGE
//     (the count includes packet headers and, with TLS, record framing,
//     for which 1/64 and 64 KiB of slack are allowed; reads while a
//     statement runs, the file of LOAD DATA LOCAL, do not count);
//   - a COM_STMT_PREPARE longer than maxPrepareLen closes the connection
//     before vitess parses it (see mariaHandler.ParserOptionsForConnection).
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
	errPrepareTooLong = errors.New("sqlfront: COM_STMT_PREPARE longer than 1 MiB refused")
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

// statementWatch is the state of one running statement's watch.
type statementWatch struct {
	lc     *limitConn
	cancel context.CancelFunc

	mu      sync.Mutex
	timer   *time.Timer
	stopped bool
}

// watchStatement marks a statement of c as running and returns a context
// that is cancelled if the client disconnects meanwhile (checked every
// peerCheckInterval), and the function that ends the watch.
func watchStatement(ctx context.Context, c *mysql.Conn) (context.Context, func()) {
	lc := limitConnOf(c)
	if lc == nil {
		return ctx, func() {}
	}
	lc.running.Store(true)
	ctx, cancel := context.WithCancel(ctx)
	w := &statementWatch{lc: lc, cancel: cancel}
	w.mu.Lock()
	w.timer = time.AfterFunc(peerCheckInterval, w.check)
	w.mu.Unlock()
	return ctx, w.stop
}

// check cancels the statement if the client has gone, else re-arms.
func (w *statementWatch) check() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if w.lc.peerClosed() {
		w.cancel()
		return
	}
	w.timer.Reset(peerCheckInterval)
}

// stop ends the watch.
func (w *statementWatch) stop() {
	w.mu.Lock()
	w.stopped = true
	w.timer.Stop()
	w.mu.Unlock()
	w.cancel()
	w.lc.running.Store(false)
}
