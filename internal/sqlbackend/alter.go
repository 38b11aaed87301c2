package sqlbackend

import (
	"fmt"
	"io"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// ALTER TABLE. Column changes and primary key changes go through the
// engine's AlterTable, which rewrites the rows into the new definition in
// one job; secondary indexes are added and dropped in place.

// identityMap maps every column of t to itself.
func identityMap(t *engine.Table) []int {
	m := make([]int, len(t.Columns))
	for i := range m {
		m[i] = i
	}
	return m
}

// alter gives the table a definition changed by edit, rewriting its rows.
// edit may change def, the column map (new column -> old ordinal, -1 for
// a new column) and the table's SQL attributes.
func (t *table) alter(ctx *sql.Context, edit func(def *engine.TableDef, colMap *[]int, meta *tableMeta) error) error {
	return t.alterThen(ctx, edit, nil)
}

// alterThen is alter followed, in the same job, by after on the new
// definition of the table.
func (t *table) alterThen(ctx *sql.Context, edit func(def *engine.TableDef, colMap *[]int, meta *tableMeta) error, after func(tx *engine.Job, nt *engine.Table) error) error {
	def := t.t.Def()
	colMap := identityMap(t.t)
	meta, err := t.db.p.tableMeta(t.t.ID)
	if err != nil {
		return err
	}
	if err := edit(def, &colMap, meta); err != nil {
		return err
	}
	return t.db.p.ddl(ctx, func(tx *engine.Job) error {
		// def and colMap were made from t.t: another ALTER that committed
		// since would be undone, or columns shifted, by applying them.
		if cur, err := tx.Catalog().AnyTable(t.db.name, t.t.Name); err != nil {
			return err
		} else if cur != t.t {
			return errDefChanged(t.db.name, t.t.Name)
		}
		nt, err := tx.AlterTable(t.db.name, t.t.Name, def, colMap)
		if err != nil {
			return err
		}
		if after != nil {
			if err := after(tx, nt); err != nil {
				return err
			}
		}
		return writeMeta(tx, nt.ID, meta)
	})
}

// rebuild recreates the table with a definition changed by edit (in one
// job: the rows are read, the table dropped and created anew, the rows
// inserted). It serves what AlterTable keeps, such as the AUTO_INCREMENT
// counter.
func (t *table) rebuild(ctx *sql.Context, edit func(def *engine.TableDef) error) error {
	def := t.t.Def()
	if err := edit(def); err != nil {
		return err
	}
	meta, err := t.db.p.tableMeta(t.t.ID)
	if err != nil {
		return err
	}
	db, name := t.db.name, t.t.Name
	return t.db.p.ddl(ctx, func(tx *engine.Job) error {
		old, err := tx.Catalog().AnyTable(db, name)
		if err != nil {
			return err
		} else if old != t.t {
			return errDefChanged(db, name) // def was made from t.t
		}
		rows, err := allRows(tx, old)
		if err != nil {
			return err
		}
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
		if err := writeMeta(tx, old.ID, nil); err != nil {
			return err
		}
		return writeMeta(tx, nt.ID, meta)
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
func (t *table) AddColumn(ctx *sql.Context, column *sql.Column, order *sql.ColumnOrder) error {
	col, cm, err := columnFromSQL(ctx, column)
	if err != nil {
		return err
	}
	if t.t.Column(col.Name) >= 0 {
		return sql.ErrColumnExists.New(col.Name)
	}
	// Rows already there get the column's DEFAULT; an expression (one the
	// engine cannot apply itself) is evaluated for each of them.
	var fill func(tx *engine.Job, nt *engine.Table) error
	if d := column.Default; d != nil && d.Expr != nil && !d.IsLiteral() {
		fill = func(tx *engine.Job, nt *engine.Table) error { return fillColumn(ctx, tx, nt, nt.Column(col.Name), d) }
	}
	err = t.alterThen(ctx, func(def *engine.TableDef, colMap *[]int, meta *tableMeta) error {
		meta.set(col.Name, cm)
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
	}, fill)
	t.columnAdded = err == nil
	return err
}

// fillColumn sets column ci of every row of nt to the value of def for
// that row (inside the ALTER's job).
func fillColumn(ctx *sql.Context, tx *engine.Job, nt *engine.Table, ci int, def *sql.ColumnDefaultValue) error {
	if ci < 0 {
		return nil
	}
	// The expression's column references name columns of the new row.
	e, _, err := transform.Expr(def, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if gf, ok := e.(*expression.GetField); ok {
			if i := nt.Column(gf.Name()); i >= 0 {
				return gf.WithIndex(i), transform.NewTree, nil
			}
		}
		return e, transform.SameTree, nil
	})
	if err != nil {
		return err
	}
	rows, err := allRows(tx, nt)
	if err != nil {
		return err
	}
	typ := &nt.Columns[ci].Type
	// The new column is the ALTER's own: no transaction's row lock
	// covers it.
	tx.OwnRows()
	for _, r := range rows {
		v, err := e.Eval(ctx, rowToSQL(nt, nil, r))
		if err != nil {
			return err
		}
		ev, err := valueFromSQL(ctx, typ, v, false)
		if err != nil {
			return err
		}
		nr := r.Clone()
		nr[ci] = ev
		if _, err := tx.Update(nt, r, nr); err != nil {
			return err
		}
	}
	return nil
}

// DropColumn drops a column (and drops it from the indexes; an index left
// without columns is dropped).
func (t *table) DropColumn(ctx *sql.Context, name string) error {
	i := t.t.Column(name)
	if i < 0 {
		return sql.ErrTableColumnNotFound.New(t.t.Name, name)
	}
	if len(t.t.Columns) == 1 {
		return errUnsupported("dropping the last column of %s", t.t.Name)
	}
	real := t.t.Columns[i].Name
	return t.alter(ctx, func(def *engine.TableDef, colMap *[]int, meta *tableMeta) error {
		meta.drop(real)
		meta.dropTextColumn(real)
		def.Columns = append(def.Columns[:i:i], def.Columns[i+1:]...)
		*colMap = append((*colMap)[:i:i], (*colMap)[i+1:]...)
		var idxs []engine.IndexDef
		for _, d := range def.Indexes {
			var cols []string
			var prefix []uint16
			for k, c := range d.Columns {
				if c != real {
					cols = append(cols, c)
					if d.Prefix != nil {
						prefix = append(prefix, d.Prefix[k])
					}
				}
			}
			if len(cols) > 0 {
				d.Columns, d.Prefix = cols, prefix
				idxs = append(idxs, d)
			}
		}
		def.Indexes = idxs
		return nil
	})
}

// ModifyColumn changes a column's name, type, attributes or position;
// values are converted through their text when the type changes.
func (t *table) ModifyColumn(ctx *sql.Context, name string, column *sql.Column, order *sql.ColumnOrder) (err error) {
	i := t.t.Column(name)
	if i < 0 {
		return sql.ErrTableColumnNotFound.New(t.t.Name, name)
	}
	col, cm, err := columnFromSQL(ctx, column)
	if err != nil {
		return err
	}
	old := t.t.Columns[i].Name
	if col.AutoIncrement && !t.t.Columns[i].AutoIncrement {
		defer t.syncAutoIncrement(ctx, &err)
	}
	var after func(tx *engine.Job, nt *engine.Table) error
	if col.Type.Kind == types.Geometry && !sameColumnType(&t.t.Columns[i].Type, &col.Type) {
		after = func(tx *engine.Job, _ *engine.Table) error { return checkGeometryAlter(ctx, tx, t.t, i, &col) }
	}
	return t.alterThen(ctx, func(def *engine.TableDef, colMap *[]int, meta *tableMeta) error {
		meta.drop(old)
		meta.set(col.Name, cm)
		meta.renameKeptColumn(old, col.Name)
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
	}, after)
}

// syncAutoIncrement moves the AUTO_INCREMENT counter of a column that has
// just become AUTO_INCREMENT past the values its rows hold (the engine's
// ALTER keeps the counter as it was): the table is rebuilt, which inserts
// every row with its value again.
func (t *table) syncAutoIncrement(ctx *sql.Context, errp *error) {
	if *errp != nil {
		return
	}
	nt := t.db.engineTable(t.t.Name)
	if nt == nil {
		return
	}
	*errp = newTable(t.db, nt).rebuild(ctx, func(*engine.TableDef) error { return nil })
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
func indexDefFromSQL(ctx *sql.Context, t *engine.Table, d sql.IndexDef) (engine.IndexDef, error) {
	if d.IsFullText() || d.IsSpatial() || d.IsVector() {
		return engine.IndexDef{}, errUnsupported("FULLTEXT, SPATIAL and VECTOR indexes")
	}
	out := engine.IndexDef{Name: d.Name, Unique: d.IsUnique(), Primary: d.IsPrimary()}
	for _, c := range d.Columns {
		i := t.Column(c.Name)
		if i < 0 {
			return out, sql.ErrKeyColumnDoesNotExist.New(c.Name)
		}
		out.Columns = append(out.Columns, t.Columns[i].Name)
	}
	var err error
	out.Prefix, err = tableKeyPrefix(ctx, t.Columns, d.Columns, d.IsPrimary(), d.IsUnique())
	return out, err
}

// CreateIndex adds an index and fills it from the rows.
func (t *table) CreateIndex(ctx *sql.Context, d sql.IndexDef) error {
	if d.Name != "" && !d.IsPrimary() {
		// go-mysql-server names an unnamed index before it gets here.
		if err := checkName(ctx, nameIndex, d.Name); err != nil {
			return err
		}
	}
	if d.IsPrimary() {
		return t.CreatePrimaryKey(ctx, d.Columns)
	}
	def, err := indexDefFromSQL(ctx, t.t, d)
	if err != nil {
		return err
	}
	if def.Name == "" {
		def.Name = def.Columns[0]
	}
	// A helper index of an AUTO_INCREMENT column (see tableDefFromSQL)
	// goes once this index leads with the column.
	var helper string
	for _, idx := range t.t.Indexes {
		if IsHelperIndex(idx) && strings.EqualFold(t.t.Columns[idx.Columns[0]].Name, def.Columns[0]) {
			helper = idx.Name
		}
	}
	t.db.p.objMu.Lock()
	defer t.db.p.objMu.Unlock()
	meta, err := t.db.p.tableMeta(t.t.ID)
	if err != nil {
		return err
	}
	meta.setIndexComment(def.Name, d.Comment)
	switch d.Storage {
	case sql.IndexUsing_BTree:
		meta.setIndexUsing(def.Name, "BTREE")
	case sql.IndexUsing_Hash:
		meta.setIndexUsing(def.Name, "HASH")
	default:
		meta.setIndexUsing(def.Name, declaredIndexUsing(ctx, def.Name))
	}
	err = t.db.p.ddlRaw(ctx, true, func(tx *engine.Job) error {
		nt, err := tx.AddIndex(t.db.name, t.t.Name, &def)
		if err != nil {
			return err
		}
		if helper != "" {
			if _, err := tx.DropIndex(t.db.name, t.t.Name, helper); err != nil {
				return err
			}
		}
		return writeMeta(tx, nt.ID, meta)
	})
	// Rows that break a new UNIQUE index: go-mysql-server's unique-key error.
	return dupKeyError(t.t, t.ts.sch.Schema, err)
}

// DropIndex drops an index ("PRIMARY" drops the primary key).
func (t *table) DropIndex(ctx *sql.Context, name string) error {
	idx := t.t.IndexFold(name)
	if idx == nil {
		if ok, err := t.dropTextIndex(ctx, name); ok || err != nil {
			return err
		}
		return MapError(fmt.Errorf("%w: %s", engine.ErrNoIndex, name))
	}
	if idx.Primary {
		return t.DropPrimaryKey(ctx)
	}
	t.db.p.objMu.Lock()
	defer t.db.p.objMu.Unlock()
	meta, err := t.db.p.tableMeta(t.t.ID)
	if err != nil {
		return err
	}
	meta.setIndexComment(idx.Name, "")
	meta.setIndexUsing(idx.Name, "")
	return t.db.p.ddl(ctx, func(tx *engine.Job) error {
		nt, err := tx.DropIndex(t.db.name, t.t.Name, idx.Name)
		if err != nil {
			return err
		}
		return writeMeta(tx, nt.ID, meta)
	})
}

// RenameIndex renames a secondary index.
func (t *table) RenameIndex(ctx *sql.Context, from, to string) error {
	if err := checkName(ctx, nameIndex, to); err != nil {
		return err
	}
	idx := t.t.IndexFold(from)
	if idx == nil {
		return MapError(fmt.Errorf("%w: %s", engine.ErrNoIndex, from))
	}
	if idx.Primary {
		return errUnsupported("renaming the primary key")
	}
	return t.alter(ctx, func(def *engine.TableDef, _ *[]int, meta *tableMeta) error {
		for k := range def.Indexes {
			if def.Indexes[k].Name == idx.Name {
				def.Indexes[k].Name = to
			}
		}
		c, u := meta.IndexComments[idx.Name], meta.IndexUsing[idx.Name]
		meta.setIndexComment(idx.Name, "")
		meta.setIndexComment(to, c)
		meta.setIndexUsing(idx.Name, "")
		meta.setIndexUsing(to, u)
		return nil
	})
}

// CreatePrimaryKey gives a table without one a primary key.
func (t *table) CreatePrimaryKey(ctx *sql.Context, columns []sql.IndexColumn) error {
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
	var err error
	if pk.Prefix, err = tableKeyPrefix(ctx, t.t.Columns, columns, true, true); err != nil {
		return err
	}
	return t.alter(ctx, func(def *engine.TableDef, _ *[]int, _ *tableMeta) error {
		def.Indexes = append([]engine.IndexDef{pk}, def.Indexes...)
		for _, n := range pk.Columns {
			def.Columns[t.t.Column(n)].Nullable = false
		}
		return nil
	})
}

// DropPrimaryKey drops the primary key; rows are then keyed by a hidden
// row id.
func (t *table) DropPrimaryKey(ctx *sql.Context) error {
	if t.t.Primary.Hidden {
		return sql.ErrCantDropFieldOrKey.New("PRIMARY")
	}
	if err := t.checkDropPrimary(ctx); err != nil {
		return err
	}
	return t.alter(ctx, func(def *engine.TableDef, _ *[]int, _ *tableMeta) error {
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

var _ sql.CollationAlterableTable = (*table)(nil)

// ModifyDefaultCollation changes the collation new columns get (ALTER
// TABLE ... COLLATE); existing columns keep theirs.
func (t *table) ModifyDefaultCollation(ctx *sql.Context, coll sql.CollationID) error {
	c := engineCollation(coll)
	if c == nil {
		return errUnsupported("collation %s", coll.Name())
	}
	return t.alter(ctx, func(def *engine.TableDef, _ *[]int, _ *tableMeta) error {
		def.Collation = c
		return nil
	})
}

// ModifyStoredCollation converts every character column, and the table's
// default, to a collation (ALTER TABLE ... CONVERT TO CHARACTER SET).
func (t *table) ModifyStoredCollation(ctx *sql.Context, coll sql.CollationID) error {
	c := engineCollation(coll)
	if c == nil {
		return errUnsupported("collation %s", coll.Name())
	}
	return t.alter(ctx, func(def *engine.TableDef, _ *[]int, _ *tableMeta) error {
		def.Collation = c
		for i := range def.Columns {
			typ := &def.Columns[i].Type
			if typ.IsString() || typ.Kind == types.Enum || typ.Kind == types.Set {
				typ.Collation = c
			}
		}
		return nil
	})
}

// allRows reads every row of t as the job sees it (copies that outlive
// the iterator).
func allRows(tx *engine.Job, t *engine.Table) ([]engine.Row, error) {
	it, err := tx.NewIterator(t, nil, engine.Range{}, false)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var rows []engine.Row
	for {
		r, err := it.Next()
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return nil, err
		}
		rows = append(rows, r.Clone())
	}
}
