package replica

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/go-mysql-org/go-mysql/replication"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Large transactions. A primary transaction is held in memory (its
// changes) until its XID, then written with its position in one engine
// job. Once the row events received of one transaction pass
// Options.StageBytes (their size in the binary log), the transaction
// becomes an engine staged job (engine.Stage): the batches before it are
// written first (settle), the changes so far go to the stage, and from
// then on every StageBytes of changes do; at the XID the rest and the
// position after the transaction go too and the stage is committed, one
// sstable ingested atomically. So memory holds StageBytes of changes and
// the stage's chunk and memtables, and the transaction is still one
// atomic step for readers and for a crash: before the ingest the stored
// position is the one before the transaction (the engine's next Open
// removes the staging store), after it the one after.
//
// Order: a staged job reads the committed store without the writer, so
// nothing else may write the tables it touches until it commits. The
// stream goroutine holds this: it settles the committer before the stage
// begins and handles no other transaction until the stage is committed
// or aborted, and while replication runs the engine refuses every write
// but the replica's own (engine.SetReadOnly). All of this file runs on
// the stream goroutine.

// defaultStageBytes is Options.StageBytes's default.
const defaultStageBytes = 32 << 20

// stageBytes is the threshold in force: Options.StageBytes, its default,
// or 0 for never.
func (r *Replica) stageBytes() int {
	switch n := r.opts.StageBytes; {
	case n < 0:
		return 0
	case n == 0:
		return defaultStageBytes
	default:
		return n
	}
}

// stagedStats count the staged transactions of a Replica (for tests and
// metrics): how many were committed, and the most bytes of row events
// one held in memory before they went to its stage.
type stagedStats struct {
	txns     atomic.Uint64
	peakHeld atomic.Int64
}

// StagedTransactions returns how many primary transactions were applied
// as staged jobs, and the most bytes of row events (binlog size) any
// transaction held in memory before they went to its stage. Safe for
// concurrent use.
func (r *Replica) StagedTransactions() (txns uint64, peakHeld int64) {
	return r.staged.txns.Load(), r.staged.peakHeld.Load()
}

// maybeStage is called after each rows event of a transaction: past the
// threshold, the changes held go to the transaction's stage.
func (a *applier) maybeStage(ev *replication.BinlogEvent) error {
	a.txnBytes += int(ev.Header.EventSize)
	limit := a.r.stageBytes()
	if limit == 0 || a.txnBytes < limit {
		return nil
	}
	return a.toStage(a.cm.ctx)
}

// toStage moves the changes held to the transaction's stage, beginning it
// after the batches before it are written.
func (a *applier) toStage(ctx context.Context) error {
	if a.stage == nil {
		if err := a.settle(ctx); err != nil {
			return err
		}
		st, err := a.r.e.BeginStage(engine.Privileged(ctx), engine.StageOptions{})
		if err != nil {
			return err
		}
		a.stage = st
		a.r.log.Info("replica: large transaction staged", "gtid", a.gtid, "file", a.pos.File, "pos", a.pos.Pos)
	}
	if held := int64(a.txnBytes); held > a.r.staged.peakHeld.Load() {
		a.r.staged.peakHeld.Store(held)
	}
	for i := range a.changes {
		if err := stageChange(a.stage, &a.changes[i], a.pos); err != nil {
			return err
		}
	}
	a.stagedN += len(a.changes)
	clear(a.changes) // the rows may be collected now
	a.changes, a.txnBytes = a.changes[:0], 0
	return nil
}

// stageChange applies one change to the stage; errors are worded as the
// committer's.
func stageChange(st *engine.Stage, ch *change, at position) error {
	var found bool
	var err error
	switch ch.kind {
	case replication.EnumRowsEventTypeInsert:
		_, err = st.Insert(ch.t, ch.row)
		found = true
	case replication.EnumRowsEventTypeUpdate:
		found, err = st.Update(ch.t, ch.old, ch.row)
	case replication.EnumRowsEventTypeDelete:
		found, err = st.Delete(ch.t, ch.old)
	}
	if err == nil && !found {
		return &fatalError{errno: 1032, msg: failureAt(ch.where, at, fmt.Sprintf("Can't find record in '%s', Error_code: 1032; handler error HA_ERR_KEY_NOT_FOUND", ch.t.Name))}
	}
	if err != nil {
		n, msg := sqlErrorOf(err)
		return &fatalError{errno: n, msg: failureAt(ch.where, at, fmt.Sprintf("%s, Error_code: %d", msg, n))}
	}
	return nil
}

// commitStaged ends a staged transaction at its XID: the rest of its
// changes and the position after it go to the stage, which is committed.
func (a *applier) commitStaged(ctx context.Context) error {
	if err := a.toStage(ctx); err != nil {
		return err
	}
	next := a.pos
	next.DDL = ""
	if err := a.advance(&next); err != nil {
		return err
	}
	st := a.stage
	a.stage = nil
	if err := st.SetReplicaPosition(next.encode()); err != nil {
		st.Abort()
		return err
	}
	if err := st.Commit(engine.Privileged(ctx)); err != nil {
		return err
	}
	keys, bytes := st.Written()
	a.r.log.Info("replica: large transaction committed", "gtid", a.gtid, "keys", keys, "bytes", bytes, "peak_memory", st.PeakMemory())
	a.pos = next
	r := a.r
	r.staged.txns.Add(1)
	r.mu.Lock()
	r.st.executed, r.st.retrieved = next.GTID, next.GTID
	r.st.file, r.st.pos = next.File, next.Pos
	r.st.applied++
	r.mu.Unlock()
	a.begin("")
	return nil
}

// abortStage drops a staged transaction that will not commit (rolled
// back, or the stream ended in it).
func (a *applier) abortStage() {
	if a.stage != nil {
		a.stage.Abort()
		a.stage = nil
	}
	a.stagedN, a.txnBytes = 0, 0
}

// rollbackTo is ROLLBACK TO a savepoint at n changes into the
// transaction; one before what went to the stage cannot be undone.
func (a *applier) rollbackTo(n int) error {
	if n < a.stagedN {
		return &fatalError{errno: 1105, msg: a.failure("ROLLBACK TO SAVEPOINT", "the transaction is larger than the replica's staging threshold and rolls back to a savepoint before it; raise --replica-stage-bytes")}
	}
	a.changes = a.changes[:n-a.stagedN]
	return nil
}
