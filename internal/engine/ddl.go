package engine

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/cockroachdb/pebble/v2"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/types"
)

// DDL runs inside a job like any write: it changes a private copy of the
// catalog, writes the changed definitions into the group's batch, and the
// new catalog is published when the group commits. Open HandlerSocket
// handles hold *Table pointers of an older version and re-resolve lazily
// when Catalog().Version moves.

func (tx *Job) mutableCatalog() *Catalog {
	if !tx.catChanged {
		tx.cat = tx.cat.clone()
		tx.catChanged = true
	}
	tx.cat.Version++
	return tx.cat
}

func (tx *Job) writeMeta(c *Catalog) error {
	b, _ := json.Marshal(metaJSON{Version: c.Version, NextTableID: c.nextTableID})
	return tx.set(metaKey, b)
}

func (tx *Job) writeTable(t *Table) error {
	return tx.set(tableSysKey(sysTable, t.ID), t.marshal())
}

// CreateDatabase creates an empty database.
func (tx *Job) CreateDatabase(name string) error {
	if name == "" {
		return &Error{Kind: ErrBadDefinition, Detail: "empty database name"}
	}
	if tx.cat.dbs[name] != nil {
		return objectError(ErrDatabaseExists, name, "", "")
	}
	c := tx.mutableCatalog()
	d := &Database{Name: name, tables: map[string]*Table{}}
	c.dbs[name] = d
	if err := tx.set(databaseKey(name), d.marshal()); err != nil {
		return err
	}
	return tx.writeMeta(c)
}

// SetDatabaseCollation sets a database's default collation (nil: the
// engine's default), which tables created later without one get; tables
// already there keep theirs (ALTER DATABASE ... CHARACTER SET).
func (tx *Job) SetDatabaseCollation(name string, coll *collation.Collation) error {
	if _, err := tx.cat.Database(name); err != nil {
		return err
	}
	c := tx.mutableCatalog()
	d := c.mutableDatabase(name)
	d.Collation = coll
	if err := tx.set(databaseKey(name), d.marshal()); err != nil {
		return err
	}
	return tx.writeMeta(c)
}

// DropDatabase drops a database and every table in it.
func (tx *Job) DropDatabase(name string) error {
	d, err := tx.cat.Database(name)
	if err != nil {
		return err
	}
	for _, t := range d.tables {
		if err := tx.dropTableData(t, true); err != nil {
			return err
		}
	}
	c := tx.mutableCatalog()
	delete(c.dbs, name)
	if err := tx.del(databaseKey(name)); err != nil {
		return err
	}
	return tx.writeMeta(c)
}

// CreateTable creates a table in database db and returns it.
func (tx *Job) CreateTable(db string, def *TableDef) (*Table, error) {
	d, err := tx.cat.Database(db)
	if err != nil {
		return nil, err
	}
	if d.tables[def.Name] != nil {
		return nil, objectError(ErrTableExists, db, def.Name, "")
	}
	defColl := d.Collation
	if defColl == nil {
		defColl = tx.e.opts.DefaultCollation
	}
	t, err := newTable(tx.cat.nextTableID, db, def, defColl)
	if err != nil {
		return nil, err
	}
	c := tx.mutableCatalog()
	c.nextTableID++
	c.mutableDatabase(db).tables[t.Name] = t
	if def.AutoIncrement > 1 {
		tx.touch(t)
	}
	if err := tx.writeTable(t); err != nil {
		return nil, err
	}
	return t, tx.writeMeta(c)
}

// DropTable drops a table and all its rows.
func (tx *Job) DropTable(db, name string) error {
	t, err := tx.cat.table(db, name)
	if err != nil {
		return err
	}
	if err := tx.dropTableData(t, true); err != nil {
		return err
	}
	c := tx.mutableCatalog()
	delete(c.mutableDatabase(db).tables, name)
	return tx.writeMeta(c)
}

// dropTableData deletes every row and index entry of t, its counters and,
// when def is set, its definition.
func (tx *Job) dropTableData(t *Table, def bool) error {
	start := tablePrefix(t.ID)
	if err := tx.delRange(start, prefixEnd(nil, start)); err != nil {
		return err
	}
	delete(tx.dirty, t.rt)
	for _, k := range []byte{sysAutoInc, sysRowID} {
		if err := tx.del(tableSysKey(k, t.ID)); err != nil {
			return err
		}
	}
	if def {
		return tx.del(tableSysKey(sysTable, t.ID))
	}
	return nil
}

// TruncateTable deletes every row of a table and resets its
// AUTO_INCREMENT counter, as MySQL's TRUNCATE does.
func (tx *Job) TruncateTable(db, name string) error {
	t, err := tx.cat.table(db, name)
	if err != nil {
		return err
	}
	if err := tx.dropTableData(t, false); err != nil {
		return err
	}
	t.rt.autoInc.Store(0)
	t.rt.rowID.Store(0)
	tx.touch(t)
	tx.count(t, -t.rt.rows.Load()-tx.delta[t.rt])
	return nil
}

