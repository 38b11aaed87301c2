package sqlfront

import (
	"bytes"
	"context"
	"crypto/tls"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Text-protocol results are printed by go-mysql-server the way MySQL 8
// prints them. Where MariaDB prints differently, the values are rewritten
// on their way out: FLOAT and DOUBLE with MariaDB's digits (1e20, not
// 1e+20; FLOAT with 6 significant digits), and DATETIME(n) with exactly n
// fractional digits.

// mariaHandler is a mysql.Handler that answers EXPLAIN (see explain.go)
// and reformats text-protocol results. Safe for concurrent use.
type mariaHandler struct {
	mysql.Handler
	srv   atomic.Pointer[Server] // set once the server is built
	stats Stats

	guard  *guardedParser // go-mysql-server's parser (guard.go)
	hosts  *connectErrors // max_connect_errors (connlimit.go); nil: off
	mdb    *mysql_db.MySQLDb
	points pointSelects // prepared point selects (fastpath.go)
	noFast atomic.Bool  // send every statement to go-mysql-server
	// readLocks are the connections holding FLUSH TABLES WITH READ LOCK
	// (readlock.go).
	readLocks readLocks
	// noBulk turns the bulk insert and bulk load paths off
	// (bulkload.go, loaddata.go); bulkRows and loadRows count the rows
	// they converted.
	noBulk   atomic.Bool
	bulkRows atomic.Int64
	loadRows atomic.Int64
	// plans is the plan cache of SELECTs (plancache.go); noPlanCache
	// turns it off.
	plans       planCache
	noPlanCache atomic.Bool
	// tap, when set (by tests), sees every result of a prepared
	// statement, with whether the fast path produced it.
	tap atomic.Pointer[func(fast bool, r *sqltypes.Result)]
	// gmsResults, when set (by tests), runs kept plans through
	// go-mysql-server's handler instead of runBound.
	gmsResults atomic.Bool
}

// ComQuery runs a query, reformatting its results.
func (h *mariaHandler) ComQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) error {
	authenticated(c)
	h.connectionStart(ctx, c)
	if sl := logStatement(c, "Query", query, nil); sl != nil { // querylog.go
		defer sl.done(c)
		next := callback
		callback = func(r *sqltypes.Result, more bool) error { sl.count(r); return next(r, more) }
	}
	ctx, stop := watchStatement(ctx, c)
	defer stop()
	ctx = h.readLocks.holding(ctx, c.ConnectionID)
	if done, _, err := h.readLockStatement(ctx, c, query, false, callback); done { // readlock.go
		h.stats.count(query, err)
		return h.wireError(c, query, err)
	}
	if isFlushHosts(query) {
		err := h.flushHosts(c)
		h.stats.count(query, err)
		if err == nil {
			setStatusFlags(c)
			err = callback(&sqltypes.Result{}, false)
		}
		return err
	}
	if done, err := h.explain(ctx, c, query, h.withStatus(c, query, callback)); done {
		h.stats.count(query, err)
		return h.wireError(c, query, h.overrun(c, err))
	}
	if done, err := h.accountCommand(ctx, c, query, false, callback); done { // accounts.go
		h.stats.count(query, err)
		return h.wireError(c, query, err)
	}
	if done, err := h.binlogStatement(ctx, c, query, callback); done { // binlogadmin.go
		h.stats.count(query, err)
		return h.wireError(c, query, err)
	}
	cb := h.withStatus(c, query, reformatting(callback, h.scaledReal, h.warnings(c), &resultTypes{c: c}))
	if sel, rest, ok := doStatement(query); ok && strings.Trim(rest, "; \t\r\n") == "" {
		err := h.do(ctx, c, sel, false, cb)
		h.stats.count(query, err)
		return h.wireError(c, query, err)
	}
	done, err := h.bulkInsert(ctx, c, query, cb)
	if !done {
		done, err = h.loadData(ctx, c, query, cb)
	}
	if !done {
		done, err = h.textTemplated(ctx, c, query, cb)
		if done {
			h.plans.ran(query)
		}
	}
	if !done {
		err = h.textQuery(ctx, c, query, cb)
	}
	err = h.overrun(c, err)
	h.stats.count(query, err)
	return h.wireError(c, query, err)
}

// textQuery runs a text statement from the plan cache, or else through
// go-mysql-server's handler.
func (h *mariaHandler) textQuery(ctx context.Context, c *mysql.Conn, query string, cb mysql.ResultSpoolFn) error {
	if done, err := h.cachedQuery(ctx, c, query, cb); done {
		return err
	}
	err := h.Handler.ComQuery(ctx, c, query, cb)
	if err != nil && noDatabaseSelected(err) {
		err = h.withoutDatabase(ctx, c, query, cb, err)
	}
	h.plans.ran(query)
	return err
}

// withoutDatabase runs again a statement that failed with 1046 while no
// database is selected, when every table it names is qualified: go-mysql-
// server reads a view only with a current database (its view binding asks
// for one), so SELECT ... FROM db.view failed where MariaDB answers. The
// retry runs with the first qualifier as the current database, which its
// qualified names do not depend on, and the session is left without one
// again. err is the first run's error, returned when there is no retry.
func (h *mariaHandler) withoutDatabase(ctx context.Context, c *mysql.Conn, query string, cb mysql.ResultSpoolFn, err error) error {
	_, _, sess := h.fastSession(ctx, c, "")
	if sess == nil || sess.GetCurrentDatabase() != "" {
		return err
	}
	db := onlyQualifiedTables(query)
	if db == "" {
		return err
	}
	sess.SetCurrentDatabase(db)
	defer sess.SetCurrentDatabase("")
	return h.Handler.ComQuery(ctx, c, query, cb)
}

