package config

import (
	"path/filepath"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// The store's options from the command line's settings (the fronts' are
// built in internal/server, options.go, so that config imports no front).
// The flags follow mysqld's and the plugin's
// conventions (0 often means "no limit" or "never"); the packages follow
// Pebble's (0 means the default, a negative value means none where a
// field allows it). Each mapping below says which flag's 0 it translates.

// None maps a flag's 0 ("no limit", "never") to a package's negative
// value ("none"); other values pass through.
func None[T int | int64 | time.Duration](v T) T {
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
		RowCacheSize: None(c.RowCacheSize), // --row-cache-size 0: off
	}
}

// SecureFilePrivDir is --secure-file-priv, or <datadir>/files.
func (c *Config) SecureFilePrivDir() string {
	if c.SecureFilePriv != "" {
		return c.SecureFilePriv
	}
	return filepath.Join(c.DataDir, "files")
}
