package binlog

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// endState prints what Open learns of a log: its end, last GTID, last
// feed number, GTIDs by server and sparse index.
func endState(l *Log) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return fmt.Sprintf("end %d last %v seq %d runs %v marks %v", l.end, l.last, l.lastSeq, l.runs, l.marks)
}

// openAgain opens a second log over x's engine, as a restart does (the
// first stops being the engine's change log).
func openAgain(t *testing.T, x *logged) *Log {
	t.Helper()
	l, err := Open(x.e, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	return l
}

// spoilCheckpoint stores a checkpoint record Open cannot read, so that
// the next Open reads the whole log.
func spoilCheckpoint(t *testing.T, e *engine.Engine) {
	t.Helper()
	if err := e.Update(context.Background(), func(tx *engine.Job) error { return tx.SetBlob(checkpointBlob, []byte{0}) }); err != nil {
		t.Fatal(err)
	}
}

// TestCheckpointRestart: a log reopened from its checkpoint knows what
// one reopened by reading the whole log knows, whether the checkpoint is
// the log's end (a clean Close), behind it (a crash after more
// transactions), or before a purge moved the log's start past it.
func TestCheckpointRestart(t *testing.T) {
	defer func(m, c uint64) { markEvery, checkpointEvery = m, c }(markEvery, checkpointEvery)
	markEvery, checkpointEvery = 3, 1<<62
	x := openLogged(t, 1, "")
	for id := range int64(20) {
		x.insert(t, id)
	}
	want := endState(x.l)
	x.l.Close() // (writes the checkpoint)
	if v, _ := x.e.Blob(checkpointBlob); v == nil {
		t.Fatal("Close wrote no checkpoint")
	}
	l := openAgain(t, x)
	if got := endState(l); got != want {
		t.Fatalf("from the checkpoint:\n%s\nwant\n%s", got, want)
	}
	if l.ckSeq != l.lastSeq {
		t.Fatalf("checkpoint at %d, log at %d", l.ckSeq, l.lastSeq)
	}

	// More transactions after the checkpoint, no Close (a crash): the
	// records after it are read.
	if err := l.writeCheckpoint(); err != nil {
		t.Fatal(err)
	}
	x.l = l
	for id := range int64(7) {
		x.insert(t, 100+id)
	}
	want = endState(l)
	l2 := openAgain(t, x)
	if got := endState(l2); got != want {
		t.Fatalf("from a checkpoint behind the end:\n%s\nwant\n%s", got, want)
	}
	spoilCheckpoint(t, x.e)
	l2 = openAgain(t, x)
	if got := endState(l2); got != want {
		t.Fatalf("reading the whole log:\n%s\nwant\n%s", got, want)
	}

	// A purge past the checkpoint: Open reads from the log's new start.
	x.l = l2
	if err := l2.writeCheckpoint(); err != nil {
		t.Fatal(err)
	}
	x.insert(t, 200)
	if n, err := l2.PurgeBefore(context.Background(), time.Now().Add(time.Hour)); err != nil || n == 0 {
		t.Fatalf("purged %d: %v", n, err)
	}
	x.insert(t, 201)
	l3 := openAgain(t, x)
	// (the purged records' marks are no longer read)
	l3.mu.Lock()
	l3.marks = nil
	l3.mu.Unlock()
	l2.mu.Lock()
	l2.marks = nil
	l2.mu.Unlock()
	if got, want := endState(l3), endState(l2); got != want {
		t.Fatalf("after a purge:\n%s\nwant\n%s", got, want)
	}
	if _, _, err := dumped(t, l3, From{GTID: true, Server: 1, Seq: 28}); err != nil {
		t.Fatalf("a dump after the reopen: %v", err)
	}
}

// TestCheckpointRecord: the record reads back as written, and a
// truncated or extended one is refused.
func TestCheckpointRecord(t *testing.T) {
	c := checkpoint{lastSeq: 1 << 40, end: 12345, last: GTID{Domain: 0, Server: 1 << 31, Seq: 99},
		runs:  []run{{1, 1, 50}, {2, 51, 99}},
		marks: []mark{{seq: 1024, pos: 9999, g: GTID{Server: 1, Seq: 40}, prev: GTID{Server: 1, Seq: 39}}}}
	b := c.encode()
	back, err := decodeCheckpoint(b)
	if err != nil || fmt.Sprint(back) != fmt.Sprint(c) {
		t.Fatalf("%+v read back as %+v (%v)", c, back, err)
	}
	for _, bad := range [][]byte{b[:len(b)-1], append(b, 0), nil, {2}} {
		if _, err := decodeCheckpoint(bad); err == nil {
			t.Errorf("%x accepted", bad)
		}
	}
}
