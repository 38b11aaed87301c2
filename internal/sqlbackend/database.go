package sqlbackend

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
)

// database is one engine database as go-mysql-server sees it. It holds
// only its name and reads the engine's current catalog on every call, so
// it is safe for concurrent use and never stale.
type database struct {
	p    *Provider
	name string
}

var (
	_ sql.Database         = (*database)(nil)
	_ sql.TableCreator     = (*database)(nil)
	_ sql.TableDropper     = (*database)(nil)
	_ sql.TableRenamer     = (*database)(nil)
	_ sql.CollatedDatabase = (*database)(nil)
)

// Name is the database name.
func (d *database) Name() string { return d.name }

// GetTableInsensitive returns the named table: the exact name if it
// exists, else the one equal to it ignoring case.
func (d *database) GetTableInsensitive(ctx *sql.Context, name string) (sql.Table, bool, error) {
	if t := SessionOf(ctx).temporary(d, name); t != nil {
		return newTable(d, t), true, nil // it shadows a stored table
	}
	t := d.engineTable(name)
	if t == nil {
		return nil, false, nil
	}
	return newTable(d, t), true, nil
}

// engineTable resolves a table name in the current catalog, or nil.
func (d *database) engineTable(name string) *engine.Table {
	edb, err := d.p.e.Catalog().Database(d.name)
	if err != nil {
		return nil
	}
	if engine.IsHidden(name) {
		return edb.Hidden(name)
	}
	if t := edb.Table(name); t != nil {
		return t
	}
	for _, t := range edb.Tables() {
		if strings.EqualFold(t.Name, name) {
			return t
		}
	}
	return nil
}

// GetTableNames returns the names of the database's tables, sorted, but
// those of tables with a name, column name or index name that is not valid
// UTF-8 (stored before names were checked, see names.go), which would
// break the listings.
func (d *database) GetTableNames(ctx *sql.Context) ([]string, error) {
	edb, err := d.p.e.Catalog().Database(d.name)
	if err != nil {
		return nil, MapError(err)
	}
	ts := edb.Tables()
	names := make([]string, 0, len(ts))
	for _, t := range ts {
		if listableTable(t) {
			names = append(names, t.Name)
		}
	}
	return names, nil
}

// listableTable reports whether t's names can all be listed.
func listableTable(t *engine.Table) bool {
	if !listable(t.Name) {
		return false
	}
	for i := range t.Columns {
		if !listable(t.Columns[i].Name) {
			return false
		}
	}
	for _, idx := range t.Indexes {
		if !listable(idx.Name) {
			return false
		}
	}
	return true
}

// GetCollation returns the collation new tables get by default: the
// database's (CREATE or ALTER DATABASE ... CHARACTER SET / COLLATE), else
// the engine's default (utf8mb4_general_ci unless configured).
// go-mysql-server reads it for SHOW CREATE DATABASE,
// information_schema.SCHEMATA, @@character_set_database and
// @@collation_database, and for a CREATE TABLE that names no collation.
func (d *database) GetCollation(ctx *sql.Context) sql.CollationID {
	if edb, err := d.p.e.Catalog().Database(d.name); err == nil && edb.Collation != nil {
		return SQLCollation(edb.Collation)
	}
	return SQLCollation(d.p.e.Options().DefaultCollation)
}

// SetCollation changes the database's default collation (ALTER DATABASE
// ... CHARACTER SET / COLLATE); tables already there keep theirs.
func (d *database) SetCollation(ctx *sql.Context, coll sql.CollationID) error {
	c, err := databaseCollation(coll)
	if err != nil {
		return err
	}
	return d.p.ddl(ctx, func(tx *engine.Job) error { return tx.SetDatabaseCollation(d.name, c) })
}

// databaseCollation returns the engine collation of a database's
// go-mysql-server collation: nil for go-mysql-server's default (given
// when the statement names none), which stands for the engine's default.
func databaseCollation(coll sql.CollationID) (*collation.Collation, error) {
	if coll == sql.Collation_Default || coll == sql.Collation_Unspecified {
		return nil, nil
	}
	c := engineCollation(coll)
	if c == nil {
		return nil, errUnsupported("character set %s", coll.CharacterSet().String())
	}
	return c, nil
}

// CreateTable creates a table from its go-mysql-server schema. Secondary
// indexes are added afterwards by go-mysql-server through CreateIndex.
func (d *database) CreateTable(ctx *sql.Context, name string, schema sql.PrimaryKeySchema, coll sql.CollationID, comment string) error {
	if err := checkName(ctx, nameTable, name); err != nil {
		return err
	}
	if engine.IsHidden(name) {
		return errHiddenName(name)
	}
	def, meta, err := tableDefFromSQL(ctx, name, schema, coll, comment)
	if err != nil {
		return err
	}
	if d.engineTable(name) != nil {
		return sql.ErrTableAlreadyExists.New(name)
	}
	return d.p.ddl(ctx, func(tx *engine.Job) error {
		t, err := tx.CreateTable(d.name, def)
		if err != nil {
			return err
		}
		return writeMeta(tx, t.ID, meta)
	})
}

