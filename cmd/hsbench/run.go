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

// runOnce runs the workload against one target and measures it, in
// phases: plan the ids, open the workers' connections, warm up, measure,
// and sum up the result.
func runOnce(ctx context.Context, o *options, spec string) (*result, error) {
	tgt, err := openTarget(ctx, o, spec)
	if err != nil {
		return nil, err
	}
	defer tgt.close()
	s, err := planIDs(ctx, o, tgt)
	if err != nil {
		return nil, err
	}
	workers, err := openWorkers(ctx, o, tgt)
	if err != nil {
		return nil, err
	}
	defer closeWorkers(workers)
	s.startClock(o)
	base := &baseline{tgt: tgt, serverPID: o.serverPID}
	stopWarmup := base.takeAfterWarmup(o.warmup)
	defer stopWarmup()
	finish := measure(ctx, o, s, workers)
	base.take() // a run shorter than its warmup
	res := collectResult(o, tgt, workers, s, base, finish)
	if err := ctx.Err(); err != nil && res.Ops == 0 {
		return nil, err
	}
	return res, nil
}

// planIDs returns the shared state of a run with its first ids: inserts
// start after the table's highest id (and after --keys), so that runs one
// after the other do not collide; deletes walk the key space from 1.
func planIDs(ctx context.Context, o *options, tgt target) (*loopState, error) {
	maxID, err := tgt.maxID(ctx)
	if err != nil {
		return nil, fmt.Errorf("%s: reading the highest id: %w", tgt.kind(), err)
	}
	s := &loopState{seq: new(atomic.Int64), remaining: new(atomic.Int64),
		nextInsert: new(atomic.Int64), nextDelete: new(atomic.Int64)}
	s.nextInsert.Store(max(maxID, o.keys) + 1)
	s.nextDelete.Store(1)
	return s, nil
}

// openWorkers opens one connection per worker (--conns), each worker with
// its own random source from --seed; on an error it closes the
// connections it opened.
func openWorkers(ctx context.Context, o *options, tgt target) ([]*worker, error) {
	workers := make([]*worker, o.conns)
	for i := range workers {
		c, err := tgt.open(ctx)
		if err != nil {
			closeWorkers(workers[:i])
			return nil, fmt.Errorf("%s: connecting: %w", tgt.kind(), err)
		}
		w := &worker{interval: newHist(), total: newHist(), conn: c,
			rng: rand.New(rand.NewPCG(uint64(o.seed), uint64(i)))}
		if o.keyDist == "zipf" {
			w.zipf = rand.NewZipf(w.rng, o.zipfS, 1, uint64(o.keys-1))
		}
		workers[i] = w
	}
	return workers, nil
}

// closeWorkers closes the workers' connections.
func closeWorkers(workers []*worker) {
	for _, w := range workers {
		w.conn.close()
	}
}

// startClock starts the run now: the warm-up (--warmup), then the
// measured part, which ends after --duration or, with --requests, when
// that many requests are measured; with --rate it spaces the batches.
func (s *loopState) startClock(o *options) {
	s.start = time.Now()
	s.measureStart = s.start.Add(o.warmup)
	if o.requests == 0 {
		s.end = s.measureStart.Add(o.duration)
	}
	s.remaining.Store(o.requests)
	if o.rate > 0 {
		s.batchInterval = time.Duration(float64(time.Second) * float64(o.pipeline) / o.rate)
	}
}

// baseline holds the counters at the start of the measured part of a run.
type baseline struct {
	tgt       target
	serverPID int // --server-pid, 0 for none

	once  sync.Once
	at    time.Time
	bytes int64
	cpu   float64
	cpuOK bool
}

// take reads the counters the first time it is called.
func (b *baseline) take() {
	b.once.Do(func() {
		b.at = time.Now()
		b.bytes = b.tgt.wireBytes()
		if b.serverPID > 0 {
			b.cpu, b.cpuOK = cpuSeconds(b.serverPID)
		}
	})
}

// takeAfterWarmup takes the baseline once the warm-up has passed, at once
// when there is none; the returned func cancels a baseline not taken yet.
func (b *baseline) takeAfterWarmup(warmup time.Duration) (cancel func()) {
	if warmup == 0 {
		b.take()
		return func() {}
	}
	t := time.AfterFunc(warmup, b.take)
	return func() { t.Stop() }
}

// measure runs the workers until the run ends, printing a line per second
// unless --quiet, and returns the time the last worker stopped.
func measure(ctx context.Context, o *options, s *loopState, workers []*worker) (finish time.Time) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w.loop(runCtx, o, s)
		}()
	}
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	if !o.quiet {
		printEachSecond(o, s, workers, done)
	}
	<-done
	return time.Now()
}

// printEachSecond prints the line of every second of the run (see
// printInterval) until done is closed.
func printEachSecond(o *options, s *loopState, workers []*worker, done <-chan struct{}) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	last := s.start
	for {
		select {
		case <-done:
			return
		case now := <-tick.C:
			printInterval(o, workers, now.Sub(s.start), now.Sub(last), last.Before(s.measureStart))
			last = now
		}
	}
}

// collectResult merges the workers' measurements into the run's result:
// ops, errors and latencies, over the measured seconds (up to the planned
// end when the workers stopped after it), with the wire bytes and the
// server's CPU time since the baseline.
func collectResult(o *options, tgt target, workers []*worker, s *loopState, base *baseline, finish time.Time) *result {
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
	if !s.end.IsZero() && finish.After(s.end) {
		elapsed = s.end.Sub(base.at)
	}
	res.Seconds = elapsed.Seconds()
	res.WireBytes = tgt.wireBytes() - base.bytes
	if base.cpuOK {
		if cpu, ok := cpuSeconds(base.serverPID); ok && res.Ops > 0 {
			res.ServerCPUSeconds = cpu - base.cpu
			v := res.ServerCPUSeconds / float64(res.Ops) * 1e9
			res.ServerCPUNsPerOp = &v
		}
	}
	res.finish()
	return res
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
