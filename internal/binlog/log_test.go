package binlog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// logged is an engine writing its binary log, with a table p.t (id INT
// PRIMARY KEY).
type logged struct {
	e *engine.Engine
	l *Log
	t *engine.Table
}

// openLogged opens an engine in a temporary directory with a binary log
// as server id and makes p.t, in a job that logs stmt when it is set;
// both close when the test ends.
func openLogged(t *testing.T, id uint32, stmt string) *logged {
	t.Helper()
	e, err := engine.Open(engine.Options{Dir: t.TempDir(), Durability: engine.DurabilityNone})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	l, err := Open(e, id)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(l.Close)
	x := &logged{e: e, l: l}
	if err := e.Update(context.Background(), func(tx *engine.Job) error {
		if stmt != "" {
			tx.LogStatement("p", stmt)
		}
		if err := tx.CreateDatabase("p"); err != nil {
			return err
		}
		x.t, err = tx.CreateTable("p", &engine.TableDef{Name: "t", Columns: []types.Column{{Name: "id", Type: types.Type{Kind: types.Int}}},
			Indexes: []engine.IndexDef{{Primary: true, Columns: []string{"id"}}}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return x
}

// insert commits a row of p.t.
func (x *logged) insert(t *testing.T, id int64) {
	t.Helper()
	if err := x.e.Update(context.Background(), func(tx *engine.Job) error {
		_, err := tx.Insert(x.t, engine.Row{{I: id}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
}

// dumped is what a non-blocking dump from from sends: the GTIDs of its
// transactions and the log_pos of each event.
func dumped(t *testing.T, l *Log, from From) ([]string, []uint32, error) {
	t.Helper()
	from.NonBlocking = true
	var gtids []string
	var ends []uint32
	err := l.Dump(context.Background(), from, 0, func(ev []byte, _ bool) error {
		if ev[4] == GTIDEvent {
			gtids = append(gtids, fmt.Sprintf("0-%d-%d", binary.LittleEndian.Uint32(ev[5:]), binary.LittleEndian.Uint64(ev[HeaderLen:])))
		}
		ends = append(ends, binary.LittleEndian.Uint32(ev[13:]))
		return nil
	}, func() error { return nil })
	return gtids, ends, err
}

// TestPurgeKeepsPositions: after a purge the log keeps its numbers and
// positions (SHOW MASTER STATUS does not move, a dump from after the
// purge gets the same events at the same positions), and a replica that
// wants a purged transaction is refused.
func TestPurgeKeepsPositions(t *testing.T) {
	x := openLogged(t, 1, "")
	l, insert := x.l, func(id int64) { x.insert(t, id) }
	for id := range int64(5) {
		insert(id)
	}
	g5, pos5, err := l.Position()
	if err != nil || g5.Seq != 5 {
		t.Fatalf("position %v %d %v", g5, pos5, err)
	}
	_, before, err := dumped(t, l, From{GTID: true, Server: 1, Seq: 3})
	if err != nil {
		t.Fatal(err)
	}
	if n, err := l.PurgeBefore(context.Background(), time.Now().Add(time.Hour)); err != nil || n != 5 {
		t.Fatalf("purged %d: %v", n, err)
	}
	if g, pos, err := l.Position(); err != nil || g != g5 || pos != pos5 {
		t.Fatalf("after the purge: %v %d %v, want %v %d", g, pos, err, g5, pos5)
	}
	insert(5)
	insert(6)
	gtids, ends, err := dumped(t, l, From{GTID: true, Server: 1, Seq: 5})
	if err != nil || fmt.Sprint(gtids) != "[0-1-6 0-1-7]" {
		t.Fatalf("from 0-1-5 after the purge: %v %v", gtids, err)
	}
	// The first events (rotate, format description, GTID list) have
	// positions of their own; the transactions' run on from pos5.
	if tail := ends[3:]; tail[0] <= uint32(pos5) || len(before) < 3 {
		t.Fatalf("positions after the purge %v, before %v (from %d)", ends, before, pos5)
	}
	for _, from := range []From{{GTID: true, Server: 1, Seq: 3}, {GTID: true}, {Pos: 4}, {Pos: 300}} {
		if _, _, err := dumped(t, l, from); !errors.Is(err, ErrGTID) && !errors.Is(err, ErrPosition) {
			t.Errorf("dump from %+v after the purge: %v, want refused", from, err)
		}
	}
	if gtids, _, err := dumped(t, l, From{Pos: pos5}); err != nil || fmt.Sprint(gtids) != "[0-1-6 0-1-7]" {
		t.Errorf("from position %d: %v %v", pos5, gtids, err)
	}
	if g, err := l.GTIDAt(FileName, pos5); err != nil || g != "0-1-5" {
		t.Errorf("GTIDAt the purge's end: %q %v", g, err)
	}
}

// TestPositionKeptInMemory: the end Position keeps as transactions commit
// equals the one a reopened log reads from the store, and each dump of
// the whole log ends there.
func TestPositionKeptInMemory(t *testing.T) {
	x := openLogged(t, 3, "CREATE TABLE t (id INT PRIMARY KEY)")
	for id := range int64(20) {
		x.insert(t, id)
	}
	g, end, err := x.l.Position()
	if err != nil || g != (GTID{Server: 3, Seq: 21}) {
		t.Fatalf("position %v %d %v", g, end, err)
	}
	_, ends, err := dumped(t, x.l, From{Pos: 4})
	if err != nil || uint64(ends[len(ends)-1]) != end {
		t.Fatalf("a dump ends at %v, Position says %d (%v)", ends[len(ends)-1:], end, err)
	}
	x.l.Close()
	l2, err := Open(x.e, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if g2, end2, err := l2.Position(); err != nil || g2 != g || end2 != end {
		t.Fatalf("reopened: %v %d %v, want %v %d", g2, end2, err, g, end)
	}
}

// TestDumpStopsAtPurgedRecords: a dump whose next records are purged
// while it waits (its replica lagging behind the retention) ends with
// ErrPurged instead of sending what follows them: the replica would
// miss transactions without knowing.
func TestDumpStopsAtPurgedRecords(t *testing.T) {
	x := openLogged(t, 1, "")
	x.insert(t, 1)
	hold := make(chan struct{})
	sent := make(chan struct{}, 100)
	done := make(chan error, 1)
	go func() {
		first := true
		done <- x.l.Dump(context.Background(), From{GTID: true}, 0, func(ev []byte, _ bool) error {
			if ev[4] == XIDEvent && first {
				first = false
				sent <- struct{}{}
				<-hold // (the replica is slow)
			}
			return nil
		}, func() error { return nil })
	}()
	<-sent
	for id := int64(2); id <= 4; id++ {
		x.insert(t, id)
	}
	if n, err := x.l.PurgeBefore(context.Background(), time.Now().Add(time.Hour)); err != nil || n != 4 {
		t.Fatalf("purged %d: %v", n, err)
	}
	x.insert(t, 5)
	close(hold)
	select {
	case err := <-done:
		if !errors.Is(err, ErrPurged) {
			t.Fatalf("the dump ended with %v, want ErrPurged", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the dump went on past purged records")
	}
}

// TestPurgeToSize: the oldest transactions go until the log holds at
// most the limit; what stays keeps its positions.
func TestPurgeToSize(t *testing.T) {
	x := openLogged(t, 1, "")
	for id := range int64(10) {
		x.insert(t, id)
	}
	_, end, _ := x.l.Position()
	rows, err := x.l.ShowEvents(context.Background(), "", 0, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	// Each transaction is 4 events; keep the last three.
	keepFrom := rows[len(rows)-12].Pos
	n, err := x.l.PurgeToSize(context.Background(), end-keepFrom)
	if err != nil || n != 7 {
		t.Fatalf("purged %d (%v), want 7", n, err)
	}
	after, err := x.l.ShowEvents(context.Background(), "", 0, 0, -1)
	if err != nil || len(after) != 12 || after[0] != rows[len(rows)-12] {
		t.Fatalf("after the purge: %d events from %+v (%v)", len(after), after[0], err)
	}
	if n, err := x.l.PurgeToSize(context.Background(), end-keepFrom); err != nil || n != 0 {
		t.Fatalf("a second purge to the same size purged %d (%v)", n, err)
	}
}

// TestSparseMarks: with a mark every 3 transactions (built at Open and as
// groups commit), a dump from each transaction's position, a dump from
// each GTID, PositionAfter of each number and GTIDAt of each position
// give what reading the whole log gives; so do the other tests of the
// package.
func TestSparseMarks(t *testing.T) {
	defer func(n uint64) { markEvery = n }(markEvery)
	markEvery = 3
	for name, fn := range map[string]func(*testing.T){
		"PurgeKeepsPositions": TestPurgeKeepsPositions, "ShowEvents": TestShowEvents, "PositionKeptInMemory": TestPositionKeptInMemory,
		"DumpStopsAtPurgedRecords": TestDumpStopsAtPurgedRecords, "PurgeToSize": TestPurgeToSize,
	} {
		t.Run(name, fn)
	}
	x := openLogged(t, 4, "")
	for id := range int64(10) {
		x.insert(t, id)
	}
	check := func(l *Log) {
		t.Helper()
		gtids, ends, err := dumped(t, l, From{Pos: 4})
		if err != nil {
			t.Fatal(err)
		}
		// ends[0..2]: rotate, format description, GTID list; then 4 events
		// a transaction: GTID, table map, rows, XID.
		txEnd := func(i int) uint64 { return uint64(ends[3+4*i+3]) }
		txStart := func(i int) uint64 {
			if i == 0 {
				return uint64(ends[2])
			}
			return txEnd(i - 1)
		}
		for i := range gtids {
			got, _, err := dumped(t, l, From{Pos: txStart(i)})
			if err != nil || fmt.Sprint(got) != fmt.Sprint(gtids[i:]) {
				t.Fatalf("from position %d: %v %v, want %v", txStart(i), got, err, gtids[i:])
			}
			if i+1 < len(gtids) {
				got, _, err = dumped(t, l, From{GTID: true, Server: 4, Seq: uint64(i + 1)})
				if err != nil || fmt.Sprint(got) != fmt.Sprint(gtids[i+1:]) {
					t.Fatalf("from GTID %s: %v %v", gtids[i], got, err)
				}
			}
			if p, err := l.PositionAfter(uint64(i + 1)); err != nil || p != txEnd(i) {
				t.Fatalf("PositionAfter(%d) = %d %v, want %d", i+1, p, err, txEnd(i))
			}
			if g, err := l.GTIDAt(FileName, txEnd(i)); err != nil || g != gtids[i] {
				t.Fatalf("GTIDAt(%d) = %q %v, want %s", txEnd(i), g, err, gtids[i])
			}
		}
	}
	check(x.l)
	x.l.Close()
	l2, err := Open(x.e, 4) // (its marks read at Open)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	check(l2)
}
