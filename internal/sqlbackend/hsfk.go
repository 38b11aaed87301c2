package sqlbackend

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Foreign keys on HandlerSocket writes. The plugin writes through InnoDB,
// which checks foreign keys on every write: an insert or modify of a child
// row needs its parent row (HA_ERR_NO_REFERENCED_ROW, 1 1 151), a modify
// or delete of a parent row with children is refused under RESTRICT / NO
// ACTION (HA_ERR_ROW_IS_REFERENCED, 1 1 152) and otherwise cascades or
// sets them NULL, 15 levels deep at most (1 1 193). HandlerSocket writes
// never pass through go-mysql-server, so the provider is the engine's
// RowChecker (engine/rowchecker.go) and makes the same checks and changes in
// the write's job, from the foreign keys of the provider's fkIndex (by
// table id). A write of a table that no foreign key involves costs a look
// at the current fkIndex and two map lookups. HandlerSocket has no
// foreign_key_checks: its writes are always checked, as the plugin's are.
//
// Check runs on the writer goroutine, inside the job; it reads and writes
// only through that job (and reads the tables' SQL attributes when the
// fkIndex must be rebuilt).

var _ engine.RowChecker = (*Provider)(nil)

// maxCascadeDepth is InnoDB's limit on nested foreign key cascades.
const maxCascadeDepth = 15

// Involves reports whether a foreign key involves t.
func (p *Provider) Involves(t *engine.Table) bool {
	ix := p.fkIndexNow()
	return ix != nil && len(ix.fks) > 0 && (len(ix.byChild[t.ID]) > 0 || len(ix.byParent[t.ID]) > 0)
}

// Check checks a HandlerSocket change of a row of t against the foreign
// keys and makes their ON DELETE / ON UPDATE changes.
func (p *Provider) Check(tx *engine.Job, t *engine.Table, old, row engine.Row) error {
	ix := p.fkIndexNow()
	if ix == nil {
		return nil
	}
	return p.checkRow(tx, ix, t, old, row, 0, -1)
}

// checkRow checks one change at cascade depth depth; along is the key the
// cascade came by (its parent side is being changed, so its check is
// skipped), or -1.
func (p *Provider) checkRow(tx *engine.Job, ix *fkIndex, t *engine.Table, old, row engine.Row, depth, along int) error {
	if row != nil {
		for _, i := range ix.byChild[t.ID] {
			if i != along {
				if err := p.checkParent(tx, ix, i, t, old, row); err != nil {
					return err
				}
			}
		}
	}
	if old == nil {
		return nil
	}
	for _, i := range ix.byParent[t.ID] {
		if err := p.checkChildren(tx, ix, i, t, old, row, depth); err != nil {
			return err
		}
	}
	return nil
}

// checkParent: the child row row of t needs the parent row of key i,
// unless a column of the key is NULL or the key's values did not change.
func (p *Provider) checkParent(tx *engine.Job, ix *fkIndex, i int, t *engine.Table, old, row engine.Row) error {
	fk := &ix.fks[i]
	cols, ok := columnOrdinals(t, fk.Columns)
	if !ok || anyNull(row, cols) || (old != nil && sameValues(old, cols, row, cols)) {
		return nil
	}
	parent := jobTable(tx, fk.ParentDatabase, fk.ParentTable)
	if parent == nil {
		return fkError(engine.ErrNoReferencedRow, fk)
	}
	pcols, ok := columnOrdinals(parent, fk.ParentColumns)
	if !ok {
		return fkError(engine.ErrNoReferencedRow, fk)
	}
	if parent.ID == t.ID && sameValues(row, cols, row, pcols) {
		return nil // the row is its own parent
	}
	idx := leadingIndex(parent, pcols)
	if idx == nil {
		return fkError(engine.ErrNoReferencedRow, fk)
	}
	found := false
	err := tx.Find(parent, &engine.Query{Index: idx, Op: engine.OpEQ, Key: values(row, cols), Limit: 1}, func(engine.Row) bool {
		found = true
		return false
	})
	if err != nil {
		return err
	}
	if !found {
		return fkError(engine.ErrNoReferencedRow, fk)
	}
	return nil
}

