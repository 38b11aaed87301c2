package server

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/conformance"
	"github.com/handlerdb/handlerdb/internal/engine"
)

// startTest starts a whole server on ephemeral ports in a temporary
// directory and stops it when the test ends.
// waitFor polls cond until it holds, failing the test after 10 s with
// what it waited for.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func startTest(t testing.TB, mutate func(*config.Config)) *Server {
	t.Helper()
	cfg := config.Default()
	cfg.DataDir = t.TempDir()
	cfg.Port, cfg.HSPort, cfg.HSPortWr, cfg.MemcachedPort = 0, 0, 0, -1
	cfg.Durability = engine.DurabilityNone
	cfg.AdminAddress = "127.0.0.1:0"
	if mutate != nil {
		mutate(&cfg)
	}
	s, err := Start(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Error(err)
		}
	})
	return s
}

// sqlDB connects to the server's SQL port as root, in database db
// (created first).
func sqlDB(t testing.TB, s *Server, db string) *sql.DB {
	t.Helper()
	root, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/", s.SQLAddr()))
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	if _, err := root.Exec("CREATE DATABASE IF NOT EXISTS " + db); err != nil {
		t.Fatal(err)
	}
	d, err := sql.Open("mysql", fmt.Sprintf("root@tcp(%s)/%s", s.SQLAddr(), db))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// TestConformance replays every recorded HandlerSocket case against an
// in-process server: the `default` files against one without secrets, the
// `auth` files against one with read secret rdsecret and write secret
// wrsecret. Each case is a subtest; a failure prints what was sent, what
// was expected and what came back.
func TestConformance(t *testing.T) {
	files, err := conformance.ParseDir("../../testdata/conformance/cases")
	if err != nil {
		t.Fatal(err)
	}
	for _, target := range []string{"default", "auth"} {
		t.Run(target, func(t *testing.T) {
			s := startTest(t, func(c *config.Config) {
				if target == "auth" {
					c.HSSecret, c.HSSecretWr = "rdsecret", "wrsecret"
				}
			})
			tg := conformance.Target{SQL: sqlDB(t, s, "conf"), ReadAddr: s.HS().ReadAddr().String(), WriteAddr: s.HS().WriteAddr().String()}
			passed, failed := 0, 0
			for _, f := range files {
				if f.Target != target {
					continue
				}
				for _, c := range f.Cases {
					t.Run(f.Name+"/"+c.Name, func(t *testing.T) {
						if err := conformance.Run(tg, c); err != nil {
							failed++
							t.Error(err)
							return
						}
						passed++
					})
				}
			}
			if passed+failed == 0 {
				t.Fatalf("no %s cases", target)
			}
			fmt.Printf("conformance %s: %d passed, %d failed\n", target, passed, failed)
		})
	}
}

// execAll runs each statement on db, failing the test at the first error.
func execAll(t testing.TB, db *sql.DB, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
