package sqlbackend

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The bulk insert: a dump's INSERT of literal rows (ScanBulkInsert,
// bulkscan.go) stored without go-mysql-server's parser, analyzer and
// per-row insert. Each literal becomes the value go-mysql-server's
// planner would make of it, then goes through the very conversions of the
// ordinary path, in its order: storeConvert (what storeValue does under
// the session's sql_mode), the column type's Convert (what
// go-mysql-server's insert does), valueFromSQL (what the editor does).
// Anything those would warn about or refuse, and any table where the
// ordinary path does more than store the row (triggers, CHECK constraints
// and JSON columns, generated columns, foreign keys it declares (unless
// foreign_key_checks is 0, as dumps set it), spatial
// columns, an AUTO_INCREMENT value to generate, a temporary table), makes
// PrepareBulkInsert decline, and the statement takes the ordinary path,
// which then reports the errors and warnings as always.
//
// The rows are stored by BulkInsertNode, run by go-mysql-server's handler
// as an analysed plan (so the transaction, autocommit, the result and
// the session's bookkeeping are the handler's). Under autocommit, with no
// write of the session pending, the whole statement is one writer job
// (Job.Apply, which checks every unique key once, reading ahead in key
// order); a duplicate key fails the job and nothing of the statement is
// stored. Inside a transaction the rows go to the session's engine.Txn
// after a savepoint, rolled back to on error, as the editor does.

// BulkInsertNode is a prepared bulk insert: the converted rows of one
// statement for one version of one table. It serves one execution of its
// statement on the session's goroutine and is not safe for concurrent
// use.
type BulkInsertNode struct {
	bulkLeaf
	rows     []engine.Row
	insertID uint64 // the OK packet's id: the first row's AUTO_INCREMENT value, as go-mysql-server sends it
}

var _ sql.ExecSourceRel = (*BulkInsertNode)(nil)

// Rows returns the number of rows the node inserts.
func (n *BulkInsertNode) Rows() int { return len(n.rows) }

// String names the node in plans and logs.
func (n *BulkInsertNode) String() string {
	return fmt.Sprintf("BulkInsert(%s.%s, %d rows)", n.t.DB, n.t.Name, len(n.rows))
}

// WithChildren accepts no children.
func (n *BulkInsertNode) WithChildren(children ...sql.Node) (sql.Node, error) {
	return leafWithChildren(n, children)
}

// RowIter stores the rows and returns the statement's OK result.
func (n *BulkInsertNode) RowIter(ctx *sql.Context, _ sql.Row) (sql.RowIter, error) {
	if err := n.write(ctx); err != nil {
		return nil, err
	}
	ctx.SetLastQueryInfoInt(sql.RowCount, int64(len(n.rows)))
	res := gtypes.OkResult{RowsAffected: uint64(len(n.rows)), InsertID: n.insertID}
	return sql.RowsToRowIter(sql.NewRow(res)), nil
}

// write stores the rows: one writer job under autocommit with nothing
// pending, else into the session's transaction (see the file comment).
func (n *BulkInsertNode) write(ctx *sql.Context) error {
	sess := SessionOf(ctx)
	if sess == nil {
		return fmt.Errorf("sqlbackend: bulk insert without a HandlerDB session")
	}
	sess.autoIncAsked = 0
	tx, _ := sess.GetTransaction().(*transaction)
	if tx != nil && tx.readOnly {
		return sql.NewWrappedInsertError(nil, sql.ErrReadOnlyTransaction.New())
	}
	auto, err := plan.IsSessionAutocommit(ctx)
	if err != nil {
		return err
	}
	if auto && !ctx.GetIgnoreAutoCommit() && !sess.HasEngineTxn() {
		return n.writeJob(ctx)
	}
	if err := n.p.e.WaitWrites(ctx); err != nil { // (FLUSH TABLES WITH READ LOCK)
		return MapError(err)
	}
	x, err := sess.writeTxn()
	if err != nil {
		return sql.NewWrappedInsertError(nil, err)
	}
	sp := x.Savepoint()
	for _, r := range n.rows {
		if _, err := x.Insert(n.t, r); err != nil {
			sess.rollbackTo(sp)
			return n.insertError(r, err, false)
		}
	}
	return nil
}

