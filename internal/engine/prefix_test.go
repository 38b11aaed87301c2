package engine

import (
	"bytes"
	"errors"
	"io"
	"reflect"
	"testing"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/types"
)

// prefixDef is (k VARCHAR(20) PRIMARY KEY (k(5)), v INT, w VARCHAR(20)
// KEY (w(2)), b VARBINARY(10) UNIQUE (b(3))), all utf8mb4_general_ci.
func prefixDef() *TableDef {
	return &TableDef{
		Name: "p",
		Columns: []types.Column{
			{Name: "k", Type: varcharType(20, "utf8mb4_general_ci")},
			{Name: "v", Type: intType(), Nullable: true},
			{Name: "w", Type: varcharType(20, "utf8mb4_general_ci"), Nullable: true},
			{Name: "b", Type: types.Type{Kind: types.VarBinary, Length: 10}, Nullable: true},
		},
		Indexes: []IndexDef{
			{Primary: true, Columns: []string{"k"}, Prefix: []uint16{5}},
			{Name: "w", Columns: []string{"w"}, Prefix: []uint16{2}},
			{Name: "b", Unique: true, Columns: []string{"b"}, Prefix: []uint16{3}},
		},
	}
}

func strs(rows []Row, col int) []string {
	out := []string{}
	for _, r := range rows {
		out = append(out, string(r[col].B))
	}
	return out
}

// A prefix key is the value's first characters: a unique prefix admits one
// row per prefix, and a duplicate names the prefix, as MariaDB does
// (Duplicate entry 'abcde' for key 'PRIMARY').
func TestPrefixUniqueness(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := createTable(t, e, "app", prefixDef())
	update(t, e, func(tx *Job) error {
		for _, r := range []Row{
			row(sv("abcdefg"), iv(1), sv("aa1"), types.Value{B: []byte("xyz1")}),
			row(sv("abcd"), iv(2), sv("aa2"), types.Value{B: []byte("xy")}),
			row(sv("ñañañ"), iv(3), sv("ab"), null()),
		} {
			if _, err := tx.Insert(tb, r); err != nil {
				return err
			}
		}
		return nil
	})
	for _, c := range []struct {
		r     Row
		index string
		key   string
	}{
		{row(sv("abcdexx"), iv(9), null(), null()), "PRIMARY", "abcde"},
		{row(sv("ABCDE"), iv(9), null(), null()), "PRIMARY", "ABCDE"},
		{row(sv("ñañañx"), iv(9), null(), null()), "PRIMARY", "ñañañ"},
		{row(sv("zz"), iv(9), null(), types.Value{B: []byte("xyz2")}), "b", "xyz"},
	} {
		err := e.Update(t.Context(), func(tx *Job) error { _, err := tx.Insert(tb, c.r); return err })
		var dk *DuplicateKeyError
		if !errors.As(err, &dk) || dk.Index != c.index || string(dk.Key[0].B) != c.key {
			t.Fatalf("insert %q: %v (key %v), want a duplicate %q of %s", c.r[0].B, err, dk, c.key, c.index)
		}
	}
	// Four characters of five: not the same prefix.
	update(t, e, func(tx *Job) error { _, err := tx.Insert(tb, row(sv("ñaña"), iv(4), null(), null())); return err })
}

