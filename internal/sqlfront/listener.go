package sqlfront

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/binlog"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/mysqlproto"
)

// The SQL port speaks the MySQL protocol through HandlerDB's own wire
// layer (internal/mysqlproto), not vitess's listener: go-mysql-server's
// server takes any protocol listener (server.Config's
// ProtocolListenerFactory), and wireListener is ours. It runs each
// connection's handshake and login and then its commands, calling the
// handler (mariaHandler over go-mysql-server's Handler) as vitess's
// listener did. A *mysql.Conn still carries the connection's state
// between the handler's calls (connection id, capabilities, status flags,
// the login, prepared statements' bindings), with its socket set and its
// own packet I/O unused; every packet is read and written by a
// mysqlproto.Conn.
//
// What owning the wire allows that vitess's did not: an error after rows
// have been sent (MariaDB sends it as the command's last packet; vitess
// cut the connection), parameters beyond 16 bits' worth of NULL bitmap,
// several result sets for one command, and the commands vitess does not
// dispatch.

// wireListener accepts the SQL port's connections and serves each on its
// own goroutine. Safe for concurrent use; Accept runs once.
type wireListener struct {
	ln         net.Listener
	h          mysql.Handler
	mdb        *mysql_db.MySQLDb
	methods    []mysql.AuthMethod // mysql_native_password's, with the login checks of auth.go
	version    string
	tls        *tls.Config
	requireTLS bool

	conns *wireConns
	// afterCommand runs after every command (the roles' list is saved
	// there, persister.saveRoles); set before Accept.
	afterCommand func()
	nextID       atomic.Uint32
	shutdown     atomic.Bool
}

// wireConns finds a connection by its id, for the statement contexts
// made for it (contextFactory). Safe for concurrent use.
type wireConns struct {
	m      sync.Map // uint32 -> *wireConn
	sm     atomic.Pointer[server.SessionManager]
	binlog *binlog.Log // the binary log replicas read, or nil
}

// contextFactory makes go-mysql-server's statement contexts: as
// sql.NewContext, with the services of the connection the session is
// (LOAD DATA LOCAL reads the client's file through the wire layer).
func (ws *wireConns) contextFactory(ctx context.Context, opts ...sql.ContextOption) *sql.Context {
	sctx := sql.NewContext(ctx, opts...)
	if sctx.Session == nil {
		return sctx
	}
	if v, ok := ws.m.Load(sctx.Session.ID()); ok {
		var kill func(uint32) error
		if sm := ws.sm.Load(); sm != nil {
			kill = sm.KillConnection
		}
		sql.WithServices(sql.Services{KillConnection: kill, LoadInfile: v.(*wireConn).loadInfile})(sctx)
	}
	return sctx
}

// wireListenerFactory returns the server's protocol listener factory: a
// wireListener over the accepted connections of hosts some account
// admits, logging in with mdb's accounts.
func wireListenerFactory(mdb *mysql_db.MySQLDb, conns *wireConns) server.ProtocolListenerFunc {
	return func(cfg server.Config, lc mysql.ListenerConfig, _ server.ServerEventListener) (server.ProtocolListener, error) {
		var stats *Stats
		if mh, ok := lc.Handler.(*mariaHandler); ok {
			stats = &mh.stats
		}
		l := &wireListener{
			ln:         &hostGate{Listener: lc.Listener, mdb: mdb, stats: stats},
			h:          lc.Handler,
			mdb:        mdb,
			version:    cfg.Version,
			tls:        cfg.TLSConfig,
			requireTLS: cfg.RequireSecureTransport,
			conns:      conns,
		}
		for _, m := range lc.AuthServer.AuthMethods() {
			if m.Name() == mysql.MysqlNativePassword {
				l.methods = append(l.methods, &loginMethod{AuthMethod: m, mdb: mdb})
			}
		}
		if len(l.methods) == 0 {
			return nil, errors.New("sqlfront: no mysql_native_password authentication")
		}
		return l, nil
	}
}

