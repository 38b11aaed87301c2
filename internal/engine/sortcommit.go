package engine

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// Committing a group's batch in key order.
//
// Pebble inserts a committed batch's records into the memtable in the
// batch's order. A job writes a row's primary entry and then its
// secondary entries, so consecutive records land in distant parts of the
// memtable's skiplist and each insert searches it from the top; records
// in key order let each insert start from where the last one went. In
// BenchmarkApplyBacklog (internal/replica) the memtable inserts then take
// a third of their time, and the writer, sorting included, about three
// quarters of its time. So a group
// of at least sortCommitMin records is committed as a copy of its batch
// with the records in key order: the same writes with the same outcome,
// since records of one key keep their order (the later one wins).
//
// Left as they are: groups with a range deletion (a record after it in
// the batch may lie in its range, and must stay after it), and batches
// of a quarter of the memtable size or more (Pebble commits those of half
// of it as a memtable of their own, which it orders itself; below that
// the copy's memory is small).

// sortCommitMin is the fewest records a group needs to be sorted.
const sortCommitMin = 64

// sortEnt is a record to sort: the first 16 bytes of its key, big-endian
// (zero-padded), and its index in the records.
type sortEnt struct {
	hi, lo uint64
	i      int32
}

// word returns 8 bytes of k from off, big-endian, zero-padded.
func word(k []byte, off int) uint64 {
	var w uint64
	for j := 0; j < 8; j++ {
		w <<= 8
		if off+j < len(k) {
			w |= uint64(k[off+j])
		}
	}
	return w
}

// batchRec is one record of a batch being sorted; k and v alias the
// batch's bytes.
type batchRec struct {
	k, v []byte
	kind pebble.InternalKeyKind
}

// commitSorted commits b (pebble.Sync), in key order when that pays (see
// above). It runs on the writer goroutine, which owns w.recs and
// w.order; b stays as it was.
func (w *writer) commitSorted(b *pebble.Batch) error {
	if b.Count() < sortCommitMin || int64(b.Len()) >= w.e.opts.MemTableSize/4 {
		return b.Commit(pebble.Sync)
	}
	recs := w.recs[:0]
	defer func() {
		clear(recs)
		w.recs = recs[:0]
	}()
	sorted := true
	r := b.Reader()
	for {
		kind, k, v, ok, err := r.Next()
		if err != nil || !ok {
			if err != nil {
				return b.Commit(pebble.Sync) // Pebble reports it
			}
			break
		}
		if kind != pebble.InternalKeyKindSet && kind != pebble.InternalKeyKindDelete {
			return b.Commit(pebble.Sync)
		}
		if n := len(recs); n > 0 && sorted && bytes.Compare(recs[n-1].k, k) > 0 {
			sorted = false
		}
		recs = append(recs, batchRec{k: k, v: v, kind: kind})
	}
	order := w.order[:0]
	for i := range recs {
		order = append(order, sortEnt{hi: word(recs[i].k, 0), lo: word(recs[i].k, 8), i: int32(i)})
	}
	w.order = order[:0]
	if !sorted {
		slices.SortFunc(order, func(a, b sortEnt) int {
			if a.hi != b.hi {
				return cmp.Compare(a.hi, b.hi)
			}
			if a.lo != b.lo {
				return cmp.Compare(a.lo, b.lo)
			}
			if c := bytes.Compare(recs[a.i].k, recs[b.i].k); c != 0 {
				return c
			}
			return cmp.Compare(a.i, b.i)
		})
	}
	sb := w.e.db.NewBatchWithSize(b.Len())
	defer sb.Close()
	for _, o := range order {
		rec := &recs[o.i]
		var err error
		if rec.kind == pebble.InternalKeyKindSet {
			err = sb.Set(rec.k, rec.v, nil)
		} else {
			err = sb.Delete(rec.k, nil)
		}
		if err != nil {
			return err
		}
	}
	return sb.Commit(pebble.Sync)
}
