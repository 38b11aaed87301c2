package engine

import (
	"context"
	"encoding/binary"
	"errors"
	"slices"

	"github.com/cockroachdb/pebble/v2"

	"github.com/handlerdb/handlerdb/internal/types"
)

// The change feed: every committed job's row changes, in commit order.
//
// While a feed is installed (SetChangeFeed), the writer's jobs note each
// row they insert, update or delete (batchWriter.note: the table, a copy
// of the old row as stored and of the new one), a savepoint notes how
// many there were and a rollback drops those after it, so a failed job
// or a statement rolled back inside a job (Job.RollbackTo) leaves
// nothing in the feed. Each job that changed rows is one FeedTxn, with
// the next sequence number; the number is stored with the group's rows,
// in the same batch, so that numbers are never given twice, even after a
// crash. The feed function is called once the group is durable (after
// its fsync with PipelineSync), by the goroutine that answers the jobs,
// so in commit order and before the jobs' callers see their answers.
//
// Every writer path passes through the job's insert, updateRow and
// deleteRow (HandlerSocket's lines, a SQL transaction's commit, the
// replica's Apply, bulk inserts). Not in the feed yet: the rows of staged
// jobs (LOAD DATA, big replicated transactions), which are ingested as
// sstables after the batch; DDL (CREATE, DROP, TRUNCATE, ALTER), which
// has no row images.

// FeedTxn is one committed job's row changes, or the statement it ran.
type FeedTxn struct {
	Seq     uint64   // 1, 2, ...: one more than the last job's that changed rows
	Changes []Change // in the order the job made them; the receiver owns them
	// Statement, when set, is the DDL statement the job ran
	// (Job.LogStatement); Changes is then empty.
	Statement *Statement
	// Origin, when set, is the transaction's identity on the server
	// where it was first committed (a replica applying its primary's:
	// Job.EndTxn, WithOrigin); nil for one of this server's own.
	Origin *Origin
	// Record is what the change log stored for the transaction
	// (SetChangeLog; nil without one), as the feed delivers it.
	Record []byte
}

// Origin names a transaction by the server that first committed it, as
// a MariaDB GTID does: its domain, server id and sequence number.
type Origin struct {
	Domain, Server uint32
	Seq            uint64
}

// unloggedKey is Unlogged's context key.
type unloggedKey struct{}

// Unlogged returns ctx for jobs whose changes stay out of the change feed
// and log (as MariaDB's sql_log_bin=0): a replica's initial copy, whose
// rows are the primary's as of a GTID rather than transactions of its
// own.
func Unlogged(ctx context.Context) context.Context {
	return context.WithValue(ctx, unloggedKey{}, true)
}

// originKey is WithOrigin's context key.
type originKey struct{}

// WithOrigin returns ctx with the origin of the transaction a job
// submitted with it commits (a replica's DDL, run through the SQL
// layer): the job's FeedTxn carries it.
func WithOrigin(ctx context.Context, o Origin) context.Context {
	return context.WithValue(ctx, originKey{}, o)
}

// originOf is the origin ctx carries, nil for none.
func originOf(ctx context.Context) *Origin {
	if o, ok := ctx.Value(originKey{}).(Origin); ok {
		return &o
	}
	return nil
}

// EndTxn ends, in the change feed, one transaction of origin o inside
// the job: the job's changes made since its start or its last EndTxn
// are one FeedTxn with that origin, and what follows another (a
// replica applies many of its primary's transactions in one job, each
// keeping its identity). A rollback of the job, or to a savepoint taken
// before, drops the mark. A no-op while no feed or log is installed.
func (tx *Job) EndTxn(o Origin) {
	if !tx.feeding {
		return
	}
	tx.e.w.feedJobs = append(tx.e.w.feedJobs, feedJob{end: len(tx.changes), origin: &o})
}

// Statement is a DDL statement as a log names it: its text and the
// database it ran in.
type Statement struct {
	DB, Text string
}

// LogStatement makes the job, in the change feed, the statement text run
// in database db (CREATE, ALTER, DROP, ...) instead of its row changes:
// a table rebuilt by ALTER is not a stream of inserts. A job logs one
// statement (the last one given). A no-op while no feed or log is
// installed.
func (tx *Job) LogStatement(db, text string) {
	if !tx.feeding {
		return
	}
	clear(tx.changes[tx.jobStart:])
	tx.changes = tx.changes[:tx.jobStart]
	tx.stmt = &Statement{DB: db, Text: text}
}

// feedFn is an installed feed function.
type feedFn func([]FeedTxn)

// logFn is an installed change log's record maker (SetChangeLog).
type logFn func(FeedTxn) ([]byte, error)

// logKey is where the record of transaction seq is stored.
func logKey(seq uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte{sysPrefix, sysLog}, seq)
}

// SetChangeLog installs record, which makes the stored record of each
// committed transaction of the feed: from the next group on, each job
// that changes rows is numbered (as for SetChangeFeed, which it needs
// not) and record's bytes are stored under its number in the group's own
// batch, so that the log and the rows cannot disagree after any crash.
// An error of record fails the group. record runs on the writer
// goroutine, before the commit; nil removes it. ReadChangeLog reads the
// records. Safe for concurrent use.
func (e *Engine) SetChangeLog(record func(FeedTxn) ([]byte, error)) {
	if record == nil {
		e.w.log.Store(nil)
		return
	}
	f := logFn(record)
	e.w.log.Store(&f)
}

