package sqlbackend

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// What SQL knows of a table beyond the engine's definition (column
// comments, DEFAULT and ON UPDATE expressions, CHECK and FOREIGN KEY
// constraints) is kept
// as one JSON record per table in the engine, keyed by the table's id
// (stable across RENAME and ALTER) and written in the same job as the
// DDL that changes it. HandlerSocket ignores it: its inserts apply only
// the literal defaults the engine holds.

// tableMeta is a table's SQL-only attributes.
type tableMeta struct {
	// Comments holds column COMMENTs by column name.
	Comments map[string]string `json:"comments,omitempty"`
	// Defaults holds, by column name, DEFAULT expressions the engine
	// cannot store as a value, as go-mysql-server prints them (with their
	// parentheses).
	Defaults map[string]string `json:"defaults,omitempty"`
	// OnUpdate holds ON UPDATE expressions by column name.
	OnUpdate map[string]string `json:"on_update,omitempty"`
	// Checks are the table's CHECK constraints.
	Checks []sql.CheckDefinition `json:"checks,omitempty"`
	// TextIndexes are the FULLTEXT indexes the table keeps (fulltext.go).
	TextIndexes []textIndexDef `json:"text_indexes,omitempty"`
	// ColumnChecks marks the CHECK constraints written on a column (see
	// checks.go): lower-cased constraint name -> column name.
	ColumnChecks map[string]string `json:"column_checks,omitempty"`
	// IndexComments holds index COMMENTs by index name.
	IndexComments map[string]string `json:"index_comments,omitempty"`
	// Generated holds, by column name, the expression of a generated
	// column as go-mysql-server prints it; Stored marks the STORED ones
	// (the others are VIRTUAL). The engine stores both kinds: SQL computes
	// the value on every write (HandlerSocket writes do not).
	Generated map[string]string `json:"generated,omitempty"`
	// JSON marks the columns declared JSON (stored as LONGTEXT, as
	// MariaDB does): each has a CHECK (json_valid(col)) named
	// <table>.<column>, which GetChecks adds.
	JSON   map[string]string `json:"json,omitempty"`
	Stored map[string]string `json:"stored,omitempty"`
	// ForeignKeys are the table's FOREIGN KEY constraints (see fk.go),
	// without their own database and table names (and without the parent's
	// database when it is the table's).
	ForeignKeys []sql.ForeignKeyConstraint `json:"foreign_keys,omitempty"`
	// Widths holds, by column name, an integer column's display width when
	// the definition gave one other than the type's default (tinyint(1)):
	// SHOW CREATE TABLE, DESCRIBE and information_schema print it.
	Widths map[string]string `json:"widths,omitempty"`
	// IndexUsing holds, by index name, the USING BTREE or USING HASH a
	// secondary index was defined with (the engine's indexes are all
	// ordered; SHOW CREATE TABLE prints the clause as given, as InnoDB
	// does).
	IndexUsing map[string]string `json:"index_using,omitempty"`
}

// metaBlob names the record of a table's SQL attributes. (Stored names
// keep the "sqlfront/" prefix of the package that first wrote them.)
func metaBlob(id uint32) string { return fmt.Sprintf("sqlfront/table/%d", id) }

// tableMeta reads the SQL attributes of the table with that id.
func (p *Provider) tableMeta(id uint32) (*tableMeta, error) {
	b, err := p.e.Blob(metaBlob(id))
	if err != nil {
		return nil, MapError(err)
	}
	m := &tableMeta{}
	if len(b) > 0 {
		if err := json.Unmarshal(b, m); err != nil {
			return nil, MapError(fmt.Errorf("%w: table %d attributes: %v", engine.ErrCorrupt, id, err))
		}
	}
	return m, nil
}

// writeMeta stores m as the SQL attributes of the table with that id, as
// part of the job.
func writeMeta(tx *engine.Job, id uint32, m *tableMeta) error {
	if m == nil || (len(m.Comments) == 0 && len(m.Defaults) == 0 && len(m.OnUpdate) == 0 && len(m.Checks) == 0 && len(m.IndexComments) == 0 && len(m.ForeignKeys) == 0 && len(m.Generated) == 0 && len(m.JSON) == 0 && len(m.TextIndexes) == 0 && len(m.ColumnChecks) == 0 && len(m.Widths) == 0 && len(m.IndexUsing) == 0) {
		return tx.SetBlob(metaBlob(id), nil)
	}
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return tx.SetBlob(metaBlob(id), b)
}

