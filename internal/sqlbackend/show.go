package sqlbackend

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// SHOW CREATE TABLE, DESCRIBE, SHOW [FULL] COLUMNS and SHOW INDEX as
// MariaDB 10.11 prints them.
//
// go-mysql-server prints a table from its go-mysql-server schema, in
// MySQL 8's words (int for int(11), no DEFAULT NULL, time(6) for time,
// CHECK constraints all at the end). With Provider.MariaDB, an analyzer rule
// replaces those statements' nodes, for HandlerDB's tables, by nodes that
// print from the engine's definition (types.Type.String is MariaDB's type
// text) and the SQL attributes of meta.go. What go-mysql-server took from
// its interfaces still comes from them: the indexes and their prefix
// lengths from table.GetIndexes, foreign keys from GetDeclaredForeignKeys.
// Without Provider.MariaDB (go-mysql-server's own enginetest expects its
// output) nothing changes. The nodes are built per statement and run on
// its goroutine; the rule itself is a pure function of the plan.

// MariaDB makes the provider answer as MariaDB where go-mysql-server's
// own enginetest expects go-mysql-server's answers: SHOW CREATE TABLE,
// DESCRIBE and SHOW COLUMNS print HandlerDB's tables as MariaDB does, an
// unnamed CHECK constraint is CONSTRAINT_<n> (not <table>_chk_<n>) and a
// failed one is error 4025 (checks.go). Call it before the provider serves
// statements (it is not synchronized).
func (p *Provider) MariaDB() { p.maria = true }

// mariaShowRule replaces SHOW CREATE TABLE and SHOW COLUMNS of our tables.
func MariaShowRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch n := n.(type) {
		case *plan.ShowCreateTable:
			if n.IsView {
				if v := showCreateViewOf(ctx, a, n); v != nil { // views.go
					return v, transform.NewTree, nil
				}
				return n, transform.SameTree, nil
			}
			if t := ourTable(n.Child); t != nil && t.db.p.maria {
				return &showCreate{showNode: showNode{n.Schema()}, t: t}, transform.NewTree, nil
			}
		case *plan.ShowColumns:
			if t := ourTable(n.Child); t != nil && t.db.p.maria {
				return &showColumns{showNode: showNode{n.Schema()}, t: t, full: n.Full}, transform.NewTree, nil
			}
		case *plan.ShowIndexes:
			if t := ourTable(n.Child); t != nil && t.db.p.maria {
				return &showIndexes{showNode: showNode{showIndexesSchema}, t: t}, transform.NewTree, nil
			}
		}
		return n, transform.SameTree, nil
	})
}

// showNode is what both nodes share: no children, a fixed schema.
type showNode struct{ schema sql.Schema }

func (s *showNode) Resolved() bool       { return true }
func (s *showNode) Schema() sql.Schema   { return s.schema }
func (s *showNode) Children() []sql.Node { return nil }
func (s *showNode) IsReadOnly() bool     { return true }

// showCreate is SHOW CREATE TABLE of one table.
type showCreate struct {
	showNode
	t *table
}

func (s *showCreate) String() string { return "SHOW CREATE TABLE " + s.t.Name() }

// WithChildren accepts no children.
func (s *showCreate) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), 0)
	}
	return s, nil
}

// RowIter returns the one row: the name and the statement.
func (s *showCreate) RowIter(ctx *sql.Context, _ sql.Row) (sql.RowIter, error) {
	text, err := s.t.createStatement(ctx)
	if err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.Row{s.t.Name(), text}), nil
}

// showColumns is DESCRIBE / SHOW [FULL] COLUMNS of one table.
type showColumns struct {
	showNode
	t    *table
	full bool
}

func (s *showColumns) String() string { return "SHOW COLUMNS FROM " + s.t.Name() }

// WithChildren accepts no children.
func (s *showColumns) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), 0)
	}
	return s, nil
}