// Addr is the listening address.
func (l *wireListener) Addr() net.Addr { return l.ln.Addr() }

// Accept serves connections until Close. An accept that fails for
// another reason (out of file descriptors) is tried again after a pause
// that doubles up to a second, not at once.
func (l *wireListener) Accept() {
	var pause time.Duration
	for {
		nc, err := l.ln.Accept()
		if err != nil {
			if l.shutdown.Load() || errors.Is(err, net.ErrClosed) {
				return
			}
			pause = min(max(2*pause, 5*time.Millisecond), time.Second)
			time.Sleep(pause)
			continue
		}
		pause = 0
		go l.serve(nc, l.nextID.Add(1))
	}
}

// Close stops accepting connections. Open connections end at their next
// command (a ping is answered with 1053 meanwhile).
func (l *wireListener) Close() {
	if !l.shutdown.Swap(true) {
		l.ln.Close()
	}
}

// wireConn is one connection: its packets and the state the handler
// keeps in c.
type wireConn struct {
	l  *wireListener
	pc *mysqlproto.Conn
	// turns is when the connection last let other connections run.
	turns turns
	c     *mysql.Conn
	// replica is what the connection's COM_REGISTER_SLAVE said (SHOW
	// SLAVE HOSTS lists it while the connection lives); nil before.
	replica atomic.Pointer[replicaHost]
	stmts   map[uint32]*mysqlproto.Stmt
	// loadInfile is LOAD DATA LOCAL's reader of the client's file (made
	// once, for the statement contexts).
	loadInfile func(name string) (io.ReadCloser, error)
	// sink, while a command of a client that takes several result sets
	// runs, sends the result sets of the procedures it calls
	// (procresults.go), in the binary protocol when sinkBinary.
	sink, sinkFn func(ctx *sql.Context, sch sql.Schema, iter sql.RowIter) error
	sinkBinary   bool
	// res is the answer of the statement running (reset for each), with
	// its handler callbacks made once: textAdd for COM_QUERY, binaryAdd
	// for COM_STMT_EXECUTE.
	res       results
	textAdd   func(*sqltypes.Result, bool) error
	binaryAdd func(*sqltypes.Result) error
	// cursor holds the rows of the statement a COM_STMT_EXECUTE opened a
	// cursor for (MariaDB materializes a cursor's rows too), until
	// fetched, closed or replaced.
	cursor *cursor
}

// cursor is an open cursor's remaining rows.
type cursor struct {
	stmt   uint32
	fields []*querypb.Field
	rows   [][]sqltypes.Value
}

// serve runs one connection to its end.
func (l *wireListener) serve(nc net.Conn, id uint32) {
	c := &mysql.Conn{Conn: nc, ConnectionID: id, ServerVersion: l.version, PrepareData: map[uint32]*mysql.PrepareData{}}
	w := &wireConn{l: l, pc: mysqlproto.NewConn(nc), c: c, stmts: map[uint32]*mysqlproto.Stmt{}}
	defer func() {
		if x := recover(); x != nil {
			logWire(slog.LevelError, "connection ended by a panic", "connection", id, "panic", x, "stack", string(debug.Stack()))
		}
		_ = w.pc.Flush()
		_ = w.pc.Close()
	}()
	w.loadInfile, w.sinkFn = w.readLocalFile, w.sinkResults
	w.textAdd = w.res.add
	w.binaryAdd = func(r *sqltypes.Result) error { return w.res.add(r, false) }
	l.conns.m.Store(id, w)
	defer l.conns.m.Delete(id)
	// Each packet at most max_allowed_packet (as the variable is when the
	// connection comes): a longer one is read past and answered with
	// 1153, and the connection closed, as MariaDB does.
	w.pc.SetMaxPacket(int(maxAllowedPacket()))
	l.h.NewConnection(c)
	defer l.h.ConnectionClosed(c)
	if !w.login() {
		return
	}
	for w.command() == nil {
		if l.afterCommand != nil {
			l.afterCommand()
		}
	}
}

