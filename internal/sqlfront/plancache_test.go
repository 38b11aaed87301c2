package sqlfront

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// TestPlanCache runs SELECTs twice on one connection and checks that the
// second run comes from the plan cache with the answer of the data as it
// is then, and that DDL, DML, SET and a view's change are seen.
func TestPlanCache(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE pc", "USE pc",
		"CREATE TABLE o (id INT PRIMARY KEY, st VARCHAR(10))",
		"CREATE TABLE i (oid INT, line INT, qty INT, PRIMARY KEY (oid, line))",
		"INSERT INTO o VALUES (1,'a'),(2,'b')",
		"INSERT INTO i VALUES (1,1,5),(1,2,6),(2,1,7)")
	pc := &ts.s.mh.plans
	const join = "SELECT o.id, o.st, i.line, i.qty FROM o JOIN i ON i.oid = o.id WHERE o.id = 1 ORDER BY i.line"
	check := func(q string, want ...string) {
		t.Helper()
		if got := queryRows(t, c, q); !slices.Equal(got, want) {
			t.Fatalf("%s: got %q, want %q", q, got, want)
		}
	}
	hits := pc.Hits.Load()
	check(join, "1|a|1|5", "1|a|2|6")
	check(join, "1|a|1|5", "1|a|2|6")
	if pc.Hits.Load() != hits+1 {
		t.Fatalf("second run: %d hits, want 1", pc.Hits.Load()-hits)
	}
	// A write through HandlerSocket-like paths does not bump the
	// generation; the plan still reads the rows of the moment.
	mustExec(t, c, "UPDATE i SET qty = 50 WHERE oid = 1 AND line = 1")
	check(join, "1|a|1|50", "1|a|2|6")
	check(join, "1|a|1|50", "1|a|2|6")
	// A write that does not pass through SQL (HandlerSocket's) leaves
	// the plans in place: a reused hash join hashes the rows anew.
	mustExec(t, c, "CREATE TABLE h1 (id INT PRIMARY KEY, k INT)", "CREATE TABLE h2 (id INT PRIMARY KEY, k INT, v VARCHAR(5))",
		"INSERT INTO h1 VALUES (1,10),(2,20)", "INSERT INTO h2 VALUES (1,10,'x'),(2,30,'y')")
	const hash = "SELECT /*+ HASH_JOIN(h1,h2) */ h1.id, h2.v FROM h1 JOIN h2 ON h2.k = h1.k ORDER BY h1.id"
	if plan := strings.Join(queryRows(t, c, "EXPLAIN FORMAT=TREE "+hash), "\n"); !strings.Contains(plan, "HashLookup") {
		t.Fatalf("no hash join:\n%s", plan)
	}
	check(hash, "1|x")
	hits = pc.Hits.Load()
	check(hash, "1|x")
	gen := pc.gen.Load()
	mustExec(t, c, "UPDATE h1 SET k = 40 WHERE id = 2", "UPDATE h2 SET k = 40 WHERE id = 2")
	pc.gen.Store(gen)
	check(hash, "1|x", "2|y")
	if pc.Hits.Load() != hits+2 {
		t.Fatalf("hash join: %d hits, want 2", pc.Hits.Load()-hits)
	}
	// A correlated subquery runs its plan per row and keeps nothing: its
	// plan is reused, and reads the rows of the moment.
	const corr = "SELECT o.id, (SELECT MAX(i.qty) FROM i WHERE i.oid = o.id) AS top FROM o ORDER BY o.id"
	check(corr, "1|50", "2|7")
	hits = pc.Hits.Load()
	gen = pc.gen.Load()
	mustExec(t, c, "UPDATE i SET qty = 70 WHERE oid = 2")
	pc.gen.Store(gen)
	check(corr, "1|50", "2|70")
	if pc.Hits.Load() != hits+1 {
		t.Fatalf("correlated subquery: %d hits, want 1", pc.Hits.Load()-hits)
	}
	// DDL changes the plan.
	mustExec(t, c, "ALTER TABLE o ADD COLUMN x INT DEFAULT 9")
	check("SELECT * FROM o WHERE id = 2", "2|b|9")
	mustExec(t, c, "ALTER TABLE o DROP COLUMN x")
	check("SELECT * FROM o WHERE id = 2", "2|b")
	// A view redefined.
	mustExec(t, c, "CREATE VIEW v AS SELECT id FROM o")
	check("SELECT * FROM v ORDER BY id", "1", "2")
	mustExec(t, c, "CREATE OR REPLACE VIEW v AS SELECT id * 10 AS id FROM o")
	check("SELECT * FROM v ORDER BY id", "10", "20")
	// A setting the analysis applies.
	check("SELECT id FROM o ORDER BY id", "1", "2")
	mustExec(t, c, "SET sql_select_limit = 1")
	check("SELECT id FROM o ORDER BY id", "1")
	mustExec(t, c, "SET sql_select_limit = DEFAULT")
	check("SELECT id FROM o ORDER BY id", "1", "2")
	// Another database of the same text.
	mustExec(t, c, "CREATE DATABASE pc2", "CREATE TABLE pc2.o (id INT PRIMARY KEY, st VARCHAR(10))", "INSERT INTO pc2.o VALUES (7,'z')", "USE pc2")
	check("SELECT id FROM o ORDER BY id", "7")
	// A subquery's plan is not kept (its results are cached in it).
	hits = pc.Hits.Load()
	check("SELECT id FROM o WHERE id = (SELECT MAX(id) FROM o)", "7")
	check("SELECT id FROM o WHERE id = (SELECT MAX(id) FROM o)", "7")
	if pc.Hits.Load() != hits {
		t.Fatalf("a subquery's plan was reused")
	}
}