// columnMeta is one column's SQL-only attributes.
type columnMeta struct {
	comment, def, onUpdate string
	generated, stored      string // stored is "1" for a STORED generated column
	json                   string // "1" for a JSON column
	width                  string // a display width other than the type's
}

// set records c's attributes for column name in m.
func (m *tableMeta) set(name string, c columnMeta) {
	put := func(mp *map[string]string, v string) {
		if v == "" {
			delete(*mp, name)
			return
		}
		if *mp == nil {
			*mp = map[string]string{}
		}
		(*mp)[name] = v
	}
	put(&m.Comments, c.comment)
	put(&m.Defaults, c.def)
	put(&m.OnUpdate, c.onUpdate)
	put(&m.Generated, c.generated)
	put(&m.Stored, c.stored)
	put(&m.JSON, c.json)
	put(&m.Widths, c.width)
}

// drop forgets column name, and the CHECK constraint written on it (which
// MariaDB drops with the column and with MODIFY of it).
func (m *tableMeta) drop(name string) {
	m.set(name, columnMeta{})
	for k, col := range m.ColumnChecks {
		if strings.EqualFold(col, name) {
			delete(m.ColumnChecks, k)
			for i, c := range m.Checks {
				if strings.EqualFold(c.Name, k) {
					m.Checks = append(m.Checks[:i], m.Checks[i+1:]...)
					break
				}
			}
		}
	}
}

// setIndexComment records an index COMMENT ("" forgets it).
func (m *tableMeta) setIndexComment(name, comment string) {
	if comment == "" {
		delete(m.IndexComments, name)
		return
	}
	if m.IndexComments == nil {
		m.IndexComments = map[string]string{}
	}
	m.IndexComments[name] = comment
}

// setIndexUsing records an index's USING clause ("" forgets it).
func (m *tableMeta) setIndexUsing(name, using string) {
	if using == "" {
		delete(m.IndexUsing, name)
		return
	}
	if m.IndexUsing == nil {
		m.IndexUsing = map[string]string{}
	}
	m.IndexUsing[name] = using
}

// exprText returns the text of a non-literal default or ON UPDATE
// expression, without the parentheses go-mysql-server prints around it.
func exprText(d *sql.ColumnDefaultValue) string {
	s := d.String()
	if len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')' && balanced(s[1:len(s)-1]) {
		s = s[1 : len(s)-1]
	}
	return s
}

// balanced reports whether the parentheses of s pair up (outside quotes).
func balanced(s string) bool {
	depth := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth < 0 {
				return false
			}
		}
	}
	return depth == 0
}

var _ sql.CheckAlterableTable = (*table)(nil)

// GetChecks returns the table's CHECK constraints, with the JSON_VALID
// check of each JSON column (see tableMeta.JSON) first.
func (t *table) GetChecks(ctx *sql.Context) ([]sql.CheckDefinition, error) {
	m, err := t.db.p.tableMeta(t.t.ID)
	if err != nil {
		return nil, err
	}
	out := jsonChecks(t.t, m)
	for _, c := range m.Checks {
		if m.columnCheck(c.Name) != "" {
			// MariaDB reports a column's constraint as table.column.
			c.Name = sqlName(t.t) + "." + c.Name
		}
		out = append(out, c)
	}
	return out, nil
}

// columnCheck returns the column a CHECK constraint was written on, or "".
func (m *tableMeta) columnCheck(name string) string { return m.ColumnChecks[strings.ToLower(name)] }

// jsonChecks are the CHECK constraints of t's JSON columns, in column
// order.
func jsonChecks(t *engine.Table, m *tableMeta) []sql.CheckDefinition {
	var out []sql.CheckDefinition
	for i := range t.Columns {
		if n := t.Columns[i].Name; m.JSON[n] != "" {
			out = append(out, sql.CheckDefinition{Name: sqlName(t) + "." + n, CheckExpression: "json_valid(" + quoteIdent(n) + ")", Enforced: true})
		}
	}
	return out
}