// tableDefFromSQL maps a CREATE TABLE schema to an engine definition.
func tableDefFromSQL(ctx *sql.Context, name string, schema sql.PrimaryKeySchema, coll sql.CollationID, comment string) (*engine.TableDef, *tableMeta, error) {
	def := &engine.TableDef{Name: name, Comment: comment}
	meta := &tableMeta{}
	if coll != sql.Collation_Unspecified {
		if def.Collation = engineCollation(coll); def.Collation == nil {
			return nil, nil, errUnsupported("collation %s", coll.Name())
		}
	}
	autoInc := -1
	for i, c := range schema.Schema {
		col, cm, err := columnFromSQL(ctx, c)
		if err != nil {
			return nil, nil, err
		}
		meta.set(col.Name, cm)
		if col.AutoIncrement {
			autoInc = i
		}
		def.Columns = append(def.Columns, col)
	}
	if len(schema.PkOrdinals) > 0 {
		pk := engine.IndexDef{Name: "PRIMARY", Primary: true}
		meta.setIndexUsing("PRIMARY", declaredIndexUsing(ctx, "PRIMARY"))
		for _, o := range schema.PkOrdinals {
			pk.Columns = append(pk.Columns, schema.Schema[o].Name)
		}
		// Prefix lengths come beside the schema (see pkPrefixCreate).
		parts := primaryKeyParts(ctx)
		if len(parts) == len(pk.Columns) {
			pk.Columns = pk.Columns[:0]
			for _, p := range parts {
				pk.Columns = append(pk.Columns, p.Name)
			}
		} else {
			parts = nil
			for _, c := range pk.Columns {
				parts = append(parts, sql.IndexColumn{Name: c})
			}
		}
		var err error
		if pk.Prefix, err = tableKeyPrefix(ctx, def.Columns, parts, true, true); err != nil {
			return nil, nil, err
		}
		def.Indexes = append(def.Indexes, pk)
	}
	// The engine wants an AUTO_INCREMENT column to lead an index when the
	// table is created; go-mysql-server adds the secondary indexes only
	// afterwards. Give such a column a helper index now, which SQL does
	// not show and CreateIndex drops once a declared index leads with the
	// column.
	if autoInc >= 0 && (len(schema.PkOrdinals) == 0 || schema.PkOrdinals[0] != autoInc) {
		n := schema.Schema[autoInc].Name
		def.Indexes = append(def.Indexes, engine.IndexDef{Name: autoIncIndexPrefix + n, Columns: []string{n}})
	}
	return def, meta, nil
}

// autoIncIndexPrefix names the helper index of an AUTO_INCREMENT column
// that no declared index leads (yet).
const autoIncIndexPrefix = "__autoinc_"

// IsHelperIndex reports whether idx is such a helper index: SQL does not
// show it, and a statement naming its column does not name it.
func IsHelperIndex(idx *engine.Index) bool { return strings.HasPrefix(idx.Name, autoIncIndexPrefix) }

// DropTable drops a table and its rows: the session's temporary table of
// that name if there is one (DROP TABLE and DROP TEMPORARY TABLE alike).
func (d *database) DropTable(ctx *sql.Context, name string) error {
	if s := SessionOf(ctx); s.temporary(d, name) != nil {
		return s.dropTemporary(ctx, d, name)
	}
	t := d.engineTable(name)
	if t == nil {
		return sql.ErrTableNotFound.New(name)
	}
	return d.p.ddl(ctx, func(tx *engine.Job) error {
		if err := tx.DropTable(d.name, t.Name); err != nil {
			return err
		}
		return writeMeta(tx, t.ID, nil)
	})
}

// RenameTable renames a table within the database.
func (d *database) RenameTable(ctx *sql.Context, oldName, newName string) error {
	if err := checkName(ctx, nameTable, newName); err != nil {
		return err
	}
	if engine.IsHidden(newName) {
		return errHiddenName(newName)
	}
	if SessionOf(ctx).temporary(d, oldName) != nil {
		return errUnsupported("renaming a temporary table")
	}
	t := d.engineTable(oldName)
	if t == nil {
		return sql.ErrTableNotFound.New(oldName)
	}
	return d.p.ddl(ctx, func(tx *engine.Job) error { return tx.RenameTable(d.name, t.Name, d.name, newName) })
}
