package mariadb

import (
	"strings"

	"github.com/dolthub/vitess/go/mysql"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// mysqlOnlyVariables are system variables go-mysql-server has (and uses
// itself) that MariaDB 10.11 does not: a statement naming one is refused
// with 1193, as on MariaDB, so that frameworks probing for MySQL 8
// (SQLAlchemy and Django read @@transaction_isolation on MySQL, and
// @@tx_isolation on MariaDB) take the MariaDB path. SET TRANSACTION
// ISOLATION LEVEL, which go-mysql-server turns into transaction_isolation
// itself, is not affected: only names written in the statement count.
var mysqlOnlyVariables = map[string]bool{"transaction_isolation": true}

// mysqlOnlyVariable returns the error for a statement that names one of
// mysqlOnlyVariables (as @@name, @@session.name, or the target of SET),
// or nil. Texts not holding such a name are not walked.
func mysqlOnlyVariable(text string, st ast.Statement) error {
	if !sqlbackend.ContainsFold(text, "transaction_isolation") {
		return nil
	}
	var found string
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *ast.SetVarExpr:
			if x.Name != nil {
				if v := VariableName(x.Name.Name.String()); mysqlOnlyVariables[v] {
					found = v
				}
			}
		case *ast.ColName:
			// @@session.name may come as a column of "table" @@session
			name := x.Name.String()
			if q := x.Qualifier.Name.String(); q != "" {
				name = q + "." + name
			}
			if v := VariableName(name); strings.HasPrefix(name, "@@") && mysqlOnlyVariables[v] {
				found = v
			}
		}
		return found == "", nil
	}, st)
	if found == "" {
		return nil
	}
	return errtable.SQLError(mysql.ERUnknownSystemVariable, found)
}

// variableName is a system variable's name without @@ and a scope
// (session., global., local.), in lower case.
func VariableName(s string) string {
	s = strings.ToLower(strings.TrimPrefix(s, "@@"))
	for _, p := range []string{"session.", "global.", "local."} {
		s = strings.TrimPrefix(s, p)
	}
	return s
}
