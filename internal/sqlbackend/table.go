package sqlbackend

import (
	"bytes"
	"io"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// table is one catalog version of an engine table as go-mysql-server sees
// it. It is immutable (a DDL statement makes go-mysql-server fetch a new
// table) and safe for concurrent use; what it does for a statement
// depends on the statement's session (its transaction).
type table struct {
	db *database
	t  *engine.Table
	ts *tableSchema
	// columnAdded is set once AddColumn changed the table: see Partitions.
	// (A table serves one statement, on its goroutine.)
	columnAdded bool
	// fkReads is set on the copy a foreign key editor reads through: its
	// reads see the statement's own writes (see fk.go).
	fkReads bool
	// exactCompare is set on the target of an UPDATE: its Schema compares
	// text by bytes (see exactupdate.go).
	exactCompare bool
	// oddSch is set on the copy an UPDATE writes through: the schema
	// with oddType for its dates (oddrule.go).
	oddSch sql.Schema
	// proj is set on the copy WithProjections returns (project.go): the
	// columns its rows hold, in order.
	proj *projection
}

var (
	_ sql.Table                    = (*table)(nil)
	_ sql.Databaseable             = (*table)(nil)
	_ sql.CommentedTable           = (*table)(nil)
	_ sql.PrimaryKeyTable          = (*table)(nil)
	_ sql.IndexAddressableTable    = (*table)(nil)
	_ sql.InsertableTable          = (*table)(nil)
	_ sql.UpdatableTable           = (*table)(nil)
	_ sql.DeletableTable           = (*table)(nil)
	_ sql.ReplaceableTable         = (*table)(nil)
	_ sql.TruncateableTable        = (*table)(nil)
	_ sql.AutoIncrementTable       = (*table)(nil)
	_ sql.StatisticsTable          = (*table)(nil)
	_ sql.AlterableTable           = (*table)(nil)
	_ sql.IndexAlterableTable      = (*table)(nil)
	_ sql.PrimaryKeyAlterableTable = (*table)(nil)
	_ sql.TemporaryTable           = (*table)(nil)
	_ sql.ProjectedTable           = (*table)(nil)
	_ sql.IndexedTable             = (*indexedTable)(nil)
	_ sql.ProjectedTable           = (*indexedTable)(nil)
)

func newTable(d *database, t *engine.Table) *table {
	return &table{db: d, t: t, ts: d.p.schemaOf(t)}
}

// Name is the table name (a temporary table's own, not its hidden one).
func (t *table) Name() string { return sqlName(t.t) }

// String is the table name.
func (t *table) String() string { return sqlName(t.t) }

// Database is the name of the table's database.
func (t *table) Database() string { return t.db.name }

// Schema is the table's columns (those of its projection, if any).
func (t *table) Schema() sql.Schema {
	if t.proj != nil {
		if t.oddSch == nil && !t.exactCompare {
			return t.proj.sch
		}
		return t.proj.of(t.fullSchema())
	}
	return t.fullSchema()
}

// fullSchema is the schema of every column.
func (t *table) fullSchema() sql.Schema {
	switch {
	case t.oddSch != nil && t.exactCompare:
		return exactTextSchema(t.oddSch)
	case t.oddSch != nil:
		return t.oddSch
	case t.exactCompare:
		return t.ts.exactSchema()
	}
	return t.ts.sch.Schema
}

// PrimaryKeySchema is the table's columns with the primary key's.
func (t *table) PrimaryKeySchema() sql.PrimaryKeySchema { return t.ts.sch }

// Collation is the table's default collation.
func (t *table) Collation() sql.CollationID { return t.ts.coll }

// Comment is the table's COMMENT.
func (t *table) Comment() string { return t.t.Comment }

// IsTemporary reports whether the table is one of the session's
// temporary tables (temp.go). (go-mysql-server asks every table written in
// a READ ONLY transaction.)
func (t *table) IsTemporary() bool { return isTemporary(t.t) }

// partition is the single partition of a table read: the whole table, or
// the ranges of one index lookup.
type partition struct {
	lookup *sql.IndexLookup
}

// Key identifies the partition.
func (partition) Key() []byte { return []byte("all") }

// Partitions returns one partition: the whole table in primary key order.
func (t *table) Partitions(*sql.Context) (sql.PartitionIter, error) {
	if t.columnAdded {
		// go-mysql-server follows ADD COLUMN with a pass that writes each
		// row's default through this table. The engine's ALTER wrote the
		// defaults already, and this table's definition is the one before
		// the column (its rows stay readable a while, engine/drops.go):
		// that pass has nothing to do.
		return sql.PartitionsToPartitionIter(), nil
	}
	return sql.PartitionsToPartitionIter(partition{}), nil
}

// PartitionRows returns the rows of a partition.
func (t *table) PartitionRows(ctx *sql.Context, p sql.Partition) (sql.RowIter, error) {
	it := newWalk(ctx, t, t.t.Primary) // (a lookup join's inner table gets one per outer row)
	part, _ := p.(partition)
	if part.lookup == nil {
		it.ranges = append(it.ranges, scanRange{})
		return &walkHandle{it}, nil
	}
	lk := part.lookup
	// The engine index of that name in this version of the table (a
	// lookup may name an index of an older table).
	idx := t.t.Index(lk.Index.ID())
	if idx == nil {
		return nil, sql.ErrIndexNotFound.New(lk.Index.ID())
	}
	it.idx, it.reverse = idx, lk.IsReverse
	if lk.IsEmptyRange {
		return &walkHandle{it}, nil
	}
	mrc, ok := lk.Ranges.(sql.MySQLRangeCollection)
	if !ok {
		return nil, errUnsupported("range collection %T", lk.Ranges)
	}
	for _, mr := range mrc {
		sr, err := toScanRange(ctx, t.t, idx, mr)
		if err != nil {
			return nil, err
		}
		it.ranges = append(it.ranges, sr)
	}
	if idx.Prefix != nil && len(it.ranges) > 1 {
		it.ranges = mergePrefixRanges(t.t, idx, it.ranges, it.reverse)
	}
	it.keyOnly = t.proj.coveredBy(idx, it.ranges)
	return &walkHandle{it}, nil
}

// walkHandle hands a walk (newWalk) to one reader: after its Close the
// walk may serve the next reader, so a second Close, or a Next, of this
// reader's handle must not reach it. Not safe for concurrent use.
type walkHandle struct {
	it *rangeIter
}

// Next returns the walk's next row; io.EOF once closed.
func (h *walkHandle) Next(ctx *sql.Context) (sql.Row, error) {
	if h.it == nil {
		return nil, io.EOF
	}
	return h.it.Next(ctx)
}

// Close closes the walk once.
func (h *walkHandle) Close(ctx *sql.Context) error {
	if h.it == nil {
		return nil
	}
	it := h.it
	h.it = nil
	return it.Close(ctx)
}

// mergePrefixRanges merges the ranges of a lookup on a prefix index whose
// store keys overlap: the engine widens each to whole prefixes (see
// engine.Table.RangeKeys), and two ranges of one prefix ('abcdefg' and
// 'abcdexx' on a 5-character prefix) would return its rows twice. A
// merged range checks each row against the column ranges of all the
// ranges it covers.
func mergePrefixRanges(t *engine.Table, idx *engine.Index, ranges []scanRange, reverse bool) []scanRange {
	type keyed struct {
		b     engine.RangeBounds
		anyOf [][]colRange
	}
	var ks []keyed
	for _, sr := range ranges {
		if !sr.empty {
			ks = append(ks, keyed{t.RangeKeys(idx, sr.rg), sr.anyOf})
		}
	}
	slices.SortFunc(ks, func(a, b keyed) int { return bytes.Compare(a.b.Lower, b.b.Lower) })
	var out []scanRange
	for i := 0; i < len(ks); {
		cur := ks[i].b
		anyOf := ks[i].anyOf
		for i++; i < len(ks) && bytes.Compare(ks[i].b.Lower, cur.Upper) <= 0; i++ {
			if bytes.Compare(ks[i].b.Upper, cur.Upper) > 0 {
				cur.Upper = ks[i].b.Upper
			}
			anyOf = append(anyOf, ks[i].anyOf...)
		}
		out = append(out, scanRange{rg: engine.Range{Keys: &cur}, anyOf: anyOf})
	}
	if reverse {
		slices.Reverse(out)
	}
	return out
}

// GetIndexes returns the table's visible indexes, primary key first, as
// the catalog has them now (CREATE TABLE adds its indexes one by one to
// the table it fetched once).
func (t *table) GetIndexes(*sql.Context) ([]sql.Index, error) {
	cur, ts := t.t, t.ts
	if n := t.db.engineTable(t.t.Name); n != nil && n.ID == t.t.ID && n != t.t {
		cur, ts = n, t.db.p.schemaOf(n)
	}
	out := make([]sql.Index, 0, len(cur.Indexes))
	for _, idx := range cur.Indexes {
		if !IsHelperIndex(idx) {
			out = append(out, newIndex(t.db.name, cur, idx, ts))
		}
	}
	return out, nil
}

// IndexedAccess returns the table restricted to an index lookup.
func (t *table) IndexedAccess(ctx *sql.Context, lookup sql.IndexLookup) sql.IndexedTable {
	return &indexedTable{table: t, lookup: lookup}
}

// PreciseMatch is true: a lookup returns exactly the rows of its ranges,
// so the planner may drop the filters it came from.
func (t *table) PreciseMatch() bool { return true }

// indexedTable is a table read through one index lookup.
type indexedTable struct {
	*table
	lookup sql.IndexLookup
}

// LookupPartitions returns the partition of the lookup.
func (t *indexedTable) LookupPartitions(ctx *sql.Context, lookup sql.IndexLookup) (sql.PartitionIter, error) {
	return sql.PartitionsToPartitionIter(partition{lookup: &lookup}), nil
}

// Partitions returns the partition of the table's lookup.
func (t *indexedTable) Partitions(ctx *sql.Context) (sql.PartitionIter, error) {
	return t.LookupPartitions(ctx, t.lookup)
}

// RowCount returns the number of rows, counted and cached for a second
// (an estimate beyond 100,000 rows); never exact, since the session's
// uncommitted writes are not counted.
func (t *table) RowCount(ctx *sql.Context) (uint64, bool, error) {
	n, _, err := t.db.p.rowCount(t.t)
	return n, false, err
}

// DataLength estimates the table's size in bytes.
func (t *table) DataLength(ctx *sql.Context) (uint64, error) {
	n, _, err := t.db.p.rowCount(t.t)
	return n * uint64(16+8*len(t.t.Columns)), err
}

// PeekNextAutoIncrementValue returns the next AUTO_INCREMENT value.
func (t *table) PeekNextAutoIncrementValue(*sql.Context) (uint64, error) {
	return t.t.AutoIncrementNext(), nil
}

// GetNextAutoIncrementValue returns the value go-mysql-server puts in the
// AUTO_INCREMENT column of a row to insert: 0 when none was given, which
// makes the engine take the next id as it inserts the row (the editor then
// writes the id into the row, where LAST_INSERT_ID() reads it). The engine
// moves its counter past explicit values itself.
//
// Under NO_AUTO_VALUE_ON_ZERO an explicit 0 reaches the editor as 0 too,
// without this call: the session counts the calls, so that the editor
// tells the two apart (see editor.Insert).
func (t *table) GetNextAutoIncrementValue(ctx *sql.Context, insertVal interface{}) (uint64, error) {
	if s := SessionOf(ctx); s != nil {
		s.autoIncAsked++
	}
	return 0, nil
}

// AutoIncrementSetter returns the setter ALTER TABLE ... AUTO_INCREMENT=n
// and CREATE TABLE ... AUTO_INCREMENT=n use.
func (t *table) AutoIncrementSetter(ctx *sql.Context) sql.AutoIncrementSetter {
	return &autoIncSetter{t: t}
}

type autoIncSetter struct{ t *table }

// SetAutoIncrementValue makes v the next AUTO_INCREMENT value unless rows
// already hold higher ones (the table is rebuilt to move the counter).
func (s *autoIncSetter) SetAutoIncrementValue(ctx *sql.Context, v uint64) error {
	if v <= s.t.t.AutoIncrementNext() {
		return nil // InnoDB never moves the counter below the rows' maximum
	}
	return s.t.rebuild(ctx, func(def *engine.TableDef) error {
		def.AutoIncrement = v
		return nil
	})
}

// AcquireAutoIncrementLock takes no lock: the engine hands out ids atomically.
func (s *autoIncSetter) AcquireAutoIncrementLock(*sql.Context) (func(), error) {
	return func() {}, nil
}

// Close does nothing.
func (s *autoIncSetter) Close(*sql.Context) error { return nil }

// Inserter returns an editor inserting rows in the session's transaction.
func (t *table) Inserter(ctx *sql.Context) sql.RowInserter { return t.newEditor(ctx) }

// Updater returns an editor updating rows in the session's transaction.
func (t *table) Updater(ctx *sql.Context) sql.RowUpdater { return t.newEditor(ctx) }

// Deleter returns an editor deleting rows in the session's transaction.
func (t *table) Deleter(ctx *sql.Context) sql.RowDeleter { return t.newEditor(ctx) }

// Replacer returns an editor for REPLACE in the session's transaction.
func (t *table) Replacer(ctx *sql.Context) sql.RowReplacer { return t.newEditor(ctx) }

// Truncate deletes every row. The TRUNCATE TABLE statement is DDL (it commits, resets AUTO_INCREMENT and
// cannot be rolled back) and reports 0 rows; a DELETE without WHERE that
// go-mysql-server turns into a truncation deletes the rows in the
// session's transaction and returns how many there were.
func (t *table) Truncate(ctx *sql.Context) (int, error) {
	q := strings.ToUpper(strings.TrimSpace(ctx.Query()))
	if !strings.HasPrefix(q, "TRUNCATE") {
		return t.deleteAll(ctx)
	}
	if err := SessionOf(ctx).commitPending(ctx); err != nil {
		return 0, err
	}
	// The statement reports 0 rows, as MariaDB and MySQL do.
	err := t.db.p.ddl(ctx, func(tx *engine.Job) error { return tx.TruncateTable(t.db.name, t.t.Name) })
	return 0, err
}

// deleteAll deletes every row through an editor.
func (t *table) deleteAll(ctx *sql.Context) (int, error) {
	ed := t.newEditor(ctx)
	ed.StatementBegin(ctx)
	whole := *t
	whole.proj = nil // the editor deletes whole rows
	it, err := whole.PartitionRows(ctx, partition{})
	if err != nil {
		return 0, err
	}
	var rows []sql.Row
	for {
		r, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			_ = it.Close(ctx)
			return 0, err
		}
		rows = append(rows, r)
	}
	_ = it.Close(ctx)
	for _, r := range rows {
		if err := ed.Delete(ctx, r); err != nil {
			_ = ed.DiscardChanges(ctx, err)
			_ = ed.Close(ctx)
			return 0, err
		}
	}
	if err := ed.StatementComplete(ctx); err != nil {
		return 0, err
	}
	return len(rows), ed.Close(ctx)
}
