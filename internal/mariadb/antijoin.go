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

// firstMatchRule makes an anti-join stop at the first match, as MariaDB's
// "Not exists" does. go-mysql-server plans both
//
//	FROM customer cu LEFT JOIN rental r ON r.customer_id = cu.id WHERE r.id IS NULL
//	FROM film f WHERE NOT EXISTS (SELECT 1 FROM inventory i WHERE i.film_id = f.id)
//
// as a LEFT JOIN through an index lookup under a filter "right column IS
// NULL", which reads every matching row of the right side and then drops
// them all. When the column is NOT NULL in its table, a row of the result
// is a left row without any match; so one match is as good as all, and
// the rule puts LIMIT 1 over the lookup.
//
// It does so only where every row the lookup returns satisfies the whole
// join condition (each conjunct is an equality of an index column with
// that column's lookup key): otherwise the first row might fail the condition and a later one pass.
// The rule is a pure function of the plan (safe for concurrent use); it
// runs after the join planner, on the physical plan.
func firstMatchRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		f, ok := n.(*plan.Filter)
		if !ok {
			return n, transform.SameTree, nil
		}
		// The filter may sit over projections of the join.
		var path []sql.Node
		child := f.Child
		for {
			if p, ok := child.(*plan.Project); ok {
				path = append(path, p)
				child = p.Child
				continue
			}
			break
		}
		j, ok := child.(*plan.JoinNode)
		if !ok || !j.Op.IsLeftOuter() {
			return n, transform.SameTree, nil
		}
		if _, done := j.Right().(*plan.Limit); done {
			return n, transform.SameTree, nil
		}
		if !nullTestsNotNullColumn(f.Expression, j.Right().Schema()) || !lookupEnforces(j.Filter, j.Right()) {
			return n, transform.SameTree, nil
		}
		lim := plan.NewLimit(expression.NewLiteral(int64(1), gtypes.Int64), j.Right())
		nj, err := j.WithChildren(j.Left(), lim)
		if err != nil {
			return nil, transform.SameTree, err
		}
		// Rebuild the projections between the filter and the join.
		if nj, err = rebuildPath(path, nj); err != nil {
			return nil, transform.SameTree, err
		}
		nf, err := f.WithChildren(nj)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return nf, transform.NewTree, nil
	})
}

// nullTestsNotNullColumn reports whether a conjunct of e is "c IS NULL"
// for a column c of sch that is NOT NULL in its table.
func nullTestsNotNullColumn(e sql.Expression, sch sql.Schema) bool {
	for _, c := range expression.SplitConjunction(e) {
		isNull, ok := c.(*expression.IsNull)
		if !ok {
			continue
		}
		gf, ok := isNull.Child.(*expression.GetField)
		if !ok {
			continue
		}
		for _, col := range sch {
			if !col.Nullable && strings.EqualFold(col.Name, gf.Name()) && strings.EqualFold(col.Source, gf.Table()) {
				return true
			}
		}
	}
	return false
}

// lookupEnforces reports whether right is an index lookup (an
// IndexedTableAccess with keys, under aliases, projections and filters;
// no prefix index) that applies every conjunct of the join condition
// itself: each is an equality of index column k with the lookup's k-th
// key, both of the same type or both integers. A lookup returns exactly
// the rows of its keys (table.PreciseMatch).
func lookupEnforces(cond sql.Expression, right sql.Node) bool {
	var ita *plan.IndexedTableAccess
	for n := right; ita == nil; {
		switch x := n.(type) {
		case *plan.IndexedTableAccess:
			ita = x
		case *plan.TableAlias:
			n = x.Child
		case *plan.Project:
			n = x.Child
		case *plan.Filter:
			n = x.Child
		default:
			return false
		}
	}
	if ita.IsStatic() || ita.Index() == nil {
		return false
	}
	keys := ita.Expressions()
	cols := ita.Index().Expressions()
	if len(keys) == 0 || len(keys) > len(cols) {
		return false
	}
	for _, l := range ita.Index().PrefixLengths() {
		if l != 0 {
			return false
		}
	}
	if cond == nil {
		return true
	}
	rightCols := map[string]bool{}
	for _, c := range right.Schema() {
		rightCols[strings.ToLower(c.Source)+"."+strings.ToLower(c.Name)] = true
	}
	for _, c := range expression.SplitConjunction(cond) {
		if lit, ok := c.(*expression.Literal); ok && lit.Value() == true {
			continue // what the join planner leaves when the lookup applies all
		}
		if _, ok := c.(*notExistsMark); ok {
			continue // TRUE (notexists.go)
		}
		eq, ok := c.(*expression.Equals)
		if !ok {
			return false
		}
		if !enforced(eq.Left(), eq.Right(), keys, cols, rightCols) && !enforced(eq.Right(), eq.Left(), keys, cols, rightCols) {
			return false
		}
	}
	return true
}

// enforced reports whether col = other is index column k = key k.
func enforced(col, other sql.Expression, keys []sql.Expression, cols []string, rightCols map[string]bool) bool {
	gf, ok := col.(*expression.GetField)
	if !ok || !rightCols[colKey(gf)] || !sameComparison(gf.Type(), other.Type()) {
		return false
	}
	for k, key := range keys {
		name := cols[k]
		if i := strings.LastIndexByte(name, '.'); i >= 0 {
			name = name[i+1:]
		}
		if strings.EqualFold(name, gf.Name()) && key.String() == other.String() {
			return true
		}
	}
	return false
}