// writeJob stores the rows as one writer job: all of them or, on any
// error, none.
func (n *BulkInsertNode) writeJob(ctx *sql.Context) error {
	cs := make([]engine.Change, len(n.rows))
	for i, r := range n.rows {
		cs[i] = engine.Change{Kind: engine.ChangeInsert, Table: n.t, Row: r}
	}
	var failed engine.Row
	err := n.p.e.Update(ctx, func(job *engine.Job) error {
		if cur, err := job.Catalog().Table(n.t.DB, n.t.Name); err != nil || cur != n.t {
			// DDL since the statement resolved the table: what a
			// transaction's commit answers then.
			return &engine.Error{Kind: engine.ErrTableDefChanged, DB: n.t.DB, Table: n.t.Name, Detail: n.t.DB + "." + n.t.Name}
		}
		done, err := job.Apply(cs)
		if err != nil && done < len(cs) {
			failed = cs[done].Row
		}
		return err
	})
	if err != nil {
		return n.insertError(failed, err, true)
	}
	return nil
}

// insertError is the statement's error for a failed insert of row, as
// the editor and go-mysql-server's insert make it (a failed job that is
// no duplicate key: as the autocommit's commit reports it).
func (n *BulkInsertNode) insertError(row engine.Row, err error, job bool) error {
	var dk *engine.DuplicateKeyError
	if job && !errors.As(err, &dk) {
		// A failed job (read-only, DDL meanwhile, the commit):
		// what the transaction's commit reports.
		return MapError(err)
	}
	var sr sql.Row
	if row != nil {
		sr = rowToSQL(n.t, n.sch, row)
	}
	return sql.NewWrappedInsertError(sr, dupKeyError(n.t, n.sch, err))
}

// PrepareBulkInsert converts a scanned INSERT for the session of ctx into
// a node to run, or returns nil when the statement must take the ordinary
// path (see the file comment). It raises no warning and changes nothing.
func (p *Provider) PrepareBulkInsert(ctx *sql.Context, b *BulkInsert) *BulkInsertNode {
	if b == nil || b.Width == 0 {
		return nil
	}
	d, t := p.bulkTarget(ctx, b.DB, b.Table)
	if t == nil || len(t.Columns) != b.Width {
		return nil
	}
	m, err := p.tableMeta(t.ID)
	if err != nil || len(m.Checks) > 0 || len(m.JSON) > 0 || len(m.Generated) > 0 || (len(m.ForeignKeys) > 0 && fkChecks(ctx)) {
		// (With foreign_key_checks=0, as dumps set it, go-mysql-server
		// checks no foreign key of a plain INSERT either.)
		return nil
	}
	// order[j] is the column of the j-th value of a row.
	order := make([]int, b.Width)
	if b.Columns == nil {
		for j := range order {
			order[j] = j
		}
	} else {
		seen := make([]bool, len(t.Columns))
		for j, name := range b.Columns {
			c := t.Column(name)
			if c < 0 {
				for i := range t.Columns {
					if strings.EqualFold(t.Columns[i].Name, name) {
						c = i
						break
					}
				}
			}
			if c < 0 || seen[c] {
				return nil
			}
			seen[c] = true
			order[j] = c
		}
	}
	for i := range t.Columns {
		if t.Columns[i].Type.Kind == types.Geometry {
			return nil
		}
	}
	cv := bulkConverter{ctx: ctx, t: t, types: p.ColumnTypes(t), mode: sessionMode(ctx)}
	nrows := b.Rows()
	rows := make([]engine.Row, nrows)
	vals := make([]types.Value, nrows*len(t.Columns))
	warned := ctx.Session.WarningCount()
	for r := 0; r < nrows; r++ {
		row := vals[r*len(t.Columns) : (r+1)*len(t.Columns) : (r+1)*len(t.Columns)]
		for j, c := range order {
			v, ok := cv.convert(c, &b.Values[r*b.Width+j])
			if !ok {
				return nil
			}
			row[c] = v
		}
		if t.AutoInc >= 0 {
			// An id to generate (NULL, or 0 unless
			// NO_AUTO_VALUE_ON_ZERO keeps it): the ordinary path.
			if v := row[t.AutoInc]; v.Null || v.I == 0 {
				return nil
			}
		}
		rows[r] = row
	}
	if ctx.Session.WarningCount() != warned {
		return nil
	}
	n := &BulkInsertNode{bulkLeaf: bulkLeaf{p: p, t: t, sch: newTable(d, t).Schema()}, rows: rows}
	if t.AutoInc >= 0 && nrows > 0 {
		n.insertID = uint64(rows[0][t.AutoInc].I)
	}
	return n
}

