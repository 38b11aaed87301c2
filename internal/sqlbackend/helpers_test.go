package sqlbackend

import (
	"os"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/sirupsen/logrus"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/sqltest"
)

func TestMain(m *testing.M) {
	logrus.SetLevel(logrus.ErrorLevel)
	os.Exit(m.Run())
}

// TestAnalyzer builds the analyzer of a test backend: the MariaDB
// dialect's, which this package cannot import (its rules are registered
// over the backend); dialect_test.go sets it from the external test
// package.
var TestAnalyzer func(sql.DatabaseProvider) *analyzer.Analyzer

type TestBackend = sqltest.Backend

// newTestBackend opens a backend over a new engine with the dialect's
// analyzer; it is closed when the test ends.
func NewTestBackend(tb testing.TB) *TestBackend {
	tb.Helper()
	return sqltest.New(tb, func(e *engine.Engine) (sql.DatabaseProvider, *analyzer.Analyzer, func(*sql.BaseSession) sql.Session) {
		p := NewProvider(e)
		return p, TestAnalyzer(p), func(base *sql.BaseSession) sql.Session { return p.NewSession(base) }
	})
}
