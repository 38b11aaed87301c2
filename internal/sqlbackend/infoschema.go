package sqlbackend

import (
	"sort"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
	"github.com/dolthub/go-mysql-server/sql/plan"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// information_schema.COLUMNS as MariaDB 10.11 fills it.
//
// go-mysql-server builds the rows of information_schema.COLUMNS from each
// table's go-mysql-server schema, with MySQL 8's words (int for int(11),
// CURRENT_TIMESTAMP and DEFAULT_GENERATED, ENUM defaults as numbers).
// MariaDBColumns wraps its row source: for the columns of HandlerDB's
// tables, of a provider in MariaDB mode (Provider.MariaDB), the type,
// default, key, extra and precision fields are replaced by what SHOW
// COLUMNS prints (show.go), from the engine's definition. Other rows
// (views, information_schema itself) are left as they are. The wrapper
// keeps no state beyond one call's table cache and is safe for concurrent
// use.

// MariaDBColumns returns a constructor of information_schema.COLUMNS that
// wraps newTable's rows as described above; the listener installs it as
// information_schema.NewColumnsTable before building its engine.
func MariaDBColumns(newTable func() *information_schema.ColumnsTable) func() *information_schema.ColumnsTable {
	return func() *information_schema.ColumnsTable {
		ct := newTable()
		base := ct.RowIter
		pos := func(name string) int { return ct.TableSchema.IndexOfColName(name) }
		f := columnFields{
			schema: pos("TABLE_SCHEMA"), table: pos("TABLE_NAME"), column: pos("COLUMN_NAME"),
			def: pos("COLUMN_DEFAULT"), numPrec: pos("NUMERIC_PRECISION"), dtPrec: pos("DATETIME_PRECISION"),
			colType: pos("COLUMN_TYPE"), key: pos("COLUMN_KEY"), extra: pos("EXTRA"),
			genExpr: pos("GENERATION_EXPRESSION"), privs: pos("PRIVILEGES"), charMax: pos("CHARACTER_MAXIMUM_LENGTH"),
		}
		ct.RowIter = func(ctx *sql.Context, cat sql.Catalog, sch sql.Schema) (sql.RowIter, error) {
			it, err := base(ctx, cat, sch)
			if err != nil || !f.valid() {
				return it, err
			}
			return &columnsIter{RowIter: it, cat: cat, f: f, tables: map[[2]string]*table{}}, nil
		}
		return ct
	}
}

// columnFields are the ordinals of the fields MariaDBColumns rewrites.
type columnFields struct {
	schema, table, column, def, numPrec, dtPrec, colType, key, extra, genExpr, privs, charMax int
}

func (f *columnFields) valid() bool {
	for _, i := range []int{f.schema, f.table, f.column, f.def, f.numPrec, f.dtPrec, f.colType, f.key, f.extra, f.genExpr, f.privs, f.charMax} {
		if i < 0 {
			return false
		}
	}
	return true
}

// columnsIter rewrites the rows of one read of information_schema.COLUMNS.
type columnsIter struct {
	sql.RowIter
	cat    sql.Catalog
	f      columnFields
	tables map[[2]string]*table // nil value: not one of ours
}

// Next returns the next row, rewritten when it is a column of our table.
func (it *columnsIter) Next(ctx *sql.Context) (sql.Row, error) {
	row, err := it.RowIter.Next(ctx)
	if err != nil {
		return row, err
	}
	db, _ := row[it.f.schema].(string)
	name, _ := row[it.f.table].(string)
	col, _ := row[it.f.column].(string)
	t := it.lookup(ctx, db, name)
	if t == nil {
		return row, nil
	}
	i := t.t.Column(col)
	if i < 0 {
		return row, nil
	}
	c := &t.t.Columns[i]
	m := t.ts.meta
	out := make(sql.Row, len(row))
	copy(out, row)
	out[it.f.colType] = columnTypeText(c, nil, m)
	out[it.f.key] = columnKeys(t.t, t.keptMeta())[i]
	out[it.f.extra] = columnExtra(c, m)
	out[it.f.def] = nil
	if d, ok := columnDefault(c, m, true); ok {
		out[it.f.def] = d
	}
	out[it.f.genExpr] = nil
	if g := m.Generated[c.Name]; g != "" {
		out[it.f.genExpr] = checkExpr(g, t.t)
	}
	if p, ok := out[it.f.privs].(string); ok {
		out[it.f.privs] = mariaPrivileges(p)
	}
	switch c.Type.Kind {
	case types.MediumInt:
		if c.Type.Unsigned {
			out[it.f.numPrec] = uint64(8)
		}
	case types.Date:
		out[it.f.dtPrec] = nil
	case types.Time:
		out[it.f.dtPrec] = uint32(c.Type.Scale)
	case types.Text:
		// MariaDB counts a TEXT column's maximum length in bytes.
		out[it.f.charMax] = int64(c.Type.Length)
	}
	return out, nil
}

// lookup returns our table of that name in a MariaDB-mode provider, or nil.
func (it *columnsIter) lookup(ctx *sql.Context, db, name string) *table {
	key := [2]string{db, name}
	if t, ok := it.tables[key]; ok {
		return t
	}
	var found *table
	if st, _, err := it.cat.Table(ctx, db, name); err == nil {
		if t, ok := sql.GetUnderlyingTable(st).(*table); ok && t.db.p.maria {
			found = t
		}
	}
	it.tables[key] = found
	return found
}

// mariaPrivileges lists column privileges in MariaDB's order (select,
// insert, update, references); go-mysql-server sorts them by name.
func mariaPrivileges(p string) string {
	have := map[string]bool{}
	for _, w := range strings.Split(p, ",") {
		have[w] = true
	}
	var out []string
	for _, w := range []string{"select", "insert", "update", "references"} {
		if have[w] {
			out = append(out, w)
			delete(have, w)
		}
	}
	if len(have) > 0 || p == "" {
		return p // not only those four: left as it is
	}
	return strings.Join(out, ",")
}

// information_schema.CHECK_CONSTRAINTS as MariaDB 10.11 has it: with
// TABLE_NAME and LEVEL (Column for a check written on a column, and the
// column's own JSON check, named after the column), which go-mysql-server
// (MySQL 8's four columns) lacks; Django's MariaDB introspection reads
// c.table_name. The rows are the checks of every table the session may
// see, column checks in column order before the table's own.

// mariaCheckConstraintsSchema is MariaDB's column list.
var mariaCheckConstraintsSchema = sql.Schema{
	{Name: "CONSTRAINT_CATALOG", Type: gtypes.MustCreateString(sqltypes.VarChar, 512, sql.Collation_Information_Schema_Default), Nullable: false, Source: information_schema.CheckConstraintsTableName},
	{Name: "CONSTRAINT_SCHEMA", Type: gtypes.MustCreateString(sqltypes.VarChar, 64, sql.Collation_Information_Schema_Default), Nullable: false, Source: information_schema.CheckConstraintsTableName},
	{Name: "TABLE_NAME", Type: gtypes.MustCreateString(sqltypes.VarChar, 64, sql.Collation_Information_Schema_Default), Nullable: false, Source: information_schema.CheckConstraintsTableName},
	{Name: "CONSTRAINT_NAME", Type: gtypes.MustCreateString(sqltypes.VarChar, 64, sql.Collation_Information_Schema_Default), Nullable: false, Source: information_schema.CheckConstraintsTableName},
	{Name: "LEVEL", Type: gtypes.MustCreateString(sqltypes.VarChar, 6, sql.Collation_Information_Schema_Default), Nullable: false, Source: information_schema.CheckConstraintsTableName},
	{Name: "CHECK_CLAUSE", Type: gtypes.LongText, Nullable: false, Source: information_schema.CheckConstraintsTableName},
}

// MariaDBCheckConstraints gives the information_schema of catalog c
// MariaDB's CHECK_CONSTRAINTS (the table object of that catalog's
// information_schema is changed, no package state); it is called once,
// when the analyzer is built, before any session reads it.
func MariaDBCheckConstraints(c *analyzer.Catalog) {
	if c == nil || c.InfoSchema == nil {
		return
	}
	t, ok, err := c.InfoSchema.GetTableInsensitive(sql.NewEmptyContext(), information_schema.CheckConstraintsTableName)
	if err != nil || !ok {
		return
	}
	it, ok := t.(*information_schema.InformationSchemaTable)
	if !ok {
		return
	}
	it.TableSchema = mariaCheckConstraintsSchema
	it.Reader = mariaCheckConstraintsRows
}

// mariaCheckConstraintsRows are the rows of MariaDB's CHECK_CONSTRAINTS.
func mariaCheckConstraintsRows(ctx *sql.Context, c sql.Catalog) (sql.RowIter, error) {
	dbs, err := information_schema.AllDatabasesWithNames(ctx, c, false)
	if err != nil {
		return nil, err
	}
	var rows []sql.Row
	for _, db := range dbs {
		names, err := db.Database.GetTableNames(ctx)
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			tbl, _, err := c.DatabaseTable(ctx, db.Database, name)
			if err != nil {
				return nil, err
			}
			ct, ok := tbl.(sql.CheckTable)
			if !ok {
				continue
			}
			checks, err := ct.GetChecks(ctx)
			if err != nil {
				return nil, err
			}
			type colCheck struct {
				pos int
				row sql.Row
			}
			var cols []colCheck
			var tables []sql.Row
			prefix := strings.ToLower(tbl.Name()) + "."
			seen := map[string]bool{}
			for _, ch := range checks {
				if strings.HasPrefix(strings.ToLower(ch.Name), prefix) {
					col := ch.Name[len(prefix):]
					// a JSON column written with CHECK (JSON_VALID(col)) has
					// that check once, as in MariaDB
					key := strings.ToLower(col + "\x00" + strings.ReplaceAll(ch.CheckExpression, "`", ""))
					if seen[key] {
						continue
					}
					seen[key] = true
					cols = append(cols, colCheck{tbl.Schema().IndexOfColName(col),
						sql.Row{db.CatalogName, db.SchemaName, tbl.Name(), col, "Column", ch.CheckExpression}})
					continue
				}
				tables = append(tables, sql.Row{db.CatalogName, db.SchemaName, tbl.Name(), ch.Name, "Table", ch.CheckExpression})
			}
			sort.SliceStable(cols, func(i, j int) bool { return cols[i].pos < cols[j].pos })
			for _, cc := range cols {
				rows = append(rows, cc.row)
			}
			rows = append(rows, tables...)
		}
	}
	return sql.RowsToRowIter(rows...), nil
}