// RowIter returns a row per column.
func (s *showColumns) RowIter(ctx *sql.Context, _ sql.Row) (sql.RowIter, error) {
	t := s.t.t
	m := s.t.ts.meta
	keys := columnKeys(t, s.t.keptMeta())
	rows := make([]sql.Row, 0, len(t.Columns))
	for i := range t.Columns {
		c := &t.Columns[i]
		null := "NO"
		if c.Nullable {
			null = "YES"
		}
		var def interface{}
		if d, ok := columnDefault(c, m, false); ok {
			def = d
		}
		extra := columnExtra(c, m)
		typ := columnTypeText(c, nil, m)
		if !s.full {
			rows = append(rows, sql.Row{c.Name, typ, null, keys[i], def, extra})
			continue
		}
		var coll interface{}
		if cc := columnCollation(c); cc != nil {
			coll = cc.Name
		}
		rows = append(rows, sql.Row{c.Name, typ, coll, null, keys[i], def, extra,
			"select,insert,update,references", m.Comments[c.Name]})
	}
	return sql.RowsToRowIter(rows...), nil
}

// showIndexesSchema is MariaDB's SHOW INDEX (Ignored where MySQL 8 has
// Visible and Expression).
var showIndexesSchema = sql.Schema{
	{Name: "Table", Type: gtypes.LongText},
	{Name: "Non_unique", Type: gtypes.Int64},
	{Name: "Key_name", Type: gtypes.LongText},
	{Name: "Seq_in_index", Type: gtypes.Int64},
	{Name: "Column_name", Type: gtypes.LongText, Nullable: true},
	{Name: "Collation", Type: gtypes.LongText, Nullable: true},
	{Name: "Cardinality", Type: gtypes.Int64, Nullable: true},
	{Name: "Sub_part", Type: gtypes.Int64, Nullable: true},
	{Name: "Packed", Type: gtypes.LongText, Nullable: true},
	{Name: "Null", Type: gtypes.LongText},
	{Name: "Index_type", Type: gtypes.LongText},
	{Name: "Comment", Type: gtypes.LongText},
	{Name: "Index_comment", Type: gtypes.LongText},
	{Name: "Ignored", Type: gtypes.LongText},
}

// showIndexes is SHOW INDEX / SHOW KEYS of one table.
type showIndexes struct {
	showNode
	t *table
}

func (s *showIndexes) String() string { return "SHOW INDEX FROM " + s.t.Name() }

// WithChildren accepts no children.
func (s *showIndexes) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), 0)
	}
	return s, nil
}

// RowIter returns a row per column of each index, SPATIAL ones where they
// were created among the others, FULLTEXT ones last (MariaDB's order).
// Cardinality is the table's row count (InnoDB's estimate is that for a
// freshly analysed small table's unique keys, and an estimate anyway).
func (s *showIndexes) RowIter(ctx *sql.Context, _ sql.Row) (sql.RowIter, error) {
	et := s.t.t
	name := sqlName(et)
	rows64, _, err := s.t.db.p.rowCount(et)
	if err != nil {
		return nil, err
	}
	idxs, err := s.t.GetIndexes(ctx)
	if err != nil {
		return nil, err
	}
	m, err := s.t.db.p.tableMeta(et.ID)
	if err != nil {
		return nil, err
	}
	var rows []sql.Row
	spatial := func(x *textIndexDef) {
		for i, col := range x.Columns {
			rows = append(rows, sql.Row{name, int64(1), x.Name, int64(i + 1), col, "A", nil, int64(32), nil, "", "SPATIAL", "", x.Comment, "NO"})
		}
	}
	sl := newSpatialLister(m)
	secondary := 0
	for _, ix := range idxs {
		if ix.ID() != "PRIMARY" {
			sl.at(secondary, spatial)
			secondary++
		}
		nonUnique := int64(1)
		if ix.IsUnique() {
			nonUnique = 0
		}
		pl := ix.PrefixLengths()
		for i, e := range ix.Expressions() {
			_, col, _ := strings.Cut(e, ".")
			null := ""
			if c := et.Column(col); c >= 0 && et.Columns[c].Nullable {
				null = "YES"
			}
			var sub interface{}
			if i < len(pl) && pl[i] != 0 {
				sub = int64(pl[i])
			}
			rows = append(rows, sql.Row{name, nonUnique, ix.ID(), int64(i + 1), col, "A", int64(rows64), sub, nil, null, "BTREE", "", ix.Comment(), "NO"})
		}
	}
	sl.at(-1, spatial)
	for _, x := range m.TextIndexes {
		if x.Spatial {
			continue
		}
		for i, col := range x.Columns {
			null := ""
			if c := et.Column(col); c >= 0 && et.Columns[c].Nullable {
				null = "YES"
			}
			rows = append(rows, sql.Row{name, int64(1), x.Name, int64(i + 1), col, nil, nil, nil, nil, null, "FULLTEXT", "", x.Comment, "NO"})
		}
	}
	return sql.RowsToRowIter(rows...), nil
}

