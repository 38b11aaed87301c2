// Package config holds HandlerDB's one configuration struct: every setting
// with its default, its validation, and its command-line flag (named like
// mysqld's and the HandlerSocket plugin's options).
//
// A Config is plain data; build it once at start-up and share it read-only.
package config

import (
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Config is the server's configuration.
type Config struct {
	// DataDir is the directory of the embedded store (created if missing).
	DataDir string
	// BindAddress is the address every listener binds to.
	BindAddress string
	// Port is the MySQL protocol port (0 picks a free port; -1 disables).
	Port int
	// HSPort and HSPortWr are the HandlerSocket read and write ports (0
	// picks a free port; -1 disables).
	HSPort, HSPortWr int
	// HSSecret and HSSecretWr are the plain secrets of the read and write
	// ports; empty means no authentication on that port.
	HSSecret, HSSecretWr string
	// HSRequireAuth makes both HandlerSocket ports require A (the port's
	// secret or a SQL user's name:password) even without a secret.
	HSRequireAuth bool
	// HSSQLUsers lets SQL accounts authenticate on the HandlerSocket ports
	// with A\t1\tuser:password, checked against the account's host as a
	// MySQL login is; off, A takes only the port's secret, as in the plugin.
	// Accounts without a password are never accepted there.
	HSSQLUsers bool
	// MaxAuthFailures is how many failed HandlerSocket A requests one peer
	// address may make before AuthBackoff refuses its attempts (0: never).
	MaxAuthFailures int
	// AuthBackoff is the first back-off after MaxAuthFailures; it doubles
	// with each further failure, up to 64 times itself.
	AuthBackoff time.Duration
	// MemcachedPort is the memcached port (0: any free port, -1: off).
	MemcachedPort int
	// MemcachedMaxItemSize bounds a memcached value (memcached's -I).
	MemcachedMaxItemSize int
	// MemcachedFlushAll allows flush_all (it deletes every row of the
	// default container's table).
	MemcachedFlushAll bool
	// MemcachedMaxConnections bounds the memcached port's connections
	// (memcached's -c).
	MemcachedMaxConnections int
	// MemcachedAuth makes memcached clients log in as SQL accounts (the
	// text protocol's ASCII authentication, SASL PLAIN on the binary
	// one); their grants decide each container's reads and writes.
	MemcachedAuth bool
	// HSTimeout closes idle HandlerSocket connections.
	HSTimeout time.Duration
	// HSMaxConnections bounds the connections of each HandlerSocket port.
	HSMaxConnections int
	// HSMaxConnectionsPerPeer bounds one peer address's connections on
	// each HandlerSocket port (0: no limit).
	HSMaxConnectionsPerPeer int
	// HSReadLoops is the number of read-port event loops (0: 4 per
	// GOMAXPROCS).
	HSReadLoops int
	// HSWriteLoops is the number of write-port event loops (0: one per
	// GOMAXPROCS, none with durability sync; -1: none).
	HSWriteLoops int
	// HSLineTimeout closes a HandlerSocket connection whose request line
	// stays incomplete this long (0: never).
	HSLineTimeout time.Duration
	// HSMaxResponse bounds one HandlerSocket find's reply in bytes; a
	// larger one is answered 1\t1\tresultlen (0: no limit).
	HSMaxResponse int
	// MaxConnections bounds the SQL port's connections, as mysqld's
	// max_connections: one more is answered error 1040 (0: no limit).
	MaxConnections int
	// MaxConnectErrors is mysqld's max_connect_errors (0: off).
	MaxConnectErrors int
	// ConnectTimeout is how long a SQL client may take from connecting to
	// being authenticated, as mysqld's connect_timeout (0: no limit).
	ConnectTimeout time.Duration
	// GeneralLog and SlowQueryLog start the general query log and the
	// slow query log, as mysqld's general_log and slow_query_log; their
	// files (GeneralLogFile, SlowQueryLogFile: empty for <host>.log and
	// <host>-slow.log, a name not absolute is in the data directory) and
	// LongQueryTime, the seconds a statement must run to be slow, are
	// general_log_file, slow_query_log_file and long_query_time.
	GeneralLog       bool
	GeneralLogFile   string
	SlowQueryLog     bool
	SlowQueryLogFile string
	LongQueryTime    float64
	// SecureFilePriv is the directory LOAD DATA INFILE, LOAD_FILE and
	// SELECT ... INTO OUTFILE are limited to, as mysqld's
	// secure_file_priv (empty: <datadir>/files, created at start).
	SecureFilePriv string
	// Durability is sync, os or none (see engine.Durability).
	Durability engine.Durability
	// RootPassword is the password of the SQL user root (empty by default).
	RootPassword string
	// RootHost is the host root may log in from.
	RootHost string
	// CacheSize is the store's block cache in bytes.
	CacheSize int64
	// SQLPointFastPath serves prepared primary/unique-key point selects
	// without go-mysql-server's planner (see internal/sqlfront/fastpath.go).
	SQLPointFastPath bool
	// SQLPlanCache keeps each SQL connection's analyzed SELECT plans for
	// the next run of the same text (see internal/sqlfront/plancache.go).
	SQLPlanCache bool
	// LogBin writes the binary log replicas read, as mysqld's log_bin
	// (the log of every committed row change, in MariaDB's format: a
	// MariaDB replica follows HandlerDB); ServerID is mysqld's server_id,
	// which the log's events and GTIDs carry.
	LogBin   bool
	ServerID uint32
	// VersionString is the server version SQL clients see (VERSION(),
	// @@version, the handshake), as MariaDB's --version=name; empty:
	// sqlfront's default, which names MariaDB.
	VersionString string
	// BinlogExpire is mysqld's binlog_expire_logs_seconds: the binary
	// log's transactions older than this are purged (0: kept).
	BinlogExpire time.Duration
	// BinlogMaxTotalSize is MariaDB's max_binlog_total_size: the oldest
	// transactions of the binary log are purged while it holds more
	// bytes (0: no limit).
	BinlogMaxTotalSize uint64
	// Semi-synchronous replication at start, as mysqld's options of the
	// same names: SemiSyncPrimary rpl_semi_sync_master_enabled,
	// SemiSyncTimeoutMS rpl_semi_sync_master_timeout (milliseconds; 0:
	// 10000), SemiSyncCount rpl_semi_sync_master_wait_for_slave_count
	// (0: 1), SemiSyncReplica rpl_semi_sync_slave_enabled.
	SemiSyncPrimary   bool
	SemiSyncTimeoutMS uint64
	SemiSyncCount     int
	SemiSyncReplica   bool
	// RowCacheSize bounds the row cache that answers primary-key and
	// unique-index point lookups; 0 turns it off.
	RowCacheSize int64
	// AdminAddress is host:port of the admin HTTP listener (metrics,
	// health, pprof, backup); empty disables it.
	AdminAddress string
	// AdminToken is the bearer token the admin listener requires on
	// POST /backup and under /debug/pprof/; with neither it nor
	// AdminTokenFile set, those endpoints are refused. Prefer
	// AdminTokenFile: a flag's value is visible to every local user in ps.
	AdminToken string
	// AdminTokenFile names a file whose contents, trimmed of surrounding
	// white space, is the admin token (read once, at start-up).
	AdminTokenFile string
	// BackupDir is the only directory POST /backup writes into, each
	// backup a new subdirectory named by to=; empty refuses backups. It is
	// created (mode 0700) when missing.
	BackupDir string
	// ReplicateFrom, user:password@host:port, makes the server a replica
	// of that MySQL or MariaDB primary (as CHANGE REPLICATION SOURCE TO
	// and START REPLICA would; see internal/replica). Empty: the stored
	// replication settings, if any, apply.
	ReplicateFrom string
	// HSSecretFile, HSSecretWrFile, RootPasswordFile and
	// ReplicatePasswordFile name files holding HSSecret, HSSecretWr,
	// RootPassword and the password of ReplicateFrom (which then gives
	// user@host:port only), so that no secret is on the command line,
	// where every local user sees it in ps. A file's contents less one
	// trailing line end is the secret; read once, by Load. Giving a secret
	// both ways is an error.
	HSSecretFile, HSSecretWrFile, RootPasswordFile, ReplicatePasswordFile string
	// ReplicaStageBytes is the size of a primary transaction's row events
	// past which the replica applies it as a staged job instead of in
	// memory (replica.Options.StageBytes). 0: the default (32 MiB);
	// negative: never.
	ReplicaStageBytes int
	// TLSCert and TLSKey are PEM files; with both set, every port accepts
	// TLS (the MySQL port by the protocol's own negotiation, the
	// HandlerSocket ports by a TLS handshake as the first bytes).
	TLSCert, TLSKey string
	// TLSRequired refuses plain-text connections when TLS is on.
	TLSRequired bool
	// LogLevel is debug, info, warn or error.
	LogLevel string
	// LogFormat is text, json, or auto (text on a terminal, else JSON).
	LogFormat string
}

// Default returns the defaults.
func Default() Config {
	return Config{
		DataDir:                 "handlerdb-data",
		BindAddress:             "127.0.0.1",
		Port:                    3306,
		HSPort:                  9998,
		HSPortWr:                9999,
		MemcachedPort:           11211,
		MemcachedMaxItemSize:    1 << 20,
		MemcachedMaxConnections: 1024,
		HSTimeout:               300 * time.Second,
		HSMaxConnections:        10000,
		HSMaxConnectionsPerPeer: 5000,
		MaxAuthFailures:         5,
		AuthBackoff:             time.Second,
		HSLineTimeout:           30 * time.Second,
		HSMaxResponse:           16 << 20,
		MaxConnections:          151,
		MaxConnectErrors:        100,
		ConnectTimeout:          10 * time.Second,
		LongQueryTime:           10,
		Durability:              engine.DurabilitySync,
		RootHost:                "localhost",
		CacheSize:               256 << 20,
		RowCacheSize:            64 << 20,
		SQLPointFastPath:        true,
		SQLPlanCache:            true,
		ServerID:                1,
		AdminAddress:            "127.0.0.1:9180",
		LogLevel:                "info",
		LogFormat:               "auto",
	}
}

// Validate reports the first invalid setting.
func (c *Config) Validate() error {
	if c.DataDir == "" {
		return errors.New("config: --datadir is empty")
	}
	if net.ParseIP(c.BindAddress) == nil && c.BindAddress != "localhost" {
		return fmt.Errorf("config: --bind-address %q is not an IP address", c.BindAddress)
	}
	for _, p := range []struct {
		name string
		v    int
	}{{"port", c.Port}, {"handlersocket-port", c.HSPort}, {"handlersocket-port-wr", c.HSPortWr}, {"memcached-port", c.MemcachedPort}} {
		if p.v < -1 || p.v > 65535 {
			return fmt.Errorf("config: --%s %d is out of range", p.name, p.v)
		}
	}
	if c.MemcachedMaxItemSize < 1024 || c.MemcachedMaxItemSize > 1<<30 {
		return errors.New("config: --memcached-max-item-size must be between 1024 bytes and 1 GiB")
	}
	if c.MemcachedMaxConnections <= 0 {
		return errors.New("config: --memcached-max-connections must be positive")
	}
	if c.HSMaxConnections <= 0 {
		return errors.New("config: --handlersocket-max-connections must be positive")
	}
	if c.MaxAuthFailures < 0 || (c.MaxAuthFailures > 0 && c.AuthBackoff <= 0) {
		return errors.New("config: --max-auth-failures must not be negative, and --auth-backoff must be positive when it is set")
	}
	if c.HSRequireAuth && !c.HSSQLUsers && ((c.HSPort >= 0 && c.HSSecret == "") || (c.HSPortWr >= 0 && c.HSSecretWr == "")) {
		return errors.New("config: --handlersocket-require-auth on a port without a secret needs --handlersocket-sql-users (no A could succeed there)")
	}
	if c.HSMaxConnectionsPerPeer < 0 || c.HSMaxResponse < 0 || c.MaxConnections < 0 || c.MaxConnectErrors < 0 || c.LongQueryTime < 0 || c.HSReadLoops < 0 {
		return errors.New("config: --handlersocket-max-connections-per-peer, --handlersocket-max-response, --handlersocket-read-loops and --max-connections must not be negative")
	}
	if c.SemiSyncCount < 0 || c.SemiSyncCount > 65535 || c.SemiSyncTimeoutMS > 1<<32-1 {
		return errors.New("config: --rpl-semi-sync-master-wait-for-slave-count is 0 to 65535 and --rpl-semi-sync-master-timeout at most 4294967295")
	}
	if _, err := ParseLevel(c.LogLevel); err != nil {
		return err
	}
	switch c.LogFormat {
	case "auto", "text", "json":
	default:
		return fmt.Errorf("config: --log-format %q is not auto, text or json", c.LogFormat)
	}
	if (c.TLSCert == "") != (c.TLSKey == "") {
		return errors.New("config: --tls-cert and --tls-key go together")
	}
	if c.TLSRequired && c.TLSCert == "" {
		return errors.New("config: --tls-required needs --tls-cert and --tls-key")
	}
	if c.RowCacheSize < 0 {
		return errors.New("config: --row-cache-size must not be negative")
	}
	if c.CacheSize <= 0 {
		return errors.New("config: --cache-size must be positive")
	}
	if c.ReplicateFrom != "" {
		if _, err := ParseReplicateFrom(c.ReplicateFrom); err != nil {
			return err
		}
	}
	if c.AdminToken != "" && c.AdminTokenFile != "" {
		return errors.New("config: --admin-token and --admin-token-file: give only one")
	}
	if c.AdminToken != "" {
		if err := checkAdminToken(c.AdminToken); err != nil {
			return fmt.Errorf("config: --admin-token: %w", err)
		}
	}
	return nil
}

// Addr joins the bind address with a port; "" when the port is disabled.
func (c *Config) Addr(port int) string {
	if port < 0 {
		return ""
	}
	return net.JoinHostPort(c.BindAddress, strconv.Itoa(port))
}

// RegisterFlags binds every setting to a flag of fs, with c's current
// values as defaults.
func (c *Config) RegisterFlags(fs *flag.FlagSet) {
	fs.StringVar(&c.DataDir, "datadir", c.DataDir, "directory of the embedded store (created if missing)")
	fs.StringVar(&c.BindAddress, "bind-address", c.BindAddress, "address every listener binds to")
	fs.IntVar(&c.Port, "port", c.Port, "MySQL protocol port (0: any free port, -1: off)")
	fs.IntVar(&c.HSPort, "handlersocket-port", c.HSPort, "HandlerSocket read port (0: any free port, -1: off)")
	fs.IntVar(&c.HSPortWr, "handlersocket-port-wr", c.HSPortWr, "HandlerSocket write port (0: any free port, -1: off)")
	fs.IntVar(&c.MemcachedPort, "memcached-port", c.MemcachedPort, "memcached port (0: any free port, -1: off)")
	fs.IntVar(&c.MemcachedMaxItemSize, "memcached-max-item-size", c.MemcachedMaxItemSize, "largest memcached value in bytes (memcached's -I)")
	fs.BoolVar(&c.MemcachedFlushAll, "memcached-flush-all", c.MemcachedFlushAll, "allow memcached's flush_all (it deletes every row of the default container's table)")
	fs.IntVar(&c.MemcachedMaxConnections, "memcached-max-connections", c.MemcachedMaxConnections, "open connections of the memcached port (memcached's -c)")
	fs.BoolVar(&c.MemcachedAuth, "memcached-auth", c.MemcachedAuth, "memcached clients log in as SQL accounts (ASCII authentication, SASL PLAIN); their grants decide each container's reads and writes")
	fs.StringVar(&c.HSSecret, "handlersocket-plain-secret", c.HSSecret, "secret required by A on the read port (empty: none)")
	fs.StringVar(&c.HSSecretWr, "handlersocket-plain-secret-wr", c.HSSecretWr, "secret required by A on the write port (empty: none; no fallback to the read secret)")
	fs.StringVar(&c.HSSecretFile, "handlersocket-plain-secret-file", c.HSSecretFile, "file holding --handlersocket-plain-secret (kept out of ps)")
	fs.StringVar(&c.HSSecretWrFile, "handlersocket-plain-secret-wr-file", c.HSSecretWrFile, "file holding --handlersocket-plain-secret-wr (kept out of ps)")
	fs.StringVar(&c.RootPasswordFile, "root-password-file", c.RootPasswordFile, "file holding --root-password (kept out of ps)")
	fs.StringVar(&c.ReplicatePasswordFile, "replicate-from-password-file", c.ReplicatePasswordFile, "file holding the password of --replicate-from, which then gives user@host:port (kept out of ps)")
	fs.BoolVar(&c.HSRequireAuth, "handlersocket-require-auth", c.HSRequireAuth, "require A on both HandlerSocket ports even without a secret (SQL users authenticate with A\\t1\\tuser:password)")
	fs.BoolVar(&c.HSSQLUsers, "handlersocket-sql-users", c.HSSQLUsers, "let SQL accounts authenticate on the HandlerSocket ports with A\\t1\\tuser:password, checked against the account's host (never accounts without a password)")
	fs.IntVar(&c.MaxAuthFailures, "max-auth-failures", c.MaxAuthFailures, "failed HandlerSocket A requests from one IP address before its attempts are refused for --auth-backoff (0: no back-off)")
	fs.DurationVar(&c.AuthBackoff, "auth-backoff", c.AuthBackoff, "first back-off after --max-auth-failures; doubles with each further failure, up to 64 times")
	fs.Var((*seconds)(&c.HSTimeout), "handlersocket-timeout", "close HandlerSocket connections idle this long: seconds as the plugin takes them, or a duration like 90s (0: never)")
	fs.IntVar(&c.HSMaxConnections, "handlersocket-max-connections", c.HSMaxConnections, "most connections of each HandlerSocket port")

	fs.IntVar(&c.HSMaxConnectionsPerPeer, "handlersocket-max-connections-per-peer", c.HSMaxConnectionsPerPeer, "most connections of one peer address on each HandlerSocket port (0: no limit)")
	fs.IntVar(&c.HSReadLoops, "handlersocket-read-loops", c.HSReadLoops, "event loops serving the HandlerSocket read port (0: 4 per GOMAXPROCS)")
	fs.IntVar(&c.HSWriteLoops, "handlersocket-write-loops", c.HSWriteLoops, "event loops serving the HandlerSocket write port (0: one per GOMAXPROCS, none with --durability sync; -1: none, a goroutine per connection)")
	fs.Var((*seconds)(&c.HSLineTimeout), "handlersocket-line-timeout", "close HandlerSocket connections that leave a request line incomplete this long: seconds or a duration (0: never)")
	fs.IntVar(&c.HSMaxResponse, "handlersocket-max-response", c.HSMaxResponse, "largest HandlerSocket find reply in bytes; a larger one answers 1\\t1\\tresultlen (0: no limit)")
	fs.IntVar(&c.MaxConnections, "max-connections", c.MaxConnections, "most authenticated SQL connections, as mysqld's max_connections; one more login gets error 1040, except one with SUPER or CONNECTION ADMIN (0: no limit)")
	fs.IntVar(&c.MaxConnectErrors, "max-connect-errors", c.MaxConnectErrors, "connection errors in a row after which a host is blocked until FLUSH HOSTS (error 1129), as mysqld's max_connect_errors (0: off)")
	fs.BoolVar(&c.GeneralLog, "general-log", c.GeneralLog, "write the general query log (every connection and statement), as mysqld's general_log")
	fs.StringVar(&c.GeneralLogFile, "general-log-file", c.GeneralLogFile, "the general query log's file, as mysqld's general_log_file (empty: <host>.log; relative names are in the data directory)")
	fs.BoolVar(&c.SlowQueryLog, "slow-query-log", c.SlowQueryLog, "write the slow query log, as mysqld's slow_query_log")
	fs.StringVar(&c.SlowQueryLogFile, "slow-query-log-file", c.SlowQueryLogFile, "the slow query log's file, as mysqld's slow_query_log_file (empty: <host>-slow.log; relative names are in the data directory)")
	fs.Float64Var(&c.LongQueryTime, "long-query-time", c.LongQueryTime, "seconds a statement runs before the slow query log has it, as mysqld's long_query_time")
	fs.StringVar(&c.SecureFilePriv, "secure-file-priv", c.SecureFilePriv, "the only directory LOAD DATA INFILE and SELECT ... INTO OUTFILE may use, as mysqld's secure_file_priv (empty: <datadir>/files)")
	fs.Var((*seconds)(&c.ConnectTimeout), "connect-timeout", "how long a SQL client may take to authenticate, as mysqld's connect_timeout: seconds or a duration (0: no limit)")
	fs.TextVar(&c.Durability, "durability", c.Durability, "when acknowledged writes reach disk: sync, os or none")
	fs.StringVar(&c.RootPassword, "root-password", c.RootPassword, "password of the SQL user root")
	fs.StringVar(&c.RootHost, "root-host", c.RootHost, "host the SQL user root may connect from")
	fs.Int64Var(&c.CacheSize, "cache-size", c.CacheSize, "block cache size in bytes")
	fs.BoolVar(&c.SQLPointFastPath, "sql-point-fast-path", c.SQLPointFastPath, "serve prepared primary-key point selects without the SQL planner")
	fs.BoolVar(&c.SQLPlanCache, "sql-plan-cache", c.SQLPlanCache, "reuse a connection's analyzed plan when it runs the same SELECT text again")
	fs.BoolVar(&c.LogBin, "log-bin", c.LogBin, "write the binary log of committed row changes that MariaDB replicas follow, as mysqld's log_bin")
	fs.Var((*seconds)(&c.BinlogExpire), "binlog-expire-logs-seconds", "purge the binary log's transactions older than this, as mysqld's binlog_expire_logs_seconds: seconds or a duration (0: keep them)")
	fs.Uint64Var(&c.BinlogMaxTotalSize, "max-binlog-total-size", c.BinlogMaxTotalSize, "purge the binary log's oldest transactions while it holds more bytes than this, as MariaDB's max_binlog_total_size (0: no limit)")
	fs.BoolVar(&c.SemiSyncPrimary, "rpl-semi-sync-master-enabled", c.SemiSyncPrimary, "answer a commit once a replica has it (semi-synchronous replication), as mysqld's rpl_semi_sync_master_enabled")
	fs.Uint64Var(&c.SemiSyncTimeoutMS, "rpl-semi-sync-master-timeout", c.SemiSyncTimeoutMS, "milliseconds a commit waits for its replicas before semi-sync switches off, as mysqld's rpl_semi_sync_master_timeout (0: 10000)")
	fs.IntVar(&c.SemiSyncCount, "rpl-semi-sync-master-wait-for-slave-count", c.SemiSyncCount, "replicas a semi-sync commit waits for, as MySQL's rpl_semi_sync_master_wait_for_slave_count (0: 1)")
	fs.BoolVar(&c.SemiSyncReplica, "rpl-semi-sync-slave-enabled", c.SemiSyncReplica, "acknowledge the primary's events when it runs semi-sync, as mysqld's rpl_semi_sync_slave_enabled")
	fs.StringVar(&c.VersionString, "version-string", c.VersionString, "the server version SQL clients see (VERSION(), @@version, the handshake), as mariadbd's --version=name (empty: 10.11.99-MariaDB-HandlerDB)")
	fs.Func("server-id", "this server's id in the binary log's events and GTIDs, as mysqld's server_id (1 to 4294967295)", func(v string) error {
		n, err := strconv.ParseUint(v, 10, 32)
		if err != nil || n == 0 {
			return fmt.Errorf("server-id %q: want 1 to 4294967295", v)
		}
		c.ServerID = uint32(n)
		return nil
	})
	fs.Int64Var(&c.RowCacheSize, "row-cache-size", c.RowCacheSize, "row cache for point lookups, in bytes (0: off)")
	fs.StringVar(&c.AdminAddress, "admin-address", c.AdminAddress, "admin HTTP listener: /metrics, /livez, /readyz, /debug/pprof/, POST /backup (empty: off)")
	fs.StringVar(&c.AdminTokenFile, "admin-token-file", c.AdminTokenFile, "file holding the bearer token required by POST /backup and /debug/pprof/ (empty: those are refused)")
	fs.StringVar(&c.AdminToken, "admin-token", c.AdminToken, "the admin bearer token itself (visible in ps: prefer --admin-token-file or HANDLERDB_ADMIN_TOKEN)")
	fs.StringVar(&c.ReplicateFrom, "replicate-from", c.ReplicateFrom, "replicate from this MySQL/MariaDB primary, user:password@host:port (row-based binlog; empty: the settings CHANGE REPLICATION SOURCE stored)")
	fs.IntVar(&c.ReplicaStageBytes, "replica-stage-bytes", c.ReplicaStageBytes, "a replicated transaction with more row events than this many bytes is staged on disk, not held in memory (0: 32 MiB; negative: never)")
	fs.StringVar(&c.BackupDir, "backup-dir", c.BackupDir, "directory POST /backup writes into, one subdirectory per backup (empty: backups refused; created if missing)")
	fs.StringVar(&c.TLSCert, "tls-cert", c.TLSCert, "PEM certificate: enables TLS on every port")
	fs.StringVar(&c.TLSKey, "tls-key", c.TLSKey, "PEM private key of --tls-cert")
	fs.BoolVar(&c.TLSRequired, "tls-required", c.TLSRequired, "refuse plain-text connections when TLS is on")
	fs.StringVar(&c.LogLevel, "log-level", c.LogLevel, "debug, info, warn or error (SIGHUP re-reads it from the config file)")
	fs.StringVar(&c.LogFormat, "log-format", c.LogFormat, "auto (text on a terminal, JSON otherwise), text or json")
}

// seconds is a duration flag that also takes a bare number of seconds, as
// the plugin's handlersocket_timeout does.
type seconds time.Duration

func (s *seconds) String() string { return time.Duration(*s).String() }

func (s *seconds) Set(v string) error {
	if n, err := strconv.ParseUint(v, 10, 32); err == nil {
		*s = seconds(time.Duration(n) * time.Second)
		return nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return fmt.Errorf("%q is neither seconds nor a duration", v)
	}
	*s = seconds(d)
	return nil
}

// ParseLevel parses a log level name.
func ParseLevel(s string) (slog.Level, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(strings.ToUpper(s))); err != nil {
		return 0, fmt.Errorf("config: log level %q is not debug, info, warn or error", s)
	}
	return l, nil
}

