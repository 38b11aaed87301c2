package sqlfront

import (
	"reflect"
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// Long UNION chains. The parser reads `s1 UNION s2 UNION ... sn` as a
// left-deep tree, n levels deep, and go-mysql-server's planner and
// analyzer take time that grows faster than the square of that depth (a
// chain of 900 SELECTs planned in 150 s; MariaDB runs 10,000 in 70 ms),
// while the depth guard refused 1000. A chain of one kind of UNION (all
// UNION ALL, or all UNION DISTINCT) means the same whatever its grouping:
// UNION ALL concatenates its operands in order and DISTINCT keeps each
// row once, and the result's column names come from the first SELECT, its
// types from all of them. balanceUnions regroups such chains into
// balanced trees (the operands in the same order, log2(n) deep), the
// chain's ORDER BY, LIMIT and INTO staying on its root. Chains that mix
// UNION ALL and UNION DISTINCT, and EXCEPT and INTERSECT chains, keep
// their shape.

// minBalancedUnions is the number of UNIONs from which a statement's
// chains are regrouped (below it, depth costs nothing worth a walk).
const minBalancedUnions = 16

// balanceUnions regroups the long UNION chains of st (text is its text,
// which says whether there can be any) and returns the statement, whose
// root may be a new node.
func balanceUnions(st ast.Statement, text string) ast.Statement {
	if st == nil || len(text) < 16*minBalancedUnions || countFold(text, "union") < minBalancedUnions {
		return st
	}
	if so, ok := st.(*ast.SetOp); ok {
		st = balanceChain(so)
	}
	balanceIn(reflect.ValueOf(st))
	return st
}

// countFold counts the occurrences of the lower-case word w in s, in any
// case.
func countFold(s, w string) int {
	n := 0
	for i := 0; i+len(w) <= len(s); i++ {
		if (s[i]|0x20) == w[0] && strings.EqualFold(s[i:i+len(w)], w) {
			n++
			i += len(w) - 1
		}
	}
	return n
}

var setOpType = reflect.TypeFor[*ast.SetOp]()

// balanceIn regroups the chains held anywhere under v.
func balanceIn(v reflect.Value) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if e.Type() == setOpType && v.CanSet() {
			b := balanceChain(e.Interface().(*ast.SetOp))
			v.Set(reflect.ValueOf(b))
			e = reflect.ValueOf(b)
		}
		balanceIn(e)
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == setOpType {
			// Walk the operands of a (balanced) chain without following
			// a left spine: balanceChain made it shallow.
			so := v.Interface().(*ast.SetOp)
			balanceIn(reflect.ValueOf(so).Elem())
			return
		}
		balanceIn(v.Elem())
	case reflect.Struct:
		for _, i := range structPlan(v.Type()) {
			balanceIn(v.Field(i))
		}
	case reflect.Slice, reflect.Array:
		if !mayHoldNodes(v.Type().Elem()) {
			return
		}
		for i := 0; i < v.Len(); i++ {
			balanceIn(v.Index(i))
		}
	case reflect.Map:
		// (no syntax node keeps SELECTs in a map)
	}
}

// balanceChain returns the chain whose root is so regrouped, when it is
// long and of one kind; else so.
func balanceChain(so *ast.SetOp) *ast.SetOp {
	kind := strings.ToLower(so.Type)
	if kind != ast.UnionStr && kind != ast.UnionAllStr && kind != ast.UnionDistinctStr {
		return so
	}
	// The operands, read down the left spine (iteratively: the spine is
	// as deep as the chain is long).
	var rights []ast.SelectStatement
	cur := so
	for {
		rights = append(rights, cur.Right)
		left, ok := cur.Left.(*ast.SetOp)
		if !ok || left.OrderBy != nil || left.Limit != nil || left.With != nil || left.Into != nil || left.Lock != "" || sameUnion(left.Type) != sameUnion(so.Type) {
			rights = append(rights, cur.Left)
			break
		}
		cur = left
	}
	if len(rights) < minBalancedUnions {
		return so
	}
	ops := make([]ast.SelectStatement, len(rights))
	for i, r := range rights {
		ops[len(rights)-1-i] = r
	}
	var build func(lo, hi int) ast.SelectStatement
	build = func(lo, hi int) ast.SelectStatement {
		if hi-lo == 1 {
			return ops[lo]
		}
		mid := (lo + hi + 1) / 2
		return &ast.SetOp{Type: so.Type, Left: build(lo, mid), Right: build(mid, hi)}
	}
	mid := (len(ops) + 1) / 2
	root := *so
	root.Left, root.Right = build(0, mid), build(mid, len(ops))
	return &root
}

// sameUnion names the kind of a UNION for grouping: UNION is UNION
// DISTINCT.
func sameUnion(t string) string {
	t = strings.ToLower(t)
	if t == ast.UnionStr {
		return ast.UnionDistinctStr
	}
	return t
}
