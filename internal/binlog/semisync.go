package binlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Semi-synchronous replication, the primary's side, as MariaDB and MySQL
// speak it: a replica that set @rpl_semi_sync_slave before its dump gets
// every event after two bytes, semiMagic and a flag; with the flag set it
// answers, once it has the event, with a packet of semiMagic, the
// position after the event (8 bytes) and the file's name. A commit's
// client is answered once enough replicas have answered for its
// transaction, or after the timeout, which switches semi-sync off until a
// replica catches up.

// Semi-sync's bytes.
const (
	semiMagic   = 0xef
	semiAckFlag = 0x01
)

// SemiHeader is the two bytes before an event sent to a semi-sync
// replica: ack asks it to acknowledge the event.
func SemiHeader(ack bool) [2]byte {
	if ack {
		return [2]byte{semiMagic, semiAckFlag}
	}
	return [2]byte{semiMagic, 0}
}

// SemiSettings are the primary's semi-sync variables.
type SemiSettings struct {
	Enabled bool          // rpl_semi_sync_master_enabled
	Timeout time.Duration // rpl_semi_sync_master_timeout
	// Count is how many replicas must have a transaction
	// (rpl_semi_sync_master_wait_for_slave_count, MySQL's; MariaDB waits
	// for one).
	Count int
	// WaitNoReplica keeps waiting (until the timeout) with fewer semi-sync
	// replicas connected than Count (rpl_semi_sync_master_wait_no_slave).
	WaitNoReplica bool
}

// SemiStats are the primary's semi-sync status variables.
type SemiStats struct {
	Status       bool   // Rpl_semi_sync_master_status: waiting for acknowledgements
	Clients      int    // Rpl_semi_sync_master_clients
	YesTx        uint64 // transactions a replica acknowledged in time
	NoTx         uint64 // transactions answered without
	NoTimes      uint64 // times semi-sync switched off
	GetAck       uint64 // acknowledgements received
	RequestAck   uint64 // acknowledgements asked for
	TxWaits      uint64 // waits for an acknowledgement
	TxWaitTime   uint64 // their total time, microseconds
	WaitSessions int    // groups waiting now
}

// Semisync holds the primary's semi-sync state: the settings, the
// replicas that acknowledge and what each has acknowledged. Wait is the
// engine's commit wait (engine.SetCommitWait). Safe for concurrent use.
type Semisync struct {
	latest  func() uint64                     // the last transaction number committed
	install func(func(last uint64, txns int)) // installs or removes (nil) the commit wait

	mu       sync.Mutex
	set      SemiSettings
	on       bool
	closed   bool
	replicas map[*SemiReplica]struct{}
	changed  chan struct{} // closed (and replaced) on every acknowledgement and change
	stats    SemiStats
	onSwitch func(on bool, seq uint64) // told when the status changes
	// offAt is the transaction whose wait timed out: a replica that
	// acknowledges it or a later one switches the status on again.
	offAt uint64
}

// NewSemisync makes the state for a log whose last committed transaction
// latest returns; install puts Wait in the engine as its commit wait
// (engine.SetCommitWait) while semi-sync is enabled, and removes it
// (nil) when it is disabled, so that a primary without semi-sync pays
// nothing for it.
func NewSemisync(latest func() uint64, install func(func(last uint64, txns int))) *Semisync {
	return &Semisync{latest: latest, install: install, replicas: map[*SemiReplica]struct{}{}, changed: make(chan struct{}),
		set: SemiSettings{Timeout: 10 * time.Second, Count: 1, WaitNoReplica: true}}
}

// OnSwitch makes fn (may be nil) be told each time semi-sync switches on
// or off, with the transaction number it switched at, outside any lock.
// Call it before Configure.
func (s *Semisync) OnSwitch(fn func(on bool, seq uint64)) { s.onSwitch = fn }

// Configure applies new settings; enabling switches the status on.
func (s *Semisync) Configure(set SemiSettings) {
	set.Count = max(set.Count, 1)
	s.mu.Lock()
	switched := set.Enabled != s.set.Enabled
	s.set = set
	if switched {
		s.on = set.Enabled
		if set.Enabled {
			s.install(s.Wait)
		} else {
			s.install(nil)
		}
	}
	s.wakeLocked()
	s.mu.Unlock()
	if switched && s.onSwitch != nil {
		s.onSwitch(set.Enabled, s.latest())
	}
}

// Stats returns the status counters.
func (s *Semisync) Stats() SemiStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.stats
	st.Status = s.set.Enabled && s.on
	st.Clients = len(s.replicas)
	return st
}

// Close releases every wait and makes later ones return at once.
func (s *Semisync) Close() {
	s.mu.Lock()
	s.closed = true
	s.wakeLocked()
	s.mu.Unlock()
}

func (s *Semisync) wakeLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// acksLocked counts the replicas that have transaction seq.
func (s *Semisync) acksLocked(seq uint64) int {
	n := 0
	for r := range s.replicas {
		if r.acked >= seq {
			n++
		}
	}
	return n
}

