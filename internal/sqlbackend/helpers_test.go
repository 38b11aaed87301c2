package sqlbackend

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/sirupsen/logrus"

	"github.com/handlerdb/handlerdb/internal/engine"
)

func TestMain(m *testing.M) {
	logrus.SetLevel(logrus.ErrorLevel)
	os.Exit(m.Run())
}

// testBackend is a go-mysql-server engine over the backend of an engine
// in a fresh temporary directory, with no listener (the tests of the
// whole server, over the MySQL protocol, are sqlfront's).
type testBackend struct {
	e  *engine.Engine
	p  *Provider
	se *sqle.Engine
}

// newTestBackend opens one; it is closed when the test ends.
func newTestBackend(tb testing.TB) *testBackend {
	tb.Helper()
	e, err := engine.Open(engine.Options{Dir: tb.TempDir(), Durability: engine.DurabilityNone, CacheSize: 8 << 20})
	if err != nil {
		tb.Fatal(err)
	}
	p := NewProvider(e)
	b := &testBackend{e: e, p: p, se: sqle.New(NewAnalyzer(p), &sqle.Config{})}
	tb.Cleanup(func() {
		b.se.Close()
		e.Close()
	})
	return b
}

// session returns a context over a new session (autocommit, no database).
func (b *testBackend) session() *sql.Context {
	return sql.NewContext(context.Background(), sql.WithSession(b.p.NewSession(sql.NewBaseSession())))
}

// query runs q in the session of ctx and returns its rows, each row's
// values printed with %v ("NULL" for NULL) and joined by "|".
func (b *testBackend) query(ctx *sql.Context, q string) ([]string, error) {
	qctx := ctx.WithQuery(q)
	_, iter, _, err := b.se.Query(qctx, q)
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

// mustExec runs statements and fails the test on the first error.
func (b *testBackend) mustExec(tb testing.TB, ctx *sql.Context, stmts ...string) {
	tb.Helper()
	for _, s := range stmts {
		if _, err := b.query(ctx, s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
}

// expectRows fails the test unless the query returns exactly want.
func (b *testBackend) expectRows(tb testing.TB, ctx *sql.Context, q string, want ...string) {
	tb.Helper()
	got, err := b.query(ctx, q)
	if err != nil {
		tb.Fatalf("%s: %v", q, err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		tb.Fatalf("%s:\n got: %q\nwant: %q", q, got, want)
	}
}
