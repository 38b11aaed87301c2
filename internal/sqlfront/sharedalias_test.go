package sqlfront

import (
	"slices"
	"strings"
	"testing"
)

// TestSubqueryEvaluatedOnce: a correlated scalar subquery of the select
// list is computed once per row (the result projection reads the column
// of the projection below it), with the same answers and column name.
func TestSubqueryEvaluatedOnce(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE sq", "USE sq",
		"CREATE TABLE s (id INT PRIMARY KEY, name VARCHAR(10))",
		"CREATE TABLE r (id INT PRIMARY KEY, sid INT, v INT, KEY (sid))",
		"INSERT INTO s VALUES (1,'b'),(2,'a'),(3,'c')",
		"INSERT INTO r VALUES (1,1,5),(2,1,9),(3,2,4)")
	for _, q := range []string{
		"SELECT s.name, (SELECT MAX(r.v) FROM r WHERE r.sid = s.id) AS top FROM s ORDER BY s.name",
		"SELECT s.name, (SELECT MAX(r.v) FROM r WHERE r.sid = s.id) AS top, (SELECT COUNT(*) FROM r WHERE r.sid = s.id) AS n FROM s ORDER BY s.name",
	} {
		plan := strings.Join(queryRows(t, c, "EXPLAIN FORMAT=TREE "+q), "\n")
		want := strings.Count(q, "(SELECT")
		if got := strings.Count(plan, "Subquery"); got != want {
			t.Errorf("%s: %d subqueries in the plan, want %d:\n%s", q, got, want, plan)
		}
	}
	rows, err := c.QueryContext(t.Context(), "SELECT s.name, (SELECT MAX(r.v) FROM r WHERE r.sid = s.id) AS top, (SELECT COUNT(*) FROM r WHERE r.sid = s.id) AS n FROM s ORDER BY s.name")
	if err != nil {
		t.Fatal(err)
	}
	cols, _ := rows.Columns()
	rows.Close()
	if !slices.Equal(cols, []string{"name", "top", "n"}) {
		t.Fatalf("columns %q", cols)
	}
	if got := queryRows(t, c, "SELECT s.name, (SELECT MAX(r.v) FROM r WHERE r.sid = s.id) AS top, (SELECT COUNT(*) FROM r WHERE r.sid = s.id) AS n FROM s ORDER BY s.name"); !slices.Equal(got, []string{"a|4|1", "b|9|2", "c|NULL|0"}) {
		t.Fatalf("rows %q", got)
	}
	// In a derived table, whose rows carry a column of the outer scope
	// before their own.
	if got := queryRows(t, c, "SELECT * FROM (SELECT r.v, (SELECT 1 WHERE r.v = 9) AS nine FROM s JOIN r ON r.sid = s.id) d ORDER BY v"); !slices.Equal(got, []string{"4|NULL", "5|NULL", "9|1"}) {
		t.Fatalf("derived table: rows %q", got)
	}
}