// A find compares the key's prefix, as the plugin does (the values below
// are the plugin's answers on MariaDB 10.11): = 'abcdexx' finds 'abcdefg';
// < and > exclude every row of the prefix 'abcde'.
func TestPrefixFind(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := createTable(t, e, "app", prefixDef())
	update(t, e, func(tx *Job) error {
		for i, k := range []string{"abcdefg", "abcd", "abcz", "b"} {
			w := []string{"aa1", "aa2", "ab", "b"}[i]
			if _, err := tx.Insert(tb, row(sv(k), iv(int64(i+1)), sv(w), null())); err != nil {
				return err
			}
		}
		return nil
	})
	w := tb.Index("w")
	for _, c := range []struct {
		idx  *Index
		op   FindOp
		key  string
		want []string
	}{
		{tb.Primary, OpEQ, "abcdexx", []string{"abcdefg"}},
		{tb.Primary, OpEQ, "abc", []string{}},
		{tb.Primary, OpGT, "abcde", []string{"abcz", "b"}},
		{tb.Primary, OpGE, "abcdexx", []string{"abcdefg", "abcz", "b"}},
		{tb.Primary, OpLT, "abcdexx", []string{"abcd"}},
		{tb.Primary, OpLE, "abcdexx", []string{"abcdefg", "abcd"}},
		{tb.Primary, OpGT, "abcdexx", []string{"abcz", "b"}},
		{w, OpEQ, "aa9", []string{"abcd", "abcdefg"}}, // same prefix: in primary key order
		{w, OpGE, "aa3", []string{"abcd", "abcdefg", "abcz", "b"}},
		{w, OpLT, "aa3", []string{}},
		{w, OpGT, "aa0", []string{"abcz", "b"}},
	} {
		// Twice: the second = on the primary key may come from the row cache.
		for range 2 {
			got := strs(findAll(t, e, tb, &Query{Index: c.idx, Op: c.op, Key: []types.Value{sv(c.key)}, Limit: 10}), 0)
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%s %d %q: %q, want %q", c.idx.Name, c.op, c.key, got, c.want)
			}
		}
	}
}

// An SQL range over a prefix index covers at least the rows it bounds:
// a bound cut by the prefix widens to the whole prefix (the caller
// rechecks), and never loses a row.
func TestPrefixRange(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := createTable(t, e, "app", prefixDef())
	update(t, e, func(tx *Job) error {
		for i, k := range []string{"abcdefg", "abcdexx", "abcd", "abcz", "b"} {
			if _, err := tx.Insert(tb, row(sv(string(rune('0'+i))+k), iv(int64(i)), sv(k), null())); err != nil {
				return err
			}
		}
		return nil
	})
	w := tb.Index("w")
	scan := func(rg Range) []string {
		it, err := e.NewIterator(tb, w, rg, false)
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		var out []string
		for {
			r, err := it.Next()
			if err == io.EOF {
				return out
			}
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, string(r[2].B))
		}
	}
	all := []string{"abcdefg", "abcdexx", "abcd", "abcz", "b"}
	// Each range, checked on the full values, must be within what the
	// iterator returns.
	for _, rg := range []Range{
		{Lower: []types.Value{sv("abcdexx")}, Upper: []types.Value{sv("abcdexx")}},
		{Lower: []types.Value{sv("ab")}, LowerExclusive: true},
		{Upper: []types.Value{sv("abcdf")}, UpperExclusive: true},
		{Lower: []types.Value{sv("abcd")}, Upper: []types.Value{sv("abcz")}, LowerExclusive: true, UpperExclusive: true},
	} {
		got := scan(rg)
		typ := &tb.Columns[2].Type
		for _, v := range all {
			in := true
			if rg.Lower != nil {
				c := types.Compare(typ, sv(v), rg.Lower[0])
				in = in && (c > 0 || c == 0 && !rg.LowerExclusive)
			}
			if rg.Upper != nil {
				c := types.Compare(typ, sv(v), rg.Upper[0])
				in = in && (c < 0 || c == 0 && !rg.UpperExclusive)
			}
			found := false
			for _, g := range got {
				found = found || g == v
			}
			if in && !found {
				t.Errorf("range %+v: %q missing from %q", rg, v, got)
			}
		}
	}
}