// RenameTable moves a table to a new name, possibly in another database.
func (tx *Job) RenameTable(db, name, newDB, newName string) error {
	t, err := tx.cat.table(db, name)
	if err != nil {
		return err
	}
	nd, err := tx.cat.Database(newDB)
	if err != nil {
		return err
	}
	if nd.tables[newName] != nil {
		return objectError(ErrTableExists, newDB, newName, "")
	}
	c := tx.mutableCatalog()
	delete(c.mutableDatabase(db).tables, name)
	nt := t.copy()
	nt.DB, nt.Name = newDB, newName
	c.mutableDatabase(newDB).tables[newName] = nt
	if err := tx.writeTable(nt); err != nil {
		return err
	}
	return tx.writeMeta(c)
}

// copy returns a shallow copy of t with its own index list, sharing the
// runtime counters.
func (t *Table) copy() *Table {
	n := *t
	n.Indexes = append([]*Index(nil), t.Indexes...)
	n.Columns = append(n.Columns[:0:0], t.Columns...)
	return &n
}

// AddIndex adds a secondary index to a table and builds it over the rows
// already there. A unique index over rows that share a key fails with
// ErrDuplicateKey and changes nothing.
func (tx *Job) AddIndex(db, table string, def *IndexDef) (*Table, error) {
	t, err := tx.cat.table(db, table)
	if err != nil {
		return nil, err
	}
	if def.Primary {
		return nil, tableError(ErrBadDefinition, t, "cannot add a primary key to an existing table")
	}
	nt := t.copy()
	idx, err := nt.newIndex(def)
	if err != nil {
		return nil, err
	}
	if nt.Index(idx.Name) != nil {
		return nil, objectError(ErrIndexExists, db, table, idx.Name)
	}
	nt.setIndexes(append(nt.secondaries(), idx))
	nt.finish()
	// Build the new index from the primary rows.
	it, err := tx.b.NewIter(&pebble.IterOptions{LowerBound: t.Primary.prefix, UpperBound: prefixEnd(nil, t.Primary.prefix)})
	if err != nil {
		return nil, err
	}
	var row Row
	for it.First(); it.Valid(); it.Next() {
		var rowID uint64
		row, rowID, err = decodeRow(row, nt, it.Value())
		if err != nil {
			break
		}
		if err = tx.putSecondary(nt, idx, row, rowID); err != nil {
			err = withKey(err, nt, idx, row)
			break
		}
	}
	if cerr := it.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	c := tx.mutableCatalog()
	c.mutableDatabase(db).tables[table] = nt
	if err := tx.writeTable(nt); err != nil {
		return nil, err
	}
	return nt, tx.writeMeta(c)
}

// DropIndex removes a secondary index and its entries.
func (tx *Job) DropIndex(db, table, name string) (*Table, error) {
	t, err := tx.cat.table(db, table)
	if err != nil {
		return nil, err
	}
	idx := t.Index(name)
	if idx == nil {
		return nil, objectError(ErrNoIndex, db, table, name)
	}
	if idx.Primary {
		return nil, &Error{Kind: ErrBadDefinition, DB: db, Table: table, Index: name, Detail: "cannot drop the primary key"}
	}
	nt := t.copy()
	var rest []*Index
	for _, x := range nt.secondaries() {
		if x != idx {
			rest = append(rest, x)
		}
	}
	nt.setIndexes(rest)
	if nt.AutoInc >= 0 && !nt.autoIncIndexed() {
		return nil, columnError(ErrBadAutoIncrement, t, t.Columns[nt.AutoInc].Name, "the AUTO_INCREMENT column needs an index")
	}
	nt.finish()
	if err := tx.dropLater(idx.prefix, prefixEnd(nil, idx.prefix)); err != nil {
		return nil, err
	}
	c := tx.mutableCatalog()
	c.mutableDatabase(db).tables[table] = nt
	if err := tx.writeTable(nt); err != nil {
		return nil, err
	}
	return nt, tx.writeMeta(c)
}

