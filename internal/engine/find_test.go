package engine

import (
	"errors"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// TestFindMatchesModel runs random finds (every op, key prefixes, limit,
// offset, IN lists and both filter kinds) on a primary and a secondary
// index and compares each answer with a plain Go model of MySQL's index
// order built from types.Compare.
func TestFindMatchesModel(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := createTable(t, e, "m", &TableDef{Name: "t",
		Columns: []types.Column{
			{Name: "a", Type: intType()},
			{Name: "b", Type: varcharType(8, "utf8mb4_general_ci")},
			{Name: "c", Type: intType(), Nullable: true},
		},
		Indexes: []IndexDef{
			{Primary: true, Columns: []string{"a", "b"}},
			{Name: "bc", Columns: []string{"b", "c"}},
		}})
	rng := rand.New(rand.NewSource(1))
	words := []string{"", "a", "A", "a ", "b", "B ", "ab", "ba", "z", "é", "E"}
	randVal := func(col int) types.Value {
		switch col {
		case 0:
			return iv(int64(rng.Intn(7) - 3))
		case 1:
			return sv(words[rng.Intn(len(words))])
		default:
			if rng.Intn(5) == 0 {
				return null()
			}
			return iv(int64(rng.Intn(5) - 2))
		}
	}
	var model []Row
	update(t, e, func(tx *Job) error {
		for i := 0; i < 300; i++ {
			r := row(randVal(0), randVal(1), randVal(2))
			_, err := tx.Insert(tb, r)
			if errors.Is(err, ErrDuplicateKey) {
				continue
			} else if err != nil {
				return err
			}
			model = append(model, r.Clone())
		}
		return nil
	})
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
	cmpCols := func(cols []int, a, b Row) int {
		for _, c := range cols {
			if x := types.Compare(&tb.Columns[c].Type, a[c], b[c]); x != 0 {
				return x
			}
		}
		return 0
	}
	for _, idx := range []*Index{tb.Primary, tb.Index("bc")} {
		order := append(append([]int(nil), idx.Columns...), tb.Primary.Columns...)
		sorted := append([]Row(nil), model...)
		sort.SliceStable(sorted, func(i, j int) bool { return cmpCols(order, sorted[i], sorted[j]) < 0 })
		for n := 0; n < 1500; n++ {
			q := &Query{Index: idx, Op: FindOp(rng.Intn(5)), Limit: rng.Intn(6), Offset: rng.Intn(3)}
			nk := rng.Intn(len(idx.Columns) + 1)
			for i := 0; i < nk; i++ {
				q.Key = append(q.Key, randVal(idx.Columns[i]))
			}
			if nk > 0 && rng.Intn(4) == 0 {
				q.InPart = rng.Intn(nk + 1)
				for i := rng.Intn(3) + 1; i > 0; i-- {
					q.In = append(q.In, randVal(idx.Columns[min(q.InPart, nk-1)]))
				}
			}
			if rng.Intn(3) == 0 {
				col := rng.Intn(3)
				q.Filters = append(q.Filters, Filter{Stop: rng.Intn(2) == 0, Op: CmpOp(rng.Intn(7)), Column: col, Value: randVal(col)})
			}
			got := findAll(t, e, tb, q)
			want := modelFind(tb, idx, sorted, q)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("index %s query %+v:\n got %v\nwant %v", idx.Name, *q, got, want)
			}
		}
	}
}

// modelFind answers q over rows sorted in idx order, the slow way.
func modelFind(tb *Table, idx *Index, sorted []Row, q *Query) []Row {
	keys := [][]types.Value{q.Key}
	if q.In != nil {
		keys = nil
		for _, v := range q.In {
			k := append([]types.Value(nil), q.Key...)
			if q.InPart < len(k) {
				k[q.InPart] = v
			}
			keys = append(keys, k)
		}
	}
	var out []Row
	skip := q.Offset
	for _, key := range keys {
		cmp := func(r Row) int {
			for i, v := range key {
				c := idx.Columns[i]
				if x := types.Compare(&tb.Columns[c].Type, r[c], v); x != 0 {
					return x
				}
			}
			return 0
		}
		var walk []Row
		switch q.Op {
		case OpEQ, OpGE, OpGT:
			for _, r := range sorted {
				c := cmp(r)
				if (q.Op == OpEQ && c == 0) || (q.Op == OpGE && c >= 0) || (q.Op == OpGT && c > 0) {
					walk = append(walk, r)
				}
			}
		case OpLE, OpLT:
			for i := len(sorted) - 1; i >= 0; i-- {
				c := cmp(sorted[i])
				if (q.Op == OpLE && c <= 0) || (q.Op == OpLT && c < 0) {
					walk = append(walk, sorted[i])
				}
			}
		}
		if q.In != nil && len(walk) > 1 {
			walk = walk[:1]
		}
		for _, r := range walk {
			pass := true
			for _, f := range q.Filters {
				if !f.pass(tb, r) {
					if f.Stop {
						return out
					}
					pass = false
					break
				}
			}
			if !pass {
				continue
			}
			if skip > 0 {
				skip--
				continue
			}
			out = append(out, r)
			if q.Limit > 0 && len(out) >= q.Limit {
				return out
			}
		}
	}
	return out
}
