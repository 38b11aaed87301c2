package engine

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// rowTestTable is a table of an integer, a float and a text column, as
// decodeRow sees it (its storage classes), cols times over.
func rowTestTable(cols int) *Table {
	t := &Table{Primary: &Index{}}
	for i := 0; i < cols; i++ {
		t.Columns = append(t.Columns,
			types.Column{Name: "i", Type: types.Type{Kind: types.BigInt}, Nullable: true},
			types.Column{Name: "f", Type: types.Type{Kind: types.Double}, Nullable: true},
			types.Column{Name: "s", Type: varcharType(1000, ""), Nullable: true})
	}
	t.classes = make([]types.Class, len(t.Columns))
	for i := range t.Columns {
		t.classes[i] = t.Columns[i].Type.Class()
	}
	return t
}

// TestDecodeRowRoundTrip decodes encoded rows of integers around every
// varint length (the one-byte ones are read in place), floats, texts
// shorter and longer than 128 bytes and NULLs back to the same values,
// and every cut-short encoding to ErrCorrupt, never a wrong row or a
// panic; decoding some columns (decodeRowNeed) gives those and steps
// over the others, and still finds a cut-short row corrupt.
func TestDecodeRowRoundTrip(t *testing.T) {
	tbl := rowTestTable(4)
	rng := rand.New(rand.NewPCG(3, 4))
	ints := []int64{0, 1, -1, 63, -64, 64, -65, 127, 128, 8191, -8192, 1 << 40, math.MaxInt64, math.MinInt64}
	var buf []byte
	var got Row
	for range 3000 {
		row := make(Row, len(tbl.Columns))
		for i := range row {
			if rng.IntN(6) == 0 {
				row[i] = types.Value{Null: true}
				continue
			}
			switch tbl.classes[i] {
			case types.ClassInt:
				row[i] = types.Value{I: ints[rng.IntN(len(ints))] + int64(rng.IntN(3)-1)}
			case types.ClassFloat:
				row[i] = types.Value{F: rng.NormFloat64()}
			default:
				b := make([]byte, []int{0, 1, 127, 128, 300}[rng.IntN(5)])
				for j := range b {
					b[j] = byte(rng.IntN(256))
				}
				row[i] = types.Value{B: b}
			}
		}
		buf = encodeRow(buf[:0], tbl, row, 0)
		var err error
		got, _, err = decodeRow(got, tbl, buf)
		if err != nil {
			t.Fatal(err)
		}
		for i := range row {
			if got[i].Null != row[i].Null || got[i].I != row[i].I || got[i].F != row[i].F || !bytes.Equal(got[i].B, row[i].B) {
				t.Fatalf("column %d: %+v, want %+v", i, got[i], row[i])
			}
		}
		need := make([]bool, len(row))
		for i := range need {
			need[i] = rng.IntN(2) == 0
		}
		part, _, err := decodeRowNeed(nil, tbl, buf, need)
		if err != nil {
			t.Fatal(err)
		}
		for i := range row {
			want := row[i]
			if !need[i] && !want.Null {
				want = types.Value{} // stepped over
			}
			if part[i].Null != want.Null || part[i].I != want.I || part[i].F != want.F || !bytes.Equal(part[i].B, want.B) {
				t.Fatalf("need %v, column %d: %+v, want %+v", need, i, part[i], want)
			}
		}
		for cut := 0; cut < len(buf); cut++ {
			if _, _, err := decodeRowNeed(nil, tbl, buf[:cut], need); err == nil {
				t.Fatalf("cut to %d of %d bytes decoded (need %v) without error", cut, len(buf), need)
			}
		}
		for cut := 0; cut < len(buf); cut++ {
			if _, _, err := decodeRow(nil, tbl, buf[:cut]); err == nil {
				// a cut at a column boundary still misses later ones:
				// only a cut inside the last value's bytes could pass
				// unnoticed, and then the value must differ
				t.Fatalf("cut to %d of %d bytes decoded without error", cut, len(buf))
			}
		}
	}
}

// BenchmarkDecodeRow decodes a row of 4 x (BIGINT, DOUBLE, VARCHAR).
func BenchmarkDecodeRow(b *testing.B) {
	tbl := rowTestTable(4)
	row := make(Row, len(tbl.Columns))
	for i := range row {
		switch tbl.classes[i] {
		case types.ClassInt:
			row[i] = types.Value{I: int64(i * 7)}
		case types.ClassFloat:
			row[i] = types.Value{F: float64(i) / 3}
		default:
			row[i] = types.Value{B: []byte("a name of a row")}
		}
	}
	buf := encodeRow(nil, tbl, row, 0)
	var out Row
	b.ReportAllocs()
	for b.Loop() {
		out, _, _ = decodeRow(out, tbl, buf)
	}
}
