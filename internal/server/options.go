package server

import (
	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/hsfront"
	"github.com/handlerdb/handlerdb/internal/sqlfront"
	"time"
)

// The fronts' options from the command line's settings (config holds the
// settings and the store's options; it imports no front). The flags
// follow mysqld's and the plugin's conventions (0 often means "no limit"
// or "never"); the packages follow Pebble's (0 means the default, a
// negative value "none" where a field allows it: config.None).

// hsConfig is the HandlerSocket front's configuration, without what only
// the running server has (TLS, Authorize, Backoff, Logger, Observe).
func hsConfig(c *config.Config) hsfront.Config {
	return hsfront.Config{
		ReadAddr:        c.Addr(c.HSPort),
		WriteAddr:       c.Addr(c.HSPortWr),
		ReadSecret:      c.HSSecret,
		WriteSecret:     c.HSSecretWr,
		Timeout:         config.None(c.HSTimeout), // 0: never, as the plugin's handlersocket_timeout
		LineTimeout:     config.None(c.HSLineTimeout),
		MaxResponse:     config.None(c.HSMaxResponse),
		MaxConns:        c.HSMaxConnections,
		MaxConnsPerPeer: config.None(c.HSMaxConnectionsPerPeer),
		ReadLoops:       c.HSReadLoops,
		WriteLoops:      c.HSWriteLoops,
		RequireAuth:     c.HSRequireAuth,
		TLSRequired:     c.TLSRequired,
	}
}

// sqlConfig is the MySQL front's configuration, without what only the
// running server has (TLS, ExtraProcesses). Its zero limits mean none, as
// the flags' do.
func sqlConfig(c *config.Config) sqlfront.Config {
	return sqlfront.Config{
		Address:          c.Addr(c.Port),
		RootPassword:     c.RootPassword,
		RootHost:         c.RootHost,
		TLSRequired:      c.TLSRequired,
		NoPointFastPath:  !c.SQLPointFastPath,
		NoPlanCache:      !c.SQLPlanCache,
		MaxConnections:   c.MaxConnections,
		MaxConnectErrors: c.MaxConnectErrors,
		ConnectTimeout:   c.ConnectTimeout,
		SecureFilePriv:   c.SecureFilePrivDir(),
		GeneralLog:       c.GeneralLog,
		GeneralLogFile:   c.GeneralLogFile,
		SlowQueryLog:     c.SlowQueryLog,
		SlowQueryLogFile: c.SlowQueryLogFile,
		LongQueryTime:    &c.LongQueryTime,
		ServerID:         c.ServerID,
		VersionString:    c.VersionString,
		SemiSyncPrimary:  c.SemiSyncPrimary,
		SemiSyncTimeout:  time.Duration(c.SemiSyncTimeoutMS) * time.Millisecond,
		SemiSyncCount:    c.SemiSyncCount,
		SemiSyncReplica:  c.SemiSyncReplica,
	}
}
