package binlog

import (
	"context"
	"encoding/binary"
	"errors"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Checkpoints of the log's end. Open must know where the log ends, its
// domain's last GTID, its GTIDs by server (runs) and its sparse index
// (marks); reading the whole log for them makes a restart as slow as
// the log is long (about 10 s for a 1.5 GB store). So the log stores
// them, as of a durable record, in the named record binlog/checkpoint:
// every checkpointEvery transactions, every minute while it grows, and
// at Close; Open reads the records after the checkpoint only. The log
// is append-only, so what a checkpoint says of its records stays true,
// unless a purge or a replica's copy (StartAt) moved the log's start
// past them: then Open reads from the start, as without one.

// checkpointBlob names the checkpoint's record.
const checkpointBlob = "binlog/checkpoint"

// checkpointEvery is how many transactions the log takes before the
// next checkpoint (a variable for the tests).
var checkpointEvery uint64 = 64 * 1024

// checkpoint is the log's end state as of feed number lastSeq.
type checkpoint struct {
	lastSeq, end uint64
	last         GTID
	runs         []run
	marks        []mark
}

// Its record: a version byte, then unsigned varints.
const checkpointVersion = 1

func (c *checkpoint) encode() []byte {
	b := []byte{checkpointVersion}
	u := func(v uint64) { b = binary.AppendUvarint(b, v) }
	gtid := func(g GTID) { u(uint64(g.Domain)); u(uint64(g.Server)); u(g.Seq) }
	u(c.lastSeq)
	u(c.end)
	gtid(c.last)
	u(uint64(len(c.runs)))
	for _, r := range c.runs {
		u(uint64(r.server))
		u(r.first)
		u(r.last)
	}
	u(uint64(len(c.marks)))
	for _, m := range c.marks {
		u(m.seq)
		u(m.pos)
		gtid(m.g)
		gtid(m.prev)
	}
	return b
}

var errBadCheckpoint = errors.New("binlog: bad checkpoint record")

func decodeCheckpoint(b []byte) (checkpoint, error) {
	var c checkpoint
	if len(b) == 0 || b[0] != checkpointVersion {
		return c, errBadCheckpoint
	}
	b = b[1:]
	bad := false
	u := func() uint64 {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			bad = true
			return 0
		}
		b = b[n:]
		return v
	}
	u32 := func() uint32 {
		v := u()
		if v > 1<<32-1 {
			bad = true
		}
		return uint32(v)
	}
	gtid := func() GTID { return GTID{Domain: u32(), Server: u32(), Seq: u()} }
	c.lastSeq, c.end = u(), u()
	c.last = gtid()
	for n := u(); n > 0 && !bad; n-- {
		c.runs = append(c.runs, run{server: u32(), first: u(), last: u()})
	}
	for n := u(); n > 0 && !bad; n-- {
		c.marks = append(c.marks, mark{seq: u(), pos: u(), g: gtid(), prev: gtid()})
	}
	if bad || len(b) != 0 {
		return checkpoint{}, errBadCheckpoint
	}
	return c, nil
}

// readCheckpoint returns the stored checkpoint when it stands for
// records the log holds after base b (Open's goroutine).
func (l *Log) readCheckpoint(b base) (checkpoint, bool) {
	v, err := l.e.Blob(checkpointBlob)
	if err != nil || v == nil {
		return checkpoint{}, false
	}
	c, err := decodeCheckpoint(v)
	if err != nil || c.lastSeq <= b.Seq || c.lastSeq > l.e.FeedSeq() || c.end < b.Pos {
		return checkpoint{}, false
	}
	return c, true
}

// startCheckpoints starts the goroutine that writes checkpoints.
func (l *Log) startCheckpoints() {
	l.ckWake, l.ckStop, l.ckDone = make(chan struct{}, 1), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(l.ckDone)
		tick := time.NewTicker(time.Minute)
		defer tick.Stop()
		for {
			select {
			case <-l.ckStop:
				return
			case <-l.ckWake:
			case <-tick.C:
			}
			_ = l.writeCheckpoint()
		}
	}()
}

// stopCheckpoints ends the goroutine and writes a last checkpoint (Close:
// the change feed is already off, the log's end will not move).
func (l *Log) stopCheckpoints() {
	if l.ckStop == nil {
		return
	}
	close(l.ckStop)
	<-l.ckDone
	l.ckStop = nil
	_ = l.writeCheckpoint()
}

// writeCheckpoint stores the log's end state when it moved since the
// last checkpoint.
func (l *Log) writeCheckpoint() error {
	l.mu.Lock()
	if l.lastSeq == l.ckSeq {
		l.mu.Unlock()
		return nil
	}
	c := checkpoint{lastSeq: l.lastSeq, end: l.end, last: l.last, runs: append([]run(nil), l.runs...), marks: append([]mark(nil), l.marks...)}
	l.mu.Unlock()
	err := l.e.Update(engine.Privileged(context.Background()), func(tx *engine.Job) error {
		return tx.SetBlob(checkpointBlob, c.encode())
	})
	if err != nil {
		return err
	}
	l.mu.Lock()
	l.ckSeq = max(l.ckSeq, c.lastSeq)
	l.mu.Unlock()
	return nil
}
