package sqlbackend

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// FOREIGN KEY constraints.
//
// A table's foreign keys are kept with its other SQL attributes (see
// meta.go), so that CREATE TABLE and ALTER TABLE accept them, SHOW CREATE
// TABLE prints them and go-mysql-server's DDL checks (the parent table and
// its key exist, the column types match, an index on the child's columns,
// created when missing) run as in MySQL when foreign_key_checks is 1.
//
// SQL writes enforce them through go-mysql-server's foreign key editor:
// a table reports the keys it declares (GetDeclaredForeignKeys) and the
// keys of other tables that reference it (GetReferencedForeignKeys, from
// the provider's fkCache), so an INSERT, UPDATE, REPLACE or DELETE checks
// the parent rows of what it writes and the child rows of what it changes
// or removes, and runs the ON DELETE / ON UPDATE actions, all in the
// statement's transaction (a failure undoes the whole statement). The
// reads those checks make see the statement's own writes (fkReads), as
// InnoDB's row-by-row checks do. foreign_key_checks=0 turns all of it off.
// HandlerSocket writes go past go-mysql-server and check nothing.

// fkGen counts the DDL jobs that may have changed a table's foreign keys.
// It is bumped after each such job has committed (Provider.ddl), so an
// fkIndex built from reads that began before the bump is never taken for
// current afterwards. It is package-wide so that every provider of a
// process sees the changes of the others.
var fkGen atomic.Uint64

// metaChanged records that a DDL job has committed (or failed).
func metaChanged() { fkGen.Add(1) }

// fkCache holds the provider's latest fkIndex. It is safe for concurrent
// use: an index is immutable once stored, and two sessions building one at
// once only store it twice.
type fkCache struct {
	cur atomic.Pointer[fkIndex]
}

// fkIndex is every foreign key of one catalog version, with its own
// database and table and its parent's database filled in.
type fkIndex struct {
	cat *engine.Catalog
	gen uint64
	fks []sql.ForeignKeyConstraint
	// byChild and byParent hold, by table id, the positions in fks of the
	// keys a table declares and of those that reference it (whose parent
	// table exists); HandlerSocket writes look them up (hsfk.go).
	byChild, byParent map[uint32][]int
}

// foreignKeys returns every foreign key of the current catalog (shared:
// the slice must not be modified). It is valid as long as neither the
// catalog nor fkGen has changed since it was built.
func (p *Provider) foreignKeys() ([]sql.ForeignKeyConstraint, error) {
	gen := fkGen.Load()
	cat := p.e.Catalog()
	if ix := p.fks.cur.Load(); ix != nil && ix.cat == cat && ix.gen == gen {
		return ix.fks, nil
	}
	var all []sql.ForeignKeyConstraint
	byChild, byParent := map[uint32][]int{}, map[uint32][]int{}
	for _, dbName := range cat.Databases() {
		edb, err := cat.Database(dbName)
		if err != nil {
			continue
		}
		for _, t := range edb.Tables() {
			m, err := p.tableMeta(t.ID)
			if err != nil {
				return nil, err
			}
			for _, fk := range m.ForeignKeys {
				fk.Database, fk.Table = dbName, t.Name
				if fk.ParentDatabase == "" {
					fk.ParentDatabase = dbName
				}
				byChild[t.ID] = append(byChild[t.ID], len(all))
				if pt := p.ResolveTable(fk.ParentDatabase, fk.ParentTable); pt != nil {
					byParent[pt.ID] = append(byParent[pt.ID], len(all))
				}
				all = append(all, fk)
			}
		}
	}
	ix := &fkIndex{cat: cat, gen: gen, fks: all, byChild: byChild, byParent: byParent}
	p.fks.cur.Store(ix)
	return all, nil
}

// fkIndexNow returns the current fkIndex (built if needed), or nil.
func (p *Provider) fkIndexNow() *fkIndex {
	if ix := p.fks.cur.Load(); ix != nil && ix.cat == p.e.Catalog() && ix.gen == fkGen.Load() {
		return ix
	}
	if _, err := p.foreignKeys(); err != nil {
		return nil
	}
	return p.fks.cur.Load()
}

