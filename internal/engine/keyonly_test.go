package engine

import (
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// coverDef is (id INT, b VARBINARY(8), a INT NULL, d DATETIME NULL,
// m DECIMAL(6,2) NULL, s VARCHAR(10) utf8mb4_general_ci NULL, f DOUBLE
// NULL, PRIMARY KEY (id, b)) with the secondary indexes
// k (a, d, m, b), ks (s, a), kp (b(2)), u UNIQUE (m) and kf (f, a).
func coverDef() *TableDef {
	return &TableDef{
		Name: "cover",
		Columns: []types.Column{
			{Name: "id", Type: intType()},
			{Name: "b", Type: types.Type{Kind: types.VarBinary, Length: 8}},
			{Name: "a", Type: intType(), Nullable: true},
			{Name: "d", Type: types.Type{Kind: types.DateTime}, Nullable: true},
			{Name: "m", Type: types.Type{Kind: types.Decimal, Length: 6, Scale: 2}, Nullable: true},
			{Name: "s", Type: varcharType(10, "utf8mb4_general_ci"), Nullable: true},
			{Name: "f", Type: types.Type{Kind: types.Double}, Nullable: true},
		},
		Indexes: []IndexDef{
			{Primary: true, Columns: []string{"id", "b"}},
			{Name: "k", Columns: []string{"a", "d", "m", "b"}},
			{Name: "ks", Columns: []string{"s", "a"}},
			{Name: "kp", Columns: []string{"b"}, Prefix: []uint16{2}},
			{Name: "u", Unique: true, Columns: []string{"m"}},
			{Name: "kf", Columns: []string{"f", "a"}},
		},
	}
}

func coverRow(r *rand.Rand, id int64) Row {
	maybe := func(v types.Value) types.Value {
		if r.IntN(6) == 0 {
			return types.NullValue
		}
		return v
	}
	b := make([]byte, r.IntN(5))
	for i := range b {
		b[i] = []byte{0, 1, 'a', 0xff}[r.IntN(4)]
	}
	// u is unique: a NULL, or a value only this row has.
	m := fmt.Sprintf("%s%d.%02d", []string{"", "-"}[r.IntN(2)], id/100, id%100)
	mt := types.Type{Kind: types.Decimal, Length: 6, Scale: 2}
	return row(iv(id), types.Value{B: b}, maybe(iv(r.Int64N(7)-3)),
		maybe(types.Value{I: types.PackDateTime(2020+r.IntN(3), 1+r.IntN(12), 1+r.IntN(28), r.IntN(24), 0, r.IntN(60), 0)}),
		maybe(types.Convert(&mt, []byte(m), nil)),
		maybe(sv([]string{"x", "X", "é", "e "}[r.IntN(4)])), maybe(types.Value{F: r.Float64()}))
}

// TestKeyColumns lists the columns each index's entries hold whole.
func TestKeyColumns(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := createTable(t, e, "app", coverDef())
	want := map[string][]int{
		"PRIMARY": nil,
		"k":       {0, 1, 2, 3, 4}, // a, d, m, b and the primary key (id, b)
		"ks":      {0, 1},          // s is a sort key: a after it is lost too
		"kp":      {0, 1},          // a prefix of b; b itself from the primary key
		"u":       {0, 1, 4},
		"kf":      {0, 1}, // a DOUBLE's key is not read back
	}
	for name, cols := range want {
		if got := tb.KeyColumns(tb.Index(name)); !slices.Equal(got, cols) {
			t.Errorf("KeyColumns(%s) = %v, want %v", name, got, cols)
		}
	}
	// Prefix parts, of the index and of the primary key, hold no whole
	// value.
	pe := openTestEngine(t, "", DurabilityNone)
	pt := createTable(t, pe, "app", prefixDef())
	for _, name := range []string{"w", "b"} {
		if got := pt.KeyColumns(pt.Index(name)); got != nil {
			t.Errorf("prefix table: KeyColumns(%s) = %v, want none", name, got)
		}
	}
}

// TestKeyOnlyIterator compares, for every secondary index, forward and
// reverse, whole and within a range, over the store, a snapshot and a
// transaction with writes of its own, the rows a KeyOnly iterator decodes
// from the entries with the rows read through the primary index: the
// columns KeyColumns lists must be equal, the others NULL.
func TestKeyOnlyIterator(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := createTable(t, e, "app", coverDef())
	r := rand.New(rand.NewPCG(7, 8))
	const n = 400
	update(t, e, func(tx *Job) error {
		for id := int64(1); id <= n; id++ {
			if _, err := tx.Insert(tb, coverRow(r, id)); err != nil {
				return err
			}
		}
		return nil
	})
	snap := e.NewSnapshot()
	defer snap.Close()
	// Changes after the snapshot: the snapshot must not see them, the
	// store and the transaction must.
	update(t, e, func(tx *Job) error {
		for id := int64(1); id <= n; id += 7 {
			old := findAll(t, e, tb, &Query{Index: tb.Primary, Op: OpGE, Key: []types.Value{iv(id)}, Limit: 1})
			if _, err := tx.Update(tb, old[0], coverRow(r, id)); err != nil {
				return err
			}
		}
		return nil
	})
	x := e.Begin()
	defer x.Rollback()
	for id := int64(n + 1); id <= n+50; id++ {
		if _, err := x.Insert(tb, coverRow(r, id)); err != nil {
			t.Fatal(err)
		}
	}
	type opener func(idx *Index, rg Range, rev bool) (*Iterator, error)
	views := []struct {
		name string
		open opener
	}{
		{"store", func(idx *Index, rg Range, rev bool) (*Iterator, error) { return e.NewIterator(tb, idx, rg, rev) }},
		{"snapshot", func(idx *Index, rg Range, rev bool) (*Iterator, error) { return snap.NewIterator(tb, idx, rg, rev) }},
		{"txn", func(idx *Index, rg Range, rev bool) (*Iterator, error) { return x.NewIterator(tb, idx, rg, rev) }},
		{"txn-snapshot", func(idx *Index, rg Range, rev bool) (*Iterator, error) {
			return x.NewSnapshotIterator(snap, tb, idx, rg, rev)
		}},
	}
	walk := func(it *Iterator, err error, keyOnly bool, cols []int) [][]types.Value {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		if keyOnly {
			if err := it.KeyOnly(); err != nil {
				t.Fatal(err)
			}
		}
		var out [][]types.Value
		for {
			row, err := it.Next()
			if err == io.EOF {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			var vs []types.Value
			for c := range row {
				if slices.Contains(cols, c) {
					v := row[c]
					v.B = slices.Clone(v.B)
					vs = append(vs, v)
				} else if keyOnly && !row[c].Null {
					t.Fatalf("column %d of a key-only row is %v, not NULL", c, row[c])
				}
			}
			out = append(out, vs)
		}
	}
	same := func(a, b []types.Value) bool {
		return slices.EqualFunc(a, b, func(x, y types.Value) bool {
			return x.Null == y.Null && x.I == y.I && string(x.B) == string(y.B)
		})
	}
	rows := 0
	for _, idx := range tb.Indexes {
		if idx.Primary {
			continue
		}
		cols := tb.KeyColumns(idx)
		for _, v := range views {
			for _, rg := range []Range{{}, {Lower: []types.Value{iv(-1)}, Upper: []types.Value{iv(1)}}} {
				if rg.Lower != nil && idx.Name != "k" {
					continue
				}
				for _, rev := range []bool{false, true} {
					it, err := v.open(idx, rg, rev)
					full := walk(it, err, false, cols)
					it, err = v.open(idx, rg, rev)
					keyed := walk(it, err, true, cols)
					if len(full) == 0 {
						t.Fatalf("%s %s %v: no rows", idx.Name, v.name, rg.Lower)
					}
					if !slices.EqualFunc(full, keyed, same) {
						t.Fatalf("%s over %s (range %v, reverse %v): key-only rows differ: %d rows, want %d; first %v, want %v",
							idx.Name, v.name, rg.Lower, rev, len(keyed), len(full), keyed[0], full[0])
					}
					rows += len(full)
				}
			}
		}
	}
	it, err := e.NewIterator(tb, tb.Primary, Range{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if it.KeyOnly() == nil {
		t.Error("KeyOnly on the primary index")
	}
	it.Close()
	t.Logf("%d rows compared", rows)
}

// TestKeyOnlyHiddenPrimary reads an index of a table without a primary
// key (whose entries store a hidden row id): only the index columns.
func TestKeyOnlyHiddenPrimary(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := createTable(t, e, "app", &TableDef{
		Name:    "nopk",
		Columns: []types.Column{{Name: "a", Type: intType(), Nullable: true}, {Name: "b", Type: intType()}},
		Indexes: []IndexDef{{Name: "ka", Columns: []string{"a"}}},
	})
	update(t, e, func(tx *Job) error {
		for i := int64(0); i < 50; i++ {
			a := iv(i % 7)
			if i%9 == 0 {
				a = null()
			}
			if _, err := tx.Insert(tb, row(a, iv(i))); err != nil {
				return err
			}
		}
		return nil
	})
	idx := tb.Index("ka")
	if got := tb.KeyColumns(idx); !slices.Equal(got, []int{0}) {
		t.Fatalf("KeyColumns = %v, want [0]", got)
	}
	read := func(keyOnly bool) []string {
		it, err := e.NewIterator(tb, idx, Range{}, false)
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		if keyOnly {
			if err := it.KeyOnly(); err != nil {
				t.Fatal(err)
			}
		}
		var out []string
		for {
			r, err := it.Next()
			if err == io.EOF {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			if keyOnly && !r[1].Null {
				t.Fatalf("b is %v in a key-only row", r[1])
			}
			out = append(out, fmt.Sprintf("%v/%d", r[0].Null, r[0].I))
		}
	}
	if full, keyed := read(false), read(true); len(full) != 50 || !slices.Equal(full, keyed) {
		t.Fatalf("key-only %v, want %v", keyed, full)
	}
}