// TestRunOnce: a SELECT the cache may not keep (user variables, the time)
// is analyzed and run once on the connection's goroutine (runBound), and
// answers as the ordinary path: a user variable assigned per row counts
// every row once, NOW() is the statement's, and one that raised a warning
// in its analysis, or reads a system schema, takes the ordinary path.
func TestRunOnce(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE ro", "USE ro", "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(5))",
		"INSERT INTO t VALUES (1,'a'),(2,'b'),(3,'c')", "SET @n := 0")
	pc := &ts.s.mh.plans
	check := func(q string, once bool, want ...string) {
		t.Helper()
		bound := pc.Bound.Load()
		if got := queryRows(t, c, q); !slices.Equal(got, want) {
			t.Fatalf("%s: got %q, want %q", q, got, want)
		}
		if ran := pc.Bound.Load() != bound; ran != once {
			t.Fatalf("%s: ran once through runBound %v, want %v", q, ran, once)
		}
	}
	check("SELECT @n := @n + 1, v FROM t ORDER BY id", true, "1|a", "2|b", "3|c")
	check("SELECT @n", true, "3")
	check("SELECT @n := @n + 1, v FROM t WHERE id > 1 ORDER BY id", true, "4|b", "5|c")
	check("SELECT NOW() = NOW(), @n", true, "1|5")
	check("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'ro'", false, "1")
	check("SELECT v INTO @w FROM t WHERE id = 2", false)
	check("SELECT @w", true, "b")
}