// columnCollation is the collation of a character column, nil for others.
func columnCollation(c *types.Column) *collation.Collation {
	if isJSON(&c.Type) {
		return collation.Utf8mb4Bin
	}
	if c.Type.Collation != nil && (c.Type.IsString() || c.Type.Kind == types.Enum || c.Type.Kind == types.Set) {
		return c.Type.Collation
	}
	return nil
}

// columnTypeText is the column's type as MariaDB prints it; with a table
// collation, followed by CHARACTER SET and COLLATE when the column's
// collation differs from the table's (SHOW CREATE TABLE), else bare
// (DESCRIBE).
func columnTypeText(c *types.Column, tableColl *collation.Collation, m *tableMeta) string {
	s := columnTypeTextOf(c, tableColl)
	if w := m.width(c.Name); w != "" {
		if i := strings.IndexByte(s, '('); i > 0 {
			if j := strings.IndexByte(s[i:], ')'); j > 0 {
				s = s[:i+1] + w + s[i+j:]
			}
		}
	}
	return s
}

// columnTypeTextOf is columnTypeText without a kept display width.
func columnTypeTextOf(c *types.Column, tableColl *collation.Collation) string {
	if isJSON(&c.Type) {
		s := "longtext"
		if tableColl != nil && tableColl != collation.Utf8mb4Bin {
			s += " CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
		}
		return s
	}
	bare := c.Type
	bare.Collation = nil
	s := bare.String()
	if cc := columnCollation(c); cc != nil && tableColl != nil && cc != tableColl {
		s += " CHARACTER SET " + cc.Charset + " COLLATE " + cc.Name
	}
	return s
}

// columnDefault is the column's default as MariaDB prints it: quoted
// where SHOW CREATE TABLE quotes it (quoted set), bare as DESCRIBE shows
// it. ok is false when the column has none to print (NOT NULL without a
// DEFAULT; a nullable column's default is NULL).
func columnDefault(c *types.Column, m *tableMeta, quoted bool) (string, bool) {
	if m.Generated[c.Name] != "" {
		return "NULL", !quoted
	}
	if e, ok := m.Defaults[c.Name]; ok && e != "" {
		if e == "NULL" {
			return "NULL", true
		}
		return defaultExpr(e), true
	}
	if c.DefaultCurrentTimestamp {
		return nowText(c.Type.Scale), true
	}
	if c.Default == nil || c.Default.Null {
		if c.Nullable && !c.AutoIncrement {
			return "NULL", true
		}
		return "", false
	}
	v := *c.Default
	switch c.Type.Kind {
	case types.TinyInt, types.SmallInt, types.MediumInt, types.Int, types.BigInt, types.Decimal, types.Float, types.Double, types.Year:
		return string(types.AppendFormat(nil, &c.Type, v)), true
	case types.Bit:
		return "b'" + strconv.FormatUint(uint64(v.I), 2) + "'", true
	}
	s := string(types.AppendFormat(nil, &c.Type, v))
	if quoted {
		return quoteString(s), true
	}
	return s, true
}

// nowText is MariaDB's spelling of CURRENT_TIMESTAMP with a precision.
func nowText(scale uint8) string {
	if scale > 0 {
		return fmt.Sprintf("current_timestamp(%d)", scale)
	}
	return "current_timestamp()"
}

