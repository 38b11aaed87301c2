package sqlfront

import (
	"fmt"
	"io"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// ALTER TABLE. Column changes and primary key changes go through the
// engine's AlterTable, which rewrites the rows into the new definition in
// one job; secondary indexes are added and dropped in place.

// defOf returns the definition of t (its columns, primary key and
// secondary indexes) for building a changed one.
func defOf(t *engine.Table) *engine.TableDef {
	def := &engine.TableDef{Name: t.Name, Collation: t.Collation, Comment: t.Comment}
	def.Columns = append(def.Columns, t.Columns...)
	for _, idx := range t.Indexes {
		d := engine.IndexDef{Name: idx.Name, Primary: idx.Primary, Unique: idx.Unique && !idx.Primary}
		for _, c := range idx.Columns {
			d.Columns = append(d.Columns, t.Columns[c].Name)
		}
		def.Indexes = append(def.Indexes, d)
	}
	return def
}

// identityMap maps every column of t to itself.
func identityMap(t *engine.Table) []int {
	m := make([]int, len(t.Columns))
	for i := range m {
		m[i] = i
	}
	return m
}

// alter gives the table a definition changed by edit, rewriting its rows.
// edit may change def and the column map (new column -> old ordinal, -1
// for a new column).
func (t *Table) alter(ctx *sql.Context, edit func(def *engine.TableDef, colMap *[]int) error) error {
	def := defOf(t.t)
	colMap := identityMap(t.t)
	if err := edit(def, &colMap); err != nil {
		return err
	}
	return t.db.p.ddl(ctx, func(tx *engine.Tx) error {
		_, err := tx.AlterTable(t.db.name, t.t.Name, def, colMap)
		return err
	})
}

// rebuild recreates the table with a definition changed by edit (in one
// job: the rows are read, the table dropped and created anew, the rows
// inserted). It serves what AlterTable keeps, such as the AUTO_INCREMENT
// counter.
func (t *Table) rebuild(ctx *sql.Context, edit func(def *engine.TableDef) error) error {
	def := defOf(t.t)
	if err := edit(def); err != nil {
		return err
	}
	db, name := t.db.name, t.t.Name
	return t.db.p.ddl(ctx, func(tx *engine.Tx) error {
		old, err := tx.Catalog().Table(db, name)
		if err != nil {
			return err
		}
		it, err := tx.NewIterator(old, nil, engine.Range{}, false)
		if err != nil {
			return err
		}
		var rows []engine.Row
		for {
			r, err := it.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				it.Close()
				return err
			}
			rows = append(rows, r.Clone())
		}
		it.Close()
		if err := tx.DropTable(db, name); err != nil {
			return err
		}
		nt, err := tx.CreateTable(db, def)
		if err != nil {
			return err
		}
		for _, r := range rows {
			if _, err := tx.Insert(nt, r); err != nil {
				return err
			}
		}
		return nil
	})
}

// columnPos returns the position a column goes to under order, in a list
// of names.
func columnPos(names []string, order *sql.ColumnOrder, fallback int) (int, error) {
	switch {
	case order == nil:
		return fallback, nil
	case order.First:
		return 0, nil
	case order.AfterColumn != "":
		for i, n := range names {
			if strings.EqualFold(n, order.AfterColumn) {
				return i + 1, nil
			}
		}
		return 0, sql.ErrTableColumnNotFound.New("", order.AfterColumn)
	}
	return fallback, nil
}

// AddColumn adds a column; existing rows get its default.
func (t *Table) AddColumn(ctx *sql.Context, column *sql.Column, order *sql.ColumnOrder) error {
	col, err := columnFromSQL(ctx, column)
	if err != nil {
		return err
	}
	if t.t.Column(col.Name) >= 0 {
		return sql.ErrColumnExists.New(col.Name)
	}
	return t.alter(ctx, func(def *engine.TableDef, colMap *[]int) error {
		names := columnNames(def.Columns)
		pos, err := columnPos(names, order, len(names))
		if err != nil {
			return err
		}
		def.Columns = insertAt(def.Columns, pos, col)
		*colMap = insertAt(*colMap, pos, -1)
		if col.AutoIncrement {
			def.Indexes = append(def.Indexes, engine.IndexDef{Name: col.Name, Columns: []string{col.Name}})
		}
		return nil
	})
}

