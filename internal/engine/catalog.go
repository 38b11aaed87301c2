package engine

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Catalog is an immutable snapshot of every database, table and index.
// DDL builds a new Catalog and publishes it when its group commits, so a
// *Catalog, and every *Database, *Table and *Index reached from it, may be
// read from any goroutine without locks. Version grows with every DDL.
type Catalog struct {
	Version     uint64
	dbs         map[string]*Database
	nextTableID uint32
}

// Database is a named set of tables.
type Database struct {
	Name string
	// Collation is the database's default collation (CREATE DATABASE ...
	// CHARACTER SET / COLLATE): what a table that names none gets. Nil
	// means the engine's default (Options.DefaultCollation).
	Collation *collation.Collation
	tables    map[string]*Table
}

// Table is a table definition with its indexes.
type Table struct {
	ID      uint32
	DB      string
	Name    string
	Columns []types.Column
	// Primary is the primary index. Hidden when the table declares no
	// primary key: rows are then keyed by a generated row id, as InnoDB does.
	Primary *Index
	// Indexes are the visible indexes in MySQL's key order: the primary key
	// first, then unique indexes, then the others, each group in the order
	// they were created. HandlerSocket's index numbers count in this order.
	Indexes []*Index
	// AutoInc is the ordinal of the AUTO_INCREMENT column, or -1.
	AutoInc int
	// Collation is the table's default collation.
	Collation *collation.Collation
	Comment   string
	// Created is when the table was created or last rebuilt by
	// AlterTable (information_schema.TABLES' CREATE_TIME); zero for a
	// table of a catalog written before tables kept it.
	Created time.Time

	nextIndexID uint32
	classes     []types.Class
	rt          *tableRuntime
}

// Index is one index of a table.
type Index struct {
	ID      uint32
	Name    string
	Primary bool
	Unique  bool
	Hidden  bool
	// Columns are ordinals into Table.Columns.
	Columns []int
	// Prefix is nil when whole values are indexed; else one length per
	// column, 0 for a whole value: a prefix index keys each value by its
	// first Prefix[i] characters (bytes for binary kinds), so a unique
	// prefix index admits one row per prefix (see keyPart).
	Prefix []uint16

	prefix []byte
}

// tableRuntime holds a table's counters; it is shared by every catalog
// version of the table. They are atomics because SQL transactions take
// AUTO_INCREMENT ids at statement time, outside the writer.
type tableRuntime struct {
	autoInc atomic.Uint64 // highest AUTO_INCREMENT value used
	rowID   atomic.Uint64 // highest hidden row id used

	// rows is the committed row count, valid once rowsKnown is set (a
	// first RowCount counts the table; commits then add their inserts
	// and subtract their deletes).
	rows      atomic.Int64
	rowsKnown atomic.Bool
	countMu   sync.Mutex // one first count at a time

	// updated is when (Unix nanoseconds) a commit last inserted, changed
	// or deleted one of the table's rows since the engine opened, or 0
	// (information_schema.TABLES' UPDATE_TIME, kept in memory as InnoDB
	// keeps it).
	updated atomic.Int64

	// unlocked is the number (jobsStarted) of the last job that changed
	// one of the table's rows without holding its row lock (a
	// HandlerSocket write, the replica, a load), stored before that
	// job looked at the lock table: a transaction that takes a row lock
	// waits until that job's group has ended before it reads the row
	// (Locker.Lock), so it never reads a row such a job changed under a
	// lock it did not see. Written by the writer goroutine only.
	unlocked atomic.Uint64
}

// nextAutoInc takes the next AUTO_INCREMENT id, failing past max.
func (rt *tableRuntime) nextAutoInc(max uint64) (uint64, bool) {
	for {
		cur := rt.autoInc.Load()
		if cur >= max {
			return 0, false
		}
		if rt.autoInc.CompareAndSwap(cur, cur+1) {
			return cur + 1, true
		}
	}
}

// seenAutoInc moves the counter past an explicitly given value.
func (rt *tableRuntime) seenAutoInc(v uint64) {
	for {
		cur := rt.autoInc.Load()
		if v <= cur || rt.autoInc.CompareAndSwap(cur, v) {
			return
		}
	}
}

