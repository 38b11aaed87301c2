// Package gmstest runs go-mysql-server's reusable engine tests
// (enginetest) against HandlerDB's backend, through a harness that gives
// each test engine a fresh engine.Engine in a temporary directory.
package gmstest

import (
	"context"
	"os"
	"strings"
	"sync"
	"testing"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/enginetest"
	"github.com/dolthub/go-mysql-server/enginetest/scriptgen/setup"
	"github.com/dolthub/go-mysql-server/memory"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/information_schema"
	"github.com/dolthub/go-mysql-server/sql/variables"
	"github.com/sirupsen/logrus"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/mariadb"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

func TestMain(m *testing.M) {
	logrus.SetLevel(logrus.ErrorLevel)
	code := m.Run()
	skips.report(os.Stdout)
	os.Exit(code)
}

// harness is an enginetest.Harness over HandlerDB's backend.
type harness struct {
	t       *testing.T
	mu      sync.Mutex
	e       *engine.Engine
	p       *sqlbackend.Provider
	open    []*engine.Engine // engines still open, oldest first
	setup   []setup.SetupScript
	session *sqlbackend.Session
	skips   *skipList
}

var (
	_ enginetest.Harness             = (*harness)(nil)
	_ enginetest.SkippingHarness     = (*harness)(nil)
	_ enginetest.IndexHarness        = (*harness)(nil)
	_ enginetest.KeylessTableHarness = (*harness)(nil)
	_ enginetest.TransactionHarness  = (*harness)(nil)
	_ enginetest.ClientHarness       = (*harness)(nil)
	_ enginetest.ForeignKeyHarness   = (*harness)(nil)
)

// keepOpen is how many test engines stay open: enginetest may still use
// the previous engine while it builds the next one.
const keepOpen = 3

func newHarness(t *testing.T, skips *skipList) *harness {
	// System variables are process-wide: each suite starts from the
	// defaults, not from what an earlier suite (or run, with -count) SET.
	variables.InitSystemVariables()
	h := &harness{t: t, skips: skips}
	t.Cleanup(func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, e := range h.open {
			e.Close()
		}
		h.open = nil
	})
	return h
}

// reset opens a fresh engine in a new temporary directory.
func (h *harness) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	// go-mysql-server's tests expect its case-sensitive default collation
	// (utf8mb4_0900_bin); the closest HandlerDB has is utf8mb4_bin.
	e, err := engine.Open(engine.Options{Dir: h.t.TempDir(), Durability: engine.DurabilityNone,
		CacheSize: 8 << 20, DefaultCollation: collation.Utf8mb4Bin})
	if err != nil {
		h.t.Fatal(err)
	}
	h.open = append(h.open, e)
	for len(h.open) > keepOpen {
		h.open[0].Close()
		h.open = h.open[1:]
	}
	h.e, h.p, h.session = e, sqlbackend.NewProvider(e), nil
}

func (h *harness) provider() *sqlbackend.Provider {
	if h.p == nil {
		h.reset()
	}
	return h.p
}

// NewContext returns a context over the harness' current session.
func (h *harness) NewContext() *sql.Context {
	p := h.provider()
	if h.session == nil {
		h.session = p.NewSession(enginetest.NewBaseSession())
	}
	return sql.NewContext(context.Background(), sql.WithSession(h.session))
}

// NewSession starts a new session and returns a context over it.
func (h *harness) NewSession() *sql.Context {
	h.session = h.provider().NewSession(enginetest.NewBaseSession())
	return h.NewContext()
}

// NewContextWithClient returns a context over a new session of client.
func (h *harness) NewContextWithClient(client sql.Client) *sql.Context {
	base := sql.NewBaseSessionWithClientServer("address", client, 1)
	return sql.NewContext(context.Background(), sql.WithSession(h.provider().NewSession(base)))
}

// Setup records the setup scripts of the next engines.
func (h *harness) Setup(scripts ...[]setup.SetupScript) {
	h.setup = nil
	for _, s := range scripts {
		h.setup = append(h.setup, s...)
	}
}

// NewEngine returns an engine over a fresh store holding exactly the
// setup data.
func (h *harness) NewEngine(t *testing.T) (enginetest.QueryEngine, error) {
	h.reset()
	a := mariadb.NewAnalyzer(h.p)
	a.Catalog.MySQLDb.AddRootAccount()
	a.Catalog.InfoSchema = information_schema.NewInformationSchemaDatabase()
	se := sqle.New(a, new(sqle.Config))
	a.Runner = se
	se.Analyzer.Catalog.StatsProvider = memory.NewStatsProv()
	scripts := h.setup
	if len(scripts) == 0 {
		scripts = setup.MydbData
	}
	ctx := enginetest.NewContext(h)
	skipped := false
	for _, script := range scripts {
		for _, q := range script {
			qctx := ctx.WithQuery(q)
			_, iter, _, err := se.Query(qctx, q)
			if err == nil {
				_, err = sql.RowIterToRows(qctx, iter)
			}
			if err != nil {
				if reason := unsupportedSetup(err); reason != "" {
					h.failedSetup(q, reason)
					skipped = true
					continue
				}
				if skipped && (sql.ErrTableNotFound.Is(err) || strings.Contains(err.Error(), "table not found")) {
					h.failedSetup(q, "table of a skipped statement")
					continue
				}
				return nil, err
			}
		}
	}
	h.session = nil
	return se, nil
}

// setupFailures records the setup statements that failed for a feature
// HandlerDB does not claim (reported by TestMain's caller through -v).
var setupFailures sync.Map // statement -> reason

func (h *harness) failedSetup(q, reason string) {
	if _, loaded := setupFailures.LoadOrStore(q, reason); !loaded {
		h.t.Logf("setup statement skipped (%s): %.120s", reason, q)
	}
}

// unsupportedSetup returns why a setup statement failed when the cause is
// a feature HandlerDB does not claim, or "".
func unsupportedSetup(err error) string {
	msg := strings.ToLower(err.Error())
	for _, r := range []struct{ substr, reason string }{
		{"foreign key", "foreign keys"},
		{"unsupported feature", "unsupported feature"},
		{"fulltext", "full-text indexes"},
		{"spatial", "spatial indexes"},
	} {
		if strings.Contains(msg, r.substr) {
			return r.reason + ": " + err.Error()
		}
	}
	return ""
}

// SkipQueryTest reports whether a query (or script name) is skipped.
func (h *harness) SkipQueryTest(query string) bool { return h.skips.skip(query) }

// SupportsNativeIndexCreation is true: CREATE INDEX builds engine indexes.
func (h *harness) SupportsNativeIndexCreation() bool { return true }

// SupportsKeylessTables is true: tables without a primary key get a
// hidden row id.
func (h *harness) SupportsKeylessTables() bool { return true }

// SupportsForeignKeys is true: SQL writes enforce foreign keys.
func (h *harness) SupportsForeignKeys() bool { return true }
