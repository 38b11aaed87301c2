package hsfront

import (
	"sync/atomic"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/hsproto"
)

// The write port's runs. A run is the lines of a batch from a line that
// changes rows up to the next find. It goes through three steps:
//
//  1. prepare, on what serves the connection (its goroutine or its
//     write-port event loop): every line is parsed and
//     checked, A and P are answered, and each insert or modify is
//     converted against the catalog the connection sees (handles,
//     key, filter and value columns in their column types, the row of an
//     insert) into a writeOp;
//  2. apply, on the writer goroutine inside one engine job: each writeOp
//     whose catalog version is still the job's is applied as it is; one
//     the DDL of an earlier job of the group changed is checked and
//     converted again against the job's catalog first;
//  3. answer, on the connection again: the answers are formatted in line
//     order.
//
// So the protocol work of every connection runs in parallel, and the
// group-commit critical section holds only the engine's. A and P never
// run inside a job: with SQL accounts they ask the SQL front's user
// table, which a GRANT holds while it waits for the writer.

// maxRunLines bounds the lines of one run, so that the answers of one
// run stay near the turn budget.
const maxRunLines = 1024

// beforeApply, set by the package's tests, runs between preparing a run
// and handing it to the writer (atomic: an event loop's goroutine reads
// it, with no other synchronisation with the test's).
var beforeApply atomic.Pointer[func()]

// writeOpKind says how a writeOp is answered.
type writeOpKind uint8

const (
	opAnswered writeOpKind = iota // answered while preparing (A, P, a refused request)
	opInsert
	opModify
)

// writeOp is one line of a run. Its fields are written by the
// connection's side (its goroutine or event loop) while preparing and
// answering, and by the writer goroutine while that side waits for the job.
type writeOp struct {
	reqState
	req     hsproto.Request
	kind    writeOpKind
	version uint64 // the catalog version the conversion used
	ans     []byte // opAnswered: the answer; a modify returning rows: header and rows
	n       int    // rows a modify changed
	id      uint64 // the AUTO_INCREMENT value an insert used
	autoInc bool   // the insert's table has an AUTO_INCREMENT column
	err     error  // the engine's answer
	before  func(engine.Row)
}

// opAt returns the i-th pooled writeOp of sc.
func (sc *scratch) opAt(i int) *writeOp {
	for len(sc.run) <= i {
		op := new(writeOp)
		op.before = func(row engine.Row) { op.ans = op.appendRow(op.ans, row) }
		sc.run = append(sc.run, op)
	}
	return sc.run[i]
}

// prepareRun prepares the run that starts at the line sc holds parsed
// (buf starts with that line): it returns the run's line count, what
// follows the run, and whether it needs the writer (apply: then
// sc.applyFn is its job).
func (ss *session) prepareRun(sc *scratch, buf []byte) (count int, rest []byte, apply bool) {
	if ss.s.cfg.Observe != nil {
		sc.runStart = time.Now() // the run's requests are timed with their commit
	}
	// The first line was parsed by lines; take it over by swapping the
	// requests, so that each keeps its own slices.
	sc.runFrom, sc.lockStop, sc.lockErr = 0, -1, nil
	first := sc.opAt(0)
	first.req, sc.req = sc.req, first.req
	rest = sc.parsedRest
	sc.parsed, sc.parsedRest = false, nil
	ss.prepare(first, nil)
	count, apply = 1, first.kind != opAnswered
	work := first.estWork()
	for count < maxRunLines && sc.work+work < turnWork {
		line, r, more := hsproto.NextLine(rest)
		if !more {
			break
		}
		op := sc.opAt(count)
		op.req.Parse(line)
		if op.req.Cmd == hsproto.CmdExec && !needsWriter(&op.req) {
			// A find ends the run: it reads what the run committed.
			op.req, sc.req = sc.req, op.req
			sc.parsed, sc.parsedRest = true, r
			break
		}
		rest = r
		ss.prepare(op, nil)
		apply = apply || op.kind != opAnswered
		work += op.estWork()
		count++
	}
	if fn := beforeApply.Load(); fn != nil {
		(*fn)()
	}
	if apply {
		if sc.applyFn == nil {
			// Bound once per pooled scratch: no allocation per run.
			sc.applyFn = func(tx *engine.Job) error {
				sc.runSess.apply(tx, sc)
				return nil
			}
		}
		sc.runSess, sc.runLen = ss, count
	}
	return count, rest, apply
}

// finishRun answers the count lines of the run prepareRun prepared, err
// being its job's result, and returns how many bytes of buf (which starts
// with the run) the run consumed. If the group did not commit, every
// request of the run and every later complete line of buf fail, and ok is
// false: the connection must close (its handles may have changed in a
// batch the client will never see answered).
func (ss *session) finishRun(sc *scratch, buf []byte, count int, rest []byte, err error) (n int, ok bool) {
	run := sc.run[:count]
	sc.runSess = nil
	defer func() {
		for _, op := range run {
			op.req.Reset()
			op.h, op.err = nil, nil
		}
	}()
	ss.releaseLocks() // the jobs that changed the locked rows have ended
	var cnt opCounter
	cnt.start(ss, sc.runStart)
	out := *sc.out
	if err != nil {
		// The lines before runFrom were applied by a job that committed.
		for _, op := range run[:sc.runFrom] {
			start := len(out)
			out = op.answer(out)
			cnt.add(&op.req, out[start] == '0')
		}
		*sc.out = out
		cnt.flush()
		return len(buf) - len(ss.failRun(sc, count-sc.runFrom, rest)), false
	}
	for _, op := range run {
		start := len(out)
		out = op.answer(out)
		cnt.add(&op.req, out[start] == '0')
		sc.work += op.estWork() + op.n
	}
	*sc.out = out
	cnt.flush()
	return len(buf) - len(rest), true
}

