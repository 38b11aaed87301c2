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
	// In a view, whose plan is analysed on its own: the statement's text
	// has no nested SELECT.
	mustExec(t, c, "CREATE VIEW tops AS SELECT s.name, (SELECT MAX(r.v) FROM r WHERE r.sid = s.id) AS top FROM s")
	const vq = "SELECT name, top FROM tops ORDER BY name"
	if got := queryRows(t, c, vq); !slices.Equal(got, []string{"a|4", "b|9", "c|NULL"}) {
		t.Fatalf("view: rows %q", got)
	}
	plan := strings.Join(queryRows(t, c, "EXPLAIN FORMAT=TREE "+vq), "\n")
	if got := strings.Count(plan, "Subquery\n") + strings.Count(plan, "Subquery|"); got != 1 {
		t.Errorf("view: %d subqueries in the plan, want 1:\n%s", got, plan)
	}
}

// TestSubqueryMemo: a correlated subquery answers rows with the same
// outer values from its memo, and a reused plan forgets the memo of its
// last run (the rows changed outside SQL in between).
func TestSubqueryMemo(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE sm", "USE sm",
		"CREATE TABLE r (id INT PRIMARY KEY, sid INT, v INT, KEY (sid))",
		"INSERT INTO r VALUES (1,1,5),(2,1,9),(3,2,4),(4,2,6),(5,3,NULL)")
	const q = "SELECT r.id, (SELECT MAX(r2.v) FROM r r2 WHERE r2.sid = r.sid) AS top FROM r WHERE r.v IS NULL OR r.v < (SELECT MAX(r3.v) FROM r r3 WHERE r3.sid = r.sid) ORDER BY r.id"
	want := []string{"1|9", "3|6", "5|NULL"}
	for range 2 {
		if got := queryRows(t, c, q); !slices.Equal(got, want) {
			t.Fatalf("rows %q, want %q", got, want)
		}
	}
	pc := &ts.s.mh.plans
	gen := pc.gen.Load()
	mustExec(t, c, "UPDATE r SET v = 20 WHERE id = 3")
	pc.gen.Store(gen)
	hits := pc.Hits.Load()
	if got := queryRows(t, c, q); !slices.Equal(got, []string{"1|9", "4|20", "5|NULL"}) {
		t.Fatalf("after the change: rows %q", got)
	}
	if pc.Hits.Load() != hits+1 {
		t.Fatalf("the plan was not reused")
	}
}
