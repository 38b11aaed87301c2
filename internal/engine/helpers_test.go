package engine

import (
	"context"
	"testing"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/types"
)

// openTestEngine opens an engine in a fresh temporary directory (or dir,
// when given) and closes it when the test ends unless the test closes it.
func openTestEngine(tb testing.TB, dir string, d Durability) *Engine {
	tb.Helper()
	if dir == "" {
		dir = tb.TempDir()
	}
	e, err := Open(Options{Dir: dir, Durability: d, CacheSize: 64 << 20})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { e.Close() })
	return e
}

// update runs fn as a job and fails the test on error.
func update(tb testing.TB, e *Engine, fn func(tx *Job) error) {
	tb.Helper()
	if err := e.Update(context.Background(), fn); err != nil {
		tb.Fatal(err)
	}
}

func intType() types.Type { return types.Type{Kind: types.Int} }

func varcharType(n uint32, coll string) types.Type {
	c := collation.Lookup(coll)
	if c == nil {
		c = collation.Default
	}
	return types.Type{Kind: types.VarChar, Length: n, Collation: c}
}

func iv(i int64) types.Value    { return types.Value{I: i} }
func sv(s string) types.Value   { return types.Value{B: []byte(s)} }
func null() types.Value         { return types.NullValue }
func row(vs ...types.Value) Row { return Row(vs) }

// peopleDef is (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(32),
// email VARCHAR(64) NULL UNIQUE, age INT NULL, KEY name_age(name, age)).
func peopleDef() *TableDef {
	return &TableDef{
		Name: "people",
		Columns: []types.Column{
			{Name: "id", Type: intType(), AutoIncrement: true},
			{Name: "name", Type: varcharType(32, "utf8mb4_general_ci")},
			{Name: "email", Type: varcharType(64, "utf8mb4_bin"), Nullable: true},
			{Name: "age", Type: intType(), Nullable: true},
		},
		Indexes: []IndexDef{
			{Primary: true, Columns: []string{"id"}},
			{Name: "email", Unique: true, Columns: []string{"email"}},
			{Name: "name_age", Columns: []string{"name", "age"}},
		},
	}
}

// setupPeople creates database app with the people table and returns it.
func setupPeople(tb testing.TB, e *Engine) *Table {
	tb.Helper()
	var t *Table
	update(tb, e, func(tx *Job) error {
		if err := tx.CreateDatabase("app"); err != nil {
			return err
		}
		var err error
		t, err = tx.CreateTable("app", peopleDef())
		return err
	})
	return t
}

// findAll collects clones of every row a query returns.
func findAll(tb testing.TB, e *Engine, t *Table, q *Query) []Row {
	tb.Helper()
	var out []Row
	if err := e.Find(t, q, func(r Row) bool { out = append(out, r.Clone()); return true }); err != nil {
		tb.Fatal(err)
	}
	return out
}

// ids returns column 0 of each row as ints.
func ids(rows []Row) []int64 {
	out := make([]int64, len(rows))
	for i, r := range rows {
		out[i] = r[0].I
	}
	return out
}
