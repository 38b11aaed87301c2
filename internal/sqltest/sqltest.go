// Package sqltest is the fixture the SQL packages' tests share: a
// go-mysql-server engine over a backend of an engine in a fresh temporary
// directory, with no listener (the tests of the whole server, over the
// MySQL protocol, are sqlfront's). It imports neither the backend nor the
// dialect, so that both can use it in their own package's tests: the
// caller builds the provider and the analyzer.
//
// A Backend is closed when its test ends; its sessions serve one
// goroutine each, as go-mysql-server's do.
package sqltest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Build makes the provider over e and the analyzer over it; newSession
// makes a session of that provider over a base session.
type Build func(e *engine.Engine) (p sql.DatabaseProvider, a *analyzer.Analyzer, newSession func(*sql.BaseSession) sql.Session)

// Backend is one engine with go-mysql-server over it.
type Backend struct {
	E          *engine.Engine
	P          sql.DatabaseProvider
	SE         *sqle.Engine
	newSession func(*sql.BaseSession) sql.Session
}

// New opens a Backend over a new engine; it is closed when tb ends.
func New(tb testing.TB, build Build) *Backend {
	tb.Helper()
	e, err := engine.Open(engine.Options{Dir: tb.TempDir(), Durability: engine.DurabilityNone, CacheSize: 8 << 20})
	if err != nil {
		tb.Fatal(err)
	}
	p, a, newSession := build(e)
	b := &Backend{E: e, P: p, SE: sqle.New(a, &sqle.Config{}), newSession: newSession}
	tb.Cleanup(func() {
		b.SE.Close()
		e.Close()
	})
	return b
}

// Session returns a context over a new session (autocommit, no database).
func (b *Backend) Session() *sql.Context {
	return sql.NewContext(context.Background(), sql.WithSession(b.newSession(sql.NewBaseSession())))
}

// Query runs q in the session of ctx and returns its rows, each row's
// values printed with %v ("NULL" for NULL) and joined by "|".
func (b *Backend) Query(ctx *sql.Context, q string) ([]string, error) {
	qctx := ctx.WithQuery(q)
	_, iter, _, err := b.SE.Query(qctx, q)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(qctx, iter)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rows))
	for i, r := range rows {
		parts := make([]string, len(r))
		for j, v := range r {
			parts[j] = "NULL"
			if v != nil {
				parts[j] = fmt.Sprint(v)
			}
		}
		out[i] = strings.Join(parts, "|")
	}
	return out, nil
}

// MustExec runs statements and fails the test on the first error.
func (b *Backend) MustExec(tb testing.TB, ctx *sql.Context, stmts ...string) {
	tb.Helper()
	for _, s := range stmts {
		if _, err := b.Query(ctx, s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
}

// ExpectRows fails the test unless the query returns exactly want.
func (b *Backend) ExpectRows(tb testing.TB, ctx *sql.Context, q string, want ...string) {
	tb.Helper()
	got, err := b.Query(ctx, q)
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		tb.Fatalf("%s:\n got: %q\nwant: %q", q, got, want)
	}
}

// PlanOf returns the analyzed plan of q as go-mysql-server describes it.
func (b *Backend) PlanOf(tb testing.TB, ctx *sql.Context, q string) string {
	tb.Helper()
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(q), q)
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	return sql.Describe(n, sql.DescribeOptions{Plan: true})
}
