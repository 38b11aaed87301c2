package main

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/HdrHistogram/hdrhistogram-go"
)

// Latencies are recorded in nanoseconds, from 1 ns to 1 minute, with 3
// significant digits.
const (
	histMin  = 1
	histMax  = int64(time.Minute)
	histSigF = 3
)

func newHist() *hdrhistogram.Histogram { return hdrhistogram.New(histMin, histMax, histSigF) }

// worker is one connection's loop and its measurements.
type worker struct {
	mu       sync.Mutex
	interval *hdrhistogram.Histogram // since the last per-second line
	total    *hdrhistogram.Histogram // the measured part of the run
	iops     int64                   // ops and errors since the last line
	ierrs    int64
	ops      int64 // measured ops and errors
	errs     int64

	conn    targetConn
	rng     *rand.Rand
	zipf    *rand.Zipf
	scratch []op
}

// runOnce runs the workload against one target and measures it.
func runOnce(ctx context.Context, o *options, spec string) (*result, error) {
	tgt, err := openTarget(ctx, o, spec)
	if err != nil {
		return nil, err
	}
	defer tgt.close()
	// ids for inserts start after the table's highest id, so that runs
	// one after the other do not collide; deletes walk the key space
	var nextInsert, nextDelete atomic.Int64
	maxID, err := tgt.maxID(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: reading the highest id: %w", tgt.kind(), err)
	}
	nextInsert.Store(max(maxID, o.keys) + 1)
	nextDelete.Store(1)

	workers := make([]*worker, o.conns)
	for i := range workers {
		c, err := tgt.open(ctx)
		if err != nil {
			for _, w := range workers[:i] {
				w.conn.close()
			}
			return nil, fmt.Errorf("%s: connecting: %w", tgt.kind(), err)
		}
		w := &worker{interval: newHist(), total: newHist(), conn: c,
			rng: rand.New(rand.NewPCG(uint64(o.seed), uint64(i)))}
		if o.keyDist == "zipf" {
			w.zipf = rand.NewZipf(w.rng, o.zipfS, 1, uint64(o.keys-1))
		}
		workers[i] = w
	}
	defer func() {
		for _, w := range workers {
			w.conn.close()
		}
	}()

	start := time.Now()
	measureStart := start.Add(o.warmup)
	var end time.Time
	if o.requests == 0 {
		end = measureStart.Add(o.duration)
	}
	var remaining atomic.Int64
	remaining.Store(o.requests)
	var batchInterval time.Duration
	if o.rate > 0 {
		batchInterval = time.Duration(float64(time.Second) * float64(o.pipeline) / o.rate)
	}
	var seq atomic.Int64

	// the counters at the start of the measured part
	var base struct {
		once  sync.Once
		at    time.Time
		bytes int64
		cpu   float64
		cpuOK bool
	}
	snapshot := func() {
		base.once.Do(func() {
			base.at = time.Now()
			base.bytes = tgt.wireBytes()
			if o.serverPID > 0 {
				base.cpu, base.cpuOK = cpuSeconds(o.serverPID)
			}
		})
	}
	if o.warmup == 0 {
		snapshot()
	} else {
		t := time.AfterFunc(o.warmup, snapshot)
		defer t.Stop()
	}

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop(runCtx, o, &loopState{
				start: start, measureStart: measureStart, end: end, batchInterval: batchInterval,
				seq: &seq, remaining: &remaining, nextInsert: &nextInsert, nextDelete: &nextDelete,
			})
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	if !o.quiet {
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		last := start
	loop:
		for {
			select {
			case <-done:
				break loop
			case now := <-tick.C:
				printInterval(o, workers, now.Sub(start), now.Sub(last), last.Before(measureStart))
				last = now
			}
		}
	}
	<-done
	finish := time.Now()
	snapshot() // a run shorter than its warmup
	res := &result{
		Target: tgt.kind(), Workload: o.workloadName(), Conns: o.conns, Pipeline: o.pipeline,
		Rate: o.rate, Keys: o.keys, KeyDist: o.keyDist, ValueSize: o.valueSize,
		hist: newHist(),
	}
	for _, w := range workers {
		w.mu.Lock()
		res.hist.Merge(w.total)
		res.Ops += w.ops
		res.Errors += w.errs
		w.mu.Unlock()
	}
	elapsed := finish.Sub(base.at)
	if !end.IsZero() && finish.After(end) {
		elapsed = end.Sub(base.at)
	}
	res.Seconds = elapsed.Seconds()
	res.WireBytes = tgt.wireBytes() - base.bytes
	if base.cpuOK {
		if cpu, ok := cpuSeconds(o.serverPID); ok && res.Ops > 0 {
			res.ServerCPUSeconds = cpu - base.cpu
			v := res.ServerCPUSeconds / float64(res.Ops) * 1e9
			res.ServerCPUNsPerOp = &v
		}
	}
	res.finish()
	if err := ctx.Err(); err != nil && res.Ops == 0 {
		return nil, err
	}
	return res, nil
}

