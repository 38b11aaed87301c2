package engine

import (
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// TestIteratorReset walks ranges of a secondary index with one iterator
// reset from range to range (forward, backward, key-only), and compares
// each walk with a new iterator's; a write makes Unchanged false for the
// quiet point taken before, and Reset refuses a snapshot's iterator.
func TestIteratorReset(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	update(t, e, func(tx *Job) error {
		for k := int64(1); k <= 200; k++ {
			if _, err := tx.Insert(tb, row(iv(k), sv(fmt.Sprintf("n%02d", k%13)), sv(fmt.Sprintf("e%d", k)), iv(k%7))); err != nil {
				return err
			}
		}
		return nil
	})
	idx := tb.Index("name_age")
	ids := func(it *Iterator) []int64 {
		t.Helper()
		var out []int64
		for {
			r, err := it.Next()
			if err == io.EOF {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, r[0].I)
		}
	}
	mark, quiet := e.QuietPoint()
	if !quiet {
		t.Fatal("no quiet point with the writer idle")
	}
	reused, err := e.NewIterator(tb, idx, Range{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer reused.Close()
	ids(reused)
	for i, rg := range []Range{
		{Lower: []types.Value{sv("n03")}, Upper: []types.Value{sv("n03")}},
		{Lower: []types.Value{sv("n05"), iv(2)}, Upper: []types.Value{sv("n07")}, UpperExclusive: true},
		{Lower: []types.Value{sv("n11")}},
		{Lower: []types.Value{sv("zz")}},
	} {
		rev := i%2 == 1
		if err := reused.Reset(rg, rev); err != nil {
			t.Fatal(err)
		}
		if i == 2 {
			if err := reused.KeyOnly(); err != nil {
				t.Fatal(err)
			}
		}
		got := ids(reused)
		fresh, err := e.NewIterator(tb, idx, rg, rev)
		if err != nil {
			t.Fatal(err)
		}
		want := ids(fresh)
		fresh.Close()
		if !slices.Equal(got, want) || (i < 3 && len(want) == 0) {
			t.Fatalf("range %d: reset iterator read %v, a new one %v", i, got, want)
		}
	}
	if !e.Unchanged(mark) {
		t.Fatal("Unchanged false without a write")
	}
	update(t, e, func(tx *Job) error {
		_, err := tx.Insert(tb, row(iv(500), sv("n03"), sv("e500"), iv(1)))
		return err
	})
	if e.Unchanged(mark) {
		t.Fatal("Unchanged true after a write")
	}
	snap := e.NewSnapshot()
	defer snap.Close()
	it, err := snap.NewIterator(tb, idx, Range{}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if it.Reset(Range{}, false) == nil {
		t.Fatal("Reset of a snapshot's iterator")
	}
}
