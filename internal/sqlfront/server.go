package sqlfront

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/binlog"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/mariadb"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/storedprog"
)

// Defaults of Config.
const (
	DefaultAddress        = "127.0.0.1:3306"
	DefaultRootHost       = "localhost"
	DefaultVersionString  = "10.11.99-MariaDB-HandlerDB"
	DefaultVersionComment = "HandlerDB"
)

// Config configures the MySQL listener. The zero value of each field means
// its default; a negative value is invalid. New calls EnsureDefaults and
// then Validate.
type Config struct {
	// Address is host:port to listen on (port 0 picks a free port).
	// Default 127.0.0.1:3306.
	Address string
	// RootPassword is the password of the root account ("" for none). It
	// is applied at every start, whatever an earlier run stored.
	RootPassword string
	// RootHost is the host root may connect from. Default localhost,
	// MariaDB's root (a client at 127.0.0.1 or ::1 is localhost): a
	// MariaDB dump's CREATE USER root@localhost is then 1396, as there,
	// where an account root@127.0.0.1 would have been shadowed for
	// loopback logins by the new root@localhost without privileges. "%"
	// allows any host.
	RootHost string
	// VersionString is the server version clients see in VERSION() and
	// @@version, and after "5.5.5-" in the handshake, as MariaDB sends it.
	// Default "10.11.99-MariaDB-HandlerDB": the word MariaDB is what
	// GORM, Django and SQLAlchemy look for to pick their MariaDB dialect.
	VersionString string
	// VersionComment is @@version_comment. Default "HandlerDB".
	VersionComment string
	// TLS, when set, lets clients negotiate TLS; TLSRequired refuses
	// those that do not.
	TLS         *tls.Config
	TLSRequired bool
	// ExtraProcesses, when set, lists other fronts' connections for
	// SHOW PROCESSLIST.
	ExtraProcesses func() []ExternalProcess
	// NoPointFastPath sends prepared primary-key point selects through
	// go-mysql-server's planner like every other statement, instead of
	// looking the row up directly (see fastpath.go).
	NoPointFastPath bool
	// NoPlanCache analyses every SELECT anew instead of reusing the plan
	// of the connection's last run of the same text (see plancache.go).
	NoPlanCache bool
	// NoCompiledFunctions runs every stored function through its hidden
	// procedure (go-mysql-server's interpreter) instead of compiled
	// (storedprog); for tests that compare the two.
	NoCompiledFunctions bool
	// NoPointReads reads primary-key points of SQL statements through
	// iterators like any range instead of one lookup each
	// (sqlbackend.Provider.SetPointReads); for tests that compare the two.
	NoPointReads bool
	// MaxConnections bounds the authenticated connections, as mysqld's
	// max_connections: one more login is answered error 1040, except one
	// by an account with SUPER or CONNECTION ADMIN (0: no limit). The
	// connections not authenticated yet have a bound of their own
	// (maxPending in connlimit.go).
	MaxConnections int
	// MaxConnectErrors blocks a host after that many connection errors in
	// a row (handshakes abandoned, timed out or malformed; not refused
	// passwords) until FLUSH HOSTS, as mysqld's max_connect_errors; a
	// successful login from it starts its count again (0: off).
	MaxConnectErrors int
	// ConnectTimeout is how long a client may take to authenticate, as
	// mysqld's connect_timeout (0: no limit).
	ConnectTimeout time.Duration
	// SecureFilePriv is the only directory LOAD DATA INFILE, LOAD_FILE and
	// SELECT ... INTO OUTFILE may use, as mysqld's secure_file_priv
	// (default: "files" in the engine's directory). New creates it. It is
	// never empty: that would let any user with FILE read every file the
	// server can.
	SecureFilePriv string
	// GeneralLog and SlowQueryLog turn on the general query log and the
	// slow query log (querylog.go) at start; GeneralLogFile and
	// SlowQueryLogFile name their files (empty: the defaults, <host>.log
	// and <host>-slow.log in the engine's directory) and LongQueryTime
	// sets long_query_time (nil: 10 seconds). They set the process-wide
	// variables only when given: false, empty and nil leave them.
	GeneralLog       bool
	GeneralLogFile   string
	SlowQueryLog     bool
	SlowQueryLogFile string
	LongQueryTime    *float64
	// Binlog, when set, is the binary log replicas read (COM_BINLOG_DUMP,
	// binlogdump.go); nil answers their dump 1236 "Binary log is not
	// open", as MariaDB without log_bin. ServerID is @@server_id (0: 1).
	Binlog   *binlog.Log
	ServerID uint32
	// Semi-sync at start (the variables rpl_semi_sync_master_enabled,
	// _timeout, _wait_for_slave_count and rpl_semi_sync_slave_enabled;
	// semisync.go), set only when given (false and zero leave them).
	SemiSyncPrimary bool
	SemiSyncTimeout time.Duration
	SemiSyncCount   int
	SemiSyncReplica bool
}

