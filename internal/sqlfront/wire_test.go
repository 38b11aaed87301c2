package sqlfront

import (
	"testing"

	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// go-sql-driver reprints numeric columns, so what MariaDB's own printing
// looks like on the wire is checked here (and by TestMariaDBClient).
func TestReformatValue(t *testing.T) {
	for _, c := range []struct {
		typ      querypb.Type
		decimals uint32
		in, want string
	}{
		{querypb.Type_FLOAT64, 0, "1e+20", "1e20"},
		{querypb.Type_FLOAT64, 0, "0.1", "0.1"},
		{querypb.Type_FLOAT64, 0, "1.5e-07", "0.00000015"},
		{querypb.Type_FLOAT64, 0, "1.5e-20", "1.5e-20"},
		{querypb.Type_FLOAT64, 0, "123456789012345680000", "1.2345678901234568e20"},
		{querypb.Type_FLOAT32, 0, "0.1", "0.1"},
		{querypb.Type_FLOAT32, 0, "3.4028235e+38", "3.40282e38"},
		{querypb.Type_DATETIME, 3, "2024-01-02 03:04:05", "2024-01-02 03:04:05.000"},
		{querypb.Type_DATETIME, 3, "2024-01-02 03:04:05.5", "2024-01-02 03:04:05.500"},
		{querypb.Type_DATETIME, 6, "2024-01-02 03:04:05.123456", "2024-01-02 03:04:05.123456"},
	} {
		f := &querypb.Field{Type: c.typ, Decimals: c.decimals}
		got := reformatValue(f, sqltypes.MakeTrusted(c.typ, []byte(c.in)), nil)
		if string(got.Raw()) != c.want {
			t.Errorf("%v %q: got %q, want %q", c.typ, c.in, got.Raw(), c.want)
		}
	}
}

func TestExplainStatement(t *testing.T) {
	for _, c := range []struct {
		q    string
		form explainForm
		ok   bool
		stmt string
	}{
		{"EXPLAIN SELECT 1", explainTraditional, true, "SELECT 1"},
		{"explain format=tree select * from t;", explainTree, true, "select * from t"},
		{"DESCRIBE SELECT a FROM b", explainTraditional, true, "SELECT a FROM b"},
		{"EXPLAIN PLAN UPDATE t SET a = 1", explainTree, true, "UPDATE t SET a = 1"},
		{"DESCRIBE t", 0, false, ""},
		{"EXPLAIN FORMAT=JSON SELECT 1", explainJSON, true, "SELECT 1"},
		{"explain format = json select 1", explainJSON, true, "select 1"},
		{"EXPLAIN FORMAT=XML SELECT 1", 0, false, ""},
		{"EXPLAIN SELECT 1; SELECT 2", 0, false, ""},
		{" \n\tAnalyze select 1", analyzeTraditional, true, "select 1"},
		{"\tdesc\nselect 2", explainTraditional, true, "select 2"},
		{"INSERT INTO t VALUES ('EXPLAIN SELECT 1')", 0, false, ""},
		{"EXPLAI", 0, false, ""},
	} {
		form, stmt, ok := explainStatement(c.q)
		if form != c.form || ok != c.ok || stmt != c.stmt {
			t.Errorf("%q: got (%v, %q, %v), want (%v, %q, %v)", c.q, form, stmt, ok, c.form, c.stmt, c.ok)
		}
	}
}
