package replica

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	gmysql "github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-mysql-org/go-mysql/replication"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The apply hot path without a server: the backlog of TestCatchUpSpeed
// (transactions of 1000 row changes on (id INT PRIMARY KEY, g INT NOT
// NULL, v VARCHAR(40), KEY g (g)): inserts, then updates and deletes of
// those rows) as go-mysql's decoded rows events, handed to an applier as
// the stream hands them (conversion, batching, the committer's engine
// jobs), into a fresh engine each round. The binlog's decoding is left
// out (go-mysql's, a small part of a catch-up's profile).
//
//	go test -run '^$' -bench BenchmarkApplyBacklog -benchtime 5x ./internal/replica/
//
// BenchmarkCopyLoad is the initial copy's write side: rows of
// TestCopySpeed's table converted and written by the loader in batches.

// benchBacklog is the row changes of one round.
const benchBacklog = 200_000

// benchTxnRows is the row changes of one primary transaction.
const benchTxnRows = 1000

func benchEngine(b *testing.B, dur engine.Durability, def *engine.TableDef) (*engine.Engine, *engine.Table) {
	b.Helper()
	e, err := engine.Open(engine.Options{Dir: b.TempDir(), Durability: dur})
	if err != nil {
		b.Fatal(err)
	}
	var t *engine.Table
	if err := e.Update(context.Background(), func(tx *engine.Job) error {
		if err := tx.CreateDatabase("rb"); err != nil {
			return err
		}
		t, err = tx.CreateTable("rb", def)
		return err
	}); err != nil {
		b.Fatal(err)
	}
	return e, t
}

func benchVarchar(n uint32) types.Type {
	return types.Type{Kind: types.VarChar, Length: n, Collation: collation.Default}
}

// backlogEvents builds the rows events of n row changes, as go-mysql
// decodes them (INT as int32, VARCHAR as string).
func backlogEvents(n int) []*replication.RowsEvent {
	tm := &replication.TableMapEvent{Schema: []byte("rb"), Table: []byte("t")}
	var evs []*replication.RowsEvent
	inserts := n / 2
	for i := 0; i < inserts; i += benchTxnRows {
		ev := &replication.RowsEvent{Table: tm}
		for id := i + 1; id <= i+benchTxnRows; id++ {
			ev.Rows = append(ev.Rows, []any{int32(id), int32(id % 1000), fmt.Sprintf("v%d", id)})
		}
		evs = append(evs, ev)
	}
	for i := 0; i < n-inserts; i += benchTxnRows {
		ev := &replication.RowsEvent{Table: tm}
		for id := i + 1; id <= i+benchTxnRows; id++ {
			before := []any{int32(id), int32(id % 1000), fmt.Sprintf("v%d", id)}
			if i%(2*benchTxnRows) == 0 {
				ev.Rows = append(ev.Rows, before, []any{int32(id), int32(id%1000 + 1), "u"})
			} else {
				ev.Rows = append(ev.Rows, before)
			}
		}
		evs = append(evs, ev)
	}
	return evs
}

func BenchmarkApplyBacklog(b *testing.B) {
	for _, dur := range []engine.Durability{engine.DurabilityNone, engine.DurabilitySync} {
		b.Run(dur.String(), func(b *testing.B) { benchApplyBacklog(b, dur) })
	}
}

