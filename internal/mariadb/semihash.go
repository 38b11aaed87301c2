package mariadb

import (
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/vitess/go/vt/proto/query"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// semiHashRule materializes the subquery of an IN or NOT IN that
// go-mysql-server left as a nested-loop semi- or anti-join. Its join
// planner gives up on a side it cannot reorder (a GROUP BY, HAVING or
// window under the subquery) and keeps the nested loop, which runs the
// whole subquery again for every outer row: `id IN (SELECT customer_id
// FROM payment GROUP BY customer_id HAVING SUM(amount) > 75)` aggregated
// the 5,848 payments once per customer, 2 s where MariaDB, which
// materializes the subquery, takes 4 ms. The rule puts a hash lookup over
// the subquery's side (materializedLookup over go-mysql-server's own
// HashLookup: the child runs once per execution and its rows are kept by
// key) and makes the join its hash variant, as the planner does for the
// joins it reorders.
//
// The rule applies only where the two plans answer alike:
//   - the right side is uncorrelated: it reads no column of the left
//     side's tables or of the enclosing scopes', and holds no subquery
//     expression, volatile function, variable or subquery alias that sees
//     outer scopes, so its rows are the same for every outer row;
//   - the join condition is a conjunction with at least one equality of a
//     left-side expression with a right-side one, each pair of integer
//     types whose values the left one holds (the lookup converts each key
//     to the left key's type and hashes its printed value, which other
//     types, e.g. strings under a case-insensitive collation, do not
//     keep equal where SQL does); the whole condition is still evaluated
//     on every row the lookup returns;
//   - for NOT IN (go-mysql-server's anti-join rejects a left row when the
//     condition is NULL for any right row), the condition is that one
//     equality alone and the right key is never NULL: the lookup answers
//     a NULL left key with some right rows, which then compare NULL as
//     they must, but it would not find a NULL right key for a left key
//     without a match.
//
// The rule is a pure function of the plan, safe for concurrent use; it
// runs after the join planner, on the physical plan.
func semiHashRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		j, ok := n.(*plan.JoinNode)
		if !ok || (j.Op != plan.JoinTypeSemi && j.Op != plan.JoinTypeAnti) || j.Filter == nil {
			return n, transform.SameTree, nil
		}
		right := j.Right()
		switch right.(type) {
		case *plan.HashLookup, *plan.CachedResults, *materializedLookup:
			return n, transform.SameTree, nil
		}
		leftTables := tablesUnder(j.Left())
		outer := leftTables
		for _, sn := range scope.InnerToOuter() {
			outer = outer.Union(tablesUnder(sn))
		}
		if !uncorrelated(right, outer) {
			return n, transform.SameTree, nil
		}
		rightTables := tablesUnder(right)
		var leftKeys, rightKeys []sql.Expression
		conjuncts := expression.SplitConjunction(j.Filter)
		for _, c := range conjuncts {
			eq, ok := c.(*expression.Equals)
			if !ok {
				continue
			}
			l, r := eq.Left(), eq.Right()
			if readsOnly(r, leftTables) && readsOnly(l, rightTables) {
				l, r = r, l
			}
			if !readsOnly(l, leftTables) || !readsOnly(r, rightTables) || !intKeyCovers(l.Type(), r.Type()) {
				continue
			}
			leftKeys = append(leftKeys, l)
			rightKeys = append(rightKeys, r)
		}
		if len(leftKeys) == 0 {
			return n, transform.SameTree, nil
		}
		if j.Op == plan.JoinTypeAnti && (len(conjuncts) != 1 || len(leftKeys) != 1 || rightKeys[0].IsNullable()) {
			return n, transform.SameTree, nil
		}
		op := j.Op.AsHash()
		hl := plan.NewHashLookup(right, expression.Tuple(rightKeys), expression.Tuple(leftKeys), op)
		nn, err := j.WithChildren(j.Left(), &materializedLookup{hl: hl})
		if err != nil {
			return nil, transform.SameTree, err
		}
		nj := nn.(*plan.JoinNode)
		nj.Op = op
		return nj, transform.NewTree, nil
	})
}