// MariaDBTableTimes gives information_schema.TABLES of catalog c MariaDB's
// CREATE_TIME and UPDATE_TIME, where go-mysql-server has 2000-01-01 in
// both for every table and view: a table's creation (or last rebuild by
// ALTER TABLE) and the last commit that changed its rows since the server
// started (NULL before one, as InnoDB keeps it in memory); a view's are
// NULL. It is called once, when the analyzer is built, before any session
// reads the table.
func MariaDBTableTimes(c *analyzer.Catalog) {
	if c == nil || c.InfoSchema == nil {
		return
	}
	t, ok, err := c.InfoSchema.GetTableInsensitive(sql.NewEmptyContext(), information_schema.TablesTableName)
	if err != nil || !ok {
		return
	}
	it, ok := t.(*information_schema.InformationSchemaTable)
	if !ok {
		return
	}
	sch := it.Schema()
	schema, name, kind := sch.IndexOfColName("TABLE_SCHEMA"), sch.IndexOfColName("TABLE_NAME"), sch.IndexOfColName("TABLE_TYPE")
	created, updated := sch.IndexOfColName("CREATE_TIME"), sch.IndexOfColName("UPDATE_TIME")
	if schema < 0 || name < 0 || kind < 0 || created < 0 || updated < 0 {
		return
	}
	read := it.Reader
	it.Reader = func(ctx *sql.Context, cat sql.Catalog) (sql.RowIter, error) {
		iter, err := read(ctx, cat)
		if err != nil {
			return nil, err
		}
		rows, err := sql.RowIterToRows(ctx, iter)
		if err != nil {
			return nil, err
		}
		for _, r := range rows {
			r[created], r[updated] = nil, nil
			if r[kind] != "BASE TABLE" {
				continue
			}
			et := tableTimesOf(ctx, cat, r[schema], r[name])
			if et == nil {
				continue
			}
			if !et.Created.IsZero() {
				r[created] = et.Created
			}
			if u := et.Updated(); !u.IsZero() {
				r[updated] = u.Truncate(time.Second)
			}
		}
		return sql.RowsToRowIter(rows...), nil
	}
}

