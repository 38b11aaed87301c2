package engine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"sync/atomic"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
	"github.com/cockroachdb/pebble/v2/objstorage/objstorageprovider"
	"github.com/cockroachdb/pebble/v2/sstable"
	"github.com/cockroachdb/pebble/v2/vfs"

	"github.com/handlerdb/handlerdb/internal/types"
)

// A staged job is a job too large to hold in one batch: a transaction of
// millions of rows (the replica's large primary transactions). Its writes
// go to a staging store, a throwaway Pebble database without a log in a
// directory under the data directory, and its own reads see them laid
// over the committed store. Commit writes every staged key (values and
// deletions) into one sstable in key order and adds it to the store with
// one db.Ingest, which readers see all at once; a crash before that leaves
// the store as it was (the staging directory is removed at the next Open),
// after it the whole job is there. Memory holds one chunk of writes
// (StageOptions.ChunkBytes) and the staging store's memtables, however
// large the job.
//
// Readers of the store never see staged writes. Writers are not held off:
// a staged job's reads of committed data and the ingest that ends it are
// not one atomic step, so nothing else may write the keys it touches from
// BeginStage to Commit (the replica holds this: while it runs the engine is
// read-only for every job but its own, and its stream applies one
// transaction at a time after the batches before it are committed).

// stageDirName is the directory under Options.Dir that holds staging
// stores; Open removes what a crash left there.
const stageDirName = "handlerdb-stage"

// StageOptions configure BeginStage. A zero field means its default.
type StageOptions struct {
	// ChunkBytes is how many bytes of writes are buffered before they go
	// to the staging store. Default 1 MiB.
	ChunkBytes int
	// MemTableBytes is the staging store's memtable size. Default 4 MiB
	// (two are queued at most; a third may be allocated while one is
	// flushed).
	MemTableBytes int64
	// CacheBytes is the staging store's block cache. Default 8 MiB. A
	// job whose unique checks read many keys of its own (a large load)
	// goes faster with more: a 200,000-row LOAD DATA of a table with a
	// secondary index took 1.1-1.7 s with 32 MiB, 2.4-3.3 s with 8 MiB.
	CacheBytes int64
	// NewKeys says every row the job writes is an insert of a new row
	// (LOAD DATA): Commit then checks, on the writer goroutine right
	// before the ingest, that no key the job sets under a primary or
	// unique index of its tables is in the store, and fails with
	// ErrTableDefChanged (nothing ingested) if one is: another job
	// wrote it after the staged job looked, and the ingest would
	// overwrite that row. The check reads one key per such index entry,
	// on the writer goroutine. Without NewKeys the caller keeps others
	// off the job's keys (see above).
	NewKeys bool
	// Owner is the job's own row locks: LOAD DATA ... REPLACE takes the
	// row it replaces exclusively before it reads it, so that nothing
	// else changes that row until the job ends. With NewKeys, Commit's
	// check lets a primary key be in the store when Owner holds its row
	// exclusively (the job replaced it). The caller releases Owner after
	// Commit or Abort.
	Owner *Locker
}

// Stage is one staged job. Its methods are not safe for concurrent use:
// one goroutine (not the writer's: Stage's calls may block on I/O) makes
// all of them. Reads of committed data go to the store directly, so that
// goroutine may run while the writer commits other jobs.
type Stage struct {
	e     *Engine
	w     batchWriter
	st    stageStore
	dir   string
	cat   *Catalog
	ended bool
	// newKeys and tables: StageOptions.NewKeys and the tables written.
	newKeys bool
	owner   *Locker // StageOptions.Owner
	tables  map[*Table]struct{}
}

