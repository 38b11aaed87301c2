package replica

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-mysql-org/go-mysql/client"
	gmysql "github.com/go-mysql-org/go-mysql/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The initial copy.
//
// A replica that holds no table and has no position yet (a new one, or
// one after RESET REPLICA that dropped its tables) does not read the
// primary's binary log from its beginning, which the primary may have
// purged long ago: it first copies the primary, as `mysqldump
// --single-transaction --master-data` would, and then streams from the
// point of the copy.
//
//  1. One connection to the primary opens a consistent snapshot (START
//     TRANSACTION WITH CONSISTENT SNAPSHOT) and learns the binary log
//     position that snapshot stands for. MariaDB gives it without any
//     lock (the status variables binlog_snapshot_file and _position, and
//     BINLOG_GTID_POS of them); a MySQL primary is held under FLUSH TABLES
//     WITH READ LOCK (the replication user then needs RELOAD) while the
//     snapshot opens and SHOW MASTER STATUS is read.
//  2. Every database but the system ones is created here from SHOW CREATE
//     DATABASE, and every base table from SHOW CREATE TABLE, through the
//     SQL front (Options.Exec). Views, routines and triggers are not
//     copied. No snapshot covers those statements, so they are read
//     before the snapshot opens and again after: when the two readings
//     differ, DDL ran in between and the copy starts again.
//  3. The rows of each table the filters want are read in that snapshot
//     (binary protocol, so FLOAT, DOUBLE and dates arrive exactly;
//     ENUM, SET and BIT as numbers; TIMESTAMP in UTC; strings as the
//     column's bytes) and written in engine jobs of copyBatchRows rows,
//     while the next batch is read.
//  4. The position of the snapshot is stored, and streaming starts there:
//     every transaction committed before the snapshot is in the copied
//     rows, every later one comes from the binary log.
//
// The position record carries Copy from before step 2 until step 4. A
// replica that stopped during the copy (a crash, STOP REPLICA, a lost
// connection) finds it there at its next start: it drops the databases
// holding tables (all of them the copy's) and copies again. DDL on the
// primary during the copy can make the snapshot's reads fail (MySQL error
// 1412); the copy is then started again too.
//
// Progress (rows copied, the primary's estimate of the total, rows per
// second and the time left) is logged every copyLogEvery, shown in SHOW
// REPLICA STATUS as Replica_SQL_Running_State and in /metrics
// (Replica.Stats).

// copyBatchRows bounds the rows of one engine job of the copy, and
// copyBatchBytes their size.
const (
	copyBatchRows  = 4096
	copyBatchBytes = 4 << 20
	copyLogEvery   = 2 * time.Second
)

// copyProgress is the state of a running initial copy, kept by the
// Replica under its mutex (the copy updates it once per batch).
type copyProgress struct {
	start time.Time
	rows  uint64 // rows written so far
	total uint64 // the primary's estimate of all rows to copy
	table string // the table being copied, db.name
}

// copyDone is the outcome of a finished copy.
type copyDone struct {
	rows, total uint64
	rate        float64
}

// rate is the rows per second since the copy started.
func (p *copyProgress) rate() float64 {
	s := time.Since(p.start).Seconds()
	if s <= 0 {
		return 0
	}
	return float64(p.rows) / s
}

// eta is the time the copy still needs at its rate so far; -1 when
// unknown.
func (p *copyProgress) eta() time.Duration {
	r := p.rate()
	if r <= 0 || p.total == 0 {
		return -1
	}
	left := float64(p.total) - float64(p.rows)
	if left < 0 {
		left = 0
	}
	return time.Duration(left / r * float64(time.Second))
}

// state words the progress for Replica_SQL_Running_State.
func (p *copyProgress) state() string {
	eta := "unknown"
	if d := p.eta(); d >= 0 {
		eta = d.Round(time.Second).String()
	}
	return fmt.Sprintf("Initial copy: %d of about %d rows, %.0f rows/s, ETA %s (table %s)", p.rows, p.total, p.rate(), eta, p.table)
}

// needsCopy reports whether the replica must copy the primary before
// streaming: a copy was interrupted, or there is no position and no
// table.
func (r *Replica) needsCopy(pos position) bool {
	if pos.Copy {
		return true
	}
	if pos.GTID != "" || pos.File != "" {
		return false
	}
	return r.tableDatabases() == nil
}