// EnsureDefaults fills every zero field with its default.
func (c *Config) EnsureDefaults() {
	if c.Address == "" {
		c.Address = DefaultAddress
	}
	if c.RootHost == "" {
		c.RootHost = DefaultRootHost
	}
	if c.VersionString == "" {
		c.VersionString = DefaultVersionString
	}
	if c.VersionComment == "" {
		c.VersionComment = DefaultVersionComment
	}
}

// Validate reports the first invalid setting.
func (c *Config) Validate() error {
	switch {
	case c.MaxConnections < 0:
		return errors.New("sqlfront: negative MaxConnections")
	case c.ConnectTimeout < 0:
		return errors.New("sqlfront: negative ConnectTimeout")
	case c.TLSRequired && c.TLS == nil:
		return errors.New("sqlfront: TLSRequired without TLS")
	}
	return nil
}

// Server is the MySQL-protocol listener over one engine. Its methods are
// safe for concurrent use.
type Server struct {
	cfg    Config
	e      *engine.Engine
	p      *sqlbackend.Provider
	engine *sqle.Engine
	ln     net.Listener
	srv    *server.Server
	mh     *mariaHandler
	conns  *wireConns         // the wire layer's connections
	fns    *storedprog.Runner // nil with NoCompiledFunctions
	// defaults holds the accounts' default roles (usersdump.go).
	defaults *defaultRoles

	mu      sync.Mutex
	started bool
	closed  bool
	done    chan struct{}
}

// globalsOnce guards go-mysql-server's process-wide system variables.
var globalsMu sync.Mutex

