package engine

import (
	"context"
	"fmt"
	"math/rand"
	randv2 "math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2/vfs"
)

// The power-loss test runs the crash test's workload in process on a
// crashable in-memory file system (vfs.NewCrashableMem). At a random
// moment it takes the file system's crash clone: what was synced, plus,
// in some rounds, a random part of what was written but not synced (a
// torn tail), which is what a machine that loses power keeps. The store
// must open on the clone, every index must match its rows, no job may be
// half there, and the acknowledged jobs that are missing must lie within
// the window of the durability mode: none in sync; in os the last
// SyncInterval or so; in none the writes of the newest log or two (about
// two memtables).

// walWatchFS wraps the test's file system: it counts the bytes written to
// log files and, when dropSync is set, turns every sync of a log file into
// a no-op (the negative control: a sync mode whose fsyncs do nothing must
// be caught losing acknowledged writes). Safe for concurrent use.
type walWatchFS struct {
	vfs.FS
	dropSync bool
	walBytes atomic.Int64
}

func (fs *walWatchFS) Create(name string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.Create(name, category)
	return fs.wrap(f, err, category)
}

func (fs *walWatchFS) ReuseForWrite(oldname, newname string, category vfs.DiskWriteCategory) (vfs.File, error) {
	f, err := fs.FS.ReuseForWrite(oldname, newname, category)
	return fs.wrap(f, err, category)
}

func (fs *walWatchFS) wrap(f vfs.File, err error, category vfs.DiskWriteCategory) (vfs.File, error) {
	if err != nil || category != walCategory {
		return f, err
	}
	return &walWatchFile{File: f, fs: fs}, nil
}

type walWatchFile struct {
	vfs.File
	fs *walWatchFS
}

func (f *walWatchFile) Write(p []byte) (int, error) {
	n, err := f.File.Write(p)
	f.fs.walBytes.Add(int64(n))
	return n, err
}

func (f *walWatchFile) WriteAt(p []byte, off int64) (int, error) {
	n, err := f.File.WriteAt(p, off)
	f.fs.walBytes.Add(int64(n))
	return n, err
}

func (f *walWatchFile) Sync() error {
	if f.fs.dropSync {
		return nil
	}
	return f.File.Sync()
}

func (f *walWatchFile) SyncData() error {
	if f.fs.dropSync {
		return nil
	}
	return f.File.SyncData()
}

func (f *walWatchFile) SyncTo(length int64) (bool, error) {
	if f.fs.dropSync {
		return false, nil
	}
	return f.File.SyncTo(length)
}

// powerLossRun is one round's setting.
type powerLossRun struct {
	d            Durability
	mem          int64         // MemTableSize; 0: the default
	syncInterval time.Duration // DurabilityOS; 0: the default
	runFor       time.Duration // writes before the crash
	unsyncedPct  int           // CrashCloneCfg.UnsyncedDataPercent
	dropSync     bool          // walWatchFS.dropSync
	warmRows     int           // rows written to another table before the round
	pause        time.Duration // each writer's pause after a job
	seed         int64
}

// powerLossResult is what a round found after the crash.
type powerLossResult struct {
	acked, ackedRows int           // acknowledged jobs (and their rows) before the crash
	lost, lostRows   int           // of those, the jobs with a row missing (and their rows)
	maxLostAge       time.Duration // the oldest lost acknowledgement, before the crash
	walBytesPerRow   float64       // log bytes written per acknowledged row
}

