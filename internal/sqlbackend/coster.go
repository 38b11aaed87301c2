package sqlbackend

import (
	"math"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/memo"
	"github.com/dolthub/go-mysql-server/sql/plan"
)

// coster is go-mysql-server's join coster with the price of reading a
// whole secondary index in order. go-mysql-server costs a merge join as
// two sequential scans; but each entry of a secondary index leads to its
// row by a read of the primary index (engine.Iterator), so a merge join
// over a secondary index of a 6,000-row table made 6,000 random reads
// where a hash join over the primary index makes none. The coster adds
// one random read per row of each side scanned through a secondary index
// (the factor go-mysql-server gives a lookup's random read).
//
// It also adds lookupOverhead per left row to a lookup join, and rules
// out (bypassCost) a merge join with a side, and a lookup join with a
// right side, that must be made distinct: go-mysql-server offers, for a
// semi join (WHERE EXISTS, IN (SELECT ...)), an inner join over the
// distinct rows of the subquery's side, and those two joins read that
// side's table through an index, without the distinct. EXISTS (SELECT 1
// FROM t x WHERE x.a = t.a) over a primary key (a, b) then returned each
// row once per row of x with the same a.
//
// It holds no state: safe for concurrent use.
type Coster struct {
	memo.Coster
}

// bypassCost is the cost of a plan that would drop a required DISTINCT:
// more than any real plan, so that the memo takes another.
const bypassCost = 1e30

// randRead is the cost of one random read, go-mysql-server's
// randIOCostFactor.
const randRead = 1.3

// lookupOverhead is what a lookup join pays per row of its left side
// beyond go-mysql-server's estimate, in its units (a row read in
// sequence is 1): each lookup builds the right side's plan node, an
// index lookup and an engine read anew (about 3 µs, a sequential row
// about 0.5 µs here). Without it, a join of 5,848 payments to their
// 6,000 rentals by primary key made 5,848 lookups where a merge join
// reads both tables once (report 12: 63 -> 43 ms of CPU). It is added
// only when the left side reads whole tables (wholeTable): a lookup
// from the rows of a filter or an index lookup keeps its plan.
const lookupOverhead = 3.0

// wholeTable reports whether r reads whole tables, unfiltered, or joins
// of them: a left side of a lookup join whose row count is known (an
// index lookup or a filter has no selectivity estimate here, and its
// rows may be few).
func wholeTable(r memo.RelExpr) bool {
	switch x := r.(type) {
	case *memo.TableScan:
		return true
	case *memo.TableAlias:
		_, ok := x.Table.Child.(*plan.ResolvedTable)
		return ok
	case memo.JoinRel:
		jp := x.JoinPrivate()
		return jp.Left != nil && jp.Right != nil && wholeTable(jp.Left.Best) && wholeTable(jp.Right.Best)
	}
	return false
}

// EstimateCost is go-mysql-server's estimate plus the primary-index reads
// of a merge join's secondary-index scans and a lookup join's overhead.
func (c Coster) EstimateCost(ctx *sql.Context, n memo.RelExpr, s sql.StatsProvider) (float64, error) {
	cost, err := c.Coster.EstimateCost(ctx, n, s)
	if err != nil {
		return cost, err
	}
	switch x := n.(type) {
	case *memo.MergeJoin:
		if x.Left.RelProps.Distinct.IsHash() || x.Right.RelProps.Distinct.IsHash() {
			return bypassCost, nil
		}
	case *memo.LookupJoin:
		if x.Right.RelProps.Distinct.IsHash() {
			return bypassCost, nil
		}
	}
	if lj, ok := n.(*memo.LookupJoin); ok && wholeTable(lj.Left.Best) {
		cost += lookupOverhead * math.Max(1, float64(lj.Left.RelProps.GetStats().RowCount()))
	}
	if m, ok := n.(*memo.MergeJoin); ok {
		for _, scan := range []*memo.IndexScan{m.InnerScan, m.OuterScan} {
			if scan == nil || scan.Index == nil || scan.Table == nil {
				continue
			}
			if x, ok := scan.Index.SqlIdx().(*index); !ok || x.idx.Primary {
				continue
			}
			rows, err := s.RowCount(ctx, scan.Table.Database().Name(), scan.Table)
			if err != nil {
				continue
			}
			cost += float64(rows) * randRead
		}
	}
	return cost, nil
}
