package engine

import (
	"context"
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// job is one Update call (fn) or one UpdateAll call (fns, with errs)
// waiting for the writer.
type job struct {
	ctx  context.Context
	fn   func(*Job) error
	fns  []func(*Job) error
	errs []error
	err  error
	done chan struct{}
	// prompt: the caller sends one job at a time with work of its own
	// between them (a SQL transaction's commit): the group it is in
	// does not wait for more jobs (see run).
	prompt bool
}

// setErr gives err to the job's functions that have none.
func (j *job) setErr(err error) {
	if j.fns == nil {
		if j.err == nil {
			j.err = err
		}
		return
	}
	for i := range j.errs {
		if j.errs[i] == nil {
			j.errs[i] = err
		}
	}
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
	// ingests are the staged jobs' sstables (stage.go) of the group, with
	// their jobs: ingested after the batch commits.
	ingests []stagedIngest

	// Options.PipelineSync: the writer applies a group, hands it to the
	// syncer on syncs and goes on with the next group while the syncer
	// waits for the first one's fsync (see group).
	syncs    chan *syncing
	free     chan *syncing
	syncDone chan struct{}

	// The records of a batch commit sorts (sortcommit.go).
	recs  []batchRec
	order []sortEnt

	onGroup atomic.Pointer[func(GroupStats)]

	// The change feed (feed.go): the installed function; the last
	// sequence number given (the writer's) and the last delivered.
	feed     atomic.Pointer[feedFn]
	log      atomic.Pointer[logFn]
	feedSeq  uint64
	feedDone atomic.Uint64
	feedJobs []feedJob // each job's end in tx.changes and statement

	// The commit wait (commitwait.go): the installed function and the
	// goroutine that answers the groups handed to it.
	wait     atomic.Pointer[waitFn]
	waitOnce sync.Once
	waits    chan waiting
	waitDone chan struct{}
}

func (w *writer) start(e *Engine) {
	w.e = e
	w.ch = make(chan *job, 4096)
	w.quit = make(chan struct{})
	w.done = make(chan struct{})
	if e.opts.Durability == DurabilitySync && e.opts.PipelineSync {
		w.syncs = make(chan *syncing, syncDepth)
		w.free = make(chan *syncing, syncDepth+1)
		for range syncDepth + 1 {
			w.free <- new(syncing)
		}
		w.syncDone = make(chan struct{})
		go w.syncer()
	}
	go w.run()
}

// syncDepth bounds the groups applied and waiting for their fsync; the
// writer waits when that many are.
const syncDepth = 4

// syncing is a group applied and visible whose log record the syncer
// waits to be fsynced before it answers the jobs.
type syncing struct {
	b       *pebble.Batch
	applied bool // b was applied: wait for its fsync
	jobs    []*job
	feed    *feedFn   // the feed function the group's changes go to
	txns    []FeedTxn // the group's changes for the feed
	start   time.Time
	size    int
	failed  bool // the group failed (before or at its fsync)
}

// syncer answers the pipelined groups in commit order once each one's log
// record is durable (PipelineSync); it runs until syncs is closed.
func (w *writer) syncer() {
	defer close(w.syncDone)
	for g := range w.syncs {
		var err error
		if g.applied {
			if err = g.b.SyncWait(); err != nil {
				err = &Error{Kind: ErrCommitFailed, Detail: err.Error(), Err: err}
				g.failed = true
			}
		}
		g.b.Close()
		handed := false
		if err == nil && !g.failed {
			w.deliver(g.feed, g.txns)
			handed = w.handToWaiter(g.jobs, g.txns)
		}
		for i, j := range g.jobs {
			if err != nil {
				j.setErr(err)
			}
			if !handed {
				j.done <- struct{}{}
			}
			g.jobs[i] = nil
		}
		if fn := w.onGroup.Load(); fn != nil {
			(*fn)(GroupStats{Jobs: len(g.jobs), Bytes: g.size, Duration: time.Since(g.start), Failed: g.failed})
		}
		g.b, g.jobs, g.applied, g.failed, g.feed, g.txns = nil, g.jobs[:0], false, false, nil, nil
		w.free <- g
	}
}

func (w *writer) stop() {
	close(w.quit)
	<-w.done
}

// isStopped reports whether the writer goroutine has returned.
func (w *writer) isStopped() bool {
	select {
	case <-w.done:
		return true
	default:
		return false
	}
}

// SetGroupHook installs a function called after every group commit (for
// metrics), by the writer goroutine, or with PipelineSync by the one
// goroutine that waits for the groups' fsyncs; nil removes it. Safe for
// concurrent use.
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
	return e.update(ctx, fn, false)
}