// New builds a server over e and opens its listening socket (so Addr is
// known at once); Start begins accepting connections. Users and grants are
// loaded from the engine; root is created or updated as cfg says.
func New(e *engine.Engine, cfg Config) (*Server, error) {
	cfg.EnsureDefaults()
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.SecureFilePriv == "" {
		cfg.SecureFilePriv = filepath.Join(e.Options().Dir, "files")
	}
	if err := os.MkdirAll(cfg.SecureFilePriv, 0o700); err != nil {
		return nil, fmt.Errorf("sqlfront: secure_file_priv: %w", err)
	}
	installQueryLogs()
	if err := setGlobals(&cfg, e); err != nil {
		return nil, err
	}
	p := sqlbackend.NewProvider(e)
	p.MariaDB()
	if bl := cfg.Binlog; bl != nil {
		p.SnapshotPosition = func(seq uint64) (string, uint64, error) {
			pos, err := bl.PositionAfter(seq)
			return binlog.FileName, pos, err
		}
		p.LogVariable = func(name string) (string, error) { return logVariable(bl, name) }
	}
	p.SetPointReads(!cfg.NoPointReads)
	if err := p.DropTemporaryLeftovers(context.Background()); err != nil {
		return nil, fmt.Errorf("sqlfront: temporary tables left by a crash: %w", err)
	}
	mariadb.InstallPrinting()
	se := sqle.New(mariadb.NewAnalyzer(p), &sqle.Config{})
	var fns *storedprog.Runner
	if !cfg.NoCompiledFunctions {
		fns = storedprog.New(se.Analyzer, p)
		p.SetFunctionRunner(fns)
	}
	guard := newGuardedParser(se.Parser)
	guard.hints = indexHintsOf(p.ResolveTable)
	se.Parser, se.Analyzer.Parser = guard, guard
	se.ProcessList = newProcessList(cfg.ExtraProcesses)
	ctx := sql.NewContext(context.Background(), sql.WithSession(p.NewSession(sql.NewBaseSession())))
	users, err := setupUsers(ctx, se.Analyzer.Catalog.MySQLDb, e, &cfg)
	var defaults *defaultRoles
	if err == nil {
		defaults, err = loadDefaultRoles(e)
	}
	if err != nil {
		se.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", cfg.Address)
	if err != nil {
		se.Close()
		return nil, fmt.Errorf("sqlfront: listen %s: %w", cfg.Address, err)
	}
	setLogServer(e.Options().Dir, cfg.VersionString, ln.Addr().String())
	ll := &limitListener{Listener: ln, max: int64(cfg.MaxConnections), connectTimeout: cfg.ConnectTimeout}
	if cfg.MaxConnectErrors > 0 {
		ll.hosts = &connectErrors{max: cfg.MaxConnectErrors}
	}
	se.Analyzer.Catalog.RegisterFunction(ctx, accountFunction(se.Analyzer.Catalog.MySQLDb, defaults)) // usersdump.go
	conns := &wireConns{binlog: cfg.Binlog}
	if cfg.Binlog != nil {
		activeBinlog.Store(cfg.Binlog)
		se.Analyzer.Catalog.BinlogPrimaryController = primaryController{cfg.Binlog}
		se.Analyzer.Catalog.RegisterFunction(ctx, binlogGTIDPosFunction(cfg.Binlog))
	}
	installProcResults()
	se.Analyzer.Runner = &procRunner{StatementRunner: se, conns: conns}
	scfg := server.Config{
		Protocol: "tcp",
		Address:  ln.Addr().String(),
		Listener: ll,
		Version:  handshakeVersion(cfg.VersionString),
		// TLS as MySQL clients negotiate it (CLIENT_SSL in the handshake).
		TLSConfig:              cfg.TLS,
		RequireSecureTransport: cfg.TLS != nil && cfg.TLSRequired,
		// Logins refused as MariaDB refuses them (auth.go).
		ProtocolListenerFactory: wireListenerFactory(se.Analyzer.Catalog.MySQLDb, conns),
	}
	var mh *mariaHandler
	wrap := func(h mysql.Handler) (mysql.Handler, error) {
		mh = &mariaHandler{Handler: h, guard: guard, hosts: ll.hosts, mdb: se.Analyzer.Catalog.MySQLDb}
		ll.stats = &mh.stats
		mh.noFast.Store(cfg.NoPointFastPath)
		mh.noPlanCache.Store(cfg.NoPlanCache)
		return mh, nil
	}
	srv, err := server.NewServerWithHandler(scfg, se, conns.contextFactory, sessionBuilder(p), nil, wrap)
	if err != nil {
		ln.Close()
		se.Close()
		return nil, err
	}
	conns.sm.Store(srv.SessionManager())
	if wl, ok := srv.Listener.(*wireListener); ok {
		wl.afterCommand = users.saveRoles
	}
	s := &Server{cfg: cfg, e: e, p: p, engine: se, ln: ln, srv: srv, mh: mh, fns: fns, defaults: defaults, done: make(chan struct{}), conns: conns}
	mh.srv.Store(s)
	return s, nil
}

// sessionBuilder returns the function go-mysql-server's server calls to
// make the session of a new connection over p. Safe for concurrent use.
func sessionBuilder(p *sqlbackend.Provider) server.SessionBuilder {
	return func(ctx context.Context, c *mysql.Conn, addr string) (sql.Session, error) {
		var host, user string
		if u, ok := c.UserData.(sql.MysqlConnectionUser); ok {
			host, user = u.Host, u.User
		}
		client := sql.Client{Address: host, User: user, Capabilities: c.Capabilities}
		base := sql.NewBaseSessionWithClientServer(addr, client, c.ConnectionID)
		s := p.NewSession(base)
		c.ClientData = s // (setStatusFlags reads it)
		return s, nil
	}
}

// setGlobals sets the system variables clients read at connect. They are
// process-wide in go-mysql-server; every Server of the process sets the
// same values unless configured otherwise.
func setGlobals(cfg *Config, e *engine.Engine) error {
	globalsMu.Lock()
	defer globalsMu.Unlock()
	sqlbackend.DefineSQLMode()
	defineReplicationVars()
	serverID, logBin := uint32(1), int8(0)
	if cfg.ServerID != 0 {
		serverID = cfg.ServerID
	}
	gtidMode := "OFF"
	if cfg.Binlog != nil {
		logBin, gtidMode = 1, "ON"
	}
	defer func() {
		if cfg.Binlog != nil {
			startSemisync(cfg.Binlog) // (after the globals are set)
		}
	}()
	coll := e.Options().DefaultCollation
	name, cs := "utf8mb4_general_ci", "utf8mb4"
	if coll != nil {
		name, cs = sqlbackend.SQLCollation(coll).Name(), sqlbackend.SQLCollation(coll).CharacterSet().String()
	}
	logs := map[string]interface{}{}
	if cfg.GeneralLogFile != "" {
		logs["general_log_file"] = cfg.GeneralLogFile
	}
	if cfg.SlowQueryLogFile != "" {
		logs["slow_query_log_file"] = cfg.SlowQueryLogFile
	}
	if cfg.LongQueryTime != nil {
		logs["long_query_time"] = *cfg.LongQueryTime
	}
	if cfg.GeneralLog {
		logs["general_log"] = int8(1)
	}
	// (semi-sync's own copy of its values follows: AssignValues tells
	// no NotifyChanged)
	for _, v := range []struct {
		name  string
		given bool
		val   interface{}
	}{
		{"rpl_semi_sync_master_enabled", cfg.SemiSyncPrimary, int8(1)},
		{"rpl_semi_sync_master_timeout", cfg.SemiSyncTimeout > 0, uint64(cfg.SemiSyncTimeout / time.Millisecond)},
		{"rpl_semi_sync_master_wait_for_slave_count", cfg.SemiSyncCount > 0, uint64(cfg.SemiSyncCount)},
		{"rpl_semi_sync_slave_enabled", cfg.SemiSyncReplica, int8(1)},
	} {
		if v.given {
			logs[v.name] = v.val
			semiSettings(v.name, v.val)
		}
	}
	if cfg.SlowQueryLog {
		logs["slow_query_log"] = int8(1)
	}
	if err := sql.SystemVariables.AssignValues(logs); err != nil {
		return err
	}
	return sql.SystemVariables.AssignValues(map[string]interface{}{
		"version":                       cfg.VersionString,
		"version_comment":               cfg.VersionComment,
		"character_set_server":          cs,
		"collation_server":              name,
		"character_set_database":        cs,
		"collation_database":            name,
		"character_set_connection":      cs,
		"collation_connection":          name,
		"character_set_client":          cs,
		"character_set_results":         cs,
		"default_collation_for_utf8mb4": "utf8mb4_general_ci",
		"secure_file_priv":              cfg.SecureFilePriv,
		// go-mysql-server's default is 1 GiB; the listener enforces it
		// (netlimit.go).
		"max_allowed_packet": int64(defaultMaxAllowedPacket),
		// MariaDB's default (go-mysql-server's is MySQL's 1024); a
		// GROUP_CONCAT keeps at most this much of its group
		// (sqlbackend/groupconcat.go).
		"group_concat_max_len": uint64(1 << 20),
		"server_id":            serverID,
		// (MySQL's flavor names this server's transactions by it)
		"server_uuid": binlog.ServerUUID(serverID).String(),
		"log_bin":     logBin,
		// (a MySQL replica positioned by GTID set asks its primary for
		// GTID mode)
		"gtid_mode":                gtidMode,
		"enforce_gtid_consistency": gtidMode,
		// (HandlerDB's binary log has no checksums; a replica asks for
		// them as this says)
		"binlog_checksum": "NONE",
	})
}

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Provider returns the go-mysql-server backend the server runs on.
func (s *Server) Provider() *sqlbackend.Provider { return s.p }

// Engine returns the go-mysql-server engine (for embedding and tests).
func (s *Server) Engine() *sqle.Engine { return s.engine }

// Stats returns the front's counters (statements by class and result,
// open connections).
func (s *Server) Stats() *Stats { return &s.mh.stats }

// Start begins accepting connections in the background.
func (s *Server) Start() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("sqlfront: server closed")
	}
	if s.started {
		return errors.New("sqlfront: server already started")
	}
	s.started = true
	go func() {
		defer close(s.done)
		_ = s.srv.Start()
	}()
	return nil
}

// Close stops accepting connections and closes the listener. Connections
// already open are cut as their next statement finds the listener gone.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	started := s.started
	s.mu.Unlock()
	if s.cfg.Binlog != nil {
		activeBinlog.CompareAndSwap(s.cfg.Binlog, nil)
	}
	err := s.srv.Close()
	if started {
		<-s.done
	} else {
		_ = s.ln.Close()
	}
	s.engine.Close()
	return err
}

// handshakeVersion is the version the handshake carries: MariaDB puts
// "5.5.5-" before its own (clients that know MariaDB strip it, older
// ones read a version they accept).
func handshakeVersion(v string) string {
	if strings.HasPrefix(v, "5.5.5-") || !strings.Contains(v, "MariaDB") {
		return v
	}
	return "5.5.5-" + v
}