// referencing returns the foreign keys whose parent is db.table.
func (p *Provider) referencing(db, table string) ([]sql.ForeignKeyConstraint, error) {
	all, err := p.foreignKeys()
	if err != nil {
		return nil, err
	}
	var out []sql.ForeignKeyConstraint
	for _, fk := range all {
		if strings.EqualFold(fk.ParentDatabase, db) && strings.EqualFold(fk.ParentTable, table) {
			fk.ParentDatabase, fk.ParentTable = db, table
			fk.IsResolved = true
			out = append(out, fk)
		}
	}
	return out, nil
}

var _ sql.ForeignKeyTable = (*table)(nil)

// CreateIndexForForeignKey creates the index a foreign key needs on the
// child's columns.
func (t *table) CreateIndexForForeignKey(ctx *sql.Context, d sql.IndexDef) error {
	return t.CreateIndex(ctx, d)
}

// GetDeclaredForeignKeys returns the table's foreign keys. A key whose
// parent table exists is reported resolved: go-mysql-server would
// otherwise check every existing child row at the next write (a key added
// with foreign_key_checks=0 keeps the rows it found, as in InnoDB, and
// only the rows written afterwards are checked).
func (t *table) GetDeclaredForeignKeys(ctx *sql.Context) ([]sql.ForeignKeyConstraint, error) {
	m, err := t.db.p.tableMeta(t.t.ID)
	if err != nil {
		return nil, err
	}
	if len(m.ForeignKeys) == 0 {
		return nil, nil
	}
	out := make([]sql.ForeignKeyConstraint, len(m.ForeignKeys))
	for i, fk := range m.ForeignKeys {
		// The table may have been renamed since the key was declared.
		fk.Database, fk.Table = t.db.name, sqlName(t.t)
		if fk.ParentDatabase == "" {
			fk.ParentDatabase = t.db.name
		}
		fk.IsResolved = fk.IsResolved || t.db.p.ResolveTable(fk.ParentDatabase, fk.ParentTable) != nil
		out[i] = fk
	}
	// InnoDB keeps a table's keys ordered by name (SHOW CREATE TABLE
	// prints them so).
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// GetReferencedForeignKeys returns the foreign keys of every table (this
// one too) whose parent is this table.
func (t *table) GetReferencedForeignKeys(ctx *sql.Context) ([]sql.ForeignKeyConstraint, error) {
	return t.db.p.referencing(t.db.name, t.t.Name)
}

// AddForeignKey adds a foreign key; one without a name is named
// <table>_ibfk_<n>, as InnoDB names it.
func (t *table) AddForeignKey(ctx *sql.Context, fk sql.ForeignKeyConstraint) error {
	return t.editMeta(ctx, func(m *tableMeta) error {
		if fk.Name == "" {
			// One more than the highest number of the table's names of
			// that form, as InnoDB counts.
			prefix, n := t.t.Name+"_ibfk_", uint64(0)
			for _, k := range m.ForeignKeys {
				if rest, ok := strings.CutPrefix(k.Name, prefix); ok {
					if v, err := strconv.ParseUint(rest, 10, 64); err == nil && v > n {
						n = v
					}
				}
			}
			fk.Name = fmt.Sprintf("%s%d", prefix, n+1)
		}
		if m.foreignKey(fk.Name) >= 0 {
			return sql.ErrForeignKeyDuplicateName.New(fk.Name)
		}
		// InnoDB's constraint names are the database's: another table's
		// key of that name refuses it too.
		all, err := t.db.p.foreignKeys()
		if err != nil {
			return err
		}
		for i := range all {
			if strings.EqualFold(all[i].Database, t.db.name) && strings.EqualFold(all[i].Name, fk.Name) && all[i].Table != t.t.Name {
				return sql.ErrForeignKeyDuplicateName.New(fk.Name)
			}
		}
		fk.Database, fk.Table = "", ""
		if strings.EqualFold(fk.ParentDatabase, t.db.name) {
			fk.ParentDatabase = ""
		}
		fk.OnDelete, fk.OnUpdate = innodbAction(fk.OnDelete), innodbAction(fk.OnUpdate)
		m.ForeignKeys = append(m.ForeignKeys, fk)
		return nil
	})
}

// innodbAction is the action InnoDB keeps for a declared one: it accepts
// SET DEFAULT but keeps the default (RESTRICT).
func innodbAction(a sql.ForeignKeyReferentialAction) sql.ForeignKeyReferentialAction {
	if a == sql.ForeignKeyReferentialAction_SetDefault {
		return sql.ForeignKeyReferentialAction_DefaultAction
	}
	return a
}

// DropForeignKey removes a foreign key.
func (t *table) DropForeignKey(ctx *sql.Context, fkName string) error {
	return t.editMeta(ctx, func(m *tableMeta) error {
		i := m.foreignKey(fkName)
		if i < 0 {
			return sql.ErrForeignKeyNotFound.New(fkName, t.t.Name)
		}
		m.ForeignKeys = append(m.ForeignKeys[:i], m.ForeignKeys[i+1:]...)
		return nil
	})
}

// UpdateForeignKey replaces the foreign key named fkName by fk.
func (t *table) UpdateForeignKey(ctx *sql.Context, fkName string, fk sql.ForeignKeyConstraint) error {
	return t.editMeta(ctx, func(m *tableMeta) error {
		i := m.foreignKey(fkName)
		if i < 0 {
			return sql.ErrForeignKeyNotFound.New(fkName, t.t.Name)
		}
		fk.Database, fk.Table = "", ""
		if strings.EqualFold(fk.ParentDatabase, t.db.name) {
			fk.ParentDatabase = ""
		}
		m.ForeignKeys[i] = fk
		return nil
	})
}

// GetForeignKeyEditor returns the editor go-mysql-server writes the
// table's rows through when it checks a child row's parent, and reads the
// parent table through.
func (t *table) GetForeignKeyEditor(ctx *sql.Context) sql.ForeignKeyEditor {
	return &fkEditor{editor: t.newEditor(ctx), t: t}
}

// fkEditor is the table's editor with its indexed access.
type fkEditor struct {
	*editor
	t *table
}

var _ sql.ForeignKeyEditor = (*fkEditor)(nil)

// IndexedAccess returns the table restricted to a lookup, read with the
// statement's own writes: a check of a child row inserted after its
// parent in the same statement finds the parent, and a cascade finds the
// rows an earlier step of it changed.
func (f *fkEditor) IndexedAccess(ctx *sql.Context, lookup sql.IndexLookup) sql.IndexedTable {
	t := *f.t
	t.fkReads = true
	return t.IndexedAccess(ctx, lookup)
}

func (f *fkEditor) GetIndexes(ctx *sql.Context) ([]sql.Index, error) { return f.t.GetIndexes(ctx) }

func (f *fkEditor) PreciseMatch() bool { return f.t.PreciseMatch() }

// foreignKey returns the position of the foreign key named name, or -1.
func (m *tableMeta) foreignKey(name string) int {
	for i, fk := range m.ForeignKeys {
		if strings.EqualFold(fk.Name, name) {
			return i
		}
	}
	return -1
}

// go-mysql-server creates a table before its foreign keys, and leaves it
// behind when one is refused (a parent key of another type, a missing
// parent index): MySQL creates nothing. atomicCreateTableRule puts a CREATE
// TABLE that declares foreign keys under atomicCreateTable, which drops the
// table the statement created when it fails.
func AtomicCreateTableRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if _, ok := n.(*atomicCreateTable); ok {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if ct, ok := n.(*plan.CreateTable); ok && len(ct.ForeignKeys()) > 0 {
			return &atomicCreateTable{ct: ct}, transform.NewTree, nil
		}
		return n, transform.SameTree, nil
	})
}