// stageStore holds a staged job's writes: chunk, an indexed batch on the
// staging database sdb, takes them until it reaches ChunkBytes and is then
// applied to sdb. Every value is tagged: stagedSet then the value, or
// stagedDel alone (a deletion must hide the committed key, so it is a
// value of the staging store, not a Pebble tombstone there).
type stageStore struct {
	db       *pebble.DB // the engine's store
	sdb      *pebble.DB
	chunk    *pebble.Batch
	chunkMax int
	buf      []byte
	peak     int64 // the most bytes the chunk and sdb's memtables held
	keys     int64 // keys written (with repeats)
	bytes    int64 // their keys' and values' bytes
}

const (
	stagedSet = 's'
	stagedDel = 'd'
)

var errStageRange = errors.New("engine: a staged job cannot delete a key range")

// stageSeq names staging directories within one process.
var stageSeq atomic.Uint64

// BeginStage starts a staged job. Like Update, while the engine is
// read-only it may write only with a Privileged ctx. The caller must
// Commit or Abort it.
func (e *Engine) BeginStage(ctx context.Context, o StageOptions) (*Stage, error) {
	e.mu.RLock()
	closed := e.closed
	e.mu.RUnlock()
	if closed {
		return nil, ErrClosed
	}
	if o.ChunkBytes <= 0 {
		o.ChunkBytes = 1 << 20
	}
	if o.MemTableBytes <= 0 {
		o.MemTableBytes = 4 << 20
	}
	fs := e.opts.FS
	dir := fs.PathJoin(e.opts.Dir, stageDirName, fmt.Sprintf("%d-%d", os.Getpid(), stageSeq.Add(1)))
	if err := fs.RemoveAll(dir); err != nil {
		return nil, err
	}
	if o.CacheBytes <= 0 {
		o.CacheBytes = 8 << 20
	}
	cache := pebble.NewCache(o.CacheBytes)
	defer cache.Unref()
	popts := &pebble.Options{
		Cache:                       cache,
		DisableWAL:                  true,
		FS:                          fs,
		MemTableSize:                uint64(o.MemTableBytes),
		MemTableStopWritesThreshold: 2,
		Logger:                      quietLogger{},
	}
	for i := range popts.Levels {
		popts.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
		popts.Levels[i].FilterType = pebble.TableFilter
	}
	sdb, err := pebble.Open(dir, popts)
	if err != nil {
		return nil, fmt.Errorf("engine: staging store: %w", err)
	}
	s := &Stage{e: e, dir: dir, cat: e.cat.Load(), newKeys: o.NewKeys, owner: o.Owner, tables: map[*Table]struct{}{}}
	s.st = stageStore{db: e.db, sdb: sdb, chunk: sdb.NewIndexedBatch(), chunkMax: o.ChunkBytes}
	s.w.e = e
	s.w.stage = &s.st
	s.w.readOnly = !e.mayWrite(ctx)
	return s, nil
}

// Catalog is the catalog the staged job started with; its tables are the
// ones to write.
func (s *Stage) Catalog() *Catalog { return s.cat }

// Insert is Job.Insert into the staged job.
func (s *Stage) Insert(t *Table, row Row) (uint64, error) {
	s.tables[t] = struct{}{}
	return s.w.Insert(t, row)
}

// Update is Job.Update in the staged job.
func (s *Stage) Update(t *Table, old, row Row) (bool, error) { return s.w.Update(t, old, row) }

// Delete is Job.Delete in the staged job.
func (s *Stage) Delete(t *Table, row Row) (bool, error) { return s.w.Delete(t, row) }

// SetReplicaPosition is Job.SetReplicaPosition: the position is ingested
// with the staged rows.
func (s *Stage) SetReplicaPosition(pos []byte) error { return s.w.set(replicaKey, pos) }

// PeakMemory is the most bytes the job's buffered chunk and its staging
// store's memtables held at once (sampled when a chunk is applied and at
// Commit).
func (s *Stage) PeakMemory() int64 { return s.st.peak }

// Written is how many keys, and bytes of keys and values, the job wrote
// (a key written twice counts twice).
func (s *Stage) Written() (keys, bytes int64) { return s.st.keys, s.st.bytes }

