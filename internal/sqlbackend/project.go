package sqlbackend

import (
	"slices"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Projections (sql.ProjectedTable). go-mysql-server's pruneTables asks a
// table read by a SELECT for the columns the plan uses; the copy it gets
// back has only those in its Schema and its rows. Rows are read from the
// primary index with only those columns decoded (and the index's and the
// primary key's, which the walk reads itself: projection.need,
// engine.Iterator.Need), except through a secondary index whose
// entries hold every projected column (engine.Table.KeyColumns: the index
// and primary-key parts whose keys can be read back, never a prefix part
// or collated text, whose key is a sort key, nor a FLOAT or DOUBLE): such
// a lookup decodes its rows from the entries alone (engine
// Iterator.KeyOnly) and reads no primary row, a covering index read. A
// locking read (which locks and may re-read each whole row) and a range
// whose bounds are rechecked on a column the entries do not hold read the
// primary rows as before.

// projection is the column subset of one table copy. It is immutable and
// safe for concurrent use.
type projection struct {
	names []string   // the columns' names, as the table spells them
	cols  []int      // their ordinals in the engine table, in order
	sch   sql.Schema // the plain schema's columns, in that order
	// covering are the table's secondary indexes whose entries hold
	// every column of cols; held[i] marks the columns covering[i]'s
	// entries hold (for the columns a range rechecks).
	covering []*engine.Index
	held     [][]bool
	// need, by index ID, marks the columns a walk of that index decodes
	// of each row (engine.Iterator.Need): cols and what the walk reads
	// itself. Absent when that is every column.
	need map[uint32][]bool
}

// WithProjections returns a copy of the table whose rows hold only the
// named columns, in that order (t itself if one is unknown, or if the
// table has a virtual generated column).
func (t *table) WithProjections(colNames []string) sql.Table {
	p := newProjection(t, colNames)
	if p == nil {
		return t
	}
	c := *t
	c.proj = p
	return &c
}

// Projections names the columns of the table's projection, nil when it
// has every column.
func (t *table) Projections() []string {
	if t.proj == nil {
		return nil
	}
	return t.proj.names
}

// WithProjections returns a copy of the table, on the same lookup, whose
// rows hold only the named columns.
func (t *indexedTable) WithProjections(colNames []string) sql.Table {
	pt, ok := t.table.WithProjections(colNames).(*table)
	if !ok || pt == t.table {
		return t
	}
	return &indexedTable{table: pt, lookup: t.lookup}
}

func newProjection(t *table, colNames []string) *projection {
	for _, c := range t.ts.sch.Schema {
		if c.Virtual {
			// go-mysql-server computes a virtual column over the
			// whole row (plan.VirtualColumnTable).
			return nil
		}
	}
	p := &projection{names: make([]string, 0, len(colNames)), cols: make([]int, 0, len(colNames))}
	for _, n := range colNames {
		c := t.t.Column(n)
		if c < 0 {
			return nil
		}
		p.cols = append(p.cols, c)
		p.names = append(p.names, t.t.Columns[c].Name)
	}
	p.sch = p.of(t.ts.sch.Schema)
	for _, idx := range append([]*engine.Index{t.t.Primary}, t.t.Indexes...) {
		if need := engine.ReadColumns(t.t, idx, p.cols); need != nil {
			if p.need == nil {
				p.need = map[uint32][]bool{}
			}
			p.need[idx.ID] = need
		}
	}
	for _, idx := range t.t.Indexes {
		if idx.Primary {
			continue
		}
		held := make([]bool, len(t.t.Columns))
		for _, c := range t.t.KeyColumns(idx) {
			held[c] = true
		}
		if !slices.ContainsFunc(p.cols, func(c int) bool { return !held[c] }) {
			p.covering = append(p.covering, idx)
			p.held = append(p.held, held)
		}
	}
	return p
}

// needFor returns the columns a walk of idx over sr decodes of each row
// (engine.Iterator.Need), nil for all: all when a column the range
// rechecks is not among them (the rechecks are of the index's columns).
func (p *projection) needFor(idx *engine.Index, sr *scanRange) []bool {
	if p == nil {
		return nil
	}
	need := p.need[idx.ID]
	if need == nil {
		return nil
	}
	for _, cr := range sr.check {
		if !need[cr.col] {
			return nil
		}
	}
	for _, check := range sr.anyOf {
		for _, cr := range check {
			if !need[cr.col] {
				return nil
			}
		}
	}
	return need
}

// of returns the projected columns of full, a schema of every column.
func (p *projection) of(full sql.Schema) sql.Schema {
	out := make(sql.Schema, len(p.cols))
	for i, c := range p.cols {
		out[i] = full[c]
	}
	return out
}

// coveredBy reports whether a walk of idx over ranges may decode its rows
// from the index entries: p is set, idx's entries hold every projected
// column and every column a range rechecks, and no range is rechecked on
// full values (a prefix index's).
func (p *projection) coveredBy(idx *engine.Index, ranges []scanRange) bool {
	if p == nil {
		return false
	}
	i := slices.Index(p.covering, idx)
	if i < 0 {
		return false
	}
	for j := range ranges {
		if ranges[j].anyOf != nil {
			return false
		}
		for _, cr := range ranges[j].check {
			if !p.held[i][cr.col] {
				return false
			}
		}
	}
	return true
}

// toSQL converts an engine row of the iterator's table into the
// go-mysql-server row of its projection (every column without one).
func (it *rangeIter) toSQL(r engine.Row) sql.Row {
	b := &it.boxes
	if it.proj == nil {
		out := b.row(len(r))
		for i := range r {
			out[i] = b.value(&it.t.Columns[i].Type, r[i])
		}
		return out
	}
	out := b.row(len(it.proj.cols))
	for j, c := range it.proj.cols {
		out[j] = b.value(&it.t.Columns[c].Type, r[c])
	}
	return out
}

// tableColumnIds returns the column ids of the rows a table node (a
// table, an index access or an alias of one) returns, in order, or nil
// when n is none or they cannot be told. A projected table's node keeps
// the ids of all its columns (go-mysql-server numbers them from the
// first in table order).
func TableColumnIds(n sql.Node) []sql.ColumnId {
	tn, ok := n.(plan.TableIdNode)
	if !ok {
		return nil
	}
	cols := tn.Columns()
	first, ok := cols.Next(1)
	if !ok {
		return nil
	}
	sch := n.Schema()
	if cols.Len() == len(sch) {
		out := make([]sql.ColumnId, 0, len(sch))
		cols.ForEach(func(id sql.ColumnId) { out = append(out, id) })
		return out
	}
	t := ourTable(n)
	if t == nil || t.proj == nil || cols.Len() != len(t.t.Columns) || len(t.proj.cols) != len(sch) {
		return nil
	}
	out := make([]sql.ColumnId, len(sch))
	for i, c := range t.proj.cols {
		out[i] = first + sql.ColumnId(c)
	}
	return out
}

// CoveringAccess reports whether an index access of the plan reads its
// rows from the index entries alone (EXPLAIN's "Using index"; a range
// rechecked on a column the entries do not hold, or a locking read, still
// reads the rows).
func CoveringAccess(n *plan.IndexedTableAccess) bool {
	t := unwrapTable(n.Table)
	if t == nil || t.proj == nil {
		return false
	}
	idx := t.t.Index(n.Index().ID())
	return idx != nil && t.proj.coveredBy(idx, nil)
}
