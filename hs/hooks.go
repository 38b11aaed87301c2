package hs

import (
	"context"
	"sync"
	"time"
)

// Hook observes requests, for metrics and tracing. Before is called before
// a request or pipeline waits for a connection; the context it returns is
// used for the request and handed to After, which is called once the
// replies are read (or the request failed). Hooks run on the caller's
// goroutine, in the order of Options.Hooks for Before and in reverse order
// for After; they must be safe for concurrent use, since requests run
// concurrently.
//
// The *Operation is valid only during the calls: copy what you keep.
type Hook interface {
	Before(ctx context.Context, op *Operation) context.Context
	After(ctx context.Context, op *Operation)
}

// Operation describes one request or pipeline to hooks.
type Operation struct {
	// Name is "find", "insert", "update", "delete", "increment" or
	// "decrement" for a single request, "pipeline" for a pipeline of
	// several.
	Name string
	// Index is the index of a single request (nil for a pipeline).
	Index *Index
	// Requests is the number of requests sent (requests that failed to
	// encode are not counted).
	Requests int
	// Write reports whether the write port is used.
	Write bool
	// Addr is the address of the port used.
	Addr string
	// Payload holds the encoded request lines, LF-terminated, without the
	// open-index lines the client adds for connections that lack them. It
	// aliases a buffer that is reused: do not keep it.
	Payload []byte
	// Start is when the request began (before waiting for a connection);
	// Duration, set for After, is how long it took.
	Start    time.Time
	Duration time.Duration
	// BytesSent and BytesReceived count the wire bytes of the exchange,
	// set for After (0 when no connection was used).
	BytesSent, BytesReceived int
	// Retried reports that a read was retried on a new connection after
	// the first one failed.
	Retried bool
	// Err is the error the call returns (set for After).
	Err error
}

// DebugRecord is one request line recorded in debug mode.
type DebugRecord struct {
	// Time is when the line was sent (with the other lines of its write).
	Time time.Time
	// Addr is the port it was sent to.
	Addr string
	// Request is the line as sent, without its LF (values are in the wire
	// encoding). Lines the client adds itself, such as the P that opens an
	// index on a connection, are recorded too.
	Request string
	// Reply is the reply line, without its LF (cut after 4096 bytes).
	Reply string
	// Duration is the time from sending the write that held the line to
	// reading its reply.
	Duration time.Duration
	// Err is the request's error, if any.
	Err error
}

// debugRing keeps the last records.
type debugRing struct {
	mu   sync.Mutex
	recs []DebugRecord
	next int
	full bool
	log  func(DebugRecord)
}

func (d *debugRing) add(recs []DebugRecord) {
	if d.log != nil {
		for _, r := range recs {
			d.log(r)
		}
	}
	d.mu.Lock()
	for _, r := range recs {
		d.recs[d.next] = r
		d.next++
		if d.next == len(d.recs) {
			d.next, d.full = 0, true
		}
	}
	d.mu.Unlock()
}

func (d *debugRing) snapshot() []DebugRecord {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.full {
		return append([]DebugRecord(nil), d.recs[:d.next]...)
	}
	out := make([]DebugRecord, 0, len(d.recs))
	out = append(out, d.recs[d.next:]...)
	return append(out, d.recs[:d.next]...)
}

// DebugRecords returns the requests recorded in debug mode (Options.Debug),
// oldest first; nil when debug mode is off.
func (c *Client) DebugRecords() []DebugRecord {
	if c.debug == nil {
		return nil
	}
	return c.debug.snapshot()
}