// atomicCreateTable runs its child, a CREATE TABLE. (The CREATE TABLE
// stays a node of the plan, so that go-mysql-server still sees DDL there:
// ROW_COUNT() is 0 after it.)
type atomicCreateTable struct {
	ct *plan.CreateTable
}

var _ sql.ExecSourceRel = (*atomicCreateTable)(nil)

func (c *atomicCreateTable) Resolved() bool       { return c.ct.Resolved() }
func (c *atomicCreateTable) String() string       { return c.ct.String() }
func (c *atomicCreateTable) Schema() sql.Schema   { return c.ct.Schema() }
func (c *atomicCreateTable) Children() []sql.Node { return []sql.Node{c.ct} }
func (c *atomicCreateTable) IsReadOnly() bool     { return false }

// WithChildren replaces the CREATE TABLE.
func (c *atomicCreateTable) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 1)
	}
	ct, ok := children[0].(*plan.CreateTable)
	if !ok {
		return children[0], nil
	}
	return &atomicCreateTable{ct: ct}, nil
}

// RowIter runs the CREATE TABLE.
func (c *atomicCreateTable) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	db := c.ct.Database()
	name := c.ct.Name()
	_, existed, err := db.GetTableInsensitive(ctx, name)
	if err != nil {
		return nil, err
	}
	iter, err := rowexec.DefaultBuilder.Build(ctx, c.ct, row)
	if err != nil && !existed {
		if _, created, _ := db.GetTableInsensitive(ctx, name); created {
			if d, ok := db.(sql.TableDropper); ok {
				_ = d.DropTable(ctx, name)
			}
		}
	}
	return iter, err
}