// noDatabaseSelected reports whether err is go-mysql-server's 1046 (its
// handler returns it as a *mysql.SQLError of its text).
func noDatabaseSelected(err error) bool {
	return sql.ErrNoDatabaseSelected.Is(err) || strings.Contains(err.Error(), sql.ErrNoDatabaseSelected.Message)
}

// onlyQualifiedTables returns the database qualifier of the first table
// query names when it is one statement whose every table name is
// qualified, else "".
func onlyQualifiedTables(query string) string {
	st, err := sqlparser.Parse(query)
	if err != nil {
		return ""
	}
	first, all := "", true
	note := func(tn sqlparser.TableName) {
		if tn.Name.IsEmpty() {
			return
		}
		if tn.DbQualifier.IsEmpty() {
			all = false
		} else if first == "" {
			first = tn.DbQualifier.String()
		}
	}
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *sqlparser.ColName:
			return false, nil // its qualifier is a table or alias already named
		case sqlparser.TableName:
			note(x)
		case *sqlparser.AliasedTableExpr:
			if tn, ok := x.Expr.(sqlparser.TableName); ok {
				note(tn)
			}
		}
		return true, nil
	}, st)
	if !all {
		return ""
	}
	return first
}

// overrun returns error 1436 for err when the depth guard refused the
// connection's statement (go-mysql-server reports the refusals of some of
// its parses as generic syntax errors); else err.
func (h *mariaHandler) overrun(c *mysql.Conn, err error) error {
	if h.guard != nil && h.guard.takeRefused(c.ConnectionID) && err != nil &&
		strings.Contains(err.Error(), "Thread stack overrun") {
		return errStackOverrun()
	}
	return err
}

// ComPrepare prepares a statement, remembering it when it is a point
// select (see fastpath.go).
func (h *mariaHandler) ComPrepare(ctx context.Context, c *mysql.Conn, query string, prepare *mysql.PrepareData) ([]*querypb.Field, error) {
	authenticated(c)
	h.connectionStart(ctx, c)
	if generalLog.logging() {
		logGeneral(c, "Prepare", strings.Replace(query, doMark, "DO", 1))
	}
	if strings.HasPrefix(query, doMark) {
		// A prepared DO (markDo): its SELECT is checked, no columns.
		_, err := h.Handler.ComPrepare(ctx, c, query, prepare)
		return nil, h.wireError(c, query, h.overrun(c, err))
	}
	fields, err := h.Handler.ComPrepare(ctx, c, query, prepare)
	err = h.overrun(c, err)
	temporalDecimals(fields, h.scaledReal, nil)
	if err == nil && query == prepare.PrepareStmt && !h.noFast.Load() {
		h.points.remember(query)
	}
	return fields, h.wireError(c, query, err)
}

// ComStmtExecute runs a prepared statement (counted for metrics): a point
// select on the fast path when it can, else through go-mysql-server.
func (h *mariaHandler) ComStmtExecute(ctx context.Context, c *mysql.Conn, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error) error {
	authenticated(c)
	h.connectionStart(ctx, c)
	ctx = h.readLocks.holding(ctx, c.ConnectionID)
	if sl := logStatement(c, "Execute", "", prepare); sl != nil {
		defer sl.done(c)
		next := callback
		callback = func(r *sqltypes.Result) error { sl.count(r); return next(r) }
	}
	if strings.HasPrefix(prepare.PrepareStmt, doMark) {
		// A prepared DO (markDo): its SELECT runs, its rows are dropped,
		// and the answer is an OK packet.
		err := h.slowExecute(ctx, c, prepare, func(*sqltypes.Result) error { return nil })
		if err == nil {
			setStatusFlags(c)
			err = callback(&sqltypes.Result{})
		}
		h.stats.count(prepare.PrepareStmt, err)
		return h.wireError(c, prepare.PrepareStmt, err)
	}
	if p := h.points.lookup(prepare.PrepareStmt); p != nil && !h.noFast.Load() {
		var done bool
		var err error
		switch p := p.(type) {
		case *pointPlan:
			done, err = h.execPoint(ctx, c, p, prepare, callback, "")
		case *writePlan:
			done, err = h.execWrite(ctx, c, p, prepare, callback)
		}
		if done {
			h.stats.count(prepare.PrepareStmt, err)
			return h.wireError(c, prepare.PrepareStmt, err)
		}
	}
	err := h.slowExecute(ctx, c, prepare, callback)
	h.plans.ran(prepare.PrepareStmt)
	h.stats.count(prepare.PrepareStmt, err)
	return h.wireError(c, prepare.PrepareStmt, err)
}

// slowExecute runs a prepared statement through go-mysql-server.
func (h *mariaHandler) slowExecute(ctx context.Context, c *mysql.Conn, prepare *mysql.PrepareData, callback func(*sqltypes.Result) error) error {
	if tap := h.tap.Load(); tap != nil {
		next := callback
		callback = func(r *sqltypes.Result) error {
			(*tap)(false, r)
			return next(r)
		}
	}
	next, warnings, fields, ids := callback, h.warnings(c), false, insertIDsFrom(c, prepare.PrepareStmt)
	results := resultTypes{c: c}
	var resFields []*querypb.Field // (sent with the first result only)
	callback = func(r *sqltypes.Result) error {
		ids.fix(r)
		fixOK(r, !fields, warnings)
		if r != nil {
			h.aliasTables(c, r.Fields, prepare.PrepareStmt)
			temporalDecimals(r.Fields, h.scaledReal, &results)
			if r.Fields != nil {
				resFields = r.Fields
			}
			binaryZeroDates(r, resFields)
		}
		fields = fields || (r != nil && len(r.Fields) > 0)
		setStatusFlags(c)
		return next(r)
	}
	ctx, stop := watchStatement(ctx, c)
	defer stop()
	if done, err := h.templated(ctx, c, prepare, func(r *sqltypes.Result, _ bool) error { return callback(r) }); done {
		return h.overrun(c, err)
	}
	return h.overrun(c, h.Handler.ComStmtExecute(ctx, c, prepare, callback))
}