// DropColumn drops a column (and drops it from the indexes; an index left
// without columns is dropped).
func (t *Table) DropColumn(ctx *sql.Context, name string) error {
	i := t.t.Column(name)
	if i < 0 {
		return sql.ErrTableColumnNotFound.New(t.t.Name, name)
	}
	if len(t.t.Columns) == 1 {
		return errUnsupported("dropping the last column of %s", t.t.Name)
	}
	real := t.t.Columns[i].Name
	return t.alter(ctx, func(def *engine.TableDef, colMap *[]int) error {
		def.Columns = append(def.Columns[:i:i], def.Columns[i+1:]...)
		*colMap = append((*colMap)[:i:i], (*colMap)[i+1:]...)
		var idxs []engine.IndexDef
		for _, d := range def.Indexes {
			var cols []string
			for _, c := range d.Columns {
				if c != real {
					cols = append(cols, c)
				}
			}
			if len(cols) > 0 {
				d.Columns = cols
				idxs = append(idxs, d)
			}
		}
		def.Indexes = idxs
		return nil
	})
}

// ModifyColumn changes a column's name, type, attributes or position;
// values are converted through their text when the type changes.
func (t *Table) ModifyColumn(ctx *sql.Context, name string, column *sql.Column, order *sql.ColumnOrder) error {
	i := t.t.Column(name)
	if i < 0 {
		return sql.ErrTableColumnNotFound.New(t.t.Name, name)
	}
	col, err := columnFromSQL(ctx, column)
	if err != nil {
		return err
	}
	old := t.t.Columns[i].Name
	return t.alter(ctx, func(def *engine.TableDef, colMap *[]int) error {
		def.Columns = append(def.Columns[:i:i], def.Columns[i+1:]...)
		*colMap = append((*colMap)[:i:i], (*colMap)[i+1:]...)
		names := columnNames(def.Columns)
		pos, err := columnPos(names, order, i)
		if err != nil {
			return err
		}
		def.Columns = insertAt(def.Columns, pos, col)
		*colMap = insertAt(*colMap, pos, i)
		for k := range def.Indexes {
			for j, c := range def.Indexes[k].Columns {
				if c == old {
					def.Indexes[k].Columns[j] = col.Name
				}
			}
		}
		if col.AutoIncrement && !leadsIndex(def, col.Name) {
			def.Indexes = append(def.Indexes, engine.IndexDef{Name: col.Name, Columns: []string{col.Name}})
		}
		return nil
	})
}

func leadsIndex(def *engine.TableDef, col string) bool {
	for _, d := range def.Indexes {
		if len(d.Columns) > 0 && strings.EqualFold(d.Columns[0], col) {
			return true
		}
	}
	return false
}

func columnNames(cols []types.Column) []string {
	names := make([]string, len(cols))
	for i := range cols {
		names[i] = cols[i].Name
	}
	return names
}

func insertAt[T any](s []T, i int, v T) []T {
	s = append(s, v)
	copy(s[i+1:], s[i:])
	s[i] = v
	return s
}

// indexDefFromSQL maps a CREATE INDEX definition to the engine's.
func indexDefFromSQL(t *engine.Table, d sql.IndexDef) (engine.IndexDef, error) {
	if d.IsFullText() || d.IsSpatial() || d.IsVector() {
		return engine.IndexDef{}, errUnsupported("FULLTEXT, SPATIAL and VECTOR indexes")
	}
	out := engine.IndexDef{Name: d.Name, Unique: d.IsUnique(), Primary: d.IsPrimary()}
	for _, c := range d.Columns {
		i := t.Column(c.Name)
		if i < 0 {
			return out, sql.ErrKeyColumnDoesNotExist.New(c.Name)
		}
		// A prefix length (KEY (col(10))) is accepted and ignored: the
		// whole value is indexed.
		out.Columns = append(out.Columns, t.Columns[i].Name)
	}
	return out, nil
}