// AlterTable gives table a new definition (columns and indexes; the name
// and AUTO_INCREMENT counter stay) and rewrites every row into it: new
// column i takes old column colMap[i], converted through its text form if
// the type changed, or, when colMap[i] < 0, the column's default (NULL for
// a nullable column without one, else the type's implicit default). A
// unique index that the rows break fails with ErrDuplicateKey and changes
// nothing. This is how ADD/DROP/MODIFY COLUMN and index changes are done.
func (tx *Job) AlterTable(db, table string, def *TableDef, colMap []int) (*Table, error) {
	old, err := tx.cat.table(db, table)
	if err != nil {
		return nil, err
	}
	if len(colMap) != len(def.Columns) {
		return nil, tableError(ErrBadDefinition, old, fmt.Sprintf("column map has %d entries for %d columns", len(colMap), len(def.Columns)))
	}
	for _, c := range colMap {
		if c >= len(old.Columns) {
			return nil, tableError(ErrBadDefinition, old, fmt.Sprintf("column map names old column %d", c))
		}
	}
	d := *def
	d.Name = old.Name
	nt, err := newTable(old.ID, db, &d, old.Collation)
	if err != nil {
		return nil, err
	}
	nt.rt = old.rt
	// Index ids of a new definition must not reuse ids of the old one:
	// the old entries are deleted by range below, in this same batch.
	base := old.nextIndexID
	renumber := func(idx *Index) { idx.ID += base; idx.prefix = nil }
	renumber(nt.Primary)
	for _, idx := range nt.secondaries() {
		renumber(idx)
	}
	nt.nextIndexID += base
	nt.finish()

	// Read every old row first (the batch view is fixed at iterator
	// creation), then drop the old entries and write the new ones.
	it, err := tx.b.NewIter(&pebble.IterOptions{LowerBound: old.Primary.prefix, UpperBound: prefixEnd(nil, old.Primary.prefix)})
	if err != nil {
		return nil, err
	}
	var rows []Row
	var r Row
	for valid := it.First(); valid; valid = it.Next() {
		if r, _, err = decodeRow(r, old, it.Value()); err != nil {
			break
		}
		rows = append(rows, r.Clone())
	}
	if cerr := it.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	// The old entries stay readable for a while (drops.go): a reader that
	// resolved the table before this change reads them, not nothing.
	for _, idx := range append([]*Index{old.Primary}, old.secondaries()...) {
		if err := tx.dropLater(idx.prefix, prefixEnd(nil, idx.prefix)); err != nil {
			return nil, err
		}
	}
	var buf []byte
	for _, or := range rows {
		nr := make(Row, len(nt.Columns))
		for i, oc := range colMap {
			nc := &nt.Columns[i]
			switch {
			case oc < 0:
				nr[i] = nt.missingValue(i)
			case or[oc].Null && !nc.Nullable:
				nr[i] = types.ImplicitDefault(&nc.Type)
			case or[oc].Null || sameType(&old.Columns[oc].Type, &nc.Type):
				nr[i] = or[oc]
			default:
				buf = types.AppendFormat(buf[:0], &old.Columns[oc].Type, or[oc])
				nr[i] = types.Convert(&nc.Type, buf, nil)
			}
		}
		var rowID uint64
		if nt.Primary.Hidden {
			rowID = nt.rt.rowID.Add(1)
		}
		pk := primaryKey(nil, nt, nr, rowID)
		if !nt.Primary.Hidden {
			if err := tx.checkAbsent(nt, nt.Primary, pk); err != nil {
				return nil, withKey(err, nt, nt.Primary, nr)
			}
		}
		if err := tx.set(pk, encodeRow(nil, nt, nr, rowID)); err != nil {
			return nil, err
		}
		for _, idx := range nt.secondaries() {
			if err := tx.putSecondary(nt, idx, nr, rowID); err != nil {
				return nil, withKey(err, nt, idx, nr)
			}
		}
	}
	tx.touch(nt)
	c := tx.mutableCatalog()
	c.mutableDatabase(db).tables[table] = nt
	if err := tx.writeTable(nt); err != nil {
		return nil, err
	}
	return nt, tx.writeMeta(c)
}

func sameType(a, b *types.Type) bool {
	return a.Kind == b.Kind && a.Unsigned == b.Unsigned && a.Length == b.Length && a.Scale == b.Scale &&
		a.Collation == b.Collation && slices.Equal(a.Elems, b.Elems)
}

// SetBlob stores a named system record (the SQL front keeps its users and
// grants this way) as part of the job.
func (tx *Job) SetBlob(name string, data []byte) error {
	tx.blobsChanged = true
	return tx.set(blobKey(name), data)
}

// Blob returns the committed system record of that name, or nil. Records
// are read from the store once per generation of system records (every
// group that writes one starts a new generation once it is visible), so
// the SQL layer's per-statement reads of a table's attributes cost no
// store lookup. Safe for concurrent use; the caller may modify the slice.
func (e *Engine) Blob(name string) ([]byte, error) {
	gen := e.blobGen.Load()
	if v, ok := e.blobs.Load(name); ok {
		if c := v.(*cachedBlob); c.gen == gen {
			return append([]byte(nil), c.data...), nil
		}
	}
	v, closer, err := e.db.Get(blobKey(name))
	if errors.Is(err, pebble.ErrNotFound) {
		e.blobs.Store(name, &cachedBlob{gen: gen})
		return nil, nil
	} else if err != nil {
		return nil, err
	}
	defer closer.Close()
	data := append([]byte(nil), v...)
	// read after gen was loaded: a record written since is at least as
	// new as the one kept, and the next generation reads it again
	e.blobs.Store(name, &cachedBlob{gen: gen, data: data})
	return append([]byte(nil), data...), nil
}

// cachedBlob is a system record as read under one generation.
type cachedBlob struct {
	gen  uint64
	data []byte
}
