package mariadb

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// hiddenLike is a LIKE simplifyFilters does not recognise. It is
// immutable, safe for concurrent use.
type hiddenLike struct {
	*expression.Like
}

// WithChildren implements sql.Expression, keeping the wrapper.
func (h *hiddenLike) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := h.Like.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if l, ok := e.(*expression.Like); ok {
		return &hiddenLike{Like: l}, nil
	}
	return e, nil
}

// ruleHideLike and ruleShowLikeAgain keep go-mysql-server's filter
// simplification (simplifyFilters, once before the default rules) away
// from LIKE, which it rewrote wrongly: x LIKE 'p%' became x >= 'p' AND
// x <= 'p' + byte 255, an upper bound that utf8mb4_general_ci reads as
// 'pY' (so LIKE 'subquer%' missed 'subquery_1'), and a pattern without
// an unescaped wildcard became x = pattern, which kept the escape
// backslashes (LIKE 'a\_b' matched nothing) and compared with trailing
// spaces padded. hideLikeRule (before analysis) wraps each LIKE in a
// hiddenLike, and over a literal pattern 'p%' (no other wildcard, no
// escape) also adds x >= 'p' in front, the bound an index range can use
// (every value matching lies at or after its prefix in any collation);
// the LIKE itself stays and decides. showLikeAgainRule (after
// validation) unwraps it. Both are pure functions of the plan.

func hideLikeRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !sqlbackend.QueryContainsFold(ctx, "like") {
		return n, transform.SameTree, nil
	}
	return everyExprDeep(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		l, ok := e.(*expression.Like)
		if !ok {
			return e, transform.SameTree, nil
		}
		h := &hiddenLike{Like: l}
		if p, ok := likePrefix(l); ok {
			lower := expression.NewLiteral(p, l.RightChild.Type())
			return expression.NewAnd(expression.NewGreaterThanOrEqual(l.LeftChild, lower), h), transform.NewTree, nil
		}
		return h, transform.NewTree, nil
	})
}

// likePrefix is p of a LIKE over a text column whose pattern is the
// literal 'p%' with no other wildcard and no backslash.
func likePrefix(l *expression.Like) (string, bool) {
	if l.Escape != nil || gtypes.IsBinaryType(l.LeftChild.Type()) || !gtypes.IsText(l.LeftChild.Type()) {
		return "", false
	}
	if _, ok := l.LeftChild.(*expression.GetField); !ok {
		return "", false
	}
	r, ok := l.RightChild.(*expression.Literal)
	if !ok {
		return "", false
	}
	s, ok := r.Value().(string)
	if !ok || len(s) < 2 || s[len(s)-1] != '%' {
		return "", false
	}
	p := s[:len(s)-1]
	if strings.ContainsAny(p, "%_\\") {
		return "", false
	}
	return p, true
}

func showLikeAgainRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !sqlbackend.QueryContainsFold(ctx, "like") {
		return n, transform.SameTree, nil
	}
	return everyExprDeep(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if h, ok := e.(*hiddenLike); ok {
			return h.Like, transform.NewTree, nil
		}
		return e, transform.SameTree, nil
	})
}
