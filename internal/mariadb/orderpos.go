package mariadb

import (
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// orderPositions reads ORDER BY (1), an integer in parentheses, as
// MariaDB does: the position of a select-list column (Django writes
// every ordered UNION so). go-mysql-server took the parenthesized number
// for a constant and did not order at all. Only statements whose text
// holds both "order" and a parenthesis are walked.
func orderPositions(text string, st ast.Statement) {
	if !strings.Contains(text, "(") || !sqlbackend.ContainsFold(text, "order") {
		return
	}
	var visit ast.Visit
	visit = func(n ast.SQLNode) (bool, error) {
		if u, ok := n.(*ast.SetOp); ok {
			// (vitess's walk does not reach a UNION's own ORDER BY)
			_ = ast.Walk(visit, u.OrderBy)
			return true, nil
		}
		o, ok := n.(*ast.Order)
		if !ok {
			return true, nil
		}
		e := o.Expr
		for {
			p, ok := e.(*ast.ParenExpr)
			if !ok {
				break
			}
			e = p.Expr
		}
		if v, ok := e.(*ast.SQLVal); ok && v.Type == ast.IntVal && e != o.Expr {
			o.Expr = v
		}
		return true, nil
	}
	_ = ast.Walk(visit, st)
}
