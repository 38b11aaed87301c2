package engine

import "github.com/handlerdb/handlerdb/internal/types"

// Key-only reads of a secondary index. A secondary entry's key holds the
// index columns (and, unless the index is unique without a NULL, the
// primary-key columns) and its value holds the primary-key columns (see
// secondaryKey). Where those encodings can be read back (whole values of
// the kinds types.KeyReversible admits) a reader that needs only such
// columns can take them from the entry and skip the primary row.

// KeyColumns returns, in ascending order, the columns of t whose values
// the entries of the secondary index idx hold whole: its parts, then the
// primary key's, each up to the first that is a prefix part or of a kind
// whose key cannot be read back (a later part cannot be found without
// decoding the one before). Nil for the primary index. Safe for
// concurrent use.
func (t *Table) KeyColumns(idx *Index) []int {
	if idx == nil || idx.Primary {
		return nil
	}
	var in []bool
	add := func(x *Index) {
		for i, c := range x.Columns {
			if !partReversible(t, x, i) {
				return
			}
			if in == nil {
				in = make([]bool, len(t.Columns))
			}
			in[c] = true
		}
	}
	add(idx)
	if !t.Primary.Hidden {
		add(t.Primary)
	}
	var out []int
	for c, ok := range in {
		if ok {
			out = append(out, c)
		}
	}
	return out
}

// partReversible reports whether part i of x keys its whole value in a
// form types.DecodeKey reads back.
func partReversible(t *Table, x *Index, i int) bool {
	if x.Prefix != nil && x.Prefix[i] != 0 {
		return false
	}
	return types.KeyReversible(&t.Columns[x.Columns[i]].Type)
}

// KeyOnly makes the iterator, on a secondary index, return rows decoded
// from the index entries alone, without reading the primary rows: the
// columns KeyColumns lists hold their values and every other column is
// NULL. The rows are the ones the entries of the iterator's own view name
// (an entry and its row are written in one batch), so the entries a
// primary read would skip as changed meanwhile (see Next) are not read at
// all. Call it before the first Next; it fails on the primary index.
func (x *Iterator) KeyOnly() error {
	if x.idx.Primary {
		return &Error{Kind: ErrKeyParts, DB: x.t.DB, Table: x.t.Name, Index: x.idx.Name, Detail: "key-only read of the primary index"}
	}
	x.keyOnly = true
	return nil
}

// decodeEntry fills x.row from the current entry's key and its stored
// primary-key columns.
func (x *Iterator) decodeEntry(key, stored []byte) (Row, error) {
	n := len(x.t.Columns)
	if cap(x.row) < n {
		x.row = make(Row, n)
	}
	x.row = x.row[:n]
	for i := range x.row {
		x.row[i] = types.NullValue
	}
	x.kbuf = x.kbuf[:0]
	var err error
	if x.kbuf, err = x.decodeParts(x.idx, key[len(x.idx.prefix):], x.kbuf); err != nil {
		return nil, err
	}
	if !x.t.Primary.Hidden {
		if x.kbuf, err = x.decodeParts(x.t.Primary, stored, x.kbuf); err != nil {
			return nil, err
		}
	}
	return x.row, nil
}

// decodeParts decodes the reversible leading parts of ix from b into
// x.row.
func (x *Iterator) decodeParts(ix *Index, b, buf []byte) ([]byte, error) {
	for i, c := range ix.Columns {
		if !partReversible(x.t, ix, i) {
			break
		}
		v, m, nb, err := types.DecodeKey(&x.t.Columns[c].Type, b, buf)
		if err != nil {
			return nb, ErrCorrupt
		}
		buf, b = nb, b[m:]
		x.row[c] = v
	}
	return buf, nil
}
