package engine

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// TestEarlyFlush rewrites a few rows many times, then scans over them
// again and again: the scans step over the versions the memtable keeps
// until versionWatch flushes it, after which a scan steps over about one
// entry per row. A table only read never flushes early.
func TestEarlyFlush(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	people := func(k, age int64) Row {
		return row(iv(k), sv(fmt.Sprintf("n%d", k)), sv(fmt.Sprintf("e%d", k)), iv(age))
	}
	update(t, e, func(tx *Job) error {
		for k := int64(1); k <= 100; k++ {
			if _, err := tx.Insert(tb, people(k, 0)); err != nil {
				return err
			}
		}
		return nil
	})
	// scan walks the whole table and returns the internal steps it made
	// per row.
	scan := func() float64 {
		t.Helper()
		it, err := e.NewIterator(tb, nil, Range{}, false)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for {
			if _, err := it.Next(); err == io.EOF {
				break
			} else if err != nil {
				t.Fatal(err)
			}
			n++
		}
		st := it.it.(*pebble.Iterator).Stats()
		it.Close()
		if n != 100 {
			t.Fatalf("scan read %d rows, want 100", n)
		}
		return float64(st.ForwardStepCount[pebble.InternalIterCall]) / float64(n)
	}
	for range 2000 {
		scan()
	}
	if n := e.Stats().EarlyFlushes.Load(); n != 0 {
		t.Fatalf("%d early flushes of a table only read", n)
	}
	for v := int64(1); v <= 60; v++ {
		update(t, e, func(tx *Job) error {
			for k := int64(1); k <= 100; k++ {
				if _, err := tx.Update(tb, people(k, v-1), people(k, v)); err != nil {
					return err
				}
			}
			return nil
		})
	}
	if per := scan(); per < 50 {
		t.Fatalf("a scan over rows written 60 times made %.1f internal steps per row", per)
	}
	deadline := time.Now().Add(10 * time.Second)
	for e.Stats().EarlyFlushes.Load() == 0 || e.versions.flushing.Load() {
		if time.Now().After(deadline) {
			t.Fatalf("no early flush after the scans (%d)", e.Stats().EarlyFlushes.Load())
		}
		scan()
	}
	if per := scan(); per > 2 {
		t.Fatalf("after the early flush a scan made %.1f internal steps per row", per)
	}
}
