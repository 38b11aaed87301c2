package engine

import (
	"context"
	"fmt"
	"io"
	"slices"
	"testing"
)

// TestSecondaryIterator walks a non-unique secondary index forward and
// backward, whole and within a range, over the store and over a
// snapshot: the rows (found through the primary index by one iterator
// kept for the walk) come in index order and have their own values; a row
// deleted after the walk began is not returned as it is now.
func TestSecondaryIterator(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	const n = 300
	update(t, e, func(tx *Job) error {
		for k := int64(1); k <= n; k++ {
			if _, err := tx.Insert(tb, row(iv(k), sv(fmt.Sprintf("n%02d", k%17)), sv(fmt.Sprintf("e%d", k)), iv(k%5))); err != nil {
				return err
			}
		}
		return nil
	})
	type key struct {
		name string
		age  int64
		id   int64
	}
	var all []key
	for k := int64(1); k <= n; k++ {
		all = append(all, key{fmt.Sprintf("n%02d", k%17), k % 5, k})
	}
	slices.SortFunc(all, func(a, b key) int {
		if c := compareStr(a.name, b.name); c != 0 {
			return c
		}
		if a.age != b.age {
			return int(a.age - b.age)
		}
		return int(a.id - b.id)
	})
	walk := func(it *Iterator, err error) []key {
		t.Helper()
		var out []key
		eachRow(t, it, err, func(r Row) {
			if string(r[2].B) != fmt.Sprintf("e%d", r[0].I) {
				t.Fatalf("row %v has another row's values", r)
			}
			out = append(out, key{string(r[1].B), r[3].I, r[0].I})
		})
		return out
	}
	idx := tb.Index("name_age")
	if got := walk(e.NewIterator(tb, idx, Range{}, false)); !slices.Equal(got, all) {
		t.Fatalf("forward: %d rows, want %d (first %v, want %v)", len(got), len(all), got[:3], all[:3])
	}
	rev := slices.Clone(all)
	slices.Reverse(rev)
	if got := walk(e.NewIterator(tb, idx, Range{}, true)); !slices.Equal(got, rev) {
		t.Fatalf("reverse: %d rows", len(got))
	}
	var n05 []key
	for _, k := range all {
		if k.name == "n05" {
			n05 = append(n05, k)
		}
	}
	rg := Range{Lower: Row{sv("n05")}, Upper: Row{sv("n05")}}
	if got := walk(e.NewIterator(tb, idx, rg, false)); !slices.Equal(got, n05) {
		t.Fatalf("range: %v, want %v", got, n05)
	}
	snap := e.NewSnapshot()
	defer snap.Close()
	if got := walk(snap.NewIterator(tb, idx, rg, false)); !slices.Equal(got, n05) {
		t.Fatalf("snapshot range: %v, want %v", got, n05)
	}

	// A row deleted and inserted again with another name while a walk is
	// under way: the walk returns either the row as it was or none, never
	// the row with its new name.
	it, err := e.NewIterator(tb, idx, rg, false)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	first, err := it.Next()
	if err != nil {
		t.Fatal(err)
	}
	first = first.Clone() // (valid until the next Next)
	last := n05[len(n05)-1].id
	if err := e.Update(context.Background(), func(tx *Job) error {
		if _, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(last)}}, &Modify{Op: ModUpdate, Columns: []int{1}, Values: Row{sv("moved")}}); err != nil {
			return err
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	seen := 1
	for {
		r, err := it.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if string(r[1].B) != "n05" {
			t.Fatalf("the walk returned %v, outside its range", r)
		}
		seen++
	}
	if first[0].I != n05[0].id || seen < len(n05)-1 || seen > len(n05) {
		t.Fatalf("walk during a change: first %v, %d rows of %d", first, seen, len(n05))
	}
}

func compareStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestSecondaryWalkRowCache: a walk of a secondary index over committed
// data reads each entry's row through the row cache (a second walk hits
// it for every row), and sees a commit made between two walks (the cache
// is kept by the writer, never stale).
func TestSecondaryWalkRowCache(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	const n = 50
	update(t, e, func(tx *Job) error {
		for k := int64(1); k <= n; k++ {
			if _, err := tx.Insert(tb, row(iv(k), sv("same"), sv(fmt.Sprintf("e%d", k)), iv(k))); err != nil {
				return err
			}
		}
		return nil
	})
	idx := tb.Index("name_age")
	walk := func() map[int64]string {
		t.Helper()
		out := map[int64]string{}
		it, err := e.NewIterator(tb, idx, Range{}, false)
		eachRow(t, it, err, func(r Row) { out[r[0].I] = string(r[2].B) })
		return out
	}
	if got := walk(); len(got) != n {
		t.Fatalf("first walk: %d rows, want %d", len(got), n)
	}
	before := e.RowCacheStats().Hits
	walk()
	if hits := e.RowCacheStats().Hits - before; hits != n {
		t.Fatalf("second walk hit the row cache %d times, want %d", hits, n)
	}
	if err := e.Update(context.Background(), func(tx *Job) error {
		_, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(7)}}, &Modify{Op: ModUpdate, Columns: []int{2}, Values: Row{sv("changed")}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if got := walk(); got[7] != "changed" || got[8] != "e8" || len(got) != n {
		t.Fatalf("walk after an update: row 7 %q, row 8 %q, %d rows", got[7], got[8], len(got))
	}
}
