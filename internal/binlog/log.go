package binlog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// FileName is the one file of HandlerDB's binary log, as replicas and
// SHOW statements name it. Its content is made from the engine's change
// log: the 4-byte magic, a format description, an empty GTID list, then
// every transaction's events in commit order.
const FileName = "hdb-bin.000001"

// Positions in the log file.
const (
	magicLen    = 4
	fdeLen      = HeaderLen + 2 + 50 + 4 + 1 + 172 + 4 // FormatDescriptionEvent's
	gtidListLen = HeaderLen + 4
	firstTxnPos = magicLen + fdeLen + gtidListLen
)

// baseBlob names the record of where the log starts after a purge: the
// last purged transaction's number and server id, and the position the
// next one starts at.
const baseBlob = "binlog/base"

// base is where the log's first record starts.
type base struct {
	Seq     uint64 // the last purged transaction's feed number (0: none)
	Server  uint32 // its GTID's server id
	Pos     uint64 // where the first kept record starts
	GTIDSeq uint64 // its GTID's sequence number
	Set     bool   // the record exists: the log starts after a purge or a copy
	// Runs are the domain's GTIDs before the first kept record, by
	// server (MySQL's flavor names them by server uuid): a record of
	// before they were kept has its last GTID's server for all.
	Runs []run
}

// start reads where the log starts.
func (l *Log) start() (base, error) {
	b := base{Pos: firstTxnPos}
	v, err := l.e.Blob(baseBlob)
	if err != nil || v == nil {
		return b, err
	}
	if len(v) != 20 && (len(v) < 28 || (len(v)-28)%20 != 0) {
		return b, errors.New("binlog: bad base record")
	}
	b = base{Seq: binary.BigEndian.Uint64(v), Server: binary.BigEndian.Uint32(v[8:]), Pos: binary.BigEndian.Uint64(v[12:]), Set: true}
	b.GTIDSeq = b.Seq // (a record of before GTIDs were kept apart)
	if len(v) >= 28 {
		b.GTIDSeq = binary.BigEndian.Uint64(v[20:])
	}
	for v = v[min(len(v), 28):]; len(v) >= 20; v = v[20:] {
		b.Runs = append(b.Runs, run{server: binary.BigEndian.Uint32(v), first: binary.BigEndian.Uint64(v[4:]), last: binary.BigEndian.Uint64(v[12:])})
	}
	if b.Runs == nil && b.GTIDSeq > 0 {
		b.Runs = []run{{server: b.Server, first: 1, last: b.GTIDSeq}}
	}
	return b, nil
}

// putBase stores where the log starts, in the job.
func putBase(tx *engine.Job, b base) error {
	rec := binary.BigEndian.AppendUint64(nil, b.Seq)
	rec = binary.BigEndian.AppendUint32(rec, b.Server)
	rec = binary.BigEndian.AppendUint64(rec, b.Pos)
	rec = binary.BigEndian.AppendUint64(rec, b.GTIDSeq)
	for _, r := range b.Runs {
		rec = binary.BigEndian.AppendUint32(rec, r.server)
		rec = binary.BigEndian.AppendUint64(rec, r.first)
		rec = binary.BigEndian.AppendUint64(rec, r.last)
	}
	return tx.SetBlob(baseBlob, rec)
}

// StartAt makes the log start at the GTID position gtid of the log's
// domain (domain-server-seq, a list of them): called in the job that ends
// a replica's initial copy, whose rows are not in the log, so that the
// log holds, as its primary's does, everything after that GTID and
// @@gtid_binlog_pos names it (MariaDB's SET GLOBAL gtid_binlog_state
// after a dump is loaded). Records before it are dropped. It runs on the
// writer's goroutine, inside tx.
func (l *Log) StartAt(tx *engine.Job, gtid string) error {
	g, err := DomainGTID(gtid, l.domain)
	if err != nil || g.Seq == 0 {
		return err
	}
	seq := l.e.FeedSeq()
	l.mu.Lock()
	end := l.end
	l.mu.Unlock()
	if err := tx.PurgeChangeLog(seq + 1); err != nil {
		return err
	}
	// (the copy's history is its GTID: all of it is taken as that
	// server's)
	runs := []run{{server: g.Server, first: 1, last: g.Seq}}
	if err := putBase(tx, base{Seq: seq, Server: g.Server, Pos: end, GTIDSeq: g.Seq, Runs: runs}); err != nil {
		return err
	}
	l.gtidSeq = max(l.gtidSeq, g.Seq) // (the writer's goroutine: the change log's)
	l.mu.Lock()
	l.last = g
	l.runs = runs
	l.mu.Unlock()
	return nil
}