// tableTimesOf returns the engine table named by an information_schema
// row's schema and name, or nil.
func tableTimesOf(ctx *sql.Context, cat sql.Catalog, schema, name any) *engine.Table {
	s, ok1 := schema.(string)
	n, ok2 := name.(string)
	if !ok1 || !ok2 {
		return nil
	}
	db, err := cat.Database(ctx, s)
	if err != nil {
		return nil
	}
	t, ok, err := db.GetTableInsensitive(ctx, n)
	if err != nil || !ok {
		return nil
	}
	if bt, ok := t.(*table); ok {
		return bt.t
	}
	return nil
}

// MariaDBViews gives the information_schema of catalog c MariaDB's VIEWS:
// go-mysql-server's (MySQL 8's) columns and ALGORITHM, SECURITY_TYPE in
// capitals, and the CHECK_OPTION (go-mysql-server left it NONE). Its
// rows are read anew (mariaViewsRows): go-mysql-server's reader listed no
// view to a session whose privileges it had not cached yet (any account
// but one that had just run other statements) and skipped every view
// naming a table without its database unless that database was the
// current one. It is called once, when the analyzer is built.
func MariaDBViews(c *analyzer.Catalog) {
	if c == nil || c.InfoSchema == nil {
		return
	}
	t, ok, err := c.InfoSchema.GetTableInsensitive(sql.NewEmptyContext(), information_schema.ViewsTableName)
	if err != nil || !ok {
		return
	}
	it, ok := t.(*information_schema.InformationSchemaTable)
	if !ok || len(it.Schema()) != len(viewsColumns) {
		return
	}
	for i, c := range it.Schema() {
		if !strings.EqualFold(c.Name, viewsColumns[i]) {
			return
		}
	}
	it.TableSchema = append(it.Schema().Copy(), &sql.Column{Name: "ALGORITHM",
		Type: gtypes.MustCreateString(sqltypes.VarChar, 10, sql.Collation_Information_Schema_Default), Nullable: false, Source: information_schema.ViewsTableName})
	it.Reader = mariaViewsRows
}

