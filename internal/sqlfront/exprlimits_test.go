package sqlfront

import (
	"context"
	gosql "database/sql"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// TestStringResultsBoundedByMaxPacket: a string function whose result
// would pass max_allowed_packet (16 MiB) answers NULL with warning 1301,
// as MariaDB does, and decides so before building the value: the heap
// the whole statement allocates (server and client, both in this
// process) stays far below the value's size.
func TestStringResultsBoundedByMaxPacket(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	cases := []struct{ q, fn string }{
		{"SELECT REPEAT('x', 2e8)", "repeat"},
		{"SELECT LPAD('x', 2e8, 'y')", "lpad"},
		{"SELECT RPAD('x', 2e8, 'y')", "rpad"},
		{"SELECT SPACE(2e8)", "space"},
		{"SELECT REPEAT(REPEAT('x', 1e5), 2e3)", "repeat"},
		{"SELECT CONCAT(REPEAT('x', 1e7), REPEAT('y', 1e7))", "concat"},
		{"SELECT CONCAT_WS(',', REPEAT('x', 1e7), REPEAT('y', 1e7))", "concat_ws"},
		{"SELECT REPLACE(REPEAT('a', 1e6), 'a', 'xxxxxxxxxxxxxxxxxxxx')", "replace"},
		{"SELECT TO_BASE64(REPEAT('x', 1.5e7))", "to_base64"},
		{"SELECT HEX(REPEAT('x', 1e7))", "hex"},
		{"SELECT QUOTE(REPEAT('''', 9e6))", "quote"},
		// Forty arguments of 10 MB: CONCAT stops at the second.
		{"SELECT CONCAT(" + strings.Repeat("REPEAT('x', 1e7), ", 39) + "'y')", "concat"},
		{"SELECT JSON_ARRAY(REPEAT('x', 1e7), REPEAT('y', 1e7))", "json_array"},
		{"SELECT JSON_OBJECT('a', REPEAT('x', 1e7), 'b', REPEAT('y', 1e7))", "json_object"},
		{"SELECT JSON_ARRAY(" + strings.Repeat("REPEAT('x', 1e7), ", 39) + "'y')", "json_array"},
	}
	for _, tc := range cases {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got := queryRows(t, c, tc.q)
		runtime.ReadMemStats(&after)
		if len(got) != 1 || got[0] != "NULL" {
			short := joinLines(got)
			if len(short) > 40 {
				short = short[:40] + "..."
			}
			t.Errorf("%s = %q, want NULL", tc.q, short)
		}
		// The arguments of the last five are up to 15 MB each, built
		// once; the broken behaviour allocates the whole result (at
		// least 20 MB, 200 MB for the first five) and sends it.
		limit := uint64(64 << 20)
		if strings.Contains(tc.q, "2e") {
			limit = 16 << 20
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > limit {
			t.Errorf("%s allocated %d MiB, want at most %d MiB", tc.q, d>>20, limit>>20)
		}
		want := "Warning|1301|Result of " + tc.fn + "() was larger than max_allowed_packet (16777216) - truncated"
		if w := joinLines(queryRows(t, c, "SHOW WARNINGS")); w != want {
			t.Errorf("%s: warnings %q, want %q", tc.q, w, want)
		}
	}
	// Below the limit the functions answer as before.
	expectRows(t, c, "SELECT LENGTH(REPEAT(REPEAT('x', 1e3), 1e3)), LPAD('a', 3, 'b'), CONCAT_WS('-', 'a', NULL, 'b'), REPLACE('aXa', 'a', 'bb'), HEX('ab'), TO_BASE64('ab'), CONCAT('a', 1, 2.5), LENGTH(SPACE(7))",
		"1000000|bba|a-b|bbXbb|6162|YWI=|a12.5|7")
	expectRows(t, c, "SELECT LENGTH(QUOTE(REPEAT('a', 16777210))), QUOTE('a''b\\\\c'), QUOTE(NULL) IS NULL, HEX(QUOTE(CONCAT(CHAR(26), CHAR(0)))), QUOTE(12)", `16777212|'a\'b\\c'|0|275C5A5C3027|'12'`)
	expectRows(t, c, "SELECT JSON_ARRAY('a', 1, NULL, 2.5), JSON_OBJECT('a', 1, 'b', 'x'), LENGTH(JSON_ARRAY(REPEAT('x', 1e7), 1, NULL))",
		`["a", 1, null, 2.5]|{"a": 1, "b": "x"}|10000013`)
}

// catastrophic is a pattern on which a backtracking matcher spends
// time exponential in the text's length (ICU ran it past KILL).
const catastrophic = "SELECT REPEAT('a', 30) REGEXP '^(a+)+$b'"

// TestRegexpIsBounded: a pattern that makes a backtracking matcher run
// for minutes answers at once, and an unrelated SELECT 1 on another
// connection meanwhile is not held.
func TestRegexpIsBounded(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	a, other := ts.open(""), ts.open("")
	done := make(chan error, 1)
	start := time.Now()
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		var v int
		done <- a.QueryRowContext(ctx, catastrophic).Scan(&v)
	}()
	worst := selectOneWorst(t, other, done)
	if err := <-done; err != nil {
		t.Fatalf("%s: %v", catastrophic, err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("%s took %v, want well under 3 s", catastrophic, d)
	}
	if worst > 2*time.Second {
		t.Errorf("SELECT 1 on another connection took up to %v meanwhile", worst)
	}
	// The matcher's answers for ordinary patterns are MariaDB's.
	expectRows(t, a, "SELECT 'abc' REGEXP '^a.c$', 'ABC' REGEXP 'b', 'abc' NOT REGEXP 'x', 'a\\nb' REGEXP 'a.b', REGEXP_LIKE('ABC', 'b', 'c'), REGEXP_LIKE('a\\nb', '^b', 'm'), NULL REGEXP 'a', 'aa' REGEXP '(a)\\\\1'",
		"1|1|1|0|0|1|NULL|1")
}

// backtracking is a pattern Go's linear engine cannot take (a back
// reference) on which a backtracking matcher spends time exponential in
// the text (MariaDB's PCRE2 stops at its match limit with warning 1139).
const backtracking = "SELECT REPEAT('a', 40) REGEXP '(a|aa)+(?=c)\\\\1'"

// TestRegexpBacktrackingBounded: a pattern only the backtracking engine
// takes is bounded as PCRE2's match limit bounds it in MariaDB (no
// match, warning 1139) for REGEXP and each REGEXP_ function, and an
// unrelated SELECT 1 meanwhile is not held.
func TestRegexpBacktrackingBounded(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	a, other := ts.conn(""), ts.open("")
	const limitWarning = "Warning|1139|Regex error 'match limit exceeded'"
	pat := "'(a|aa)+(?=c)\\\\1'"
	for _, tc := range []struct{ q, want string }{
		{backtracking, "0"},
		{"SELECT REGEXP_INSTR(REPEAT('a', 40), " + pat + ")", "0"},
		{"SELECT REGEXP_SUBSTR(REPEAT('a', 40), " + pat + ") = ''", "1"},
		{"SELECT REGEXP_REPLACE(CONCAT('x', REPEAT('a', 40)), " + pat + ", 'y') = CONCAT('x', REPEAT('a', 40))", "1"},
	} {
		q := tc.q
		done := make(chan error, 1)
		start := time.Now()
		var got string
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			done <- a.QueryRowContext(ctx, q).Scan(&got)
		}()
		worst := selectOneWorst(t, other, done)
		if err := <-done; err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("%s took %v, want about half a second", q, d)
		}
		if worst > 2*time.Second {
			t.Errorf("%s: SELECT 1 on another connection took up to %v meanwhile", q, worst)
		}
		if got != tc.want {
			t.Errorf("%s = %s, want %s", q, got, tc.want)
		}
		if w := joinLines(queryRows(t, a, "SHOW WARNINGS")); w != limitWarning {
			t.Errorf("%s: warnings %q, want %q", q, w, limitWarning)
		}
	}
}