// login runs the handshake; it reports whether the client is logged in.
func (w *wireConn) login() bool {
	c, l := w.c, w.l
	lg, err := w.pc.Handshake(&mysqlproto.Greeting{
		ServerVersion: l.version,
		ConnectionID:  c.ConnectionID,
		Charset:       mysql.CharacterSetUtf8,
		Status:        c.StatusFlags,
		AuthPlugin:    mysqlproto.NativePassword,
	}, l.tls, l.requireTLS)
	if errors.Is(err, mysqlproto.ErrTLSRequired) {
		// MariaDB with require_secure_transport refuses a plain login
		// as a wrong password.
		return w.refuse(errtable.SQLError(mysql.ERAccessDeniedError, lg.User, remoteHost(c.RemoteAddr()), yesNo(len(lg.AuthResponse) > 0)), "insecure transport")
	}
	if err != nil {
		_ = l.h.ConnectionAborted(c, err.Error())
		return false
	}
	c.Conn = w.pc.NetConn()
	c.Capabilities = w.pc.Capabilities
	c.CharacterSet = lg.Charset
	var m mysql.AuthMethod
	for _, am := range l.methods {
		if am.HandleUser(c, lg.User) {
			m = am
			break
		}
	}
	if m == nil {
		e := errtable.SQLError(mysql.ERAccessDeniedError, lg.User, remoteHost(c.RemoteAddr()), yesNo(len(lg.AuthResponse) > 0))
		return w.refuse(e, "No authentication methods available for authentication.")
	}
	salt := append(lg.Salt[:len(lg.Salt):len(lg.Salt)], 0)
	token := lg.AuthResponse
	if lg.AuthPlugin != mysqlproto.NativePassword {
		if token, err = w.pc.AuthSwitch(mysqlproto.NativePassword, lg.Salt); err != nil {
			_ = l.h.ConnectionAborted(c, err.Error())
			return false
		}
	}
	ud, err := m.HandleAuthPluginData(c, lg.User, salt, token, c.RemoteAddr())
	if err != nil {
		return w.refuse(err, "Error authenticating user "+lg.User+" using: "+mysqlproto.NativePassword)
	}
	c.User, c.UserData = lg.User, ud
	if lg.Database != "" {
		if err := l.h.ComInitDB(c, lg.Database); err != nil {
			return w.refuse(err, "")
		}
	}
	if err := w.pc.WriteOK(mysqlproto.OK{Status: c.StatusFlags}); err != nil {
		return false
	}
	authenticated(c) // the connect deadline is lifted
	return w.pc.Flush() == nil
}

// refuse ends a login with err. reason, when set, is the refusal as the
// handler counts it (ConnectionAborted) and as the log's warning says it
// (MariaDB logs refused logins at its default log_warnings=2).
func (w *wireConn) refuse(err error, reason string) bool {
	if reason != "" {
		_ = w.l.h.ConnectionAborted(w.c, reason)
		logWire(slog.LevelWarn, "login refused: "+err.Error(), "connection", w.c.ConnectionID)
	}
	_ = w.writeError(err)
	_ = w.pc.Flush()
	return false
}

// writeError buffers err as an ERR packet: a *mysql.SQLError as it is,
// anything else as 1105.
func (w *wireConn) writeError(err error) error {
	var se *mysql.SQLError
	if !errors.As(err, &se) {
		se = mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "unknown error: %v", err)
	}
	return w.pc.WriteError(uint16(se.Num), se.State, se.Message)
}

// errUnknownCommand answers a command HandlerDB does not serve.
var errUnknownCommand = mysql.NewSQLError(mysql.ERUnknownComError, mysql.SSNetError, "Unknown command")

