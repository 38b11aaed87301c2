package gmstest

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/enginetest"
	"github.com/dolthub/go-mysql-server/enginetest/queries"
	"github.com/dolthub/go-mysql-server/enginetest/scriptgen/setup"
	"github.com/dolthub/go-mysql-server/sql"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
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
	expectedRows, expectedCols = mapDecimalAggregates(expectedRows, expectedCols, expectedSch, actualRows)
	enginetest.CheckResults(ctx, t, plainHarness{h}, mapRows(expectedRows), expectedCols, expectedSch, mapRows(actualRows), query, nil)
}

// mapDecimalAggregates reads go-mysql-server's float64 expectations as
// MySQL's DECIMAL where HandlerDB answers DECIMAL. MySQL (and HandlerDB,
// decimalagg.go) sums DECIMAL and integer arguments as DECIMAL and gives
// AVG four more decimals; go-mysql-server's expected rows hold float64
// there (6 for "6", 0.3333333333333333 for "0.3333"). In a column whose
// actual values are decimals of scale s, an expected float64 or integer
// becomes that number rounded to s decimals, so the check still fails on
// a wrong value (an expected 2.5 against an actual 2.4000, or a NULL),
// and the expected column type becomes DECIMAL when the actual one is.
func mapDecimalAggregates(expected []sql.Row, cols []*sql.Column, sch sql.Schema, actual []sql.Row) ([]sql.Row, []*sql.Column) {
	scale := map[int]int32{}
	for _, r := range actual {
		for j, v := range r {
			if d, ok := v.(decimal.Decimal); ok {
				if _, seen := scale[j]; !seen {
					scale[j] = -d.Exponent()
				}
			}
		}
	}
	if len(scale) == 0 {
		return expected, cols
	}
	mapped := make([]sql.Row, len(expected))
	for i, r := range expected {
		mapped[i] = make(sql.Row, len(r))
		for j, v := range r {
			if s, ok := scale[j]; ok {
				if f, ok := asFloat(v); ok {
					v = decimal.NewFromFloat(f).Round(s)
				}
			}
			mapped[i][j] = v
		}
	}
	if cols != nil {
		mc := make([]*sql.Column, len(cols))
		for j, c := range cols {
			mc[j] = c
			if _, ok := scale[j]; ok && j < len(sch) && gtypes.IsDecimal(sch[j].Type) && gtypes.IsFloat(c.Type) {
				cc := *c
				cc.Type = sch[j].Type
				mc[j] = &cc
			}
		}
		cols = mc
	}
	return mapped, cols
}

// asFloat returns an expected float or integer value as a float64.
func asFloat(v interface{}) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case float32:
		return float64(x), true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case int32:
		return float64(x), true
	case int8:
		return float64(x), true
	case uint64:
		return float64(x), true
	}
	return 0, false
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
				v = sortKeyLines(mapCollationName(s))
			}
			mapped[i][j] = v
		}
	}
	return mapped
}

// sortKeyLines sorts each run of index lines ("  KEY ...", "  UNIQUE KEY
// ...") of a CREATE TABLE text. HandlerDB prints them in MariaDB's order
// (unique keys first, then the others, each in creation order; the SQL
// corpus checks that order against MariaDB), go-mysql-server's expected
// texts sort them by name: the harness compares them as a set, every line
// still whole.
func sortKeyLines(s string) string {
	if !strings.HasPrefix(s, "CREATE TABLE") || !strings.Contains(s, "\n") {
		return s
	}
	isKey := func(l string) bool {
		return strings.HasPrefix(l, "  KEY ") || strings.HasPrefix(l, "  UNIQUE KEY ") ||
			strings.HasPrefix(l, "  FULLTEXT KEY ") || strings.HasPrefix(l, "  SPATIAL KEY ")
	}
	lines := strings.Split(s, "\n")
	for i := 0; i < len(lines); {
		if !isKey(lines[i]) {
			i++
			continue
		}
		j := i
		for j < len(lines) && isKey(lines[j]) {
			j++
		}
		run := lines[i:j]
		lastComma := strings.HasSuffix(run[len(run)-1], ",")
		for k := range run {
			run[k] = strings.TrimSuffix(run[k], ",")
		}
		sort.Strings(run)
		for k := range run {
			if k < len(run)-1 || lastComma {
				run[k] += ","
			}
		}
		i = j
	}
	return strings.Join(lines, "\n")
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
