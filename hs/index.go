package hs

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Op is a find operation, or a filter comparison.
type Op string

// The find operations (EQ, GT, GE, LT, LE) and filter comparisons (all of
// them, NE included).
const (
	// EQ finds the rows whose key equals the given key, or starts with it
	// when fewer key values than key parts are given.
	EQ Op = "="
	// GT scans in ascending key order from the first key after the given
	// one.
	GT Op = ">"
	// GE scans in ascending key order from the given key.
	GE Op = ">="
	// LT scans in descending key order from the last key before the given
	// one.
	LT Op = "<"
	// LE scans in descending key order from the given key.
	LE Op = "<="
	// NE is "not equal", for filters only.
	NE Op = "!="
)

// FilterType says what a filter does with a row that fails it.
type FilterType byte

const (
	// Skip leaves failing rows out of the result and goes on (F).
	Skip FilterType = 'F'
	// Stop ends the scan at the first failing row (W, "while").
	Stop FilterType = 'W'
)

// Query selects the rows of a find, and of an update, delete, increment or
// decrement.
type Query struct {
	// Op is the find operation (EQ when empty).
	Op Op
	// Key holds the key values, one per key part of the index from the
	// first; fewer than the index has give a prefix. Values may be nil or
	// Null (NULL), string, []byte, Value, bool, any integer or float type,
	// time.Time, or a pointer to string, int, int64, float64 or time.Time
	// (nil for NULL).
	Key []any
	// Limit is the most rows to return or change; 0 means 1, as in the
	// protocol.
	Limit int
	// Offset skips that many matching rows first.
	Offset int
	// In, when set, looks the key up once per value of In.Values, with
	// each replacing key part In.KeyPart in turn. The first matching row
	// of each lookup is taken, in the order of the values; Limit and
	// Offset count across all of them.
	In *In
	// Filters keep or stop at rows by comparing filter columns (named
	// when the index was opened) with values.
	Filters []Filter
}

// In is the IN clause of a Query.
type In struct {
	// KeyPart is the position (from 0) of the key part the values replace.
	KeyPart int
	// Values are looked up in this order (duplicates repeat).
	Values []any
}

// Filter compares a filter column of each row with a value.
type Filter struct {
	// Type is Skip (the default) or Stop.
	Type FilterType
	// Column is one of the index's filter columns.
	Column string
	// Op is the comparison: EQ, NE, LT, LE, GT or GE. Comparisons follow
	// the column's type and collation; a NULL column is lower than any
	// value, and equal to a NULL value.
	Op Op
	// Value is compared with the column (any type Query.Key accepts).
	Value any
}

// Eq returns a Query for the rows whose key equals key (limit 1).
func Eq(key ...any) Query { return Query{Op: EQ, Key: key} }

// Index is an index of a table opened with a column list: the handle every
// request goes through. The client opens it on each pooled connection the
// first time a request on that connection needs it, and remembers that.
//
// An Index is safe for concurrent use. Client.Index returns the same
// *Index for the same arguments.
type Index struct {
	c            *Client
	id           int
	db, table    string
	name         string
	cols, fcols  []string
	err          error  // invalid names: every request fails with it
	openLine     []byte // "P\t<id>\t...\n"
	filterLookup map[string]int
}

// Index returns the index name of table db.table (name "" or "PRIMARY" is
// the primary key; a number selects an index by position) with the
// columns that finds return and that inserts and updates set, in that
// order, and optionally the filter columns that Query.Filters may compare.
// An empty db means Options.Database.
//
// It does no I/O: the index is opened on a connection when first used
// there, and an error in the names (unknown table: ErrOpenTable, unknown
// column: ErrFld...) is returned by the first request. Asking again for the
// same index and columns returns the same *Index.
func (c *Client) Index(db, table, name string, columns []string, filterColumns ...string) *Index {
	if db == "" {
		db = c.opts.Database
	}
	if name == "" {
		name = "PRIMARY"
	}
	key := db + "\x00" + table + "\x00" + name + "\x00" + strings.Join(columns, ",") + "\x00" + strings.Join(filterColumns, ",")
	c.mu.Lock()
	defer c.mu.Unlock()
	if ix := c.indexes[key]; ix != nil {
		return ix
	}
	c.nextID++
	ix := &Index{
		c: c, id: c.nextID, db: db, table: table, name: name,
		cols:  append([]string(nil), columns...),
		fcols: append([]string(nil), filterColumns...),
	}
	switch {
	case !validName(db, false) || !validName(table, false) || !validName(name, false):
		ix.err = fmt.Errorf("%w: database, table or index name %q.%q.%q", ErrValue, db, table, name)
	case db == "" || table == "":
		ix.err = fmt.Errorf("%w: empty database or table name", ErrValue)
	}
	for _, col := range append(append([]string(nil), columns...), filterColumns...) {
		if !validName(col, true) && ix.err == nil {
			ix.err = fmt.Errorf("%w: column name %q", ErrValue, col)
		}
	}
	b := append([]byte("P\t"), strconv.Itoa(ix.id)...)
	for _, s := range []string{db, table, name, strings.Join(columns, ",")} {
		b = append(append(b, '\t'), s...)
	}
	if len(filterColumns) > 0 {
		b = append(append(b, '\t'), strings.Join(filterColumns, ",")...)
		ix.filterLookup = make(map[string]int, len(filterColumns))
		for i := len(filterColumns) - 1; i >= 0; i-- {
			ix.filterLookup[filterColumns[i]] = i
		}
	}
	ix.openLine = append(b, '\n')
	if c.indexes == nil {
		c.indexes = map[string]*Index{}
	}
	c.indexes[key] = ix
	return ix
}

