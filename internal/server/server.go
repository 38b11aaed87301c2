// Package server starts and stops every front of HandlerDB over one
// engine: the MySQL listener, the HandlerSocket read and write ports, and
// (later) the admin listener. It is what cmd/handlerdb runs and what
// in-process tests start.
//
// A Server's methods are safe for concurrent use.
package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/handlerdb/handlerdb/internal/admin"
	"github.com/handlerdb/handlerdb/internal/binlog"
	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/hsfront"
	"github.com/handlerdb/handlerdb/internal/mcfront"
	"github.com/handlerdb/handlerdb/internal/netloop"
	"github.com/handlerdb/handlerdb/internal/replica"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/sqlfront"
)

// LevelNotice is the level of the lines a script waits for (listening,
// ready, shutting down): above every other level, so no --log-level hides
// them. Loggers print it as NOTICE (see NoticeLevelName).
const LevelNotice = slog.LevelError + 4

// NoticeLevelName is a slog.HandlerOptions.ReplaceAttr that names
// LevelNotice "NOTICE".
func NoticeLevelName(_ []string, a slog.Attr) slog.Attr {
	if a.Key == slog.LevelKey {
		if l, ok := a.Value.Any().(slog.Level); ok && l == LevelNotice {
			a.Value = slog.StringValue("NOTICE")
		}
	}
	return a
}

// Server is a running HandlerDB.
type Server struct {
	cfg   config.Config
	log   *slog.Logger
	e     *engine.Engine
	hs    *hsfront.Server
	mc    *mcfront.Server // nil when the memcached port is off
	sql   sqlFront
	admin *admin.Server
	tls   *tls.Config
	repl  *replica.Replica // nil without the MySQL port
	// binlog is the binary log (--log-bin), closed before the store.
	binlog *binlog.Log
}

// sqlFront is the MySQL front as the server drives it.
type sqlFront interface {
	Addr() net.Addr
	Start() error
	Close() error
}

