package engine

import (
	"context"
	"io"
	"testing"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The engine-test fixture: openTestEngine opens the engine, createTable
// (or setupPeople, for the people table most tests share) makes its
// table. Tests that need other options than the defaults below say so
// with engineOptions.

// An engineOption changes the Options openTestEngine opens with.
type engineOption func(*Options)

// withRowCache sets RowCacheSize (0: the default size, -1: no row cache).
func withRowCache(size int64) engineOption { return func(o *Options) { o.RowCacheSize = size } }

// withBlockCache sets CacheSize, Pebble's block cache (0: the default size).
func withBlockCache(size int64) engineOption { return func(o *Options) { o.CacheSize = size } }

// withMemTable sets MemTableSize (0: the default).
func withMemTable(size int64) engineOption { return func(o *Options) { o.MemTableSize = size } }

// withPipelineSync sets PipelineSync.
func withPipelineSync(on bool) engineOption { return func(o *Options) { o.PipelineSync = on } }

// openTestEngine opens an engine with durability d and a 64 MiB block
// cache, changed by opts, in a fresh temporary directory (or dir, when
// given), and closes it when the test ends unless the test closes it.
func openTestEngine(tb testing.TB, dir string, d Durability, opts ...engineOption) *Engine {
	tb.Helper()
	if dir == "" {
		dir = tb.TempDir()
	}
	o := Options{Dir: dir, Durability: d, CacheSize: 64 << 20}
	for _, opt := range opts {
		opt(&o)
	}
	e, err := Open(o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { e.Close() })
	return e
}

// createTable creates a table in database db, creating db first if it is
// missing, and returns the table.
func createTable(tb testing.TB, e *Engine, db string, def *TableDef) *Table {
	tb.Helper()
	var t *Table
	update(tb, e, func(tx *Job) error {
		if _, err := tx.Catalog().Database(db); err != nil {
			if err := tx.CreateDatabase(db); err != nil {
				return err
			}
		}
		var err error
		t, err = tx.CreateTable(db, def)
		return err
	})
	return t
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
	return createTable(tb, e, "app", peopleDef())
}

// eachRow calls fn with each row of it (as NewIterator returned it, with
// err) and closes it; an error fails the test.
func eachRow(tb testing.TB, it *Iterator, err error, fn func(Row)) {
	tb.Helper()
	if err != nil {
		tb.Fatal(err)
	}
	defer it.Close()
	for {
		r, err := it.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			tb.Fatal(err)
		}
		fn(r)
	}
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
