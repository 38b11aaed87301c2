package engine

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The read benchmarks share one store of benchRows rows:
// (id BIGINT PRIMARY KEY, u INT UNIQUE, name VARCHAR(64)), u = id*3+1.
// Compare BenchmarkFindPK and BenchmarkFindUnique with BenchmarkRawGet
// (Pebble's own Get of the same primary keys) from the same run.
const benchRows = 1_000_000

var bench struct {
	once   sync.Once
	dir    string
	e      *Engine
	t      *Table
	keys   []byte // raw primary keys, keyLen bytes each, for BenchmarkRawGet
	keyLen int
	err    error
}

func benchStore(b *testing.B) (*Engine, *Table) {
	bench.once.Do(func() {
		bench.dir, bench.err = os.MkdirTemp("", "handlerdb-bench-")
		if bench.err != nil {
			return
		}
		bench.e, bench.err = Open(Options{Dir: bench.dir, Durability: DurabilityNone, CacheSize: 1 << 30})
		if bench.err != nil {
			return
		}
		bench.err = bench.e.Update(context.Background(), func(tx *Job) error {
			if err := tx.CreateDatabase("b"); err != nil {
				return err
			}
			var err error
			bench.t, err = tx.CreateTable("b", &TableDef{Name: "t",
				Columns: []types.Column{
					{Name: "id", Type: types.Type{Kind: types.BigInt}},
					{Name: "u", Type: intType()},
					{Name: "name", Type: varcharType(64, "")},
				},
				Indexes: []IndexDef{{Primary: true, Columns: []string{"id"}}, {Name: "u", Unique: true, Columns: []string{"u"}}}})
			return err
		})
		for start := 0; start < benchRows && bench.err == nil; start += 10000 {
			bench.err = bench.e.Update(context.Background(), func(tx *Job) error {
				for id := start; id < start+10000; id++ {
					if _, err := tx.Insert(bench.t, row(iv(int64(id)), iv(int64(id*3+1)), sv(fmt.Sprintf("name-%08d", id)))); err != nil {
						return err
					}
				}
				return nil
			})
		}
		if bench.err != nil {
			return
		}
		// One flat array, so the baseline does not chase a pointer per key.
		for id := 0; id < benchRows; id++ {
			bench.keys = appendIndexKey(bench.keys, bench.t, bench.t.Primary, row(iv(int64(id)), iv(0), sv("")))
		}
		bench.keyLen = len(bench.keys) / benchRows
		// Settle the LSM (no compaction running under the benchmark), then
		// warm the block cache.
		if bench.err = bench.e.db.Compact(context.Background(), []byte{dataPrefix}, []byte{dataPrefix + 1}, true); bench.err != nil {
			return
		}
		for id := 0; id < benchRows; id++ {
			if _, c, err := bench.e.db.Get(rawKey(id)); err == nil {
				c.Close()
			}
		}
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.e, bench.t
}

func closeBenchStore() {
	if bench.e != nil {
		bench.e.Close()
		os.RemoveAll(bench.dir)
	}
}

// next is a cheap deterministic sequence over [0, benchRows).
func nextKey(x *uint64) int64 {
	*x ^= *x << 13
	*x ^= *x >> 7
	*x ^= *x << 17
	return int64(*x % benchRows)
}

var sinkI int64

func rawKey(id int) []byte { return bench.keys[id*bench.keyLen : (id+1)*bench.keyLen] }

func BenchmarkRawGet(b *testing.B) {
	e, _ := benchStore(b)
	x := uint64(88172645463325252)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		v, c, err := e.db.Get(rawKey(int(nextKey(&x))))
		if err != nil {
			b.Fatal(err)
		}
		sinkI += int64(len(v))
		c.Close()
	}
}

func BenchmarkFindPK(b *testing.B) {
	e, t := benchStore(b)
	x := uint64(88172645463325252)
	q := &Query{Op: OpEQ, Key: make([]types.Value, 1)}
	fn := func(r Row) bool { sinkI += r[0].I; return true }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q.Key[0] = types.Value{I: nextKey(&x)}
		if err := e.Find(t, q, fn); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFindUnique(b *testing.B) {
	e, t := benchStore(b)
	x := uint64(88172645463325252)
	q := &Query{Index: t.Index("u"), Op: OpEQ, Key: make([]types.Value, 1)}
	fn := func(r Row) bool { sinkI += r[0].I; return true }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q.Key[0] = types.Value{I: nextKey(&x)*3 + 1}
		if err := e.Find(t, q, fn); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRange100(b *testing.B) {
	e, t := benchStore(b)
	x := uint64(88172645463325252)
	q := &Query{Op: OpGE, Key: make([]types.Value, 1), Limit: 100}
	n := 0
	fn := func(r Row) bool { n++; return true }
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		q.Key[0] = types.Value{I: nextKey(&x) % (benchRows - 100)}
		if err := e.Find(t, q, fn); err != nil {
			b.Fatal(err)
		}
	}
	if n != 100*b.N {
		b.Fatalf("scanned %d rows, want %d", n, 100*b.N)
	}
}

// BenchmarkInsertSync measures single-row inserts in DurabilitySync mode
// with 1 and 16 concurrent callers; group commit is what makes the second
// faster per insert.
//
// pipeline=true sets Options.PipelineSync (the next group is applied
// while the last one's fsync runs).
func BenchmarkInsertSync(b *testing.B) {
	for _, c := range []struct {
		callers int
		pipe    bool
	}{{1, false}, {16, false}, {16, true}} {
		callers := c.callers
		b.Run(fmt.Sprintf("callers=%d/pipeline=%v", callers, c.pipe), func(b *testing.B) {
			e := openTestEngine(b, "", DurabilitySync, withPipelineSync(c.pipe))
			t := createTable(b, e, "b", &TableDef{Name: "t",
				Columns: []types.Column{{Name: "id", Type: types.Type{Kind: types.BigInt}, AutoIncrement: true}, {Name: "name", Type: varcharType(64, "")}},
				Indexes: []IndexDef{{Primary: true, Columns: []string{"id"}}}})
			var groups, jobs atomic.Int64
			e.SetGroupHook(func(g GroupStats) { groups.Add(1); jobs.Add(int64(g.Jobs)) })
			var next atomic.Int64
			b.ResetTimer()
			var wg sync.WaitGroup
			for c := 0; c < callers; c++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					r := row(null(), sv("some name of moderate length"))
					for next.Add(1) <= int64(b.N) {
						err := e.Update(context.Background(), func(tx *Job) error {
							r[0] = null()
							_, err := tx.Insert(t, r)
							return err
						})
						if err != nil {
							b.Error(err)
							return
						}
					}
				}()
			}
			wg.Wait()
			b.StopTimer()
			if g := groups.Load(); g > 0 {
				b.ReportMetric(float64(jobs.Load())/float64(g), "jobs/group")
			}
		})
	}
}