// TableDef describes a table to create.
type TableDef struct {
	Name    string
	Columns []types.Column
	Indexes []IndexDef
	// Collation is the table default; nil means the engine's default.
	Collation *collation.Collation
	Comment   string
	// AutoIncrement is the first AUTO_INCREMENT value to hand out (0 or 1: 1).
	AutoIncrement uint64
}

// IndexDef describes an index to create.
type IndexDef struct {
	Name    string // "PRIMARY" for the primary key
	Primary bool
	Unique  bool
	Columns []string
	// Prefix gives a prefix length per column (0: the whole value), in
	// characters for CHAR, VARCHAR and TEXT, in bytes for BINARY,
	// VARBINARY and BLOB; nil for none. A length that is the column's
	// whole CHAR/VARCHAR/BINARY/VARBINARY length is no prefix, as in MySQL.
	Prefix []uint16
}

// Database returns the named database (case sensitive).
func (c *Catalog) Database(name string) (*Database, error) {
	d := c.dbs[name]
	if d == nil {
		return nil, objectError(ErrNoDatabase, name, "", "")
	}
	return d, nil
}

// Databases returns the database names in sorted order.
func (c *Catalog) Databases() []string {
	names := make([]string, 0, len(c.dbs))
	for n := range c.dbs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// HiddenPrefix starts the names of hidden tables: the SQL front's
// temporary tables, which belong to one SQL session. Catalog.Table,
// Database.Table and Database.Tables do not see them (so neither
// HandlerSocket nor any listing does); Database.Hidden and
// Database.HiddenTables do, and DDL jobs work on them as on any table.
const HiddenPrefix = "#sql-"

// IsHidden reports whether a table name is a hidden table's.
func IsHidden(name string) bool { return strings.HasPrefix(name, HiddenPrefix) }

// Table returns a table by database and name (case sensitive), but not a
// hidden one. The errors wrap ErrNoDatabase or ErrNoTable.
func (c *Catalog) Table(db, name string) (*Table, error) {
	if IsHidden(name) {
		return nil, objectError(ErrNoTable, db, name, "")
	}
	return c.table(db, name)
}

// AnyTable is Table, hidden tables included.
func (c *Catalog) AnyTable(db, name string) (*Table, error) { return c.table(db, name) }

func (c *Catalog) table(db, name string) (*Table, error) {
	d := c.dbs[db]
	if d == nil {
		return nil, objectError(ErrNoDatabase, db, "", "")
	}
	t := d.tables[name]
	if t == nil {
		return nil, objectError(ErrNoTable, db, name, "")
	}
	return t, nil
}

// Table returns the named table of d, or nil (also for a hidden table).
func (d *Database) Table(name string) *Table {
	if IsHidden(name) {
		return nil
	}
	return d.tables[name]
}

// Hidden returns the named hidden table of d, or nil.
func (d *Database) Hidden(name string) *Table {
	if !IsHidden(name) {
		return nil
	}
	return d.tables[name]
}

// Tables returns d's tables sorted by name, but the hidden ones.
func (d *Database) Tables() []*Table { return d.list(false) }

// HiddenTables returns d's hidden tables sorted by name.
func (d *Database) HiddenTables() []*Table { return d.list(true) }

func (d *Database) list(hidden bool) []*Table {
	ts := make([]*Table, 0, len(d.tables))
	for _, t := range d.tables {
		if IsHidden(t.Name) == hidden {
			ts = append(ts, t)
		}
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	return ts
}

// Column returns the ordinal of the named column (case insensitive, as
// MySQL column names are), or -1.
func (t *Table) Column(name string) int {
	for i := range t.Columns {
		if strings.EqualFold(t.Columns[i].Name, name) {
			return i
		}
	}
	return -1
}

// Index returns the named visible index (case sensitive; "PRIMARY" is the
// primary key), or nil.
func (t *Table) Index(name string) *Index {
	for _, idx := range t.Indexes {
		if idx.Name == name {
			return idx
		}
	}
	return nil
}

// IndexFold returns the named visible index as MySQL matches index names:
// the one of exactly that name, else one equal to it ignoring case; nil
// when there is none.
func (t *Table) IndexFold(name string) *Index {
	if idx := t.Index(name); idx != nil {
		return idx
	}
	for _, idx := range t.Indexes {
		if strings.EqualFold(idx.Name, name) {
			return idx
		}
	}
	return nil
}

// Def returns a definition of t (its columns, primary key and visible
// secondary indexes, collation and comment) from which CreateTable or
// AlterTable build a table like t: the base for a changed definition. The
// AUTO_INCREMENT counter is not part of it (AutoIncrement is 0; see
// AutoIncrementNext). Its slices are its own: columns and indexes may be
// added, removed and changed in place, but what a column points to (its
// Default, its ENUM or SET Elems) is t's and must not be modified.
func (t *Table) Def() *TableDef {
	def := &TableDef{Name: t.Name, Collation: t.Collation, Comment: t.Comment}
	def.Columns = append(def.Columns, t.Columns...)
	for _, idx := range t.Indexes {
		d := IndexDef{Name: idx.Name, Primary: idx.Primary, Unique: idx.Unique && !idx.Primary}
		for _, c := range idx.Columns {
			d.Columns = append(d.Columns, t.Columns[c].Name)
		}
		d.Prefix = append([]uint16(nil), idx.Prefix...)
		def.Indexes = append(def.Indexes, d)
	}
	return def
}

// Updated is when a commit last inserted, changed or deleted one of t's
// rows since the engine opened, or the zero time.
func (t *Table) Updated() time.Time {
	if n := t.rt.updated.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}

// AutoIncrementNext is the value the next generated AUTO_INCREMENT id would
// get (what SHOW CREATE TABLE prints as AUTO_INCREMENT=).
func (t *Table) AutoIncrementNext() uint64 { return t.rt.autoInc.Load() + 1 }

// missingValue is the value of column i for a row stored before the column
// was added.
func (t *Table) missingValue(i int) types.Value {
	c := &t.Columns[i]
	switch {
	case c.Default != nil:
		return *c.Default
	case c.Nullable:
		return types.NullValue
	default:
		return types.ImplicitDefault(&c.Type)
	}
}

// Unique reports whether the index admits at most one row per key.
func (idx *Index) isUniqueLike() bool { return idx.Primary || idx.Unique }

// newTable builds a Table from a definition, validating it.
func newTable(id uint32, db string, def *TableDef, defColl *collation.Collation) (*Table, error) {
	if def.Name == "" || len(def.Columns) == 0 {
		return nil, &Error{Kind: ErrBadDefinition, DB: db, Table: def.Name, Detail: "table needs a name and columns"}
	}
	t := &Table{ID: id, DB: db, Name: def.Name, AutoInc: -1, Collation: def.Collation, Comment: def.Comment, Created: time.Now().Truncate(time.Second), rt: &tableRuntime{}}
	if t.Collation == nil {
		t.Collation = defColl
	}
	t.Columns = make([]types.Column, len(def.Columns))
	copy(t.Columns, def.Columns)
	for i := range t.Columns {
		c := &t.Columns[i]
		if c.Name == "" {
			return nil, tableError(ErrBadDefinition, t, fmt.Sprintf("column %d has no name", i))
		}
		if t.Column(c.Name) != i {
			return nil, columnError(ErrBadDefinition, t, c.Name, "duplicate column "+c.Name)
		}
		if c.Type.IsString() && c.Type.Collation == nil {
			c.Type.Collation = t.Collation
		}
		if c.AutoIncrement {
			if t.AutoInc >= 0 || !c.Type.IsInteger() {
				return nil, columnError(ErrBadAutoIncrement, t, c.Name, "AUTO_INCREMENT column "+c.Name)
			}
			t.AutoInc = i
		}
	}
	t.nextIndexID = 1
	var prim *Index
	var others []*Index
	for _, d := range def.Indexes {
		idx, err := t.newIndex(&d)
		if err != nil {
			return nil, err
		}
		if idx.Primary {
			if prim != nil {
				return nil, tableError(ErrBadDefinition, t, "two primary keys")
			}
			prim = idx
			for _, c := range idx.Columns {
				t.Columns[c].Nullable = false
			}
		} else {
			others = append(others, idx)
		}
	}
	if prim == nil {
		prim = &Index{ID: t.nextIndexID, Name: "PRIMARY", Primary: true, Unique: true, Hidden: true}
		t.nextIndexID++
	}
	t.Primary = prim
	t.setIndexes(others)
	if t.AutoInc >= 0 && !t.autoIncIndexed() {
		c := t.Columns[t.AutoInc].Name
		return nil, columnError(ErrBadAutoIncrement, t, c, "AUTO_INCREMENT column "+c+" is not the first column of an index")
	}
	if def.AutoIncrement > 1 {
		t.rt.autoInc.Store(def.AutoIncrement - 1)
	}
	t.finish()
	return t, nil
}

func (t *Table) newIndex(d *IndexDef) (*Index, error) {
	name := d.Name
	if d.Primary {
		name = "PRIMARY"
	}
	if name == "" && len(d.Columns) > 0 {
		name = d.Columns[0]
	}
	if len(d.Columns) == 0 {
		return nil, &Error{Kind: ErrBadDefinition, DB: t.DB, Table: t.Name, Index: name, Detail: "index " + name + " has no columns"}
	}
	idx := &Index{ID: t.nextIndexID, Name: name, Primary: d.Primary, Unique: d.Unique || d.Primary}
	t.nextIndexID++
	for _, cn := range d.Columns {
		c := t.Column(cn)
		if c < 0 {
			return nil, &Error{Kind: ErrBadDefinition, DB: t.DB, Table: t.Name, Index: name, Column: cn, Detail: "index " + name + " names unknown column " + cn}
		}
		idx.Columns = append(idx.Columns, c)
	}
	if err := t.setPrefix(idx, d.Prefix); err != nil {
		return nil, err
	}
	return idx, nil
}

// setPrefix sets idx's prefix lengths. Only string and binary columns
// take one; a length at least a CHAR, VARCHAR, BINARY or VARBINARY
// column's is the whole value. A prefix that does not apply is dropped,
// as MariaDB drops it when ALTER TABLE makes the column shorter or not a
// string (CREATE statements are checked before they get here).
func (t *Table) setPrefix(idx *Index, prefix []uint16) error {
	if len(prefix) == 0 {
		return nil
	}
	if len(prefix) != len(idx.Columns) {
		return &Error{Kind: ErrBadDefinition, DB: t.DB, Table: t.Name, Index: idx.Name, Detail: "index " + idx.Name + ": one prefix length per column"}
	}
	out := make([]uint16, len(prefix))
	anyPrefix := false
	for i, n := range prefix {
		c := &t.Columns[idx.Columns[i]]
		switch c.Type.Kind {
		case types.Char, types.VarChar, types.Binary, types.VarBinary:
			if uint32(n) >= c.Type.Length {
				continue
			}
		case types.Text, types.Blob, types.Geometry:
		default:
			continue
		}
		if n > 0 {
			out[i], anyPrefix = n, true
		}
	}
	if anyPrefix {
		idx.Prefix = out
	}
	return nil
}

// setIndexes orders the visible indexes as MySQL numbers keys.
func (t *Table) setIndexes(others []*Index) {
	group := func(idx *Index) int {
		switch {
		case idx.Primary:
			return 0
		case idx.Unique:
			for _, c := range idx.Columns {
				if t.Columns[c].Nullable {
					return 2
				}
			}
			return 1
		}
		return 3
	}
	sort.SliceStable(others, func(i, j int) bool { return group(others[i]) < group(others[j]) })
	t.Indexes = t.Indexes[:0]
	if !t.Primary.Hidden {
		t.Indexes = append(t.Indexes, t.Primary)
	}
	t.Indexes = append(t.Indexes, others...)
}

func (t *Table) autoIncIndexed() bool {
	for _, idx := range t.Indexes {
		if idx.Columns[0] == t.AutoInc {
			return true
		}
	}
	return false
}

// finish computes derived fields after any change of columns or indexes.
func (t *Table) finish() {
	t.classes = make([]types.Class, len(t.Columns))
	for i := range t.Columns {
		t.classes[i] = t.Columns[i].Type.Class()
	}
	// Index objects are shared between catalog versions of a table (and
	// read concurrently): set a prefix only on a new index.
	if t.Primary.prefix == nil {
		t.Primary.prefix = indexPrefix(t.ID, t.Primary.ID)
	}
	for _, idx := range t.Indexes {
		if idx.prefix == nil {
			idx.prefix = indexPrefix(t.ID, idx.ID)
		}
	}
}

// secondaries returns the visible non-primary indexes.
func (t *Table) secondaries() []*Index {
	if t.Primary.Hidden {
		return t.Indexes
	}
	return t.Indexes[1:]
}

// ---- persistence ----

type metaJSON struct {
	Version     uint64 `json:"version"`
	NextTableID uint32 `json:"next_table_id"`
}

type valueJSON struct {
	Null bool    `json:"null,omitempty"`
	I    int64   `json:"i,omitempty"`
	F    float64 `json:"f,omitempty"`
	B    []byte  `json:"b,omitempty"`
}

type columnJSON struct {
	Name       string     `json:"name"`
	Kind       types.Kind `json:"kind"`
	Unsigned   bool       `json:"unsigned,omitempty"`
	Length     uint32     `json:"length,omitempty"`
	Scale      uint8      `json:"scale,omitempty"`
	Elems      []string   `json:"elems,omitempty"`
	Collation  string     `json:"collation,omitempty"`
	Nullable   bool       `json:"nullable,omitempty"`
	Default    *valueJSON `json:"default,omitempty"`
	DefaultNow bool       `json:"default_now,omitempty"`
	AutoInc    bool       `json:"auto_increment,omitempty"`
}

type indexJSON struct {
	ID      uint32 `json:"id"`
	Name    string `json:"name"`
	Primary bool   `json:"primary,omitempty"`
	Unique  bool   `json:"unique,omitempty"`
	Hidden  bool   `json:"hidden,omitempty"`
	Columns []int  `json:"columns"`
	// Prefix is absent in catalogs written before prefix indexes (and
	// for indexes without one).
	Prefix []uint16 `json:"prefix,omitempty"`
}

type tableJSON struct {
	ID          uint32       `json:"id"`
	DB          string       `json:"db"`
	Name        string       `json:"name"`
	Columns     []columnJSON `json:"columns"`
	Indexes     []indexJSON  `json:"indexes"`
	Collation   string       `json:"collation"`
	Comment     string       `json:"comment,omitempty"`
	NextIndexID uint32       `json:"next_index_id"`
	// Created is in Unix seconds; absent in catalogs written before
	// tables kept it.
	Created int64 `json:"created,omitempty"`
}

type databaseJSON struct {
	Name string `json:"name"`
	// Collation is absent for the engine's default (and in catalogs
	// written before databases had one).
	Collation string `json:"collation,omitempty"`
}

func (d *Database) marshal() []byte {
	dj := databaseJSON{Name: d.Name}
	if d.Collation != nil {
		dj.Collation = d.Collation.Name
	}
	b, _ := json.Marshal(&dj)
	return b
}

// unmarshalDatabase reads a database record; an empty or unreadable
// value (none was ever written) is a database of the default collation.
func unmarshalDatabase(name string, b []byte) (*Database, error) {
	d := &Database{Name: name, tables: map[string]*Table{}}
	var dj databaseJSON
	if json.Unmarshal(b, &dj) == nil && dj.Collation != "" {
		var err error
		if d.Collation, err = lookupCollation(dj.Collation); err != nil {
			return nil, err
		}
	}
	return d, nil
}

func (t *Table) marshal() []byte {
	tj := tableJSON{ID: t.ID, DB: t.DB, Name: t.Name, Collation: t.Collation.Name, Comment: t.Comment, NextIndexID: t.nextIndexID}
	if !t.Created.IsZero() {
		tj.Created = t.Created.Unix()
	}
	for _, c := range t.Columns {
		cj := columnJSON{Name: c.Name, Kind: c.Type.Kind, Unsigned: c.Type.Unsigned, Length: c.Type.Length,
			Scale: c.Type.Scale, Elems: c.Type.Elems, Nullable: c.Nullable, DefaultNow: c.DefaultCurrentTimestamp, AutoInc: c.AutoIncrement}
		if c.Type.Collation != nil {
			cj.Collation = c.Type.Collation.Name
		}
		if c.Default != nil {
			cj.Default = &valueJSON{Null: c.Default.Null, I: c.Default.I, F: c.Default.F, B: c.Default.B}
		}
		tj.Columns = append(tj.Columns, cj)
	}
	add := func(idx *Index) {
		tj.Indexes = append(tj.Indexes, indexJSON{ID: idx.ID, Name: idx.Name, Primary: idx.Primary, Unique: idx.Unique, Hidden: idx.Hidden, Columns: idx.Columns, Prefix: idx.Prefix})
	}
	if t.Primary.Hidden {
		add(t.Primary)
	}
	for _, idx := range t.Indexes {
		add(idx)
	}
	b, err := json.Marshal(&tj)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

func unmarshalTable(b []byte) (*Table, error) {
	var tj tableJSON
	if err := json.Unmarshal(b, &tj); err != nil {
		return nil, &Error{Kind: ErrCorrupt, Detail: fmt.Sprintf("table definition: %v", err)}
	}
	t := &Table{ID: tj.ID, DB: tj.DB, Name: tj.Name, AutoInc: -1, Comment: tj.Comment, nextIndexID: tj.NextIndexID, rt: &tableRuntime{}}
	if tj.Created != 0 {
		t.Created = time.Unix(tj.Created, 0)
	}
	var err error
	if t.Collation, err = lookupCollation(tj.Collation); err != nil {
		return nil, err
	}
	for i, cj := range tj.Columns {
		c := types.Column{Name: cj.Name, Nullable: cj.Nullable, DefaultCurrentTimestamp: cj.DefaultNow, AutoIncrement: cj.AutoInc,
			Type: types.Type{Kind: cj.Kind, Unsigned: cj.Unsigned, Length: cj.Length, Scale: cj.Scale, Elems: cj.Elems}}
		if cj.Collation != "" {
			if c.Type.Collation, err = lookupCollation(cj.Collation); err != nil {
				return nil, err
			}
		}
		if cj.Default != nil {
			c.Default = &types.Value{Null: cj.Default.Null, I: cj.Default.I, F: cj.Default.F, B: cj.Default.B}
		}
		if c.AutoIncrement {
			t.AutoInc = i
		}
		t.Columns = append(t.Columns, c)
	}
	var others []*Index
	for _, ij := range tj.Indexes {
		idx := &Index{ID: ij.ID, Name: ij.Name, Primary: ij.Primary, Unique: ij.Unique, Hidden: ij.Hidden, Columns: ij.Columns}
		for _, c := range idx.Columns {
			if c < 0 || c >= len(t.Columns) {
				return nil, &Error{Kind: ErrCorrupt, DB: t.DB, Table: t.Name, Index: idx.Name, Detail: fmt.Sprintf("index %s column %d", idx.Name, c)}
			}
		}
		if len(ij.Prefix) > 0 {
			if len(ij.Prefix) != len(idx.Columns) {
				return nil, &Error{Kind: ErrCorrupt, DB: t.DB, Table: t.Name, Index: idx.Name, Detail: "index " + idx.Name + " prefix lengths"}
			}
			idx.Prefix = ij.Prefix
		}
		if idx.Primary {
			t.Primary = idx
		} else {
			others = append(others, idx)
		}
	}
	if t.Primary == nil {
		return nil, tableError(ErrCorrupt, t, "table "+t.Name+" has no primary index")
	}
	t.setIndexes(others)
	t.finish()
	return t, nil
}

func lookupCollation(name string) (*collation.Collation, error) {
	c := collation.Lookup(name)
	if c == nil {
		return nil, &Error{Kind: ErrCorrupt, Detail: fmt.Sprintf("unknown collation %q", name)}
	}
	return c, nil
}

// clone returns a copy of c whose maps may be changed.
func (c *Catalog) clone() *Catalog {
	n := &Catalog{Version: c.Version, nextTableID: c.nextTableID, dbs: make(map[string]*Database, len(c.dbs))}
	for k, v := range c.dbs {
		n.dbs[k] = v
	}
	return n
}

// withDatabase returns a copy of database name whose table map may be
// changed, installed in c (which must be a clone).
func (c *Catalog) mutableDatabase(name string) *Database {
	old := c.dbs[name]
	d := &Database{Name: name, Collation: old.Collation, tables: make(map[string]*Table, len(old.tables)+1)}
	for k, v := range old.tables {
		d.tables[k] = v
	}
	c.dbs[name] = d
	return d
}
