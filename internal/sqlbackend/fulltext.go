package sqlbackend

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/types"
)

// FULLTEXT and SPATIAL indexes are accepted and kept, not built.
//
// The engine has neither full-text nor spatial (R-tree) indexes.
// go-mysql-server builds a full-text index from auxiliary tables a storage
// integration provides, and refuses FULLTEXT otherwise. textIndexRule
// takes the FULLTEXT and SPATIAL indexes out of CREATE TABLE (also ...
// LIKE a table that keeps some), ALTER TABLE ... ADD FULLTEXT|SPATIAL and
// CREATE FULLTEXT|SPATIAL INDEX, and the table keeps their definitions
// with its SQL attributes (tableMeta.TextIndexes, Spatial set for a
// SPATIAL one): SHOW CREATE TABLE, SHOW INDEX and DESCRIBE print them,
// DROP INDEX drops them, and no write maintains them. A query on the
// words of such a column scans the table (LIKE, INSTR, and MATCH ...
// AGAINST, which match.go evaluates row by row); ST_Contains, MBRContains
// and the other spatial functions scan too. The rule reads the catalog
// only; its nodes are built per statement.

// textIndexDef is a kept FULLTEXT index, or with Spatial a SPATIAL one.
type textIndexDef struct {
	Name    string   `json:"name"`
	Columns []string `json:"columns"`
	Comment string   `json:"comment,omitempty"`
	Spatial bool     `json:"spatial,omitempty"`
	// After is, for a SPATIAL index, the number of the table's other
	// secondary indexes created before it: MariaDB lists SPATIAL indexes
	// in creation order among the others (and FULLTEXT ones last).
	After int `json:"after,omitempty"`
}

// spatialLister lists a table's SPATIAL indexes among its other ones,
// for one SHOW; it never changes the attributes it reads.
type spatialLister struct {
	m    *tableMeta
	done []bool
}

func newSpatialLister(m *tableMeta) *spatialLister {
	return &spatialLister{m: m, done: make([]bool, len(m.TextIndexes))}
}

// at calls f for each SPATIAL index not listed yet that comes after the
// first n other secondary indexes; n < 0 calls it for all those left
// (their After is beyond the indexes the table still has).
func (l *spatialLister) at(n int, f func(x *textIndexDef)) {
	for i := range l.m.TextIndexes {
		x := &l.m.TextIndexes[i]
		if x.Spatial && !l.done[i] && (n < 0 || x.After <= n) {
			l.done[i] = true
			f(x)
		}
	}
}

// keptIndex reports whether d is an index the table keeps without
// building it.
func keptIndex(d *sql.IndexDef) bool { return d.IsFullText() || d.IsSpatial() }

func TextIndexRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch n := n.(type) {
		case *plan.CreateTable:
			if m := likeSourceMeta(ctx, n); m != nil {
				return likeKeptIndexes(n, m)
			}
			var keep, text sql.IndexDefs
			var after []int
			for _, d := range n.Indexes() {
				if keptIndex(d) {
					text = append(text, d)
					after = append(after, secondaryCount(keep))
				} else {
					keep = append(keep, d)
				}
			}
			if len(text) == 0 || n.Temporary() {
				return n, transform.SameTree, nil
			}
			ct, err := n.WithIndexDefs(keep)
			if err != nil {
				return nil, transform.SameTree, err
			}
			return &createWithText{child: ct, ct: ct, defs: text, after: after}, transform.NewTree, nil
		case *plan.AlterIndex:
			t := ourTable(n.Table)
			if t != nil && n.Action == plan.IndexAction_Drop && t.hasTextIndex(n.IndexName) {
				return &addTextIndex{t: t, def: &sql.IndexDef{Name: n.IndexName}, drop: true}, transform.NewTree, nil
			}
			if n.Action != plan.IndexAction_Create || (n.Constraint != sql.IndexConstraint_Fulltext && n.Constraint != sql.IndexConstraint_Spatial) {
				return n, transform.SameTree, nil
			}
			if t != nil {
				d := &sql.IndexDef{Name: n.IndexName, Columns: n.Columns, Constraint: n.Constraint, Comment: n.Comment}
				return &addTextIndex{t: t, def: d}, transform.NewTree, nil
			}
		}
		return n, transform.SameTree, nil
	})
}

// likeSourceMeta returns the SQL attributes of the source table of a
// CREATE TABLE ... LIKE when it keeps FULLTEXT or SPATIAL indexes, else
// nil.
func likeSourceMeta(ctx *sql.Context, ct *plan.CreateTable) *tableMeta {
	if ct.Temporary() {
		return nil
	}
	d, src := likeSource(ctx, ct)
	if src == nil {
		return nil
	}
	m, err := d.p.tableMeta(src.ID)
	if err != nil || m == nil || len(m.TextIndexes) == 0 {
		return nil
	}
	return m
}

