package sqlfront

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// Stored functions run compiled (storedprog) answer as the same
// functions run through their hidden procedures by go-mysql-server's
// interpreter: random calls of functions made of every statement the
// compiler takes (on random rows, NULLs included) give the same values
// on a server with compiled functions and on one without. The functions
// used are those the interpreter answers rightly (NOT FOUND handlers,
// which it does not, are in the corpus, 30-compiled-functions, against
// MariaDB's answers). Every call is compiled: none is left to the
// interpreter. A body the compiler does not take (a user variable) runs
// interpreted on both, with the same answer.
func TestCompiledFunctions(t *testing.T) {
	compiled := startTestServer(t, "", Config{})
	plain := startTestServer(t, "", Config{NoCompiledFunctions: true})
	rng := rand.New(rand.NewSource(26))
	var rows []string
	names := []string{"pen", "Pen", "ink", "lamp", "desk", "Desk ", "chair"}
	for id := 1; id <= 60; id++ {
		qty := "NULL"
		if rng.Intn(6) > 0 {
			qty = fmt.Sprint(rng.Intn(120) - 10)
		}
		rows = append(rows, fmt.Sprintf("(%d, %d, %s, '%s')", id, rng.Intn(8), qty, names[rng.Intn(len(names))]))
	}
	setup := []string{
		"CREATE TABLE t (id INT PRIMARY KEY, grp INT, qty INT, name VARCHAR(20), KEY (grp), KEY (name))",
		"INSERT INTO t VALUES " + strings.Join(rows, ", "),
		"CREATE TABLE u (id INT PRIMARY KEY, t_id INT, done TINYINT, KEY (t_id))",
		"INSERT INTO u SELECT id, (id * 7) % 61, id % 3 = 0 FROM t",
		"CREATE FUNCTION qty_or(i INT, d INT) RETURNS INT READS SQL DATA BEGIN DECLARE q INT DEFAULT -7; SELECT qty INTO q FROM t WHERE id = i; RETURN q + d; END",
		"CREATE FUNCTION tri(n INT) RETURNS INT DETERMINISTIC BEGIN DECLARE s INT DEFAULT 0; DECLARE i INT DEFAULT 1; WHILE i <= n DO SET s = s + i; SET i = i + 1; END WHILE; RETURN s; END",
		"CREATE FUNCTION odd_sum(n INT) RETURNS INT DETERMINISTIC BEGIN DECLARE s INT DEFAULT 0; DECLARE i INT DEFAULT 0; l: LOOP SET i = i + 1; IF i > n THEN LEAVE l; END IF; IF i % 2 = 0 THEN ITERATE l; END IF; SET s = s + i; END LOOP l; RETURN s; END",
		"CREATE FUNCTION digits(n BIGINT) RETURNS INT DETERMINISTIC BEGIN DECLARE d INT DEFAULT 0; REPEAT SET d = d + 1; SET n = n DIV 10; UNTIL n = 0 END REPEAT; RETURN d; END",
		"CREATE FUNCTION above(lo INT) RETURNS INT READS SQL DATA BEGIN DECLARE n INT; SELECT COUNT(*) INTO n FROM t WHERE qty > lo; RETURN n; END",
		"CREATE FUNCTION in_grp(g INT, lo INT) RETURNS INT READS SQL DATA BEGIN DECLARE n INT; SELECT COUNT(*) INTO n FROM t WHERE grp = g AND qty >= lo; RETURN n; END",
		"CREATE FUNCTION named(nm VARCHAR(20)) RETURNS INT READS SQL DATA BEGIN DECLARE n INT DEFAULT 0; SELECT COUNT(*) INTO n FROM t WHERE name = nm; RETURN n; END",
		"CREATE FUNCTION open_of(i INT) RETURNS INT READS SQL DATA BEGIN DECLARE n INT; SELECT COUNT(u.id) INTO n FROM t LEFT JOIN u ON u.t_id = t.id WHERE t.id = i AND u.done = 0; IF n > 0 THEN RETURN 0; ELSEIF ISNULL(n) THEN RETURN -1; ELSE RETURN 1; END IF; END",
		"CREATE FUNCTION uservar(i INT) RETURNS INT NO SQL BEGIN SET @seen = i; RETURN i * 3; END",
		"CREATE TABLE ev (id INT PRIMARY KEY, t_id INT NOT NULL, at DATETIME NULL, KEY (t_id))",
		"INSERT INTO ev SELECT id, id % 13, IF(id % 9 = 0, NULL, '2024-01-01' + INTERVAL (id * 5) % 40 DAY) FROM t",
		"CREATE FUNCTION evs(i INT, d DATETIME) RETURNS INT READS SQL DATA BEGIN DECLARE n INT; SELECT COUNT(*) INTO n FROM ev WHERE t_id = i AND at <= d; RETURN n; END",
	}
	for _, ts := range []*testServer{compiled, plain} {
		mustExec(t, ts.open(""), "CREATE DATABASE cf")
		mustExec(t, ts.conn("cf"), setup...)
	}
	arg := func() string {
		if rng.Intn(10) == 0 {
			return "NULL"
		}
		return fmt.Sprint(rng.Intn(70) - 3)
	}
	small := func() string { return fmt.Sprint(rng.Intn(14)) }
	calls := []func() string{
		func() string { return "qty_or(" + arg() + ", " + arg() + ")" },
		func() string { return "tri(" + small() + ")" },
		func() string { return "odd_sum(" + small() + ")" },
		func() string { return "digits(" + fmt.Sprint(rng.Int63n(1e12)-1000) + ")" },
		func() string { return "above(" + arg() + ")" },
		func() string { return "in_grp(" + small() + ", " + arg() + ")" },
		func() string { return "named('" + names[rng.Intn(len(names))] + "')" },
		func() string { return "open_of(" + arg() + ")" },
		func() string { return "uservar(" + small() + ")" },
	}
	cc, pc := compiled.conn("cf"), plain.conn("cf")
	for i := 0; i < 400; i++ {
		q := "SELECT " + calls[rng.Intn(len(calls))]() + ", " + calls[rng.Intn(len(calls))]()
		if i%5 == 0 {
			// calls per row, as reports make them
			q = "SELECT id, " + strings.ReplaceAll(calls[rng.Intn(len(calls))](), "(", "(id + ") + " FROM t WHERE id % 7 = " + fmt.Sprint(rng.Intn(7)) + " ORDER BY id"
			q = strings.Replace(q, "(id + '", "('", 1)
		}
		want, werr := queryStrings(pc, q)
		got, gerr := queryStrings(cc, q)
		if fmt.Sprint(werr) != fmt.Sprint(gerr) || joinLines(want) != joinLines(got) {
			t.Fatalf("%s:\ncompiled: %v %q\ninterpreted: %v %q", q, gerr, got, werr, want)
		}
	}
	if n := compiled.s.fns.Compiled.Load(); n == 0 {
		t.Fatal("no call ran compiled")
	}
	if n := compiled.s.fns.Declined.Load(); n == 0 {
		t.Fatal("uservar, which sets a user variable, was not left to the interpreter")
	}
	// the SELECTs of the functions run from their plans' templates once
	// learnt: open_of's join, where the analysis copies the parameter
	// into a condition it derives, in_grp's two conditions, and evs's
	// DATETIME parameter compared with a column (under the zero-date
	// comparison of the dialect)
	templated, analyzed := compiled.s.fns.Templated.Load(), compiled.s.fns.Analyzed.Load()
	queryRows(t, cc, "SELECT SUM(open_of(id)), SUM(in_grp(id % 8, id)), SUM(qty_or(id, 1)) FROM t")
	// (evs is checked against the same count without a function: the
	// interpreter fails on a DATETIME parameter)
	want := queryRows(t, cc, "SELECT COUNT(ev.id) FROM t LEFT JOIN ev ON ev.t_id = t.id % 13 AND ev.at <= '2024-01-20'")
	expectRows(t, cc, "SELECT SUM(evs(id % 13, '2024-01-20')) FROM t", want...)
	if n, a := compiled.s.fns.Templated.Load()-templated, compiled.s.fns.Analyzed.Load()-analyzed; n < 200 {
		t.Errorf("240 statements of compiled calls: %d from templates, %d analyzed", n, a)
	}
	declined := compiled.s.fns.Declined.Load()
	expectRows(t, cc, "SELECT qty_or(1, 0) IS NOT NULL OR qty_or(1, 0) IS NULL, tri(4), above(1000)", "1|10|0")
	if compiled.s.fns.Declined.Load() != declined {
		t.Fatal("a function the compiler takes was left to the interpreter")
	}
}