// ReadChangeLog calls fn with each stored record numbered from on, in
// order, until fn returns false or the records end. rec is valid only
// during the call. Safe for concurrent use.
func (e *Engine) ReadChangeLog(from uint64, fn func(seq uint64, rec []byte) bool) error {
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: logKey(from), UpperBound: []byte{sysPrefix, sysLog + 1}})
	if err != nil {
		return err
	}
	for ok := it.First(); ok; ok = it.Next() {
		k := it.Key()
		if len(k) != 10 {
			continue
		}
		if !fn(binary.BigEndian.Uint64(k[2:]), it.Value()) {
			break
		}
	}
	return errors.Join(it.Error(), it.Close())
}

// LastChangeLog returns the last stored record and its number (0 and
// nil when there is none). rec is a copy. Safe for concurrent use.
func (e *Engine) LastChangeLog() (uint64, []byte, error) {
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: logKey(0), UpperBound: []byte{sysPrefix, sysLog + 1}})
	if err != nil {
		return 0, nil, err
	}
	var seq uint64
	var rec []byte
	for ok := it.Last(); ok; ok = it.Prev() {
		if k := it.Key(); len(k) == 10 {
			seq, rec = binary.BigEndian.Uint64(k[2:]), slices.Clone(it.Value())
			break
		}
	}
	return seq, rec, errors.Join(it.Error(), it.Close())
}

// feedKey holds the last sequence number given.
var feedKey = []byte{sysPrefix, sysFeed}

// SetChangeFeed installs fn to receive every committed job's row changes
// from the next group on (see FeedTxn); nil removes it. fn runs on the
// goroutine that answers the jobs and must return quickly: the next
// group's answers wait for it. Safe for concurrent use.
func (e *Engine) SetChangeFeed(fn func([]FeedTxn)) {
	if fn == nil {
		e.w.feed.Store(nil)
		return
	}
	f := feedFn(fn)
	e.w.feed.Store(&f)
}

// FeedSeq returns the sequence number of the last committed job that
// changed rows while a feed was installed (0 before any). Safe for
// concurrent use.
func (e *Engine) FeedSeq() uint64 { return e.w.feedDone.Load() }

// loadFeedSeq reads the last sequence number given, at Open.
func (e *Engine) loadFeedSeq() error {
	v, closer, err := e.db.Get(feedKey)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	defer closer.Close()
	if len(v) != 8 {
		return errors.New("engine: bad change feed record")
	}
	e.w.feedSeq = binary.BigEndian.Uint64(v)
	e.w.feedDone.Store(e.w.feedSeq)
	return nil
}

// note records a row change of the job, when a feed is installed and
// the job logs no statement.
func (w *batchWriter) note(kind ChangeKind, t *Table, old, row Row) {
	if !w.feeding || w.stmt != nil {
		return
	}
	c := Change{Kind: kind, Table: t}
	if old != nil {
		c.Old = w.arena.clone(old)
	}
	if row != nil {
		c.Row = w.arena.clone(row)
	}
	w.changes = append(w.changes, c)
}

// changeArena holds the change feed's copies of rows in chunks, so that
// a copy costs no allocation of its own. A chunk is never reused (the
// feed's receiver owns what it gets): the collector frees it with the
// last copy in it. The writer's goroutine only (its batchWriter's).
type changeArena struct {
	vals  []types.Value
	bytes []byte
}

// Chunk sizes of changeArena.
const (
	arenaVals  = 1024
	arenaBytes = 64 << 10
)

// clone copies r, its bytes too, into the arena.
func (a *changeArena) clone(r Row) Row {
	n := 0
	for i := range r {
		n += len(r[i].B)
	}
	if cap(a.vals)-len(a.vals) < len(r) {
		a.vals = make([]types.Value, 0, max(arenaVals, len(r)))
	}
	at := len(a.vals)
	a.vals = a.vals[:at+len(r)]
	c := Row(a.vals[at : at+len(r) : at+len(r)])
	if n > 0 && cap(a.bytes)-len(a.bytes) < n {
		a.bytes = make([]byte, 0, max(arenaBytes, n))
	}
	for i, v := range r {
		c[i] = v
		if v.B != nil {
			start := len(a.bytes)
			a.bytes = append(a.bytes, v.B...)
			c[i].B = a.bytes[start:len(a.bytes):len(a.bytes)]
		}
	}
	return c
}

// feedJob is where one job's changes end in the group's, and the
// statement it logged.
type feedJob struct {
	end    int
	stmt   *Statement
	origin *Origin
}

// feedTxns cuts the group's changes into one FeedTxn per job that made
// any or logged a statement, numbered after seq.
func feedTxns(changes []Change, jobs []feedJob, seq uint64) []FeedTxn {
	var out []FeedTxn
	start := 0
	for _, j := range jobs {
		if j.end > start || j.stmt != nil {
			seq++
			out = append(out, FeedTxn{Seq: seq, Changes: slices.Clone(changes[start:j.end]), Statement: j.stmt, Origin: j.origin})
		}
		start = j.end
	}
	return out
}

// FeedSeq returns the number of the last transaction of the change feed
// committed before the snapshot was taken (read in the snapshot: the
// number is stored with the rows).
func (s *Snapshot) FeedSeq() (uint64, error) {
	v, closer, err := s.s.Get(feedKey)
	if errors.Is(err, pebble.ErrNotFound) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	defer closer.Close()
	if len(v) != 8 {
		return 0, errors.New("engine: bad change feed record")
	}
	return binary.BigEndian.Uint64(v), nil
}

// PurgeChangeLog deletes the change log's records numbered below before,
// as part of the job (the numbers are not given again).
func (tx *Job) PurgeChangeLog(before uint64) error {
	return tx.delRange(logKey(0), logKey(before))
}
