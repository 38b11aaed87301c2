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
	// One prepared statement executed again after a write: the weights
	// follow the table (5 rows, 3 with fox: log10(5/3)^2 per occurrence).
	st, err := db.Prepare("SELECT MATCH (body) AGAINST (?) FROM ft.d WHERE id = 3")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rel := func() float64 {
		t.Helper()
		var r float64
		if err := st.QueryRow("fox").Scan(&r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := rel(); fmt.Sprintf("%.6f", r) != "0.181238" {
		t.Errorf("prepared, before the write: %.6f", r)
	}
	if _, err := db.Exec("INSERT INTO ft.d VALUES (5, 'fox')"); err != nil {
		t.Fatal(err)
	}
	if r := rel(); fmt.Sprintf("%.6f", r) != "0.098434" {
		t.Errorf("prepared, after the write: %.6f, want 2*log10(5/3)^2", r)
	}
	if _, err := db.Query("SELECT id FROM ft.d WHERE MATCH (id) AGAINST (?)", "fox"); err == nil || !strings.Contains(err.Error(), "1191") {
		t.Errorf("MATCH on a column without a FULLTEXT index: %v, want 1191", err)
	}
	if _, err := db.Query("SELECT id FROM ft.d WHERE MATCH (body) AGAINST ('fox' WITH QUERY EXPANSION)"); err == nil || !strings.Contains(err.Error(), "1235") {
		t.Errorf("WITH QUERY EXPANSION: %v, want 1235", err)
	}
}

// A geometry column reads the same bytes through the text protocol, a
// prepared statement and the point fast path (the second execution of a
// primary-key SELECT).
func TestGeometryPrepared(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	for _, q := range []string{
		"CREATE DATABASE gp",
		"CREATE TABLE gp.t (id INT PRIMARY KEY, g GEOMETRY, p POINT NOT NULL)",
		"INSERT INTO gp.t VALUES (1, ST_GeomFromText('LINESTRING(0 0,1 2)'), POINT(3, 4)), (2, NULL, POINT(-1, 0.5))",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	get := func(q string, args ...any) string {
		t.Helper()
		var g, p []byte
		if err := db.QueryRow(q, args...).Scan(&g, &p); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return fmt.Sprintf("%x %x", g, p)
	}
	for _, id := range []int{1, 2} {
		text := get(fmt.Sprintf("SELECT g, p FROM gp.t WHERE id = %d", id))
		for i := 0; i < 3; i++ {
			if prep := get("SELECT g, p FROM gp.t WHERE id = ?", id); prep != text {
				t.Errorf("id %d, execution %d: prepared %s, text %s", id, i+1, prep, text)
			}
		}
		// SRID 0, then the WKB of LINESTRING(0 0,1 2) and POINT(3 4).
		if want := "0000000001020000000200000000000000000000000000000000000000000000000000f03f0000000000000040 00000000010100000000000000000008400000000000001040"; id == 1 && text != want {
			t.Errorf("id 1: %s, want %s", text, want)
		}
	}
}
