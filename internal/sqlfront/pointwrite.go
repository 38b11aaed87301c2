package sqlfront

import (
	"context"
	"math"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The point-write fast path serves prepared statements of the forms
//
//	UPDATE [db.]tbl SET c1 = <v> [, c2 = <v> ...] WHERE k1 = ? [AND k2 = ? ...]
//	DELETE FROM [db.]tbl WHERE k1 = ? [AND k2 = ? ...]
//	INSERT INTO [db.]tbl [(c1, c2, ...)] VALUES (?, ?, ...)
//
// where k1, k2... are exactly the primary key's columns, all of integer
// types, and each <v> is a bind variable or, for an integer column, the
// column itself plus or minus an integer (literal or bind variable): the
// statements sysbench's write scripts and ORMs' save-by-id and create
// send. Such a statement is recognised when it is prepared, or when a
// text statement's literals are cut into the same form (textTemplate);
// each execution then makes its one-row change with
// sqlbackend.Session.PointWrite or PointInsert (the row lock and the
// engine transaction go-mysql-server's plan would take) instead of
// go-mysql-server's analyzer and write iterators.
//
// An execution takes the fast path only when its result cannot differ
// from go-mysql-server's, and otherwise goes to go-mysql-server as if the
// fast path did not exist, before anything is written:
//   - the session has no temporary table and is either in autocommit
//     mode with no transaction open (pointSafe; the write is committed)
//     or inside a transaction go-mysql-server has open (txnPointSafe; the
//     write stays in it, as sqlbackend.Session.PointWrite describes);
//   - the table resolves, in the engine's current catalog, to an
//     engine.Table (a new one after every DDL that changes the table)
//     whose writes are plain (sqlbackend.Provider.WritesPlain: no
//     trigger, foreign key, CHECK, generated or ON UPDATE column), and
//     the SET columns are outside the primary key, every unique index and
//     the AUTO_INCREMENT column; an INSERT's table has no unique index
//     but the primary key (a duplicate there takes no id), and each
//     column it does not name has a literal default (of an integer, CHAR
//     or VARCHAR column), NULL or the next AUTO_INCREMENT id;
//   - go-mysql-server's authorization handler accepts the statement's
//     table access;
//   - every key parameter is an integer the key column holds exactly, and
//     every new value converts without loss: an integer into an integer
//     column's range, ASCII text that a CHAR or VARCHAR column stores
//     unchanged (no cut, no trailing space), NULL into a nullable column
//     or an INSERT's AUTO_INCREMENT column (0 too, unless sql_mode has
//     NO_AUTO_VALUE_ON_ZERO);
//   - the engine accepts the write (else go-mysql-server makes it and
//     reports its error).
//
// The OK packet is go-mysql-server's: affected rows (changed rows, or
// matched ones for a CLIENT_FOUND_ROWS client), UPDATE's "Rows matched"
// info, an INSERT's generated id (also LAST_INSERT_ID()), ROW_COUNT()
// and, for UPDATE, FOUND_ROWS().

// writePlan is what the text of a point UPDATE or DELETE says. Its
// fields are set once by pointWriteOf and read-only afterwards; bound
// is replaced atomically. Safe for concurrent use.
type writePlan struct {
	db, table string // db is "" for the current database
	delete    bool
	insert    bool
	sets      []setExpr
	cols      []string // INSERT: the columns named (nil: all)...
	vals      []string // ...and the bind variable of each value
	conds
	auth sqlparser.AuthInformation

	bound atomic.Pointer[writeBinding]
}

// setExpr is one assignment: col = arg, or with add col = col + add (add
// from arg when arg is set).
type setExpr struct {
	col string
	arg string // bind variable name, or ""
	add int64  // the literal added, when arg is "" (minus: negated)
	neg bool   // the bind variable is subtracted
	inc bool   // col = col +/- ...
}

// writeBinding is a plan checked against one version of its table and of
// the schema's SQL objects. It is immutable once published.
type writeBinding struct {
	t      *engine.Table
	gen    uint64 // Provider.SchemaGen when bound
	ok     bool   // the fast path serves the statement on t
	keyArg []string
	setOrd []int // column ordinal of each of plan.sets
	// INSERT: the column each value goes to, and the row of the columns
	// not named (defaults, NULLs).
	valOrd []int
	fill   engine.Row
}

// pointWriteOf returns the plan of a point UPDATE, DELETE or INSERT, or
// nil for any other statement.
func pointWriteOf(stmt sqlparser.Statement) *writePlan {
	var (
		exprs sqlparser.TableExprs
		where *sqlparser.Where
		p     = &writePlan{}
	)
	switch st := stmt.(type) {
	case *sqlparser.Update:
		if st.With != nil || len(st.Comments) > 0 || st.Ignore != "" || st.OrderBy != nil || st.Limit != nil || st.Returning != nil {
			return nil
		}
		exprs, where = st.TableExprs, st.Where
		seen := map[string]bool{}
		for _, a := range st.Exprs {
			se, ok := parseSet(a)
			if !ok || seen[strings.ToLower(se.col)] {
				return nil
			}
			seen[strings.ToLower(se.col)] = true
			p.sets = append(p.sets, se)
		}
		if len(p.sets) == 0 {
			return nil
		}
	case *sqlparser.Delete:
		if st.With != nil || len(st.Comments) > 0 || st.Targets != nil || st.Partitions != nil || st.OrderBy != nil || st.Limit != nil || st.Returning != nil {
			return nil
		}
		exprs, where, p.delete = st.TableExprs, st.Where, true
	case *sqlparser.Insert:
		return pointInsertOf(st)
	default:
		return nil
	}
	if len(exprs) != 1 || where == nil || where.Type != sqlparser.WhereStr {
		return nil
	}
	var ok bool
	if p.db, p.table, p.auth, ok = plainTable(exprs[0]); !ok || !p.add(where.Expr) {
		return nil
	}
	return p
}

// pointInsertOf returns the plan of a one-row INSERT ... VALUES of bind
// variables, or nil.
func pointInsertOf(st *sqlparser.Insert) *writePlan {
	if st.Action != "insert" || st.With != nil || len(st.Comments) > 0 || st.Ignore != "" || st.Partitions != nil ||
		st.Returning != nil || len(st.OnDup) > 0 || !st.Table.SchemaQualifier.IsEmpty() || st.Table.Name.IsEmpty() {
		return nil
	}
	av, ok := st.Rows.(*sqlparser.AliasedValues)
	if !ok || !av.As.IsEmpty() || len(av.Columns) > 0 || len(av.Values) != 1 || len(av.Values[0]) == 0 {
		return nil
	}
	p := &writePlan{insert: true, db: st.Table.DbQualifier.String(), table: st.Table.Name.String(), auth: st.Auth}
	for _, c := range st.Columns {
		p.cols = append(p.cols, c.String())
	}
	if len(p.cols) > 0 && len(p.cols) != len(av.Values[0]) {
		return nil
	}
	for _, e := range av.Values[0] {
		arg, ok := bindArg(e)
		if !ok {
			return nil
		}
		p.vals = append(p.vals, arg)
	}
	return p
}

// parseSet reads one assignment of the forms the fast path serves.
func parseSet(a *sqlparser.AssignmentExpr) (setExpr, bool) {
	if a.Name == nil || !a.Name.Qualifier.IsEmpty() || a.Name.StoredProcVal != nil {
		return setExpr{}, false
	}
	se := setExpr{col: a.Name.Name.String()}
	if arg, ok := bindArg(a.Expr); ok {
		se.arg = arg
		return se, true
	}
	be, ok := a.Expr.(*sqlparser.BinaryExpr)
	if !ok || be.Operator != sqlparser.PlusStr && be.Operator != sqlparser.MinusStr {
		return setExpr{}, false
	}
	cn, ok := be.Left.(*sqlparser.ColName)
	if !ok || !cn.Qualifier.IsEmpty() || cn.StoredProcVal != nil || !cn.Name.Equal(a.Name.Name) {
		return setExpr{}, false
	}
	se.inc = true
	neg := be.Operator == sqlparser.MinusStr
	if arg, ok := bindArg(be.Right); ok {
		se.arg, se.neg = arg, neg
		return se, true
	}
	v, ok := be.Right.(*sqlparser.SQLVal)
	if !ok || v.Type != sqlparser.IntVal {
		return setExpr{}, false
	}
	n, err := strconv.ParseInt(string(v.Val), 10, 64)
	if err != nil || n == math.MinInt64 {
		return setExpr{}, false
	}
	if neg {
		n = -n
	}
	se.add = n
	return se, true
}

// bindArg returns the name of the bind variable e is.
func bindArg(e sqlparser.Expr) (string, bool) {
	v, ok := e.(*sqlparser.SQLVal)
	if !ok || v.Type != sqlparser.ValArg || !strings.HasPrefix(string(v.Val), ":") {
		return "", false
	}
	return string(v.Val[1:]), true
}

// binding returns the plan bound to the table the session's statement
// writes now, or nil when the fast path does not serve it.
func (p *writePlan) binding(pr *sqlbackend.Provider, sess *sqlbackend.Session) *writeBinding {
	t := sessionTable(pr, sess, p.db, p.table)
	if t == nil {
		return nil
	}
	gen := pr.SchemaGen()
	b := p.bound.Load()
	if b == nil || b.t != t || b.gen != gen {
		b = p.bind(pr, t, gen)
		p.bound.Store(b)
	}
	if !b.ok {
		return nil
	}
	return b
}

// bind checks the plan against one version of its table.
func (p *writePlan) bind(pr *sqlbackend.Provider, t *engine.Table, gen uint64) *writeBinding {
	b := &writeBinding{t: t, gen: gen}
	if p.insert {
		if pr.WritesPlain(t, true) {
			p.bindInsert(b)
		}
		return b
	}
	if t.Primary.Hidden || len(t.Primary.Columns) != len(p.where) || !pr.WritesPlain(t, false) {
		return b
	}
	where := make(map[int]string, len(p.where))
	for i, c := range p.where {
		o := t.Column(c)
		if o < 0 || !t.Columns[o].Type.IsInteger() {
			return b
		}
		where[o] = p.args[i]
	}
	for _, c := range t.Primary.Columns {
		a, ok := where[c]
		if !ok {
			return b
		}
		b.keyArg = append(b.keyArg, a)
	}
	unique := map[int]bool{}
	for _, idx := range append([]*engine.Index{t.Primary}, t.Indexes...) {
		if idx.Primary || idx.Unique {
			for _, c := range idx.Columns {
				unique[c] = true
			}
		}
	}
	for _, se := range p.sets {
		o := t.Column(se.col)
		if o < 0 || unique[o] || o == t.AutoInc {
			return b
		}
		ty := &t.Columns[o].Type
		if !ty.IsInteger() && (se.inc || ty.Kind != types.Char && ty.Kind != types.VarChar) {
			return b
		}
		b.setOrd = append(b.setOrd, o)
	}
	b.ok = true
	return b
}

// bindInsert checks an INSERT's plan against t, setting b.ok when the
// fast path serves it.
func (p *writePlan) bindInsert(b *writeBinding) {
	t := b.t
	for _, idx := range t.Indexes {
		if idx.Unique && !idx.Primary {
			return
		}
	}
	named := make([]bool, len(t.Columns))
	if p.cols == nil {
		if len(p.vals) != len(t.Columns) {
			return
		}
		for i := range t.Columns {
			b.valOrd = append(b.valOrd, i)
		}
	}
	for _, c := range p.cols {
		o := t.Column(c)
		if o < 0 {
			return
		}
		b.valOrd = append(b.valOrd, o)
	}
	for _, o := range b.valOrd {
		if named[o] {
			return
		}
		named[o] = true
		ty := &t.Columns[o].Type
		if !ty.IsInteger() && ty.Kind != types.Char && ty.Kind != types.VarChar {
			return
		}
	}
	b.fill = make(engine.Row, len(t.Columns))
	for i := range t.Columns {
		c := &t.Columns[i]
		switch {
		case named[i]:
		case c.DefaultCurrentTimestamp:
			return
		case c.Default != nil:
			// Only defaults of the kinds whose values are taken (an
			// integer, CHAR or VARCHAR default is the same value however
			// it is converted); go-mysql-server fills the others.
			if !c.Type.IsInteger() && c.Type.Kind != types.Char && c.Type.Kind != types.VarChar {
				return
			}
			b.fill[i] = *c.Default
		case c.Nullable || i == t.AutoInc:
			b.fill[i] = types.NullValue
		default:
			return // NOT NULL without a default: go-mysql-server decides
		}
	}
	b.ok = true
}

// row returns the row an INSERT's parameters make, or false when one of
// them is not an exact conversion.
func (b *writeBinding) row(ctx *sql.Context, p *writePlan, binds map[string]*querypb.BindVariable) (engine.Row, bool) {
	t := b.t
	row := b.fill.Clone()
	for i, o := range b.valOrd {
		bv := binds[p.vals[i]]
		if bv == nil {
			return nil, false
		}
		col := &t.Columns[o]
		if bv.Type == sqltypes.Null {
			if !col.Nullable && o != t.AutoInc {
				return nil, false
			}
			row[o] = types.NullValue
			continue
		}
		var v types.Value
		var ok bool
		if col.Type.IsInteger() {
			v, ok = intKey(&col.Type, bv)
		} else {
			v, ok = exactText(&col.Type, bv)
		}
		if !ok {
			return nil, false
		}
		if o == t.AutoInc && v.I == 0 && sqlbackend.SessionSQLMode(ctx).ModeEnabled(sql.NoAutoValueOnZero) {
			return nil, false
		}
		row[o] = v
	}
	return row, true
}

// change returns old with the plan's assignments made, or false when one
// of them is not an exact conversion (go-mysql-server then decides).
func (b *writeBinding) change(p *writePlan, binds map[string]*querypb.BindVariable, old engine.Row) (engine.Row, bool) {
	row := old.Clone()
	for i, se := range p.sets {
		o := b.setOrd[i]
		ty := &b.t.Columns[o].Type
		switch {
		case se.inc:
			n := se.add
			if se.arg != "" {
				v, ok := intKey(&types.Type{Kind: types.BigInt}, binds[se.arg])
				if !ok || v.I == math.MinInt64 {
					return nil, false
				}
				if n = v.I; se.neg {
					n = -n
				}
			}
			cur := row[o]
			if cur.Null || ty.Unsigned && cur.I < 0 {
				return nil, false
			}
			sum := cur.I + n
			if (n > 0 && sum < cur.I) || (n < 0 && sum > cur.I) {
				return nil, false
			}
			v, ok := exactInt(ty, sum)
			if !ok {
				return nil, false
			}
			row[o] = v
		case ty.IsInteger():
			v, ok := intKey(ty, binds[se.arg])
			if !ok {
				return nil, false
			}
			row[o] = v
		default:
			v, ok := exactText(ty, binds[se.arg])
			if !ok {
				return nil, false
			}
			row[o] = v
		}
	}
	return row, true
}

// exactInt is n as a value of integer type t, when t holds it.
func exactInt(t *types.Type, n int64) (types.Value, bool) {
	if t.Unsigned && n < 0 {
		return types.Value{}, false
	}
	v := types.FromInt(t, n)
	return v, !v.Null && v.I == n
}

// exactText is a string parameter as a value of CHAR or VARCHAR type t,
// when it is ASCII (the same bytes in every character set a client may
// use) and t stores it unchanged.
func exactText(t *types.Type, bv *querypb.BindVariable) (types.Value, bool) {
	if bv == nil {
		return types.Value{}, false
	}
	switch bv.Type {
	case sqltypes.VarBinary, sqltypes.VarChar, sqltypes.Text, sqltypes.Char:
	default:
		return types.Value{}, false
	}
	for _, c := range bv.Value {
		if c >= 0x80 {
			return types.Value{}, false
		}
	}
	v := types.Convert(t, bv.Value, nil)
	if string(v.B) != string(bv.Value) {
		return types.Value{}, false
	}
	return v, true
}

// execWrite runs a prepared statement recognised as a point write. done
// is false when the statement must go to go-mysql-server instead. It is
// called on the connection's goroutine, like every command of the
// connection.
func (h *mariaHandler) execWrite(ctx context.Context, c *mysql.Conn, p *writePlan, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error) (done bool, err error) {
	s, sctx, sess := h.fastSession(ctx, c, prepare.PrepareStmt)
	if sess == nil {
		return false, nil
	}
	defer endSpan(sctx)
	if !pointSafe(sctx, sess) && !txnPointSafe(sctx, sess) || sqlbackend.InReadOnlyTransaction(sctx) {
		// (A read-only transaction's refusal is go-mysql-server's.)
		return false, nil
	}
	b := p.binding(s.p, sess)
	if b == nil {
		return false, nil
	}
	if !h.fastAuthorized(s, sctx, sess, p, p.auth) {
		return false, nil
	}
	var key []types.Value
	var row engine.Row
	var ok bool
	if p.insert {
		row, ok = b.row(sctx, p, prepare.BindVars)
	} else {
		key, ok = intKeyOf(b.t, b.t.Primary.Columns, b.keyArg, prepare.BindVars)
	}
	if !ok {
		return false, nil
	}
	var change func(engine.Row) (engine.Row, bool)
	if !p.delete && !p.insert {
		change = func(old engine.Row) (engine.Row, bool) { return b.change(p, prepare.BindVars, old) }
	}

	// A lock wait ends when the client goes, as on go-mysql-server's way.
	wctx, stop := watchStatement(sctx, c)
	defer stop()
	sctx, end, err := beginFast(sctx.WithContext(wctx), sess, prepare.PrepareStmt)
	if err != nil {
		return true, err
	}
	defer end()
	sess.BeginStatementIDs()
	var (
		matched, changed bool
		id               uint64
	)
	com := "Com_update"
	switch {
	case p.insert:
		id, ok, err = sess.PointInsert(sctx, b.t, row)
		matched, changed, com = true, true, "Com_insert"
	case p.delete:
		matched, changed, ok, err = sess.PointWrite(sctx, b.t, key, nil)
		com = "Com_delete"
	default:
		matched, changed, ok, err = sess.PointWrite(sctx, b.t, key, change)
	}
	if !ok {
		return false, nil
	}
	countFast(sctx, com)
	if err != nil {
		return true, sql.CastSQLError(err)
	}
	nm, nc := boolInt(matched), boolInt(changed)
	res := &sqltypes.Result{RowsAffected: uint64(nc), InsertID: id}
	if id != 0 {
		sctx.SetLastQueryInfoInt(sql.LastInsertId, int64(id))
	} else if p.insert && b.t.AutoInc >= 0 && !row[b.t.AutoInc].Null {
		// An id given: the OK packet says it (LAST_INSERT_ID() stays).
		res.InsertID = uint64(row[b.t.AutoInc].I)
	}
	if !p.delete && !p.insert {
		if c.Capabilities&mysql.CapabilityClientFoundRows != 0 {
			res.RowsAffected = uint64(nm)
		}
		res.Info = plan.UpdateInfo{Matched: nm, Updated: nc}.String()
		sctx.SetLastQueryInfoInt(sql.FoundRows, int64(nm))
	}
	sctx.SetLastQueryInfoInt(sql.RowCount, int64(res.RowsAffected))
	h.stats.PointWrites.Add(1)
	return true, h.sendFast(c, res, callback)
}

// boolInt is 1 for true, 0 for false.
func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