// Wait returns once Count replicas have acknowledged transaction last
// (the last of txns transactions of a group), or at once when semi-sync
// is off, or after the timeout, which switches it off.
func (s *Semisync) Wait(last uint64, txns int) {
	s.mu.Lock()
	if !s.set.Enabled || s.closed {
		s.mu.Unlock()
		return
	}
	if !s.on {
		s.stats.NoTx += uint64(txns)
		s.mu.Unlock()
		return
	}
	start := time.Now()
	deadline := start.Add(s.set.Timeout)
	var timer *time.Timer
	switchedOff := false
	s.stats.WaitSessions++
	for s.acksLocked(last) < s.set.Count {
		if s.closed || !s.set.Enabled || !s.on {
			break
		}
		wait := time.Until(deadline)
		if wait <= 0 || !s.set.WaitNoReplica && len(s.replicas) < s.set.Count {
			// (the timeout, or too few replicas to wait for)
			s.on, s.offAt, switchedOff = false, last, true
			s.stats.NoTimes++
			break
		}
		ch := s.changed
		s.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(wait)
		} else {
			timer.Reset(wait)
		}
		select {
		case <-ch:
			if !timer.Stop() {
				<-timer.C
			}
		case <-timer.C:
		}
		s.mu.Lock()
	}
	s.stats.WaitSessions--
	on := s.on && s.set.Enabled && s.acksLocked(last) >= s.set.Count
	if on {
		s.stats.YesTx += uint64(txns)
	} else {
		s.stats.NoTx += uint64(txns)
	}
	s.stats.TxWaits++
	s.stats.TxWaitTime += uint64(time.Since(start).Microseconds())
	s.mu.Unlock()
	if switchedOff && s.onSwitch != nil {
		s.onSwitch(false, last)
	}
}

// SemiReplica is one semi-sync replica's dump: what it was asked to
// acknowledge and what it did. Its methods are safe for concurrent use
// (the dump asks on one goroutine, the acknowledgements arrive on
// another).
type SemiReplica struct {
	s     *Semisync
	acked uint64    // the last transaction acknowledged (under s.mu)
	asked []semiAsk // asked and not yet acknowledged, in order (under s.mu)
}

// semiAsk is an event a replica was asked to acknowledge: the position
// after it and the transaction it ends.
type semiAsk struct {
	pos, seq uint64
}

// Attach adds a semi-sync replica's dump; it counts for a transaction
// once it acknowledged it or a later one.
func (s *Semisync) Attach() *SemiReplica {
	r := &SemiReplica{s: s}
	s.mu.Lock()
	s.replicas[r] = struct{}{}
	s.wakeLocked()
	s.mu.Unlock()
	return r
}

// Detach removes the replica (its dump ended).
func (r *SemiReplica) Detach() {
	s := r.s
	s.mu.Lock()
	delete(s.replicas, r)
	s.wakeLocked()
	s.mu.Unlock()
}

// has notes that the replica has every transaction up to after (where
// its dump starts): one that connects caught up switches semi-sync back
// on, as with MariaDB.
func (r *SemiReplica) has(after uint64) {
	s := r.s
	s.mu.Lock()
	r.acked = max(r.acked, after)
	switched := s.set.Enabled && !s.on && !s.closed && after >= s.offAt && after >= s.latest()
	if switched {
		s.on = true
	}
	s.wakeLocked()
	s.mu.Unlock()
	if switched && s.onSwitch != nil {
		s.onSwitch(true, after)
	}
}

// askAck reports whether the event ending transaction seq at pos is to
// ask for an acknowledgement (semi-sync is enabled), and notes it if so.
func (r *SemiReplica) askAck(pos, seq uint64) bool {
	s := r.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.set.Enabled || seq <= r.acked {
		return false
	}
	r.asked = append(r.asked, semiAsk{pos: pos, seq: seq})
	s.stats.RequestAck++
	return true
}

// ErrSemiAck is an acknowledgement packet that is not one.
var ErrSemiAck = errors.New("binlog: malformed semi-sync acknowledgement")

// Ack reads a replica's acknowledgement packet (semiMagic, the position
// after the event, the file's name) and records the transactions it
// covers; it switches semi-sync back on when the replica has the
// transaction whose wait timed out (the event a replica is asked to
// acknowledge is the last of the log when sent, so it has caught up).
func (r *SemiReplica) Ack(pkt []byte) error {
	if len(pkt) < 9 || pkt[0] != semiMagic {
		return ErrSemiAck
	}
	pos, file := binary.LittleEndian.Uint64(pkt[1:]), string(pkt[9:])
	if file != FileName {
		return fmt.Errorf("%w: file %q", ErrSemiAck, file)
	}
	s := r.s
	s.mu.Lock()
	s.stats.GetAck++
	i := 0
	for ; i < len(r.asked) && r.asked[i].pos <= pos; i++ {
		r.acked = max(r.acked, r.asked[i].seq)
	}
	r.asked = r.asked[:copy(r.asked, r.asked[i:])]
	switched := false
	if s.set.Enabled && !s.on && r.acked >= s.offAt && !s.closed {
		s.on, switched = true, true
	}
	s.wakeLocked()
	s.mu.Unlock()
	if switched && s.onSwitch != nil {
		s.onSwitch(true, r.acked)
	}
	return nil
}