// Start opens the store and starts every enabled listener. It logs one
// line per listener (`listening proto=hs-read addr=127.0.0.1:41234`,
// likewise hs-write and mysql) and then `ready`. If any step fails,
// everything opened before it is closed again.
func Start(cfg config.Config, log *slog.Logger) (_ *Server, err error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{cfg: cfg, log: log}
	defer func() {
		if err != nil {
			s.closeOpened()
		}
	}()
	if cfg.TLSCert != "" {
		cert, err := tls.LoadX509KeyPair(cfg.TLSCert, cfg.TLSKey)
		if err != nil {
			return nil, fmt.Errorf("server: TLS: %w", err)
		}
		s.tls = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	// The admin listener comes first, so /readyz answers 503 while the
	// store opens and the other listeners start.
	if cfg.AdminAddress != "" {
		token, err := cfg.AdminTokenValue()
		if err != nil {
			return nil, err
		}
		if s.admin, err = admin.New(cfg.AdminAddress, s, admin.Options{Token: token, BackupDir: cfg.BackupDir}); err != nil {
			return nil, err
		}
		s.admin.Start()
		log.Log(context.Background(), LevelNotice, "listening", "proto", "admin", "addr", s.admin.Addr().String())
	}
	if s.e, err = engine.Open(cfg.EngineOptions()); err != nil {
		return nil, err
	}
	sqlfront.RouteLogs(log)
	if err := s.newSQL(); err != nil {
		return nil, err
	}
	if err := s.startReplica(); err != nil {
		return nil, err
	}
	hcfg := hsConfig(&cfg)
	hcfg.Logger = log
	hcfg.TLS = s.tls
	hcfg.Authorize = s.authorizeHS
	hcfg.Backoff = netloop.NewBackoff(cfg.MaxAuthFailures, cfg.AuthBackoff)
	hcfg.LockWaitNow = hsLockWait
	var m *admin.Metrics
	if s.admin != nil {
		m = admin.NewMetrics(s.admin.Registry, s.e, hsOpNames())
		hcfg.Observe = observeHS(m)
	}
	s.hs = hsfront.New(s.e, hcfg)
	if m != nil {
		m.AttachHS(hsSource{s.hs})
		if s.repl != nil {
			m.AttachReplica(replicaSource{s.repl})
		}
		if sf, ok := s.sql.(interface{ Stats() *sqlfront.Stats }); ok {
			m.AttachSQL(sqlSource{sf.Stats()})
		}
	}
	// Both fronts exist before either accepts: each may ask the other
	// (HandlerSocket users are SQL users; SHOW PROCESSLIST lists
	// HandlerSocket connections).
	if s.sql != nil {
		if err := s.sql.Start(); err != nil {
			return nil, err
		}
	}
	if err := s.hs.Start(); err != nil {
		s.hs = nil // nothing of it to stop
		return nil, err
	}
	if cfg.MemcachedPort >= 0 {
		mcfg := mcfront.Config{
			Addr: cfg.Addr(cfg.MemcachedPort), MaxItemSize: cfg.MemcachedMaxItemSize,
			FlushEnabled: cfg.MemcachedFlushAll, MaxConns: cfg.MemcachedMaxConnections,
			TLS: s.tls, Logger: log,
		}
		if cfg.MemcachedAuth {
			mcfg.Authorize, mcfg.Backoff = s.authorizeMemcached, hcfg.Backoff
		}
		s.mc = mcfront.New(s.e, mcfg)
		if m != nil {
			m.AttachMemcached(mcSource{s.mc})
		}
		if err := s.mc.Start(); err != nil {
			s.mc = nil
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			s.hs.Shutdown(ctx)
			cancel()
			s.hs = nil
			return nil, fmt.Errorf("memcached: %w", err)
		}
	}
	if a := s.hs.ReadAddr(); a != nil {
		log.Log(context.Background(), LevelNotice, "listening", "proto", "hs-read", "addr", a.String())
	}
	if a := s.hs.WriteAddr(); a != nil {
		log.Log(context.Background(), LevelNotice, "listening", "proto", "hs-write", "addr", a.String())
	}
	if s.sql != nil {
		log.Log(context.Background(), LevelNotice, "listening", "proto", "mysql", "addr", s.sql.Addr().String())
	}
	if s.mc != nil {
		log.Log(context.Background(), LevelNotice, "listening", "proto", "memcached", "addr", s.mc.Addr().String())
	}
	if s.admin != nil {
		s.admin.SetReady(true)
	}
	log.Log(context.Background(), LevelNotice, "ready", "datadir", cfg.DataDir, "durability", cfg.Durability.String())
	return s, nil
}

// closeOpened closes, in reverse order, what a failed Start had opened.
func (s *Server) closeOpened() {
	if s.repl != nil {
		s.repl.Close()
	}
	s.closeSQL()
	if s.e != nil {
		s.e.Close()
	}
	s.closeAdmin()
}

// AdminAddr is the admin listener's address, or nil when it is off.
func (s *Server) AdminAddr() net.Addr {
	if s.admin == nil {
		return nil
	}
	return s.admin.Addr()
}

// Checkpoint writes an online, consistent backup of the store into dir.
func (s *Server) Checkpoint(dir string) error {
	if s.e == nil {
		return engine.ErrClosed
	}
	s.log.Info("backup", "to", dir)
	return s.e.Checkpoint(dir)
}

func (s *Server) closeAdmin() {
	if s.admin != nil {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		s.admin.Close(ctx)
	}
}

// Engine returns the server's engine.
func (s *Server) Engine() *engine.Engine { return s.e }

// Memcached returns the memcached front (nil when its port is off).
func (s *Server) Memcached() *mcfront.Server { return s.mc }

// HS returns the HandlerSocket front.
func (s *Server) HS() *hsfront.Server { return s.hs }

// SQLAddr is the MySQL listener's address, or nil when it is off.
func (s *Server) SQLAddr() net.Addr {
	if s.sql == nil {
		return nil
	}
	return s.sql.Addr()
}

// Shutdown stops accepting, lets in-flight HandlerSocket batches commit
// and answer, closes every connection and the store.
func (s *Server) Shutdown(ctx context.Context) error {
	s.log.Log(context.Background(), LevelNotice, "shutting down")
	if s.admin != nil {
		s.admin.SetReady(false)
	}
	var errs []error
	if s.repl != nil {
		s.repl.Close()
	}
	if err := s.hs.Shutdown(ctx); err != nil {
		errs = append(errs, fmt.Errorf("handlersocket: %w", err))
	}
	if s.mc != nil {
		if err := s.mc.Shutdown(ctx); err != nil {
			errs = append(errs, fmt.Errorf("memcached: %w", err))
		}
	}
	if err := s.closeSQL(); err != nil {
		errs = append(errs, fmt.Errorf("mysql: %w", err))
	}
	if s.binlog != nil {
		s.binlog.Close()
	}
	if err := s.e.Close(); err != nil {
		errs = append(errs, fmt.Errorf("engine: %w", err))
	}
	s.closeAdmin()
	return errors.Join(errs...)
}

func (s *Server) closeSQL() error {
	if s.sql == nil {
		return nil
	}
	return s.sql.Close()
}

// hsLockWait is how long a HandlerSocket write waits for an SQL
// transaction's row lock: @@global.innodb_lock_wait_timeout seconds, as
// the plugin's writes wait for InnoDB's.
func hsLockWait() time.Duration {
	if n, ok := sqlbackend.GlobalInt("innodb_lock_wait_timeout"); ok && n >= 0 {
		return time.Duration(n) * time.Second
	}
	return 50 * time.Second
}