// onUpdateText is the column's ON UPDATE as MariaDB prints it, or "".
func onUpdateText(c *types.Column, m *tableMeta) string {
	e := m.OnUpdate[c.Name]
	if e == "" {
		return ""
	}
	if isNowText(e) {
		return nowText(c.Type.Scale)
	}
	return mariaExpr(e)
}

// isNowText reports whether an expression's text is CURRENT_TIMESTAMP or
// one of its synonyms.
func isNowText(e string) bool {
	s := strings.ToLower(strings.Trim(e, "()"))
	s, _, _ = strings.Cut(s, "(")
	switch s {
	case "current_timestamp", "now", "localtime", "localtimestamp":
		return true
	}
	return false
}

// columnExtra is DESCRIBE's Extra of a column.
func columnExtra(c *types.Column, m *tableMeta) string {
	var parts []string
	if m.Generated[c.Name] != "" {
		if m.Stored[c.Name] != "" {
			return "STORED GENERATED"
		}
		return "VIRTUAL GENERATED"
	}
	if c.AutoIncrement {
		parts = append(parts, "auto_increment")
	}
	if u := onUpdateText(c, m); u != "" {
		parts = append(parts, "on update "+u)
	}
	return strings.Join(parts, " ")
}

// mariaExpr prints a stored expression text as MariaDB does: without the
// outer parentheses go-mysql-server adds, CURRENT_TIMESTAMP spelled
// current_timestamp().
func mariaExpr(e string) string {
	e = strings.TrimSpace(e)
	for len(e) >= 2 && e[0] == '(' && e[len(e)-1] == ')' && balanced(e[1:len(e)-1]) {
		e = e[1 : len(e)-1]
	}
	if isNowText(e) {
		return "current_timestamp()"
	}
	return e
}

// defaultExpr prints a DEFAULT expression as MariaDB does: the stored
// text without the one pair of parentheses go-mysql-server puts around
// it (so (k * 2) keeps its own, as MariaDB prints an operator's), and
// CURRENT_TIMESTAMP spelled current_timestamp().
func defaultExpr(e string) string {
	e = strings.TrimSpace(e)
	if len(e) >= 2 && e[0] == '(' && e[len(e)-1] == ')' && balanced(e[1:len(e)-1]) {
		e = e[1 : len(e)-1]
	}
	if isNowText(e) {
		return "current_timestamp()"
	}
	return e
}

