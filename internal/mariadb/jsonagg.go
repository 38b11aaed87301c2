package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// ruleBoundedJSONAgg wraps JSON_ARRAYAGG and JSON_OBJECTAGG in a
// boundedJSONAgg, whose buffer counts the bytes of the values its group
// has kept and, once they pass max_allowed_packet, keeps no more: the
// result is NULL with warning 1301, as for any other value past the
// limit. go-mysql-server's keeps every value of the group (a GROUP BY
// of large values held gigabytes). MariaDB cuts JSON_ARRAYAGG at
// group_concat_max_len (warning 1260, a document that is no longer
// JSON); HandlerDB answers the whole document up to the packet limit.

// boundedJSONAggRule swaps the two aggregates, only when the statement's
// text names one.
func boundedJSONAggRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	if !sqlbackend.QueryContainsFold(ctx, "json_arrayagg") && !sqlbackend.QueryContainsFold(ctx, "json_objectagg") {
		return n, transform.SameTree, nil
	}
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		if b := newBoundedJSONAgg(e); b != nil {
			return b, transform.NewTree, nil
		}
		return e, transform.SameTree, nil
	})
}

// boundedJSONAgg is JSON_ARRAYAGG or JSON_OBJECTAGG with its group
// bounded by max_allowed_packet. It is immutable, safe for concurrent
// use; each buffer belongs to one group's iterator. As a window
// function (OVER) it is go-mysql-server's, unbounded.
type boundedJSONAgg struct {
	sql.Aggregation
	name string
}

// newBoundedJSONAgg is e bounded, nil when e is neither aggregate.
func newBoundedJSONAgg(e sql.Expression) *boundedJSONAgg {
	switch a := e.(type) {
	case *aggregation.JsonArray:
		return &boundedJSONAgg{Aggregation: a, name: "json_arrayagg"}
	case *aggregation.JSONObjectAgg:
		return &boundedJSONAgg{Aggregation: a, name: "json_objectagg"}
	}
	return nil
}

// NewBuffer implements sql.Aggregation.
func (b *boundedJSONAgg) NewBuffer() (sql.AggregationBuffer, error) {
	inner, err := b.Aggregation.NewBuffer()
	if err != nil {
		return nil, err
	}
	return &boundedJSONBuffer{agg: b, inner: inner}, nil
}

// WithChildren implements sql.Expression.
func (b *boundedJSONAgg) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	c, err := b.Aggregation.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if nb := newBoundedJSONAgg(c); nb != nil {
		return nb, nil
	}
	return c, nil
}

// WithId implements sql.IdExpression.
func (b *boundedJSONAgg) WithId(id sql.ColumnId) sql.IdExpression {
	c := b.Aggregation.WithId(id)
	if nb := newBoundedJSONAgg(c); nb != nil {
		return nb
	}
	return c
}

// FunctionName implements sql.FunctionExpression.
func (b *boundedJSONAgg) FunctionName() string { return b.name }

// Description implements sql.FunctionExpression.
func (b *boundedJSONAgg) Description() string { return b.name + "() bounded by max_allowed_packet" }

// CollationCoercibility implements sql.CollationCoercible.
func (b *boundedJSONAgg) CollationCoercibility(ctx *sql.Context) (sql.CollationID, byte) {
	if c, ok := b.Aggregation.(sql.CollationCoercible); ok {
		return c.CollationCoercibility(ctx)
	}
	return sql.Collation_binary, 6
}

// boundedJSONBuffer is one group's buffer: go-mysql-server's (inner) fed
// until the values passed to it (counted in size) pass the limit. Not
// safe for concurrent use.
type boundedJSONBuffer struct {
	agg   *boundedJSONAgg
	inner sql.AggregationBuffer
	size  float64
	over  bool
}

// Update implements sql.AggregationBuffer.
func (g *boundedJSONBuffer) Update(ctx *sql.Context, row sql.Row) error {
	if g.over {
		return nil
	}
	for _, c := range g.agg.Children() {
		v, err := c.Eval(ctx, row)
		if err != nil {
			return err
		}
		g.size += valueLen(v) + 4 // quotes, separator, colon or a literal's letters
	}
	if g.size > float64(maxPacket(ctx)) {
		g.over = true
		g.inner.Dispose()
		g.inner = nil
		return nil
	}
	return g.inner.Update(ctx, row)
}

// Eval implements sql.AggregationBuffer.
func (g *boundedJSONBuffer) Eval(ctx *sql.Context) (interface{}, error) {
	if g.over {
		limit := maxPacket(ctx)
		ctx.Warn(errtable.ERWarnAllowedPacketOverflowed, "Result of %s() was larger than max_allowed_packet (%d) - truncated", g.agg.name, limit)
		return nil, nil
	}
	return g.inner.Eval(ctx)
}

// Dispose implements sql.AggregationBuffer.
func (g *boundedJSONBuffer) Dispose() {
	if g.inner != nil {
		g.inner.Dispose()
	}
}