// materializedLookup runs its hash lookup's child to the end, once per
// execution of the plan, before the first probe. go-mysql-server's
// HashLookup keeps the rows it hashed only when its first caller reads
// them to the end, which a semi- or anti-join does not (it stops at a
// match), and it never closes its child, whose caches (a GROUP BY's)
// then outlive the query; it serves an inner or outer join, which reads
// every row. The node holds its HashLookup (whose keys go-mysql-server
// places in the join's scopes, as for its own hash joins) and keeps the
// hashed rows in it, so the plan's disposal drops them; its state is the
// HashLookup's, under that node's mutex.
type materializedLookup struct {
	hl *plan.HashLookup
}

var (
	_ sqlbackend.StatelessNode = (*materializedLookup)(nil)
	_ sql.Node                 = (*materializedLookup)(nil)
	_ sql.ExecSourceRel        = (*materializedLookup)(nil)
	_ sql.CollationCoercible   = (*materializedLookup)(nil)
)

// Stateless marks the node for the plan cache: its state is its
// HashLookup's, which the cache resets.
func (m *materializedLookup) Stateless() {}

// Resolved is the lookup's.
func (m *materializedLookup) Resolved() bool { return m.hl.Resolved() }

// IsReadOnly is the lookup's.
func (m *materializedLookup) IsReadOnly() bool { return m.hl.IsReadOnly() }

// Schema is the lookup's.
func (m *materializedLookup) Schema() sql.Schema { return m.hl.Schema() }

// Children is the hash lookup.
func (m *materializedLookup) Children() []sql.Node { return []sql.Node{m.hl} }

// WithChildren takes a hash lookup.
func (m *materializedLookup) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(m, len(children), 1)
	}
	hl, ok := children[0].(*plan.HashLookup)
	if !ok {
		return nil, fmt.Errorf("materialized lookup over %T", children[0])
	}
	return &materializedLookup{hl: hl}, nil
}

// CollationCoercibility is the lookup's.
func (m *materializedLookup) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	return m.hl.CollationCoercibility(ctx)
}

// String prints the node over its lookup.
func (m *materializedLookup) String() string {
	pr := sql.NewTreePrinter()
	_ = pr.WriteNode("Materialize")
	_ = pr.WriteChildren(m.hl.String())
	return pr.String()
}

// DebugString is String with the lookup's debug form.
func (m *materializedLookup) DebugString() string {
	pr := sql.NewTreePrinter()
	_ = pr.WriteNode("Materialize")
	_ = pr.WriteChildren(sql.DebugString(m.hl))
	return pr.String()
}

// RowIter hashes the child's rows on the first call of an execution and
// returns those whose key is row's probe key. A NULL probe key of an
// anti-join gets some row of the lookup when it has one (the join then
// compares NULL and rejects the row, as NOT IN does), as go-mysql-server's
// HashLookup does for the joins that reject NULL comparisons.
func (m *materializedLookup) RowIter(ctx *sql.Context, row sql.Row) (sql.RowIter, error) {
	hl := m.hl
	hl.Mutex.Lock()
	defer hl.Mutex.Unlock()
	if hl.Lookup == nil {
		lookup, err := hashRows(ctx, hl, row)
		if err != nil {
			return nil, err
		}
		hl.Lookup = &lookup
	}
	key, err := hl.GetHashKey(ctx, hl.LeftProbeKey, row)
	if err != nil {
		return nil, err
	}
	rows := (*hl.Lookup)[key]
	if len(rows) == 0 && hl.JoinType.IsExcludeNulls() {
		for _, rs := range *hl.Lookup {
			if len(rs) > 0 {
				return sql.RowsToRowIter(rs[0]), nil
			}
		}
	}
	return sql.RowsToRowIter(rows...), nil
}

// hashRows runs hl's child to the end and returns its rows by key.
func hashRows(ctx *sql.Context, hl *plan.HashLookup, row sql.Row) (map[interface{}][]sql.Row, error) {
	lookup := map[interface{}][]sql.Row{}
	err := drainChild(ctx, hl.Child, row, func(r sql.Row) error {
		key, err := hl.GetHashKey(ctx, hl.RightEntryKey, r)
		if err == nil {
			lookup[key] = append(lookup[key], r)
		}
		return err
	})
	return lookup, err
}

