// Package engine keeps HandlerDB's tables in Pebble: the catalog of
// databases, tables and indexes, the rows and their index entries, lookups
// and scans, and the single writer that group-commits every change.
//
// Concurrency: an *Engine is safe for concurrent use. Reads (Find, Scan,
// Catalog) take no lock and see only committed data. Every change runs as
// a job inside Update; jobs from all goroutines are applied in arrival
// order by one writer goroutine to one batch per group, which is committed
// once. A *Job is valid only inside its job's function and must not be
// retained or shared. Catalog objects are immutable snapshots.
//
// The engine imports no protocol package.
package engine

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
)

// Engine is an open store.
type Engine struct {
	opts      Options
	db        *pebble.DB
	cat       atomic.Pointer[Catalog]
	w         writer
	gateState // the global read lock's (readlock.go)
	// blobGen grows after every committed group that wrote a system
	// record; blobs caches records read under a generation (Blob).
	blobGen atomic.Uint64
	blobs   sync.Map // name -> *cachedBlob
	// jobsStarted counts the jobs the writer has begun to run, jobsDone
	// the jobs of every group that has ended (committed or failed): both
	// written by the writer goroutine only, read by any. A Txn whose
	// writes were all checked while no job ran replays them unchecked
	// (Txn.Commit).
	jobsStarted, jobsDone atomic.Uint64
	// walFS defers the log's fsyncs in DurabilityOS and DurabilityNone;
	// nil in DurabilitySync.
	walFS *deferredSyncFS

	mu      sync.RWMutex // guards closed against Update's submission
	closed  bool
	pending sync.WaitGroup // jobs submitted and not yet answered

	stats Stats

	stopSync chan struct{}
	syncDone chan struct{}
	reads    sync.Pool                     // *readState
	rc       *rowCache                     // nil when Options.RowCacheSize < 0
	bounds   keyBounds                     // the writer's key bounds (bounds.go)
	drops    dropper                       // deferred deletion of retired index entries
	checker  atomic.Pointer[rowCheckerBox] // SetRowChecker (rowchecker.go)
	versions versionWatch                  // early flushes of rewritten rows (versionflush.go)
	locks    LockTable                     // row locks of SQL transactions (locks.go)
	groupEnd groupWaiters                  // Locker.Lock waiting for a job's group to end (locks.go)

	// readOnly refuses the writes of unprivileged jobs (replica.go).
	readOnly atomic.Bool
}

// Open opens (or creates) the store in opts.Dir and loads its catalog.
func Open(opts Options) (*Engine, error) {
	opts.EnsureDefaults()
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	cache := pebble.NewCache(opts.CacheSize)
	defer cache.Unref()
	popts := &pebble.Options{
		Cache:                       cache,
		MemTableSize:                uint64(opts.MemTableSize),
		MemTableStopWritesThreshold: 4,
		// L0 is compacted once it is 8 sublevels deep, not Pebble's 4:
		// fewer and larger L0 compactions took 12% less CPU per insert
		// (HS insert 16x16, 3 alternating rounds) and 3% per update, at
		// the price of up to 8 L0 files (each behind a bloom filter) for a
		// read the row cache does not answer: the SQL reports over a fresh
		// dump load took a median 2% longer (bench-reports.sh, 4 runs each,
		// the worst report 14%).
		L0CompactionThreshold: 8,
		L0StopWritesThreshold: 1000,
		LBaseMaxBytes:         256 << 20,
		Logger:                quietLogger{},
	}
	// Every mode commits with pebble.Sync, so that a commit returns only
	// after its group is written to the log file; in os and none the log's
	// fsync is deferred (deferredSyncFS), which is all they give up.
	var walFS *deferredSyncFS
	if opts.Durability != DurabilitySync {
		walFS = newDeferredSyncFS(opts.FS)
		popts.FS = walFS
	} else {
		popts.FS = prewrittenWALFS{FS: opts.FS, size: opts.MemTableSize}
	}
	// Bloom filters on every level: a point lookup (primary key, unique
	// index, unique check) then skips the files that cannot hold its key.
	for i := range popts.Levels {
		popts.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
		popts.Levels[i].FilterType = pebble.TableFilter
	}
	db, err := pebble.Open(opts.Dir, popts)
	if err != nil {
		return nil, fmt.Errorf("engine: open %s: %w", opts.Dir, err)
	}
	// Staged jobs a crash interrupted never reached the store.
	if err := opts.FS.RemoveAll(opts.FS.PathJoin(opts.Dir, stageDirName)); err != nil {
		db.Close()
		return nil, err
	}
	e := &Engine{opts: opts, db: db, walFS: walFS}
	e.locks.e = e
	if opts.RowCacheSize > 0 {
		e.rc = newRowCache(opts.RowCacheSize)
	}
	if err := e.loadCatalog(); err != nil {
		db.Close()
		return nil, err
	}
	if err := e.loadFeedSeq(); err != nil {
		db.Close()
		return nil, err
	}
	e.reads.New = func() any { return new(readState) }
	e.w.start(e)
	if err := e.loadDrops(); err != nil {
		e.w.stop()
		db.Close()
		return nil, err
	}
	if opts.Durability == DurabilityOS {
		e.stopSync = make(chan struct{})
		e.syncDone = make(chan struct{})
		go e.syncLoop()
	}
	return e, nil
}

