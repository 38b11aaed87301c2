package engine

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// job is one Update call waiting for the writer.
type job struct {
	ctx  context.Context
	fn   func(*Job) error
	err  error
	done chan struct{}
}

var jobPool = sync.Pool{New: func() any { return &job{done: make(chan struct{}, 1)} }}

// GroupStats describes one group commit, for metrics.
type GroupStats struct {
	Jobs     int           // jobs in the group
	Bytes    int           // bytes committed
	Duration time.Duration // applying the jobs and committing
	Failed   bool          // the commit failed
}

// writer is the single goroutine that applies and commits every change.
type writer struct {
	e    *Engine
	ch   chan *job
	quit chan struct{}
	done chan struct{}
	jobs []*job
	tx   Job

	onGroup atomic.Pointer[func(GroupStats)]
}

func (w *writer) start(e *Engine) {
	w.e = e
	w.ch = make(chan *job, 4096)
	w.quit = make(chan struct{})
	w.done = make(chan struct{})
	go w.run()
}

func (w *writer) stop() {
	close(w.quit)
	<-w.done
}

// SetGroupHook installs a function the writer goroutine calls after every
// group commit (for metrics); nil removes it. Safe for concurrent use.
func (e *Engine) SetGroupHook(fn func(GroupStats)) {
	if fn == nil {
		e.w.onGroup.Store(nil)
		return
	}
	e.w.onGroup.Store(&fn)
}

// Update runs fn as one job of the writer and returns when the group that
// holds it has committed (durably in DurabilitySync). Inside fn, tx reads
// see every earlier job's writes, including uncommitted ones of the same
// group. If fn returns an error (or panics), every write it made is
// discarded and Update returns that error; the rest of the group commits.
// If the commit itself fails, every job of the group gets that error.
//
// fn runs on the writer goroutine while the caller waits: it must not block
// on anything but the engine, and must not call Update. A ctx that is done
// before the job starts skips it.
func (e *Engine) Update(ctx context.Context, fn func(tx *Job) error) error {
	e.mu.RLock()
	if e.closed {
		e.mu.RUnlock()
		return ErrClosed
	}
	e.pending.Add(1)
	e.mu.RUnlock()
	defer e.pending.Done()

	j := jobPool.Get().(*job)
	j.ctx, j.fn = ctx, fn
	e.w.ch <- j
	<-j.done
	err := j.err
	*j = job{done: j.done}
	jobPool.Put(j)
	return err
}

// run is the writer goroutine. Group forming: the callers a group commit
// releases usually come straight back with their next job, while the jobs
// queued during that commit are already waiting. Starting the next group
// at once would split the callers into two cohorts that alternate, each
// group holding half of them. So after releasing n callers with q jobs
// queued, the next group waits (at most a quarter of the last commit's
// duration, so only when commits are slow, i.e. fsync) until it holds
// q+n jobs. With one caller, or fast commits, it never waits.
func (w *writer) run() {
	defer close(w.done)
	max := w.e.opts.MaxGroupJobs
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	expect := 0
	var lastCommit time.Duration
	for {
		select {
		case j := <-w.ch:
			w.jobs = append(w.jobs[:0], j)
		case <-w.quit:
			return
		}
		w.drain(max)
		if want := min(expect, max); len(w.jobs) < want && lastCommit > 20*time.Microsecond {
			timer.Reset(min(lastCommit/4, 2*time.Millisecond))
		wait:
			for len(w.jobs) < want {
				select {
				case j := <-w.ch:
					w.jobs = append(w.jobs, j)
					w.drain(max)
				case <-timer.C:
					break wait
				}
			}
			timer.Stop()
		}
		start := time.Now()
		w.group()
		lastCommit = time.Since(start)
		for i, j := range w.jobs {
			j.done <- struct{}{}
			w.jobs[i] = nil
		}
		expect = len(w.ch) + len(w.jobs)
	}
}

// drain takes every queued job, up to max in the group.
func (w *writer) drain(max int) {
	for len(w.jobs) < max {
		select {
		case j := <-w.ch:
			w.jobs = append(w.jobs, j)
		default:
			return
		}
	}
}

