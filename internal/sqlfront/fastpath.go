package sqlfront

import (
	"context"
	"math"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The point-select fast path serves prepared statements of the form
//
//	SELECT <columns or *> FROM [db.]tbl WHERE k1 = ? [AND k2 = ? ...]
//
// where k1, k2... are exactly the columns of the primary key or of a
// unique index, all of integer types, without go-mysql-server's parser and
// analyzer (which run on every execution of a prepared statement). The
// statement is recognised when it is prepared; each execution then looks
// the row up with engine.Find and sends it as go-mysql-server would.
//
// An execution takes the fast path only when it is safe, and otherwise
// goes to go-mysql-server as if the fast path did not exist:
//   - sql_select_limit is at its default, and either the session is in
//     autocommit mode with no transaction open (the row is read from
//     committed data, through the row cache), or the key is the primary
//     key and the session's open transaction reads it with one point
//     lookup (Session.PointRow: its snapshot, or its writes over the
//     newest commits; not a SERIALIZABLE read's lock, nor writes laid over
//     a snapshot);
//   - the table resolves, in the engine's current catalog, to an
//     engine.Table (a new one after every DDL that changes the table) for
//     which the statement was checked, and is not one of the system
//     databases';
//   - go-mysql-server's own authorization handler accepts the statement's
//     table access for the session's user (on refusal go-mysql-server
//     runs the statement and reports its own error);
//   - every parameter is an integer that the key column holds exactly
//     (not NULL, not a string, not out of the column's range);
//   - the result fields were learnt from go-mysql-server: the first
//     execution for a table version and character_set_results goes to
//     go-mysql-server, whose fields are then reused verbatim. Row values
//     are produced by the column types' own SQL conversion, as
//     go-mysql-server's handler does.
//
// Text queries (COM_QUERY) are not served: their keys are literals, so a
// cache by query text would rarely hit.

// pointCacheMax bounds the number of statement texts remembered.
const pointCacheMax = 4096

// pointSelects remembers the recognised fast-path statements by text:
// point selects (*pointPlan) and point writes (*writePlan, pointwrite.go).
// Safe for concurrent use.
type pointSelects struct {
	plans sync.Map // query text -> *pointPlan, *writePlan or noFastPlan
	n     atomic.Int64
}

// remember returns the plan of a statement text (a *pointPlan, a
// *writePlan or noFastPlan), parsing the text and keeping its plan the
// first time; nil once pointCacheMax texts are kept.
func (ps *pointSelects) remember(query string) any {
	if v, ok := ps.plans.Load(query); ok {
		return v
	}
	if ps.n.Load() >= pointCacheMax {
		return nil
	}
	v, loaded := ps.plans.LoadOrStore(query, parseFast(query))
	if !loaded {
		ps.n.Add(1)
	}
	return v
}

// noFastPlan marks a text remembered as one the fast path does not serve
// (text templates are looked up on every execution: each is parsed once).
type noFastPlan struct{}

// lookup returns the plan of a statement text (a *pointPlan, a
// *writePlan or noFastPlan), or nil.
func (ps *pointSelects) lookup(query string) any {
	v, _ := ps.plans.Load(query)
	return v
}

// parseFast parses a statement text once and returns its plan: a
// *pointPlan, a *writePlan, or noFastPlan for every other statement.
func parseFast(query string) any {
	// A double quote means a string or, under ANSI_QUOTES, an identifier;
	// a semicolon may start another statement. Neither belongs here, nor
	// a clause hidden from the vitess grammar (markPrepared: a
	// RETURNING, whose rows the fast write would not send).
	if strings.ContainsAny(query, "\";") || strings.Contains(query, returningMark) {
		return noFastPlan{}
	}
	stmt, err := sqlparser.Parse(query)
	if err != nil {
		return noFastPlan{}
	}
	if sel, ok := stmt.(*sqlparser.Select); ok {
		if p := pointSelectOf(sel); p != nil {
			return p
		}
	} else if w := pointWriteOf(stmt); w != nil {
		return w
	}
	return noFastPlan{}
}

// pointPlan is what the text of a point select says. Its fields are set
// once by pointSelectOf and read-only afterwards; bound is replaced
// atomically. Safe for concurrent use.
type pointPlan struct {
	db, table string   // db is "" for the current database
	star      bool     // SELECT *
	cols      []string // the selected columns, unless star
	conds
	auth sqlparser.AuthInformation

	bound atomic.Pointer[pointBinding]
}

// pointBinding is a plan checked against one version of its table. It is
// immutable once published.
type pointBinding struct {
	t        *engine.Table
	colTypes []sql.Type    // go-mysql-server's type of each column of t
	idx      *engine.Index // nil: the statement is no point select on this table
	args     []string      // bind variable per index column, in index order
	out      []int         // ordinals of the columns sent

	// fields are go-mysql-server's result fields for the statement,
	// learnt under character_set_results charset; nil until learnt.
	fields  []*querypb.Field
	charset sql.CharacterSetID
}

// pointSelectOf returns the plan of a point select, or nil for any
// other SELECT.
func pointSelectOf(sel *sqlparser.Select) *pointPlan {
	if sel.With != nil || len(sel.Comments) > 0 || sel.QueryOpts != (sqlparser.QueryOpts{}) ||
		sel.GroupBy != nil || sel.Having != nil || sel.Window != nil || sel.OrderBy != nil ||
		sel.Limit != nil || sel.Lock != "" || sel.Into != nil || len(sel.From) != 1 ||
		sel.Where == nil || sel.Where.Type != sqlparser.WhereStr {
		return nil
	}
	p := &pointPlan{}
	var ok bool
	if p.db, p.table, p.auth, ok = plainTable(sel.From[0]); !ok {
		return nil
	}
	if len(sel.SelectExprs) == 1 {
		if st, ok := sel.SelectExprs[0].(*sqlparser.StarExpr); ok && st.TableName.IsEmpty() {
			p.star = true
		}
	}
	if !p.star {
		for _, se := range sel.SelectExprs {
			ae, ok := se.(*sqlparser.AliasedExpr)
			if !ok || !ae.As.IsEmpty() {
				return nil
			}
			cn, ok := ae.Expr.(*sqlparser.ColName)
			if !ok || !cn.Qualifier.IsEmpty() || cn.StoredProcVal != nil {
				return nil
			}
			p.cols = append(p.cols, cn.Name.String())
		}
	}
	if !p.add(sel.Where.Expr) {
		return nil
	}
	return p
}

// plainTable reads a statement's one table: a table name, with or
// without its database, and nothing else (no alias, partition, hint, AS
// OF or LATERAL).
func plainTable(te sqlparser.TableExpr) (db, table string, auth sqlparser.AuthInformation, ok bool) {
	ate, ok := te.(*sqlparser.AliasedTableExpr)
	if !ok || ate.Partitions != nil || !ate.As.IsEmpty() || ate.Hints != nil || ate.AsOf != nil || ate.Lateral {
		return "", "", auth, false
	}
	tn, ok := ate.Expr.(sqlparser.TableName)
	if !ok || !tn.SchemaQualifier.IsEmpty() || tn.Name.IsEmpty() {
		return "", "", auth, false
	}
	return tn.DbQualifier.String(), tn.Name.String(), ate.Auth, true
}

// conds are the column = ? comparisons of a statement's WHERE.
type conds struct {
	where []string // the compared columns...
	args  []string // ...and the bind variable each is compared to
}

// add records the column = ? comparisons of a conjunction; false when it
// holds anything else.
func (p *conds) add(e sqlparser.Expr) bool {
	switch e := e.(type) {
	case *sqlparser.AndExpr:
		return p.add(e.Left) && p.add(e.Right)
	case *sqlparser.ComparisonExpr:
		if e.Operator != sqlparser.EqualStr || e.Escape != nil {
			return false
		}
		l, r := e.Left, e.Right
		if _, ok := l.(*sqlparser.SQLVal); ok {
			l, r = r, l
		}
		cn, ok := l.(*sqlparser.ColName)
		if !ok || !cn.Qualifier.IsEmpty() || cn.StoredProcVal != nil {
			return false
		}
		arg, ok := bindArg(r)
		if !ok {
			return false
		}
		p.where = append(p.where, cn.Name.String())
		p.args = append(p.args, arg)
		return true
	}
	return false
}

// isSystemDB reports whether go-mysql-server, not the engine, serves a
// database name.
func isSystemDB(name string) bool {
	for _, s := range []string{"information_schema", "mysql", "performance_schema", "sys"} {
		if strings.EqualFold(name, s) {
			return true
		}
	}
	return false
}

// binding returns the plan bound to the table the session's statement
// reads now, or nil when the fast path does not apply to it.
func (p *pointPlan) binding(pr *sqlbackend.Provider, sess *sqlbackend.Session) *pointBinding {
	t := sessionTable(pr, sess, p.db, p.table)
	if t == nil {
		return nil
	}
	b := p.bound.Load()
	if b == nil || b.t != t {
		b = p.bind(pr, t)
		p.bound.Store(b)
	}
	if b.idx == nil {
		return nil
	}
	return b
}

// sessionTable resolves a fast-path statement's table (db "" for the
// session's database) in the engine's current catalog: nil for none, and
// for the system databases, which go-mysql-server serves.
func sessionTable(pr *sqlbackend.Provider, sess *sqlbackend.Session, db, table string) *engine.Table {
	if db == "" {
		db = sess.GetCurrentDatabase()
	}
	if db == "" || isSystemDB(db) {
		return nil
	}
	t, err := pr.Engine().Catalog().Table(db, table)
	if err != nil {
		return nil
	}
	return t
}

// bind checks the plan against one version of its table.
func (p *pointPlan) bind(pr *sqlbackend.Provider, t *engine.Table) *pointBinding {
	b := &pointBinding{t: t, colTypes: pr.ColumnTypes(t)}
	if p.star {
		for i := range t.Columns {
			b.out = append(b.out, i)
		}
	}
	for _, c := range p.cols {
		i := t.Column(c)
		if i < 0 {
			return b
		}
		b.out = append(b.out, i)
	}
	where := make(map[int]string, len(p.where))
	for i, c := range p.where {
		o := t.Column(c)
		if o < 0 || !t.Columns[o].Type.IsInteger() {
			return b
		}
		if _, dup := where[o]; dup {
			return b
		}
		where[o] = p.args[i]
	}
	cands := append([]*engine.Index{t.Primary}, t.Indexes...)
	for _, idx := range cands {
		if idx.Hidden || !(idx.Primary || idx.Unique) || sqlbackend.IsHelperIndex(idx) || len(idx.Columns) != len(where) {
			continue
		}
		args := make([]string, 0, len(idx.Columns))
		for _, c := range idx.Columns {
			if a, ok := where[c]; ok {
				args = append(args, a)
			}
		}
		if len(args) == len(idx.Columns) {
			b.idx, b.args = idx, args
			return b
		}
	}
	return b
}

// key converts the bound parameters into the index key, or reports false
// intKeyOf converts the parameters args, one per column cols of t, into
// a key, or reports false when one is not an integer its column holds
// exactly.
func intKeyOf(t *engine.Table, cols []int, args []string, binds map[string]*querypb.BindVariable) ([]types.Value, bool) {
	key := make([]types.Value, len(args))
	for i, a := range args {
		v, ok := intKey(&t.Columns[cols[i]].Type, binds[a])
		if !ok {
			return nil, false
		}
		key[i] = v
	}
	return key, true
}

// intKey converts an integer parameter into a value of integer column
// type t when t holds it exactly.
func intKey(t *types.Type, bv *querypb.BindVariable) (types.Value, bool) {
	if bv == nil {
		return types.Value{}, false
	}
	var n int64
	switch bv.Type {
	case sqltypes.Int8, sqltypes.Int16, sqltypes.Int24, sqltypes.Int32, sqltypes.Int64:
		x, err := strconv.ParseInt(string(bv.Value), 10, 64)
		if err != nil || (t.Unsigned && x < 0) {
			return types.Value{}, false
		}
		n = x
	case sqltypes.Uint8, sqltypes.Uint16, sqltypes.Uint24, sqltypes.Uint32, sqltypes.Uint64:
		x, err := strconv.ParseUint(string(bv.Value), 10, 64)
		if err != nil {
			return types.Value{}, false
		}
		if x > math.MaxInt64 {
			// Only BIGINT UNSIGNED holds it (as its uint64 bits);
			// FromInt takes signed values.
			if t.Kind != types.BigInt || !t.Unsigned {
				return types.Value{}, false
			}
			return types.Value{I: int64(x)}, true
		}
		n = int64(x)
	default:
		return types.Value{}, false
	}
	v := types.FromInt(t, n)
	if v.Null || v.I != n {
		return types.Value{}, false // out of the column's range
	}
	return v, true
}

// txnPointSafe reports whether a point select of the session's open
// transaction may be served outside go-mysql-server, reading as the
// transaction reads (Session.PointRow): no temporary tables, no default
// LIMIT.
func txnPointSafe(ctx *sql.Context, sess *sqlbackend.Session) bool {
	if sess.GetTransaction() == nil || sess.HasTemporaryTables() {
		return false
	}
	def, _ := sql.HasDefaultValue(ctx, sess, "sql_select_limit")
	return def
}

// pointSafe reports whether the session may read committed data outside
// go-mysql-server: autocommit, no transaction, no default LIMIT. Under
// autocommit, go-mysql-server's transaction handle may still be set when
// no transaction is open: a statement that failed, or SHOW WARNINGS,
// leaves it behind for the next statement to reuse (and then clear). It
// holds nothing (the Session holds the engine transaction, the locks and
// the snapshot), so it does not keep the fast path away.
func pointSafe(ctx *sql.Context, sess *sqlbackend.Session) bool {
	if sess.HasEngineTxn() || sess.GetIgnoreAutoCommit() || sess.HasTemporaryTables() {
		return false
	}
	v, err := sess.GetSessionVariable(ctx, "autocommit")
	if err != nil {
		return false
	}
	if ac, err := sql.ConvertToBool(ctx, v); err != nil || !ac {
		return false
	}
	def, _ := sql.HasDefaultValue(ctx, sess, "sql_select_limit")
	return def
}

// execPoint runs a statement recognised as a point select: a prepared
// one, or with text set the text statement whose template (textTemplate)
// prepare is. done is false when the statement must go to
// go-mysql-server instead. It is called on the connection's goroutine,
// like every command of the connection.
func (h *mariaHandler) execPoint(ctx context.Context, c *mysql.Conn, p *pointPlan, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error, text string) (done bool, err error) {
	s, sctx, sess := h.fastSession(ctx, c, prepare.PrepareStmt)
	if sess == nil {
		return false, nil
	}
	defer endSpan(sctx)
	inTxn := false
	if !pointSafe(sctx, sess) {
		if !txnPointSafe(sctx, sess) {
			return false, nil
		}
		inTxn = true
	}
	b := p.binding(s.p, sess)
	if b == nil || inTxn && !b.idx.Primary {
		return false, nil
	}
	if !h.fastAuthorized(s, sctx, sess, p, p.auth) {
		return false, nil
	}
	key, ok := intKeyOf(b.t, b.idx.Columns, b.args, prepare.BindVars)
	if !ok {
		return false, nil
	}
	cs := sess.GetCharacterSetResults()
	if b.fields == nil || b.charset != cs {
		return true, h.learnPoint(ctx, c, p, b, cs, prepare, text, callback)
	}

	// A point read never waits (no lock, no writer), so it is not entered
	// in the process list: SHOW PROCESSLIST could not catch it running,
	// and KILL QUERY would find it done. (The point writes, which can wait
	// for a row lock, are entered: beginFast.)
	if err := sql.SessionCommandBegin(sess); err != nil {
		return true, err
	}
	defer sql.SessionCommandEnd(sess)
	var rows [][]sqltypes.Value
	var txnRow engine.Row
	if inTxn {
		var ok bool
		if txnRow, ok, err = sess.PointRow(sctx, b.t, key); !ok {
			return false, nil
		}
	}
	countFast(sctx, "Com_select")

	switch {
	case !inTxn:
		rows, err = b.find(sctx, s.e, key)
	case err == nil && txnRow != nil:
		rows, err = b.convert(sctx, txnRow, nil)
	}
	if err != nil {
		return true, sql.CastSQLError(err)
	}
	sctx.SetLastQueryInfoInt(sql.RowCount, -1)
	sctx.SetLastQueryInfoInt(sql.FoundRows, int64(len(rows)))
	h.stats.PointFast.Add(1)
	res := &sqltypes.Result{Fields: b.fields, Rows: rows, RowsAffected: uint64(len(rows))}
	if text == "" {
		binaryZeroDates(res, res.Fields) // a prepared statement's binary rows
	}
	return true, h.sendFast(c, res, callback)
}

// fastSession returns the server, a context for query and the HandlerDB
// session of c, for a fast-path execution; sess is nil when there is
// none. The caller ends the context's span (endSpan).
func (h *mariaHandler) fastSession(ctx context.Context, c *mysql.Conn, query string) (s *Server, sctx *sql.Context, sess *sqlbackend.Session) {
	if s = h.srv.Load(); s == nil {
		return nil, nil, nil
	}
	lc := limitConnOf(c)
	if lc != nil && lc.fastCtx != nil && any(lc.fastCtx.Session) == c.ClientData {
		// The connection's first context, copied: go-mysql-server's
		// makes a context of nine options (each a closure) and a span per
		// statement. The copy gets a process id of its own (the pid
		// says "another statement" to whatever keeps state per statement).
		sctx = lc.fastCtx.WithQuery(query)
		sctx.Context = ctx
		sctx.ApplyOpts(sql.WithPid(1<<62 + fastPids.Add(1)))
		sctx.SetQueryTime(time.Now())
		return s, sctx, sqlbackend.SessionOf(sctx)
	}
	sctx, err := s.srv.SessionManager().NewContextWithQuery(ctx, c, query)
	if err != nil {
		return nil, nil, nil
	}
	if lc != nil && !sctx.RootSpan().IsRecording() {
		lc.fastCtx = sctx
	}
	return s, sctx, sqlbackend.SessionOf(sctx)
}

// fastAuthorized reports whether the session's account may run the fast
// path statement of plan (a pointer) whose access is auth: a SELECT,
// UPDATE, INSERT or DELETE of one table. go-mysql-server's check builds
// its query state (the account looked up under the grant tables' read
// lock) on every call; the answer is kept per session and plan while the
// account, the current database and the grant tables' generation (the
// update counter that the session's privilege set carries, refreshed by
// UserActivePrivilegeSet) stay the same. A refusal is not kept.
func (h *mariaHandler) fastAuthorized(s *Server, sctx *sql.Context, sess *sqlbackend.Session, plan any, auth sqlparser.AuthInformation) bool {
	mdb := h.mdb
	if mdb == nil || !mdb.Enabled() {
		return s.engine.Analyzer.Catalog.AuthorizationHandler().HandleAuth(sctx, nil, auth) == nil
	}
	mdb.UserActivePrivilegeSet(sctx)
	_, grants := sess.GetPrivilegeSet()
	client := sess.Client()
	db := sctx.GetCurrentDatabase()
	if m, ok := sess.AuthMemoOf(plan); ok && grants != 0 && m.Grants == grants && m.DB == db && m.User == client.User && m.Address == client.Address {
		return true
	}
	if s.engine.Analyzer.Catalog.AuthorizationHandler().HandleAuth(sctx, nil, auth) != nil {
		return false
	}
	if grants != 0 {
		sess.SetAuthMemo(plan, sqlbackend.AuthMemo{User: client.User, Address: client.Address, DB: db, Grants: grants})
	}
	return true
}

// fastPids numbers the statements whose context fastSession copies; their
// process ids are 2^62 above it, far above go-mysql-server's own count
// (which starts at 1), so that the two never give one id twice.
var fastPids atomic.Uint64

// endSpan ends ctx's root span, if it has one.
func endSpan(ctx *sql.Context) {
	if span := ctx.RootSpan(); span != nil {
		span.End()
	}
}

// beginFast opens, as go-mysql-server's handler does for a statement, the
// process-list entry of query and the session's command; end closes them.
func beginFast(sctx *sql.Context, sess *sqlbackend.Session, query string) (_ *sql.Context, end func(), err error) {
	if sctx, err = sctx.ProcessList.BeginQuery(sctx, query); err != nil {
		return nil, nil, err
	}
	if err := sql.SessionCommandBegin(sess); err != nil {
		sctx.ProcessList.EndQuery(sctx)
		return nil, nil, err
	}
	return sctx, func() {
		sql.SessionCommandEnd(sess)
		sctx.ProcessList.EndQuery(sctx)
	}, nil
}

// countFast counts a statement served by a fast path as go-mysql-server
// counts one of class com (Com_select, Com_update...), and drops the
// warnings of the statement before.
func countFast(sctx *sql.Context, com string) {
	sql.IncrementStatusVariable(sctx, "Questions", 1)
	sctx.ClearWarnings()
	sql.IncrementStatusVariable(sctx, com, 1)
}

// sendFast sends a fast path's result with the session's status flags
// (and shows it to the tests' tap).
func (h *mariaHandler) sendFast(c *mysql.Conn, res *sqltypes.Result, callback func(*sqltypes.Result) error) error {
	setStatusFlags(c)
	if tap := h.tap.Load(); tap != nil {
		(*tap)(true, res)
	}
	return callback(res)
}

// learnPoint runs the statement (the prepared one, or the text) through
// go-mysql-server and keeps the fields it sends for b's table version,
// provided the table was the same before and after and the fields have
// the types b would send.
func (h *mariaHandler) learnPoint(ctx context.Context, c *mysql.Conn, p *pointPlan, b *pointBinding, cs sql.CharacterSetID, prepare *mysql.PrepareData, text string, callback func(*sqltypes.Result) error) error {
	var fields []*querypb.Field
	learn := func(r *sqltypes.Result) error {
		if fields == nil && r != nil {
			fields = r.Fields
		}
		return callback(r)
	}
	var err error
	if text == "" {
		err = h.slowExecute(ctx, c, prepare, learn)
	} else {
		err = h.textQuery(ctx, c, text, func(r *sqltypes.Result, _ bool) error { return learn(r) })
	}
	if err != nil || len(fields) != len(b.out) {
		return err
	}
	for i, o := range b.out {
		if fields[i] == nil || fields[i].Type != b.colTypes[o].Type() {
			return nil
		}
	}
	if now, terr := h.srv.Load().e.Catalog().Table(b.t.DB, b.t.Name); terr != nil || now != b.t {
		return nil
	}
	nb := *b
	nb.fields, nb.charset = fields, cs
	p.bound.CompareAndSwap(b, &nb)
	return nil
}

// find looks the key up in committed data and converts the row found, if
// any, as go-mysql-server's handler converts result rows.
func (b *pointBinding) find(ctx *sql.Context, e *engine.Engine, key []types.Value) ([][]sqltypes.Value, error) {
	var rows [][]sqltypes.Value
	var cerr error
	q := engine.Query{Index: b.idx, Op: engine.OpEQ, Key: key, Limit: 1}
	err := e.Find(b.t, &q, func(r engine.Row) bool {
		rows, cerr = b.convert(ctx, r, rows)
		return false
	})
	if err != nil {
		return nil, sqlbackend.MapError(err)
	}
	return rows, cerr
}

// convert appends row r's columns sent, converted as go-mysql-server's
// handler converts result rows, to rows.
func (b *pointBinding) convert(ctx *sql.Context, r engine.Row, rows [][]sqltypes.Value) ([][]sqltypes.Value, error) {
	row := make([]sqltypes.Value, len(b.out))
	for i, o := range b.out {
		v := sqlbackend.ValueToSQL(&b.t.Columns[o].Type, r[o])
		if v == nil {
			row[i] = sqltypes.NULL
			continue
		}
		var err error
		if row[i], err = b.colTypes[o].SQL(ctx, nil, v); err != nil {
			return rows, err
		}
	}
	return append(rows, row), nil
}
