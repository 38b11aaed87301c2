package mariadb

import (
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// Column labels as MariaDB gives them, where the parser or go-mysql-server
// gives others. Both functions change the tree in place before planning.

// trimLabelCommas drops the comma (and the blanks around it) that the
// parser leaves at the start of a select expression's label when a blank
// comes before the comma: SELECT 1 , 2 labelled its second column ", 2"
// (MariaDB: "2"). No expression starts with a comma, so a label that
// does is always the parser's slip. Texts without a blank before a comma
// are not walked.
func trimLabelCommas(text string, st ast.Statement) {
	if !strings.Contains(text, " ,") && !strings.Contains(text, "\t,") && !strings.Contains(text, "\n,") {
		return
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if a, ok := n.(*ast.AliasedExpr); ok && strings.HasPrefix(a.InputExpression, ",") {
			a.InputExpression = strings.TrimSpace(a.InputExpression[1:])
		}
		return true, nil
	}, st)
}

// infoSchemaLabels labels each plain column of a SELECT that reads an
// information_schema table as it is written (SELECT column_name FROM
// information_schema.columns is labelled column_name, c.Table_Name is
// Table_Name), as MariaDB does: go-mysql-server labels them with the
// dictionary's upper-case names, which breaks dictionary cursors and
// struct tags. The label is the column's name as an alias, which any
// reference to the column by that name still finds. Texts without
// "information_schema" are not walked.
func infoSchemaLabels(text string, st ast.Statement) {
	if !sqlbackend.ContainsFold(text, "information_schema") {
		return
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		sel, ok := n.(*ast.Select)
		if !ok {
			return true, nil
		}
		for _, se := range sel.SelectExprs {
			ae, ok := se.(*ast.AliasedExpr)
			if !ok || !ae.As.IsEmpty() {
				continue
			}
			if c, ok := ae.Expr.(*ast.ColName); ok && !strings.HasPrefix(c.Name.String(), "@@") {
				ae.As = ast.NewColIdent(c.Name.String())
			}
		}
		return true, nil
	}, st)
}