// ReplicaSource is a parsed --replicate-from.
type ReplicaSource struct {
	User, Password, Host string
	Port                 int // 3306 when the DSN gives none
}

// ParseReplicateFrom parses user:password@host:port (password and port
// optional; the password may hold ':' and '@', the host is after the last
// '@').
func ParseReplicateFrom(dsn string) (ReplicaSource, error) {
	var s ReplicaSource
	at := strings.LastIndexByte(dsn, '@')
	if at <= 0 {
		return s, fmt.Errorf("config: --replicate-from %q is not user:password@host:port", maskDSN(dsn))
	}
	cred, hostport := dsn[:at], dsn[at+1:]
	s.User, s.Password, _ = strings.Cut(cred, ":")
	s.Host, s.Port = hostport, 3306
	if h, p, err := net.SplitHostPort(hostport); err == nil {
		n, err := strconv.Atoi(p)
		if err != nil || n <= 0 || n > 65535 {
			return s, fmt.Errorf("config: --replicate-from: bad port %q", p)
		}
		s.Host, s.Port = h, n
	}
	if s.User == "" || s.Host == "" {
		return s, fmt.Errorf("config: --replicate-from %q is not user:password@host:port", maskDSN(dsn))
	}
	return s, nil
}

// maskDSN hides the password of a DSN for messages.
func maskDSN(dsn string) string {
	at := strings.LastIndexByte(dsn, '@')
	if user, _, ok := strings.Cut(dsn[:max(at, 0)], ":"); ok {
		return user + ":***" + dsn[at:]
	}
	return dsn
}
