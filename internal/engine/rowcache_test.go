package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

func init() { verifyPending = true }

// findText returns every row q finds, formatted, in order.
func findText(tb testing.TB, e *Engine, t *Table, q *Query) []string {
	tb.Helper()
	var out []string
	for _, r := range findAll(tb, e, t, q) {
		out = append(out, fmt.Sprint(r))
	}
	return out
}

// cachedAndPlain opens two engines (closed at the test's end), one with a
// row cache of size bytes (0: the default) and one without.
func cachedAndPlain(t *testing.T, size int64) (cached, plain *Engine) {
	t.Helper()
	cached = openTestEngine(t, "", DurabilityNone, withRowCache(size))
	plain = openTestEngine(t, "", DurabilityNone, withRowCache(-1))
	if plain.rc != nil || cached.rc == nil {
		t.Fatal("RowCacheSize did not switch the cache")
	}
	return cached, plain
}

// TestRowCacheDifferential runs one random sequence of writes, DDL
// included, on an engine with a tiny row cache (so entries are evicted
// all the time), one with a roomy one, and on one without, and compares
// every point lookup.
func TestRowCacheDifferential(t *testing.T) {
	for _, size := range []int64{4 << 10, 1 << 20} {
		t.Run(fmt.Sprint(size), func(t *testing.T) { testRowCacheDifferential(t, size) })
	}
}

func testRowCacheDifferential(t *testing.T, size int64) {
	cached, plain := cachedAndPlain(t, size)
	engines := []*Engine{cached, plain}
	for _, e := range engines {
		setupPeople(t, e)
	}
	table := func(e *Engine) *Table {
		tb, err := e.Catalog().Table("app", "people")
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	rnd := rand.New(rand.NewPCG(1, 2))
	const keys = 300
	for step := range 3000 {
		k := int64(rnd.IntN(keys) + 1)
		email := fmt.Sprintf("u%d@x", rnd.IntN(keys))
		op := rnd.IntN(1000)
		var errs [2]string
		for i, e := range engines {
			tb := table(e)
			err := e.Update(context.Background(), func(tx *Job) error {
				switch {
				case op < 350:
					_, err := tx.Insert(tb, row(iv(k), sv("n"), sv(email), iv(int64(step))))
					return err
				case op < 600: // update by primary key through FindModify, then read it back in the job
					if _, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, &Modify{Op: ModUpdate, Columns: []int{2, 3}, Values: Row{sv(email), iv(int64(step))}}); err != nil {
						return err
					}
					var bad error
					err := tx.Find(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, func(r Row) bool {
						if string(r[2].B) != email || r[3].I != int64(step) {
							bad = fmt.Errorf("job does not see its own update: %v", r)
						}
						return true
					})
					if err != nil {
						return err
					}
					return bad
				case op < 700:
					_, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, &Modify{Op: ModDelete})
					return err
				case op < 850: // by the unique secondary index
					_, err := tx.FindModify(tb, &Query{Index: tb.Index("email"), Op: OpEQ, Key: Row{sv(email)}}, &Modify{Op: ModIncrement, Columns: []int{3}, Values: Row{iv(1)}})
					return err
				case op < 900: // a job that fails after writing leaves nothing
					if _, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, &Modify{Op: ModUpdate, Columns: []int{1}, Values: Row{sv("lost")}}); err != nil {
						return err
					}
					return fmt.Errorf("rolled back")
				case op < 903:
					return tx.TruncateTable("app", "people")
				case op < 906:
					if err := tx.DropTable("app", "people"); err != nil {
						return err
					}
					_, err := tx.CreateTable("app", peopleDef())
					return err
				case op < 940: // a key changed then deleted in one job
					if _, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, &Modify{Op: ModIncrement, Columns: []int{3}, Values: Row{iv(1)}}); err != nil {
						return err
					}
					_, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, &Modify{Op: ModDelete})
					return err
				case op < 970: // a key deleted then inserted again in one job
					if _, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, &Modify{Op: ModDelete}); err != nil {
						return err
					}
					_, err := tx.Insert(tb, row(iv(k), sv("again"), null(), iv(int64(step))))
					return err
				default: // many changes in one job
					for j := range int64(20) {
						kk := (k+j)%keys + 1
						if _, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(kk)}}, &Modify{Op: ModIncrement, Columns: []int{3}, Values: Row{iv(1)}}); err != nil {
							return err
						}
					}
					return nil
				}
			})
			if err != nil {
				errs[i] = err.Error()
			}
		}
		if errs[0] != errs[1] {
			t.Fatalf("step %d op %d: cached engine says %q, plain one %q", step, op, errs[0], errs[1])
		}
		for range 5 {
			k := int64(rnd.IntN(keys) + 1)
			email := fmt.Sprintf("u%d@x", rnd.IntN(keys))
			for _, q := range []*Query{
				{Op: OpEQ, Key: Row{iv(k)}},
				{Index: table(cached).Index("email"), Op: OpEQ, Key: Row{sv(email)}},
				{Op: OpEQ, Key: Row{iv(k)}, In: Row{iv(k), iv(k + 1), iv(k + 2)}, InPart: 0},
			} {
				a := findText(t, cached, table(cached), q)
				if q.Index != nil {
					q.Index = table(plain).Index("email")
				}
				b := findText(t, plain, table(plain), q)
				if !slices.Equal(a, b) {
					t.Fatalf("step %d: find %+v: cached %v, plain %v", step, q, a, b)
				}
			}
		}
	}
	st := cached.RowCacheStats()
	if st.Hits == 0 || st.Misses == 0 || st.Bytes > size {
		t.Fatalf("row cache stats %+v: want hits, misses and at most %d bytes", st, size)
	}
	t.Logf("row cache: %+v", st)
	for _, e := range engines {
		if err := e.Check(table(e)); err != nil {
			t.Fatal(err)
		}
	}
}

