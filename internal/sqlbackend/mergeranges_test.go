package sqlbackend

import (
	"math/rand/v2"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// TestMergeRanges compares mergeRanges with go-mysql-server's
// RemoveOverlappingRanges on random sets of one-column ranges: open,
// closed, unbounded and NULL-bounded ends, overlapping, touching and
// apart. The collections must print the same.
func TestMergeRanges(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	typ := gtypes.Int32
	lower := func(k int32) sql.MySQLRangeCut {
		switch r.IntN(8) {
		case 0:
			return sql.AboveNull{}
		case 1:
			return sql.BelowNull{}
		case 2, 3:
			return sql.Above{Key: k}
		}
		return sql.Below{Key: k}
	}
	upper := func(k int32) sql.MySQLRangeCut {
		switch r.IntN(8) {
		case 0:
			return sql.AboveAll{}
		case 1, 2:
			return sql.Below{Key: k}
		}
		return sql.Above{Key: k}
	}
	for round := 0; round < 3000; round++ {
		var ranges []sql.MySQLRange
		for n := 1 + r.IntN(12); len(ranges) < n; {
			a := int32(r.IntN(60))
			b := a + int32(r.IntN(15))
			rg := sql.MySQLRange{sql.MySQLRangeColumnExpr{LowerBound: lower(a), UpperBound: upper(b), Typ: typ}}
			if empty, err := rg.IsEmpty(); err != nil || empty {
				continue
			}
			ranges = append(ranges, rg)
		}
		want, err := sql.RemoveOverlappingRanges(append([]sql.MySQLRange(nil), ranges...)...)
		if err != nil {
			t.Fatal(err)
		}
		got, err := mergeRanges(ranges)
		if err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Fatalf("ranges %v:\n got %s\nwant %s", ranges, got, want)
		}
	}
}
