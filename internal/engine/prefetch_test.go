package engine

import (
	"fmt"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// TestPrefetcher: Add takes full primary keys only, at most maxPrefetch
// of them until Issue, and a prefetch changes no lookup's answer. The
// shards' published slot arrays are the ones in use.
func TestPrefetcher(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	update(t, e, func(tx *Job) error {
		for i := range 200 {
			if _, err := tx.Insert(tb, row(iv(int64(i+1)), sv("p"), sv(fmt.Sprintf("p%d@x", i)), iv(int64(i)))); err != nil {
				return err
			}
		}
		return nil
	})
	key := func(id int64) []types.Value { return []types.Value{{I: id}} }
	before := make(map[int64][]string)
	for id := int64(1); id <= 210; id++ { // finds fill the cache; 201..210 are missing
		before[id] = findText(t, e, tb, &Query{Op: OpEQ, Key: key(id)})
	}
	for i := range e.rc.shards {
		s := &e.rc.shards[i]
		if v := s.m.view.Load(); (v == nil) != (s.m.slots == nil) || v != nil && (len(*v) != len(s.m.slots) || &(*v)[0] != &s.m.slots[0]) {
			t.Fatalf("shard %d: published slots are not the table's", i)
		}
	}
	var p Prefetcher
	if p.Add(e, tb, tb.Indexes[1], []types.Value{{B: []byte("p0@x")}}) {
		t.Error("Add took a unique secondary key")
	}
	if p.Add(e, tb, tb.Primary, []types.Value{types.NullValue}) {
		t.Error("Add took a NULL key")
	}
	if p.Add(e, tb, tb.Indexes[2], []types.Value{{B: []byte("p")}}) {
		t.Error("Add took a partial key of a non-unique index")
	}
	for round := range 2 {
		for i := range maxPrefetch {
			if !p.Add(e, tb, tb.Primary, key(int64(round*maxPrefetch+i+1))) {
				t.Fatalf("round %d: Add refused lookup %d of %d", round, i+1, maxPrefetch)
			}
		}
		if p.Add(e, tb, tb.Primary, key(1)) {
			t.Fatalf("round %d: Add took more than %d lookups", round, maxPrefetch)
		}
		p.Issue()
	}
	p.Add(e, tb, tb.Primary, key(205))
	p.Issue()
	for id := int64(1); id <= 210; id++ {
		if got := findText(t, e, tb, &Query{Op: OpEQ, Key: key(id)}); len(got) != len(before[id]) || len(got) > 0 && got[0] != before[id][0] {
			t.Fatalf("id %d: %v after the prefetches, %v before", id, got, before[id])
		}
	}
	plain := openTestEngine(t, "", DurabilityNone, withRowCache(-1))
	ptb := setupPeople(t, plain)
	if p.Add(plain, ptb, ptb.Primary, key(1)) {
		t.Error("Add took a lookup on an engine without a row cache")
	}
}
