package binlog

import (
	"context"
	"encoding/binary"
	"sync"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// semiReplica is a replica's side of a semi-sync dump in the test: it
// acknowledges each event asked for while acking is true, as a real one
// does (the position after the event, the file's name).
type semiReplica struct {
	r      *SemiReplica
	mu     sync.Mutex
	acking bool
	asked  int
}

func (x *semiReplica) send(ev []byte, ack bool) error {
	x.mu.Lock()
	defer x.mu.Unlock()
	if !ack {
		return nil
	}
	x.asked++
	if !x.acking {
		return nil
	}
	pkt := append([]byte{semiMagic}, binary.LittleEndian.AppendUint64(nil, uint64(binary.LittleEndian.Uint32(ev[13:])))...)
	return x.r.Ack(append(pkt, FileName...))
}

func (x *semiReplica) setAcking(on bool) {
	x.mu.Lock()
	x.acking = on
	x.mu.Unlock()
}

// TestSemisyncWaits: a commit is answered once the replica acknowledged
// its transaction; without acknowledgements it waits the timeout, which
// switches semi-sync off (later commits do not wait); a replica that
// catches up switches it on again; with Count above the replicas
// connected every commit times out.
func TestSemisyncWaits(t *testing.T) {
	x := openLogged(t, 1, "")
	e, l, tb := x.e, x.l, x.t
	var switches []bool
	var swMu sync.Mutex
	s := l.Semisync()
	s.OnSwitch(func(on bool, _ uint64) {
		swMu.Lock()
		switches = append(switches, on)
		swMu.Unlock()
	})
	const timeout = 300 * time.Millisecond
	s.Configure(SemiSettings{Enabled: true, Timeout: timeout, Count: 1, WaitNoReplica: true})
	rep := &semiReplica{acking: true}
	from := e.FeedSeq()
	rep.r = s.Attach()
	ctx, cancel := context.WithCancel(context.Background())
	dumpDone := make(chan error, 1)
	go func() {
		dumpDone <- l.Dump(ctx, From{GTID: true, Server: 1, Seq: from, Semi: rep.r}, 0, rep.send, func() error { return nil })
	}()
	defer func() { cancel(); <-dumpDone }()
	id := int64(0)
	insert := func() time.Duration {
		t.Helper()
		id++
		start := time.Now()
		if err := e.Update(context.Background(), func(tx *engine.Job) error {
			_, err := tx.Insert(tb, engine.Row{{I: id}})
			return err
		}); err != nil {
			t.Fatal(err)
		}
		return time.Since(start)
	}
	for range 5 {
		if d := insert(); d >= timeout {
			t.Fatalf("an acknowledged commit took %v: %+v asked %d", d, s.Stats(), rep.asked)
		}
	}
	st := s.Stats()
	if !st.Status || st.Clients != 1 || st.YesTx != 5 || st.NoTx != 0 || st.GetAck < 5 {
		t.Fatalf("after 5 acknowledged commits: %+v", st)
	}
	// The replica stops acknowledging: one commit waits out the timeout.
	rep.setAcking(false)
	if d := insert(); d < timeout {
		t.Fatalf("an unacknowledged commit took %v, the timeout is %v", d, timeout)
	}
	if st := s.Stats(); st.Status || st.NoTimes != 1 || st.NoTx != 1 {
		t.Fatalf("after a timeout: %+v", st)
	}
	if d := insert(); d >= timeout {
		t.Fatalf("with semi-sync off a commit took %v", d)
	}
	// It acknowledges again: the next acknowledged commit switches the
	// status on, and commits wait again.
	rep.setAcking(true)
	insert()
	waitSemi(t, func() bool { return s.Stats().Status })
	before := s.Stats().YesTx
	insert()
	if st := s.Stats(); st.YesTx != before+1 {
		t.Fatalf("after catching up: %+v (yes_tx was %d)", st, before)
	}
	// Two acknowledgements wanted, one replica.
	s.Configure(SemiSettings{Enabled: true, Timeout: timeout, Count: 2, WaitNoReplica: true})
	if d := insert(); d < timeout {
		t.Fatalf("with one replica of the two wanted a commit took %v", d)
	}
	// Without wait_no_slave, fewer replicas than wanted is off at once.
	s.Configure(SemiSettings{Enabled: false})
	s.Configure(SemiSettings{Enabled: true, Timeout: 10 * time.Second, Count: 2})
	if d := insert(); d >= timeout {
		t.Fatalf("without wait_no_slave a commit took %v", d)
	}
	swMu.Lock()
	defer swMu.Unlock()
	if len(switches) < 4 || switches[0] != true || switches[1] != false || switches[2] != true {
		t.Fatalf("switches %v", switches)
	}
}

func waitSemi(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 5 s")
		}
	}
}

// FuzzSemiAck: any packet a replica sends as an acknowledgement is read
// without a panic, and only ever moves what the replica acknowledged
// forward to a transaction it was asked about.
func FuzzSemiAck(f *testing.F) {
	ack := func(pos uint64, file string) []byte {
		return append(binary.LittleEndian.AppendUint64([]byte{semiMagic}, pos), file...)
	}
	f.Add(ack(300, FileName))
	f.Add(ack(1<<63, FileName))
	f.Add(ack(300, "other"))
	f.Add([]byte{semiMagic, 1, 2})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, pkt []byte) {
		s := NewSemisync(func() uint64 { return 3 }, func(func(uint64, int)) {})
		s.Configure(SemiSettings{Enabled: true, Timeout: time.Second, Count: 1})
		r := s.Attach()
		for i, pos := range []uint64{100, 200, 300} {
			if !r.askAck(pos, uint64(i+1)) {
				t.Fatal("not asked")
			}
		}
		_ = r.Ack(pkt)
		s.mu.Lock()
		acked := r.acked
		s.mu.Unlock()
		if acked > 3 {
			t.Fatalf("acknowledged %d, asked up to 3", acked)
		}
		if len(pkt) >= 9 && pkt[0] == semiMagic && string(pkt[9:]) == FileName {
			want := uint64(0)
			for i, pos := range []uint64{100, 200, 300} {
				if binary.LittleEndian.Uint64(pkt[1:]) >= pos {
					want = uint64(i + 1)
				}
			}
			if acked != want {
				t.Fatalf("position %d acknowledged %d, want %d", binary.LittleEndian.Uint64(pkt[1:]), acked, want)
			}
		}
	})
}