// group applies w.jobs to one batch and commits it.
func (w *writer) group() {
	start := time.Now()
	e := w.e
	tx := &w.tx
	tx.begin(e)
	var err error
	for _, j := range w.jobs {
		if err := j.ctx.Err(); err != nil {
			j.err = err
			continue
		}
		sp := tx.savepoint()
		e.jobsStarted.Add(1)
		tx.readOnly = !e.mayWrite(j.ctx)
		jerr := tx.run(j.fn)
		tx.readOnly = false
		if jerr != nil {
			j.err = jerr
			if err = tx.rollbackTo(sp); err != nil {
				break // the batch cannot be trusted: the whole group fails
			}
		}
	}
	if err == nil {
		tx.persistCounters()
	}
	size := tx.b.Len()
	if err == nil && !tx.b.Empty() {
		if rc := e.rc; rc != nil {
			if verifyPending {
				tx.verifyPending()
			}
			// delRange records a range deletion (DROP, TRUNCATE) in
			// pend.all; the cache then forgets every key.
			all := tx.pend.all
			rc.beginCommit(tx.b, all)
			err = tx.b.Commit(pebble.Sync)
			rc.endCommit(tx.b, all, err == nil)
		} else {
			err = tx.b.Commit(pebble.Sync)
		}
	}
	if err != nil {
		err = &Error{Kind: ErrCommitFailed, Detail: err.Error(), Err: err}
		for _, j := range w.jobs {
			if j.err == nil {
				j.err = err
			}
		}
	} else {
		tx.publish()
		if tx.dropsChanged {
			e.scheduleDrops(time.Now().Add(dropGrace).UnixNano())
		}
		for rt, d := range tx.delta {
			rt.rows.Add(d)
		}
		e.stats.RowsWritten.Add(tx.rows)
		e.stats.Groups.Add(1)
		e.stats.GroupJobs.Add(int64(len(w.jobs)))
	}
	e.jobsDone.Store(e.jobsStarted.Load())
	tx.rows = 0
	clear(tx.delta)
	clear(tx.deltaLog)
	tx.deltaLog = tx.deltaLog[:0]
	tx.end()
	if fn := w.onGroup.Load(); fn != nil {
		(*fn)(GroupStats{Jobs: len(w.jobs), Bytes: size, Duration: time.Since(start), Failed: err != nil})
	}
}

// Job is the write context of one job inside a group commit. It is valid
// only during the job's function, on the writer goroutine. Its reads see
// the group's pending writes.
type Job struct {
	batchWriter
	cat          *Catalog // the catalog as of this point of the group
	catChanged   bool
	dropsChanged bool // a job recorded ranges to delete later (drops.go)
}

func (tx *Job) begin(e *Engine) {
	tx.e = e
	tx.b = e.db.NewIndexedBatch()
	tx.rs.inWriter = true
	tx.rs.ps = pointSource{db: e.db, cache: e.rc}
	if e.rc != nil {
		tx.rs.ps.pend = &tx.pend // the group's own writes bypass the cache
	}
	tx.pend.reset()
	tx.cat = e.cat.Load()
	tx.catChanged, tx.dropsChanged = false, false
}

func (tx *Job) end() {
	tx.b.Close()
	tx.b = nil
	tx.cat = nil
	tx.pend.reset()
	clear(tx.dirty)
}

// run calls fn, turning a panic into an error so one bad job cannot take
// the writer down.
func (tx *Job) run(fn func(*Job) error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("engine: job panicked: %v", r)
		}
	}()
	return fn(tx)
}

// Catalog returns the catalog as this job sees it (with the DDL of earlier
// jobs of the group).
func (tx *Job) Catalog() *Catalog { return tx.cat }

type savepoint struct {
	rows       int64
	deltaLen   int // len(deltaLog)
	size       int
	count      uint32
	cat        *Catalog
	catChanged bool
}

func (tx *Job) savepoint() savepoint {
	return savepoint{rows: tx.rows, deltaLen: len(tx.deltaLog), size: tx.b.Len(), count: tx.b.Count(), cat: tx.cat, catChanged: tx.catChanged}
}

// rollbackTo discards every write made after sp. Counter advances are
// kept, as InnoDB keeps AUTO_INCREMENT gaps.
func (tx *Job) rollbackTo(sp savepoint) error {
	tx.cat, tx.catChanged, tx.rows = sp.cat, sp.catChanged, sp.rows
	tx.undoCounts(sp.deltaLen)
	return tx.truncate(sp.size, sp.count)
}

// verifyPending, set by the package's tests, makes every group check that
// each data key of its batch was written through set, del or delRange (so
// that point reads inside the group see it).
var verifyPending bool

func (tx *Job) verifyPending() {
	eachDataKey(tx.b, func(_ pebble.InternalKeyKind, k, _ []byte) {
		if !tx.pend.has(k) {
			panic(fmt.Sprintf("engine: key %x written to the batch around batchWriter", k))
		}
	})
}

func (tx *Job) publish() {
	if tx.catChanged {
		tx.e.cat.Store(tx.cat)
	}
}
