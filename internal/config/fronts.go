package config

import (
	"path/filepath"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/hsfront"
	"github.com/handlerdb/handlerdb/internal/sqlfront"
)

// This file is the one place where the command line's settings become
// each package's options. The flags follow mysqld's and the plugin's
// conventions (0 often means "no limit" or "never"); the packages follow
// Pebble's (0 means the default, a negative value means none where a
// field allows it). Each mapping below says which flag's 0 it translates.

// none maps a flag's 0 ("no limit", "never") to a package's negative
// value ("none"); other values pass through.
func none[T int | int64 | time.Duration](v T) T {
	if v == 0 {
		return -1
	}
	return v
}

// EngineOptions are the store's options.
func (c *Config) EngineOptions() engine.Options {
	return engine.Options{
		Dir:          c.DataDir,
		Durability:   c.Durability,
		CacheSize:    c.CacheSize,
		RowCacheSize: none(c.RowCacheSize), // --row-cache-size 0: off
	}
}

// HSConfig is the HandlerSocket front's configuration, without what only
// the running server has (TLS, Authorize, Backoff, Logger, Observe).
func (c *Config) HSConfig() hsfront.Config {
	return hsfront.Config{
		ReadAddr:        c.Addr(c.HSPort),
		WriteAddr:       c.Addr(c.HSPortWr),
		ReadSecret:      c.HSSecret,
		WriteSecret:     c.HSSecretWr,
		Timeout:         none(c.HSTimeout), // 0: never, as the plugin's handlersocket_timeout
		LineTimeout:     none(c.HSLineTimeout),
		MaxResponse:     none(c.HSMaxResponse),
		MaxConns:        c.HSMaxConnections,
		MaxConnsPerPeer: none(c.HSMaxConnectionsPerPeer),
		ReadLoops:       c.HSReadLoops,
		WriteLoops:      c.HSWriteLoops,
		RequireAuth:     c.HSRequireAuth,
		TLSRequired:     c.TLSRequired,
	}
}

// SQLConfig is the MySQL front's configuration, without what only the
// running server has (TLS, ExtraProcesses). Its zero limits mean none, as
// the flags' do.
func (c *Config) SQLConfig() sqlfront.Config {
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
	}
}

// SecureFilePrivDir is --secure-file-priv, or <datadir>/files.
func (c *Config) SecureFilePrivDir() string {
	if c.SecureFilePriv != "" {
		return c.SecureFilePriv
	}
	return filepath.Join(c.DataDir, "files")
}
