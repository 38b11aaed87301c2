package sqlfront

import (
	"context"
	gosql "database/sql"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/vitess/go/mysql"
	_ "github.com/go-sql-driver/mysql"
	"github.com/sirupsen/logrus"

	"github.com/handlerdb/handlerdb/internal/engine"
)

func TestMain(m *testing.M) {
	logrus.SetLevel(logrus.ErrorLevel)
	os.Exit(m.Run())
}

// testServer is a server on 127.0.0.1:0 over an engine in a directory.
type testServer struct {
	tb  testing.TB
	dir string
	e   *engine.Engine
	s   *Server
	cfg Config
}

// startTestServer opens an engine in dir (a fresh temporary directory when
// empty) and starts a server on it; both are closed when the test ends
// unless the test stops them first.
func startTestServer(tb testing.TB, dir string, cfg Config) *testServer {
	tb.Helper()
	return startTestServerOn(tb, dir, cfg, nil)
}

// startTestServerOn is startTestServer; setup, when set, changes the
// configuration once the engine is open (a binary log over it, say).
func startTestServerOn(tb testing.TB, dir string, cfg Config, setup func(*engine.Engine, *Config)) *testServer {
	tb.Helper()
	if dir == "" {
		dir = tb.TempDir()
	}
	e, err := engine.Open(engine.Options{Dir: dir, Durability: engine.DurabilityNone, CacheSize: 32 << 20})
	if err != nil {
		tb.Fatal(err)
	}
	if setup != nil {
		setup(e, &cfg)
	}
	if cfg.Address == "" {
		cfg.Address = "127.0.0.1:0"
	}
	s, err := New(e, cfg)
	if err != nil {
		e.Close()
		tb.Fatal(err)
	}
	if err := s.Start(); err != nil {
		tb.Fatal(err)
	}
	ts := &testServer{tb: tb, dir: dir, e: e, s: s, cfg: cfg}
	tb.Cleanup(ts.stop)
	return ts
}

// stop closes the server and the engine (idempotent).
func (ts *testServer) stop() {
	if ts.s != nil {
		ts.s.Close()
		ts.s = nil
	}
	if ts.e != nil {
		ts.e.Close()
		ts.e = nil
	}
}

// dsn returns a go-sql-driver DSN for user:password on database db.
func (ts *testServer) dsn(user, password, db string) string {
	return fmt.Sprintf("%s:%s@tcp(%s)/%s?interpolateParams=false&timeout=5s", user, password, ts.s.Addr().String(), db)
}

// open returns a pool connected as root (closed when the test ends).
func (ts *testServer) open(db string) *gosql.DB {
	ts.tb.Helper()
	d, err := gosql.Open("mysql", ts.dsn("root", ts.cfg.RootPassword, db))
	if err != nil {
		ts.tb.Fatal(err)
	}
	ts.tb.Cleanup(func() { d.Close() })
	return d
}

// conn returns one dedicated connection (for transactions and session
// state).
func (ts *testServer) conn(db string) *gosql.Conn {
	ts.tb.Helper()
	d := ts.open(db)
	c, err := d.Conn(context.Background())
	if err != nil {
		ts.tb.Fatal(err)
	}
	ts.tb.Cleanup(func() { c.Close() })
	return c
}

// rawConn returns a connection of vitess's MySQL client as root, which
// shows the bytes and field metadata the server sends (go-sql-driver
// converts numbers and dates); closed when the test ends.
func (ts *testServer) rawConn() *mysql.Conn {
	ts.tb.Helper()
	host, port, err := net.SplitHostPort(ts.s.Addr().String())
	if err != nil {
		ts.tb.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	c, err := mysql.Connect(context.Background(), &mysql.ConnParams{Host: host, Port: p, Uname: "root", Pass: ts.cfg.RootPassword})
	if err != nil {
		ts.tb.Fatal(err)
	}
	ts.tb.Cleanup(c.Close)
	return c
}

type execer interface {
	ExecContext(ctx context.Context, query string, args ...any) (gosql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*gosql.Rows, error)
}

// mustExec runs statements and fails the test on the first error.
func mustExec(tb testing.TB, db execer, stmts ...string) {
	tb.Helper()
	for _, s := range stmts {
		if _, err := db.ExecContext(context.Background(), s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
}

// queryRows returns every row of a query as strings ("NULL" for NULL),
// each row's values joined by "|".
func queryRows(tb testing.TB, db execer, q string, args ...any) []string {
	tb.Helper()
	rows, err := queryStrings(db, q, args...)
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	return rows
}

func queryStrings(db execer, q string, args ...any) ([]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rs, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return scanStrings(rs)
}

// scanStrings reads and closes rs, returning its rows as queryRows does.
func scanStrings(rs *gosql.Rows) ([]string, error) {
	defer rs.Close()
	return scanSet(rs)
}

// scanSet reads the rows of rs's current result set as queryRows returns
// them, leaving rs open (for NextResultSet).
func scanSet(rs *gosql.Rows) ([]string, error) {
	cols, err := rs.Columns()
	if err != nil {
		return nil, err
	}
	var out []string
	for rs.Next() {
		vals := make([]gosql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, err
		}
		parts := make([]string, len(cols))
		for i, v := range vals {
			if v == nil {
				parts[i] = "NULL"
			} else {
				parts[i] = string(v)
			}
		}
		out = append(out, strings.Join(parts, "|"))
	}
	return out, rs.Err()
}

// expectRows fails the test unless the query returns exactly want.
func expectRows(tb testing.TB, db execer, q string, want ...string) {
	tb.Helper()
	got := queryRows(tb, db, q)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		tb.Fatalf("%s:\n got: %q\nwant: %q", q, got, want)
	}
}

func openPool(dsn string) (*gosql.DB, error) { return gosql.Open("mysql", dsn) }

func joinLines(r []string) string { return strings.Join(r, "\n") }

// anchorFromEnv reads the MariaDB a golden file is recorded from,
// user:password@host:port, from the environment variable name; ok is
// false when it is not set (the test then compares with its golden
// file).
func anchorFromEnv(name string) (user, password, addr string, ok bool) {
	ref := os.Getenv(name)
	if ref == "" {
		return "", "", "", false
	}
	cred, addr, _ := strings.Cut(ref, "@")
	user, password, _ = strings.Cut(cred, ":")
	return user, password, addr, true
}

// anchorDB opens the MariaDB that anchorFromEnv(name) names, with one
// connection (so that USE holds), closed when the test ends; nil when
// name is not set.
func anchorDB(tb testing.TB, name string) *gosql.DB {
	user, pw, addr, ok := anchorFromEnv(name)
	if !ok {
		return nil
	}
	m, err := gosql.Open("mysql", fmt.Sprintf("%s:%s@tcp(%s)/", user, pw, addr))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { m.Close() })
	m.SetMaxOpenConns(1)
	return m
}

// writeGolden records out as the golden file path.
func writeGolden(tb testing.TB, path, out string) {
	tb.Helper()
	if err := os.WriteFile(path, []byte(out), 0o644); err != nil {
		tb.Fatal(err)
	}
	tb.Logf("recorded %s", path)
}
