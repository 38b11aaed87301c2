package sqlbackend_test

import (
	"github.com/handlerdb/handlerdb/internal/mariadb"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// The backend's tests run SQL through the MariaDB dialect's analyzer, as
// the server does; the dialect imports the backend, so it is handed over
// from this external test package (helpers_test.go).
func init() { sqlbackend.TestAnalyzer = mariadb.NewAnalyzer }