// tableDatabases lists the replica's databases that hold a table, but
// the system ones.
func (r *Replica) tableDatabases() []string {
	cat := r.e.Catalog()
	var out []string
	for _, name := range cat.Databases() {
		if skipDB(name) {
			continue
		}
		if d, err := cat.Database(name); err == nil && (len(d.Tables()) > 0 || len(d.HiddenTables()) > 0) {
			out = append(out, name)
		}
	}
	return out
}

// copyTable is one table to copy.
type copyTable struct {
	db, name string
	into     string // the database here: db, or what REPLICATE_REWRITE_DB renames it to
	estimate uint64 // the primary's TABLE_ROWS
	create   string // the primary's SHOW CREATE TABLE
}

// copyError is an error of the copy that stops the replica, as an IO
// (the primary refused) or SQL (applying failed) error.
func copyFatal(io bool, errno uint, format string, args ...any) error {
	return &fatalError{io: io, errno: errno, msg: "initial copy: " + fmt.Sprintf(format, args...)}
}

// copySnapshotHook, when set (by tests), runs right after the copy's
// snapshot is taken.
var copySnapshotHook atomic.Pointer[func()]

// retryable reports an error of the copy that starting it again may
// cure: the connection, or the snapshot spoilt by DDL (1412).
func retryable(err error) bool {
	var me *gmysql.MyError
	if errors.As(err, &me) {
		return me.Code == 1412
	}
	return true
}

// primaryError classifies an error of a statement on the primary during
// the copy.
func primaryError(err error, what string) error {
	if retryable(err) {
		return fmt.Errorf("initial copy: %s: %w", what, err)
	}
	var me *gmysql.MyError
	errors.As(err, &me)
	return copyFatal(true, uint(me.Code), "%s: %s", what, me.Message)
}

// initialCopy copies the primary (see the comment above) and returns the
// position to stream from, which it has stored.
func (r *Replica) initialCopy(ctx context.Context, s *source, flavor string, pos position) (position, error) {
	// The copy's writes are the primary's rows as of a GTID, not
	// transactions of the replica's own: they stay out of its binary log,
	// which starts at that GTID (Options.CopiedAt).
	ctx = engine.Unlogged(ctx)
	if pos.Copy {
		// An interrupted copy: what it created goes.
		for _, db := range r.tableDatabases() {
			if err := r.opts.Exec(ctx, Statement{Query: "DROP DATABASE " + quoteName(db)}); err != nil {
				n, msg := sqlErrorOf(err)
				return pos, copyFatal(false, n, "dropping %s, left by an interrupted copy: %s", db, msg)
			}
		}
	}
	c, err := dialSource(ctx, s)
	if err != nil {
		return pos, err
	}
	defer c.Close()
	stop := context.AfterFunc(ctx, func() { c.Close() })
	defer stop()
	run := func(q string, args ...any) (*gmysql.Result, error) {
		res, err := c.Execute(q, args...)
		if err != nil {
			return nil, primaryError(err, q)
		}
		return res, nil
	}
	for _, q := range []string{
		"SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ",
		"SET SESSION time_zone = '+00:00'",
		"SET SESSION net_write_timeout = 3600",
		"SET SESSION wait_timeout = 86400",
	} {
		if _, err := run(q); err != nil {
			return pos, err
		}
	}
	// The schemas are read before the snapshot and again after it: SHOW
	// CREATE TABLE is not part of a snapshot, so only when both readings
	// agree is the second one the schema the snapshot's rows have (DDL
	// after it comes from the stream, and the rows are read by column
	// name).
	before, err := r.readSchemas(run)
	if err != nil {
		return pos, err
	}
	next, err := snapshot(c, run, flavor)
	if err != nil {
		return pos, err
	}
	if hook := copySnapshotHook.Load(); hook != nil {
		(*hook)()
	}
	schemas, err := r.readSchemas(run)
	if err != nil {
		return pos, err
	}
	if !sameSchemas(before, schemas) {
		return pos, errSchemaMoved
	}
	r.log.Info("replica: initial copy: snapshot", "gtid", next.GTID, "file", next.File, "pos", next.Pos)

	// The marker goes first: from here on a restart copies again.
	mark := position{Flavor: flavor, Copy: true}
	if err := r.e.Update(engine.Privileged(ctx), func(tx *engine.Job) error { return tx.SetReplicaPosition(mark.encode()) }); err != nil {
		return pos, err
	}
	tables, err := r.copySchemas(ctx, schemas)
	if err != nil {
		return pos, err
	}
	var total uint64
	for _, t := range tables {
		total += t.estimate
	}
	prog := &copyProgress{start: time.Now(), total: total}
	r.setCopy(prog)
	defer r.setCopy(nil)
	if _, err := run("SET SESSION character_set_results = binary"); err != nil {
		return pos, err
	}
	lastLog := time.Now()
	ld := newLoader(ctx, r.e, func(n int) {
		r.mu.Lock()
		prog.rows += uint64(n)
		p := *prog
		r.mu.Unlock()
		if time.Since(lastLog) >= copyLogEvery {
			lastLog = time.Now()
			r.log.Info("replica: initial copy", "rows", p.rows, "total_estimate", p.total, "rows_per_s", int64(p.rate()), "eta", p.eta().Round(time.Second), "table", p.table)
		}
	})
	for _, ct := range tables {
		r.mu.Lock()
		prog.table = ct.db + "." + ct.name
		r.mu.Unlock()
		err := r.copyRows(c, ct, ld)
		if err != nil {
			ld.close()
			return pos, err
		}
	}
	if err := ld.close(); err != nil {
		return pos, err
	}
	c.Execute("COMMIT")
	if err := r.e.Update(engine.Privileged(ctx), func(tx *engine.Job) error {
		if f := r.opts.CopiedAt; f != nil && flavor == gmysql.MariaDBFlavor {
			if err := f(tx, next.GTID); err != nil {
				return err
			}
		}
		return tx.SetReplicaPosition(next.encode())
	}); err != nil {
		return pos, err
	}
	r.mu.Lock()
	rows, rate := prog.rows, prog.rate()
	r.st.lastCopy = &copyDone{rows: rows, total: prog.total, rate: rate}
	r.st.executed, r.st.retrieved = next.GTID, next.GTID
	r.st.file, r.st.pos = next.File, next.Pos
	r.mu.Unlock()
	r.log.Info("replica: initial copy done", "rows", rows, "tables", len(tables), "rows_per_s", int64(rate), "seconds", time.Since(prog.start).Seconds(), "gtid", next.GTID, "file", next.File, "pos", next.Pos)
	return next, nil
}