// CreateCheck adds a CHECK constraint.
func (t *table) CreateCheck(ctx *sql.Context, check *sql.CheckDefinition) error {
	var declared []declaredCheck
	if t.db.p.maria {
		declared = declaredChecks(ctx)
	}
	return t.editMeta(ctx, func(m *tableMeta) error {
		c := *check
		i := len(m.Checks)
		switch {
		case len(declared) == 1 && declared[0].alter:
			i = 0
		case len(declared) > 0 && declared[0].like:
			i += len(m.JSON) // the JSON checks LIKE copied so far
		}
		if i < len(declared) && declared[i].json {
			// LIKE copies a JSON column: its check is the column's.
			if m.JSON == nil {
				m.JSON = map[string]string{}
			}
			m.JSON[declared[i].column] = "1"
			return nil
		}
		if i < len(declared) && declared[i].text != "" && c.Name == "" {
			// LIKE: the source's name and expression
			c.Name, c.CheckExpression = declared[i].name, declared[i].text
		}
		if i < len(declared) && strings.EqualFold(declared[i].name, c.Name) {
			// The statement's i-th constraint (a new table's checks all
			// come from its CREATE TABLE, in order).
			d := declared[i]
			if d.expr != nil {
				if text := mariaCheckText(d.expr); text != "" {
					c.CheckExpression = text
				}
			}
			if d.column != "" && c.Name == "" && !m.hasCheck(d.column) {
				c.Name = d.column
				if m.ColumnChecks == nil {
					m.ColumnChecks = map[string]string{}
				}
				m.ColumnChecks[strings.ToLower(c.Name)] = d.column
			}
		}
		if c.Name == "" {
			// MariaDB names an unnamed constraint CONSTRAINT_<n>, MySQL
			// (and go-mysql-server's enginetest) <table>_chk_<n>.
			prefix := sqlName(t.t) + "_chk_"
			if t.db.p.maria {
				prefix = "CONSTRAINT_"
			}
			for n := 1; c.Name == ""; n++ {
				name := prefix + strconv.Itoa(n)
				if !m.hasCheck(name) {
					c.Name = name
				}
			}
		}
		if m.hasCheck(c.Name) {
			return sql.ErrInvalidCheckConstraint.New("duplicate check constraint name " + c.Name)
		}
		m.Checks = append(m.Checks, c)
		return nil
	})
}

func (m *tableMeta) hasCheck(name string) bool {
	for _, c := range m.Checks {
		if strings.EqualFold(c.Name, name) {
			return true
		}
	}
	return false
}

// DropCheck removes a CHECK constraint.
func (t *table) DropCheck(ctx *sql.Context, name string) error {
	return t.editMeta(ctx, func(m *tableMeta) error {
		if rest, ok := strings.CutPrefix(name, sqlName(t.t)+"."); ok && m.columnCheck(rest) != "" {
			name = rest // a column's constraint, as GetChecks names it
		}
		for i, c := range m.Checks {
			if strings.EqualFold(c.Name, name) {
				m.Checks = append(m.Checks[:i], m.Checks[i+1:]...)
				delete(m.ColumnChecks, strings.ToLower(name))
				return nil
			}
		}
		return fmt.Errorf("check constraint %q not found", name)
	})
}

// editMeta changes the table's SQL attributes as one job.
func (t *table) editMeta(ctx *sql.Context, edit func(m *tableMeta) error) error {
	t.db.p.objMu.Lock()
	defer t.db.p.objMu.Unlock()
	m, err := t.db.p.tableMeta(t.t.ID)
	if err != nil {
		return err
	}
	if err := edit(m); err != nil {
		return err
	}
	id := t.t.ID
	return t.db.p.ddl(ctx, func(tx *engine.Job) error { return writeMeta(tx, id, m) })
}

// width is the display width kept for column name, or "" (m may be nil).
func (m *tableMeta) width(name string) string {
	if m == nil {
		return ""
	}
	return m.Widths[name]
}