// viewsColumns are go-mysql-server's columns of VIEWS, in order, which
// mariaViewsRows fills (and ALGORITHM after them).
var viewsColumns = [...]string{"TABLE_CATALOG", "TABLE_SCHEMA", "TABLE_NAME", "VIEW_DEFINITION", "CHECK_OPTION", "IS_UPDATABLE",
	"DEFINER", "SECURITY_TYPE", "CHARACTER_SET_CLIENT", "COLLATION_CONNECTION"}

// mariaViewsRows are the rows of MariaDB's VIEWS: the views of every
// database the session may see on which it has SHOW VIEW (globally, on
// the database or on the view), each read in its own database.
func mariaViewsRows(ctx *sql.Context, cat sql.Catalog) (sql.RowIter, error) {
	var priv sql.PrivilegeSet
	if ac, ok := cat.(*analyzer.Catalog); ok && ac.MySQLDb != nil && ac.MySQLDb.Enabled() {
		priv = ac.MySQLDb.UserActivePrivilegeSet(ctx)
	}
	// (the databases unwrapped: the privileged wrapper lists no views)
	dbs, err := information_schema.AllDatabasesWithNames(ctx, cat, true)
	if err != nil {
		return nil, err
	}
	var rows []sql.Row
	for _, db := range dbs {
		views, err := information_schema.ViewsInDatabase(ctx, db.Database)
		if err != nil {
			return nil, err
		}
		if len(views) == 0 {
			continue
		}
		coll := plan.GetDatabaseCollation(ctx, db.Database)
		for _, v := range views {
			if priv != nil && !priv.Has(sql.PrivilegeType_ShowView) && !priv.Database(db.Database.Name()).Has(sql.PrivilegeType_ShowView) &&
				!priv.Database(db.Database.Name()).Table(v.Name).Has(sql.PrivilegeType_ShowView) {
				continue
			}
			h, ok := viewHeadOf(ctx, v) // views.go
			if !ok {
				continue
			}
			updatable := "YES"
			if !h.updatable {
				updatable = "NO"
			}
			text := mariaViewText(ctx, cat, db.Database.Name(), v, true, true)
			if text == "" {
				text = h.text
			}
			rows = append(rows, sql.Row{db.CatalogName, db.SchemaName, v.Name, text, h.check, updatable,
				h.definer, h.security, coll.CharacterSet().String(), coll.String(), h.algorithm})
		}
	}
	return sql.RowsToRowIter(rows...), nil
}
