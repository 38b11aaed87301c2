package sqlfront

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// Foreign key errors, as MariaDB's InnoDB words them. go-mysql-server's
// messages name the key and its table but not the columns, so the rules
// look the key up in the catalog (sqlbackend's ForeignKeyText) to print
// it as InnoDB does. The rules are tried before the general ones in
// errors.go: a parent table missing from CREATE TABLE is error 1005 (a
// badly formed foreign key), not 1146.

// InnoDB's errno 121 (a duplicate key: here a constraint name the
// database already has) and its text in 1005.
const fkDuplicateName = 121

// fkIncorrectlyFormed is InnoDB's errno 150 and its text in 1005.
const fkIncorrectlyFormed = 150

var fkWordings = []kindWording{
	onKind(sql.ErrForeignKeyChildViolation, func(x *errContext, a []string) *mysql.SQLError {
		return x.fkViolation(mysql.ErNoReferencedRow2, a[1], a[0])
	}),
	onKind(sql.ErrForeignKeyParentViolation, func(x *errContext, a []string) *mysql.SQLError {
		return x.fkViolation(mysql.ERRowIsReferenced2, a[1], a[0])
	}),
	onKind(sql.ErrForeignKeyNotResolved, func(x *errContext, a []string) *mysql.SQLError {
		// The parent table is missing (dropped with foreign_key_checks=0,
		// or never created): go-mysql-server's words are InnoDB's.
		if s := x.server(); s != nil {
			if text, ok := s.p.ForeignKeyText(a[0], a[1], a[2], false); ok {
				return sqlError(mysql.ErNoReferencedRow2, text)
			}
		}
		fk := sql.ForeignKeyConstraint{Database: a[0], Table: a[1], Name: a[2], ParentDatabase: a[0], ParentTable: a[4],
			Columns: strings.Split(a[3], "`, `"), ParentColumns: strings.Split(a[5], "`, `")}
		return sqlError(mysql.ErNoReferencedRow2, sqlbackend.FormatForeignKey(&fk, false))
	}),
	onKind(sql.ErrForeignKeyDropTable, func(x *errContext, a []string) *mysql.SQLError {
		// DROP TABLE of a parent: 1451 without the key's description.
		e := sqlError(mysql.ERRowIsReferenced2, "")
		e.Message = strings.TrimSuffix(e.Message, " ()")
		return e
	}),
	onKind(sql.ErrTruncateReferencedFromForeignKey, func(x *errContext, a []string) *mysql.SQLError {
		if s := x.server(); s != nil {
			if text, ok := s.p.ForeignKeyText(x.currentDB(), a[2], a[1], true); ok {
				return sqlError(errtable.ERTruncateIllegalFK, text)
			}
		}
		return x.keepText(errtable.ERTruncateIllegalFK)
	}),
	onKind(sql.ErrForeignKeyDepthLimit, func(x *errContext, a []string) *mysql.SQLError {
		// InnoDB's DB_FOREIGN_EXCEED_MAX_CASCADE (193), naming the key
		// of the cascade.
		if text, ok := x.cascadeKey(); ok {
			return sqlError(errtable.ERGetErrmsg, 193, text, "InnoDB")
		}
		return x.keepText(errtable.ERGetErrmsg)
	}),
	onKind(sql.ErrForeignKeyColumnCountMismatch, func(x *errContext, a []string) *mysql.SQLError {
		name := "foreign key without name"
		for _, c := range x.fkDefinitions() {
			if fk := c.Details.(*sqlparser.ForeignKeyDefinition); len(fk.Source) != len(fk.ReferencedColumns) && c.Name != "" {
				name = c.Name
				break
			}
		}
		return sqlError(mysql.ERWrongFKDef, name, "Key reference and table reference don't match")
	}),
	onKind(sql.ErrForeignKeyDropIndex, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.ERDropIndexFK, a[0])
	}),
	onKind(sql.ErrForeignKeyDropColumn, func(x *errContext, a []string) *mysql.SQLError {
		// InnoDB names the index the key needs, which the column leads.
		return sqlError(errtable.ERDropIndexFK, x.indexLedBy(a[0], a[1]))
	}),
	onKind(sql.ErrForeignKeyNotFound, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERCantDropFieldOrKey, "FOREIGN KEY", a[0])
	}),
	onKind(sql.ErrForeignKeyDuplicateName, func(x *errContext, a []string) *mysql.SQLError {
		db, table := x.ddlTable()
		if table == "" {
			return nil
		}
		return sqlError(errtable.ERCantCreateTable, db, table, fkDuplicateName, "Duplicate key on write or update")
	}),
	onKind(sql.ErrForeignKeyTypeChange, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.ERFKColumnCannotChange, a[0], x.keyOfColumn(a[0]))
	}),
	onKind(sql.ErrForeignKeyColumnTypeMismatch, (*errContext).fkIncorrect),
	onKind(sql.ErrForeignKeyMissingReferenceIndex, (*errContext).fkIncorrect),
	onKind(sql.ErrForeignKeyTextBlob, (*errContext).fkIncorrect),
	onKind(sql.ErrForeignKeySetNullNonNullable, (*errContext).fkIncorrect),
	onKind(sql.ErrTableNotFound, func(x *errContext, a []string) *mysql.SQLError {
		// A CREATE or ALTER TABLE whose parent table does not exist.
		for _, c := range x.fkDefinitions() {
			if fk := c.Details.(*sqlparser.ForeignKeyDefinition); strings.EqualFold(fk.ReferencedTable.Name.String(), a[0]) {
				return x.fkIncorrect(a)
			}
		}
		return x.tableNotFound(a)
	}),
}

