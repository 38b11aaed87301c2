package engine

import (
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// scanIDs collects column 0 of every row an iterator returns.
func scanIDs(t *testing.T, it *Iterator, err error) []int64 {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
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

func TestSnapshotHidesLaterCommitsAndShowsOwnWrites(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	snap := e.NewSnapshot()
	defer snap.Close()
	// Commits after the snapshot: one deleted row, one new, one changed.
	update(t, e, func(tx *Job) error {
		if _, err := tx.Delete(tb, row(iv(2), sv(""), null(), null())); err != nil {
			return err
		}
		if _, err := tx.Insert(tb, row(iv(9), sv("zed"), null(), iv(50))); err != nil {
			return err
		}
		_, err := tx.Update(tb, row(iv(3), sv(""), null(), null()), row(iv(3), sv("Alice"), null(), iv(99)))
		return err
	})
	it, err := snap.NewIterator(tb, nil, Range{}, false)
	if got := scanIDs(t, it, err); !reflect.DeepEqual(got, []int64{1, 2, 3, 4, 5}) {
		t.Fatalf("snapshot scan: %v", got)
	}
	x := e.Begin()
	defer x.Rollback()
	// The transaction's own writes over the snapshot: 1 deleted, 6 and 0
	// inserted, 4 changed (its age moves it within name_age).
	if _, err := x.Delete(tb, row(iv(1), sv(""), null(), null())); err != nil {
		t.Fatal(err)
	}
	for _, r := range []Row{row(iv(6), sv("dave"), null(), iv(1)), row(iv(-1), sv("aaron"), null(), iv(2))} {
		if _, err := x.Insert(tb, r); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := x.Update(tb, row(iv(4), sv(""), null(), null()), row(iv(4), sv("carol"), null(), iv(7))); err != nil {
		t.Fatal(err)
	}
	// The transaction's writes are against the newest data: it deleted
	// row 1 and sees 2 (deleted by the later commit) from its snapshot, and
	// not 9.
	it, err = x.NewSnapshotIterator(snap, tb, nil, Range{}, false)
	if got := scanIDs(t, it, err); !reflect.DeepEqual(got, []int64{-1, 2, 3, 4, 5, 6}) {
		t.Fatalf("snapshot+own forward: %v", got)
	}
	it, err = x.NewSnapshotIterator(snap, tb, nil, Range{}, true)
	if got := scanIDs(t, it, err); !reflect.DeepEqual(got, []int64{6, 5, 4, 3, 2, -1}) {
		t.Fatalf("snapshot+own reverse: %v", got)
	}
	it, err = x.NewSnapshotIterator(snap, tb, nil, Range{Lower: []types.Value{iv(2)}, Upper: []types.Value{iv(5)}, UpperExclusive: true}, false)
	if got := scanIDs(t, it, err); !reflect.DeepEqual(got, []int64{2, 3, 4}) {
		t.Fatalf("snapshot+own range: %v", got)
	}
	// Through the secondary index name_age: row 3 as the snapshot had it
	// (Alice 41), row 4 as the transaction wrote it (carol 7).
	idx := tb.Index("name_age")
	it, err = x.NewSnapshotIterator(snap, tb, idx, Range{}, false)
	if got := scanIDs(t, it, err); !reflect.DeepEqual(got, []int64{-1, 3, 5, 2, 4, 6}) {
		t.Fatalf("snapshot+own by name_age: %v", got)
	}
	// Committed data without the snapshot sees the later commit.
	it, err = e.NewIterator(tb, nil, Range{}, false)
	if got := scanIDs(t, it, err); !reflect.DeepEqual(got, []int64{1, 3, 4, 5, 9}) {
		t.Fatalf("committed: %v", got)
	}
	// A rollback to a savepoint replaces the batch: the write set follows.
	sp := x.Savepoint()
	if _, err := x.Insert(tb, row(iv(7), sv("eve"), null(), null())); err != nil {
		t.Fatal(err)
	}
	it, err = x.NewSnapshotIterator(snap, tb, nil, Range{}, false)
	if got := scanIDs(t, it, err); !reflect.DeepEqual(got, []int64{-1, 2, 3, 4, 5, 6, 7}) {
		t.Fatalf("after insert 7: %v", got)
	}
	x.RollbackTo(sp)
	if _, err := x.Delete(tb, row(iv(-1), sv(""), null(), null())); err != nil {
		t.Fatal(err)
	}
	it, err = x.NewSnapshotIterator(snap, tb, nil, Range{}, false)
	if got := scanIDs(t, it, err); !reflect.DeepEqual(got, []int64{2, 3, 4, 5, 6}) {
		t.Fatalf("after rollback to savepoint: %v", got)
	}
}

// TestSnapshotCloseWaitsForIterators closes a snapshot while an iterator
// reads it: the iterator goes on, and the snapshot is released after it.
func TestSnapshotCloseWaitsForIterators(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	snap := e.NewSnapshot()
	it, err := snap.NewIterator(tb, nil, Range{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := snap.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := snap.NewIterator(tb, nil, Range{}, false); !errors.Is(err, ErrClosed) {
		t.Fatalf("iterator on a closed snapshot: %v", err)
	}
	if got := scanIDs(t, it, nil); !reflect.DeepEqual(got, []int64{1, 2, 3, 4, 5}) {
		t.Fatalf("scan after Close: %v", got)
	}
	if snap.s != nil {
		t.Fatal("the Pebble snapshot outlived its last iterator")
	}
}

// TestSnapshotManyWrites lays many writes at once (sorted together) and
// then a few (inserted in place) over a snapshot.
func TestSnapshotManyWrites(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	snap := e.NewSnapshot()
	defer snap.Close()
	x := e.Begin()
	defer x.Rollback()
	var want []int64
	for i := int64(1); i <= 5; i++ {
		want = append(want, i)
	}
	for i := int64(199); i >= 100; i-- {
		if _, err := x.Insert(tb, row(iv(i), sv("n"), null(), iv(i))); err != nil {
			t.Fatal(err)
		}
	}
	for i := int64(100); i <= 199; i++ {
		want = append(want, i)
	}
	it, err := x.NewSnapshotIterator(snap, tb, nil, Range{}, false)
	if got := scanIDs(t, it, err); !reflect.DeepEqual(got, want) {
		t.Fatalf("after 100 inserts: %v", got)
	}
	for _, i := range []int64{50, 300} {
		if _, err := x.Insert(tb, row(iv(i), sv("m"), null(), null())); err != nil {
			t.Fatal(err)
		}
	}
	want = append(append(append([]int64{}, want[:5]...), 50), append(want[5:], 300)...)
	it, err = x.NewSnapshotIterator(snap, tb, nil, Range{}, false)
	if got := scanIDs(t, it, err); !reflect.DeepEqual(got, want) {
		t.Fatalf("after 2 more: %v", got)
	}
}