// likeSource returns the source table of a CREATE TABLE ... LIKE (with
// the database ct creates in), or nil. go-mysql-server's planner has
// already copied the source's columns and indexes into the plan and
// keeps no link to the source, so the statement's text names it.
func likeSource(ctx *sql.Context, ct *plan.CreateTable) (*database, *engine.Table) {
	if ctx == nil || !ContainsFold(ctx.Query(), "like") {
		return nil, nil
	}
	var db sql.Database = ct.Db
	if pd, ok := db.(mysql_db.PrivilegedDatabase); ok {
		db = pd.Unwrap()
	}
	d, ok := db.(*database)
	if !ok {
		return nil, nil
	}
	st, err := ast.Parse(ctx.Query())
	ddl, ok := st.(*ast.DDL)
	if err != nil || !ok || ddl.OptLike == nil || len(ddl.OptLike.LikeTables) != 1 {
		return nil, nil
	}
	lt := ddl.OptLike.LikeTables[0]
	srcDB := lt.DbQualifier.String()
	if srcDB == "" {
		srcDB = ctx.GetCurrentDatabase()
	}
	return d, d.p.ResolveTable(srcDB, lt.Name.String())
}

// likeKeptIndexes gives CREATE TABLE ... LIKE src the kept indexes of
// src (m), as MariaDB copies every index.
func likeKeptIndexes(ct *plan.CreateTable, m *tableMeta) (sql.Node, transform.TreeIdentity, error) {
	c := &createWithText{child: ct, ct: ct, like: true}
	for _, x := range m.TextIndexes {
		d := &sql.IndexDef{Name: x.Name, Constraint: sql.IndexConstraint_Fulltext, Comment: x.Comment}
		if x.Spatial {
			d.Constraint = sql.IndexConstraint_Spatial
		}
		for _, col := range x.Columns {
			d.Columns = append(d.Columns, sql.IndexColumn{Name: col})
		}
		c.defs = append(c.defs, d)
		c.after = append(c.after, x.After)
	}
	return c, transform.NewTree, nil
}

// createWithText runs a CREATE TABLE without its FULLTEXT and SPATIAL
// indexes, then keeps them with the new table. Its child is the CREATE
// TABLE, or the node a later rule put around it (atomicCreateTable).
// Being above the CREATE TABLE, it hides it from go-mysql-server's rule
// that resolves the parents of its foreign keys, so RowIter resolves
// them.
type createWithText struct {
	child sql.Node
	ct    *plan.CreateTable // the CREATE TABLE as this rule found it
	defs  sql.IndexDefs
	after []int // per def, the ordinary secondary indexes declared before it
	like  bool  // CREATE TABLE ... LIKE: the defs are the source table's
}

// secondaryCount is the number of indexes of defs other than the primary
// key.
func secondaryCount(defs sql.IndexDefs) int {
	n := 0
	for _, d := range defs {
		if !d.IsPrimary() {
			n++
		}
	}
	return n
}

var _ sql.ExecSourceRel = (*createWithText)(nil)

func (c *createWithText) Resolved() bool       { return c.child.Resolved() }
func (c *createWithText) String() string       { return c.child.String() }
func (c *createWithText) Schema() sql.Schema   { return c.child.Schema() }
func (c *createWithText) Children() []sql.Node { return []sql.Node{c.child} }
func (c *createWithText) IsReadOnly() bool     { return false }

// WithChildren replaces the child.
func (c *createWithText) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 1)
	}
	n := *c
	n.child = children[0]
	if ct, ok := children[0].(*plan.CreateTable); ok {
		n.ct = ct
	}
	return &n, nil
}

// RowIter checks the kept indexes against the new columns, creates the
// table, then adds the indexes to it.
func (c *createWithText) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	if !c.like {
		if err := checkKeptDefs(c.ct.PkSchema().Schema, c.defs); err != nil {
			return nil, err
		}
	}
	child, err := withForeignKeyParents(ctx, c.child)
	if err != nil {
		return nil, err
	}
	iter, err := rowexec.DefaultBuilder.Build(ctx, child, row)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		return nil, err
	}
	st, ok, err := c.ct.Database().GetTableInsensitive(ctx, c.ct.Name())
	if err != nil {
		return nil, err
	}
	t, _ := sql.GetUnderlyingTable(st).(*table)
	if !ok || t == nil {
		return nil, sql.ErrTableNotFound.New(c.ct.Name())
	}
	for i, d := range c.defs {
		if err := t.addTextIndex(ctx, d, c.after[i]); err != nil {
			return nil, err
		}
		// The next index is added to the new version of the table.
		if st, _, err = c.ct.Database().GetTableInsensitive(ctx, c.ct.Name()); err != nil {
			return nil, err
		}
		t, _ = sql.GetUnderlyingTable(st).(*table)
	}
	return sql.RowsToRowIter(rows...), nil
}