// TestRowCacheLinearizable has readers look keys up while writers bump a
// per-key counter. Once an update has returned, no reader may see an older
// value, and no reader sees a key go backwards.
func TestRowCacheLinearizable(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone, withRowCache(1<<20))
	tb := setupPeople(t, e)
	const keys = 8
	var acked [keys + 1]atomic.Int64
	update(t, e, func(tx *Job) error {
		for k := int64(1); k <= keys; k++ {
			if _, err := tx.Insert(tb, row(iv(k), sv("n"), null(), iv(0))); err != nil {
				return err
			}
		}
		return nil
	})
	read := func(k int64) int64 {
		var v int64 = -1
		if err := e.Find(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, func(r Row) bool { v = r[3].I; return false }); err != nil {
			t.Error(err)
		}
		return v
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var failed atomic.Bool
	for w := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; n < 3000 && !failed.Load(); n++ {
				k := int64(w*keys/2 + n%(keys/2) + 1)
				err := e.Update(context.Background(), func(tx *Job) error {
					_, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, &Modify{Op: ModIncrement, Columns: []int{3}, Values: Row{iv(1)}})
					return err
				})
				if err != nil {
					t.Error(err)
					return
				}
				acked[k].Add(1)
			}
		}()
	}
	var readers sync.WaitGroup
	for range 4 {
		readers.Add(1)
		go func() {
			defer readers.Done()
			var last [keys + 1]int64
			for {
				select {
				case <-stop:
					return
				default:
				}
				k := int64(rand.IntN(keys) + 1)
				floor := acked[k].Load()
				v := read(k)
				if v < floor || v < last[k] {
					t.Errorf("key %d: read %d after an acknowledged %d (this reader saw %d before)", k, v, floor, last[k])
					failed.Store(true)
					return
				}
				last[k] = v
			}
		}()
	}
	wg.Wait()
	close(stop)
	readers.Wait()
	for k := int64(1); k <= keys; k++ {
		if v := read(k); v != acked[k].Load() {
			t.Fatalf("key %d: %d, want %d", k, v, acked[k].Load())
		}
	}
	if st := e.RowCacheStats(); st.Hits == 0 {
		t.Fatalf("no cache hits: %+v", st)
	}
}

// TestRowCacheAbsentKeys checks that a key found absent is remembered (a
// second lookup is a hit, not a Pebble read) and that the writer's
// commits keep that knowledge true: an insert makes the key visible, a
// delete makes it absent again.
func TestRowCacheAbsentKeys(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone, withRowCache(1<<20))
	tb := setupPeople(t, e)
	look := func(k int64) []int64 {
		t.Helper()
		return ids(findAll(t, e, tb, &Query{Op: OpEQ, Key: Row{iv(k)}}))
	}
	if got := look(7); len(got) != 0 {
		t.Fatalf("empty table: found %v", got)
	}
	before := e.RowCacheStats()
	if got := look(7); len(got) != 0 {
		t.Fatalf("empty table, again: found %v", got)
	}
	if after := e.RowCacheStats(); after.Hits != before.Hits+1 || after.Misses != before.Misses {
		t.Fatalf("second lookup of an absent key: hits %d→%d, misses %d→%d; want one hit more, no miss",
			before.Hits, after.Hits, before.Misses, after.Misses)
	}
	update(t, e, func(tx *Job) error {
		_, err := tx.Insert(tb, row(iv(7), sv("n"), null(), iv(1)))
		return err
	})
	if got := look(7); !slices.Equal(got, []int64{7}) {
		t.Fatalf("after the insert: found %v, want [7]", got)
	}
	update(t, e, func(tx *Job) error {
		_, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(7)}}, &Modify{Op: ModDelete})
		return err
	})
	before = e.RowCacheStats()
	if got := look(7); len(got) != 0 {
		t.Fatalf("after the delete: found %v", got)
	}
	if after := e.RowCacheStats(); after.Hits != before.Hits+1 {
		t.Fatalf("a deleted key that was cached is not known absent: hits %d→%d", before.Hits, after.Hits)
	}
}