// ForeignKeyText returns the foreign key name of table as MariaDB's
// errors 1451, 1452 and 1701 describe it: "`db`.`child`, CONSTRAINT `fk`
// FOREIGN KEY (`a`) REFERENCES `parent` (`id`)" and its actions other
// than RESTRICT. The parent is qualified by its database when that is not
// the child's, or always with qualifyParent. The table is looked for in
// db first, then in every database; ok is false when none has that key.
func (p *Provider) ForeignKeyText(db, table, name string, qualifyParent bool) (text string, ok bool) {
	all, err := p.foreignKeys()
	if err != nil {
		return "", false
	}
	var found *sql.ForeignKeyConstraint
	for i := range all {
		fk := &all[i]
		if strings.EqualFold(fk.Table, table) && strings.EqualFold(fk.Name, name) {
			if found == nil || strings.EqualFold(fk.Database, db) {
				found = fk
			}
		}
	}
	if found == nil {
		return "", false
	}
	return FormatForeignKey(found, qualifyParent), true
}

// checkDropPrimary refuses, with foreign_key_checks=1, to drop the
// primary key a foreign key referencing the table needs (no other index
// leads with its columns).
func (t *table) checkDropPrimary(ctx *sql.Context) error {
	if v, err := ctx.GetSessionVariable(ctx, "foreign_key_checks"); err == nil {
		if n, ok := v.(int8); ok && n == 0 {
			return nil
		}
	}
	fks, err := t.db.p.referencing(t.db.name, t.t.Name)
	if err != nil {
		return err
	}
	for i := range fks {
		cols, ok := columnOrdinals(t.t, fks[i].ParentColumns)
		if !ok {
			continue
		}
		needed := true
		for _, idx := range t.t.Indexes {
			if !idx.Primary && leadingIndex(&engine.Table{Indexes: []*engine.Index{idx}}, cols) != nil {
				needed = false
				break
			}
		}
		if needed {
			return sql.ErrForeignKeyDropIndex.New("PRIMARY", fks[i].Name)
		}
	}
	return nil
}

// checkDropDatabase refuses, with foreign_key_checks=1, to drop a database
// whose tables a table of another database references (InnoDB's 1451).
func (p *Provider) checkDropDatabase(ctx *sql.Context, db string) error {
	if v, err := ctx.GetSessionVariable(ctx, "foreign_key_checks"); err == nil {
		if n, ok := v.(int8); ok && n == 0 {
			return nil
		}
	}
	all, err := p.foreignKeys()
	if err != nil {
		return err
	}
	for i := range all {
		if strings.EqualFold(all[i].ParentDatabase, db) && !strings.EqualFold(all[i].Database, db) {
			return sql.ErrForeignKeyDropTable.New(all[i].ParentTable, all[i].Name)
		}
	}
	return nil
}

// ForeignKeyOfColumn names a foreign key that db.table declares on column,
// or that references column of it, or "".
func (p *Provider) ForeignKeyOfColumn(db, table, column string) string {
	all, err := p.foreignKeys()
	if err != nil {
		return ""
	}
	has := func(cols []string) bool {
		for _, c := range cols {
			if strings.EqualFold(c, column) {
				return true
			}
		}
		return false
	}
	for i := range all {
		fk := &all[i]
		if strings.EqualFold(fk.Database, db) && strings.EqualFold(fk.Table, table) && has(fk.Columns) {
			return fk.Name
		}
		if strings.EqualFold(fk.ParentDatabase, db) && strings.EqualFold(fk.ParentTable, table) && has(fk.ParentColumns) {
			return fk.Name
		}
	}
	return ""
}