// loopState is shared by the workers of a run.
type loopState struct {
	start, measureStart, end time.Time
	batchInterval            time.Duration // open loop: time between batches
	seq                      *atomic.Int64 // open loop: batches scheduled
	remaining                *atomic.Int64 // --requests: measured ops left
	nextInsert, nextDelete   *atomic.Int64
}

// loop sends batches until the run ends.
func (w *worker) loop(ctx context.Context, o *options, s *loopState) {
	for ctx.Err() == nil {
		var intended time.Time
		if s.batchInterval > 0 {
			intended = s.start.Add(time.Duration(s.seq.Add(1)-1) * s.batchInterval)
			if !s.end.IsZero() && !intended.Before(s.end) {
				return
			}
			if d := time.Until(intended); d > 0 {
				t := time.NewTimer(d)
				select {
				case <-ctx.Done():
					t.Stop()
					return
				case <-t.C:
				}
			}
		} else {
			intended = time.Now()
			if !s.end.IsZero() && !intended.Before(s.end) {
				return
			}
		}
		measured := !intended.Before(s.measureStart)
		n := o.pipeline
		if measured && o.requests > 0 {
			if n = claim(s.remaining, n); n == 0 {
				return
			}
		}
		ops := w.batch(o, s, n)
		failed := w.conn.do(ctx, ops)
		lat := time.Since(intended)
		w.mu.Lock()
		w.interval.RecordValues(min(lat.Nanoseconds(), histMax), int64(n))
		w.iops += int64(n)
		w.ierrs += int64(failed)
		if measured {
			w.total.RecordValues(min(lat.Nanoseconds(), histMax), int64(n))
			w.ops += int64(n)
			w.errs += int64(failed)
		}
		w.mu.Unlock()
	}
}

// claim takes up to n of the remaining requests.
func claim(remaining *atomic.Int64, n int) int {
	for {
		r := remaining.Load()
		if r <= 0 {
			return 0
		}
		k := min(int64(n), r)
		if remaining.CompareAndSwap(r, r-k) {
			return int(k)
		}
	}
}

// batch builds the next n requests.
func (w *worker) batch(o *options, s *loopState, n int) []op {
	ops := w.scratch[:0]
	for i := 0; i < n; i++ {
		var x op
		switch o.workload {
		case "get":
			x = op{opGet, w.key(o)}
		case "range":
			x = op{opRange, w.key(o)}
		case "update":
			x = op{opUpdate, w.key(o)}
		case "insert":
			x = op{opInsert, s.nextInsert.Add(1) - 1}
		case "delete":
			x = op{opDelete, s.nextDelete.Add(1) - 1}
		case "mixed":
			if w.rng.Float64() < o.readRatio {
				x = op{opGet, w.key(o)}
			} else {
				x = op{opUpdate, w.key(o)}
			}
		}
		ops = append(ops, x)
	}
	w.scratch = ops
	return ops
}

// key draws a key in 1..keys.
func (w *worker) key(o *options) int64 {
	if w.zipf != nil {
		return int64(w.zipf.Uint64()) + 1
	}
	return w.rng.Int64N(o.keys) + 1
}

// printInterval prints the line of the last second and resets the
// interval counters; warmup marks a second that was (partly) warm-up.
func printInterval(o *options, workers []*worker, at, span time.Duration, warmup bool) {
	h := newHist()
	var ops, errs int64
	for _, w := range workers {
		w.mu.Lock()
		h.Merge(w.interval)
		w.interval.Reset()
		ops += w.iops
		errs += w.ierrs
		w.iops, w.ierrs = 0, 0
		w.mu.Unlock()
	}
	phase := ""
	if warmup {
		phase = " (warmup)"
	}
	fmt.Fprintf(o.stderr, "%6.1fs %10.0f ops/s  p50 %9s  p99 %9s  max %9s  errors %d%s\n",
		at.Seconds(), float64(ops)/span.Seconds(),
		fmtDur(h.ValueAtQuantile(50)), fmtDur(h.ValueAtQuantile(99)), fmtDur(h.Max()), errs, phase)
}