// checkChildren: the parent row old of t is deleted (row nil) or updated
// to row; the child rows of key i are refused, deleted, updated or set
// NULL as the key's action says.
func (p *Provider) checkChildren(tx *engine.Job, ix *fkIndex, i int, t *engine.Table, old, row engine.Row, depth int) error {
	fk := &ix.fks[i]
	pcols, ok := columnOrdinals(t, fk.ParentColumns)
	if !ok || anyNull(old, pcols) || (row != nil && sameValues(old, pcols, row, pcols)) {
		return nil
	}
	child := jobTable(tx, fk.Database, fk.Table)
	if child == nil {
		return nil
	}
	ccols, ok := columnOrdinals(child, fk.Columns)
	if !ok {
		return nil
	}
	idx := leadingIndex(child, ccols)
	if idx == nil {
		return nil
	}
	var kids []engine.Row
	err := tx.Find(child, &engine.Query{Index: idx, Op: engine.OpEQ, Key: values(old, pcols)}, func(r engine.Row) bool {
		if child.ID != t.ID || !samePrimary(child, r, old) {
			kids = append(kids, r.Clone())
		}
		return true
	})
	if err != nil || len(kids) == 0 {
		return err
	}
	action := fk.OnUpdate
	if row == nil {
		action = fk.OnDelete
	}
	switch action {
	case sql.ForeignKeyReferentialAction_Cascade, sql.ForeignKeyReferentialAction_SetNull:
	default:
		return fkError(engine.ErrRowIsReferenced, fk)
	}
	if depth+1 >= maxCascadeDepth {
		return fkError(engine.ErrFKDepthExceeded, fk)
	}
	for _, kid := range kids {
		if action == sql.ForeignKeyReferentialAction_Cascade && row == nil {
			if err := p.checkRow(tx, ix, child, kid, nil, depth+1, i); err != nil {
				return err
			}
			if _, err := tx.Delete(child, kid); err != nil {
				return err
			}
			continue
		}
		nk := kid.Clone()
		for j, c := range ccols {
			if action == sql.ForeignKeyReferentialAction_Cascade {
				nk[c] = row[pcols[j]]
			} else {
				nk[c] = types.NullValue
			}
		}
		if err := p.checkRow(tx, ix, child, kid, nk, depth+1, i); err != nil {
			return err
		}
		if _, err := tx.Update(child, kid, nk); err != nil {
			return err
		}
	}
	return nil
}

// fkError is the engine error of kind k for key fk, described as InnoDB
// describes it.
func fkError(k *engine.ErrorKind, fk *sql.ForeignKeyConstraint) error {
	return &engine.Error{Kind: k, DB: fk.Database, Table: fk.Table, Detail: FormatForeignKey(fk, false)}
}

// jobTable resolves a table in the job's catalog as SQL names resolve.
func jobTable(tx *engine.Job, db, name string) *engine.Table {
	cat := tx.Catalog()
	edb, err := cat.Database(db)
	if err != nil {
		for _, n := range cat.Databases() {
			if strings.EqualFold(n, db) {
				edb, err = cat.Database(n)
				break
			}
		}
		if err != nil || edb == nil {
			return nil
		}
	}
	if t := edb.Table(name); t != nil {
		return t
	}
	for _, t := range edb.Tables() {
		if strings.EqualFold(t.Name, name) {
			return t
		}
	}
	return nil
}

// columnOrdinals maps column names to t's ordinals.
func columnOrdinals(t *engine.Table, names []string) ([]int, bool) {
	out := make([]int, len(names))
	for i, n := range names {
		if out[i] = t.Column(n); out[i] < 0 {
			return nil, false
		}
	}
	return out, true
}

// leadingIndex returns an index of t whose first columns are cols.
func leadingIndex(t *engine.Table, cols []int) *engine.Index {
	for _, idx := range append([]*engine.Index{t.Primary}, t.Indexes...) {
		if idx == nil || len(idx.Columns) < len(cols) {
			continue
		}
		ok := true
		for i, c := range cols {
			if idx.Columns[i] != c {
				ok = false
				break
			}
		}
		if ok {
			return idx
		}
	}
	return nil
}

func anyNull(r engine.Row, cols []int) bool {
	for _, c := range cols {
		if r[c].Null {
			return true
		}
	}
	return false
}

// sameValues reports whether a's columns ac hold b's columns bc.
func sameValues(a engine.Row, ac []int, b engine.Row, bc []int) bool {
	for i := range ac {
		x, y := a[ac[i]], b[bc[i]]
		if x.Null != y.Null || x.I != y.I || x.F != y.F || string(x.B) != string(y.B) {
			return false
		}
	}
	return true
}

// samePrimary reports whether rows a and b of t have the same primary key.
func samePrimary(t *engine.Table, a, b engine.Row) bool {
	if t.Primary == nil || t.Primary.Hidden {
		return sameValues(a, allColumns(t), b, allColumns(t))
	}
	return sameValues(a, t.Primary.Columns, b, t.Primary.Columns)
}

func allColumns(t *engine.Table) []int {
	out := make([]int, len(t.Columns))
	for i := range out {
		out[i] = i
	}
	return out
}

// values returns r's values of cols.
func values(r engine.Row, cols []int) []types.Value {
	out := make([]types.Value, len(cols))
	for i, c := range cols {
		out[i] = r[c]
	}
	return out
}