// checkKeptDefs checks kept indexes against the columns of a table about
// to be created, as addTextIndex checks them, so that a refused index
// leaves no table behind.
func checkKeptDefs(sch sql.Schema, defs sql.IndexDefs) error {
	for _, d := range defs {
		for _, ic := range d.Columns {
			i := sch.IndexOfColName(ic.Name)
			if i < 0 {
				return sql.ErrKeyColumnDoesNotExist.New(ic.Name)
			}
			if !d.IsSpatial() {
				continue
			}
			if _, geo := engineGeometryType(sch[i].Type); !geo || len(d.Columns) != 1 {
				return errtable.SQLError(mysql.ERWrongArguments, "SPATIAL INDEX")
			}
			if sch[i].Nullable {
				return errtable.SQLError(errtable.ERSpatialCantHaveNull)
			}
		}
	}
	return nil
}

// withForeignKeyParents gives the CREATE TABLE under n the tables its
// foreign keys reference (nil for the table itself), as go-mysql-server's
// foreign key rule does for a CREATE TABLE at the top of a plan.
func withForeignKeyParents(ctx *sql.Context, n sql.Node) (sql.Node, error) {
	out, _, err := transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		ct, ok := n.(*plan.CreateTable)
		if !ok || len(ct.ForeignKeys()) == 0 {
			return n, transform.SameTree, nil
		}
		if v, err := ctx.GetSessionVariable(ctx, "foreign_key_checks"); err != nil || v != int8(1) {
			return n, transform.SameTree, err
		}
		se := SessionOf(ctx)
		if se == nil {
			return n, transform.SameTree, nil
		}
		parents := make([]sql.ForeignKeyTable, len(ct.ForeignKeys()))
		for i, fk := range ct.ForeignKeys() {
			if fk.IsSelfReferential() {
				continue
			}
			pdb, err := se.p.Database(ctx, fk.ParentDatabase)
			if err != nil {
				return nil, transform.SameTree, err
			}
			pt, ok, err := pdb.GetTableInsensitive(ctx, fk.ParentTable)
			if err != nil {
				return nil, transform.SameTree, err
			}
			if !ok {
				return nil, transform.SameTree, sql.ErrTableNotFound.New(fk.ParentTable)
			}
			fkt, ok := pt.(sql.ForeignKeyTable)
			if !ok {
				return nil, transform.SameTree, sql.ErrNoForeignKeySupport.New(fk.ParentTable)
			}
			parents[i] = fkt
		}
		nct, err := ct.WithParentForeignKeyTables(parents)
		return nct, transform.NewTree, err
	})
	return out, err
}

// addTextIndex is ALTER TABLE ... ADD FULLTEXT / CREATE FULLTEXT INDEX,
// or with drop set DROP INDEX of a FULLTEXT index.
type addTextIndex struct {
	t    *table
	def  *sql.IndexDef
	drop bool
}

var _ sql.ExecSourceRel = (*addTextIndex)(nil)

func (a *addTextIndex) Resolved() bool       { return true }
func (a *addTextIndex) String() string       { return "ADD KEPT INDEX " + a.def.Name }
func (a *addTextIndex) Schema() sql.Schema   { return gtypes.OkResultSchema }
func (a *addTextIndex) Children() []sql.Node { return nil }
func (a *addTextIndex) IsReadOnly() bool     { return false }

// WithChildren accepts no children.
func (a *addTextIndex) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(a, len(children), 0)
	}
	return a, nil
}

// RowIter keeps the index, or forgets it.
func (a *addTextIndex) RowIter(ctx *sql.Context, _ sql.Row) (sql.RowIter, error) {
	var err error
	if a.drop {
		_, err = a.t.dropTextIndex(ctx, a.def.Name)
	} else {
		err = a.t.addTextIndex(ctx, a.def, -1)
	}
	if err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(sql.NewRow(gtypes.NewOkResult(0))), nil
}

