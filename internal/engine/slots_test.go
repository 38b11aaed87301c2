package engine

import (
	"math/rand"
	"testing"
)

// TestSlotTable runs random sets, deletes, lookups, evictions and resets
// on a slotTable and on a Go map side by side. The hashes' homes are the
// last eight slots of the table at every size it reaches, so probe runs
// collide and wrap around the end of the array, which is where a
// backward-shift delete can go wrong.
func TestSlotTable(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var tb slotTable
	want := map[uint64][]byte{}
	hash := func() uint64 { return uint64(64*rng.Intn(4)+56+rng.Intn(8))<<32 | uint64(rng.Intn(3)) }
	check := func(step int) {
		if tb.n != len(want) {
			t.Fatalf("step %d: %d entries, want %d", step, tb.n, len(want))
		}
		for h, e := range want {
			if got := tb.get(h); got == nil || &got[0] != &e[0] {
				t.Fatalf("step %d: entry of %x lost", step, h)
			}
		}
	}
	for step := 0; step < 200000; step++ {
		switch op := rng.Intn(100); {
		case op < 50:
			h := hash()
			e := []byte{byte(step)}
			tb.set(h, e)
			want[h] = e
		case op < 85:
			h := hash()
			i := tb.find(h)
			if _, ok := want[h]; ok != (i >= 0) {
				t.Fatalf("step %d: find %x = %d, in map %v", step, h, i, ok)
			}
			if i >= 0 {
				tb.delete(i)
				delete(want, h)
			}
		case op < 99:
			i := tb.any(rng.Uint64())
			if (i >= 0) != (len(want) > 0) {
				t.Fatalf("step %d: any = %d with %d entries", step, i, len(want))
			}
			if i >= 0 {
				delete(want, tb.slots[i].h)
				tb.delete(i)
			}
		default:
			tb.reset()
			clear(want)
		}
		if step%997 == 0 {
			check(step)
		}
	}
	check(-1)
}
