package engine

import (
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/types"
)

// rangeKeys counts the store's keys in [start, end).
func rangeKeys(t *testing.T, e *Engine, start, end []byte) int {
	t.Helper()
	it, err := e.db.NewIter(nil)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	n := 0
	for ok := it.SeekGE(start); ok && string(it.Key()) < string(end); ok = it.Next() {
		n++
	}
	return n
}

// A table resolved before ALTER TABLE still reads its rows afterwards (the
// old entries are deleted dropGrace later, also after a restart), while
// the new definition reads the rewritten ones.
func TestAlterKeepsOldEntriesAWhile(t *testing.T) {
	old := dropGrace
	dropGrace = 300 * time.Millisecond
	defer func() { dropGrace = old }()
	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilityNone)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	def := peopleDef()
	def.Columns = append(def.Columns, types.Column{Name: "score", Type: intType(), Default: &types.Value{I: 7}})
	update(t, e, func(tx *Job) error {
		_, err := tx.AlterTable("app", "people", def, []int{0, 1, 2, 3, -1})
		return err
	})
	nt, _ := e.Catalog().Table("app", "people")
	if got := findAll(t, e, tb, &Query{Op: OpGE}); len(got) != 5 {
		t.Fatalf("the table as resolved before the ALTER reads %d rows, want 5", len(got))
	}
	if got := findAll(t, e, nt, &Query{Op: OpGE}); len(got) != 5 || got[0][4].I != 7 {
		t.Fatalf("after the ALTER: %v", got)
	}
	start, end := tb.Primary.prefix, prefixEnd(nil, tb.Primary.prefix)
	if rangeKeys(t, e, start, end) != 5 {
		t.Fatal("the old entries are gone at once")
	}
	// Closed before their time: the next Open deletes them.
	e.Close()
	e = openTestEngine(t, dir, DurabilityNone)
	for deadline := time.Now().Add(10 * time.Second); rangeKeys(t, e, start, end) != 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the old entries outlived their grace")
		}
	}
	nt, _ = e.Catalog().Table("app", "people")
	if err := e.Check(nt); err != nil {
		t.Fatal(err)
	}
	if got := findAll(t, e, nt, &Query{Op: OpGE}); len(got) != 5 {
		t.Fatalf("after the old entries went: %d rows", len(got))
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, closer, err := e.db.Get(dropsKey)
		if err != nil {
			break // gone
		}
		closer.Close()
		if time.Now().After(deadline) {
			t.Fatal("the record of ranges to delete is left")
		}
	}
}