// fkChecks reports whether the session's foreign_key_checks is on.
func fkChecks(ctx *sql.Context) bool {
	v, err := ctx.GetSessionVariable(ctx, "foreign_key_checks")
	if err != nil {
		return true
	}
	n, ok := v.(int8)
	return !ok || n != 0
}

// isSystemSchema reports whether go-mysql-server, not the engine, serves
// a database name.
func isSystemSchema(name string) bool {
	for _, s := range []string{"information_schema", "mysql", "performance_schema", "sys"} {
		if strings.EqualFold(name, s) {
			return true
		}
	}
	return false
}

// bulkConverter converts the literals of one statement for one table, on
// the statement's goroutine only.
type bulkConverter struct {
	ctx   *sql.Context
	t     *engine.Table
	types []sql.Type // go-mysql-server's column types, as the insert converts with them
	mode  storeMode
}

// convert returns the stored value of literal v in column c, or false
// when the ordinary path would warn, fail or do anything but store it.
func (cv *bulkConverter) convert(c int, v *BulkValue) (types.Value, bool) {
	col := &cv.t.Columns[c]
	if col.Type.Kind == types.Decimal && (v.Kind == BulkDecimal || v.Kind == BulkInt) {
		if ev, ok := exactDecimal(&col.Type, v); ok {
			return ev, true
		}
	}
	if v.Kind == BulkInt {
		if l, ok := intLimitTable[intLimitKey{col.Type.Kind, col.Type.Unsigned}]; ok {
			// An integer in its column's range: the number itself, what
			// intLiteral, storeInt and the column type's conversion
			// come to without a warning.
			if i, err := strconv.ParseInt(v.Text, 10, 64); err == nil { // (Text has the sign)
				if i >= l.loInt && i <= l.hiInt {
					return types.Value{I: i}, true
				}
			}
		}
	}
	lit, ok := literalValue(cv.ctx, v)
	if !ok {
		return types.Value{}, false
	}
	if lit == nil {
		if !col.Nullable || col.AutoIncrement {
			return types.Value{}, false
		}
		return types.NullValue, true
	}
	if b, ok := lit.([]byte); ok && len(b) <= 8 && isNumberKind(&col.Type) {
		// 0x... is a number in a numeric column (a longer one stays
		// bytes), as storeValue reads it.
		var u uint64
		for _, x := range b {
			u = u<<8 | uint64(x)
		}
		lit = u
	}
	out, cond := storeConvert(cv.ctx, &col.Type, lit, cv.mode)
	if cond.code != 0 {
		return types.Value{}, false
	}
	if out == nil {
		return types.Value{}, false
	}
	conv, inRange, err := cv.types[c].Convert(cv.ctx, out)
	if err != nil || inRange != sql.InRange || conv == nil {
		return types.Value{}, false
	}
	ev, err := valueFromSQL(cv.ctx, &col.Type, conv, false)
	if err != nil {
		return types.Value{}, false
	}
	return ev, true
}