// DB returns the index's database.
func (ix *Index) DB() string { return ix.db }

// Table returns the index's table.
func (ix *Index) Table() string { return ix.table }

// Name returns the index's name ("PRIMARY" for the primary key).
func (ix *Index) Name() string { return ix.name }

// Columns returns the columns the index was opened with (do not modify).
func (ix *Index) Columns() []string { return ix.cols }

// FilterColumns returns the filter columns the index was opened with (do
// not modify).
func (ix *Index) FilterColumns() []string { return ix.fcols }

// ID returns the index id the client uses on every connection.
func (ix *Index) ID() int { return ix.id }

// String returns db.table.index(columns).
func (ix *Index) String() string {
	s := ix.db + "." + ix.table + "." + ix.name + "(" + strings.Join(ix.cols, ",") + ")"
	if len(ix.fcols) > 0 {
		s += " filters(" + strings.Join(ix.fcols, ",") + ")"
	}
	return s
}

// Find returns the rows q selects, with the index's columns. It goes to
// the read port (or the write port when the client has no read address).
func (ix *Index) Find(ctx context.Context, q Query) (*Result, error) {
	p := ix.c.getPipeline()
	fc := p.Find(ix, q)
	ix.c.execOne(ctx, p)
	return fc.Result()
}

// Get returns the first row whose key equals key, or ErrNotFound.
func (ix *Index) Get(ctx context.Context, key ...any) (Row, error) {
	p := ix.c.getPipeline()
	fc := p.Find(ix, Query{Op: EQ, Key: key, Limit: 1})
	ix.c.execOne(ctx, p)
	return fc.Row()
}

// Insert inserts a row: values are given to the index's columns in order
// (missing ones get the empty string, extra ones are ignored; columns not
// named get their default). It returns the AUTO_INCREMENT value the server
// generated, or 0 when it generated none (the table has no AUTO_INCREMENT
// column, or the row gave the column a value). A unique key clash is
// ErrDuplicateKey.
func (ix *Index) Insert(ctx context.Context, values ...any) (uint64, error) {
	p := ix.c.getPipeline()
	ic := p.Insert(ix, values...)
	ix.c.execOne(ctx, p)
	return ic.ID()
}

// Update sets the index's columns of the rows q selects to values (in
// column order; missing values are the empty string, Null sets NULL) and
// returns the number of rows changed. Rows changed before an error (such
// as ErrDuplicateKey) stay changed.
func (ix *Index) Update(ctx context.Context, q Query, values ...any) (int, error) {
	return ix.modify(ctx, q, 'U', values)
}

// UpdateReturning is Update returning the selected rows as they were
// before the change.
func (ix *Index) UpdateReturning(ctx context.Context, q Query, values ...any) (*Result, error) {
	return ix.modifyReturning(ctx, q, 'U', values)
}

// Delete deletes the rows q selects and returns how many it deleted.
func (ix *Index) Delete(ctx context.Context, q Query) (int, error) {
	return ix.modify(ctx, q, 'D', nil)
}

// DeleteReturning is Delete returning the deleted rows.
func (ix *Index) DeleteReturning(ctx context.Context, q Query) (*Result, error) {
	return ix.modifyReturning(ctx, q, 'D', nil)
}

// Increment adds amounts (one per index column, in order; integers) to
// the index's columns of the rows q selects and returns the number of rows
// changed. A NULL column, or a NULL amount, is left alone.
func (ix *Index) Increment(ctx context.Context, q Query, amounts ...any) (int, error) {
	return ix.modify(ctx, q, '+', amounts)
}

// IncrementReturning is Increment returning the rows as they were before.
func (ix *Index) IncrementReturning(ctx context.Context, q Query, amounts ...any) (*Result, error) {
	return ix.modifyReturning(ctx, q, '+', amounts)
}

// Decrement subtracts amounts from the index's columns of the rows q
// selects and returns the number of rows changed. The server leaves a row
// alone (and does not count it) when a column would change sign, from
// positive to negative or the reverse; reaching 0 is allowed.
func (ix *Index) Decrement(ctx context.Context, q Query, amounts ...any) (int, error) {
	return ix.modify(ctx, q, '-', amounts)
}

// DecrementReturning is Decrement returning the rows as they were before.
func (ix *Index) DecrementReturning(ctx context.Context, q Query, amounts ...any) (*Result, error) {
	return ix.modifyReturning(ctx, q, '-', amounts)
}

func (ix *Index) modify(ctx context.Context, q Query, op byte, values []any) (int, error) {
	p := ix.c.getPipeline()
	mc := p.addModify(ix, &q, op, values)
	ix.c.execOne(ctx, p)
	return mc.Count()
}

func (ix *Index) modifyReturning(ctx context.Context, q Query, op byte, values []any) (*Result, error) {
	p := ix.c.getPipeline()
	fc := p.addModifyReturning(ix, &q, op, values)
	ix.c.execOne(ctx, p)
	return fc.Result()
}
