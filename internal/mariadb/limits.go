package mariadb

import (
	"math"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// topNLimitsRule: ORDER BY ... LIMIT n OFFSET m becomes a TopN of n + m
// rows under the offset; for LIMIT 18446744073709551615 OFFSET 5 (what
// Django writes for qs[5:], "all the rest", and MariaDB documents) the sum
// overflowed BIGINT and the TopN kept no row. A sum of two constants is
// computed here, at most BIGINT's maximum. The rule is a pure function of
// the plan.
func topNLimitsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !sqlbackend.QueryContainsFold(ctx, "limit") {
		return n, transform.SameTree, nil
	}
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		t, ok := n.(*plan.TopN)
		if !ok {
			return n, transform.SameTree, nil
		}
		sum, ok := unwrapArith(t.Limit)
		if !ok || sum.Op != "+" {
			return n, transform.SameTree, nil
		}
		l, lok := constantCount(ctx, sum.Left())
		r, rok := constantCount(ctx, sum.Right())
		if !lok || !rok {
			return n, transform.SameTree, nil
		}
		total := uint64(math.MaxInt64)
		if l <= total && r <= total-l {
			total = l + r
		}
		nt := *t
		nt.Limit = expression.NewLiteral(int64(total), gtypes.Int64)
		return &nt, transform.NewTree, nil
	})
}

// unwrapArith returns e's arithmetic, under HandlerDB's checked form.
func unwrapArith(e sql.Expression) (*expression.Arithmetic, bool) {
	switch x := e.(type) {
	case *expression.Arithmetic:
		return x, true
	case *checkedArith:
		return x.Arithmetic, true
	}
	return nil, false
}

// constantCount evaluates a LIMIT or OFFSET constant as a row count.
func constantCount(ctx *sql.Context, e sql.Expression) (uint64, bool) {
	lit, ok := e.(*expression.Literal)
	if !ok {
		return 0, false
	}
	switch v := lit.Value().(type) {
	case int64:
		return uint64(max(v, 0)), true
	case int32:
		return uint64(max(v, 0)), true
	case int8:
		return uint64(max(v, 0)), true
	case int16:
		return uint64(max(v, 0)), true
	case uint64:
		return v, true
	case uint32:
		return uint64(v), true
	case uint8:
		return uint64(v), true
	case uint16:
		return uint64(v), true
	}
	return 0, false
}