func powerLossRound(t *testing.T, r powerLossRun) powerLossResult {
	t.Helper()
	mem := vfs.NewCrashableMem()
	wfs := &walWatchFS{FS: mem, dropSync: r.dropSync}
	const dir = "/db"
	if err := mem.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	opts := Options{Dir: dir, FS: wfs, Durability: r.d, MemTableSize: r.mem, SyncInterval: r.syncInterval}
	e, err := Open(opts)
	if err != nil {
		t.Fatal(err)
	}
	var tb *Table
	if err := e.Update(context.Background(), func(tx *Job) error {
		if err := tx.CreateDatabase("c"); err != nil {
			return err
		}
		tb, err = tx.CreateTable("c", crashTableDef())
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if r.warmRows > 0 {
		// Pebble's memtables start at 256 KiB and double; the warm-up
		// takes the log past the small ones, so that it does not switch
		// (which fsyncs the old log) during a slow round.
		def := crashTableDef()
		def.Name = "warm"
		var warm *Table
		if err := e.Update(context.Background(), func(tx *Job) error {
			warm, err = tx.CreateTable("c", def)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < r.warmRows; i += 1000 {
			if err := e.Update(context.Background(), func(tx *Job) error {
				for k := i; k < i+1000; k++ {
					if _, err := tx.Insert(warm, row(iv(int64(k)), iv(0), sv(fmt.Sprintf("w%d", k)))); err != nil {
						return err
					}
				}
				return nil
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	type ack struct {
		n  int
		at time.Time
	}
	var (
		mu    sync.Mutex
		acked = map[int64]ack{}
		stop  atomic.Bool
		wg    sync.WaitGroup
	)
	for g := 0; g < 6; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(r.seed*100 + int64(g)))
			for seq := 0; !stop.Load(); seq++ {
				job := int64(g)<<32 | int64(seq)
				n := 1 + rng.Intn(5)
				err := e.Update(context.Background(), func(tx *Job) error {
					for k := 0; k < n; k++ {
						id := job*8 + int64(k)
						if _, err := tx.Insert(tb, row(iv(id), iv(int64(n)), sv(fmt.Sprintf("v%d", id)))); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					return
				}
				now := time.Now()
				mu.Lock()
				acked[job] = ack{n, now}
				mu.Unlock()
				if r.pause > 0 {
					time.Sleep(r.pause)
				}
			}
		}(g)
	}
	time.Sleep(r.runFor)
	// Every job acknowledged before the snapshot was acknowledged before
	// the crash clone; the ones acknowledged after are not checked.
	mu.Lock()
	before := make(map[int64]ack, len(acked))
	for k, v := range acked {
		before[k] = v
	}
	mu.Unlock()
	crashAt := time.Now()
	cfg := vfs.CrashCloneCfg{UnsyncedDataPercent: r.unsyncedPct}
	if r.unsyncedPct > 0 {
		cfg.RNG = randv2.New(randv2.NewPCG(uint64(r.seed), 1))
	}
	crashed := mem.CrashClone(cfg)
	stop.Store(true)
	wg.Wait()
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	// The machine comes back: the store must open on what was kept.
	opts.FS = crashed
	e, err = Open(opts)
	if err != nil {
		t.Fatalf("the store does not open after the power loss: %v", err)
	}
	defer e.Close()
	present := map[int64]int64{} // id -> grp
	if tb, err := e.Catalog().Table("c", "t"); err == nil {
		if err := e.Check(tb); err != nil {
			t.Fatalf("after the power loss: %v", err)
		}
		it, err := e.NewIterator(tb, nil, Range{}, false)
		if err != nil {
			t.Fatal(err)
		}
		for {
			row, err := it.Next()
			if err != nil {
				break
			}
			present[row[0].I] = row[1].I
		}
		it.Close()
	} else if !r.dropSync {
		// The table's creation was acknowledged before every job.
		t.Fatalf("after the power loss: %v", err)
	}
	for id, n := range present {
		job := id / 8
		for k := 0; k < int(n); k++ {
			if _, ok := present[job*8+int64(k)]; !ok {
				t.Fatalf("job %d half-applied after the power loss: row %d of %d missing", job, k, n)
			}
		}
	}
	var res powerLossResult
	for job, a := range before {
		res.acked++
		res.ackedRows += a.n
		if _, ok := present[job*8]; ok {
			continue
		}
		res.lost++
		res.lostRows += a.n
		if age := crashAt.Sub(a.at); age > res.maxLostAge {
			res.maxLostAge = age
		}
	}
	if res.ackedRows > 0 {
		res.walBytesPerRow = float64(wfs.walBytes.Load()) / float64(res.ackedRows)
	}
	if res.acked == 0 {
		t.Fatal("no job was acknowledged before the power loss")
	}
	return res
}

// A power loss (unsynced data dropped, or partly kept) loses no
// acknowledged write in sync, at most about one SyncInterval of writes in
// os and at most the writes of the newest log or two in none; the store
// always opens, with every job whole and every index matching its rows.
func TestPowerLoss(t *testing.T) {
	if testing.Short() {
		t.Skip("runs writers for several seconds")
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewSource(seed))
	pct := func(i int) int { return []int{0, 50, 90}[i%3] }

	t.Run("sync", func(t *testing.T) {
		for i := 0; i < 6; i++ {
			mem := int64(0)
			if i%2 == 1 {
				mem = 256 << 10 // logs switch, memtables flush, during the round
			}
			r := powerLossRound(t, powerLossRun{d: DurabilitySync, mem: mem, unsyncedPct: pct(i),
				runFor: time.Duration(100+rng.Intn(400)) * time.Millisecond, seed: rng.Int63()})
			t.Logf("round %d (memtable %d, unsynced kept %d%%): %d of %d acknowledged jobs lost",
				i, mem, pct(i), r.lost, r.acked)
			if r.lost > 0 {
				t.Fatalf("sync lost %d of %d acknowledged jobs (the oldest acknowledged %v before the power loss)",
					r.lost, r.acked, r.maxLostAge)
			}
		}
	})

	// The negative control: the same check catches a sync mode whose log
	// fsyncs do nothing.
	t.Run("sync-without-fsync-is-caught", func(t *testing.T) {
		r := powerLossRound(t, powerLossRun{d: DurabilitySync, dropSync: true,
			runFor: 200 * time.Millisecond, seed: rng.Int63()})
		t.Logf("with log fsyncs dropped: %d of %d acknowledged jobs lost", r.lost, r.acked)
		if r.lost == 0 {
			t.Fatal("the check saw no loss although no log write was synced")
		}
	})

	t.Run("os", func(t *testing.T) {
		const interval = 100 * time.Millisecond
		// The bound leaves the sync loop 500 ms of scheduling delay on a
		// loaded machine; without its fsyncs, a round loses everything
		// since the warm-up (1.3 s or more).
		const bound = interval + 500*time.Millisecond
		var worst time.Duration
		for i := 0; i < 3; i++ {
			// Slow writers after a warm-up, so that the log does not
			// switch during the round (a closed log is fsynced): only
			// the sync loop makes the round's writes durable.
			r := powerLossRound(t, powerLossRun{d: DurabilityOS, mem: 64 << 20, syncInterval: interval, unsyncedPct: pct(i),
				warmRows: 30000, pause: 2 * time.Millisecond,
				runFor: time.Duration(1300+rng.Intn(500)) * time.Millisecond, seed: rng.Int63()})
			t.Logf("round %d (unsynced kept %d%%): %d of %d acknowledged jobs lost, the oldest acknowledged %v before the power loss",
				i, pct(i), r.lost, r.acked, r.maxLostAge)
			if r.maxLostAge > bound {
				t.Fatalf("os lost a job acknowledged %v before the power loss (SyncInterval %v)", r.maxLostAge, interval)
			}
			worst = max(worst, r.maxLostAge)
		}
		t.Logf("os, SyncInterval %v: the oldest lost acknowledgement was %v before the power loss", interval, worst)
	})

	t.Run("none", func(t *testing.T) {
		const mem = 256 << 10
		for i := 0; i < 4; i++ {
			r := powerLossRound(t, powerLossRun{d: DurabilityNone, mem: mem, unsyncedPct: pct(i),
				runFor: time.Duration(500+rng.Intn(500)) * time.Millisecond, seed: rng.Int63()})
			lostBytes := float64(r.lostRows) * r.walBytesPerRow
			t.Logf("round %d (unsynced kept %d%%): %d of %d acknowledged jobs lost (%d rows, about %.0f KiB of log, %.0f bytes a row), the oldest %v before the power loss",
				i, pct(i), r.lost, r.acked, r.lostRows, lostBytes/1024, r.walBytesPerRow, r.maxLostAge)
			// What none may lose is the log not yet closed (a closed log
			// is fsynced): the newest, and one whose closing was under
			// way. Each holds about one memtable of writes.
			if lostBytes > 2.5*mem {
				t.Fatalf("none lost about %.0f KiB of log, more than two %d KiB memtables", lostBytes/1024, mem>>10)
			}
		}
	})
}
