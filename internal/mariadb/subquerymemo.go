package mariadb

import (
	"fmt"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// memoMax bounds the values one memo keeps; past it, new values are
// computed without being kept.
const memoMax = 4096

// ruleSubqueryMemo: a correlated scalar subquery runs its plan for every
// row of the outer query, also for rows whose correlated columns hold
// values it has met before (the last rental of each of 4 customers ran
// it 48 times). subqueryMemoRule lets it answer those from a memo of the
// statement's execution, as MariaDB's subquery cache does.

// subqueryMemoRule wraps each correlated, non-volatile scalar subquery
// that is an operand of a comparison or a select expression, and whose
// plan keeps no state and reads only this backend's tables
// (ReusablePlan's test), in a memoSubquery keyed by the values of the
// outer columns it reads. It runs last (in OnceAfterAll), once the
// columns' execution indexes are known; only statements whose text has a
// nested SELECT are walked.
func subqueryMemoRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	// Only in a query: a statement that writes may change what the
	// subquery reads between two rows.
	if !nestedSelect(ctx.Query()) || !isQueryText(ctx.Query()) || !n.IsReadOnly() {
		return n, transform.SameTree, nil
	}
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		switch x := e.(type) {
		case *scalarSubquery: // a scalar subquery of WHERE (subquery.go)
			if m := newMemoSubquery(x.Subquery); m != nil {
				return m, transform.NewTree, nil
			}
			return e, transform.SameTree, nil
		case *expression.Alias, expression.Comparer:
		default:
			return e, transform.SameTree, nil
		}
		ch := e.Children()
		var nc []sql.Expression
		for i, c := range ch {
			s, ok := c.(*plan.Subquery)
			if !ok {
				continue
			}
			m := newMemoSubquery(s)
			if m == nil {
				continue
			}
			if nc == nil {
				nc = append([]sql.Expression(nil), ch...)
			}
			nc[i] = m
		}
		if nc == nil {
			return e, transform.SameTree, nil
		}
		ne, err := e.WithChildren(nc...)
		return ne, transform.NewTree, err
	})
}

// newMemoSubquery returns s memoized, or nil when s does not qualify or
// the row positions of its outer columns are not all known.
func newMemoSubquery(s *plan.Subquery) *memoSubquery {
	corr := s.Correlated()
	if corr.Empty() || s.Volatile() {
		return nil
	}
	var resets []func()
	if !sqlbackend.ReusableNode(s.Query, &resets) {
		return nil
	}
	pos := map[sql.ColumnId]int{}
	bad := false
	transform.InspectExpressions(s.Query, func(e sql.Expression) bool {
		if gf, ok := e.(*expression.GetField); ok && corr.Contains(gf.Id()) {
			if p, seen := pos[gf.Id()]; seen && p != gf.Index() {
				bad = true
			}
			pos[gf.Id()] = gf.Index()
		}
		return false
	})
	if bad || len(pos) != corr.Len() {
		return nil
	}
	m := &memoSubquery{Subquery: s, memo: map[string]interface{}{}}
	corr.ForEach(func(id sql.ColumnId) { m.cols = append(m.cols, pos[id]) })
	return m
}

// memoSubquery is a correlated scalar subquery with a memo of its answers
// by the values of the outer columns at cols. The memo belongs to one
// execution of the plan (the plan cache calls forget before it runs the
// plan again, see ReusablePlan); mu guards it.
type memoSubquery struct {
	*plan.Subquery
	cols []int

	mu   sync.Mutex
	memo map[string]interface{}
}

// Eval implements sql.Expression.
func (m *memoSubquery) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	var b strings.Builder
	for _, i := range m.cols {
		if i < 0 || i >= len(row) {
			return m.Subquery.Eval(ctx, row)
		}
		fmt.Fprintf(&b, "%T:%v\x00", row[i], row[i])
	}
	key := b.String()
	m.mu.Lock()
	v, ok := m.memo[key]
	m.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := m.Subquery.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if len(m.memo) < memoMax {
		m.memo[key] = v
	}
	m.mu.Unlock()
	return v, nil
}

// Reuse tells the plan cache (sqlbackend.ReusableExpression) that the
// memo may run again once forget has emptied it, if its plan may.
func (m *memoSubquery) Reuse() (bool, sql.Node, func()) { return true, m.Query, m.forget }

// forget empties the memo.
func (m *memoSubquery) forget() {
	m.mu.Lock()
	clear(m.memo)
	m.mu.Unlock()
}

// WithChildren implements sql.Expression (a subquery has none).
func (m *memoSubquery) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(m, len(children), 0)
	}
	return m, nil
}

// isQueryText reports whether the statement's text starts with SELECT or
// WITH (after blanks and parentheses).
func isQueryText(q string) bool {
	q = strings.TrimLeft(q, " \t\r\n(")
	return len(q) >= 6 && strings.EqualFold(q[:6], "select") || len(q) >= 4 && strings.EqualFold(q[:4], "with")
}