// setCopy publishes the copy's progress (nil: no copy runs).
func (r *Replica) setCopy(p *copyProgress) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.copy = p
}

// snapshot opens the consistent snapshot on c and returns the binary log
// position it stands for.
func snapshot(c *client.Conn, run func(string, ...any) (*gmysql.Result, error), flavor string) (position, error) {
	p := position{Flavor: flavor}
	if flavor == gmysql.MariaDBFlavor {
		if _, err := run("START TRANSACTION WITH CONSISTENT SNAPSHOT"); err != nil {
			return p, err
		}
		res, err := run("SHOW STATUS LIKE 'binlog_snapshot_%'")
		if err != nil {
			return p, err
		}
		for i := range res.Values {
			name, _ := res.GetString(i, 0)
			val, _ := res.GetString(i, 1)
			switch strings.ToLower(name) {
			case "binlog_snapshot_file":
				p.File = val
			case "binlog_snapshot_position":
				var n uint32
				fmt.Sscan(val, &n)
				p.Pos = n
			}
		}
		if p.File == "" {
			return p, copyFatal(true, 1105, "the primary has no binary log (binlog_snapshot_file is empty): start it with log_bin")
		}
		res, err = run("SELECT BINLOG_GTID_POS(?, ?)", p.File, p.Pos)
		if err != nil {
			return p, err
		}
		p.GTID, _ = res.GetString(0, 0)
		return p, nil
	}
	// MySQL: no snapshot position without a moment of global read lock.
	if _, err := run("FLUSH TABLES WITH READ LOCK"); err != nil {
		return p, err
	}
	unlock := func() { c.Execute("UNLOCK TABLES") }
	if _, err := run("START TRANSACTION WITH CONSISTENT SNAPSHOT"); err != nil {
		unlock()
		return p, err
	}
	res, err := c.Execute("SHOW MASTER STATUS")
	if err != nil {
		// MySQL 8.4 renamed it.
		res, err = c.Execute("SHOW BINARY LOG STATUS")
	}
	unlock()
	if err != nil {
		return p, primaryError(err, "SHOW BINARY LOG STATUS")
	}
	if len(res.Values) == 0 {
		return p, copyFatal(true, 1105, "the primary has no binary log (SHOW MASTER STATUS is empty): start it with log_bin")
	}
	p.File, _ = res.GetString(0, 0)
	n, _ := res.GetUint(0, 1)
	p.Pos = uint32(n)
	if len(res.Fields) >= 5 {
		g, _ := res.GetString(0, 4)
		p.GTID = strings.ReplaceAll(strings.ReplaceAll(g, "\n", ""), " ", "")
	}
	return p, nil
}

