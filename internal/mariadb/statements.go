package mariadb

import (
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// The passes over a parsed statement, in the order the SQL front's parser
// applies them (sqlfront's guardedParser, after the text rewrites of
// dialect.go and replication.go when the parser refused the text). text
// is the statement's text. Like the rules, the passes are pure functions
// of their statement, which serves one goroutine.

// RewriteStatement adjusts a parsed statement to MariaDB: utf8mb4's
// default collation (charsets.go), TIME(n) scales (timescale.go), ORDER
// BY (1) (orderpos.go), column labels (labels.go), [NOT] EXISTS in UPDATE
// and DELETE (existsdml.go), DROP CONSTRAINT IF EXISTS (ddlwords.go), and
// MATCH ... AGAINST as the backend evaluates it (sqlbackend.RewriteMatch).
func RewriteStatement(text string, st ast.Statement) {
	charsetDefaults(st)
	timeScales(st)
	orderPositions(text, st)
	trimLabelCommas(text, st)
	infoSchemaLabels(text, st)
	existsInDML(text, st)
	dropIfExists(text, st)
	qualifiedFunctions(text, st)
	sqlbackend.RewriteMatch(text, st)
}

// qualifiedFunctions names each call of a function qualified by its
// database (db.f(...)) "db.f": go-mysql-server looks a function up by its
// name alone, in the current database, so db.f(...) ran another
// database's f of that name or none (1305); the backend's
// Provider.Function reads the qualifier from the name.
func qualifiedFunctions(text string, st ast.Statement) {
	if !strings.Contains(text, ".") {
		return // (no qualified name: no walk)
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if f, ok := n.(*ast.FuncExpr); ok && !f.Qualifier.IsEmpty() {
			f.Name = ast.NewColIdent(f.Qualifier.String() + "." + f.Name.String())
			f.Qualifier = ast.TableIdent{}
		}
		return true, nil
	}, st)
}

// CheckStatement refuses what MariaDB refuses that the parser took
// (mysqlOnlyVariable, sysvars.go), then applies ReportRewrite
// (reportsyntax.go).
func CheckStatement(text string, st ast.Statement) error {
	if err := mysqlOnlyVariable(text, st); err != nil {
		return err
	}
	return ReportRewrite(text, st)
}