// BenchmarkUpdate16x16 is HandlerSocket's update workload without the
// network: 16 callers, each job updating 16 random rows of a 100k-row
// table by primary key (as one write-port batch does), DurabilityOS. It
// reports the process CPU per updated row, which is what the end-to-end
// comparison with MariaDB counts.
func BenchmarkUpdate16x16(b *testing.B) {
	for _, mt := range []int64{1 << 20, 4 << 20, 8 << 20, 16 << 20, 64 << 20} {
		b.Run(fmt.Sprintf("memtable=%dMiB", mt>>20), func(b *testing.B) { benchUpdate16x16(b, mt) })
	}
}

func benchUpdate16x16(b *testing.B, memtable int64) {
	e := openTestEngine(b, "", DurabilityOS, withBlockCache(0), withMemTable(memtable))
	const rows = 100_000
	t := createTable(b, e, "b", &TableDef{Name: "t",
		Columns: []types.Column{{Name: "id", Type: intType()}, {Name: "name", Type: varcharType(64, "")}, {Name: "email", Type: varcharType(255, "")}},
		Indexes: []IndexDef{{Primary: true, Columns: []string{"id"}}}})
	for start := 0; start < rows; start += 1000 {
		update(b, e, func(tx *Job) error {
			for id := start; id < start+1000; id++ {
				if _, err := tx.Insert(t, row(iv(int64(id)), sv(fmt.Sprintf("name-%d", id)), sv(fmt.Sprintf("user%d@example.com", id)))); err != nil {
					return err
				}
			}
			return nil
		})
	}
	// Warm the row cache, as a server that has been serving the table has.
	q := &Query{Op: OpEQ, Key: make([]types.Value, 1)}
	for id := range int64(rows) {
		q.Key[0] = types.Value{I: id}
		if err := e.Find(t, q, func(Row) bool { return true }); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	st0 := e.RowCacheStats()
	cpu0 := processCPU()
	b.ResetTimer()
	var wg sync.WaitGroup
	for c := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			x := uint64(c+1) * 0x9E3779B97F4A7C15
			q := &Query{Op: OpEQ, Key: make([]types.Value, 1)}
			m := &Modify{Op: ModUpdate, Columns: []int{1}, Values: []types.Value{sv("a new name")}}
			for next.Add(16) <= int64(b.N)+15 {
				err := e.Update(context.Background(), func(tx *Job) error {
					for range 16 {
						q.Key[0] = types.Value{I: nextKey(&x) % rows}
						if _, err := tx.FindModify(t, q, m); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
	st := e.RowCacheStats()
	b.ReportMetric(float64(st.Misses-st0.Misses)/float64(b.N), "cache-misses/op")
}

// processCPU is the user+system CPU time of this process, in nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkRawSet256 is the floor under BenchmarkUpdate16x16: Pebble alone
// (the engine's own options and DB), committing batches of 256 Sets of
// 100-byte values at random keys of a 100k-key space, as one group commit
// of 16 jobs x 16 updates writes them. Reports process CPU per Set.
func BenchmarkRawSet256(b *testing.B) {
	e := openTestEngine(b, "", DurabilityOS, withBlockCache(0))
	const keys = 100_000
	key := func(i uint64) []byte {
		return binary.BigEndian.AppendUint64([]byte{dataPrefix, 0, 0, 0, 9, 0, 0, 0, 1}, i)
	}
	val := make([]byte, 100)
	for start := uint64(0); start < keys; start += 1000 {
		batch := e.db.NewBatch()
		for i := start; i < start+1000; i++ {
			batch.Set(key(i), val, nil)
		}
		if err := batch.Commit(pebble.Sync); err != nil {
			b.Fatal(err)
		}
	}
	x := uint64(88172645463325252)
	cpu0 := processCPU()
	b.ResetTimer()
	for n := 0; n < b.N; n += 256 {
		batch := e.db.NewBatch()
		for range 256 {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			batch.Set(key(x%keys), val, nil)
		}
		if err := batch.Commit(pebble.Sync); err != nil {
			b.Fatal(err)
		}
		batch.Close()
	}
	b.StopTimer()
	b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N), "cpu-ns/op")
}

// BenchmarkRowCacheGet is a row cache hit at random among 100k cached
// rows of 60 bytes (hsbench's table), the cache's part of a get.
func BenchmarkRowCacheGet(b *testing.B) {
	c := newRowCache(64 << 20)
	const n = 100_000
	keys := make([][]byte, n)
	val := make([]byte, 60)
	for i := range keys {
		keys[i] = binary.BigEndian.AppendUint64([]byte{dataPrefix, 0, 0, 0, 1, 1}, uint64(i))
		h, s := c.hash(keys[i])
		s.mu.Lock()
		c.put(h, s, keys[i], val)
		s.mu.Unlock()
	}
	x := uint64(88172645463325252)
	var dst []byte
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k := keys[nextKey(&x)%n]
		h, s := c.hash(k)
		var ok bool
		if dst, ok, _, _, _ = c.get(h, s, k, dst); !ok {
			b.Fatal("miss")
		}
	}
}

// BenchmarkFindBatch runs point finds in batches of 16 over 100k rows
// the row cache holds, as a connection's pipelined buffer runs them,
// with and without a Prefetcher's look-ahead over each batch first. One
// op is one find.
func BenchmarkFindBatch(b *testing.B) {
	e, t := benchStore(b)
	const domain = 100_000
	q := &Query{Op: OpEQ, Key: make([]types.Value, 1)}
	fn := func(r Row) bool { sinkI += r[0].I; return true }
	for id := 0; id < domain; id++ { // fill the row cache
		q.Key[0] = types.Value{I: int64(id)}
		if err := e.Find(t, q, fn); err != nil {
			b.Fatal(err)
		}
	}
	for _, ahead := range []bool{false, true} {
		b.Run(fmt.Sprintf("prefetch=%v", ahead), func(b *testing.B) {
			x := uint64(88172645463325252)
			var batch [16]types.Value
			var p Prefetcher
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i += len(batch) {
				for j := range batch {
					batch[j] = types.Value{I: nextKey(&x) % domain}
					if ahead {
						p.Add(e, t, t.Primary, batch[j:j+1])
					}
				}
				p.Issue()
				for j := range batch {
					q.Key[0] = batch[j]
					if err := e.Find(t, q, fn); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
