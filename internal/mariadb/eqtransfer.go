package mariadb

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// equalityTransferRule carries a column's equality with a constant across
// the joins that equate it with other columns, as MariaDB's optimizer
// does: in
//
//	FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id = 2500
//
// it adds i.order_id = 2500 to the WHERE clause. go-mysql-server pushes
// each constant filter down to its table, where it becomes an index
// lookup; without the copy it reads order_items whole (its join planner
// estimates the join's rows from the filtered side's distinct count, so
// it never prefers the lookup join).
//
// The copy is made only where it cannot change the result:
//   - the constant equality is a conjunct of the WHERE clause above the
//     joins, or of an inner join's condition, and the column equality a
//     conjunct of an inner join's condition (every row of the result
//     satisfies both); for a LEFT JOIN whose condition equates a column
//     of its right side with a column of its left side known constant,
//     the copy filters that LEFT JOIN's right side (the rows of the
//     result whose left column is not the constant are removed by the
//     WHERE clause anyway);
//   - both columns have the same type, or both are integers, so that both
//     comparisons compare in the same way (numbers, or one collation);
//   - the constant is a literal other than NULL.
//
// The rule is a pure function of the plan (safe for concurrent use) and
// idempotent: a conjunct already present is not added again.
func equalityTransferRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithCtx(n, nil, func(c transform.Context) (sql.Node, transform.TreeIdentity, error) {
		var where sql.Expression
		var j *plan.JoinNode
		switch x := c.Node.(type) {
		case *plan.Filter:
			j, _ = x.Child.(*plan.JoinNode)
			where = x.Expression
		case *plan.JoinNode:
			// A join under a WHERE clause is done with the WHERE clause,
			// one inside a join tree with its top.
			switch p := c.Parent.(type) {
			case *plan.Filter:
				return c.Node, transform.SameTree, nil
			case *plan.JoinNode:
				if p.Op.IsInner() || p.Op.IsLeftOuter() {
					return c.Node, transform.SameTree, nil
				}
			}
			j = x
		}
		if j == nil || !(j.Op.IsInner() || j.Op.IsLeftOuter()) {
			return c.Node, transform.SameTree, nil
		}
		t := newEqTransfer()
		if where != nil {
			t.constants(where)
		}
		t.walk(j)
		added := t.derived(where)
		newJ, changed := t.leftJoins(j)
		if len(added) == 0 && !changed {
			return c.Node, transform.SameTree, nil
		}
		if where != nil {
			added = append([]sql.Expression{where}, added...)
		}
		if len(added) == 0 {
			return newJ, transform.NewTree, nil
		}
		return plan.NewFilter(expression.JoinAnd(added...), newJ), transform.NewTree, nil
	})
}

// eqTransfer holds the column equalities of one join tree: classes of
// columns that every result row has equal, and the constant of a class.
type eqTransfer struct {
	parent map[string]string
	cols   map[string]*expression.GetField
	consts map[string]*expression.Literal // column -> its constant
	lefts  []*plan.JoinNode               // LEFT JOINs of the preserved part
}

func newEqTransfer() *eqTransfer {
	return &eqTransfer{parent: map[string]string{}, cols: map[string]*expression.GetField{}, consts: map[string]*expression.Literal{}}
}

func colKey(gf *expression.GetField) string {
	return strings.ToLower(gf.Table()) + "." + strings.ToLower(gf.Name())
}

func (t *eqTransfer) find(k string) string {
	for t.parent[k] != "" && t.parent[k] != k {
		k = t.parent[k]
	}
	return k
}

func (t *eqTransfer) union(a, b *expression.GetField) {
	ka, kb := colKey(a), colKey(b)
	t.cols[ka], t.cols[kb] = a, b
	if t.parent[ka] == "" {
		t.parent[ka] = ka
	}
	if t.parent[kb] == "" {
		t.parent[kb] = kb
	}
	if ra, rb := t.find(ka), t.find(kb); ra != rb {
		t.parent[ra] = rb
	}
}

// sameComparison reports whether equality with the same value means the
// same for columns of types a and b.
func sameComparison(a, b sql.Type) bool {
	if gtypes.IsInteger(a) && gtypes.IsInteger(b) {
		return true
	}
	return a.Equals(b)
}

// eqOperands returns the operands of e if it is an equality of a column
// with a column or a non-NULL literal.
func eqOperands(e sql.Expression) (*expression.GetField, sql.Expression, bool) {
	eq, ok := e.(*expression.Equals)
	if !ok {
		return nil, nil, false
	}
	l, r := eq.Left(), eq.Right()
	if gf, ok := l.(*expression.GetField); ok {
		if isOperand(r) {
			return gf, r, true
		}
	}
	if gf, ok := r.(*expression.GetField); ok {
		if isOperand(l) {
			return gf, l, true
		}
	}
	return nil, nil, false
}

func isOperand(e sql.Expression) bool {
	switch e := e.(type) {
	case *expression.GetField:
		return true
	case *expression.Literal:
		return e.Value() != nil
	}
	return false
}

