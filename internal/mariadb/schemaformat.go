package mariadb

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// mariaFormatter prints SHOW CREATE TABLE as MariaDB does where
// go-mysql-server's MySQL 8 style differs in what clients compare: YEAR
// columns are `year(4)`, the column lists of a FOREIGN KEY are separated
// by ", ", and its ON DELETE / ON UPDATE RESTRICT (the default) is not
// printed.
type mariaFormatter struct {
	*sql.MySqlSchemaFormatter
}

// GenerateCreateTableColumnDefinition prints YEAR as year(4).
func (m mariaFormatter) GenerateCreateTableColumnDefinition(col *sql.Column, colDefault, onUpdate string, tableCollation sql.CollationID) string {
	s := m.MySqlSchemaFormatter.GenerateCreateTableColumnDefinition(col, colDefault, onUpdate, tableCollation)
	if gtypes.IsYear(col.Type) {
		prefix := "  " + m.QuoteIdentifier(col.Name) + " year"
		if rest, ok := strings.CutPrefix(s, prefix); ok && !strings.HasPrefix(rest, "(") {
			s = prefix + "(4)" + rest
		}
	}
	return s
}

// GenerateCreateTableForiegnKeyDefinition separates columns by ", " and
// leaves out RESTRICT.
func (m mariaFormatter) GenerateCreateTableForiegnKeyDefinition(fkName string, fkCols []string, parentTbl string, parentCols []string, onDelete, onUpdate string) string {
	fkey := fmt.Sprintf("  CONSTRAINT %s FOREIGN KEY (%s) REFERENCES %s (%s)", m.QuoteIdentifier(fkName),
		strings.Join(m.QuoteIdentifiers(fkCols), ", "), m.QuoteIdentifier(parentTbl), strings.Join(m.QuoteIdentifiers(parentCols), ", "))
	if onDelete != "" && onDelete != string(sql.ForeignKeyReferentialAction_Restrict) {
		fkey += " ON DELETE " + onDelete
	}
	if onUpdate != "" && onUpdate != string(sql.ForeignKeyReferentialAction_Restrict) {
		fkey += " ON UPDATE " + onUpdate
	}
	return fkey
}