// update is Update, for a prompt job or not (job.prompt).
func (e *Engine) update(ctx context.Context, fn func(tx *Job) error, prompt bool) error {
	if err := e.enterGate(ctx); err != nil { // readlock.go
		return err
	}
	defer e.exitGate()
	e.mu.RLock()
	if e.closed {
		e.mu.RUnlock()
		return ErrClosed
	}
	e.pending.Add(1)
	e.mu.RUnlock()
	defer e.pending.Done()

	j := jobPool.Get().(*job)
	j.ctx, j.fn, j.prompt = ctx, fn, prompt
	e.w.ch <- j
	<-j.done
	err := j.err
	*j = job{done: j.done}
	jobPool.Put(j)
	return err
}

// UpdateAll runs each of fns as its own job, as Update does (its own
// savepoint: an error or a panic discards only its writes), and returns
// when all have committed, with fn i's result in errs[i] (len(errs) must
// be len(fns)). The jobs go to the writer together, with one hand-off and
// one wake-up, and commit in the same group. fns and errs are the caller's
// again when UpdateAll returns.
func (e *Engine) UpdateAll(ctx context.Context, fns []func(tx *Job) error, errs []error) {
	clear(errs)
	if len(fns) == 0 {
		return
	}
	if err := e.enterGate(ctx); err != nil { // readlock.go
		for i := range errs {
			errs[i] = err
		}
		return
	}
	defer e.exitGate()
	e.mu.RLock()
	if e.closed {
		e.mu.RUnlock()
		for i := range errs {
			errs[i] = ErrClosed
		}
		return
	}
	e.pending.Add(1)
	e.mu.RUnlock()
	defer e.pending.Done()

	j := jobPool.Get().(*job)
	j.ctx, j.fns, j.errs = ctx, fns, errs[:len(fns)]
	e.w.ch <- j
	<-j.done
	*j = job{done: j.done}
	jobPool.Put(j)
}

// run is the writer goroutine. Group forming: the callers a group commit
// releases usually come straight back with their next job, while the jobs
// queued during that commit are already waiting. Starting the next group
// at once would split the callers into two cohorts that alternate, each
// group holding half of them. So after releasing n callers with q jobs
// queued, the next group waits until it holds q+n jobs, and only when
// commits are slow. In DurabilitySync (an fsync per commit) it waits at
// most as long as the last commit took: a caller later than that would
// have waited for a whole commit anyway. In the other modes a commit is a
// write(2) and it waits a quarter of that, since there the wait's wake-ups
// cost more than the groups save. With one caller it never waits, nor,
// outside DurabilitySync, with a prompt job in hand (a SQL commit): such
// callers do not come straight back, and the wait only delayed them
// (sysbench's oltp_insert and oltp_update_index, 8 threads, ran 7-13%
// faster without it, where HandlerSocket's 16x1 writes ran 5% slower).
// In DurabilitySync the groups it gathers pay for themselves (durable
// SQL inserts 16x1 and 64x1 ran 5-12% slower without it).
func (w *writer) run() {
	defer close(w.done)
	defer w.stopWaiter()
	if w.syncs != nil {
		defer func() { close(w.syncs); <-w.syncDone }()
	}
	max := w.e.opts.MaxGroupJobs
	waitDiv, promptWaits := time.Duration(4), false
	if w.e.opts.Durability == DurabilitySync {
		waitDiv, promptWaits = 1, true
	}
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
		if want := min(expect, max); len(w.jobs) < want && lastCommit > 20*time.Microsecond && (promptWaits || !w.holdsPrompt()) {
			timer.Reset(min(lastCommit/waitDiv, 2*time.Millisecond))
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
		handed := w.group()
		lastCommit = time.Since(start)
		n := len(w.jobs)
		for i, j := range w.jobs {
			if !handed {
				j.done <- struct{}{}
			}
			w.jobs[i] = nil
		}
		expect = len(w.ch) + n
	}
}

