package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// go-mysql-server evaluates LIKE on text only: a BINARY, VARBINARY or BLOB
// value that is not valid UTF-8 (HandlerSocket stores any bytes) makes it
// fail. MySQL compares binary strings byte by byte; an analyzer rule
// replaces every LIKE whose left side is binary by binaryLike, which does.

func binaryLikeRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		l, ok := e.(*expression.Like)
		if !ok || !gtypes.IsBinaryType(l.LeftChild.Type()) {
			return e, transform.SameTree, nil
		}
		return &binaryLike{Like: l}, transform.NewTree, nil
	})
}

// binaryLike is LIKE matching bytes: '%' matches any run of bytes, '_' one
// byte, and the escape character makes the next byte literal.
type binaryLike struct {
	*expression.Like
}

var _ sql.Expression = (*binaryLike)(nil)

// Eval matches the left value against the pattern.
func (b *binaryLike) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	left, err := evalBytes(ctx, b.LeftChild, row)
	if err != nil || left == nil {
		return nil, err
	}
	pat, err := evalBytes(ctx, b.RightChild, row)
	if err != nil || pat == nil {
		return nil, err
	}
	esc := byte('\\')
	if b.Escape != nil {
		e, err := evalBytes(ctx, b.Escape, row)
		if err != nil {
			return nil, err
		}
		if len(e) > 0 {
			esc = e[0]
		}
	}
	return likeBytes(left, pat, esc), nil
}

// WithChildren keeps the replacement when the analyzer rebuilds the tree.
func (b *binaryLike) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := b.Like.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &binaryLike{Like: e.(*expression.Like)}, nil
}

func evalBytes(ctx *sql.Context, e sql.Expression, row sql.Row) ([]byte, error) {
	v, err := e.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	if v, err = sql.UnwrapAny(ctx, v); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case []byte:
		return x, nil
	case string:
		return []byte(x), nil
	}
	s, _, err := gtypes.LongBlob.Convert(ctx, v)
	if err != nil {
		return nil, err
	}
	return s.([]byte), nil
}

// likeBytes reports whether s matches the LIKE pattern p byte by byte.
func likeBytes(s, p []byte, esc byte) bool {
	// Classic wildcard matching with one backtrack point for the last '%'.
	si, pi := 0, 0
	starP, starS := -1, 0
	for si < len(s) {
		if pi < len(p) {
			c := p[pi]
			switch {
			case c == '%':
				starP, starS = pi, si
				pi++
				continue
			case c == esc && pi+1 < len(p):
				if p[pi+1] == s[si] {
					si, pi = si+1, pi+2
					continue
				}
			case c == '_' || c == s[si]:
				si, pi = si+1, pi+1
				continue
			}
		}
		if starP < 0 {
			return false
		}
		starS++
		si, pi = starS, starP+1
	}
	for pi < len(p) && p[pi] == '%' {
		pi++
	}
	return pi == len(p)
}