func benchApplyBacklog(b *testing.B, dur engine.Durability) {
	evs := backlogEvents(benchBacklog)
	def := &engine.TableDef{Name: "t",
		Columns: []types.Column{
			{Name: "id", Type: types.Type{Kind: types.Int}},
			{Name: "g", Type: types.Type{Kind: types.Int}},
			{Name: "v", Type: benchVarchar(40), Nullable: true},
		},
		Indexes: []engine.IndexDef{{Primary: true, Columns: []string{"id"}}, {Name: "g", Columns: []string{"g"}}}}
	ctx := context.Background()
	var cpu time.Duration
	var writer atomic.Int64
	for b.Loop() {
		b.StopTimer()
		e, t := benchEngine(b, dur, def)
		e.SetGroupHook(func(g engine.GroupStats) { writer.Add(int64(g.Duration)) })
		r := &Replica{e: e}
		a := newApplier(ctx, r, &source{}, position{Flavor: gmysql.MariaDBFlavor}, false)
		cpu0 := processCPU()
		b.StartTimer()
		for k, re := range evs {
			typ := replication.WRITE_ROWS_EVENTv1
			switch {
			case k >= len(evs)/2 && len(re.Rows) == 2*benchTxnRows:
				typ = replication.UPDATE_ROWS_EVENTv1
			case k >= len(evs)/2:
				typ = replication.DELETE_ROWS_EVENTv1
			}
			ev := &replication.BinlogEvent{Header: &replication.EventHeader{EventType: typ, LogPos: uint32(k + 4)}, Event: re}
			a.begin("")
			if err := a.event(ctx, ev); err != nil {
				b.Fatal(err)
			}
			if err := a.commit(ctx, ev); err != nil {
				b.Fatal(err)
			}
			if a.full() {
				if err := a.flush(ctx); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := a.settle(ctx); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += processCPU() - cpu0
		a.cm.close()
		if got, err := e.RowCount(t); err != nil || got != int64(benchBacklog/4) {
			b.Fatalf("%d rows after the backlog (%v), want %d", got, err, benchBacklog/4)
		}
		e.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(benchBacklog)*float64(b.N)/b.Elapsed().Seconds(), "changes/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(benchBacklog*b.N), "cpu-ns/change")
	b.ReportMetric(float64(writer.Load())/float64(benchBacklog*b.N), "writer-ns/change")
}

// benchCopyRows is the rows of one round of BenchmarkCopyLoad.
const benchCopyRows = 200_000

func BenchmarkCopyLoad(b *testing.B) {
	def := &engine.TableDef{Name: "t",
		Columns: []types.Column{
			{Name: "id", Type: types.Type{Kind: types.Int}},
			{Name: "g", Type: types.Type{Kind: types.Int}},
			{Name: "v", Type: benchVarchar(40), Nullable: true},
			{Name: "d", Type: types.Type{Kind: types.DateTime}, Nullable: true},
		},
		Indexes: []engine.IndexDef{{Primary: true, Columns: []string{"id"}}, {Name: "g", Columns: []string{"g"}}}}
	// The values as the binary protocol's rows give them.
	src := make([][]any, benchCopyRows)
	for i := range src {
		id := i + 1
		src[i] = []any{int64(id), int64(id % 1000), []byte(fmt.Sprintf("value %d", id)),
			[]byte(fmt.Sprintf("2024-01-%02d %02d:%02d:%02d", 1+id/86400%28, id/3600%24, id/60%60, id%60))}
	}
	ctx := context.Background()
	var cpu time.Duration
	var writer atomic.Int64
	for b.Loop() {
		b.StopTimer()
		e, t := benchEngine(b, engine.DurabilitySync, def)
		e.SetGroupHook(func(g engine.GroupStats) { writer.Add(int64(g.Duration)) })
		cpu0 := processCPU()
		b.StartTimer()
		ld := newLoader(ctx, e, func(int) {})
		var batch []engine.Row
		for _, vals := range src {
			row, err := convertRow(t, vals, nil)
			if err != nil {
				b.Fatal(err)
			}
			if batch = append(batch, row); len(batch) == copyBatchRows {
				if err := ld.load(t, batch); err != nil {
					b.Fatal(err)
				}
				batch = nil
			}
		}
		if err := ld.load(t, batch); err != nil {
			b.Fatal(err)
		}
		if err := ld.close(); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		cpu += processCPU() - cpu0
		if got, err := e.RowCount(t); err != nil || got != benchCopyRows {
			b.Fatalf("%d rows copied (%v), want %d", got, err, benchCopyRows)
		}
		e.Close()
		b.StartTimer()
	}
	b.ReportMetric(float64(benchCopyRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	b.ReportMetric(float64(cpu.Nanoseconds())/float64(benchCopyRows*b.N), "cpu-ns/row")
	b.ReportMetric(float64(writer.Load())/float64(benchCopyRows*b.N), "writer-ns/row")
}