// addTextIndex keeps a FULLTEXT index, whose columns must exist and be
// character columns, or a SPATIAL one, whose one column must be a NOT
// NULL geometry (1210, 1252 as in MariaDB). Its name is the first
// column's when none is given (with _2, _3, ... as MariaDB adds when
// taken). after is the number of other secondary indexes before it (for
// SHOW), or -1 for all the table has.
func (t *table) addTextIndex(ctx *sql.Context, d *sql.IndexDef, after int) error {
	if after < 0 {
		idxs, err := t.GetIndexes(ctx)
		if err != nil {
			return err
		}
		after = 0
		for _, ix := range idxs {
			if ix.ID() != "PRIMARY" {
				after++
			}
		}
	}
	spatial := d.IsSpatial()
	var cols []string
	for _, c := range d.Columns {
		i := t.t.Column(c.Name)
		if i < 0 {
			return sql.ErrKeyColumnDoesNotExist.New(c.Name)
		}
		ct := &t.t.Columns[i]
		switch {
		case spatial && (ct.Type.Kind != types.Geometry || len(d.Columns) != 1):
			return errtable.SQLError(mysql.ERWrongArguments, "SPATIAL INDEX")
		case spatial && ct.Nullable:
			return errtable.SQLError(errtable.ERSpatialCantHaveNull)
		case !spatial && (!ct.Type.IsString() || ct.Type.Collation == nil):
			return errUnsupported("FULLTEXT index on the non-text column %s", ct.Name)
		}
		cols = append(cols, ct.Name)
	}
	if len(cols) == 0 {
		return plan.ErrCreateIndexMissingColumns.New()
	}
	return t.editMeta(ctx, func(m *tableMeta) error {
		name := d.Name
		for n := 1; name == ""; n++ {
			cand := cols[0]
			if n > 1 {
				cand = fmt.Sprintf("%s_%d", cols[0], n)
			}
			if !t.hasIndexName(m, cand) {
				name = cand
			}
		}
		if t.hasIndexName(m, name) {
			return sql.ErrDuplicateKey.New(name)
		}
		x := textIndexDef{Name: name, Columns: cols, Comment: d.Comment, Spatial: spatial}
		if spatial {
			x.After = after
		}
		m.TextIndexes = append(m.TextIndexes, x)
		return nil
	})
}

// hasIndexName reports whether the table has an index of that name.
func (t *table) hasIndexName(m *tableMeta, name string) bool {
	if t.t.IndexFold(name) != nil || m.textIndex(name) >= 0 {
		return true
	}
	return false
}

// textIndex returns the position of the named FULLTEXT index, or -1.
func (m *tableMeta) textIndex(name string) int {
	for i, x := range m.TextIndexes {
		if strings.EqualFold(x.Name, name) {
			return i
		}
	}
	return -1
}

// hasTextIndex reports whether the table keeps a FULLTEXT index of that
// name (read from the record: the schema's copy of the attributes does not
// follow index changes).
func (t *table) hasTextIndex(name string) bool {
	m, err := t.db.p.tableMeta(t.t.ID)
	return err == nil && m.textIndex(name) >= 0
}

// keptMeta returns the table's SQL attributes as recorded (with its kept
// FULLTEXT and SPATIAL indexes as they are now), or empty ones.
func (t *table) keptMeta() *tableMeta {
	m, err := t.db.p.tableMeta(t.t.ID)
	if err != nil || m == nil {
		return &tableMeta{}
	}
	return m
}

// dropTextIndex forgets a FULLTEXT index; false when there is none of
// that name.
func (t *table) dropTextIndex(ctx *sql.Context, name string) (bool, error) {
	m, err := t.db.p.tableMeta(t.t.ID)
	if err != nil || m.textIndex(name) < 0 {
		return false, err
	}
	return true, t.editMeta(ctx, func(m *tableMeta) error {
		if i := m.textIndex(name); i >= 0 {
			m.TextIndexes = append(m.TextIndexes[:i], m.TextIndexes[i+1:]...)
		}
		return nil
	})
}

// renameKeptColumn follows a column's new name (CHANGE COLUMN, RENAME
// COLUMN) in the kept indexes.
func (m *tableMeta) renameKeptColumn(from, to string) {
	for i := range m.TextIndexes {
		for j, c := range m.TextIndexes[i].Columns {
			if strings.EqualFold(c, from) {
				m.TextIndexes[i].Columns[j] = to
			}
		}
	}
}

// dropTextColumn takes a dropped column out of the FULLTEXT indexes (and
// drops those left without columns), as MariaDB does.
func (m *tableMeta) dropTextColumn(col string) {
	out := m.TextIndexes[:0]
	for _, x := range m.TextIndexes {
		var cols []string
		for _, c := range x.Columns {
			if !strings.EqualFold(c, col) {
				cols = append(cols, c)
			}
		}
		if len(cols) > 0 {
			x.Columns = cols
			out = append(out, x)
		}
	}
	m.TextIndexes = out
}
