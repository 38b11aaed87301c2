package engine

import (
	"bytes"
	"fmt"

	"github.com/cockroachdb/pebble/v2"
)

// Check verifies that every stored row of t decodes, that every secondary
// index holds exactly one entry per row with the key and value the row
// gives, and nothing else. It reads committed data and is safe for
// concurrent use; it is meant for tests, recovery checks and backups.
func (e *Engine) Check(t *Table) error {
	rows := 0
	want := map[uint32]map[string][]byte{}
	for _, idx := range t.secondaries() {
		want[idx.ID] = map[string][]byte{}
	}
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: t.Primary.prefix, UpperBound: prefixEnd(nil, t.Primary.prefix)})
	if err != nil {
		return err
	}
	var row Row
	for valid := it.First(); valid; valid = it.Next() {
		var rowID uint64
		row, rowID, err = decodeRow(row, t, it.Value())
		if err != nil {
			it.Close()
			return fmt.Errorf("%s.%s row %x: %w", t.DB, t.Name, it.Key(), err)
		}
		pk := appendPKColumns(append([]byte(nil), t.Primary.prefix...), t, row, rowID)
		if !bytes.Equal(pk, it.Key()) {
			it.Close()
			return fmt.Errorf("%w: %s.%s row stored under %x, its key is %x", ErrCorrupt, t.DB, t.Name, it.Key(), pk)
		}
		rows++
		pkCols := pk[len(t.Primary.prefix):]
		for _, idx := range t.secondaries() {
			k := secondaryKey(nil, t, idx, row, pkCols)
			if _, dup := want[idx.ID][string(k)]; dup {
				it.Close()
				return fmt.Errorf("%w: %s.%s index %s: two rows with key %x", ErrCorrupt, t.DB, t.Name, idx.Name, k)
			}
			want[idx.ID][string(k)] = append([]byte(nil), pkCols...)
		}
	}
	if err := it.Close(); err != nil {
		return err
	}
	for _, idx := range t.secondaries() {
		it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: idx.prefix, UpperBound: prefixEnd(nil, idx.prefix)})
		if err != nil {
			return err
		}
		n := 0
		for valid := it.First(); valid; valid = it.Next() {
			n++
			v, ok := want[idx.ID][string(it.Key())]
			if !ok || !bytes.Equal(v, it.Value()) {
				it.Close()
				return fmt.Errorf("%w: %s.%s index %s: stray entry %x", ErrCorrupt, t.DB, t.Name, idx.Name, it.Key())
			}
		}
		if err := it.Close(); err != nil {
			return err
		}
		if n != rows {
			return fmt.Errorf("%w: %s.%s index %s has %d entries for %d rows", ErrCorrupt, t.DB, t.Name, idx.Name, n, rows)
		}
	}
	return nil
}