// TestRegexpFunctionsAsMariaDB: REGEXP and the REGEXP_ functions answer
// as MariaDB 10.11 did for each of these (recorded on the anchor), on
// both engines: the linear one (REGEXP with a pattern Go's syntax takes)
// and the backtracking one (look-around, back references, and every
// REGEXP_ function).
func TestRegexpFunctionsAsMariaDB(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	for _, tc := range []struct{ q, want string }{
		{"SELECT 'abcabc' REGEXP '(abc)\\\\1', 'x' REGEXP '[[:alpha:]]', 'a_b' REGEXP 'a\\\\_b', 'aa' REGEXP '(?<=a)a', 'ab' REGEXP 'a(?=b)', 'aaa' REGEXP 'a++a', 'a' REGEXP '', 'a' REGEXP NULL", "1|1|1|1|1|0|1|NULL"},
		{"SELECT REGEXP_REPLACE('abcabc', '(b)', '[\\\\1\\\\0\\\\x\\\\]'), REGEXP_REPLACE('ABC', 'b', 'x'), REGEXP_REPLACE(BINARY 'ABC', 'b', 'x'), REGEXP_REPLACE('abc', '(x)?b', '[\\\\1]')", "a[bbx]ca[bbx]c|AxC|ABC|a[]c"},
		{"SELECT REGEXP_REPLACE('abc', 'x*', '-'), REGEXP_REPLACE('abc', 'b*', '-'), REGEXP_REPLACE('aaa', '^a', 'x'), REGEXP_REPLACE('a.b.c', '\\\\.', '\\\\'), REGEXP_REPLACE('abc', '', 'x'), REGEXP_REPLACE('', 'a', 'b')", "abc|abc|xaa|abc|abc|"},
		{"SELECT REGEXP_SUBSTR('abc', 'z') IS NULL, REGEXP_SUBSTR('abc', 'b'), REGEXP_SUBSTR('ABC', 'b'), REGEXP_SUBSTR('x', ''), REGEXP_SUBSTR(NULL, 'a'), REGEXP_SUBSTR('a\\nb', '^b')", "0|b|B||NULL|"},
		{"SELECT REGEXP_INSTR('aXbc', 'b'), REGEXP_INSTR('ábc', 'b'), REGEXP_INSTR('abc', 'z'), REGEXP_INSTR('ABC', 'b'), REGEXP_INSTR('', 'a'), REGEXP_INSTR('abc', '')", "3|2|0|2|0|1"},
		{"SELECT REGEXP_REPLACE('abc', NULL, 'x'), REGEXP_REPLACE('abc', 'b', NULL), REGEXP_REPLACE(NULL, 'b', 'x')", "NULL|NULL|NULL"},
	} {
		expectRows(t, c, tc.q, tc.want)
	}
	for _, q := range []string{"SELECT 'a' REGEXP '('", "SELECT REGEXP_REPLACE('a', '(', 'b')", "SELECT 'a' REGEXP '\\\\'"} {
		_, err := c.ExecContext(context.Background(), q)
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1139 || !strings.HasPrefix(me.Message, "Regex error '") {
			t.Errorf("%s: %v, want error 1139 Regex error '...'", q, err)
		}
	}
}

