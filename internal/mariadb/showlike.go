package mariadb

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// SHOW DATABASES LIKE 'p' and SHOW [FULL] TABLES LIKE 'p' name their first
// column with the pattern in MySQL and MariaDB: "Database (p)",
// "Tables_in_db (p)". go-mysql-server plans them as a LIKE filter over the
// listing and keeps the bare name; showLikeRule puts such a filter under a
// node that answers the same rows with the MySQL name. It runs before
// analysis, which turns a LIKE with a fixed prefix into a range. (SHOW ... WHERE
// keeps the bare name, as in MySQL.) The rule is a pure function of the
// plan; its nodes are built per statement.

func showLikeRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		switch f.Child.(type) {
		case *plan.ShowDatabases, *plan.ShowTables:
		default:
			return n, transform.SameTree, nil
		}
		pattern, ok := likePattern(f.Expression)
		if !ok {
			return n, transform.SameTree, nil
		}
		sch := append(sql.Schema(nil), f.Schema()...)
		if len(sch) == 0 {
			return n, transform.SameTree, nil
		}
		c := *sch[0]
		c.Name = fmt.Sprintf("%s (%s)", c.Name, pattern)
		sch[0] = &c
		return &showLike{Wrapper: sqlbackend.Wrapper{Child: f}, sch: sch}, transform.NewTree, nil
	})
}

// likePattern finds, among the conjuncts of e, a LIKE of the first column
// with a literal pattern.
func likePattern(e sql.Expression) (string, bool) {
	for _, c := range expression.SplitConjunction(e) {
		like, ok := c.(*expression.Like)
		if !ok {
			continue
		}
		gf, ok := like.LeftChild.(*expression.GetField)
		lit, ok2 := like.RightChild.(*expression.Literal)
		if !ok || !ok2 || gf.Index() != 0 {
			continue
		}
		if p, ok := lit.Value().(string); ok {
			return p, true
		}
	}
	return "", false
}

// showLike answers its child's rows under a schema whose first column has
// the LIKE pattern in its name.
type showLike struct {
	sqlbackend.Wrapper
	sch sql.Schema
}

var _ sql.ExecSourceRel = (*showLike)(nil)

func (s *showLike) Schema() sql.Schema { return s.sch }
func (s *showLike) IsReadOnly() bool   { return true }

func (s *showLike) WithChildren(children ...sql.Node) (sql.Node, error) {
	return sqlbackend.Rewrap(s, children, func(w sqlbackend.Wrapper) sql.Node { return &showLike{Wrapper: w, sch: s.sch} })
}

// RowIter runs the filtered listing.
func (s *showLike) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	return rowexec.DefaultBuilder.Build(ctx, s.Child, row)
}