// holdsPrompt reports whether the group formed holds a prompt job.
func (w *writer) holdsPrompt() bool {
	for _, j := range w.jobs {
		if j.prompt {
			return true
		}
	}
	return false
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

// group applies w.jobs to one batch and commits it. With PipelineSync
// the batch is applied (and so visible) without waiting for its fsync,
// and the group goes to the syncer, which answers the jobs once it is
// durable: the writer builds the next group meanwhile, and Pebble's log
// writer syncs the records of both with one fsync when the next one comes
// in time. handed reports that (or that the group went to the commit
// wait's goroutine, commitwait.go); else the caller answers the jobs.
//
// Readers may so see a group's rows before it is durable (a plain
// Pebble sync commit publishes only after the fsync; InnoDB, too, makes a
// transaction visible before its log flush); no job is answered before. The next group's reads see the
// rows from the store, so its jobs depend only on groups synced before
// or with it, and the syncer answers in commit order.
func (w *writer) group() (handed bool) {
	start := time.Now()
	e := w.e
	tx := &w.tx
	tx.begin(e)
	var err error
	for _, j := range w.jobs {
		if err := j.ctx.Err(); err != nil {
			j.setErr(err)
			continue
		}
		if j.fns == nil {
			j.err = tx.runJob(j.ctx, j.fn)
			w.takeIngest(j.ctx, &j.err)
		} else {
			for i, fn := range j.fns {
				j.errs[i] = tx.runJob(j.ctx, fn)
				w.takeIngest(j.ctx, &j.errs[i])
				if tx.rebuildErr != nil {
					break
				}
			}
		}
		if err = tx.rebuildErr; err != nil {
			tx.rebuildErr = nil
			break // the batch cannot be trusted: the whole group fails
		}
	}
	if err == nil {
		tx.persistCounters()
	}
	var txns []FeedTxn
	feed := w.feed.Load()
	if err == nil && tx.feeding && len(w.feedJobs) > 0 {
		txns = feedTxns(tx.changes, w.feedJobs, w.feedSeq)
		last := w.feedSeq
		if len(txns) > 0 {
			last = txns[len(txns)-1].Seq
		}
		if lf := w.log.Load(); lf != nil {
			for i := range txns {
				rec, rerr := (*lf)(txns[i])
				if rerr != nil {
					err = rerr
					break
				}
				tx.set(logKey(txns[i].Seq), rec)
				txns[i].Record = rec
			}
		}
		if err == nil && len(txns) > 0 {
			tx.set(feedKey, binary.BigEndian.AppendUint64(nil, last))
			w.feedSeq = last
		} else {
			txns = nil
		}
	}
	// From here the group's keys count as committed (bounds.go).
	e.bounds.merge()
	size := tx.b.Len()
	var g *syncing
	if w.syncs != nil {
		// Every group goes through the syncer, so that no job is answered
		// before an earlier group is durable (a job's answer may depend
		// on its rows).
		g = <-w.free
	}
	if err == nil && !tx.b.Empty() {
		if rc := e.rc; rc != nil {
			if verifyPending {
				tx.verifyPending()
			}
			// delRange records a range deletion (DROP, TRUNCATE) in
			// pend.all; the cache then forgets every key.
			all := tx.pend.all
			rc.beginCommit(tx.b, all)
			err = w.commit(g)
			rc.endCommit(tx.b, all, err == nil)
		} else {
			err = w.commit(g)
		}
	}
	if err != nil {
		err = &Error{Kind: ErrCommitFailed, Detail: err.Error(), Err: err}
		if len(txns) > 0 {
			w.feedSeq = txns[0].Seq - 1 // (not committed: given again)
			txns = nil
		}
		for _, j := range w.jobs {
			j.setErr(err)
		}
		clear(w.ingests)
		w.ingests = w.ingests[:0]
	} else {
		w.ingest()
		tx.publish()
		if tx.dropsChanged {
			e.scheduleDrops(time.Now().Add(dropGrace).UnixNano())
		}
		tx.delta.commit()
		e.stats.RowsWritten.Add(tx.rows)
		e.stats.Groups.Add(1)
		e.stats.GroupJobs.Add(int64(len(w.jobs)))
	}
	e.jobsDone.Store(e.jobsStarted.Load())
	if e.groupEnd.waiters.Load() > 0 {
		e.groupEnd.wake()
	}
	tx.rows = 0
	clear(tx.changes)
	clear(w.feedJobs)
	tx.changes, w.feedJobs = tx.changes[:0], w.feedJobs[:0]
	clear(tx.delta)
	clear(tx.deltaLog)
	tx.deltaLog = tx.deltaLog[:0]
	if g != nil {
		// The syncer closes the batch after its fsync.
		g.b, g.start, g.size, g.failed = tx.b, start, size, err != nil
		g.jobs = append(g.jobs[:0], w.jobs...)
		g.feed, g.txns = feed, txns
		tx.b = nil
		tx.end()
		w.syncs <- g
		return true
	}
	tx.end()
	w.deliver(feed, txns)
	if fn := w.onGroup.Load(); fn != nil {
		(*fn)(GroupStats{Jobs: len(w.jobs), Bytes: size, Duration: time.Since(start), Failed: err != nil})
	}
	return err == nil && w.handToWaiter(w.jobs, txns)
}

// deliver hands a durable group's changes to the feed function that was
// installed when the group ran.
func (w *writer) deliver(feed *feedFn, txns []FeedTxn) {
	if len(txns) == 0 {
		return
	}
	w.feedDone.Store(txns[len(txns)-1].Seq)
	if feed != nil {
		(*feed)(txns)
	}
}

// commit commits the group's batch; with g (PipelineSync) it returns
// once the batch is visible, and the syncer waits for its fsync (that
// batch is not sorted: the syncer waits on the batch itself).
func (w *writer) commit(g *syncing) error {
	if g != nil {
		g.applied = true
		return w.e.db.ApplyNoSyncWait(w.tx.b, pebble.Sync)
	}
	return w.commitSorted(w.tx.b)
}

// runJob runs one job's function between a savepoint and, if it fails, a
// rollback to it; a rollback that fails sets tx.rebuildErr.
func (tx *Job) runJob(ctx context.Context, fn func(*Job) error) error {
	sp := tx.savepoint()
	tx.jobStart, tx.stmt = len(tx.changes), nil
	tx.e.jobsStarted.Add(1)
	tx.readOnly = !tx.e.mayWrite(ctx)
	unlogged := tx.feeding && ctx.Value(unloggedKey{}) != nil
	if unlogged {
		tx.feeding = false // (the job's changes stay out of the feed)
	}
	jerr := tx.run(fn)
	tx.readOnly = false
	tx.holder, tx.ownRows = nil, false
	if jerr != nil {
		if err := tx.rollbackTo(sp); err != nil {
			tx.rebuildErr = err
		}
	}
	if unlogged {
		tx.feeding = true
	} else if tx.feeding {
		if jerr != nil {
			tx.stmt = nil
		}
		tx.e.w.feedJobs = append(tx.e.w.feedJobs, feedJob{end: len(tx.changes), stmt: tx.stmt, origin: originOf(ctx)})
		tx.stmt = nil
	}
	return jerr
}

// stagedIngest is a staged job's sstables, with its job's context and
// where its result goes.
type stagedIngest struct {
	ctx   context.Context
	err   *error
	check func() error // nil, or run first: its error is the job's, nothing ingested
	paths []string
}

// takeIngest moves the sstables the job function just run left in
// w.tx.ingest to w.ingests, when that function succeeded (*errp is its
// result, and an ingest's error goes there); a failed one's are dropped.
func (w *writer) takeIngest(ctx context.Context, errp *error) {
	tx := &w.tx
	if len(tx.ingest) == 0 {
		return
	}
	if *errp == nil {
		w.ingests = append(w.ingests, stagedIngest{ctx, errp, tx.ingestCheck, tx.ingest})
	}
	tx.ingest, tx.ingestCheck = nil, nil
}

// ingest adds the group's staged sstables to the store, each as one
// atomic step, emptying the row cache around it; a failed ingest is its
// job's error.
func (w *writer) ingest() {
	for i, in := range w.ingests {
		if in.check != nil {
			// On the writer goroutine after the group's commit: no
			// other write lands between the check and the ingest.
			if err := in.check(); err != nil {
				*in.err = err
				w.ingests[i] = stagedIngest{}
				continue
			}
		}
		rc := w.e.rc
		if rc != nil {
			rc.beginCommit(nil, true)
		}
		err := w.e.db.Ingest(in.ctx, in.paths)
		w.e.bounds.reset() // the sstables' keys were never noted
		if rc != nil {
			rc.endCommit(nil, true, err == nil)
		}
		if err != nil {
			*in.err = &Error{Kind: ErrCommitFailed, Detail: err.Error(), Err: err}
		}
		w.ingests[i] = stagedIngest{}
	}
	w.ingests = w.ingests[:0]
}

// Job is the write context of one job inside a group commit. It is valid
// only during the job's function, on the writer goroutine. Its reads see
// the group's pending writes.
type Job struct {
	batchWriter
	cat          *Catalog // the catalog as of this point of the group
	catChanged   bool
	blobsChanged bool         // a job wrote a system record (SetBlob)
	dropsChanged bool         // a job recorded ranges to delete later (drops.go)
	ingest       []string     // sstables of a staged job to ingest after the commit (stage.go)
	ingestCheck  func() error // run before that ingest (StageOptions.NewKeys)
	rebuildErr   error        // why runJob could not roll back
}

func (tx *Job) begin(e *Engine) {
	tx.e = e
	tx.b = e.db.NewIndexedBatch()
	tx.rs.inWriter = true
	tx.cachedReads(e)
	if e.rc != nil {
		tx.bounds = &e.bounds // which needs pend (bounds.go)
	}
	tx.pend.reset()
	tx.cat = e.cat.Load()
	tx.catChanged, tx.dropsChanged, tx.blobsChanged = false, false, false
	tx.feeding = e.w.feed.Load() != nil || e.w.log.Load() != nil
}

func (tx *Job) end() {
	if tx.b != nil {
		tx.b.Close()
	}
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

// HoldLocks makes the job's changes pass the row locks l holds: a change
// of a row that another Locker holds still fails with a
// *RowLockedError. It lasts until the job's function returns.
func (tx *Job) HoldLocks(l *Locker) { tx.holder = l }

// OwnRows makes the job change rows without looking at row locks: for a
// change whose rows are already its own (a transaction's commit, whose
// locks are held by its session) or that no row lock covers (ALTER
// TABLE's rewrite). It lasts until the job's function returns.
func (tx *Job) OwnRows() { tx.ownRows = true }

// JobSavepoint is a point of a job to roll back to.
type JobSavepoint struct{ sp savepoint }

// Savepoint returns the job's current point.
func (tx *Job) Savepoint() JobSavepoint { return JobSavepoint{tx.savepoint()} }

// RollbackTo drops every change the job made after sp (a change that
// found its row locked, say, before it is run again). If the batch cannot
// be rolled back, the group fails.
func (tx *Job) RollbackTo(sp JobSavepoint) {
	if err := tx.rollbackTo(sp.sp); err != nil && tx.rebuildErr == nil {
		tx.rebuildErr = err
	}
}

type savepoint struct {
	rows       int64
	changes    int // len(changes), for the feed
	marks      int // len(w.feedJobs): the transactions ended (EndTxn)
	deltaLen   int // len(deltaLog)
	size       int
	count      uint32
	cat        *Catalog
	catChanged bool
}

func (tx *Job) savepoint() savepoint {
	return savepoint{rows: tx.rows, changes: len(tx.changes), marks: len(tx.e.w.feedJobs), deltaLen: len(tx.deltaLog), size: tx.b.Len(), count: tx.b.Count(), cat: tx.cat, catChanged: tx.catChanged}
}

// rollbackTo discards every write made after sp. Counter advances are
// kept, as InnoDB keeps AUTO_INCREMENT gaps.
func (tx *Job) rollbackTo(sp savepoint) error {
	tx.cat, tx.catChanged, tx.rows = sp.cat, sp.catChanged, sp.rows
	clear(tx.changes[sp.changes:])
	tx.changes = tx.changes[:sp.changes]
	if w := &tx.e.w; len(w.feedJobs) > sp.marks {
		clear(w.feedJobs[sp.marks:])
		w.feedJobs = w.feedJobs[:sp.marks]
	}
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
	if tx.blobsChanged {
		tx.e.blobGen.Add(1)
	}
}