// recordGTID is the GTID of a record's transaction (its first event).
func recordGTID(rec []byte) GTID {
	if len(rec) < HeaderLen+12 {
		return GTID{}
	}
	return GTID{Server: binary.LittleEndian.Uint32(rec[5:]), Seq: binary.LittleEndian.Uint64(rec[HeaderLen:]),
		Domain: binary.LittleEndian.Uint32(rec[HeaderLen+8:])}
}

// Log is HandlerDB's binary log over an engine: Open makes the engine
// store each committed transaction's events (TxnEvents) in its change
// log, in the same batch as the rows; Dump sends them to a replica. Safe
// for concurrent use.
type Log struct {
	e        *engine.Engine
	serverID uint32
	domain   uint32
	created  uint32 // the format description's timestamp

	mu   sync.Mutex
	wake chan struct{} // closed (and replaced) when transactions commit
	// The log's end (under mu): the position after the last durable
	// record and the domain's last GTID, kept as records become durable
	// so that SHOW MASTER STATUS and @@gtid_binlog_pos read no log.
	end     uint64
	last    GTID
	lastSeq uint64 // the feed number of the last durable record
	// runs are the domain's GTIDs of the whole log, purged ones too, by
	// server: MySQL's flavor's GTID set.
	runs []run
	// ckSeq is the feed number of the last checkpoint (under mu); ckWake
	// asks for the next, ckStop and ckDone end its goroutine
	// (checkpoint.go).
	ckSeq          uint64
	ckWake, ckStop chan struct{}
	ckDone         chan struct{}
	// marks is a sparse index of the records (one per markEvery feed
	// numbers, in order; under mu): where a dump by position, a
	// replica's GTID or a position after a number starts reading
	// instead of the log's first record.
	marks []mark

	purging    sync.Mutex // one purge at a time (each reads the base it moves)
	stopExpire func()     // ends ExpireAfter's goroutine (under mu)

	// gtidSeq is the last GTID sequence number of the log's domain: a
	// transaction of this server's takes the next; one applied from a
	// primary keeps its own (Origin), as MariaDB's log_slave_updates.
	// Used by the writer goroutine only (the change log's function).
	gtidSeq uint64

	semi *Semisync
}

// Open starts writing e's binary log as server serverID (GTID domain 0)
// from its next transaction on; Close stops it. It takes the engine's
// change log and change feed.
func Open(e *engine.Engine, serverID uint32) (*Log, error) {
	l := &Log{e: e, serverID: serverID, created: uint32(time.Now().Unix()), wake: make(chan struct{})}
	g, end, err := l.scanEnd()
	if err != nil {
		return nil, err
	}
	l.gtidSeq, l.last, l.end, l.lastSeq = g.Seq, g, end, e.FeedSeq()
	maps := tableMaps{}
	e.SetChangeLog(func(x engine.FeedTxn) ([]byte, error) {
		return maps.txnEvents(uint32(time.Now().Unix()), l.gtidOf(x), x)
	})
	e.SetChangeFeed(func(txns []engine.FeedTxn) {
		// The records of the transactions now durable move the log's
		// end and extend the sparse index.
		l.mu.Lock()
		for _, x := range txns {
			g := recordGTID(x.Record)
			if x.Seq%markEvery == 0 {
				l.marks = append(l.marks, mark{seq: x.Seq, pos: l.end, g: g, prev: l.last})
			}
			l.end += uint64(len(x.Record))
			l.lastSeq = max(l.lastSeq, x.Seq)
			if g.Domain == l.domain && g.Seq != 0 {
				l.last = g
				l.runs = addRun(l.runs, g)
			}
		}
		if l.lastSeq-l.ckSeq >= checkpointEvery {
			select {
			case l.ckWake <- struct{}{}:
			default:
			}
		}
		close(l.wake)
		l.wake = make(chan struct{})
		l.mu.Unlock()
	})
	l.semi = NewSemisync(e.FeedSeq, e.SetCommitWait)
	l.startCheckpoints()
	return l, nil
}