// isPartialJoin is semiHashRule's gate: a nested-loop semi- or anti-join.
func isPartialJoin(n sql.Node) bool {
	j, ok := n.(*plan.JoinNode)
	return ok && (j.Op == plan.JoinTypeSemi || j.Op == plan.JoinTypeAnti)
}

// uncorrelated reports whether n reads no column of the tables in outer
// (the other side of its join and the enclosing scopes), and holds no
// subquery expression, volatile function, variable, subquery alias that
// sees outer scopes, or recursive CTE table (whose rows change as it
// runs).
func uncorrelated(n sql.Node, outer sql.FastIntSet) bool {
	ok := true
	transform.Inspect(n, func(n sql.Node) bool {
		switch x := n.(type) {
		case *plan.SubqueryAlias:
			if x.OuterScopeVisibility || x.IsLateral {
				ok = false
			}
		case *plan.RecursiveTable, *plan.RecursiveCte:
			ok = false
		}
		return ok
	})
	if !ok {
		return false
	}
	transform.InspectExpressions(n, func(e sql.Expression) bool {
		switch x := e.(type) {
		case *plan.Subquery:
			ok = false
		case sql.NonDeterministicExpression:
			if x.IsNonDeterministic() {
				ok = false
			}
		case *expression.GetField:
			if outer.Contains(int(x.TableId())) {
				ok = false
			}
		case *expression.UserVar, *expression.ProcedureParam:
			ok = false
		}
		return ok
	})
	return ok
}

// tablesUnder returns the ids of the tables under n.
func tablesUnder(n sql.Node) sql.FastIntSet {
	var ids sql.FastIntSet
	transform.Inspect(n, func(n sql.Node) bool {
		if t, ok := n.(plan.TableIdNode); ok {
			ids.Add(int(t.Id()))
		}
		return true
	})
	return ids
}

// readsOnly reports whether e reads at least one column and only columns
// of the tables in ids (readsWithin).
func readsOnly(e sql.Expression, ids sql.FastIntSet) bool {
	read := transform.InspectExpr(e, func(e sql.Expression) bool {
		_, ok := e.(*expression.GetField)
		return ok
	})
	return read && readsWithin(e, ids)
}

// readsWithin reports whether every column e reads is of a table in ids,
// and e holds no subquery or variable (whose values come from elsewhere).
func readsWithin(e sql.Expression, ids sql.FastIntSet) bool {
	return !transform.InspectExpr(e, func(e sql.Expression) bool {
		switch x := e.(type) {
		case *expression.GetField:
			return !ids.Contains(int(x.TableId()))
		case *plan.Subquery, *expression.UserVar, *expression.ProcedureParam:
			return true
		}
		return false
	})
}

// intKeyCovers reports whether l and r are integer types and every value
// of r is one of l: the hash lookup converts r's values to l.
func intKeyCovers(l, r sql.Type) bool {
	ls, lb, ok1 := intWidth(l)
	rs, rb, ok2 := intWidth(r)
	if !ok1 || !ok2 {
		return false
	}
	if ls == rs {
		return lb >= rb
	}
	return ls && lb > rb // a signed type holds a narrower unsigned one
}

// intWidth returns whether t is a signed integer type and its width in
// bits.
func intWidth(t sql.Type) (signed bool, bits int, ok bool) {
	switch t.Type() {
	case query.Type_INT8:
		return true, 8, true
	case query.Type_UINT8:
		return false, 8, true
	case query.Type_INT16:
		return true, 16, true
	case query.Type_UINT16:
		return false, 16, true
	case query.Type_INT24:
		return true, 24, true
	case query.Type_UINT24:
		return false, 24, true
	case query.Type_INT32:
		return true, 32, true
	case query.Type_UINT32:
		return false, 32, true
	case query.Type_INT64:
		return true, 64, true
	case query.Type_UINT64:
		return false, 64, true
	}
	return false, 0, false
}