// command reads and answers one command. An error ends the connection.
func (w *wireConn) command() error {
	cmd, p, err := w.pc.ReadCommand()
	start := time.Now()
	w.turns.began(start)
	defer w.turns.endTurn(start)
	if err != nil {
		if errors.Is(err, mysqlproto.ErrPacketTooLarge) {
			_ = w.writeError(errPacketTooLarge)
			_ = w.pc.Flush()
		}
		return err
	}
	ctx := context.Background()
	c, h := w.c, w.l.h
	switch cmd {
	case mysqlproto.ComQuit:
		return io.EOF
	case mysqlproto.ComInitDB:
		if herr := h.ComInitDB(c, string(p)); herr != nil {
			err = w.writeError(herr)
		} else {
			err = w.pc.WriteOK(mysqlproto.OK{Status: c.StatusFlags})
		}
		if err != nil {
			return err
		}
	case mysqlproto.ComQuery:
		if err := w.query(ctx, string(p)); err != nil {
			return err
		}
	case mysqlproto.ComFieldList:
		if err := w.fieldList(ctx, p); err != nil {
			return err
		}
	case mysqlproto.ComPing:
		if w.l.shutdown.Load() {
			err = w.writeError(sqlError(mysql.ERServerShutdown))
		} else {
			err = w.pc.WriteOK(mysqlproto.OK{Status: c.StatusFlags})
		}
		if err != nil {
			return err
		}
	case mysqlproto.ComSetOption:
		switch {
		case len(p) == 2 && p[0] == 0 && p[1] == 0:
			c.Capabilities |= mysql.CapabilityClientMultiStatements
			err = w.pc.EndRows(c.StatusFlags, 0)
		case len(p) == 2 && p[0] == 1 && p[1] == 0:
			c.Capabilities &^= mysql.CapabilityClientMultiStatements
			err = w.pc.EndRows(c.StatusFlags, 0)
		default:
			err = w.writeError(errUnknownCommand)
		}
		if err != nil {
			return err
		}
	case mysqlproto.ComStmtPrepare:
		if err := w.prepare(ctx, string(p)); err != nil {
			return err
		}
	case mysqlproto.ComStmtExecute:
		if err := w.execute(ctx, p); err != nil {
			return err
		}
	case mysqlproto.ComStmtSendLongData:
		// No answer, even to a statement or parameter that does not
		// exist (MariaDB reports those at the execution).
		if id, param, data, err := mysqlproto.ParseLongData(p); err == nil {
			if st := w.stmts[id]; st != nil && param < st.Params {
				st.AddLongData(param, data)
			}
		}
		return nil
	case mysqlproto.ComStmtClose:
		if id, ok := mysqlproto.StmtID(p); ok {
			delete(w.stmts, id)
			delete(c.PrepareData, id)
			if w.cursor != nil && w.cursor.stmt == id {
				w.cursor = nil
			}
		}
		return nil // no answer
	case mysqlproto.ComStmtReset:
		id, _ := mysqlproto.StmtID(p)
		st := w.stmts[id]
		if st == nil {
			err = w.writeError(unknownStmt(id, "mysqld_stmt_reset"))
		} else {
			st.Reset()
			if w.cursor != nil && w.cursor.stmt == id {
				w.cursor = nil
			}
			err = w.pc.WriteOK(mysqlproto.OK{Status: c.StatusFlags})
		}
		if err != nil {
			return err
		}
	case mysqlproto.ComStmtFetch:
		if err := w.fetch(p); err != nil {
			return err
		}
	case mysqlproto.ComRegisterSlave:
		// A replica registers, as with a MariaDB primary, when its
		// account may replicate (binlogadmin.go).
		if w.replicationAllowed() {
			w.replica.Store(parseRegistration(p))
			err = w.pc.WriteOK(mysqlproto.OK{Status: c.StatusFlags})
		} else {
			err = w.writeError(sqlError(mysql.ERSpecifiedAccessDenied, "REPLICATION SLAVE"))
		}
		if err != nil {
			return err
		}
	case mysqlproto.ComBinlogDump, mysqlproto.ComBinlogDumpGTID:
		// Without a binary log, MariaDB's answer without log_bin; the
		// replica reports "Got fatal error 1236 from master when reading
		// data from binary log: 'Binary log is not open'".
		switch {
		case !w.replicationAllowed():
			err = w.writeError(sqlError(mysql.ERSpecifiedAccessDenied, "REPLICATION SLAVE"))
		case w.l.conns.binlog == nil:
			err = w.writeError(sqlError(errtable.ERMasterFatalReadingBinlog, "Binary log is not open"))
		default:
			// The dump holds the connection until it ends.
			return w.binlogDump(cmd, p)
		}
		if err != nil {
			return err
		}
	case mysqlproto.ComResetConnection:
		w.cursor = nil
		if c.ClientData == nil {
			// No statement made the session yet: there is nothing to
			// reset (go-mysql-server's reset dereferences the session).
			w.stmts = map[uint32]*mysqlproto.Stmt{}
			c.PrepareData = map[uint32]*mysql.PrepareData{}
			err = w.pc.WriteOK(mysqlproto.OK{Status: c.StatusFlags})
		} else if herr := h.ComResetConnection(c); herr != nil {
			err = w.writeError(herr)
		} else {
			w.stmts = map[uint32]*mysqlproto.Stmt{}
			c.PrepareData = map[uint32]*mysql.PrepareData{}
			err = w.pc.WriteOK(mysqlproto.OK{Status: c.StatusFlags})
		}
		if err != nil {
			return err
		}
	default:
		if err := w.writeError(errUnknownCommand); err != nil {
			return err
		}
	}
	return w.pc.Flush()
}