// checkExpr prints a CHECK expression closer to MariaDB's text: outer
// parentheses dropped and the table's column names in backquotes. (The
// stored text is go-mysql-server's; an expression with AND, OR or NOT is
// still printed in its words, e.g. (a > 0) AND (b > 0).)
func checkExpr(e string, t *engine.Table) string {
	e = mariaExpr(e)
	var b strings.Builder
	for i := 0; i < len(e); {
		c := e[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(e) && e[j] != c {
				if e[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(e))
			b.WriteString(e[i:j])
			i = j
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(e) && (e[j] == '_' || e[j] >= 'a' && e[j] <= 'z' || e[j] >= 'A' && e[j] <= 'Z' || e[j] >= '0' && e[j] <= '9') {
				j++
			}
			w := e[i:j]
			if j < len(e) && e[j] == '(' || t.Column(w) < 0 {
				b.WriteString(w)
			} else {
				b.WriteString(quoteIdent(w))
			}
			i = j
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String()
}

// quoteString quotes s as MariaDB quotes a default value.
func quoteString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, "'", "''").Replace(s) + "'"
}

// columnKeys is DESCRIBE's Key of each column, as MariaDB sets it: PRI
// for every column of the primary key (or, without one, of the first
// unique index whose columns are all NOT NULL, which InnoDB makes the
// primary key), UNI for the column of a one-column unique index, MUL for
// the first column of any other index, kept FULLTEXT and SPATIAL ones of
// m too.
func columnKeys(t *engine.Table, m *tableMeta) []string {
	keys := make([]string, len(t.Columns))
	pk := t.Primary
	if pk == nil || pk.Hidden {
		pk = nil
		for _, idx := range t.Indexes {
			if idx.Unique && allNotNull(t, idx) {
				pk = idx
				break
			}
		}
	}
	if pk != nil {
		for _, c := range pk.Columns {
			keys[c] = "PRI"
		}
	}
	for _, idx := range t.Indexes {
		if idx == pk || IsHelperIndex(idx) || len(idx.Columns) == 0 {
			continue
		}
		c := idx.Columns[0]
		switch {
		case keys[c] != "":
		case idx.Unique && len(idx.Columns) == 1:
			keys[c] = "UNI"
		default:
			keys[c] = "MUL"
		}
	}
	for _, x := range m.TextIndexes {
		if len(x.Columns) > 0 {
			if c := t.Column(x.Columns[0]); c >= 0 && keys[c] == "" {
				keys[c] = "MUL"
			}
		}
	}
	// A UNI found after a MUL wins, as MariaDB checks the unique flag
	// first.
	for _, idx := range t.Indexes {
		if idx != pk && idx.Unique && len(idx.Columns) == 1 && keys[idx.Columns[0]] == "MUL" {
			keys[idx.Columns[0]] = "UNI"
		}
	}
	return keys
}

func allNotNull(t *engine.Table, idx *engine.Index) bool {
	for _, c := range idx.Columns {
		if t.Columns[c].Nullable {
			return false
		}
	}
	return true
}

// createStatement is the table's CREATE TABLE statement as MariaDB's SHOW
// CREATE TABLE prints it.
func (t *table) createStatement(ctx *sql.Context) (string, error) {
	et := t.t
	m, err := t.db.p.tableMeta(et.ID)
	if err != nil {
		return "", err
	}
	tcoll := et.Collation
	if tcoll == nil {
		tcoll = collation.Default
	}
	var lines []string
	for i := range et.Columns {
		c := &et.Columns[i]
		var b strings.Builder
		b.WriteString("  " + quoteIdent(c.Name) + " " + columnTypeText(c, tcoll, m))
		if g := m.Generated[c.Name]; g != "" {
			kind := " VIRTUAL"
			if m.Stored[c.Name] != "" {
				kind = " STORED"
			}
			b.WriteString(" GENERATED ALWAYS AS (" + checkExpr(g, et) + ")" + kind)
		}
		if !c.Nullable {
			b.WriteString(" NOT NULL")
		} else if c.Type.Kind == types.Timestamp {
			b.WriteString(" NULL") // MariaDB spells out a nullable TIMESTAMP
		}
		if d, ok := columnDefault(c, m, true); ok {
			b.WriteString(" DEFAULT " + d)
		}
		if u := onUpdateText(c, m); u != "" {
			b.WriteString(" ON UPDATE " + u)
		}
		if c.AutoIncrement {
			b.WriteString(" AUTO_INCREMENT")
		}
		if cm := m.Comments[c.Name]; cm != "" {
			b.WriteString(" COMMENT " + quoteString(cm))
		}
		if m.JSON[c.Name] != "" {
			b.WriteString(" CHECK (json_valid(" + quoteIdent(c.Name) + "))")
		}
		for _, ck := range m.Checks {
			if strings.EqualFold(m.columnCheck(ck.Name), c.Name) {
				b.WriteString(" CHECK (" + checkExpr(ck.CheckExpression, et) + ")")
			}
		}
		lines = append(lines, b.String())
	}
	idxs, err := t.GetIndexes(ctx)
	if err != nil {
		return "", err
	}
	kept := func(x *textIndexDef) {
		kind := "FULLTEXT"
		if x.Spatial {
			kind = "SPATIAL"
		}
		s := "  " + kind + " KEY " + quoteIdent(x.Name) + " (" + quoteJoin(x.Columns, ",") + ")"
		if x.Comment != "" {
			s += " COMMENT " + quoteString(x.Comment)
		}
		lines = append(lines, s)
	}
	sl := newSpatialLister(m)
	secondary := 0
	for _, ix := range idxs {
		if ix.ID() != "PRIMARY" {
			sl.at(secondary, kept)
			secondary++
		}
		lines = append(lines, "  "+indexClause(ix))
	}
	sl.at(-1, kept)
	for i := range m.TextIndexes {
		if !m.TextIndexes[i].Spatial {
			kept(&m.TextIndexes[i])
		}
	}
	fks, err := t.GetDeclaredForeignKeys(ctx)
	if err != nil {
		return "", err
	}
	for _, fk := range fks {
		lines = append(lines, "  "+foreignKeyClause(t.db.name, &fk))
	}
	for _, c := range m.Checks {
		if m.columnCheck(c.Name) == "" {
			lines = append(lines, "  CONSTRAINT "+quoteIdent(c.Name)+" CHECK ("+checkExpr(c.CheckExpression, et)+")")
		}
	}
	var b strings.Builder
	b.WriteString("CREATE ")
	if isTemporary(et) {
		b.WriteString("TEMPORARY ")
	}
	b.WriteString("TABLE " + quoteIdent(sqlName(et)) + " (\n")
	b.WriteString(strings.Join(lines, ",\n"))
	b.WriteString("\n) ENGINE=InnoDB")
	if n := et.AutoIncrementNext(); et.AutoInc >= 0 && n > 1 {
		fmt.Fprintf(&b, " AUTO_INCREMENT=%d", n)
	}
	if tcoll.Charset == "binary" {
		b.WriteString(" DEFAULT CHARSET=binary") // MariaDB prints no COLLATE for binary
	} else {
		fmt.Fprintf(&b, " DEFAULT CHARSET=%s COLLATE=%s", tcoll.Charset, tcoll.Name)
	}
	if et.Comment != "" {
		b.WriteString(" COMMENT=" + quoteString(et.Comment))
	}
	return b.String(), nil
}

// indexClause prints one index of SHOW CREATE TABLE.
func indexClause(ix sql.Index) string {
	var cols []string
	pl := ix.PrefixLengths()
	for i, e := range ix.Expressions() {
		_, col, _ := strings.Cut(e, ".")
		s := quoteIdent(col)
		if i < len(pl) && pl[i] != 0 {
			s += fmt.Sprintf("(%d)", pl[i])
		}
		cols = append(cols, s)
	}
	var kind string
	switch {
	case ix.ID() == "PRIMARY":
		s := "PRIMARY KEY (" + strings.Join(cols, ",") + ")"
		if x, ok := ix.(*index); ok && x.using != "" {
			s += " USING " + x.using
		}
		return s
	case ix.IsFullText():
		kind = "FULLTEXT "
	case ix.IsSpatial():
		kind = "SPATIAL "
	case ix.IsUnique():
		kind = "UNIQUE "
	}
	s := kind + "KEY " + quoteIdent(ix.ID()) + " (" + strings.Join(cols, ",") + ")"
	if x, ok := ix.(*index); ok && x.using != "" {
		s += " USING " + x.using
	}
	if c := ix.Comment(); c != "" {
		s += " COMMENT " + quoteString(c)
	}
	return s
}

// foreignKeyClause prints one foreign key of SHOW CREATE TABLE (the
// parent's database only when it is another).
func foreignKeyClause(db string, fk *sql.ForeignKeyConstraint) string {
	parent := quoteIdent(fk.ParentTable)
	if fk.ParentDatabase != "" && !strings.EqualFold(fk.ParentDatabase, db) {
		parent = quoteIdent(fk.ParentDatabase) + "." + parent
	}
	s := "CONSTRAINT " + quoteIdent(fk.Name) + " FOREIGN KEY (" + quoteIdents(fk.Columns) +
		") REFERENCES " + parent + " (" + quoteIdents(fk.ParentColumns) + ")"
	if a := fk.OnDelete; a != "" && a != sql.ForeignKeyReferentialAction_DefaultAction && a != sql.ForeignKeyReferentialAction_Restrict {
		s += " ON DELETE " + string(a)
	}
	if a := fk.OnUpdate; a != "" && a != sql.ForeignKeyReferentialAction_DefaultAction && a != sql.ForeignKeyReferentialAction_Restrict {
		s += " ON UPDATE " + string(a)
	}
	return s
}

// quoteJoin quotes names and joins them with sep.
func quoteJoin(names []string, sep string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteIdent(n)
	}
	return strings.Join(q, sep)
}
