package engine

import (
	"reflect"
	"testing"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/types"
)

// sameTable reports how a and b differ as definitions (ids aside), or "".
func sameTable(a, b *Table) string {
	switch {
	case a.Name != b.Name || a.Comment != b.Comment || a.Collation != b.Collation || a.AutoInc != b.AutoInc:
		return "table attributes"
	case !reflect.DeepEqual(a.Columns, b.Columns):
		return "columns"
	case a.Primary.Hidden != b.Primary.Hidden || !reflect.DeepEqual(a.Primary.Columns, b.Primary.Columns):
		return "primary key"
	case len(a.Indexes) != len(b.Indexes):
		return "number of indexes"
	}
	for i, x := range a.Indexes {
		y := b.Indexes[i]
		if x.Name != y.Name || x.Primary != y.Primary || x.Unique != y.Unique || x.Hidden != y.Hidden || !reflect.DeepEqual(x.Columns, y.Columns) {
			return "index " + x.Name
		}
	}
	return ""
}

// TestTableDef: Def describes a table that newTable and CreateTable build
// again as it was, with or without a primary key, and changing the
// definition leaves the table alone.
func TestTableDef(t *testing.T) {
	seven := types.Value{I: 7}
	keyless := &TableDef{
		Name:      "log",
		Comment:   "no key",
		Collation: collation.Lookup("utf8mb4_bin"),
		Columns: []types.Column{
			{Name: "at", Type: intType(), Default: &seven},
			{Name: "what", Type: types.Type{Kind: types.Enum, Elems: []string{"a", "b"}}, Nullable: true},
			{Name: "who", Type: types.Type{Kind: types.VarChar, Length: 8}, Nullable: true},
		},
		Indexes: []IndexDef{
			{Name: "by_who", Columns: []string{"who", "at"}},
			{Name: "Uat", Unique: true, Columns: []string{"at"}},
			{Name: "uwho", Unique: true, Columns: []string{"who"}},
		},
	}
	e := openTestEngine(t, "", DurabilityNone)
	people := setupPeople(t, e)
	log := createTable(t, e, "app", keyless)
	for _, orig := range []*Table{people, log} {
		d := orig.Def()
		if d.AutoIncrement != 0 {
			t.Errorf("%s: AutoIncrement %d", orig.Name, d.AutoIncrement)
		}
		nt, err := newTable(orig.ID, orig.DB, d, collation.Default)
		if err != nil {
			t.Fatalf("%s: newTable: %v", orig.Name, err)
		}
		if diff := sameTable(orig, nt); diff != "" {
			t.Errorf("%s: newTable(Def) differs in its %s", orig.Name, diff)
		}
		if !reflect.DeepEqual(nt.Def(), d) {
			t.Errorf("%s: Def of newTable(Def) is not Def", orig.Name)
		}
		if diff := sameTable(orig, createTable(t, e, "copy", d)); diff != "" {
			t.Errorf("%s: CreateTable(Def) differs in its %s", orig.Name, diff)
		}
		d.Columns[0].Name = "changed"
		d.Indexes[0].Columns[0] = "changed"
		d.Indexes = d.Indexes[:1]
		if orig.Columns[0].Name == "changed" || orig.Def().Indexes[0].Columns[0] == "changed" || len(orig.Def().Indexes) != len(orig.Indexes) {
			t.Errorf("%s: changing Def changed the table", orig.Name)
		}
	}
	if !log.Primary.Hidden || log.Def().Indexes[0].Primary {
		t.Error("the hidden primary key of log is in its Def")
	}
}

// TestIndexFold: an exact name wins, else the name matches ignoring case;
// the hidden primary key is not found.
func TestIndexFold(t *testing.T) {
	tb := createTable(t, openTestEngine(t, "", DurabilityNone), "d", &TableDef{Name: "t",
		Columns: []types.Column{{Name: "a", Type: intType()}, {Name: "b", Type: intType()}},
		Indexes: []IndexDef{{Name: "ix", Columns: []string{"a"}}, {Name: "IX", Columns: []string{"b"}}}})
	for name, want := range map[string]string{"ix": "ix", "IX": "IX", "Ix": "ix", "iX": "ix", "PRIMARY": "", "other": ""} {
		got := tb.IndexFold(name)
		switch {
		case want == "" && got != nil:
			t.Errorf("IndexFold(%q) = %s, want none", name, got.Name)
		case want != "" && (got == nil || got.Name != want):
			t.Errorf("IndexFold(%q) = %v, want %s", name, got, want)
		}
	}
}