// copySchema is what the copy creates of one database: the primary's
// SHOW CREATE DATABASE and, in order, its wanted tables with their SHOW
// CREATE TABLE.
type copySchema struct {
	db, into, create string
	tables           []copyTable
}

// readSchemas reads the CREATE statements of the primary's databases and
// of the base tables the filters want (a table they leave out is not
// created, as its CREATE TABLE in the stream would not be; a database is,
// if the filters take its CREATE DATABASE or one of its tables; a database
// REPLICATE_REWRITE_DB renames is created, and its tables filtered, under
// the new name).
func (r *Replica) readSchemas(run func(string, ...any) (*gmysql.Result, error)) ([]copySchema, error) {
	res, err := run("SHOW DATABASES")
	if err != nil {
		return nil, err
	}
	var dbs []string
	for i := range res.Values {
		name, _ := res.GetString(i, 0)
		if !skipDB(name) {
			dbs = append(dbs, name)
		}
	}
	var out []copySchema
	for _, db := range dbs {
		res, err := run("SELECT TABLE_NAME, TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_TYPE = 'BASE TABLE' ORDER BY TABLE_NAME", db)
		if err != nil {
			return nil, err
		}
		sc := copySchema{db: db, into: r.rewriteDB(db)}
		for i := range res.Values {
			name, _ := res.GetString(i, 0)
			n, _ := res.GetUint(i, 1)
			if r.wantedTable(sc.into, name) {
				sc.tables = append(sc.tables, copyTable{db: db, name: name, into: sc.into, estimate: n})
			}
		}
		if len(sc.tables) == 0 && !r.wantedDB(sc.into) {
			continue
		}
		res, err = run("SHOW CREATE DATABASE " + quoteName(db))
		if err != nil {
			return nil, err
		}
		sc.create, _ = res.GetString(0, 1)
		for i := range sc.tables {
			t := &sc.tables[i]
			res, err := run("SHOW CREATE TABLE " + quoteName(db) + "." + quoteName(t.name))
			if err != nil {
				return nil, err
			}
			t.create, _ = res.GetString(0, 1)
		}
		out = append(out, sc)
	}
	return out, nil
}

// errSchemaMoved: the primary's schemas read before the copy's snapshot
// and after it differ, so DDL ran in between and the schema the snapshot
// stands for is unknown; the copy starts again (retryable says so, as it
// is not a MySQL error).
var errSchemaMoved = errors.New("initial copy: the primary's tables changed while the snapshot was taken")

// sameSchemas reports whether two readings of readSchemas hold the same
// databases, tables and CREATE statements (the row estimates aside).
func sameSchemas(a, b []copySchema) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].db != b[i].db || a[i].create != b[i].create || len(a[i].tables) != len(b[i].tables) {
			return false
		}
		for j := range a[i].tables {
			if a[i].tables[j].name != b[i].tables[j].name || a[i].tables[j].create != b[i].tables[j].create {
				return false
			}
		}
	}
	return true
}

// copySchemas creates the databases and tables of schemas here and
// returns the tables whose rows to copy.
func (r *Replica) copySchemas(ctx context.Context, schemas []copySchema) ([]copyTable, error) {
	var out []copyTable
	exec := func(db, q string) error {
		if err := r.opts.Exec(ctx, Statement{DB: db, Query: q}); err != nil {
			n, msg := sqlErrorOf(err)
			return copyFatal(false, n, "Error '%s' on query. Default database: '%s'. Query: '%s'", msg, db, q)
		}
		return nil
	}
	for _, sc := range schemas {
		create := sc.create
		if rest, ok := cutFold(create, "CREATE DATABASE "); ok {
			if sc.into != sc.db {
				rest = quoteName(sc.into) + strings.TrimPrefix(rest, quoteName(sc.db))
			}
			create = "CREATE DATABASE IF NOT EXISTS " + rest
		}
		if err := exec("", create); err != nil {
			return nil, err
		}
		for _, t := range sc.tables {
			if err := exec(sc.into, t.create); err != nil {
				return nil, err
			}
			out = append(out, t)
		}
	}
	return out, nil
}

// wantedDB reports whether the filters take database db, as they would
// its CREATE DATABASE (filters.dbStatementOK).
func (r *Replica) wantedDB(db string) bool {
	r.mu.Lock()
	s := r.src
	r.mu.Unlock()
	return s == nil || s.dbStatementOK(db)
}