// replicationAllowed reports whether the logged-in account has the
// REPLICATION SLAVE privilege.
func (w *wireConn) replicationAllowed() bool {
	u, ok := w.c.UserData.(sql.MysqlConnectionUser)
	if !ok || w.l.mdb == nil {
		return false
	}
	if !w.l.mdb.Enabled() {
		return true
	}
	rd := w.l.mdb.Reader()
	defer rd.Close()
	acct := w.l.mdb.GetUser(rd, u.User, u.Host, false)
	return acct != nil && acct.PrivilegeSet.Has(sql.PrivilegeType_ReplicationSlave)
}

// unknownStmt is MariaDB's error for a statement id it does not know.
func unknownStmt(id uint32, command string) error {
	return sqlError(errtable.ERUnknownStmtHandler, fmt.Sprint(id), command)
}

// results writes the results of one statement as the handler hands them
// over: the first call's fields open a result set (no fields: the
// statement's OK packet), and later calls add rows to it. more says
// whether another statement's results follow in the same answer.
type results struct {
	w       *wireConn
	binary  bool
	fields  []*querypb.Field
	started bool
	okSent  bool
}

// add writes one batch.
func (r *results) add(res *sqltypes.Result, more bool) error {
	w, c := r.w, r.w.c
	if r.okSent {
		return io.EOF // nothing may follow an OK
	}
	if !r.started {
		r.started = true
		if len(res.Fields) == 0 {
			r.okSent = true
			status := c.StatusFlags
			if more {
				status |= mysqlproto.StatusMoreResults
			}
			warnings := uint16(0)
			if !r.binary {
				warnings = w.l.h.WarningCount(c)
			}
			return w.pc.WriteOK(mysqlproto.OK{AffectedRows: res.RowsAffected, InsertID: res.InsertID, Status: status, Warnings: warnings, Info: res.Info})
		}
		r.fields = res.Fields
		if err := w.pc.WriteColumns(res.Fields, c.StatusFlags); err != nil {
			return err
		}
	}
	for _, row := range res.Rows {
		var err error
		if r.binary {
			err = w.pc.WriteBinaryRow(r.fields, row)
		} else {
			err = w.pc.WriteTextRow(row)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// finish ends the statement's answer: the end of its rows, or its
// error (after any rows already sent, as MariaDB sends it). A failed
// write is returned, ending the connection.
func (r *results) finish(err error, more bool) error {
	w, c := r.w, r.w.c
	switch {
	case err != nil && !errors.Is(err, io.EOF):
		return w.writeError(err)
	case !r.started:
		return w.writeError(mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "unexpected: query ended with no results and no error"))
	case r.okSent:
		return nil
	}
	status := c.StatusFlags
	if more {
		status |= mysqlproto.StatusMoreResults
	}
	return w.pc.EndRows(status, w.l.h.WarningCount(c))
}

// query runs a COM_QUERY: its statements one after another when the
// client allows several, each answered in turn; the first error ends
// the text.
func (w *wireConn) query(ctx context.Context, text string) error {
	c, h := w.c, w.l.h
	multi := c.Capabilities&mysql.CapabilityClientMultiStatements != 0
	if c.Capabilities&mysqlproto.ClientMultiResults != 0 {
		w.sink, w.sinkBinary = w.sinkFn, false
		defer func() { w.sink = nil }()
	}
	for {
		w.res = results{w: w}
		r := &w.res
		var rest string
		var err error
		if multi {
			rest, err = h.ComMultiQuery(ctx, c, text, w.textAdd)
		} else {
			err = h.ComQuery(ctx, c, text, w.textAdd)
		}
		if werr := r.finish(err, rest != "" && err == nil); werr != nil {
			return werr
		}
		if err != nil || rest == "" {
			return nil
		}
		text = rest
	}
}

// fieldList answers COM_FIELD_LIST (a table's column definitions).
func (w *wireConn) fieldList(ctx context.Context, p []byte) error {
	table, _, _ := strings.Cut(string(p), "\x00")
	var fields []*querypb.Field
	err := w.l.h.ComQuery(ctx, w.c, "SELECT * FROM `"+strings.ReplaceAll(table, "`", "``")+"` LIMIT 0", func(res *sqltypes.Result, _ bool) error {
		if fields == nil {
			fields = res.Fields
		}
		return nil
	})
	if err != nil {
		return w.writeError(err)
	}
	return w.pc.WriteFieldList(fields, w.c.StatusFlags)
}

// prepare answers a COM_STMT_PREPARE.
func (w *wireConn) prepare(ctx context.Context, text string) error {
	c, h := w.c, w.l.h
	if len(text) > maxPrepareLen {
		// Refused before the vitess grammar parses it to count the
		// placeholders: that parse is not guarded (netlimit.go).
		return w.writeError(errPrepareTooLong)
	}
	if q, ok := markPrepared(text); ok {
		text = q // (RETURNING and DO, preparestream.go)
	}
	opts, err := h.ParserOptionsForConnection(c)
	if err != nil {
		return w.writeError(err)
	}
	if c.Capabilities&mysql.CapabilityClientMultiStatements != 0 {
		pieces, err := sqlparser.SplitStatementToPieces(text)
		if err != nil {
			return w.writeError(err)
		}
		if len(pieces) != 1 {
			return w.writeError(sqlError(errtable.ERUnsupportedPS))
		}
	}
	stmt, err := sqlparser.ParseWithOptions(ctx, text, opts)
	if err != nil {
		return w.writeError(mysql.NewSQLErrorFromError(err))
	}
	params := 0
	_ = sqlparser.Walk(func(node sqlparser.SQLNode) (bool, error) {
		if v, ok := node.(*sqlparser.SQLVal); ok && strings.HasPrefix(string(v.Val), ":v") {
			params++
		}
		return true, nil
	}, stmt)
	if params > 0xffff {
		return w.writeError(sqlError(errtable.ERPSManyParam))
	}
	c.StatementID++
	pd := &mysql.PrepareData{StatementID: c.StatementID, PrepareStmt: text, ParamsCount: uint16(params)}
	if params > 0 {
		pd.ParamsType = make([]int32, params)
		pd.BindVars = make(map[string]*querypb.BindVariable, params)
	}
	c.PrepareData[pd.StatementID] = pd
	fields, err := h.ComPrepare(ctx, c, text, pd)
	if err != nil {
		delete(c.PrepareData, pd.StatementID)
		return w.writeError(err)
	}
	st := mysqlproto.NewStmt(pd.StatementID, params, len(fields))
	w.stmts[st.ID] = st
	paramFields := make([]*querypb.Field, params)
	pf := &querypb.Field{Name: "?", Type: sqltypes.VarBinary, Charset: 63}
	for i := range paramFields {
		paramFields[i] = pf
	}
	pd.ColumnNames = make([]string, len(fields))
	for i, f := range fields {
		f.Name = strings.ReplaceAll(f.Name, "'?'", "?")
		pd.ColumnNames[i] = f.Name
	}
	return w.pc.WritePrepareOK(st, paramFields, fields, 0, c.StatusFlags)
}

// execute answers a COM_STMT_EXECUTE.
func (w *wireConn) execute(ctx context.Context, p []byte) error {
	c, h := w.c, w.l.h
	ex, err := mysqlproto.ParseExecute(p, func(id uint32) *mysqlproto.Stmt { return w.stmts[id] })
	if errors.Is(err, mysqlproto.ErrUnknownStmt) {
		id, _ := mysqlproto.StmtID(p)
		return w.writeError(unknownStmt(id, "mysqld_stmt_execute"))
	}
	if err != nil {
		return w.writeError(mysql.NewSQLError(mysql.CRMalformedPacket, mysql.SSUnknownSQLState, "%v", err))
	}
	pd := c.PrepareData[ex.Stmt.ID]
	if pd == nil {
		return w.writeError(unknownStmt(ex.Stmt.ID, "mysqld_stmt_execute"))
	}
	// (made afresh each execution: nothing keeps the last one's)
	pd.BindVars = make(map[string]*querypb.BindVariable, len(ex.Args))
	for i, a := range ex.Args {
		pd.BindVars[bindName(i)] = sqltypes.ValueBindVariable(a)
	}
	if ex.Cursor&cursorReadOnly != 0 {
		// (as MariaDB: the other bits, MySQL's PARAMETER_COUNT_AVAILABLE
		// among them, open no cursor)
		return w.openCursor(ctx, ex.Stmt.ID, pd)
	}
	if c.Capabilities&mysqlproto.ClientMultiResults != 0 { // (MariaDB asks the same of prepared CALLs)
		w.sink, w.sinkBinary = w.sinkFn, true
		defer func() { w.sink = nil }()
	}
	w.res = results{w: w, binary: true}
	err = h.ComStmtExecute(ctx, c, pd, w.binaryAdd)
	return w.res.finish(err, false)
}

// cursorReadOnly is COM_STMT_EXECUTE's CURSOR_TYPE_READ_ONLY flag.
const cursorReadOnly = 0x01

// bindName is the name go-mysql-server binds parameter i (from 0) to.
func bindName(i int) string {
	if i < len(bindNames) {
		return bindNames[i]
	}
	return fmt.Sprintf("v%d", i+1)
}

var bindNames = func() []string {
	n := make([]string, 64)
	for i := range n {
		n[i] = fmt.Sprintf("v%d", i+1)
	}
	return n
}()

// openCursor runs a statement whose execution asked for a cursor: its
// rows are kept for COM_STMT_FETCH and only the column definitions are
// sent, with CURSOR_EXISTS.
func (w *wireConn) openCursor(ctx context.Context, id uint32, pd *mysql.PrepareData) error {
	c, h := w.c, w.l.h
	w.cursor = nil
	cur := &cursor{stmt: id}
	var ok *sqltypes.Result
	// The rows are kept past the statement, so each value is copied out
	// of the buffers the handler reuses between batches.
	err := h.ComStmtExecute(ctx, c, pd, func(res *sqltypes.Result) error {
		if len(res.Fields) == 0 && cur.fields == nil {
			ok = res
			return nil
		}
		if cur.fields == nil {
			cur.fields = res.Fields
		}
		for _, row := range res.Rows {
			kept := make([]sqltypes.Value, len(row))
			for i, v := range row {
				kept[i] = sqltypes.MakeTrusted(v.Type(), append([]byte(nil), v.Raw()...))
			}
			cur.rows = append(cur.rows, kept)
		}
		return nil
	})
	if err != nil {
		return w.writeError(err)
	}
	if cur.fields == nil {
		if ok == nil {
			ok = &sqltypes.Result{}
		}
		return w.pc.WriteOK(mysqlproto.OK{AffectedRows: ok.RowsAffected, InsertID: ok.InsertID, Status: c.StatusFlags, Info: ok.Info})
	}
	w.cursor = cur
	return w.pc.WriteCursorColumns(cur.fields, c.StatusFlags|mysqlproto.StatusCursorExists, h.WarningCount(c))
}

// fetch answers a COM_STMT_FETCH from the open cursor.
func (w *wireConn) fetch(p []byte) error {
	c := w.c
	id, ok := mysqlproto.StmtID(p)
	if !ok || len(p) < 8 {
		return w.writeError(mysql.NewSQLError(mysql.CRMalformedPacket, mysql.SSUnknownSQLState, "malformed COM_STMT_FETCH"))
	}
	n := int(uint32(p[4]) | uint32(p[5])<<8 | uint32(p[6])<<16 | uint32(p[7])<<24)
	if w.stmts[id] == nil {
		return w.writeError(unknownStmt(id, "mysqld_stmt_fetch"))
	}
	cur := w.cursor
	if cur == nil || cur.stmt != id {
		return w.writeError(sqlError(errtable.ERStmtHasNoOpenCursor, fmt.Sprint(id)))
	}
	n = min(n, len(cur.rows))
	for _, row := range cur.rows[:n] {
		if err := w.pc.WriteBinaryRow(cur.fields, row); err != nil {
			return err
		}
	}
	cur.rows = cur.rows[n:]
	status := c.StatusFlags | mysqlproto.StatusCursorExists
	if len(cur.rows) == 0 {
		status = c.StatusFlags | mysqlproto.StatusLastRowSent
		w.cursor = nil
	}
	return w.pc.EndRows(status, w.l.h.WarningCount(c))
}

// readLocalFile asks the client for the file of a LOAD DATA LOCAL and
// returns its contents as the client sends them (packets up to an empty
// one). It runs inside the statement, on the connection's goroutine or
// one the statement waits for; closing the reader reads what is left.
func (w *wireConn) readLocalFile(name string) (io.ReadCloser, error) {
	if err := w.pc.WritePacket(append([]byte{0xfb}, name...)); err != nil {
		return nil, err
	}
	if err := w.pc.Flush(); err != nil {
		return nil, err
	}
	return &localFile{pc: w.pc}, nil
}

// localFile reads a LOAD DATA LOCAL file's packets.
type localFile struct {
	pc   *mysqlproto.Conn
	buf  []byte
	done bool
	err  error
}

func (f *localFile) Read(b []byte) (int, error) {
	for len(f.buf) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		if f.done {
			return 0, io.EOF
		}
		p, err := f.pc.ReadPacket()
		switch {
		case err != nil:
			f.err = err
		case len(p) == 0:
			f.done = true
		default:
			f.buf = p
		}
	}
	n := copy(b, f.buf)
	f.buf = f.buf[n:]
	return n, nil
}

// Close reads the rest of the file, so the connection is in step for the
// statement's answer.
func (f *localFile) Close() error {
	f.buf = nil
	for !f.done && f.err == nil {
		p, err := f.pc.ReadPacket()
		if err != nil {
			f.err = err
		} else if len(p) == 0 {
			f.done = true
		}
	}
	if f.err != nil && !errors.Is(f.err, io.EOF) {
		return f.err
	}
	return nil
}