// gtidOf gives a transaction its GTID: its origin's, else the next of
// this server's in the log's domain.
func (l *Log) gtidOf(x engine.FeedTxn) GTID {
	if o := x.Origin; o != nil {
		if o.Domain == l.domain {
			l.gtidSeq = max(l.gtidSeq, o.Seq)
		}
		return GTID{Domain: o.Domain, Server: o.Server, Seq: o.Seq}
	}
	l.gtidSeq++
	return GTID{Domain: l.domain, Server: l.serverID, Seq: l.gtidSeq}
}

// Semisync is the log's semi-synchronous replication state (off until
// configured).
func (l *Log) Semisync() *Semisync { return l.semi }

// Close stops writing the log (the transactions logged stay) and its
// expiry.
func (l *Log) Close() {
	l.semi.Close()
	l.e.SetCommitWait(nil)
	l.e.SetChangeLog(nil)
	l.e.SetChangeFeed(nil)
	l.stopCheckpoints()
	l.mu.Lock()
	stop := l.stopExpire
	l.stopExpire = nil
	l.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// ExpireAfter purges, at once and then every minute until Close, the
// transactions logged more than keep ago (binlog_expire_logs_seconds)
// and the oldest past limit bytes (max_binlog_total_size); 0 turns
// either off.
func (l *Log) ExpireAfter(keep time.Duration, limit uint64) {
	ctx, cancel := context.WithCancel(context.Background())
	l.mu.Lock()
	l.stopExpire = cancel
	l.mu.Unlock()
	go l.Expire(ctx, keep, limit, time.Minute)
}

// ServerID is the server id the log's events carry.
func (l *Log) ServerID() uint32 { return l.serverID }

// Position is the last transaction logged: its GTID and where the log
// file ends after it (as of the last durable group: kept in memory).
func (l *Log) Position() (GTID, uint64, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.last, l.end, nil
}

// scanEnd reads the log to its end: the domain's last GTID (this
// server's id with number 0 when there is none) and the position after
// the last record (Open's start). It starts from the last checkpoint
// when one stands for records the log still holds (checkpoint.go).
func (l *Log) scanEnd() (GTID, uint64, error) {
	b, err := l.start()
	if err != nil {
		return GTID{}, 0, err
	}
	g := GTID{Domain: l.domain, Server: b.Server, Seq: b.GTIDSeq}
	if !b.Set {
		g.Server = l.serverID
	}
	pos, first := b.Pos, b.Seq+1
	l.runs = b.Runs
	if ck, ok := l.readCheckpoint(b); ok {
		g, pos, first = ck.last, ck.end, ck.lastSeq+1
		l.runs, l.marks, l.ckSeq = ck.runs, ck.marks, ck.lastSeq
	}
	err = l.e.ReadChangeLog(first, func(seq uint64, rec []byte) bool {
		rg := recordGTID(rec)
		if seq%markEvery == 0 {
			l.marks = append(l.marks, mark{seq: seq, pos: pos, g: rg, prev: g})
		}
		if rg.Domain == l.domain {
			g = rg
			l.runs = addRun(l.runs, rg)
		}
		pos += uint64(len(rec))
		return true
	})
	return g, pos, err
}

// markEvery is the sparse index's step in feed numbers (a variable for
// the tests).
var markEvery uint64 = 1024

// mark is an entry of the sparse index: a record's feed number, where it
// starts, its GTID and the log's domain's last GTID before it.
type mark struct {
	seq, pos uint64
	g, prev  GTID
}

// markWhere returns the last mark of a record kept after b (not purged)
// for which ok holds, ok being true of a prefix of the marks; false when
// there is none.
func (l *Log) markWhere(b base, ok func(m mark) bool) (mark, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	i := sort.Search(len(l.marks), func(i int) bool { return !ok(l.marks[i]) })
	if i == 0 || l.marks[i-1].seq <= b.Seq {
		return mark{}, false
	}
	return l.marks[i-1], true
}

// GTIDPosition is the last GTID of the log's domain as text
// (domain-server-seq; "" before any): @@gtid_binlog_pos.
func (l *Log) GTIDPosition() (string, error) {
	g, _, err := l.Position()
	if err != nil || g.Seq == 0 {
		return "", err
	}
	return g.String(), nil
}

// PositionAfter returns where the log file ends after transaction seq
// (the position of a consistent snapshot that saw seq last).
func (l *Log) PositionAfter(seq uint64) (uint64, error) {
	l.mu.Lock()
	lastSeq, end := l.lastSeq, l.end
	l.mu.Unlock()
	if seq == lastSeq {
		return end, nil // (a snapshot of now: no log to read)
	}
	b, err := l.start()
	if err != nil {
		return 0, err
	}
	if seq < b.Seq {
		return 0, ErrGTID
	}
	pos, first := b.Pos, b.Seq+1
	if m, ok := l.markWhere(b, func(m mark) bool { return m.seq <= seq+1 }); ok {
		pos, first = m.pos, m.seq
	}
	err = l.e.ReadChangeLog(first, func(s uint64, rec []byte) bool {
		if s > seq {
			return false
		}
		pos += uint64(len(rec))
		return true
	})
	return pos, err
}

// GTIDAt returns the GTID position (domain-server-seq) of the log at
// pos of file: that of the last transaction ending at or before pos;
// "" before the first.
func (l *Log) GTIDAt(file string, pos uint64) (string, error) {
	if file != FileName {
		return "", ErrPosition
	}
	b, err := l.start()
	if err != nil {
		return "", err
	}
	if pos < b.Pos {
		return "", ErrPosition
	}
	if g, end, _ := l.Position(); pos == end && g.Seq != 0 {
		return g.String(), nil // (the log's end: no log to read)
	}
	at, last, first := b.Pos, GTID{Domain: l.domain, Server: b.Server, Seq: b.GTIDSeq}, b.Seq+1
	if m, ok := l.markWhere(b, func(m mark) bool { return m.pos <= pos }); ok {
		at, last, first = m.pos, m.prev, m.seq
	}
	err = l.e.ReadChangeLog(first, func(s uint64, rec []byte) bool {
		if at+uint64(len(rec)) > pos {
			return false
		}
		at += uint64(len(rec))
		if g := recordGTID(rec); g.Domain == l.domain {
			last = g
		}
		return true
	})
	if err != nil || last.Seq == 0 {
		return "", err
	}
	return last.String(), nil
}

// From is where a replica starts reading: after the transaction of GTID
// sequence Seq in the log's domain (GTID mode), or at Pos of File.
type From struct {
	// NonBlocking ends the dump at the log's end instead of waiting for
	// more (BINLOG_DUMP_NON_BLOCK: mariadb-binlog reading a log).
	NonBlocking bool
	GTID        bool
	Server      uint32 // the server id of the replica's GTID in the domain
	Seq         uint64
	File        string
	Pos         uint64
	// MySQL sends the log in MySQL's flavor (mysql.go); Set, when not
	// nil, is the MySQL replica's executed GTIDs (COM_BINLOG_DUMP_GTID):
	// the dump starts after the longest start of the log the set holds,
	// and skips the later transactions it holds, as a MySQL primary.
	MySQL bool
	Set   mysql.MysqlGTIDSet
	// Semi is the dump's semi-sync state when the replica acknowledges
	// (nil: it does not): the last event of what the dump has sent when
	// it catches up asks for an acknowledgement.
	Semi *SemiReplica
}

// ErrPosition is a start the log does not have.
var ErrPosition = errors.New("binlog: no such position in the binary log")

// ErrGTID is a replica's GTID position the log does not have: another
// server's transaction, or one past the log's last.
var ErrGTID = errors.New("binlog: the replica's GTID position is not in the binary log")

// ErrPurged is a replica's GTID position the log had and purged (it is
// also ErrGTID).
var ErrPurged = fmt.Errorf("%w: purged", ErrGTID)

// AheadError refuses a MySQL replica whose GTID set holds transactions
// of a HandlerDB server past the log's last: it has what this log lacks.
type AheadError struct{ Extra string }

func (e *AheadError) Error() string {
	return "binlog: the replica has transactions the log lacks: " + e.Extra
}

// Dump sends the log to a replica from from, as a MariaDB primary does
// (an artificial rotate, the format description, in GTID mode an
// artificial GTID list, then every transaction's events, each as it
// commits), and a heartbeat after every idle heartbeat (0: none), until
// ctx ends or send fails; a non-blocking dump returns nil at the log's
// end. send gets one event (valid during the call) and whether it asks
// the replica to acknowledge it (only with from.Semi);
// flush ends each run of events.
func (l *Log) Dump(ctx context.Context, from From, heartbeat time.Duration, send func(ev []byte, ack bool) error, flush func() error) error {
	start := uint64(magicLen)
	b, err := l.start()
	if err != nil {
		return err
	}
	if from.Set != nil {
		l.mu.Lock()
		runs, last := slices.Clone(l.runs), l.last
		l.mu.Unlock()
		if extra := aheadOf(from.Set, last.Seq); extra != "" {
			return &AheadError{Extra: extra}
		}
		g := coveredPrefix(runs, from.Set)
		from.GTID, from.Server, from.Seq = true, g.Server, g.Seq
	}
	// after: the feed number of the replica's last transaction (GTID mode).
	var after uint64
	if from.GTID && from.Seq > 0 {
		// The replica's last transaction must be in the log (its GTID
		// names the server that first committed it), or be the last one
		// purged. Most often its feed number is its GTID's (a log of this
		// server's own transactions): that record is read first, then
		// the whole log.
		want := GTID{Domain: l.domain, Server: from.Server, Seq: from.Seq}
		found := b.Set && from.Seq == b.GTIDSeq && from.Server == b.Server
		after = b.Seq
		look := func(first uint64, whole bool) error {
			return l.e.ReadChangeLog(first, func(seq uint64, rec []byte) bool {
				if recordGTID(rec) == want {
					found, after = true, seq
					return false
				}
				return whole
			})
		}
		if !found && from.Seq > b.Seq {
			if err := look(from.Seq, false); err != nil {
				return err
			}
		}
		if !found {
			// (from the last mark at or before the GTID: a domain's
			// numbers grow with the log; else the whole log)
			if m, ok := l.markWhere(b, func(m mark) bool { return m.g.Domain != l.domain || m.g.Seq <= from.Seq }); ok {
				if err := look(m.seq, true); err != nil {
					return err
				}
			}
		}
		if !found {
			if err := look(b.Seq+1, true); err != nil {
				return err
			}
		}
		if !found && b.Set && from.Seq <= b.GTIDSeq {
			return ErrPurged
		}
		if !found {
			return ErrGTID
		}
	} else if from.GTID && b.Set {
		return ErrPurged // (the replica wants the whole log)
	}
	if !from.GTID {
		if from.File != "" && from.File != FileName {
			return ErrPosition
		}
		start = max(from.Pos, magicLen)
	}
	if err := send(RotateEventTo(l.serverID, FileName, start, true), false); err != nil {
		return err
	}
	fde := FormatDescriptionEvent(l.created, l.serverID)
	if from.MySQL {
		fde = MySQLFormatDescriptionEvent(l.created, l.serverID)
	}
	if start == magicLen {
		SetPos(fde, magicLen+fdeLen)
	}
	SealFormatDescription(fde)
	if err := send(fde, false); err != nil {
		return err
	}
	if from.MySQL {
		// (the GTIDs before the log's first record, where MySQL's log
		// file has them)
		if start == magicLen {
			prev := PreviousGTIDsEventOf(l.created, l.serverID, mysqlSet(b.Runs))
			SetPos(prev, firstTxnPos)
			if err := send(prev, false); err != nil {
				return err
			}
		}
	} else if from.GTID {
		var list []GTID
		if from.Seq > 0 {
			list = []GTID{{Domain: l.domain, Server: from.Server, Seq: from.Seq}}
		}
		if err := send(GTIDListEventOf(0, l.serverID, list, true), false); err != nil {
			return err
		}
	} else if start == magicLen {
		gl := GTIDListEventOf(l.created, l.serverID, nil, false)
		SetPos(gl, firstTxnPos)
		if err := send(gl, false); err != nil {
			return err
		}
	}
	if from.Semi != nil && from.GTID {
		from.Semi.has(after)
	}
	// pos: where the next record starts; next: its number (from the
	// last mark before where the dump starts).
	pos, next := b.Pos, b.Seq+1
	if !from.GTID && (start > magicLen && start < b.Pos || start == magicLen && b.Set) {
		return ErrPosition
	}
	var m mark
	var ok bool
	if from.GTID {
		m, ok = l.markWhere(b, func(m mark) bool { return m.seq <= after+1 })
	} else {
		m, ok = l.markWhere(b, func(m mark) bool { return m.pos <= start })
	}
	if ok {
		pos, next = m.pos, m.seq
	}
	// Each transaction's last event is held back until the next one's
	// first goes, so the last event a pass sends is known and can ask a
	// semi-sync replica for its acknowledgement.
	var sendErr error
	var buf, held []byte
	var heldSeq uint64
	holding := false
	sendFrom := func() error {
		err := l.e.ReadChangeLog(next, func(seq uint64, rec []byte) bool {
			if seq != next {
				// The records the dump was to send next were purged
				// meanwhile: the replica would miss them.
				sendErr = ErrPurged
				return false
			}
			p := pos
			pos, next = pos+uint64(len(rec)), seq+1
			if from.GTID && seq <= after || !from.GTID && p < start {
				return true
			}
			if from.Set != nil {
				if g := recordGTID(rec); g.Domain == l.domain && setHas(from.Set, ServerUUID(g.Server), g.Seq) {
					return true // (a MySQL replica has it already)
				}
			}
			if holding {
				if sendErr = send(held, false); sendErr != nil {
					return false
				}
			}
			// (a copy: rec is the store's own bytes)
			if from.MySQL {
				buf = appendMySQL(buf[:0], rec, p, seq)
			} else {
				buf = appendPlaced(buf[:0], rec, p)
			}
			for evs := buf; len(evs) >= HeaderLen; {
				n := EventLen(evs)
				if len(evs) == n {
					held = append(held[:0], evs...)
					heldSeq, holding = seq, true
					break
				}
				if sendErr = send(evs[:n], false); sendErr != nil {
					return false
				}
				evs = evs[n:]
			}
			return true
		})
		if sendErr == nil && err == nil && holding {
			ack := from.Semi != nil && from.Semi.askAck(pos, heldSeq)
			sendErr, holding = send(held, ack), false
		}
		if sendErr != nil {
			return sendErr
		}
		if err != nil {
			return err
		}
		return flush()
	}
	for {
		l.mu.Lock()
		wake := l.wake
		l.mu.Unlock()
		if err := sendFrom(); err != nil {
			return err
		}
		if from.NonBlocking {
			return nil
		}
		var tick <-chan time.Time
		if heartbeat > 0 {
			tick = time.After(heartbeat)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-wake:
		case <-tick:
			hb := HeartbeatEventOf(l.serverID, FileName)
			SetPos(hb, uint32(pos))
			if err := send(hb, false); err != nil {
				return err
			}
			if err := flush(); err != nil {
				return err
			}
		}
	}
}

// appendPlaced appends the events of one stored transaction record,
// which starts at position at in the log, each with its log_pos set.
func appendPlaced(dst, rec []byte, at uint64) []byte {
	for len(rec) >= HeaderLen {
		n := EventLen(rec)
		if n < HeaderLen || n > len(rec) {
			break
		}
		start := len(dst)
		dst = append(dst, rec[:n]...)
		at += uint64(n)
		SetPos(dst[start:], uint32(at))
		rec = rec[n:]
	}
	return dst
}

// MySQLGTIDs are the log's GTIDs in MySQL's flavor as MySQL prints them:
// all it has logged, purged ones too (@@gtid_executed), and the purged
// ones (@@gtid_purged).
func (l *Log) MySQLGTIDs() (executed, purged string, err error) {
	b, err := l.start()
	if err != nil {
		return "", "", err
	}
	l.mu.Lock()
	s := mysqlSet(l.runs)
	l.mu.Unlock()
	return SetText(s), SetText(mysqlSet(b.Runs)), nil
}

// PurgeBefore deletes the transactions logged before t (by their GTID
// event's time) and returns how many; the log's positions and numbers
// stay those of the unpurged log, a replica wanting a purged transaction
// gets ErrGTID or ErrPosition.
func (l *Log) PurgeBefore(ctx context.Context, t time.Time) (int, error) {
	return l.purge(ctx, func(rec []byte, _ uint64) bool {
		return len(rec) < HeaderLen || int64(binary.LittleEndian.Uint32(rec)) >= t.Unix()
	})
}

// PurgeToSize purges the oldest transactions until the log, from its
// first kept transaction to its end, holds at most limit bytes
// (MariaDB 11.4's max_binlog_total_size); it returns how many it purged.
func (l *Log) PurgeToSize(ctx context.Context, limit uint64) (int, error) {
	_, end, err := l.Position()
	if err != nil {
		return 0, err
	}
	return l.purge(ctx, func(_ []byte, start uint64) bool { return end-start <= limit })
}

// purge deletes the records from the log's first one up to the first
// that keep says to keep (given the record and the position it starts
// at), and records where the log starts then; it returns how many it
// deleted.
func (l *Log) purge(ctx context.Context, keep func(rec []byte, start uint64) bool) (int, error) {
	l.purging.Lock()
	defer l.purging.Unlock()
	b, err := l.start()
	if err != nil {
		return 0, err
	}
	last, n := b, 0
	err = l.e.ReadChangeLog(b.Seq+1, func(seq uint64, rec []byte) bool {
		if keep(rec, last.Pos) {
			return false
		}
		g := recordGTID(rec)
		runs := last.Runs
		if g.Domain == l.domain {
			runs = addRun(runs, g)
		}
		last = base{Seq: seq, Server: g.Server, Pos: last.Pos + uint64(len(rec)), GTIDSeq: g.Seq, Runs: runs}
		n++
		return true
	})
	if err != nil || n == 0 {
		return 0, err
	}
	err = l.e.Update(engine.Privileged(ctx), func(tx *engine.Job) error {
		if err := tx.PurgeChangeLog(last.Seq + 1); err != nil {
			return err
		}
		return putBase(tx, last)
	})
	if err != nil {
		return 0, err
	}
	return n, nil
}

// Expire purges, every interval until ctx ends, the transactions logged
// more than keep ago (binlog_expire_logs_seconds; 0: none) and the
// oldest past limit bytes (max_binlog_total_size; 0: none).
func (l *Log) Expire(ctx context.Context, keep time.Duration, limit uint64, interval time.Duration) {
	for {
		if keep > 0 {
			_, _ = l.PurgeBefore(ctx, time.Now().Add(-keep))
		}
		if limit > 0 {
			_, _ = l.PurgeToSize(ctx, limit)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}