// Options returns the options the engine was opened with (defaults filled).
func (e *Engine) Options() Options { return e.opts }

// Catalog returns the current catalog snapshot.
func (e *Engine) Catalog() *Catalog { return e.cat.Load() }

// DB exposes the underlying Pebble database for metrics, checkpoints and
// benchmarks. Writing to it directly bypasses every invariant of the engine.
func (e *Engine) DB() *pebble.DB { return e.db }

// Close waits for submitted jobs to commit, stops the writer and closes the
// store. Calls made after Close began return ErrClosed.
func (e *Engine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return ErrClosed
	}
	e.closed = true
	e.mu.Unlock()
	e.stopDrops()
	e.pending.Wait()
	e.w.stop()
	e.groupEnd.wake() // a wait for a group that will never end returns
	if e.stopSync != nil {
		close(e.stopSync)
		<-e.syncDone
	}
	// A clean shutdown loses nothing in any mode: closing the store closes
	// the log, which fsyncs it (deferredSyncFile.Close).
	return e.db.Close()
}

// syncLoop fsyncs the WAL once per SyncInterval (DurabilityOS).
func (e *Engine) syncLoop() {
	defer close(e.syncDone)
	t := time.NewTicker(e.opts.SyncInterval)
	defer t.Stop()
	for {
		select {
		case <-e.stopSync:
			return
		case <-t.C:
			_ = e.walFS.SyncWAL()
		}
	}
}

func (e *Engine) loadCatalog() error {
	cat := &Catalog{dbs: map[string]*Database{}, nextTableID: 1}
	if v, closer, err := e.db.Get(metaKey); err == nil {
		var m metaJSON
		jerr := json.Unmarshal(v, &m)
		closer.Close()
		if jerr != nil {
			return &Error{Kind: ErrCorrupt, Detail: fmt.Sprintf("catalog meta: %v", jerr)}
		}
		cat.Version, cat.nextTableID = m.Version, m.NextTableID
	} else if !errors.Is(err, pebble.ErrNotFound) {
		return err
	}
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte{sysPrefix}, UpperBound: []byte{sysPrefix + 1}})
	if err != nil {
		return err
	}
	defer it.Close()
	var tables []*Table
	for it.First(); it.Valid(); it.Next() {
		k := it.Key()
		if len(k) < 2 {
			continue
		}
		switch k[1] {
		case sysDatabase:
			d, err := unmarshalDatabase(string(k[2:]), it.Value())
			if err != nil {
				return err
			}
			cat.dbs[d.Name] = d
		case sysTable:
			t, err := unmarshalTable(it.Value())
			if err != nil {
				return err
			}
			tables = append(tables, t)
		}
	}
	if err := it.Error(); err != nil {
		return err
	}
	for _, t := range tables {
		d := cat.dbs[t.DB]
		if d == nil {
			return tableError(ErrCorrupt, t, "table "+t.Name+" in missing database "+t.DB)
		}
		d.tables[t.Name] = t
		for _, c := range []struct {
			kind byte
			dst  *atomic.Uint64
		}{{sysAutoInc, &t.rt.autoInc}, {sysRowID, &t.rt.rowID}} {
			v, closer, err := e.db.Get(tableSysKey(c.kind, t.ID))
			if errors.Is(err, pebble.ErrNotFound) {
				continue
			} else if err != nil {
				return err
			}
			if len(v) == 8 {
				c.dst.Store(binary.BigEndian.Uint64(v))
			}
			closer.Close()
		}
	}
	e.cat.Store(cat)
	return nil
}

// Stats are the engine's running counters, safe to read at any time.
type Stats struct {
	RowsRead    atomic.Int64 // rows handed to Find callbacks and iterators
	RowsWritten atomic.Int64 // rows inserted, updated or deleted (committed)
	Groups      atomic.Int64 // group commits
	GroupJobs   atomic.Int64 // jobs in those groups
	// StagedPeakBytes is the most memory one committed staged job
	// (stage.go) held at once: its buffered chunk and staging memtables.
	StagedPeakBytes atomic.Int64
	// EarlyFlushes counts the memtable flushes started because reads
	// stepped over too many shadowed versions (versionflush.go).
	EarlyFlushes atomic.Int64
}

// Stats returns the engine's counters.
func (e *Engine) Stats() *Stats { return &e.stats }

// Checkpoint writes a consistent copy of the whole store, as of one
// moment, into dir (which must not exist), while reads and writes go on.
// Starting an engine on dir restores it. Safe for concurrent use.
func (e *Engine) Checkpoint(dir string) error {
	e.mu.RLock()
	closed := e.closed
	e.mu.RUnlock()
	if closed {
		return ErrClosed
	}
	return e.db.Checkpoint(dir, pebble.WithFlushedWAL())
}

// quietLogger drops Pebble's informational messages and keeps errors.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any) {}
func (quietLogger) Errorf(format string, args ...any) {
	pebble.DefaultLogger.Errorf(format, args...)
}
func (quietLogger) Fatalf(format string, args ...any) {
	pebble.DefaultLogger.Fatalf(format, args...)
}