// Commit ingests every staged write as one atomic step and removes the
// staging store. The ingest waits for the writer (it runs after a group
// commit, on the writer goroutine) and fails with ErrTableDefChanged if a
// DDL job changed the catalog since BeginStage. After an error nothing of
// the job is in the store.
func (s *Stage) Commit(ctx context.Context) error {
	if s.ended {
		return errors.New("engine: staged job already ended")
	}
	defer s.Abort()
	s.w.persistCounters()
	if err := s.st.apply(); err != nil {
		return err
	}
	path := s.e.opts.FS.PathJoin(s.dir, "ingest.sst")
	n, err := s.st.writeTable(s.e.db, s.e.opts.FS, path)
	if err != nil || n == 0 {
		return err
	}
	err = s.e.Update(ctx, func(tx *Job) error {
		if tx.readOnly {
			return ErrReadOnly
		}
		if tx.cat != s.cat {
			return &Error{Kind: ErrTableDefChanged, Detail: "a table changed during a staged job"}
		}
		tx.ingest = append(tx.ingest, path)
		if s.newKeys {
			tx.ingestCheck = s.checkNewKeys
		}
		return nil
	})
	if err != nil {
		return err
	}
	s.w.delta.commit()
	s.e.stats.RowsWritten.Add(s.w.rows)
	if p := s.st.peak; p > s.e.stats.StagedPeakBytes.Load() {
		s.e.stats.StagedPeakBytes.Store(p)
	}
	return nil
}