// rewriteDB is db as the source's REPLICATE_REWRITE_DB renames it.
func (r *Replica) rewriteDB(db string) string {
	r.mu.Lock()
	s := r.src
	r.mu.Unlock()
	if s == nil {
		return db
	}
	return s.rewriteDB(db)
}

// wantedTable applies the source's filters to the rows of db.name.
func (r *Replica) wantedTable(db, name string) bool {
	r.mu.Lock()
	s := r.src
	r.mu.Unlock()
	if s == nil {
		return !skipDB(db)
	}
	return (&applier{s: s}).wanted(db, name)
}

// copyRows reads the rows of ct in the snapshot and hands them to ld in
// batches.
func (r *Replica) copyRows(c *client.Conn, ct copyTable, ld *loader) error {
	t, err := r.e.Catalog().Table(ct.into, ct.name)
	if err != nil {
		n, msg := sqlErrorOf(err)
		return copyFatal(false, n, "%s", msg)
	}
	cols := make([]string, len(t.Columns))
	for i := range t.Columns {
		col := &t.Columns[i]
		q := quoteName(col.Name)
		switch col.Type.Kind {
		case types.Enum, types.Set, types.Bit:
			// Their numbers are what the engine stores (and the binlog
			// carries).
			q += "+0"
		}
		cols[i] = q
	}
	q := "SELECT " + strings.Join(cols, ", ") + " FROM " + quoteName(ct.db) + "." + quoteName(ct.name)
	stmt, err := c.Prepare(q)
	if err != nil {
		return primaryError(err, q)
	}
	defer stmt.Close()
	var batch []engine.Row
	size := 0
	vals := make([]any, len(t.Columns))
	hand := func() error {
		if len(batch) == 0 {
			return nil
		}
		if err := ld.load(t, batch); err != nil {
			return err
		}
		batch, size = nil, 0
		return nil
	}
	var res gmysql.Result
	var convErr error
	err = stmt.ExecuteSelectStreaming(&res, func(row []gmysql.FieldValue) error {
		for i := range row {
			vals[i] = row[i].Value()
		}
		er, err := convertRow(t, vals, nil)
		if err != nil {
			convErr = copyFatal(false, 1105, "table %s.%s: %v", ct.db, ct.name, err)
			return convErr
		}
		batch = append(batch, er)
		for _, v := range er {
			size += 8 + len(v.B)
		}
		if len(batch) >= copyBatchRows || size >= copyBatchBytes {
			return hand()
		}
		return nil
	}, nil)
	if convErr != nil {
		return convErr
	}
	if err != nil {
		var fe *fatalError
		if errors.As(err, &fe) {
			return err
		}
		return primaryError(err, q)
	}
	return hand()
}

// loader writes the copy's batches in engine jobs on a goroutine of its
// own, so that reading the next batch from the primary overlaps writing
// the last one; that goroutine calls written with the rows of each
// committed job. load and close are called by the copy's goroutine only.
type loader struct {
	ch   chan loadBatch
	done chan struct{}
	mu   sync.Mutex
	err  error // the first failed job's
}

type loadBatch struct {
	t    *engine.Table
	rows []engine.Row
}

func newLoader(ctx context.Context, e *engine.Engine, written func(int)) *loader {
	l := &loader{ch: make(chan loadBatch, 2), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		var cs []engine.Change
		for b := range l.ch {
			if l.failed() != nil {
				continue
			}
			cs = cs[:0]
			for _, row := range b.rows {
				cs = append(cs, engine.Change{Kind: engine.ChangeInsert, Table: b.t, Row: row})
			}
			err := e.Update(engine.Privileged(ctx), func(tx *engine.Job) error {
				_, err := tx.Apply(cs)
				return err
			})
			if err == nil {
				written(len(b.rows))
				continue
			}
			n, msg := sqlErrorOf(err)
			l.mu.Lock()
			l.err = copyFatal(false, n, "writing rows of %s.%s: %s", b.t.DB, b.t.Name, msg)
			if ctx.Err() != nil {
				l.err = ctx.Err()
			}
			l.mu.Unlock()
		}
	}()
	return l
}

func (l *loader) failed() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.err
}

// load queues a batch; it returns the error of an earlier batch.
func (l *loader) load(t *engine.Table, rows []engine.Row) error {
	if err := l.failed(); err != nil {
		return err
	}
	l.ch <- loadBatch{t: t, rows: rows}
	return nil
}

// close waits for the queued batches and returns the first error.
func (l *loader) close() error {
	close(l.ch)
	<-l.done
	return l.failed()
}

// quoteName quotes an identifier with backquotes.
func quoteName(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// cutFold is strings.CutPrefix ignoring case.
func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}