// TestRegexpReplaceBoundedByMaxPacket: REGEXP_REPLACE whose result
// would pass max_allowed_packet answers NULL with warning 1301 without
// building the whole of it.
func TestRegexpReplaceBoundedByMaxPacket(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	expectRows(t, c, "SELECT REGEXP_REPLACE(REPEAT('a', 1e6), 'a', REPEAT('b', 200))", "NULL")
	runtime.ReadMemStats(&after)
	// The result would be 200 MB; the text (1 MB, 4 MB as runes) and
	// the result up to the limit (16 MiB, grown by doubling) are held.
	if d := after.TotalAlloc - before.TotalAlloc; d > 160<<20 {
		t.Errorf("REGEXP_REPLACE allocated %d MiB, want at most 160 MiB", d>>20)
	}
	want := "Warning|1301|Result of regexp_replace() was larger than max_allowed_packet (16777216) - truncated"
	if w := joinLines(queryRows(t, c, "SHOW WARNINGS")); w != want {
		t.Errorf("warnings %q, want %q", w, want)
	}
}

// selectOneWorst runs SELECT 1 on db until done has a value (it is put
// back) and returns the worst latency seen.
func selectOneWorst(t *testing.T, db *gosql.DB, done chan error) time.Duration {
	t.Helper()
	var worst time.Duration
	for {
		select {
		case err := <-done:
			done <- err
			return worst
		default:
		}
		s := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		var v int
		err := db.QueryRowContext(ctx, "SELECT 1").Scan(&v)
		cancel()
		if err != nil {
			t.Fatalf("SELECT 1: %v", err)
		}
		if d := time.Since(s); d > worst {
			worst = d
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// longStatement runs for minutes unless stopped: a join of 10^8 rows
// that evaluates REPEAT, CONCAT and REGEXP on each, with a pattern on
// which a backtracking matcher takes seconds per row.
const longStatement = `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10000)
SELECT COUNT(*) FROM s x, s y WHERE CONCAT(REPEAT('1', 28), x.n, y.n) REGEXP '^(1+)+$b'`

// longBacktracking is longStatement with a pattern only the
// backtracking engine takes (each row runs to its match bound).
const longBacktracking = `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10000)
SELECT COUNT(*) FROM s x, s y WHERE REGEXP_INSTR(CONCAT(REPEAT('a', 40), x.n, y.n), '(a|aa)+(?=c)\\1') > 0`

// TestKillStopsStatement: KILL QUERY, KILL and the client's disconnect
// each stop a statement busy in expression evaluation within about a
// second (KILL QUERY with error 1317, as MariaDB), and an unrelated
// SELECT 1 meanwhile is not held.
func TestKillStopsStatement(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	other := ts.open("")
	// A statement over a table keeps its plan: runBound runs it.
	mustExec(t, other, "CREATE DATABASE kq", "CREATE TABLE kq.s (n INT PRIMARY KEY)",
		"INSERT INTO kq.s WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 10000) SELECT n FROM s")
	longKept := `SELECT COUNT(*) FROM kq.s x, kq.s y WHERE CONCAT(REPEAT('1', 28), x.n, y.n) REGEXP '^(1+)+$b'`
	for _, run := range []struct{ name, how, q string }{
		{"KILL_QUERY_kept_plan", "KILL QUERY", longKept},
		{"disconnect_kept_plan", "disconnect", longKept},
		{"KILL_QUERY", "KILL QUERY", longStatement},
		{"KILL", "KILL", longStatement},
		{"disconnect", "disconnect", longStatement},
		{"KILL_QUERY_backtracking", "KILL QUERY", longBacktracking},
		{"disconnect_backtracking", "disconnect", longBacktracking},
	} {
		how := run.how
		t.Run(run.name, func(t *testing.T) {
			bound := ts.s.mh.plans.Bound.Load()
			defer func() {
				if strings.HasSuffix(run.name, "kept_plan") && ts.s.mh.plans.Bound.Load() == bound {
					t.Error("the statement did not run from a kept plan")
				}
			}()
			c := ts.conn("")
			var id int64
			if err := c.QueryRowContext(context.Background(), "SELECT CONNECTION_ID()").Scan(&id); err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				var n int64
				done <- c.QueryRowContext(ctx, run.q).Scan(&n)
			}()
			time.Sleep(500 * time.Millisecond)
			select {
			case err := <-done:
				t.Fatalf("the statement ended before it was stopped: %v", err)
			default:
			}
			stopped := time.Now()
			switch how {
			case "disconnect":
				cancel() // the driver closes the connection
			default:
				mustExec(t, other, fmt.Sprintf("%s %d", how, id))
			}
			worst := selectOneWorst(t, other, done)
			err := <-done
			if how == "KILL QUERY" {
				var me *mysql.MySQLError
				if !errors.As(err, &me) || me.Number != 1317 {
					t.Errorf("KILL QUERY: statement answered %v, want error 1317", err)
				}
			} else if err == nil {
				t.Errorf("%s: the statement answered without error", how)
			}
			// The server's side: no statement of that connection still runs.
			deadline := time.Now().Add(5 * time.Second)
			for {
				rows := queryRows(t, other, fmt.Sprintf("SELECT COUNT(*) FROM information_schema.processlist WHERE id = %d AND command = 'Query'", id))
				if joinLines(rows) == "0" {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("%s: the statement still runs on the server", how)
				}
				time.Sleep(20 * time.Millisecond)
			}
			if d := time.Since(stopped); d > 3*time.Second {
				t.Errorf("%s: the statement stopped %v after, want about a second", how, d)
			}
			if worst > 2*time.Second {
				t.Errorf("%s: SELECT 1 on another connection took up to %v", how, worst)
			}
		})
	}
}

// TestGroupConcatBoundedWhileAccumulating: GROUP_CONCAT keeps no more than
// group_concat_max_len bytes while it reads its group (the heap of the
// statement stays far below the group's values) and warns 1260 as
// MariaDB does.
func TestGroupConcatBoundedWhileAccumulating(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	// 400 rows of 1 MB (go-mysql-server kept all of them: 400 MB).
	q := `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 400)
SELECT LENGTH(GROUP_CONCAT(REPEAT('x', 1000000))) FROM s`
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	expectRows(t, c, q, "1048576")
	runtime.ReadMemStats(&after)
	if d := after.TotalAlloc - before.TotalAlloc; d > 128<<20 {
		t.Errorf("GROUP_CONCAT of 400 MB allocated %d MiB, want at most 128 MiB", d>>20)
	}
	expectRows(t, c, "SHOW WARNINGS", "Warning|1260|Row 2 was cut by GROUP_CONCAT()")
	expectRows(t, c, "SELECT @@group_concat_max_len, @@global.group_concat_max_len", "1048576|1048576")
	mustExec(t, c, "CREATE DATABASE g", "USE g", "SET SESSION group_concat_max_len = 10")
	expectRows(t, c, "SELECT GROUP_CONCAT(x) FROM (SELECT 'abcd' x UNION ALL SELECT 'efgh' UNION ALL SELECT 'ijkl' UNION ALL SELECT 'mnop') t", "abcd,efgh,")
	expectRows(t, c, "SHOW WARNINGS", "Warning|1260|Row 3 was cut by GROUP_CONCAT()")
	expectRows(t, c, "SELECT GROUP_CONCAT(DISTINCT x SEPARATOR '') FROM (SELECT 'abcd' x UNION ALL SELECT 'abcd' UNION ALL SELECT 'ijkl' UNION ALL SELECT 'mnop') t", "abcdijklmn")
	expectRows(t, c, "SHOW WARNINGS", "Warning|1260|Row 3 was cut by GROUP_CONCAT()")
	expectRows(t, c, "SELECT GROUP_CONCAT(x, 'z' SEPARATOR '-') FROM (SELECT 'a' x UNION ALL SELECT NULL UNION ALL SELECT 'b') t", "az-bz")
}

// TestAggregatesOfLargeValuesBounded: GROUP_CONCAT over binary values
// stops at group_concat_max_len as over text; JSON_ARRAYAGG and
// JSON_OBJECTAGG stop keeping values once they pass max_allowed_packet
// and answer NULL with warning 1301. Each group is 400 values of 1 MB
// (go-mysql-server kept all of them).
func TestAggregatesOfLargeValuesBounded(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	const rows = `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 400) `
	for _, tc := range []struct{ q, want, warning string }{
		{rows + "SELECT LENGTH(GROUP_CONCAT(CAST(REPEAT('x', 1000000) AS BINARY))) FROM s", "1048576",
			"Warning|1260|Row 2 was cut by GROUP_CONCAT()"},
		{rows + "SELECT JSON_ARRAYAGG(REPEAT('x', 1000000)) FROM s", "NULL",
			"Warning|1301|Result of json_arrayagg() was larger than max_allowed_packet (16777216) - truncated"},
		{rows + "SELECT JSON_OBJECTAGG(n, REPEAT('x', 1000000)) FROM s", "NULL",
			"Warning|1301|Result of json_objectagg() was larger than max_allowed_packet (16777216) - truncated"},
	} {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		expectRows(t, c, tc.q, tc.want)
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > 128<<20 {
			t.Errorf("%s allocated %d MiB, want at most 128 MiB", tc.q, d>>20)
		}
		expectRows(t, c, "SHOW WARNINGS", tc.warning)
	}
	// Below the limits the aggregates answer as before.
	expectRows(t, c, "SELECT HEX(GROUP_CONCAT(x SEPARATOR '-')), JSON_ARRAYAGG(y), JSON_OBJECTAGG(y, y) FROM (SELECT 0x6162 x, 'a' y UNION ALL SELECT 0xff, 'b') t",
		`61622DFF|["a", "b"]|{"a": "a", "b": "b"}`)
}

// TestGroupConcatOrderByBounded: GROUP_CONCAT ... ORDER BY keeps of each
// row its sort keys and no more of its value than the result can use, so
// the live heap during the statement stays far below the group's values
// (every value is still built once, so the bound is on what is kept, not
// on what is allocated); the answers and warning 1260 are MariaDB's.
func TestGroupConcatOrderByBounded(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	// 400 rows of 1 MB sorted (go-mysql-server kept all of them).
	q := `WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM s WHERE n < 400)
SELECT LEFT(GROUP_CONCAT(REPEAT(CHAR(64 + n % 26), 1000000) ORDER BY n DESC), 3) FROM s`
	peak := peakHeap(func() { expectRows(t, c, q, "JJJ") })
	t.Logf("GROUP_CONCAT ... ORDER BY of 400 MB: live heap peak +%d MiB", peak>>20)
	if peak > 200<<20 {
		t.Errorf("GROUP_CONCAT ... ORDER BY of 400 MB: live heap grew by %d MiB, want at most 200 MiB", peak>>20)
	}
	mustExec(t, c, "SET SESSION group_concat_max_len = 10")
	expectRows(t, c, "SELECT GROUP_CONCAT(x ORDER BY x DESC) FROM (SELECT 'abcd' x UNION ALL SELECT 'efgh' UNION ALL SELECT 'ijkl' UNION ALL SELECT 'mnop') t", "mnop,ijkl,")
	expectRows(t, c, "SHOW WARNINGS", "Warning|1260|Row 3 was cut by GROUP_CONCAT()")
	// Rows that sort first arrive last: those kept before are dropped.
	expectRows(t, c, "SELECT GROUP_CONCAT(x ORDER BY x) FROM (SELECT 'mnop' x UNION ALL SELECT 'ijkl' UNION ALL SELECT 'efgh' UNION ALL SELECT 'abcd') t", "abcd,efgh,")
	expectRows(t, c, "SHOW WARNINGS", "Warning|1260|Row 3 was cut by GROUP_CONCAT()")
	expectRows(t, c, "SELECT GROUP_CONCAT(x ORDER BY y DESC, x) FROM (SELECT 'b' x, 1 y UNION ALL SELECT 'a', 1 UNION ALL SELECT 'c', 2 UNION ALL SELECT 'dddddddddddd', 0) t", "c,a,b,dddd")
	expectRows(t, c, "SHOW WARNINGS", "Warning|1260|Row 4 was cut by GROUP_CONCAT()")
	expectRows(t, c, "SELECT GROUP_CONCAT(x, 'z' ORDER BY x DESC SEPARATOR '-') FROM (SELECT 'a' x UNION ALL SELECT NULL UNION ALL SELECT 'b') t", "bz-az")
	expectRows(t, c, "SELECT y, GROUP_CONCAT(x ORDER BY x) FROM (SELECT 'b' x, 1 y UNION ALL SELECT 'a', 1 UNION ALL SELECT 'c', 2) t GROUP BY y ORDER BY y", "1|a,b", "2|c")
}

// peakHeap runs f and returns by how much the live heap rose above its
// level before f at most: every 10 ms a collection runs and HeapAlloc is
// read, so garbage not yet collected (which depends on the heap the
// process holds besides) is not counted, only what f's statement keeps.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		var m runtime.MemStats
		for {
			runtime.GC()
			runtime.ReadMemStats(&m)
			if m.HeapAlloc > peak {
				peak = m.HeapAlloc
			}
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak - base
}