// CreateIndex adds an index and fills it from the rows.
func (t *Table) CreateIndex(ctx *sql.Context, d sql.IndexDef) error {
	if d.IsPrimary() {
		return t.CreatePrimaryKey(ctx, d.Columns)
	}
	def, err := indexDefFromSQL(t.t, d)
	if err != nil {
		return err
	}
	if ex := t.t.Index(def.Name); ex != nil && !ex.Primary && ex.Unique == def.Unique && sameColumns(t.t, ex, def.Columns) {
		// Made by CREATE TABLE for an AUTO_INCREMENT column.
		return nil
	}
	if def.Name == "" {
		def.Name = def.Columns[0]
	}
	return t.db.p.ddl(ctx, func(tx *engine.Tx) error {
		_, err := tx.AddIndex(t.db.name, t.t.Name, &def)
		return err
	})
}

func sameColumns(t *engine.Table, idx *engine.Index, cols []string) bool {
	if len(idx.Columns) != len(cols) {
		return false
	}
	for i, c := range idx.Columns {
		if !strings.EqualFold(t.Columns[c].Name, cols[i]) {
			return false
		}
	}
	return true
}

// DropIndex drops an index ("PRIMARY" drops the primary key).
func (t *Table) DropIndex(ctx *sql.Context, name string) error {
	idx := t.indexNamed(name)
	if idx == nil {
		return mapError(fmt.Errorf("%w: %s", engine.ErrNoIndex, name))
	}
	if idx.Primary {
		return t.DropPrimaryKey(ctx)
	}
	return t.db.p.ddl(ctx, func(tx *engine.Tx) error {
		_, err := tx.DropIndex(t.db.name, t.t.Name, idx.Name)
		return err
	})
}

// indexNamed finds a visible index by name, ignoring case as MySQL does.
func (t *Table) indexNamed(name string) *engine.Index {
	if idx := t.t.Index(name); idx != nil {
		return idx
	}
	for _, idx := range t.t.Indexes {
		if strings.EqualFold(idx.Name, name) {
			return idx
		}
	}
	return nil
}

// RenameIndex renames a secondary index.
func (t *Table) RenameIndex(ctx *sql.Context, from, to string) error {
	idx := t.indexNamed(from)
	if idx == nil {
		return mapError(fmt.Errorf("%w: %s", engine.ErrNoIndex, from))
	}
	if idx.Primary {
		return errUnsupported("renaming the primary key")
	}
	return t.alter(ctx, func(def *engine.TableDef, _ *[]int) error {
		for k := range def.Indexes {
			if def.Indexes[k].Name == idx.Name {
				def.Indexes[k].Name = to
			}
		}
		return nil
	})
}

// CreatePrimaryKey gives a table without one a primary key.
func (t *Table) CreatePrimaryKey(ctx *sql.Context, columns []sql.IndexColumn) error {
	if !t.t.Primary.Hidden {
		return sql.ErrMultiplePrimaryKeysDefined.New()
	}
	pk := engine.IndexDef{Name: "PRIMARY", Primary: true}
	for _, c := range columns {
		i := t.t.Column(c.Name)
		if i < 0 {
			return sql.ErrKeyColumnDoesNotExist.New(c.Name)
		}
		pk.Columns = append(pk.Columns, t.t.Columns[i].Name)
	}
	return t.alter(ctx, func(def *engine.TableDef, _ *[]int) error {
		def.Indexes = append([]engine.IndexDef{pk}, def.Indexes...)
		for _, n := range pk.Columns {
			def.Columns[t.t.Column(n)].Nullable = false
		}
		return nil
	})
}

// DropPrimaryKey drops the primary key; rows are then keyed by a hidden
// row id.
func (t *Table) DropPrimaryKey(ctx *sql.Context) error {
	if t.t.Primary.Hidden {
		return sql.ErrCantDropFieldOrKey.New("PRIMARY")
	}
	return t.alter(ctx, func(def *engine.TableDef, _ *[]int) error {
		var idxs []engine.IndexDef
		for _, d := range def.Indexes {
			if !d.Primary {
				idxs = append(idxs, d)
			}
		}
		def.Indexes = idxs
		return nil
	})
}