// CascadingKeyText describes, as ForeignKeyText does, the first foreign
// key referencing t whose ON DELETE or ON UPDATE action changes the child
// rows (CASCADE, SET NULL): the key a too deep cascade from t goes along.
func (p *Provider) CascadingKeyText(t *engine.Table) (string, bool) {
	fks, err := p.referencing(t.DB, t.Name)
	if err != nil {
		return "", false
	}
	for i := range fks {
		if !fks[i].OnDelete.IsEquivalentToRestrict() || !fks[i].OnUpdate.IsEquivalentToRestrict() {
			return FormatForeignKey(&fks[i], false), true
		}
	}
	return "", false
}

// FormatForeignKey describes fk (its own and its parent's database filled
// in) as ForeignKeyText does.
func FormatForeignKey(fk *sql.ForeignKeyConstraint, qualifyParent bool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s.%s, CONSTRAINT %s FOREIGN KEY (%s) REFERENCES ", quoteIdent(fk.Database), quoteIdent(fk.Table),
		quoteIdent(fk.Name), quoteIdents(fk.Columns))
	if qualifyParent || !strings.EqualFold(fk.ParentDatabase, fk.Database) {
		b.WriteString(quoteIdent(fk.ParentDatabase) + ".")
	}
	fmt.Fprintf(&b, "%s (%s)", quoteIdent(fk.ParentTable), quoteIdents(fk.ParentColumns))
	if a := fk.OnDelete; a != sql.ForeignKeyReferentialAction_DefaultAction && a != sql.ForeignKeyReferentialAction_Restrict {
		b.WriteString(" ON DELETE " + string(a))
	}
	if a := fk.OnUpdate; a != sql.ForeignKeyReferentialAction_DefaultAction && a != sql.ForeignKeyReferentialAction_Restrict {
		b.WriteString(" ON UPDATE " + string(a))
	}
	return b.String()
}

// hasWriteNode reports whether n or a node under it is one that writes rows
// (and so may hold foreign key editors). A plain walk: it allocates no
// closure per statement.
func hasWriteNode(n sql.Node) bool {
	switch n.(type) {
	case nil:
		return false
	case *plan.InsertInto, *plan.Update, *plan.DeleteFrom, *plan.ForeignKeyHandler,
		*plan.Call, *plan.BeginEndBlock, *plan.TriggerExecutor, *plan.Block:
		return true
	}
	for _, c := range n.Children() {
		if hasWriteNode(c) {
			return true
		}
	}
	return false
}

// quoteIdent quotes a name with backquotes, as MariaDB's messages do.
func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// quoteIdents quotes names and joins them with ", ".
func quoteIdents(names []string) string { return quoteJoin(names, ", ") }

// fkDepthRule: go-mysql-server stops a cascade one level earlier when the
// foreign keys involved form a cycle (a table that references itself);
// InnoDB counts every chain alike and refuses the 15th nested level. The
// rule clears the cycle mark of the statement's foreign key editors (the
// mark serves nothing else). go-mysql-server plans single-table INSERT,
// UPDATE and DELETE with a fixed list of rules that ends with its
// OnceAfterAll rules, so the rule is added there (init), not to one
// analyzer; it is a pure function of the plan.
func FKDepthRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !hasWriteNode(n) {
		return n, transform.SameTree, nil // nothing of a read has foreign key editors
	}
	seen := map[*plan.ForeignKeyEditor]bool{}
	var clear func(e *plan.ForeignKeyEditor)
	clear = func(e *plan.ForeignKeyEditor) {
		if e == nil || seen[e] {
			return
		}
		seen[e] = true
		e.Cyclical = false
		for i := range e.RefActions {
			clear(e.RefActions[i].Editor)
		}
	}
	visit := func(n sql.Node) bool {
		if h, ok := n.(*plan.ForeignKeyHandler); ok {
			clear(h.Editor)
		}
		return true
	}
	transform.Inspect(n, func(n sql.Node) bool {
		switch n := n.(type) {
		case *plan.DeleteFrom:
			for _, t := range n.GetDeleteTargets() {
				transform.Inspect(t, visit)
			}
		case *plan.InsertInto:
			transform.Inspect(n.Destination, visit)
		}
		return visit(n)
	})
	return n, transform.SameTree, nil
}