// constants records the column = literal conjuncts of e.
func (t *eqTransfer) constants(e sql.Expression) {
	for _, c := range expression.SplitConjunction(e) {
		gf, other, ok := eqOperands(c)
		if !ok {
			continue
		}
		if lit, ok := other.(*expression.Literal); ok {
			k := colKey(gf)
			t.cols[k] = gf
			if _, seen := t.consts[k]; !seen {
				t.consts[k] = lit
			}
		}
	}
}

// walk records the equalities of the inner joins of the part of the tree
// every result row comes from, and the LEFT JOINs met there.
func (t *eqTransfer) walk(n sql.Node) {
	j, ok := n.(*plan.JoinNode)
	if !ok {
		return
	}
	switch {
	case j.Op.IsInner():
		if j.Filter != nil {
			t.constants(j.Filter)
			for _, c := range expression.SplitConjunction(j.Filter) {
				if a, b, ok := eqOperands(c); ok {
					if gb, ok := b.(*expression.GetField); ok && sameComparison(a.Type(), gb.Type()) {
						t.union(a, gb)
					}
				}
			}
		}
		t.walk(j.Left())
		t.walk(j.Right())
	case j.Op.IsLeftOuter():
		t.lefts = append(t.lefts, j)
		t.walk(j.Left())
	}
}

// constantOf returns the constant of gf's class, if any, and the column
// it was given for.
func (t *eqTransfer) constantOf(gf *expression.GetField) (*expression.Literal, *expression.GetField) {
	k := colKey(gf)
	if lit, ok := t.consts[k]; ok {
		return lit, gf
	}
	if t.parent[k] == "" {
		return nil, nil
	}
	root := t.find(k)
	for ck, lit := range t.consts {
		if t.parent[ck] != "" && t.find(ck) == root && sameComparison(t.cols[ck].Type(), gf.Type()) {
			return lit, t.cols[ck]
		}
	}
	return nil, nil
}

// derived returns the column = constant conjuncts the classes imply that
// are not in e yet.
func (t *eqTransfer) derived(e sql.Expression) []sql.Expression {
	have := map[string]bool{}
	if e != nil {
		for _, c := range expression.SplitConjunction(e) {
			have[c.String()] = true
		}
	}
	var out []sql.Expression
	for k, gf := range t.cols {
		if _, ok := t.consts[k]; ok || t.parent[k] == "" {
			continue
		}
		lit, _ := t.constantOf(gf)
		if lit == nil {
			continue
		}
		eq := expression.NewEquals(gf, lit)
		if !have[eq.String()] {
			have[eq.String()] = true
			out = append(out, eq)
		}
	}
	// A stable order, so that the plan of a query is always the same.
	sortByString(out)
	return out
}

// leftJoins returns j with the constants carried into the conditions of
// its LEFT JOINs.
func (t *eqTransfer) leftJoins(j *plan.JoinNode) (sql.Node, bool) {
	if len(t.lefts) == 0 {
		return j, false
	}
	// Keyed by condition: rebuilding a parent keeps its condition but
	// not its pointer.
	todo := map[sql.Expression]bool{}
	for _, l := range t.lefts {
		if l.Filter != nil {
			todo[l.Filter] = true
		}
	}
	changed := false
	out, _, err := transform.Node(j, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		l, ok := n.(*plan.JoinNode)
		if !ok || l.Filter == nil || !todo[l.Filter] {
			return n, transform.SameTree, nil
		}
		leftCols := map[string]bool{}
		for _, c := range l.Left().Schema() {
			leftCols[strings.ToLower(c.Source)+"."+strings.ToLower(c.Name)] = true
		}
		have := map[string]bool{}
		conj := expression.SplitConjunction(l.Filter)
		if rf, ok := l.Right().(*plan.Filter); ok {
			for _, c := range expression.SplitConjunction(rf.Expression) {
				have[c.String()] = true
			}
		}
		var add []sql.Expression
		for _, c := range conj {
			a, b, ok := eqOperands(c)
			if !ok {
				continue
			}
			gb, ok := b.(*expression.GetField)
			if !ok {
				continue
			}
			inner, outer := a, gb // inner: the right side's column
			if leftCols[colKey(a)] && !leftCols[colKey(gb)] {
				inner, outer = gb, a
			} else if !(leftCols[colKey(gb)] && !leftCols[colKey(a)]) {
				continue
			}
			if !sameComparison(inner.Type(), outer.Type()) {
				continue
			}
			lit, _ := t.constantOf(outer)
			if lit == nil {
				continue
			}
			eq := expression.NewEquals(inner, lit)
			if !have[eq.String()] {
				have[eq.String()] = true
				add = append(add, eq)
			}
		}
		if len(add) == 0 {
			return n, transform.SameTree, nil
		}
		// The copies reference the right side only: they filter it
		// before the join, where go-mysql-server pushes them into its
		// table (it keeps a LEFT JOIN's condition whole).
		changed = true
		nl, err := l.WithChildren(l.Left(), plan.NewFilter(expression.JoinAnd(add...), l.Right()))
		if err != nil {
			return nil, transform.SameTree, err
		}
		return nl, transform.NewTree, nil
	})
	if err != nil {
		return j, false
	}
	return out, changed
}

func sortByString(es []sql.Expression) {
	for i := 1; i < len(es); i++ {
		for k := i; k > 0 && es[k].String() < es[k-1].String(); k-- {
			es[k], es[k-1] = es[k-1], es[k]
		}
	}
}