// fkViolation is error num (1451 or 1452) for the foreign key fk of table.
func (x *errContext) fkViolation(num int, table, fk string) *mysql.SQLError {
	if s := x.server(); s != nil {
		if text, ok := s.p.ForeignKeyText(x.currentDB(), table, fk, false); ok {
			return sqlError(num, text)
		}
	}
	return x.keepText(num)
}

// fkIncorrect is 1005 errno 150 for the table the statement creates or
// alters.
func (x *errContext) fkIncorrect([]string) *mysql.SQLError {
	db, table := x.ddlTable()
	if table == "" {
		return nil
	}
	return sqlError(errtable.ERCantCreateTable, db, table, fkIncorrectlyFormed, "Foreign key constraint is incorrectly formed")
}

// ddlTable is the database and table a CREATE or ALTER TABLE statement
// names (table empty for other statements).
func (x *errContext) ddlTable() (db, table string) {
	var tn sqlparser.TableName
	switch st := x.stmt().(type) {
	case *sqlparser.DDL:
		tn = st.Table
	case *sqlparser.AlterTable:
		tn = st.Table
	default:
		return "", ""
	}
	db = tn.DbQualifier.String()
	if db == "" {
		db = x.currentDB()
	}
	return db, tn.Name.String()
}

// indexLedBy names the index of the altered table that column leads (the
// one foreign key fk needs), or fk.
func (x *errContext) indexLedBy(column, fk string) string {
	db, table := x.ddlTable()
	s := x.server()
	if s == nil || table == "" {
		return fk
	}
	if t := s.p.ResolveTable(db, table); t != nil {
		c := t.Column(column)
		for _, idx := range t.Indexes {
			if c >= 0 && len(idx.Columns) > 0 && idx.Columns[0] == c && !idx.Primary {
				return idx.Name
			}
		}
	}
	return fk
}

// keyOfColumn names a foreign key of the altered table (declared by it or
// referencing it) that uses column, or "".
func (x *errContext) keyOfColumn(column string) string {
	db, table := x.ddlTable()
	if s := x.server(); s != nil && table != "" {
		return s.p.ForeignKeyOfColumn(db, table, column)
	}
	return ""
}

// fkDefinitions returns the FOREIGN KEY clauses of a CREATE TABLE or an
// ALTER TABLE statement.
func (x *errContext) fkDefinitions() []*sqlparser.ConstraintDefinition {
	var ddls []*sqlparser.DDL
	switch st := x.stmt().(type) {
	case *sqlparser.DDL:
		ddls = []*sqlparser.DDL{st}
	case *sqlparser.AlterTable:
		ddls = st.Statements
	}
	var out []*sqlparser.ConstraintDefinition
	for _, d := range ddls {
		if d == nil || d.TableSpec == nil {
			continue
		}
		for _, c := range d.TableSpec.Constraints {
			if _, ok := c.Details.(*sqlparser.ForeignKeyDefinition); ok {
				out = append(out, c)
			}
		}
	}
	return out
}

// cascadeKey describes the first foreign key with a cascading action that
// references the table a DELETE or UPDATE writes.
func (x *errContext) cascadeKey() (string, bool) {
	s := x.server()
	if s == nil {
		return "", false
	}
	var tn sqlparser.TableName
	found := false
	x.walk(func(n sqlparser.SQLNode) bool {
		if t, ok := n.(sqlparser.TableName); ok && !found && !t.Name.IsEmpty() {
			tn, found = t, true
		}
		return !found
	})
	if !found {
		return "", false
	}
	t := x.engineTable(tn)
	if t == nil {
		return "", false
	}
	return s.p.CascadingKeyText(t)
}