// NewConnection counts the connection. Its handshake says autocommit as
// MariaDB's does (SERVER_STATUS_AUTOCOMMIT while @@global.autocommit is
// 1).
func (h *mariaHandler) NewConnection(c *mysql.Conn) {
	h.stats.Connections.Add(1)
	h.Handler.NewConnection(c)
	if n, ok := sqlbackend.GlobalInt("autocommit"); !ok || n != 0 {
		c.StatusFlags |= uint16(mysql.ServerStatusAutocommit)
	}
}

// setStatusFlags gives c's next OK or EOF packet the transaction bits
// of its session's state (sqlbackend.Session.StatusFlags) in place of
// go-mysql-server's, which said IN_TRANS for any statement's implicit
// transaction. On c's goroutine.
func setStatusFlags(c *mysql.Conn) {
	if s, ok := c.ClientData.(*sqlbackend.Session); ok {
		c.StatusFlags = c.StatusFlags&^(sqlbackend.StatusTxnBits|sqlbackend.StatusDBDropped) | s.StatusFlags()
	}
}

// withStatus sets c's status flags before each result of query goes to
// next: the transaction's bits, and DB_DROPPED after a DROP DATABASE, as
// MariaDB sends it.
//
// It also gives an INSERT's OK packet MariaDB's insert id where
// go-mysql-server's differs: the first id the statement generated
// (go-mysql-server's was the first row's id, 10 for VALUES (10, ...),
// (DEFAULT, ...) where MariaDB answers the generated 11).
func (h *mariaHandler) withStatus(c *mysql.Conn, query string, next mysql.ResultSpoolFn) mysql.ResultSpoolFn {
	ids, dropped := insertIDsFrom(c, query), isDropDatabase(query)
	return func(r *sqltypes.Result, more bool) error {
		ids.fix(r)
		if r != nil {
			h.aliasTables(c, r.Fields, query)
		}
		setStatusFlags(c)
		if dropped {
			c.StatusFlags |= sqlbackend.StatusDBDropped
		}
		return next(r, more)
	}
}

// insertIDs is the session's LAST_INSERT_ID when a statement of c began,
// and whether the statement is an INSERT.
type insertIDs struct {
	c      *mysql.Conn
	before int64
	insert bool
}

// insertIDsFrom starts the insert id bookkeeping of c's statement query.
func insertIDsFrom(c *mysql.Conn, query string) insertIDs {
	ids := insertIDs{c: c, insert: firstWord(query) == "insert"}
	if s, ok := c.ClientData.(*sqlbackend.Session); ok {
		ids.before = s.GetLastQueryInfoInt(sql.LastInsertId)
		s.BeginStatementIDs()
	}
	return ids
}

// fix sets r's insert id to MariaDB's:
//   - the first id the statement generated, when go-mysql-server moved
//     LAST_INSERT_ID (its own insert id was the first row's: 10 for VALUES
//     (10, ...), (DEFAULT, ...) where MariaDB answers the generated 11);
//   - the first id generated where go-mysql-server did not record it
//     (REPLACE), which then also becomes LAST_INSERT_ID;
//   - for an INSERT ... ON DUPLICATE KEY UPDATE that only updated, the
//     AUTO_INCREMENT value of the last row it changed, and 0 when it
//     changed nothing (go-mysql-server answered the previous
//     statement's LAST_INSERT_ID).
func (ids insertIDs) fix(r *sqltypes.Result) {
	if r == nil || len(r.Fields) != 0 {
		return
	}
	s, ok := ids.c.ClientData.(*sqlbackend.Session)
	if !ok {
		return
	}
	st := s.StatementIDs()
	now := s.GetLastQueryInfoInt(sql.LastInsertId)
	switch {
	case r.InsertID != 0 && now != ids.before && now > 0:
		r.InsertID = uint64(now)
	case st.FirstID != 0:
		r.InsertID = st.FirstID
		s.SetLastQueryInfoInt(sql.LastInsertId, int64(st.FirstID))
	case ids.insert && st.Inserted == 0 && st.Updated > 0:
		r.InsertID = st.UpdatedID
	case ids.insert && st.Inserted == 0 && r.InsertID == uint64(ids.before):
		r.InsertID = 0
	}
}

// isDropDatabase reports whether query is DROP DATABASE or DROP SCHEMA.
func isDropDatabase(query string) bool {
	if firstWord(query) != "drop" {
		return false
	}
	rest := trimBlanks(trimBlanks(query, true)[4:], false)
	return len(rest) > 6 && (strings.EqualFold(rest[:6], "schema") || len(rest) > 8 && strings.EqualFold(rest[:8], "database"))
}

