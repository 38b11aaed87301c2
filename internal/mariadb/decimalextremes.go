package mariadb

import (
	"reflect"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// MIN and MAX of a DECIMAL: go-mysql-server compares each row's value
// with the smallest (or largest) so far through the DECIMAL type, which
// rounds both to its scale by printing and parsing them (half of a
// report's time over 5,000 payments). decimalExtremesRule replaces a
// grouped MIN or MAX of a DECIMAL argument by decimalExtreme, whose
// buffer compares two decimals directly; the values are the argument's,
// already of its scale, so the answer is the same.
//
// decimalExtremesRule is a pure function of the plan; a decimalExtreme is
// immutable and each buffer it makes serves one group, on the goroutine
// of its statement.

func decimalExtremesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if _, ok := n.(*plan.GroupBy); !ok {
			return n, transform.SameTree, nil
		}
		return transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				if x, ok := newDecimalExtreme(e); ok {
					return x, transform.NewTree, nil
				}
				return e, transform.SameTree, nil
			})
		})
	})
}

// decimalExtreme is go-mysql-server's grouped MIN or MAX (inner) of a
// DECIMAL argument, with a buffer that compares decimals directly.
type decimalExtreme struct {
	sql.Aggregation
	max bool
}

// newDecimalExtreme wraps e if it is a MIN or MAX without a window whose
// argument is DECIMAL.
func newDecimalExtreme(e sql.Expression) (*decimalExtreme, bool) {
	var max bool
	switch x := e.(type) {
	case *aggregation.Min:
		if x.Window() != nil {
			return nil, false
		}
	case *aggregation.Max:
		if x.Window() != nil {
			return nil, false
		}
		max = true
	default:
		return nil, false
	}
	agg := e.(sql.Aggregation)
	ch := agg.Children()
	if len(ch) != 1 || !gtypes.IsDecimal(ch[0].Type()) {
		return nil, false
	}
	return &decimalExtreme{Aggregation: agg, max: max}, true
}

var _ sql.Aggregation = (*decimalExtreme)(nil)

func (x *decimalExtreme) rewrap(e sql.Expression) sql.Expression {
	if nx, ok := newDecimalExtreme(e); ok {
		return nx
	}
	return e
}

// WithChildren keeps the replacement when the analyzer rebuilds the tree.
func (x *decimalExtreme) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := x.Aggregation.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return x.rewrap(e), nil
}

// WithId implements sql.IdExpression.
func (x *decimalExtreme) WithId(id sql.ColumnId) sql.IdExpression {
	e := x.Aggregation.WithId(id)
	if r, ok := x.rewrap(e).(sql.IdExpression); ok {
		return r
	}
	return e
}

// WithWindow returns go-mysql-server's windowed function (its window
// function compares as before).
func (x *decimalExtreme) WithWindow(w *sql.WindowDefinition) sql.WindowAdaptableExpression {
	return x.Aggregation.WithWindow(w)
}

// NewBuffer implements sql.Aggregation.
func (x *decimalExtreme) NewBuffer() (sql.AggregationBuffer, error) {
	c, err := transform.Clone(x.Aggregation.Children()[0])
	if err != nil {
		return nil, err
	}
	return &extremeBuffer{expr: c, max: x.max}, nil
}

// extremeBuffer keeps the smallest (or largest) value of its group.
type extremeBuffer struct {
	expr sql.Expression
	max  bool
	val  interface{}
}

// Update takes a row's value if it is smaller (larger) than the kept one;
// NULL is skipped.
func (b *extremeBuffer) Update(ctx *sql.Context, row sql.Row) error {
	v, err := b.expr.Eval(ctx, row)
	if err != nil {
		return err
	}
	if reflect.TypeOf(v) == nil {
		return nil
	}
	if b.val == nil {
		b.val = v
		return nil
	}
	var cmp int
	d1, ok1 := v.(decimal.Decimal)
	d2, ok2 := b.val.(decimal.Decimal)
	if ok1 && ok2 {
		cmp = d1.Cmp(d2)
	} else if cmp, err = b.expr.Type().Compare(ctx, v, b.val); err != nil {
		return err
	}
	if (b.max && cmp > 0) || (!b.max && cmp < 0) {
		b.val = v
	}
	return nil
}

// Eval returns the kept value (NULL if none).
func (b *extremeBuffer) Eval(ctx *sql.Context) (interface{}, error) { return b.val, nil }

// Dispose implements sql.Disposable.
func (b *extremeBuffer) Dispose() { expression.Dispose(b.expr) }