// Prefix lengths are stored in the catalog and survive a reopen; only
// string and binary columns take one, and a length at least the column's
// is none (so ALTER TABLE drops a prefix its new column type makes moot).
func TestPrefixCatalog(t *testing.T) {
	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilityNone)
	createTable(t, e, "app", prefixDef())
	e.Close()
	e = openTestEngine(t, dir, DurabilityNone)
	tb, err := e.Catalog().Table("app", "p")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(tb.Primary.Prefix, []uint16{5}) || !reflect.DeepEqual(tb.Index("w").Prefix, []uint16{2}) || !reflect.DeepEqual(tb.Def().Indexes[0].Prefix, []uint16{5}) {
		t.Fatalf("prefixes after reopen: %v %v", tb.Primary.Prefix, tb.Index("w").Prefix)
	}
	for _, c := range []struct {
		col    string
		prefix uint16
		ok     bool
		kept   bool
	}{{"v", 2, true, false}, {"w", 21, true, false}, {"w", 20, true, false}, {"w", 19, true, true}, {"b", 10, true, false}, {"b", 4, true, true}} {
		var nt *Table
		err := e.Update(t.Context(), func(tx *Job) error {
			var err error
			nt, err = tx.AddIndex("app", "p", &IndexDef{Name: "x", Columns: []string{c.col}, Prefix: []uint16{c.prefix}})
			if err == nil {
				_, err = tx.DropIndex("app", "p", "x")
			}
			return err
		})
		if (err == nil) != c.ok || err != nil && !errors.Is(err, ErrBadDefinition) {
			t.Fatalf("prefix %d on %s: %v", c.prefix, c.col, err)
		}
		if err == nil && (nt.Index("x").Prefix != nil) != c.kept {
			t.Fatalf("prefix %d on %s: kept %v", c.prefix, c.col, nt.Index("x").Prefix)
		}
	}
}

// A catalog written before prefix indexes and database collations (its
// records have neither field) opens: no prefixes, default collation.
// The records below are what the previous version wrote for
// CREATE DATABASE old; CREATE TABLE old.t (id INT PRIMARY KEY, s VARCHAR(8)).
func TestOldCatalogOpens(t *testing.T) {
	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilityNone)
	db := e.DB()
	old := map[string]string{
		string(databaseKey("old")):       `{"name":"old"}`,
		string(tableSysKey(sysTable, 7)): `{"id":7,"db":"old","name":"t","columns":[{"name":"id","kind":4},{"name":"s","kind":16,"length":8,"collation":"utf8mb4_general_ci","nullable":true}],"indexes":[{"id":1,"name":"PRIMARY","primary":true,"unique":true,"columns":[0]}],"collation":"utf8mb4_general_ci","next_index_id":2}`,
		string(metaKey):                  `{"version":3,"next_table_id":8}`,
		string(databaseKey("latin")):     `{"name":"latin","collation":"latin1_swedish_ci"}`,
	}
	for k, v := range old {
		if err := db.Set([]byte(k), []byte(v), nil); err != nil {
			t.Fatal(err)
		}
	}
	e.Close()
	e = openTestEngine(t, dir, DurabilityNone)
	tb, err := e.Catalog().Table("old", "t")
	if err != nil {
		t.Fatal(err)
	}
	if tb.Primary.Prefix != nil || tb.Columns[1].Type.Collation != collation.Utf8mb4GeneralCI {
		t.Fatalf("old table: prefix %v, collation %v", tb.Primary.Prefix, tb.Columns[1].Type.Collation)
	}
	d, _ := e.Catalog().Database("old")
	l, _ := e.Catalog().Database("latin")
	if d.Collation != nil || l == nil || l.Collation != collation.Latin1SwedishCI {
		t.Fatalf("database collations: %v %v", d.Collation, l)
	}
	// And a table created in latin gets latin1; its record round-trips.
	update(t, e, func(tx *Job) error {
		_, err := tx.CreateTable("latin", &TableDef{Name: "x", Columns: []types.Column{{Name: "s", Type: types.Type{Kind: types.VarChar, Length: 4}}}})
		return err
	})
	x, _ := e.Catalog().Table("latin", "x")
	if x.Collation != collation.Latin1SwedishCI || x.Columns[0].Type.Collation != collation.Latin1SwedishCI {
		t.Fatalf("table in a latin1 database: %v %v", x.Collation, x.Columns[0].Type.Collation)
	}
	if !bytes.Contains(x.marshal(), []byte(`"collation":"latin1_swedish_ci"`)) {
		t.Fatalf("record: %s", x.marshal())
	}
}
