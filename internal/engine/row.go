package engine

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/handlerdb/handlerdb/internal/types"
)

// Row is one value per table column, in column order. A Row handed to a
// callback by Find or an Iterator aliases engine buffers and stored bytes:
// it is valid only until the callback returns (or the iterator moves); use
// Clone to keep it.
type Row []types.Value

// Clone returns a deep copy of r that owns its bytes.
func (r Row) Clone() Row {
	n := 0
	for i := range r {
		n += len(r[i].B)
	}
	buf := make([]byte, 0, n)
	c := make(Row, len(r))
	for i, v := range r {
		c[i] = v
		if v.B != nil {
			start := len(buf)
			buf = append(buf, v.B...)
			c[i].B = buf[start:len(buf):len(buf)]
		}
	}
	return c
}

// Row value encoding (the value of a primary index entry):
//
//	version byte (1)
//	uvarint column count n
//	hidden row id (uvarint), present only for tables without a primary key
//	null bitmap, ceil(n/8) bytes, bit i set = column i is NULL
//	each non-NULL column by its storage class:
//	  int:   signed varint of Value.I
//	  float: 8 bytes, little-endian IEEE bits of Value.F
//	  bytes: uvarint length + bytes
const rowFormatV1 = 1

// encodeRow appends the stored form of row to dst.
func encodeRow(dst []byte, t *Table, row Row, rowID uint64) []byte {
	n := len(t.Columns)
	dst = append(dst, rowFormatV1)
	dst = binary.AppendUvarint(dst, uint64(n))
	if t.Primary.Hidden {
		dst = binary.AppendUvarint(dst, rowID)
	}
	bm := len(dst)
	for i := 0; i < (n+7)/8; i++ {
		dst = append(dst, 0)
	}
	for i := range t.Columns {
		v := row[i]
		if v.Null {
			dst[bm+i/8] |= 1 << (i % 8)
			continue
		}
		switch t.classes[i] {
		case types.ClassInt:
			dst = binary.AppendVarint(dst, v.I)
		case types.ClassFloat:
			dst = binary.LittleEndian.AppendUint64(dst, math.Float64bits(v.F))
		default:
			dst = binary.AppendUvarint(dst, uint64(len(v.B)))
			dst = append(dst, v.B...)
		}
	}
	return dst
}

// decodeRow decodes src into row (reusing its capacity) and returns it with
// the hidden row id (0 for tables with a primary key). Byte values alias
// src. Columns missing from an older row (added later) get their default.
func decodeRow(row Row, t *Table, src []byte) (Row, uint64, error) {
	return decodeRowNeed(row, t, src, nil)
}

// decodeRowNeed is decodeRow of the columns need marks (every column
// when need is nil): the others are stepped over, and hold the zero
// Value. The stored form is read through either way, so a corrupt row is
// an error whichever columns are asked for.
func decodeRowNeed(row Row, t *Table, src []byte, need []bool) (Row, uint64, error) {
	if len(src) < 2 || src[0] != rowFormatV1 {
		return row, 0, ErrCorrupt
	}
	p := 1
	stored, k := binary.Uvarint(src[p:])
	if k <= 0 || stored > uint64(len(src))*8 { // at least a null bit per column
		return row, 0, ErrCorrupt
	}
	p += k
	var rowID uint64
	if t.Primary.Hidden {
		rowID, k = binary.Uvarint(src[p:])
		if k <= 0 {
			return row, 0, ErrCorrupt
		}
		p += k
	}
	n := len(t.Columns)
	ns := int(stored)
	bm := p
	p += (ns + 7) / 8
	if p > len(src) {
		return row, 0, ErrCorrupt
	}
	if cap(row) < n {
		row = make(Row, n)
	}
	row = row[:n]
	for i := 0; i < n; i++ {
		if i >= ns {
			row[i] = t.missingValue(i)
			continue
		}
		if src[bm+i/8]&(1<<(i%8)) != 0 {
			row[i] = types.Value{Null: true}
			continue
		}
		if need != nil && !need[i] {
			var ok bool
			if p, ok = skipValue(t.classes[i], src, p); !ok {
				return row, 0, ErrCorrupt
			}
			row[i] = types.Value{}
			continue
		}
		switch t.classes[i] {
		case types.ClassInt:
			if p < len(src) && src[p] < 0x80 {
				// one byte, -64..63: the zig-zag form read in place
				// (binary.Varint is a loop not inlined; most stored
				// integers are small)
				u := int64(src[p])
				row[i] = types.Value{I: u>>1 ^ -(u & 1)}
				p++
				continue
			}
			x, k := binary.Varint(src[p:])
			if k <= 0 {
				return row, 0, ErrCorrupt
			}
			p += k
			row[i] = types.Value{I: x}
		case types.ClassFloat:
			if p+8 > len(src) {
				return row, 0, ErrCorrupt
			}
			row[i] = types.Value{F: math.Float64frombits(binary.LittleEndian.Uint64(src[p:]))}
			p += 8
		default:
			l, k := uint64(0), 1
			if p < len(src) && src[p] < 0x80 {
				l = uint64(src[p]) // a length below 128, in one byte
			} else {
				l, k = binary.Uvarint(src[p:])
			}
			if k <= 0 || l > uint64(len(src)-p-k) {
				return row, 0, ErrCorrupt
			}
			p += k
			row[i] = types.Value{B: src[p : p+int(l) : p+int(l)]}
			p += int(l)
		}
	}
	return row, rowID, nil
}

// skipValue returns the position after the stored value of storage class
// c at src[p:]; ok is false when it runs past src.
func skipValue(c types.Class, src []byte, p int) (int, bool) {
	switch c {
	case types.ClassInt:
		for p < len(src) && src[p] >= 0x80 {
			p++
		}
		return p + 1, p < len(src)
	case types.ClassFloat:
		return p + 8, p+8 <= len(src)
	default:
		l, k := binary.Uvarint(src[p:])
		if k <= 0 || l > uint64(len(src)-p-k) {
			return p, false
		}
		return p + k + int(l), true
	}
}

// ReadColumns returns, by ordinal, the columns of t marked in cols and
// those an iterator over idx reads itself (idx's and the primary key's):
// what Iterator.Need asks. Nil when that is every column.
func ReadColumns(t *Table, idx *Index, cols []int) []bool {
	need := make([]bool, len(t.Columns))
	for _, c := range cols {
		need[c] = true
	}
	for _, c := range idx.Columns {
		need[c] = true
	}
	for _, c := range t.Primary.Columns {
		need[c] = true
	}
	if !slices.Contains(need, false) {
		return nil
	}
	return need
}
