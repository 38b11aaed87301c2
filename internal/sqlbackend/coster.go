package sqlbackend

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/memo"
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
// It holds no state: safe for concurrent use.
type coster struct {
	memo.Coster
}

// randRead is the cost of one random read, go-mysql-server's
// randIOCostFactor.
const randRead = 1.3

// EstimateCost is go-mysql-server's estimate plus the primary-index reads
// of a merge join's secondary-index scans.
func (c coster) EstimateCost(ctx *sql.Context, n memo.RelExpr, s sql.StatsProvider) (float64, error) {
	cost, err := c.Coster.EstimateCost(ctx, n, s)
	if err != nil {
		return cost, err
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
