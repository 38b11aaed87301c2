package mariadb

import (
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// TestMergeNulls: the rule wraps a merge join's first condition, and the
// wrapper answers as go-mysql-server's comparison does (the same order,
// NULL from Eval, an ErrNilOperand from Compare for a NULL operand) but
// with the one error made in advance.
func TestMergeNulls(t *testing.T) {
	ctx := sql.NewEmptyContext()
	l := plan.NewEmptyTableWithSchema(sql.Schema{{Name: "a", Type: gtypes.Int32, Nullable: true, Source: "l"}})
	r := plan.NewEmptyTableWithSchema(sql.Schema{{Name: "b", Type: gtypes.Int32, Nullable: true, Source: "r"}})
	eq := expression.NewEquals(expression.NewGetField(0, gtypes.Int32, "a", true), expression.NewGetField(1, gtypes.Int32, "b", true))
	other := expression.NewGreaterThan(expression.NewGetField(0, gtypes.Int32, "a", true), expression.NewLiteral(int32(0), gtypes.Int32))
	for _, op := range []plan.JoinType{plan.JoinTypeMerge, plan.JoinTypeLeftOuterMerge, plan.JoinTypeInner} {
		j := plan.NewJoin(l, r, op, expression.NewAnd(eq, other))
		n, _, err := mergeNullsRule(ctx, nil, j, nil, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		first := expression.SplitConjunction(n.(*plan.JoinNode).Filter)[0]
		if _, wrapped := first.(*nullKeyComparer); wrapped != op.IsMerge() {
			t.Fatalf("%v: first condition %T", op, first)
		}
	}
	w := &nullKeyComparer{Comparer: eq}
	for _, row := range []sql.Row{{nil, int32(1)}, {int32(1), nil}, {nil, nil}, {int32(1), int32(1)}, {int32(1), int32(2)}, {int32(3), int32(2)}} {
		wc, werr := w.Compare(ctx, row)
		gc, gerr := eq.Compare(ctx, row)
		if row[0] == nil || row[1] == nil {
			if werr != nilOperand || !expression.ErrNilOperand.Is(gerr) {
				t.Fatalf("%v: errors %v, %v", row, werr, gerr)
			}
		} else if werr != nil || gerr != nil || wc != gc {
			t.Fatalf("%v: %d %v, want %d %v", row, wc, werr, gc, gerr)
		}
		wv, werr := w.Eval(ctx, row)
		gv, gerr := eq.Eval(ctx, row)
		if wv != gv || werr != nil || gerr != nil {
			t.Fatalf("%v: Eval %v %v, want %v %v", row, wv, werr, gv, gerr)
		}
	}
}
