package replica

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/dolthub/go-mysql-server/sql/binlogreplication"
	gmysql "github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-mysql-org/go-mysql/replication"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// errFatal marks an error that retrying cannot cure: the stream stops.
type fatalError struct {
	io    bool // of the connection (Last_IO_Error), else of applying (Last_SQL_Error)
	errno uint
	msg   string
}

func (e *fatalError) Error() string { return e.msg }

// run is the stream goroutine: it connects, streams and applies until ctx
// ends or a fatal error, reconnecting with back-off after connection
// errors.
func (r *Replica) run(ctx context.Context, s *source, done chan struct{}) {
	defer close(done)
	attempts := 0
	for {
		err := r.stream(ctx, s, &attempts)
		if ctx.Err() != nil {
			return
		}
		var fe *fatalError
		if errors.As(err, &fe) {
			if fe.io {
				r.setIOError(fe.errno, fe.msg)
				r.ended(binlogreplication.ReplicaIoNotRunning, binlogreplication.ReplicaSqlRunning)
			} else {
				r.setSQLError(fe.errno, fe.msg)
				r.ended(binlogreplication.ReplicaIoNotRunning, binlogreplication.ReplicaSqlNotRunning)
			}
			r.log.Error("replica: stopped", "err", fe.msg, "errno", fe.errno)
			return
		}
		attempts++
		msg := fmt.Sprintf("error reconnecting to master '%s@%s:%d' - retry-time: %d  maximum-retries: %d  message: %v", s.User, s.Host, s.Port, s.ConnectRetry, s.RetryCount, err)
		r.setIOError(2003, msg)
		r.ended(binlogreplication.ReplicaIoConnecting, binlogreplication.ReplicaSqlRunning)
		r.log.Warn("replica: connection", "err", err, "attempt", attempts)
		if s.RetryCount > 0 && attempts >= s.RetryCount {
			r.ended(binlogreplication.ReplicaIoNotRunning, binlogreplication.ReplicaSqlRunning)
			return
		}
		// Back off: 100 ms doubling to the configured retry time.
		wait := min(time.Duration(s.ConnectRetry)*time.Second, 100*time.Millisecond<<min(attempts, 10))
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}

// stream is one connection to the primary: it starts at the committed
// position and applies events until an error.
func (r *Replica) stream(ctx context.Context, s *source, attempts *int) error {
	pos, err := r.position()
	if err != nil {
		return &fatalError{errno: 1105, msg: err.Error()}
	}
	flavor, id, uuid, err := probeSource(ctx, s)
	if err != nil {
		return err
	}
	r.mu.Lock()
	r.st.sourceServerID, r.st.sourceUUID = id, uuid
	r.mu.Unlock()
	if pos.Flavor != "" && pos.Flavor != flavor {
		return &fatalError{io: true, errno: 1236, msg: fmt.Sprintf("the stored position is of a %s primary and the source is %s; RESET REPLICA first", pos.Flavor, flavor)}
	}
	pos.Flavor = flavor
	if pos.GTID == "" && pos.File == "" && flavor == gmysql.MariaDBFlavor && r.opts.OwnGTID != nil && !r.needsCopy(pos) {
		// A server that was a primary (it holds tables, and its own
		// binary log has transactions) rejoins from its log's position,
		// as MASTER_USE_GTID=current_pos: the new primary has those
		// transactions or refuses (1236). An empty one copies instead.
		if own := r.opts.OwnGTID(); own != "" {
			pos.GTID = own
		}
	}
	if r.needsCopy(pos) {
		if pos, err = r.initialCopy(ctx, s, flavor, pos); err != nil {
			return err
		}
	}
	cfg := replication.BinlogSyncerConfig{
		ServerID: s.ServerID, Flavor: flavor, Host: s.Host, Port: uint16(s.Port), User: s.User, Password: s.Password,
		TimestampStringLocation: time.UTC,
		HeartbeatPeriod:         time.Second,
		ReadTimeout:             10 * time.Second,
		DisableRetrySync:        true, // run reconnects from the committed position
		MaxReconnectAttempts:    1,
		Logger:                  slog.New(slog.DiscardHandler),
		SemiSyncEnabled:         r.opts.SemiSync != nil && r.opts.SemiSync(),
		TLSConfig:               s.tlsConfig(),
	}
	syncer := replication.NewBinlogSyncer(cfg)
	defer syncer.Close()
	var st *replication.BinlogStreamer
	useGTID := gtidMode(flavor, s, pos)
	if useGTID {
		set, err := pos.gtidSet(flavor)
		if err != nil {
			return &fatalError{errno: 1105, msg: fmt.Sprintf("stored GTID set %q: %v", pos.GTID, err)}
		}
		st, err = syncer.StartSyncGTID(set)
		if err != nil {
			return err
		}
	} else {
		p := gmysql.Position{Name: pos.File, Pos: pos.Pos}
		if p.Pos < 4 {
			p.Pos = 4
		}
		if st, err = syncer.StartSync(p); err != nil {
			return err
		}
	}
	a := newApplier(ctx, r, s, pos, useGTID)
	// Every batch handed over is written (or failed) before the next
	// connection reads the committed position.
	defer a.cm.close()
	defer a.abortStage()
	connected := false
	for {
		var ev *replication.BinlogEvent
		var err error
		if a.batchTxns > 0 {
			wctx, cancel := context.WithTimeout(ctx, batchWait)
			ev, err = st.GetEvent(wctx)
			cancel()
			if errors.Is(err, context.DeadlineExceeded) && ctx.Err() == nil {
				if err := a.flush(ctx); err != nil {
					return a.applyError(ctx, err)
				}
				continue
			}
		} else {
			// Nothing pending: once the committer has written what it
			// holds, caught up until the next event.
			if err := a.cm.wait(); err != nil {
				return a.applyError(ctx, err)
			}
			r.eventTS.Store(0)
			ev, err = st.GetEvent(ctx)
		}
		if err != nil {
			if ctx.Err() == nil {
				// The connection failed: the events received before it
				// are still in the streamer (a semi-sync replica
				// acknowledged them, and the primary may be gone for
				// good). The whole transactions among them are written
				// before the stream starts again.
				for _, ev := range st.DumpEvents() {
					if err := a.event(ctx, ev); err != nil {
						return a.applyError(ctx, err)
					}
				}
				if err := a.settle(ctx); err != nil {
					return a.applyError(ctx, err)
				}
			}
			var me *gmysql.MyError
			if errors.As(err, &me) && me.Code == 1236 {
				return &fatalError{io: true, errno: 1236, msg: fmt.Sprintf("Got fatal error 1236 from master when reading data from binary log: '%s'", me.Message)}
			}
			return err
		}
		if !connected {
			connected, *attempts = true, 0
			r.mu.Lock()
			r.st.io = binlogreplication.ReplicaIoRunning
			r.st.ioErrno, r.st.ioErr, r.st.ioErrAt = 0, "", nil
			r.st.sourceServerID = fmt.Sprint(ev.Header.ServerID)
			r.mu.Unlock()
			r.log.Info("replica: connected", "flavor", flavor, "gtid", pos.GTID, "file", pos.File, "pos", pos.Pos)
		}
		if ev.Header.Timestamp != 0 {
			switch ev.Event.(type) {
			case *replication.MariadbGTIDEvent, *replication.GTIDEvent, *replication.QueryEvent, *replication.RowsEvent, *replication.XIDEvent:
				r.eventTS.Store(int64(ev.Header.Timestamp))
			}
		}
		if err := a.event(ctx, ev); err != nil {
			return a.applyError(ctx, err)
		}
		if a.full() {
			if err := a.flush(ctx); err != nil {
				return a.applyError(ctx, err)
			}
		}
	}
}

// gtidMode reports whether the stream positions by GTID: always from a
// MariaDB primary (its GTIDs are always on) and from a MySQL primary with
// SOURCE_AUTO_POSITION=1, unless the stored position is a binlog file
// and offset only (a file/position start, or an initial copy of a
// primary without GTIDs).
func gtidMode(flavor string, s *source, pos position) bool {
	return (flavor == gmysql.MariaDBFlavor || s.AutoPosition) && (pos.GTID != "" || pos.File == "")
}

// newApplier returns the applier of one stream from pos; with useGTID it
// keeps the executed GTID set.
//
// The applier's committer runs until close.
func newApplier(ctx context.Context, r *Replica, s *source, pos position, useGTID bool) *applier {
	a := &applier{r: r, s: s, pos: pos, cm: newCommitter(ctx, r)}
	if useGTID {
		a.gset, _ = pos.gtidSet(pos.Flavor)
	}
	return a
}

// applyError makes an error of applying fatal (the stream stops), but
// for a cancelled context.
func (a *applier) applyError(ctx context.Context, err error) error {
	var fe *fatalError
	if errors.As(err, &fe) || ctx.Err() != nil {
		return err
	}
	n, msg := sqlErrorOf(err)
	return &fatalError{errno: n, msg: msg}
}

// probeSource asks the primary whether it is MariaDB or MySQL, and its
// server id and (MySQL's) server uuid, which SHOW REPLICA STATUS shows.
func probeSource(ctx context.Context, s *source) (flavor, id, uuid string, err error) {
	c, err := dialSource(ctx, s)
	if err != nil {
		return "", "", "", err
	}
	defer c.Close()
	res, err := c.Execute("SELECT VERSION(), @@server_id")
	if err != nil {
		return "", "", "", err
	}
	v, _ := res.GetString(0, 0)
	id, _ = res.GetString(0, 1)
	if strings.Contains(strings.ToLower(v), "mariadb") {
		return gmysql.MariaDBFlavor, id, "", nil
	}
	if res, err := c.Execute("SELECT @@server_uuid"); err == nil {
		uuid, _ = res.GetString(0, 0)
	}
	return gmysql.MySQLFlavor, id, uuid, nil
}

// applier turns the events of one connection into engine jobs.
type applier struct {
	r    *Replica
	s    *source
	cm   *committer     // writes the batches
	pos  position       // committed, plus the file/offset of events seen since
	gset gmysql.GTIDSet // executed GTIDs, nil without GTID positioning
	// The transaction being received.
	inTxn      bool
	gtid       string         // its GTID ("" without)
	origin     *engine.Origin // its MariaDB GTID (nil for a MySQL one)
	changes    []change
	savepoints map[string]int // SAVEPOINT name -> changes before it (stagedN + len(changes))
	// A large transaction's stage (bigtxn.go), the changes it holds, and
	// the bytes of row events held in changes.
	stage    *engine.Stage
	stagedN  int
	txnBytes int
	// Transactions received and not yet written (flush).
	batch     []change
	batchTxns int
	ends      []txnEnd // where each of them ends in batch, with its GTID
	next      position // the position after them
}

// txnEnd is where a primary's transaction ends in a batch, and its
// identity: the replica's own binary log keeps the primary's GTIDs
// (engine.Job.EndTxn), as a MariaDB replica with log_slave_updates does,
// so that its replicas can follow it, and fail over to it, by GTID.
type txnEnd struct {
	n      int
	origin engine.Origin
}

// change is one row change of a transaction, converted to the engine's
// types.
type change struct {
	kind     replication.EnumRowsEventType
	t        *engine.Table
	old, row engine.Row
	where    string // "Write_rows event on table d.t", for errors
}

// event handles one binlog event.
func (a *applier) event(ctx context.Context, ev *replication.BinlogEvent) error {
	if ev.Header.LogPos > 0 && ev.Header.EventType != replication.ROTATE_EVENT {
		a.pos.Pos = ev.Header.LogPos
	}
	switch e := ev.Event.(type) {
	case *replication.RotateEvent:
		a.pos.File, a.pos.Pos = string(e.NextLogName), uint32(e.Position)
	case *replication.MariadbGTIDEvent:
		a.begin(e.GTID.String())
		a.origin = &engine.Origin{Domain: e.GTID.DomainID, Server: e.GTID.ServerID, Seq: e.GTID.SequenceNumber}
		if !e.IsStandalone() {
			a.inTxn = true
		}
	case *replication.GTIDEvent:
		next, err := e.GTIDNext()
		if err != nil {
			return err
		}
		a.begin(next.String())
	case *replication.QueryEvent:
		return a.query(ctx, ev, e)
	case *replication.RowsEvent:
		return a.rows(ev, e)
	case *replication.XIDEvent:
		return a.commit(ctx, ev)
	}
	return nil
}

func (a *applier) begin(gtid string) {
	a.gtid, a.origin, a.changes, a.inTxn = gtid, nil, a.changes[:0], false
	clear(a.savepoints)
	a.abortStage()
}

// skipDB reports the primary's system schemas, which the replica does not
// hold.
func skipDB(db string) bool {
	switch strings.ToLower(db) {
	case "mysql", "information_schema", "performance_schema", "sys":
		return true
	}
	return false
}

// wanted reports whether a rows event on db.table applies: not for the
// system schemas, else as the filters say (filter.go).
func (a *applier) wanted(db, table string) bool {
	return !skipDB(db) && a.s.rowOK(db, table)
}

// rows converts a rows event's images into changes of the transaction.
func (a *applier) rows(ev *replication.BinlogEvent, e *replication.RowsEvent) error {
	db, name := a.s.rewriteDB(string(e.Table.Schema)), string(e.Table.Table) // REPLICATE_REWRITE_DB first (filter.go)
	if !a.wanted(db, name) {
		return nil
	}
	var kind replication.EnumRowsEventType
	var what string
	switch ev.Header.EventType {
	case replication.WRITE_ROWS_EVENTv0, replication.WRITE_ROWS_EVENTv1, replication.WRITE_ROWS_EVENTv2, replication.MARIADB_WRITE_ROWS_COMPRESSED_EVENT_V1:
		kind, what = replication.EnumRowsEventTypeInsert, "Write_rows"
	case replication.UPDATE_ROWS_EVENTv0, replication.UPDATE_ROWS_EVENTv1, replication.UPDATE_ROWS_EVENTv2, replication.MARIADB_UPDATE_ROWS_COMPRESSED_EVENT_V1, replication.PARTIAL_UPDATE_ROWS_EVENT:
		kind, what = replication.EnumRowsEventTypeUpdate, "Update_rows"
	case replication.DELETE_ROWS_EVENTv0, replication.DELETE_ROWS_EVENTv1, replication.DELETE_ROWS_EVENTv2, replication.MARIADB_DELETE_ROWS_COMPRESSED_EVENT_V1:
		kind, what = replication.EnumRowsEventTypeDelete, "Delete_rows"
	default:
		return nil
	}
	where := fmt.Sprintf("%s event on table %s.%s", what, db, name)
	t, err := a.r.e.Catalog().Table(db, name)
	if err != nil {
		n, msg := sqlErrorOf(err)
		return &fatalError{errno: n, msg: a.failure(where, msg)}
	}
	skip := func(i int) []int {
		if i < len(e.SkippedColumns) {
			return e.SkippedColumns[i]
		}
		return nil
	}
	minimal := func(i int, before bool) error {
		sk := skip(i)
		if len(sk) == 0 {
			return nil
		}
		// A minimal before image is enough to find the row by its
		// primary key; an after image must be full.
		if before && !t.Primary.Hidden && !touches(sk, t.Primary.Columns) {
			return nil
		}
		return &fatalError{errno: 1105, msg: a.failure(where, "the primary logged a partial row image; set binlog_row_image=FULL on the primary")}
	}
	step := 1
	if kind == replication.EnumRowsEventTypeUpdate {
		step = 2
	}
	for i := 0; i+step <= len(e.Rows); i += step {
		c := change{kind: kind, t: t, where: where}
		if err := minimal(i, kind != replication.EnumRowsEventTypeInsert); err != nil {
			return err
		}
		first, err := convertRow(t, e.Rows[i], skip(i))
		if err != nil {
			return &fatalError{errno: 1105, msg: a.failure(where, err.Error())}
		}
		switch kind {
		case replication.EnumRowsEventTypeInsert:
			c.row = first
		case replication.EnumRowsEventTypeDelete:
			c.old = first
		case replication.EnumRowsEventTypeUpdate:
			if err := minimal(i+1, false); err != nil {
				return err
			}
			c.old = first
			if c.row, err = convertRow(t, e.Rows[i+1], skip(i+1)); err != nil {
				return &fatalError{errno: 1105, msg: a.failure(where, err.Error())}
			}
		}
		a.changes = append(a.changes, c)
	}
	return a.maybeStage(ev)
}

func touches(cols []int, key []int) bool {
	for _, c := range cols {
		for _, k := range key {
			if c == k {
				return true
			}
		}
	}
	return false
}

// failure words an apply error as a MySQL replica does.
func (a *applier) failure(where, msg string) string { return failureAt(where, a.pos, msg) }

// failureAt words an apply error at position p.
func failureAt(where string, p position, msg string) string {
	return fmt.Sprintf("Could not execute %s; %s; the event's master log %s, end_log_pos %d", where, msg, p.File, p.Pos)
}

// commit ends the transaction being received: its changes join the
// batch, and the batch's position becomes the one after it. flush writes
// the batch.
func (a *applier) commit(ctx context.Context, ev *replication.BinlogEvent) error {
	if a.stage != nil {
		return a.commitStaged(ctx)
	}
	if a.batchTxns == 0 {
		a.next = a.pos
	}
	a.next.File, a.next.Pos, a.next.DDL = a.pos.File, a.pos.Pos, ""
	if err := a.advance(&a.next); err != nil {
		return err
	}
	a.batch = append(a.batch, a.changes...)
	a.batchTxns++
	if a.origin != nil {
		a.ends = append(a.ends, txnEnd{n: len(a.batch), origin: *a.origin})
	}
	a.begin("")
	return nil
}

// Batching: while the stream has events waiting, the transactions read
// meanwhile share one engine job (each whole, the position after the
// last of them in the same batch), up to these bounds. A job's indexed
// batch grows dearer per row as it grows: catching up a backlog of
// 1000-row transactions, the writer's time for 200,000 row changes was
// 1.6 s with jobs of at most 4000 changes, 2.4 s at 8000 and 4.0 s at
// 20000 (TestCatchUpSpeed, a loaded machine). With Job.Apply's read-ahead
// and the writer's sorted commits, BenchmarkApplyBacklog's CPU time per
// change (two rounds each) was about the same at 2500 and 5000, 8% more
// at 10000 and 57% more at 20000.
const (
	maxBatchTxns    = 1000
	maxBatchChanges = 5000
	// batchWait is how long the stream may be empty before a batch is
	// written.
	batchWait = 200 * time.Microsecond
)

// full reports a batch that must be written now.
func (a *applier) full() bool {
	return a.batchTxns >= maxBatchTxns || len(a.batch) >= maxBatchChanges
}

// flush hands the batch's changes and its position to the committer, to
// be written as one engine job while the stream reads on. It returns the
// error of an earlier batch the committer failed to write.
func (a *applier) flush(ctx context.Context) error {
	if a.batchTxns == 0 {
		return a.cm.failed()
	}
	if err := a.cm.submit(commitBatch{changes: a.batch, next: a.next, txns: a.batchTxns, ends: a.ends}); err != nil {
		return err
	}
	a.pos = a.next
	// The committer owns the handed slices now.
	a.batch, a.batchTxns, a.ends = make([]change, 0, min(cap(a.batch), maxBatchChanges)), 0, nil
	return nil
}

// settle flushes the batch and waits until the committer has written
// every batch handed to it, returning the first error.
func (a *applier) settle(ctx context.Context) error {
	if err := a.flush(ctx); err != nil {
		return err
	}
	return a.cm.wait()
}

// committer writes the applier's batches, in order, in engine jobs on a
// goroutine of its own, so that converting the next transactions
// overlaps writing the last ones. It publishes each committed position
// to the Replica (under its mutex). submit, wait and close are called by
// the stream goroutine only; after an error it writes nothing more.
type committer struct {
	r       *Replica
	ctx     context.Context
	ch      chan commitBatch
	done    chan struct{}
	pending sync.WaitGroup
	mu      sync.Mutex
	err     error           // the first failed batch's
	buf     []engine.Change // write's, reused
}

// commitBatch is whole transactions and the position after them.
type commitBatch struct {
	changes []change
	next    position
	txns    int
	ends    []txnEnd // nil: the primary's GTIDs are not MariaDB's
}

// commitQueue is how many batches may wait for the writer.
const commitQueue = 2

func newCommitter(ctx context.Context, r *Replica) *committer {
	c := &committer{r: r, ctx: ctx, ch: make(chan commitBatch, commitQueue), done: make(chan struct{})}
	go c.run()
	return c
}

func (c *committer) run() {
	defer close(c.done)
	for b := range c.ch {
		if c.failed() == nil {
			if err := c.write(b); err != nil {
				c.mu.Lock()
				c.err = err
				c.mu.Unlock()
			}
		}
		c.pending.Done()
	}
}

func (c *committer) failed() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// submit queues b; it returns the error of an earlier batch.
func (c *committer) submit(b commitBatch) error {
	if err := c.failed(); err != nil {
		return err
	}
	c.pending.Add(1)
	c.ch <- b
	return nil
}

// wait returns once every submitted batch is written (or failed).
func (c *committer) wait() error {
	c.pending.Wait()
	return c.failed()
}

// close waits for the submitted batches and ends the goroutine.
func (c *committer) close() error {
	close(c.ch)
	<-c.done
	return c.failed()
}

// write applies one batch and its position as one engine job.
func (c *committer) write(b commitBatch) error {
	changes, next := b.changes, b.next
	c.buf = c.buf[:0]
	for i := range changes {
		ch := &changes[i]
		ec := engine.Change{Table: ch.t, Old: ch.old, Row: ch.row}
		switch ch.kind {
		case replication.EnumRowsEventTypeInsert:
			ec.Kind = engine.ChangeInsert
		case replication.EnumRowsEventTypeUpdate:
			ec.Kind = engine.ChangeUpdate
		case replication.EnumRowsEventTypeDelete:
			ec.Kind = engine.ChangeDelete
		}
		c.buf = append(c.buf, ec)
	}
	var failed *change
	job := func(tx *engine.Job) error {
		failed = nil
		start := 0
		apply := func(end int) error {
			n, err := tx.Apply(c.buf[start:end])
			if start+n < end {
				failed = &changes[start+n]
				if err == nil {
					err = errRowMissing
				}
				return err
			}
			start = end
			return nil
		}
		for _, end := range b.ends {
			if err := apply(end.n); err != nil {
				return err
			}
			tx.EndTxn(end.origin)
		}
		if err := apply(len(c.buf)); err != nil {
			return err
		}
		return tx.SetReplicaPosition(next.encode())
	}
	var err error
	for {
		// A row an SQL transaction of the replica holds the lock of
		// (SELECT ... FOR UPDATE: its writes are refused) is waited for
		// and the batch applied again. As a MySQL replica's applier, it
		// waits as long as it takes, trying again after each lock wait
		// timeout or deadlock.
		err = c.r.e.UpdateWaitingRowLocks(engine.Privileged(c.ctx), replicaLockWait, job)
		if err != nil && c.ctx.Err() != nil {
			return c.ctx.Err()
		}
		if !errors.Is(err, engine.ErrLockWaitTimeout) && !errors.Is(err, engine.ErrDeadlock) {
			break
		}
	}
	if err != nil {
		if failed != nil {
			if errors.Is(err, errRowMissing) {
				return &fatalError{errno: 1032, msg: failureAt(failed.where, next, fmt.Sprintf("Can't find record in '%s', Error_code: 1032; handler error HA_ERR_KEY_NOT_FOUND", failed.t.Name))}
			}
			n, msg := sqlErrorOf(err)
			return &fatalError{errno: n, msg: failureAt(failed.where, next, fmt.Sprintf("%s, Error_code: %d", msg, n))}
		}
		return err
	}
	r := c.r
	r.mu.Lock()
	r.st.executed, r.st.retrieved = next.GTID, next.GTID
	r.st.file, r.st.pos = next.File, next.Pos
	r.st.applied += uint64(b.txns)
	r.mu.Unlock()
	return nil
}

var errRowMissing = errors.New("row not found")

// replicaLockWait is how long the applier waits for one row lock before
// it tries its batch again.
const replicaLockWait = 50 * time.Second

// advance adds the transaction's GTID to next.
func (a *applier) advance(next *position) error {
	if a.gtid != "" && a.gset != nil {
		if err := a.gset.Update(a.gtid); err != nil {
			return &fatalError{errno: 1105, msg: fmt.Sprintf("GTID %q: %v", a.gtid, err)}
		}
		next.GTID = a.gset.String()
	}
	return nil
}

// storeDDLMark records that the statement of the current GTID (or
// file:pos) is about to run.
func (a *applier) markDDL(ctx context.Context, id string) error {
	p := a.pos
	p.DDL = id
	return a.r.e.Update(engine.Privileged(ctx), func(tx *engine.Job) error { return tx.SetReplicaPosition(p.encode()) })
}

// query handles a query event: transaction control, DDL, or (refused)
// statement-based DML.
func (a *applier) query(ctx context.Context, ev *replication.BinlogEvent, e *replication.QueryEvent) error {
	q := string(e.Query)
	schema := a.s.rewriteDB(string(e.Schema)) // REPLICATE_REWRITE_DB first (filter.go)
	word, rest := firstWords(q)
	switch word {
	case "BEGIN", "XA":
		if word == "XA" && !strings.HasPrefix(rest, "START") && !strings.HasPrefix(rest, "BEGIN") {
			if strings.HasPrefix(rest, "END") || strings.HasPrefix(rest, "PREPARE") {
				return nil
			}
			return a.commit(ctx, ev) // XA COMMIT
		}
		a.inTxn = true
		return nil
	case "COMMIT":
		return a.commit(ctx, ev)
	case "ROLLBACK":
		if strings.HasPrefix(rest, "TO") {
			name := savepointName(rest)
			if n, ok := a.savepoints[name]; ok {
				return a.rollbackTo(n)
			}
			return nil
		}
		a.begin("")
		return nil
	case "SAVEPOINT":
		if a.savepoints == nil {
			a.savepoints = map[string]int{}
		}
		a.savepoints[savepointName(rest)] = a.stagedN + len(a.changes)
		return nil
	case "RELEASE":
		return nil
	case "INSERT", "UPDATE", "DELETE", "REPLACE", "LOAD":
		if skipDB(schema) || !a.s.dbOK(schema) {
			return nil
		}
		return &fatalError{errno: 1105, msg: fmt.Sprintf("the primary logged a statement instead of rows (%.60q in database %q): set binlog_format=ROW on the primary", q, e.Schema)}
	case "GRANT", "REVOKE", "FLUSH", "SET", "ANALYZE", "OPTIMIZE", "CHECK", "REPAIR":
		a.r.log.Info("replica: statement not applied", "query", q)
		return a.standalone(ctx, ev)
	case "CREATE", "ALTER", "DROP", "RENAME":
		if w, _ := firstWords(rest); w == "USER" || w == "ROLE" {
			a.r.log.Info("replica: statement not applied", "query", q)
			return a.standalone(ctx, ev)
		}
	}
	if !a.s.statementOK(schema, q) {
		a.r.log.Debug("replica: statement filtered out", "db", schema, "query", q)
		return a.standalone(ctx, ev)
	}
	if skipDB(schema) && !mentionsOtherDB(q) {
		return a.standalone(ctx, ev)
	}
	return a.ddl(ctx, ev, Statement{DB: schema, Query: q, Vars: queryCharsets(e.StatusVars)})
}

// standalone advances the position past a statement applied by nothing.
func (a *applier) standalone(ctx context.Context, ev *replication.BinlogEvent) error {
	if a.inTxn {
		return nil
	}
	return a.commit(ctx, ev)
}

// ddl runs a statement through the SQL front, bracketed by position
// records (see position.DDL).
func (a *applier) ddl(ctx context.Context, ev *replication.BinlogEvent, st Statement) error {
	db, q := st.DB, st.Query
	id := a.gtid
	if id == "" {
		id = fmt.Sprintf("%s:%d", a.pos.File, a.pos.Pos)
	}
	again := a.pos.DDL == id
	if err := a.settle(ctx); err != nil {
		return err
	}
	if err := a.markDDL(ctx, id); err != nil {
		return err
	}
	xctx := ctx
	if a.origin != nil {
		xctx = engine.WithOrigin(ctx, *a.origin) // (the statement's log record keeps the primary's GTID)
	}
	if err := a.r.opts.Exec(xctx, st); err != nil {
		n, msg := sqlErrorOf(err)
		if !(again && alreadyDone(n)) {
			return &fatalError{errno: n, msg: fmt.Sprintf("Error '%s' on query. Default database: '%s'. Query: '%s'", msg, db, q)}
		}
		a.r.log.Info("replica: DDL already applied before the restart", "query", q)
	}
	a.r.log.Info("replica: DDL", "db", db, "query", q, "vars", st.Vars)
	if err := a.commit(ctx, ev); err != nil {
		return err
	}
	return a.settle(ctx)
}

// alreadyDone reports the errors of DDL whose effect is there: the object
// exists, or is gone.
func alreadyDone(errno uint) bool {
	switch errno {
	case 1007, 1008, 1050, 1051, 1061, 1091, 1146, 1060:
		return true
	}
	return false
}

// firstWords returns the first keyword of q (upper case), skipping space
// and comments, and the upper-cased text after it.
func firstWords(q string) (string, string) {
	s := strings.TrimSpace(q)
	for strings.HasPrefix(s, "/*") && !strings.HasPrefix(s, "/*!") {
		end := strings.Index(s, "*/")
		if end < 0 {
			return "", ""
		}
		s = strings.TrimSpace(s[end+2:])
	}
	end := strings.IndexFunc(s, func(c rune) bool {
		return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_')
	})
	if end < 0 {
		end = len(s)
	}
	return strings.ToUpper(s[:end]), strings.ToUpper(strings.TrimSpace(s[end:]))
}

// savepointName takes the name out of "SAVEPOINT x" / "ROLLBACK TO x".
func savepointName(rest string) string {
	rest = strings.TrimPrefix(rest, "TO")
	rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(rest), "SAVEPOINT"))
	return strings.Trim(rest, "` ")
}

// mentionsOtherDB reports a statement, run in a system schema, that may
// name a table elsewhere (db.table): it is applied.
func mentionsOtherDB(q string) bool { return strings.Contains(q, ".") }
