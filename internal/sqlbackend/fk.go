package sqlbackend

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// FOREIGN KEY constraints.
//
// A table's foreign keys are kept with its other SQL attributes (see
// meta.go), so that CREATE TABLE and ALTER TABLE accept them, SHOW CREATE
// TABLE prints them and go-mysql-server's DDL checks (the parent table and
// its key exist, the column types match, an index on the child's columns,
// created when missing) run as in MySQL when foreign_key_checks is 1.
//
// They are not enforced as referential constraints: no table reports the
// foreign keys that reference it (GetReferencedForeignKeys), so deleting
// or updating a parent row checks nothing and runs no ON DELETE / ON
// UPDATE action, and HandlerSocket writes check nothing. With
// foreign_key_checks=1, go-mysql-server does check that an SQL INSERT,
// UPDATE or REPLACE of a child row finds its parent row.

var _ sql.ForeignKeyTable = (*table)(nil)

// CreateIndexForForeignKey creates the index a foreign key needs on the
// child's columns.
func (t *table) CreateIndexForForeignKey(ctx *sql.Context, d sql.IndexDef) error {
	return t.CreateIndex(ctx, d)
}

// GetDeclaredForeignKeys returns the table's foreign keys.
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
		out[i] = fk
	}
	return out, nil
}

// GetReferencedForeignKeys returns nothing: see the package comment
// above (parent rows are not checked).
func (t *table) GetReferencedForeignKeys(ctx *sql.Context) ([]sql.ForeignKeyConstraint, error) {
	return nil, nil
}

// AddForeignKey adds a foreign key; one without a name is named
// <table>_ibfk_<n>, as MySQL and MariaDB name it.
func (t *table) AddForeignKey(ctx *sql.Context, fk sql.ForeignKeyConstraint) error {
	return t.editMeta(ctx, func(m *tableMeta) error {
		if fk.Name == "" {
			for n := 1; fk.Name == ""; n++ {
				name := fmt.Sprintf("%s_ibfk_%d", t.t.Name, n)
				if m.foreignKey(name) < 0 {
					fk.Name = name
				}
			}
		}
		if m.foreignKey(fk.Name) >= 0 {
			return sql.ErrForeignKeyDuplicateName.New(fk.Name)
		}
		fk.Database, fk.Table = "", ""
		if strings.EqualFold(fk.ParentDatabase, t.db.name) {
			fk.ParentDatabase = ""
		}
		m.ForeignKeys = append(m.ForeignKeys, fk)
		return nil
	})
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

func (f *fkEditor) IndexedAccess(ctx *sql.Context, lookup sql.IndexLookup) sql.IndexedTable {
	return f.t.IndexedAccess(ctx, lookup)
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
func atomicCreateTableRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
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