// A client that allows several statements a packet (CLIENT_MULTI_STATEMENTS,
// as the mariadb CLI and mysqlclient do) sends its SELECTs through
// COM_QUERY's multi-statement path: a text of one statement (a ';' in a
// string or comment, or only at its end, aside) runs from the plan cache;
// a text of two runs both.
func TestPlanCacheMultiStatements(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE pm", "CREATE TABLE pm.t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO pm.t VALUES (1, 'a;b'), (2, 'c')")
	db, err := openPool(ts.dsn("root", "", "pm") + "&multiStatements=true")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	pc := &ts.s.mh.plans
	for _, c := range []struct {
		q      string
		want   []string
		cached bool
	}{
		{"SELECT v FROM t WHERE v = 'a;b'", []string{"a;b"}, true},
		{"SELECT id FROM t /* ; */ ORDER BY id;", []string{"1", "2"}, true},
		{"SELECT id FROM t WHERE v = \"c\" ;; ", []string{"2"}, true},
		{"SELECT id FROM t WHERE id = 1; SELECT id FROM t WHERE id = 2", []string{"1"}, false},
	} {
		for run := 0; run < 3; run++ {
			hits := pc.Hits.Load()
			if got := queryRows(t, db, c.q); joinLines(got) != joinLines(c.want) {
				t.Fatalf("%s: %q, want %q", c.q, got, c.want)
			}
			if hit := pc.Hits.Load() > hits; run > 0 && hit != c.cached {
				t.Errorf("%s (run %d): from the plan cache %v, want %v", c.q, run, hit, c.cached)
			}
		}
	}
	if !singleStatement("SELECT 'it''s; fine', `a;b` FROM t;") || singleStatement("SELECT 1; DROP TABLE t") || singleStatement("SELECT 'open") {
		t.Error("singleStatement misreads a text")
	}
}

// TestWordSetMatchesSearch compares wordSet's one-pass search with a
// search for each word in turn (sqlbackend.ContainsFold) over random
// texts made of the words' pieces in both cases, and each word's
// exception.
func TestWordSetMatchesSearch(t *testing.T) {
	words := []string{"@", "into", "for update", "now", "cur", "sys.", "sql_", "user", "utc_"}
	ws := newWordSet(words...)
	pieces := []string{"@", "in", "to", "INTO", "for", " ", "upd", "ate", "NoW", "cu", "R", "sys", ".", "SQL", "_", "us", "er", "x", "utc"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		var b strings.Builder
		for range rng.IntN(12) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		text := b.String()
		for _, except := range append([]string{""}, words...) {
			want := false
			for _, w := range words {
				if w != except && sqlbackend.ContainsFold(text, w) {
					want = true
				}
			}
			if got := ws.in(text, except); got != want {
				t.Fatalf("in(%q, except %q) = %v, want %v", text, except, got, want)
			}
		}
	}
}

// TestPlanCacheUserVariables: a SELECT reading a user variable is kept
// (go-mysql-server folds a variable in a filter into a literal, so the
// plan's key holds the session's count of assignments): it answers from
// the cache while no variable changes, and with the new value after any
// assignment — SET, :=, SELECT ... INTO, a stored function's SET, on the
// session; another session's variables are its own.
func TestPlanCacheUserVariables(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE uv", "USE uv", "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1),(2),(3),(4)",
		"CREATE FUNCTION setv(x INT) RETURNS INT DETERMINISTIC BEGIN SET @v = x; RETURN x; END",
		"SET @v = 1")
	pc := &ts.s.mh.plans
	const q = "SELECT id FROM t WHERE id > @v ORDER BY id"
	expectRows(t, c, q, "2", "3", "4")
	hits := pc.Hits.Load()
	expectRows(t, c, q, "2", "3", "4")
	expectRows(t, c, "SELECT @v", "1")
	expectRows(t, c, "SELECT @v", "1")
	if got := pc.Hits.Load() - hits; got < 2 {
		t.Fatalf("%d cache hits for repeated reads of a variable, want 2 or more", got)
	}
	for _, step := range []struct{ assign, want string }{
		{"SELECT @v := 2", "3|4"},
		{"SELECT id INTO @v FROM t WHERE id = 3", "4"},
		{"SELECT setv(0)", "1|2|3|4"},
		{"SET @v = 2", "3|4"},
		{"DO @v := 3", "4"},
	} {
		mustExec(t, c, step.assign)
		if got := strings.Join(queryRows(t, c, q), "|"); got != step.want {
			t.Fatalf("after %s: %q, want %q", step.assign, got, step.want)
		}
		if got := strings.Join(queryRows(t, c, q), "|"); got != step.want {
			t.Fatalf("after %s, again: %q, want %q", step.assign, got, step.want)
		}
	}
	other := ts.conn("uv")
	mustExec(t, other, "SET @v = 0")
	expectRows(t, other, q, "1", "2", "3", "4")
	expectRows(t, c, q, "4")
}