// failRun answers the run's count lines, the line left parsed after it
// and the complete lines of rest with the commit error; it returns what
// follows the last complete line.
func (ss *session) failRun(sc *scratch, count int, rest []byte) []byte {
	failed := count
	if sc.parsed {
		failed, rest = failed+1, sc.parsedRest
		sc.parsed, sc.parsedRest = false, nil
	}
	end := rest
	for {
		_, r, ok := hsproto.NextLine(end)
		if !ok {
			break
		}
		failed, end = failed+1, r
	}
	for ; failed > 0; failed-- {
		*sc.out = hsproto.AppendError(*sc.out, hsproto.ErrCommit)
	}
	return end
}

// prepare checks and converts op's request against the catalog of tx (the
// published one when tx is nil, on the connection's side).
func (ss *session) prepare(op *writeOp, tx *engine.Job) {
	r := &op.req
	op.kind, op.ans, op.err = opAnswered, op.ans[:0], nil
	switch r.Cmd {
	case hsproto.CmdAuth:
		op.ans = ss.auth(r, op.ans)
		return
	case hsproto.CmdOpen:
		if ss.needAuth() {
			op.ans = hsproto.AppendError(op.ans, hsproto.ErrUnauth)
		} else {
			op.ans = ss.open(r, tx, op.ans)
		}
		return
	case hsproto.CmdExec:
	default:
		op.ans = hsproto.AppendError(op.ans, hsproto.ErrCmd)
		return
	}
	h, e := ss.checkExec(r, tx)
	if e != hsproto.ErrNone {
		op.ans = hsproto.AppendError(op.ans, e)
		return
	}
	op.h, op.version = h, h.version
	if r.Op == hsproto.OpInsert {
		op.prepareInsert(r)
		op.kind = opInsert
		return
	}
	if e := op.buildQuery(r); e != hsproto.ErrNone {
		op.ans = hsproto.AppendError(op.ans, e)
		return
	}
	if op.prepareModify(r, &op.ans) {
		op.kind = opModify
	}
}

// apply runs the run's inserts and modifies from sc.runFrom on inside one
// job, on the writer goroutine. A run of several modifies first
// prefetches the row-cache memory of their point lookups
// (engine.Prefetcher, as the read port does for its finds), so the reads
// of the rows they change overlap. A modify that finds a row locked by an
// SQL transaction is undone and ends the job there (sc.lockStop, see
// rowlock.go); the lines before it commit with the job.
func (ss *session) apply(tx *engine.Job, sc *scratch) {
	if ss.locker != nil {
		tx.HoldLocks(ss.locker)
	}
	run := sc.run[sc.runFrom:sc.runLen]
	for i, op := range run {
		if i%aheadLines == 0 && len(run)-i > 1 {
			ss.prefetchRun(tx, run[i:min(len(run), i+aheadLines)])
		}
		if op.kind == opAnswered {
			continue
		}
		if op.version != tx.Catalog().Version {
			// An earlier job of the group changed the catalog: check and
			// convert again as the table is now.
			if ss.prepare(op, tx); op.kind == opAnswered {
				continue
			}
		}
		switch op.kind {
		case opInsert:
			op.autoInc = op.h.t.AutoInc >= 0
			op.id, op.err = tx.CheckedInsert(op.h.t, op.row)
		case opModify:
			if op.req.ModReturnRows {
				op.ans = hsproto.AppendResultHeader(op.ans[:0], len(op.h.cols))
				op.m.Before = op.before
			}
			sp := tx.Savepoint()
			op.n, op.err = tx.FindModify(op.h.t, &op.q, &op.m)
			op.m.Before = nil
			if rl := rowLocked(op.err); rl != nil {
				tx.RollbackTo(sp)
				sc.lockStop, sc.lockErr = sc.runFrom+i, rl
				return
			}
		}
	}
}

// prefetchRun prefetches for the point modifies of ops (see apply).
func (ss *session) prefetchRun(tx *engine.Job, ops []*writeOp) {
	v := tx.Catalog().Version
	for _, op := range ops {
		if op.kind == opModify && op.version == v && op.q.Op == engine.OpEQ && op.q.In == nil && op.q.Index != nil {
			ss.pf.Add(ss.s.e, op.h.t, op.q.Index, op.q.Key)
		}
	}
	ss.pf.Issue()
}

// estWork is what op counts for the turn's work before the rows it
// changes (see turnWork): one, and scanWork more for a modify that is not
// a point lookup (a whole key of a unique index, without IN).
func (op *writeOp) estWork() int {
	if op.kind != opModify {
		return 1
	}
	q := &op.q
	if idx := q.Index; q.Op == engine.OpEQ && q.In == nil && idx != nil &&
		(idx.Primary || idx.Unique) && len(q.Key) == len(idx.Columns) {
		return 1
	}
	return 1 + scanWork
}

// answer appends op's answer to out.
func (op *writeOp) answer(out []byte) []byte {
	switch op.kind {
	case opInsert:
		switch {
		case op.err != nil:
			return storageError(out, op.err)
		case op.autoInc:
			return hsproto.AppendOKNum(out, op.id)
		}
		return hsproto.AppendOK(out)
	case opModify:
		switch {
		case op.err != nil:
			return storageError(out, op.err)
		case op.req.ModReturnRows:
			return hsproto.AppendEnd(append(out, op.ans...))
		}
		return hsproto.AppendOKNum(out, uint64(op.n))
	}
	return append(out, op.ans...)
}
