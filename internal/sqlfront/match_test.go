package sqlfront

import (
	"fmt"
	"strings"
	"testing"
)

// MATCH ... AGAINST answers a prepared statement (the search string a
// parameter, as go-sql-driver sends it with interpolateParams=false) as it
// answers the same text, relevance included, and keeps refusing columns
// without a FULLTEXT index.
func TestMatchPrepared(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	for _, q := range []string{
		"CREATE DATABASE ft",
		"CREATE TABLE ft.d (id INT PRIMARY KEY, body TEXT, FULLTEXT KEY fb (body))",
		"INSERT INTO ft.d VALUES (1, 'a quick fox'), (2, 'a lazy dog'), (3, 'fox and fox'), (4, NULL)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	rows := func(q string, args ...any) string {
		t.Helper()
		r, err := db.Query(q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer r.Close()
		var out []string
		for r.Next() {
			var id int
			var rel float64
			if err := r.Scan(&id, &rel); err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%d:%.6f", id, rel))
		}
		if err := r.Err(); err != nil {
			t.Fatal(err)
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct{ mode, search string }{{"", "fox"}, {" IN BOOLEAN MODE", "+fox -quick"}, {" IN BOOLEAN MODE", "do*"}} {
		text := rows(fmt.Sprintf("SELECT id, MATCH (body) AGAINST ('%s'%s) FROM ft.d WHERE MATCH (body) AGAINST ('%s'%s) ORDER BY id", c.search, c.mode, c.search, c.mode))
		prep := rows(fmt.Sprintf("SELECT id, MATCH (body) AGAINST (?%s) FROM ft.d WHERE MATCH (body) AGAINST (?%s) ORDER BY id", c.mode, c.mode), c.search, c.search)
		if text == "" || text != prep {
			t.Errorf("%q%s: text %q, prepared %q", c.search, c.mode, text, prep)
		}
	}
	// fox: 2 of 4 rows hold it, so each occurrence weighs log10(4/2)^2.
	if got, want := rows("SELECT id, MATCH (body) AGAINST (?) FROM ft.d WHERE MATCH (body) AGAINST (?) ORDER BY id", "fox", "fox"), "1:0.090619 3:0.181238"; got != want {
		t.Errorf("fox: %q, want %q", got, want)
	}
	if _, err := db.Query("SELECT id FROM ft.d WHERE MATCH (id) AGAINST (?)", "fox"); err == nil || !strings.Contains(err.Error(), "1191") {
		t.Errorf("MATCH on a column without a FULLTEXT index: %v, want 1191", err)
	}
	if _, err := db.Query("SELECT id FROM ft.d WHERE MATCH (body) AGAINST ('fox' WITH QUERY EXPANSION)"); err == nil || !strings.Contains(err.Error(), "1235") {
		t.Errorf("WITH QUERY EXPANSION: %v, want 1235", err)
	}
}
