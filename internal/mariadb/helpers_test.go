package mariadb

import (
	"os"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/sirupsen/logrus"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/sqltest"
)

func TestMain(m *testing.M) {
	logrus.SetLevel(logrus.ErrorLevel)
	os.Exit(m.Run())
}

// newTestBackend opens the backend over a new engine with this package's
// analyzer; it is closed when the test ends.
func newTestBackend(tb testing.TB) *sqltest.Backend {
	tb.Helper()
	return sqltest.New(tb, func(e *engine.Engine) (sql.DatabaseProvider, *analyzer.Analyzer, func(*sql.BaseSession) sql.Session) {
		p := sqlbackend.NewProvider(e)
		return p, NewAnalyzer(p), func(base *sql.BaseSession) sql.Session { return p.NewSession(base) }
	})
}