// ConnectionAborted counts a refused login: the listener's reason is
// "Error authenticating user ..." for a wrong password and "No
// authentication methods available ..." for an unknown user. Handshakes
// that break off before the client names a user do not count.
func (h *mariaHandler) ConnectionAborted(c *mysql.Conn, reason string) error {
	if strings.HasPrefix(reason, "Error authenticating user") || strings.HasPrefix(reason, "No authentication methods available") {
		h.stats.AuthFail.Add(1)
	}
	return h.Handler.ConnectionAborted(c, reason)
}

// ConnectionClosed counts the connection gone.
func (h *mariaHandler) ConnectionClosed(c *mysql.Conn) {
	if lc := limitConnOf(c); lc != nil && lc.started.Load() {
		logGeneral(c, "Quit", "")
	}
	if h.guard != nil {
		h.guard.takeRefused(c.ConnectionID)
	}
	h.plans.forget(c.ConnectionID)
	h.readLocks.release(c.ConnectionID)
	h.stats.Connections.Add(-1)
	h.Handler.ConnectionClosed(c)
}

// ComMultiQuery runs the first query of a multi-statement string,
// reformatting its results. The general log has the whole text once, at
// its first statement; the slow log each statement that is slow.
func (h *mariaHandler) ComMultiQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (string, error) {
	authenticated(c)
	h.connectionStart(ctx, c)
	lc := limitConnOf(c)
	command := "Query"
	if lc != nil && lc.multiRest != "" && lc.multiRest == query {
		command = "" // the rest of a text the log has
	}
	sl := logStatement(c, command, query, nil)
	if sl != nil {
		next := callback
		callback = func(r *sqltypes.Result, more bool) error { sl.count(r); return next(r, more) }
	}
	rest, err := h.comMultiQuery(ctx, c, query, callback)
	if lc != nil {
		lc.multiRest = rest
	}
	if sl != nil {
		sl.text = strings.TrimSpace(query[:max(len(query)-len(rest), 0)])
		sl.done(c)
	}
	return rest, err
}

