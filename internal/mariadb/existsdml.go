package mariadb

import (
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// existsInDML makes an UPDATE or DELETE whose WHERE holds [NOT]
// EXISTS (…) run as MariaDB runs it. go-mysql-server's plan builder
// marks a statement as reading one table unless it meets a scalar
// subquery, and EXISTS does not count as one: such an UPDATE or DELETE
// then takes the analyzer's short path, which never prepares the
// subquery, and fails with "attempted to evaluate uninitialized
// subquery". Each EXISTS reached through AND, OR, XOR, NOT, IS and
// parentheses becomes (EXISTS (…) AND (SELECT 1)): the same truth value
// (EXISTS is never NULL), with a scalar subquery the builder sees, so
// the statement gets the whole analysis. text is the statement's text;
// texts without "exists" are not walked.
func existsInDML(text string, st ast.Statement) {
	var w *ast.Where
	switch s := st.(type) {
	case *ast.Update:
		w = s.Where
	case *ast.Delete:
		w = s.Where
	default:
		return
	}
	if w == nil || !sqlbackend.ContainsFold(text, "exists") {
		return
	}
	w.Expr = existsMarked(w.Expr)
}

// existsMarked returns e with each EXISTS it reaches through logical
// operators and parentheses made (EXISTS (…) AND (SELECT 1)).
func existsMarked(e ast.Expr) ast.Expr {
	switch x := e.(type) {
	case *ast.ExistsExpr:
		one, err := ast.Parse("select 1")
		if err != nil {
			return e
		}
		sel, ok := one.(ast.SelectStatement)
		if !ok {
			return e
		}
		return &ast.ParenExpr{Expr: &ast.AndExpr{Left: x, Right: &ast.Subquery{Select: sel}}}
	case *ast.AndExpr:
		x.Left, x.Right = existsMarked(x.Left), existsMarked(x.Right)
	case *ast.OrExpr:
		x.Left, x.Right = existsMarked(x.Left), existsMarked(x.Right)
	case *ast.XorExpr:
		x.Left, x.Right = existsMarked(x.Left), existsMarked(x.Right)
	case *ast.NotExpr:
		x.Expr = existsMarked(x.Expr)
	case *ast.ParenExpr:
		x.Expr = existsMarked(x.Expr)
	case *ast.IsExpr:
		x.Expr = existsMarked(x.Expr)
	}
	return e
}
