package engine

import (
	"bytes"
	"hash/maphash"
	"slices"

	"github.com/cockroachdb/pebble/v2"
)

// ChangeKind is what one Change of Job.Apply does.
type ChangeKind uint8

// The kinds of Change.
const (
	ChangeInsert ChangeKind = iota // insert Row, as Insert
	ChangeUpdate                   // replace the row with Old's primary key by Row, as Update
	ChangeDelete                   // delete the row with Old's primary key, as Delete
)

// Change is one row change of Job.Apply.
type Change struct {
	Kind     ChangeKind
	Table    *Table
	Old, Row Row
}

// Apply makes the changes in order, each exactly as Insert, Update or
// Delete would. It is for a run of many changes (a replicated
// transaction, rows of a copy): before the first, it reads the committed
// value of every key the changes look up (each primary key; an insert's
// unique keys) in key order through one iterator, where consecutive keys
// cost a step of that iterator instead of a Get each through every level
// of the store. A change reads a key the group has written since through
// the batch, as always.
//
// It returns how many changes it made: fewer than len(cs) when cs[n]
// failed (the error) or was an update or delete that found no row (a nil
// error). The changes before n stay written; a job that wants all or
// nothing returns an error. Like every Job method it runs on the writer
// goroutine only.
func (w *batchWriter) Apply(cs []Change) (int, error) {
	if w.rs.ps.pend != nil && w.stage == nil && len(cs) > 1 {
		// The read-ahead is right only for keys the group has not
		// written, which pend tells (it is kept when the row cache is
		// on, the default); a staged job's reads go to its stage.
		if err := w.ahead.load(w.e.db, cs); err != nil {
			return 0, err
		}
		defer w.ahead.reset()
	}
	for i := range cs {
		c := &cs[i]
		var err error
		found := true
		switch c.Kind {
		case ChangeInsert:
			_, err = w.Insert(c.Table, c.Row)
		case ChangeUpdate:
			found, err = w.Update(c.Table, c.Old, c.Row)
		case ChangeDelete:
			found, err = w.Delete(c.Table, c.Old)
		default:
			err = tableError(ErrBadRow, c.Table, "")
		}
		if err != nil || !found {
			return i, err
		}
	}
	return len(cs), nil
}

// readAhead holds committed values read before a run of changes
// (batchWriter.Apply), found by key hash. Its keys and values live in
// data, which does not change while the run reads them. Not safe for
// concurrent use: it belongs to the writer's batchWriter.
type readAhead struct {
	on    bool
	seed  maphash.Seed
	slots map[uint64]int32 // key hash -> entry
	ents  []aheadEntry
	data  []byte
	order []int32 // entry indexes, in key order
}

// aheadEntry is one key read ahead: data[k0:k1] is the key, data[v0:v1]
// its value when found.
type aheadEntry struct {
	k0, k1, v0, v1 int
	found          bool
}

func (ra *readAhead) key(e *aheadEntry) []byte { return ra.data[e.k0:e.k1] }

// add records key to read.
func (ra *readAhead) add(key []byte) {
	k0 := len(ra.data)
	ra.data = append(ra.data, key...)
	ra.ents = append(ra.ents, aheadEntry{k0: k0, k1: len(ra.data)})
}

// load reads ahead the keys of cs from db's committed data.
func (ra *readAhead) load(db *pebble.DB, cs []Change) error {
	if ra.slots == nil {
		ra.seed = maphash.MakeSeed()
		ra.slots = map[uint64]int32{}
	}
	var scratch []byte
	for i := range cs {
		c := &cs[i]
		t := c.Table
		if t == nil || t.Primary.Hidden {
			continue
		}
		switch c.Kind {
		case ChangeInsert:
			if len(c.Row) != len(t.Columns) {
				continue
			}
			if t.AutoInc >= 0 && (c.Row[t.AutoInc].Null || c.Row[t.AutoInc].I == 0) {
				continue // its key is known only once it has its id
			}
			scratch = primaryKey(scratch[:0], t, c.Row, 0)
			ra.add(scratch)
			for _, idx := range t.secondaries() {
				if idx.Unique && !hasNull(idx, c.Row) {
					scratch = appendIndexKey(scratch[:0], t, idx, c.Row)
					ra.add(scratch)
				}
			}
		case ChangeUpdate, ChangeDelete:
			if len(c.Old) != len(t.Columns) {
				continue
			}
			scratch = primaryKey(scratch[:0], t, c.Old, 0)
			ra.add(scratch)
			if c.Kind == ChangeDelete || len(c.Row) != len(t.Columns) {
				continue
			}
			// An update checks the keys its new row takes.
			n := len(scratch)
			scratch = primaryKey(scratch, t, c.Row, 0)
			if !bytes.Equal(scratch[:n], scratch[n:]) {
				ra.add(scratch[n:])
			}
			for _, idx := range t.secondaries() {
				if idx.Unique && !hasNull(idx, c.Row) {
					scratch = appendIndexKey(scratch[:0], t, idx, c.Row)
					ra.add(scratch)
				}
			}
		}
	}
	if len(ra.ents) == 0 {
		return nil
	}
	ra.order = ra.order[:0]
	for i := range ra.ents {
		ra.order = append(ra.order, int32(i))
	}
	slices.SortFunc(ra.order, func(a, b int32) int {
		return bytes.Compare(ra.key(&ra.ents[a]), ra.key(&ra.ents[b]))
	})
	lo := ra.key(&ra.ents[ra.order[0]])
	hi := append([]byte(nil), ra.key(&ra.ents[ra.order[len(ra.order)-1]])...)
	it, err := db.NewIter(&pebble.IterOptions{LowerBound: lo, UpperBound: append(hi, 0)})
	if err != nil {
		return err
	}
	var prev []byte
	for _, i := range ra.order {
		e := &ra.ents[i]
		k := ra.key(e)
		if prev != nil && bytes.Equal(prev, k) {
			continue // read already: the first entry of the key answers
		}
		prev = k
		// In key order a seek to a key at or before the iterator's
		// position does not move it, and a seek a little ahead steps.
		if it.SeekGE(k) && bytes.Equal(it.Key(), k) {
			v, err := it.ValueAndErr()
			if err != nil {
				it.Close()
				return err
			}
			e.found, e.v0 = true, len(ra.data)
			ra.data = append(ra.data, v...)
			e.v1 = len(ra.data)
		}
		h := maphash.Bytes(ra.seed, prev)
		if _, taken := ra.slots[h]; !taken {
			ra.slots[h] = i
		}
	}
	if err := it.Close(); err != nil {
		return err
	}
	ra.on = true
	return nil
}

// get answers key from the read-ahead: ok is false when it was not read
// ahead. The value is valid until reset.
func (ra *readAhead) get(key []byte) (v []byte, found, ok bool) {
	i, hit := ra.slots[maphash.Bytes(ra.seed, key)]
	if !hit {
		return nil, false, false
	}
	e := &ra.ents[i]
	if !bytes.Equal(ra.key(e), key) {
		return nil, false, false // another key with the same hash
	}
	if !e.found {
		return nil, false, true
	}
	return ra.data[e.v0:e.v1], true, true
}

// reset forgets what was read ahead, keeping the space.
func (ra *readAhead) reset() {
	ra.on = false
	clear(ra.slots)
	ra.ents, ra.data, ra.order = ra.ents[:0], ra.data[:0], ra.order[:0]
}