// comMultiQuery is ComMultiQuery without the logs.
func (h *mariaHandler) comMultiQuery(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (string, error) {
	ctx, stop := watchStatement(ctx, c)
	defer stop()
	ctx = h.readLocks.holding(ctx, c.ConnectionID)
	if done, rest, err := h.readLockStatement(ctx, c, query, true, callback); done { // readlock.go
		if err != nil {
			rest = ""
		}
		return rest, h.wireError(c, query, err)
	}
	if done, err := h.explain(ctx, c, query, h.withStatus(c, query, callback)); done {
		return "", h.wireError(c, query, h.overrun(c, err))
	}
	if done, err := h.accountCommand(ctx, c, query, true, callback); done {
		return "", h.wireError(c, query, err)
	}
	if done, err := h.binlogStatement(ctx, c, query, callback); done { // binlogadmin.go (one statement only)
		return "", h.wireError(c, query, err)
	}
	cb := h.withStatus(c, query, reformatting(callback, h.scaledReal, h.warnings(c), &resultTypes{c: c}))
	if sel, rest, ok := doStatement(query); ok {
		if strings.Trim(rest, "; \t\r\n") == "" {
			rest = ""
		}
		return rest, h.wireError(c, query, h.do(ctx, c, sel, rest != "", cb))
	}
	if done, err := h.loadData(ctx, c, query, cb); done {
		// (loadData takes only a text of one statement.)
		h.plans.gen.Add(1)
		return "", h.wireError(c, query, h.overrun(c, err))
	}
	if done, err := h.textTemplated(ctx, c, query, cb); done {
		// (textTemplate takes only a text of one statement.)
		h.plans.ran(query)
		return "", h.wireError(c, query, h.overrun(c, err))
	}
	if singleStatement(query) {
		// clients that allow several statements a packet (the mariadb
		// CLI, mysqlclient) send most of their SELECTs one a packet:
		// those are the plan cache's too
		if done, err := h.cachedQuery(ctx, c, query, cb); done {
			return "", h.wireError(c, query, h.overrun(c, err))
		}
	}
	rest, err := h.Handler.ComMultiQuery(ctx, c, query, cb)
	if err != nil && noDatabaseSelected(err) && singleStatement(query) {
		err = h.withoutDatabase(ctx, c, query, cb, err)
	}
	h.plans.gen.Add(1) // the text may hold any statements
	return rest, h.wireError(c, query, h.overrun(c, err))
}

// singleStatement reports whether query holds one statement: no ';'
// outside quotes and comments is followed by anything but blanks and
// semicolons. (A text it cannot read to the end, an unclosed quote, is
// not one.)
func singleStatement(query string) bool {
	for i := 0; i < len(query); i++ {
		switch ch := query[i]; ch {
		case '\'', '"', '`':
			j := i + 1
			for ; j < len(query); j++ {
				if query[j] == '\\' && ch != '`' {
					j++
					continue
				}
				if query[j] == ch {
					if j+1 < len(query) && query[j+1] == ch {
						j++
						continue
					}
					break
				}
			}
			if j >= len(query) {
				return false
			}
			i = j
		case '#':
			return false // a comment to the end of a line: rare, not read
		case '-':
			if i+1 < len(query) && query[i+1] == '-' {
				return false
			}
		case '/':
			if i+1 < len(query) && query[i+1] == '*' {
				end := strings.Index(query[i+2:], "*/")
				if end < 0 {
					return false
				}
				i += 2 + end + 1
			}
		case ';':
			return strings.Trim(query[i:], "; \t\r\n") == ""
		}
	}
	return true
}

// do runs a DO statement: sel, the SELECT of its expressions, with its
// rows dropped, then OK (saying more results follow when more).
func (h *mariaHandler) do(ctx context.Context, c *mysql.Conn, sel string, more bool, cb mysql.ResultSpoolFn) error {
	err := h.Handler.ComQuery(ctx, c, sel, func(*sqltypes.Result, bool) error { return nil })
	if err == nil {
		err = cb(&sqltypes.Result{}, more)
	}
	return err
}

// warnings returns a function that counts the warnings of c's statement
// (called on c's goroutine, once the statement has run).
func (h *mariaHandler) warnings(c *mysql.Conn) func() uint16 {
	return func() uint16 { return h.Handler.WarningCount(c) }
}

// updateInfo is the info go-mysql-server sends after an UPDATE: its
// warning count is always 0.
var updateInfo = regexp.MustCompile(`^(Rows matched: \d+  Changed: \d+  Warnings: )0$`)

// scaledReal returns the type of the FLOAT(M,D) or DOUBLE(M,D) column,
// or of the DATETIME(n), TIMESTAMP(n) or TIME(n) column (n > 0), a result
// field reads as it is (its original table and column), or nil.
func (h *mariaHandler) scaledReal(f *querypb.Field) *types.Type {
	s := h.srv.Load()
	if s == nil || f.OrgTable == "" || f.OrgName == "" || f.Database == "" {
		return nil
	}
	t := s.p.ResolveTable(f.Database, f.OrgTable)
	if t == nil {
		return nil
	}
	i := t.Column(f.OrgName)
	if i < 0 {
		return nil
	}
	if ct := &t.Columns[i].Type; (ct.Kind == types.Float || ct.Kind == types.Double) && ct.Length > 0 {
		return ct
	}
	if ct := &t.Columns[i].Type; (ct.Kind == types.DateTime || ct.Kind == types.Timestamp || ct.Kind == types.Time) && ct.Scale > 0 {
		return ct
	}
	return nil
}

// Lengths of temporal fields without decimals, as MariaDB sends them:
// the longest text of each type ("-838:59:59" for a TIME). Decimals add
// themselves and a point (temporalLength).
const (
	dateLength     = 10
	timeLength     = 10
	datetimeLength = 19
)

// temporalLength returns MariaDB's length of a TIME, DATETIME or
// TIMESTAMP field with f's decimals.
func temporalLength(f *querypb.Field) uint32 {
	n := uint32(datetimeLength)
	if f.Type == querypb.Type_TIME {
		n = timeLength
	}
	if d := f.Decimals; d > 0 && d <= 6 {
		n += 1 + d
	}
	return n
}

// resultTypes reads the types of a statement's result from its plan
// (sqlbackend.Session.ResultSchema), once, for the fields whose types
// the wire lost. A nil *resultTypes knows none. Used on the connection's
// goroutine.
type resultTypes struct {
	c      *mysql.Conn
	of     *querypb.Field // the first of the fields schema was read for
	schema sql.Schema     // nil when it does not describe them
}

// scale returns the digits of fields[i]'s type when the statement's
// result is the fields' and that column is typed TIME(n) or is a
// DATETIME or TIMESTAMP type, else 0.
func (r *resultTypes) scale(fields []*querypb.Field, i int) uint32 {
	if r == nil || r.c == nil {
		return 0
	}
	if r.of != fields[0] {
		// (read again for each result: a multi-statement text has one
		// per statement)
		r.of, r.schema = fields[0], nil
		if sess, ok := r.c.ClientData.(*sqlbackend.Session); ok {
			r.schema = sess.ResultSchema()
		}
		if !describes(r.schema, fields) {
			r.schema = nil
		}
	}
	if r.schema == nil {
		return 0
	}
	switch t := r.schema[i].Type.(type) {
	case sqlbackend.TimeType:
		return uint32(t.Scale)
	case sql.DatetimeType:
		if p := t.Precision(); p > 0 && p <= 6 {
			return uint32(p)
		}
	}
	return 0
}

// describes reports whether schema has fields' columns: their number,
// names and wire types. (ResultSchema may be an earlier statement's.)
func describes(schema sql.Schema, fields []*querypb.Field) bool {
	if len(schema) != len(fields) {
		return false
	}
	for i, col := range schema {
		if col.Type.Type() != fields[i].Type || !strings.EqualFold(col.Name, fields[i].Name) {
			return false
		}
	}
	return true
}

// reformatting returns a callback that rewrites values before passing
// each result on. go-mysql-server sends the fields with the first result
// of a query only, so they are remembered. scaled gives the type of a
// FLOAT or DOUBLE field that reads a FLOAT(M,D)/DOUBLE(M,D) column, whose
// values MariaDB prints with D decimals, or of a temporal field that
// reads a column with fractional digits, whose decimals it sets (nil for
// any other); warnings
// counts the statement's warnings, which an UPDATE's info reports.
func reformatting(next mysql.ResultSpoolFn, scaled func(f *querypb.Field) *types.Type, warnings func() uint16, results *resultTypes) mysql.ResultSpoolFn {
	var fields []*querypb.Field
	var fix []int
	var reals map[int]*types.Type
	return func(res *sqltypes.Result, more bool) error {
		fixOK(res, len(fields) == 0, warnings)
		if res != nil && res.Fields != nil {
			temporalDecimals(res.Fields, scaled, results)
			fields, fix, reals = res.Fields, fix[:0], nil
			for i, f := range fields {
				switch f.Type {
				case querypb.Type_FLOAT32, querypb.Type_FLOAT64:
					fix = append(fix, i)
					if t := scaled(f); t != nil {
						if reals == nil {
							reals = map[int]*types.Type{}
						}
						reals[i] = t
					}
				case querypb.Type_DATETIME, querypb.Type_TIMESTAMP:
					if f.Decimals > 0 && f.Decimals <= 6 {
						fix = append(fix, i)
					}
				case querypb.Type_YEAR:
					fix = append(fix, i)
				}
			}
		}
		if res != nil && len(fix) > 0 {
			for _, row := range res.Rows {
				for _, i := range fix {
					if i < len(row) && !row[i].IsNull() {
						row[i] = reformatValue(fields[i], row[i], reals[i])
					}
				}
			}
		}
		return next(res, more)
	}
}

// temporalDecimals gives result fields MariaDB's metadata where
// go-mysql-server's differs (clients read it: go-sql-driver's column types,
// scan types and decimal sizes, and its binary protocol prints a TIME or
// DATETIME with the field's decimals):
//   - each DATETIME, TIMESTAMP or TIME field that reads a column with
//     fractional digits those digits as its decimals: go-mysql-server sets
//     them only for its own DATETIME type, which the backend's result
//     columns are not (sqlbackend's OddType); a field of an expression
//     the digits of its type (from the statement's result types): of a
//     TIME(n) (a CAST), which go-mysql-server never sets, and of an
//     OddType DATETIME(n);
//   - DATE, TIME, DATETIME and TIMESTAMP fields MariaDB's length: the
//     longest text of the type with its decimals (go-mysql-server's is
//     that with six);
//   - FLOAT and DOUBLE fields 31 decimals (NOT_FIXED_DEC: any number of
//     digits), or D for a FLOAT(M,D)/DOUBLE(M,D) column, where they had 0;
//   - BIT and YEAR fields the binary character set, and YEAR the UNSIGNED
//     and ZEROFILL flags.
//
// scaled is as for reformatting; results may be nil. A field is written
// only when it changes: the fast path's fields are shared by connections.
func temporalDecimals(fields []*querypb.Field, scaled func(f *querypb.Field) *types.Type, results *resultTypes) {
	for i, f := range fields {
		switch f.Type {
		case querypb.Type_DATETIME, querypb.Type_TIMESTAMP, querypb.Type_TIME:
			if f.Decimals == 0 {
				if t := scaled(f); t != nil && t.Scale != 0 && (t.Kind == types.DateTime || t.Kind == types.Timestamp || t.Kind == types.Time) {
					f.Decimals = uint32(t.Scale)
				} else if f.OrgTable == "" {
					if d := results.scale(fields, i); d != 0 {
						f.Decimals = d
					}
				}
			}
			if n := temporalLength(f); f.ColumnLength != n {
				f.ColumnLength = n
			}
		case querypb.Type_DATE:
			if f.ColumnLength != dateLength {
				f.ColumnLength = dateLength
			}
		case querypb.Type_FLOAT32, querypb.Type_FLOAT64:
			if f.Decimals != 0 {
				continue
			}
			d := uint32(notFixedDecimals)
			if t := scaled(f); t != nil && (t.Kind == types.Float || t.Kind == types.Double) {
				d = uint32(t.Scale)
			}
			if d != 0 {
				f.Decimals = d
			}
		case querypb.Type_BIT:
			if f.Charset != binaryCharset {
				f.Charset = binaryCharset
			}
		case querypb.Type_YEAR:
			flags := f.Flags | uint32(querypb.MySqlFlag_UNSIGNED_FLAG) | uint32(querypb.MySqlFlag_ZEROFILL_FLAG)
			if f.Charset != binaryCharset || f.Flags != flags {
				f.Charset, f.Flags = binaryCharset, flags
			}
		}
	}
}

// aliasTables gives fields that read a table through an alias MariaDB's
// table names: the alias as query spells it (aliasCase), and for FLOAT,
// DOUBLE and temporal fields the table itself as the original table,
// where go-mysql-server gave the alias, lower-cased, as both. The
// original table is what scaledReal reads a FLOAT(M,D)'s digits and a
// DATETIME(n)'s decimals from: through an alias they were lost (1.5 for
// 1.50). Other fields keep the alias as their original table.
func (h *mariaHandler) aliasTables(c *mysql.Conn, fields []*querypb.Field, query string) {
	if len(fields) == 0 {
		return
	}
	s := h.srv.Load()
	var lastAlias, lastTable, current string
	for _, f := range fields {
		switch f.Type {
		case querypb.Type_FLOAT32, querypb.Type_FLOAT64, querypb.Type_DATETIME, querypb.Type_TIMESTAMP, querypb.Type_TIME:
		default:
			continue // (the lookups cost 5-10% of sysbench's read_only for fields that need none)
		}
		db := f.Database
		if db == "" && s != nil && f.OrgTable != "" {
			// (an alias's fields name no database: the current one)
			if current == "" {
				if sess, ok := c.ClientData.(*sqlbackend.Session); ok {
					current = sess.GetCurrentDatabase()
				}
			}
			db = current
		}
		if s != nil && f.OrgTable != "" && db != "" && f.OrgTable == strings.ToLower(f.OrgTable) &&
			s.p.ResolveTable(db, f.OrgTable) == nil {
			if f.OrgTable != lastAlias {
				lastAlias, lastTable = f.OrgTable, ""
				tableOfAlias(query, f.OrgTable, func(name string) bool {
					if t := s.p.ResolveTable(db, name); t != nil {
						lastTable = t.Name
						return true
					}
					return false
				})
			}
			if lastTable != "" {
				f.OrgTable = lastTable
			}
		}
	}
	aliasCase(fields, query)
}

// tableOfAlias calls table with the name written before each use of
// alias as a word that is not followed by a '.' (`t AS a`, `t a`,
// `db.t a`, quoted or not) until table accepts one.
func tableOfAlias(query, alias string, table func(name string) bool) {
	eachWord(query, alias, func(i int) bool {
		if end := i + len(alias); end < len(query) && query[end] == '.' {
			return true // alias.column
		}
		j := strings.TrimRight(query[:i], " \t\r\n`")
		if k := len(j) - 2; k >= 0 && strings.EqualFold(j[k:], "AS") && (k == 0 || !isIdentByte(j[k-1])) {
			j = strings.TrimRight(j[:k], " \t\r\n")
		}
		end := len(j)
		j = strings.TrimSuffix(j, "`")
		start := len(j)
		for start > 0 && (isIdentByte(j[start-1]) || j[start-1] == '`') {
			start--
		}
		name := strings.Trim(j[start:], "`")
		return name == "" || end == 0 || !table(name)
	})
}

// eachWord calls f with the offset of each occurrence of word in query,
// in any letter case, that is a whole word (no name byte either side),
// until f returns false.
func eachWord(query, word string, f func(i int) bool) {
	for i := 0; i+len(word) <= len(query); i++ {
		if !strings.EqualFold(query[i:i+len(word)], word) ||
			i > 0 && isIdentByte(query[i-1]) || i+len(word) < len(query) && isIdentByte(query[i+len(word)]) {
			continue
		}
		if !f(i) {
			return
		}
	}
}

// aliasCase gives each field's table the letter case query spells it
// in: go-mysql-server lower-cases table aliases and derived tables'
// names, so `SELECT * FROM (SELECT 1 AS one) AS A` described its column
// as a.one where MariaDB says A.one (go-sql-driver's columnsWithAlias
// shows it). A table name query holds as it is stays; else the first
// word of query equal to it but for case is taken. A field is written
// only when it changes (the fast path's fields are shared).
func aliasCase(fields []*querypb.Field, query string) {
	var last, spelled string
	for _, f := range fields {
		t := f.Table
		if t == "" || t != strings.ToLower(t) {
			continue
		}
		if t != last {
			last, spelled = t, spelledAs(query, t)
		}
		if spelled != "" && spelled != t {
			f.Table = spelled
		}
	}
}

// spelledAs returns the word of query that equals name ignoring case
// when query does not hold name itself as a word, or "".
func spelledAs(query, name string) string {
	found := ""
	eachWord(query, name, func(i int) bool {
		w := query[i : i+len(name)]
		if w == name {
			found = ""
			return false
		}
		if found == "" {
			found = w
		}
		return true
	})
	return found
}

// notFixedDecimals is a field's decimals for a number of any scale
// (MariaDB's NOT_FIXED_DEC); binaryCharset the binary character set's
// number.
const (
	notFixedDecimals = 31
	binaryCharset    = 63
)

// fixOK corrects what go-mysql-server puts in a result that becomes an
// OK packet (noFields: no earlier result of the statement had fields): a
// statement without result set or OkResult (SET, ...) has its one empty
// row counted as affected, where MariaDB reports 0 rows; an UPDATE's info
// line always says "Warnings: 0"; an info shorter than vitessInfoLen
// breaks the packet.
func fixOK(res *sqltypes.Result, noFields bool, warnings func() uint16) {
	if res == nil {
		return
	}
	if noFields && len(res.Fields) == 0 && res.RowsAffected > 0 && emptyRows(res.Rows) {
		res.Rows, res.RowsAffected = nil, 0
	}
	if res.Info != "" && warnings != nil {
		if m := updateInfo.FindStringSubmatch(res.Info); m != nil {
			res.Info = m[1] + strconv.Itoa(int(warnings()))
		}
	}
	if len(res.Info) < vitessInfoLen {
		res.Info = ""
	}
}

// vitessInfoLen: vitess writes an OK packet's info behind the byte '#'
// (35), where clients read a length-encoded string, as MySQL and MariaDB
// send it. An info of 35 bytes or more reads as its first 35 (libmariadb
// then prints it whole, up to the packet's end); a shorter one, as
// PREPARE's "Statement prepared", runs past the packet and the client
// fails with 2027 (malformed packet). fixOK drops those: an OK without
// info.
const vitessInfoLen = '#'

// emptyRows reports whether rows has rows, all without columns.
func emptyRows(rows [][]sqltypes.Value) bool {
	for _, r := range rows {
		if len(r) != 0 {
			return false
		}
	}
	return len(rows) > 0
}

// reformatValue prints one value as MariaDB does (a FLOAT or DOUBLE
// with its column's type when real is set, a DATETIME with its field's
// decimals, a YEAR with four digits).
func reformatValue(f *querypb.Field, v sqltypes.Value, real *types.Type) sqltypes.Value {
	raw := v.Raw()
	switch f.Type {
	case querypb.Type_FLOAT32, querypb.Type_FLOAT64:
		x, err := strconv.ParseFloat(string(raw), 64)
		if err != nil {
			return v
		}
		t := types.Type{Kind: types.Double}
		if f.Type == querypb.Type_FLOAT32 {
			t.Kind = types.Float
		}
		if real != nil {
			t = *real
		}
		return sqltypes.MakeTrusted(f.Type, types.AppendFormat(nil, &t, types.Value{F: x}))
	case querypb.Type_DATETIME, querypb.Type_TIMESTAMP:
		n := int(f.Decimals)
		dot := bytes.IndexByte(raw, '.')
		have := 0
		if dot >= 0 {
			have = len(raw) - dot - 1
		}
		if have == n {
			return v
		}
		out := append([]byte(nil), raw...)
		if dot < 0 {
			out = append(out, '.')
		}
		for ; have < n; have++ {
			out = append(out, '0')
		}
		if have > n {
			out = out[:len(out)-(have-n)]
		}
		return sqltypes.MakeTrusted(f.Type, out)
	case querypb.Type_YEAR:
		// YEAR is sent with four digits: 0 as 0000 (every other year has
		// four)
		if len(raw) == 1 && raw[0] == '0' {
			return sqltypes.MakeTrusted(f.Type, []byte("0000"))
		}
	}
	return v
}

// doStatement returns the SELECT that evaluates the expressions of the
// first statement of query when it is DO expr[, expr...] (evaluated,
// nothing returned), which go-mysql-server's parser does not know, and
// the text after that statement; ok is false for anything else.
func doStatement(query string) (sel, rest string, ok bool) {
	q := trimBlanks(query, false)
	if len(q) < 4 || !strings.EqualFold(q[:2], "DO") || !isBlank(q[2]) {
		return "", "", false
	}
	first, rest, err := sqlparser.SplitStatement(q)
	if err != nil {
		return "", "", false
	}
	return "SELECT " + strings.TrimSpace(first[3:]), rest, true
}

// isBlank reports whether c is a blank between words.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isFlushHosts reports whether query is FLUSH HOSTS, which go-mysql-server
// does not know.
func isFlushHosts(query string) bool {
	f := strings.Fields(strings.TrimRight(strings.TrimSpace(query), ";"))
	return len(f) == 2 && strings.EqualFold(f[0], "FLUSH") && strings.EqualFold(f[1], "HOSTS")
}

// flushHosts unblocks the hosts max_connect_errors blocked; it needs the
// RELOAD privilege, as in MariaDB.
func (h *mariaHandler) flushHosts(c *mysql.Conn) error {
	if !h.hasPrivilege(c, sql.PrivilegeType_Reload) {
		return sqlError(mysql.ERSpecifiedAccessDenied, "RELOAD")
	}
	if h.hosts != nil {
		h.hosts.flush()
	}
	return nil
}

// binaryZeroDates makes each zero DATE, DATETIME or TIMESTAMP value of r,
// a binary result whose fields are fields, one with no bytes, as MariaDB
// sends it: vitess writes it as year 0, month 0, day 0, which clients read
// as a date (go-sql-driver builds -0001-11-30 from it). A row with such a
// value is copied, not changed: a result may be shared.
func binaryZeroDates(r *sqltypes.Result, fields []*querypb.Field) {
	if r == nil {
		return
	}
	for i, f := range fields {
		switch f.Type {
		case querypb.Type_DATE, querypb.Type_DATETIME, querypb.Type_TIMESTAMP:
		default:
			continue
		}
		for n, row := range r.Rows {
			if i >= len(row) || row[i].IsNull() || !zeroTemporal(row[i].Raw()) {
				continue
			}
			row = append([]sqltypes.Value(nil), row...)
			row[i] = sqltypes.MakeTrusted(row[i].Type(), []byte{})
			r.Rows[n] = row
		}
	}
}

// zeroTemporal reports whether b is a zero date or date and time as text
// ("0000-00-00", "0000-00-00 00:00:00.000000").
func zeroTemporal(b []byte) bool {
	if len(b) < 10 {
		return false
	}
	for _, c := range b {
		switch c {
		case '0', '-', ':', ' ', '.':
		default:
			return false
		}
	}
	return true
}

// connectionStart completes, at the connection's first command, what
// go-mysql-server leaves out of a new session:
//   - the collation the handshake named, as MariaDB takes it:
//     character_set_client, character_set_connection and
//     character_set_results become its character set and
//     collation_connection the collation (go-mysql-server kept its
//     defaults). A collation this server does not know, or one of
//     utf8mb3, changes nothing: utf8mb3 (the mariadb client's) stays
//     utf8mb4, since go-mysql-server refuses a 4-byte character in
//     utf8mb3 where MariaDB passes its bytes;
//   - a TLS connection's Ssl_cipher status (SHOW STATUS LIKE 'Ssl_cipher');
//   - the session's line in SHOW PROCESSLIST (processList.ready).
func (h *mariaHandler) connectionStart(ctx context.Context, c *mysql.Conn) {
	lc := limitConnOf(c)
	if lc == nil || !lc.started.CompareAndSwap(false, true) {
		return
	}
	s, sctx, sess := h.fastSession(ctx, c, "")
	if sess == nil {
		return
	}
	if pl, ok := s.engine.ProcessList.(*processList); ok {
		pl.ready(sess)
	}
	_, isTLS := c.Conn.(*tls.Conn)
	logConnect(c, sess.GetCurrentDatabase(), isTLS)
	if tc, ok := c.Conn.(*tls.Conn); ok {
		_ = sess.SetStatusVariable(sctx, "Ssl_cipher", tls.CipherSuiteName(tc.ConnectionState().CipherSuite))
	}
	id := sql.CollationID(c.CharacterSet)
	if c.CharacterSet == 0 || id.Name() == "" || id.CharacterSet() == sql.CharacterSet_utf8mb3 {
		return
	}
	cs := id.CharacterSet().Name()
	for _, v := range [...][2]string{{"character_set_client", cs}, {"character_set_connection", cs},
		{"character_set_results", cs}, {"collation_connection", id.Name()}} {
		if err := sess.SetSessionVariable(sctx, v[0], v[1]); err != nil {
			return
		}
	}
}
