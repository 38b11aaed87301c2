package gmstest

import (
	"context"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/enginetest"
	"github.com/dolthub/go-mysql-server/enginetest/queries"
	"github.com/dolthub/go-mysql-server/enginetest/scriptgen/setup"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/stretchr/testify/require"
	"gopkg.in/src-d/go-errors.v1"
)

// The harness evaluates results itself for one reason: go-mysql-server's
// expected results name its default collation, utf8mb4_0900_bin, which
// HandlerDB (like MariaDB) does not have; the harness configures
// utf8mb4_bin, the closest, and reads that name as utf8mb4_bin in expected
// and actual results (the latter for go-mysql-server's session collation). Everything else is compared by enginetest's own checks.

var _ enginetest.ResultEvaluationHarness = (*harness)(nil)

// plainHarness hides the harness' result evaluation from enginetest's
// default checks, which it delegates to.
type plainHarness struct{ h *harness }

func (p plainHarness) NewContext() *sql.Context       { return p.h.NewContext() }
func (p plainHarness) Setup(s ...[]setup.SetupScript) { p.h.Setup(s...) }
func (p plainHarness) NewEngine(t *testing.T) (enginetest.QueryEngine, error) {
	return p.h.NewEngine(t)
}

// EvaluateQueryResults compares results with the collation name mapped.
func (h *harness) EvaluateQueryResults(t *testing.T, expectedRows []sql.Row, expectedCols []*sql.Column, expectedSch sql.Schema, actualRows []sql.Row, query string, wrap queries.WrapBehavior) {
	t.Helper()
	// A context of its own: the harness' shared session must keep its
	// current database.
	ctx := sql.NewContext(context.Background(), sql.WithSession(h.provider().NewSession(enginetest.NewBaseSession())))
	enginetest.CheckResults(ctx, t, plainHarness{h}, mapRows(expectedRows), expectedCols, expectedSch, mapRows(actualRows), query, nil)
}

// mapCollationName maps go-mysql-server's default collation to HandlerDB's
// closest, and drops the COLLATE clause go-mysql-server adds to column
// types whose collation is not its default.
func mapCollationName(s string) string {
	s = strings.ReplaceAll(s, "utf8mb4_0900_bin", "utf8mb4_bin")
	return strings.ReplaceAll(s, " COLLATE utf8mb4_bin", "")
}

// mapRows returns rows with the collation name mapped in string values.
func mapRows(rows []sql.Row) []sql.Row {
	mapped := make([]sql.Row, len(rows))
	for i, r := range rows {
		mapped[i] = make(sql.Row, len(r))
		for j, v := range r {
			if s, ok := v.(string); ok {
				v = mapCollationName(s)
			}
			mapped[i][j] = v
		}
	}
	return mapped
}

// EvaluateExpectedError compares error texts with the collation name mapped.
func (h *harness) EvaluateExpectedError(t *testing.T, expected string, err error) {
	t.Helper()
	require.Equal(t, mapCollationName(expected), err.Error())
}

// EvaluateExpectedErrorKind checks an error's kind.
func (h *harness) EvaluateExpectedErrorKind(t *testing.T, expected *errors.Kind, err error) {
	t.Helper()
	require.True(t, expected.Is(err), "Expected error of type %s but got %s", expected, err)
}