// exactDecimal is the stored value of number literal v in DECIMAL column
// t when t holds it exactly: no more fraction digits than t's scale, no
// more integer digits than its precision leaves, not negative in an
// UNSIGNED column, not a negative zero. Such a value stores without a
// rounding note or a range warning, as its own text in canonical form,
// which types.Convert makes; the general path (literalValue and
// storeConvert) reaches the same bytes through go-mysql-server's and
// shopspring's decimals, which were a fifth of the server's time loading
// a dump with DECIMAL columns. false: the general path decides.
func exactDecimal(t *types.Type, v *BulkValue) (types.Value, bool) {
	if t.Length == 0 || t.Length > 65 || t.Scale > 30 || uint32(t.Scale) > t.Length {
		return types.Value{}, false
	}
	digits, neg := v.Text, v.Neg
	if v.Kind == BulkInt && strings.HasPrefix(digits, "-") {
		digits, neg = digits[1:], true // (an integer's text carries its sign)
	}
	whole, frac, _ := strings.Cut(digits, ".")
	whole = strings.TrimLeft(whole, "0")
	if len(frac) > int(t.Scale) || len(whole) > int(t.Length)-int(t.Scale) {
		return types.Value{}, false
	}
	var buf [100]byte
	text := buf[:0]
	if neg {
		if t.Unsigned || whole == "" && strings.Trim(frac, "0") == "" {
			return types.Value{}, false
		}
		text = append(text, '-')
	}
	return types.Convert(t, append(text, digits...), nil), true
}

// literalValue is the value go-mysql-server's planner gives a literal
// (planbuilder's ConvertVal, with a minus sign as the parser folds it
// into an integer or as UnaryMinus negates the rest), or false for one
// the scanner should not pass on.
func literalValue(ctx context.Context, v *BulkValue) (interface{}, bool) {
	switch v.Kind {
	case BulkNull:
		return nil, true
	case BulkString:
		return v.Text, true
	case BulkHex:
		return []byte(v.Text), true
	case BulkInt:
		return intLiteral(ctx, v.Text)
	case BulkFloat:
		f, err := strconv.ParseFloat(v.Text, 64)
		if err != nil {
			return nil, false
		}
		if v.Neg {
			f = -f
		}
		return f, true
	case BulkDecimal:
		// The planner makes DECIMAL(p,s) of the literal's digits and
		// converts the text with it (a literal past DECIMAL's limits
		// becomes text: the ordinary path's). For digits and a point,
		// that conversion is the exact parse: no rounding (s is the
		// text's scale), no bounds to fail (p counts its digits).
		p, s := expression.GetDecimalPrecisionAndScale(v.Text)
		if _, err := gtypes.CreateDecimalType(p, s); err != nil {
			return nil, false
		}
		dec, err := decimal.NewFromString(v.Text)
		if err != nil {
			return nil, false
		}
		if v.Neg {
			dec = dec.Neg()
		}
		return dec, true
	}
	return nil, false
}

// intLiteral is planbuilder's convertInt: the first of int8, uint8,
// int16, uint16, int32, uint32, int64 and uint64 that holds the digits,
// else a decimal (read here with one parse instead of a parse per type).
func intLiteral(ctx context.Context, s string) (interface{}, bool) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		switch {
		case i >= math.MinInt8 && i <= math.MaxInt8:
			return int8(i), true
		case i >= 0 && i <= math.MaxUint8:
			return uint8(i), true
		case i >= math.MinInt16 && i <= math.MaxInt16:
			return int16(i), true
		case i >= 0 && i <= math.MaxUint16:
			return uint16(i), true
		case i >= math.MinInt32 && i <= math.MaxInt32:
			return int32(i), true
		case i >= 0 && i <= math.MaxUint32:
			return uint32(i), true
		}
		return i, true
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return u, true
	}
	if d, _, err := gtypes.InternalDecimalType.Convert(ctx, s); err == nil {
		return d, true
	}
	return nil, false
}