// checkNewKeys fails when a key the job sets under a primary or unique
// index of a table it wrote is already in the store (StageOptions.NewKeys).
func (s *Stage) checkNewKeys() error {
	for t := range s.tables {
		for _, idx := range t.Indexes {
			if !idx.Primary && !idx.Unique {
				continue
			}
			it, err := s.st.sdb.NewIter(&pebble.IterOptions{LowerBound: idx.prefix, UpperBound: prefixEnd(nil, idx.prefix)})
			if err != nil {
				return err
			}
			for ok := it.First(); ok; ok = it.Next() {
				if v := it.Value(); len(v) == 0 || v[0] != stagedSet {
					continue
				}
				_, closer, err := s.e.db.Get(it.Key())
				if err == nil {
					closer.Close()
					if idx.Primary && s.owner != nil && s.owner.holdsExclusive(t.ID, it.Key()[len(idx.prefix):]) {
						continue // a row the job replaced, held since it read it
					}
					it.Close()
					return tableError(ErrTableDefChanged, t, "rows of "+t.DB+"."+t.Name+" were written during a staged load")
				}
				if !errors.Is(err, pebble.ErrNotFound) {
					it.Close()
					return err
				}
			}
			err = it.Error()
			it.Close()
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// Abort discards the staged job (nothing of it reaches the store) and
// removes its staging store. It may be called after Commit, which calls
// it.
func (s *Stage) Abort() error {
	if s.ended {
		return nil
	}
	s.ended = true
	s.st.chunk.Close()
	err := s.st.sdb.Close()
	if rerr := s.e.opts.FS.RemoveAll(s.dir); err == nil {
		err = rerr
	}
	return err
}

// set and del tag the write and buffer it in the chunk.
func (st *stageStore) set(k, v []byte) error {
	st.buf = append(append(st.buf[:0], stagedSet), v...)
	return st.put(k, st.buf)
}

func (st *stageStore) del(k []byte) error {
	return st.put(k, []byte{stagedDel})
}

func (st *stageStore) put(k, v []byte) error {
	if err := st.chunk.Set(k, v, nil); err != nil {
		return err
	}
	st.keys++
	st.bytes += int64(len(k) + len(v))
	if st.chunk.Len() >= st.chunkMax {
		return st.apply()
	}
	return nil
}

// apply moves the chunk into the staging store, noting the memory held.
func (st *stageStore) apply() error {
	m := st.sdb.Metrics()
	if held := int64(st.chunk.Len()) + int64(m.MemTable.Size); held > st.peak {
		st.peak = held
	}
	if st.chunk.Empty() {
		return nil
	}
	if err := st.chunk.Commit(pebble.NoSync); err != nil {
		return err
	}
	st.chunk.Reset()
	return nil
}

// get reads key as the staged job sees it: its own write, else the
// committed value.
func (st *stageStore) get(key, dst []byte) ([]byte, bool, error) {
	v, closer, err := st.chunk.Get(key)
	if err == nil {
		defer closer.Close()
		if len(v) == 0 || v[0] == stagedDel {
			return dst[:0], false, nil
		}
		return append(dst[:0], v[1:]...), true, nil
	}
	if !errors.Is(err, pebble.ErrNotFound) {
		return dst[:0], false, err
	}
	return readInto(st.db, key, dst)
}

// scan calls fn with every key and value of [lo, hi) as the staged job
// sees them, in key order, until fn returns false.
func (st *stageStore) scan(lo, hi []byte, fn func(k, v []byte) bool) error {
	opts := &pebble.IterOptions{LowerBound: lo, UpperBound: hi}
	si, err := st.chunk.NewIter(opts)
	if err != nil {
		return err
	}
	defer si.Close()
	ci, err := st.db.NewIter(opts)
	if err != nil {
		return err
	}
	defer ci.Close()
	sok, cok := si.First(), ci.First()
	for sok || cok {
		var c int
		switch {
		case !sok:
			c = 1
		case !cok:
			c = -1
		default:
			c = bytes.Compare(si.Key(), ci.Key())
		}
		if c <= 0 {
			v := si.Value()
			if len(v) > 0 && v[0] == stagedSet && !fn(si.Key(), v[1:]) {
				return nil
			}
			if c == 0 {
				cok = ci.Next()
			}
			sok = si.Next()
			continue
		}
		if !fn(ci.Key(), ci.Value()) {
			return nil
		}
		cok = ci.Next()
	}
	if err := si.Error(); err != nil {
		return err
	}
	return ci.Error()
}

// lookupHidden is batchWriter.lookup for a table without a primary key:
// the first row equal to row in every column, and its row id.
func (st *stageStore) lookupHidden(t *Table, row Row) (Row, uint64, error) {
	var (
		hit   Row
		rowID uint64
		derr  error
	)
	err := st.scan(t.Primary.prefix, prefixEnd(nil, t.Primary.prefix), func(_, v []byte) bool {
		r, id, err := decodeRow(nil, t, v)
		if err != nil {
			derr = err
			return false
		}
		for i := range r {
			if types.Compare(&t.Columns[i].Type, r[i], row[i]) != 0 {
				return true
			}
		}
		hit, rowID = r.Clone(), id
		return false
	})
	if err == nil {
		err = derr
	}
	return hit, rowID, err
}

// writeTable writes the staging store's keys into one sstable at path on
// fs for db to ingest: values as sets, stagedDel as deletions. It returns
// how many keys it wrote.
func (st *stageStore) writeTable(db *pebble.DB, fs vfs.FS, path string) (int, error) {
	f, err := fs.Create(path, vfs.WriteCategoryUnspecified)
	if err != nil {
		return 0, err
	}
	w := sstable.NewWriter(objstorageprovider.NewFileWritable(f), sstable.WriterOptions{
		TableFormat:  db.TableFormat(),
		FilterPolicy: bloom.FilterPolicy(10),
		FilterType:   pebble.TableFilter,
	})
	it, err := st.sdb.NewIter(nil)
	if err != nil {
		w.Close()
		return 0, err
	}
	n := 0
	for ok := it.First(); ok && err == nil; ok = it.Next() {
		v := it.Value()
		if len(v) > 0 && v[0] == stagedSet {
			err = w.Set(it.Key(), v[1:])
		} else {
			err = w.Delete(it.Key())
		}
		n++
	}
	if err == nil {
		err = it.Error()
	}
	it.Close()
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	return n, err
}
