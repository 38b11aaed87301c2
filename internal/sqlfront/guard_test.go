package sqlfront

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/vitess/go/vt/sqlparser"
	"github.com/go-sql-driver/mysql"

	"github.com/handlerdb/handlerdb/internal/errtable"
)

// deepStatement is a statement nested far too deeply for the planner.
type deepStatement struct{ name, q string }

// deepStatements are refused with error 1436. Before the guard, the first
// one overflowed the goroutine stack and killed the process.
func deepStatements() []deepStatement {
	return []deepStatement{
		{"300k-term sum", "SELECT 1" + strings.Repeat("+1", 300_000)},
		{"5000-term sum", "SELECT 1" + strings.Repeat("+1", 5000)},
		{"parentheses", "SELECT " + strings.Repeat("(", 100_000) + "1" + strings.Repeat(")", 100_000)},
		{"NOT chain", "SELECT " + strings.Repeat("NOT ", 300_000) + "1"},
		{"short NOT chain", "SELECT " + strings.Repeat("NOT ", 5000) + "1"},
		{"unary minus", "SELECT " + strings.Repeat("- ", 300_000) + "1"},
		{"tilde chain", "SELECT " + strings.Repeat("~", 4_000_000) + "1"},
		{"nested CASE", "SELECT " + strings.Repeat("CASE WHEN 1 THEN ", 3000) + "1" + strings.Repeat(" END", 3000)},
		// (a chain of one kind of UNION is regrouped, unions.go; one
		// that alternates UNION ALL and UNION keeps its depth)
		{"mixed UNION chain", "SELECT 1" + strings.Repeat(" UNION ALL SELECT 1 UNION SELECT 1", 1500)},
		{"comma join", "SELECT 1 FROM " + commaJoin(1200)},
		{"OR in a view", "CREATE VIEW deep_v AS SELECT 1 FROM (SELECT 1 a) t WHERE " +
			strings.Repeat("a = 1 OR ", 3000) + "a = 2"},
		{"procedure body", "CREATE PROCEDURE deep_p() BEGIN SELECT 1" + strings.Repeat("+1", 3000) + "; END"},
		{"EXPLAIN", "EXPLAIN SELECT 1" + strings.Repeat("+1", 5000)},
	}
}

// commaJoin lists n derived tables separated by commas.
func commaJoin(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "(SELECT 1) t%d", i)
	}
	return b.String()
}

// mysqlErrNum returns the MySQL error number of err, or 0.
func mysqlErrNum(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// expectAlive fails unless db still answers SELECT 1.
func expectAlive(t *testing.T, db execer, what string) {
	t.Helper()
	var one int
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rows, err := db.QueryContext(ctx, "SELECT 1")
	if err == nil {
		if rows.Next() {
			err = rows.Scan(&one)
		}
		rows.Close()
	}
	if err != nil || one != 1 {
		t.Fatalf("%s: SELECT 1 = %d, %v", what, one, err)
	}
}

// TestDeepStatementsRefused sends statements nested too deeply, as text
// queries, as multi-statements and as prepared statements: each gets error
// 1436 (or, past the parser's own limit of 200 nested parentheses, a parse
// error), and the same connection and a new one go on answering.
func TestDeepStatementsRefused(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE deep")
	dsn := ts.dsn("root", "", "deep") + "&maxAllowedPacket=0"
	pool, err := openPool(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer pool.Close()
	conn, err := pool.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, d := range deepStatements() {
		name, q := d.name, d.q
		_, err := conn.ExecContext(context.Background(), q)
		if n := mysqlErrNum(err); n != errtable.ERStackOverrun {
			t.Errorf("%s (%d bytes): error %v, want 1436", name, len(q), err)
		} else if me := err.(*mysql.MySQLError); string(me.SQLState[:]) != "HY000" || !strings.HasPrefix(me.Message, "Thread stack overrun") {
			t.Errorf("%s: %q %q", name, me.SQLState, me.Message)
		}
		expectAlive(t, conn, name+": same connection")
	}
	for name, q := range map[string]string{
		"nested subqueries": strings.Repeat("SELECT (", 1000) + "SELECT 1" + strings.Repeat(")", 1000),
		"derived tables": "SELECT * FROM " + strings.Repeat("(SELECT * FROM ", 1000) + "(SELECT 1) t" +
			strings.Repeat(") t", 1000),
		"nested functions": "SELECT " + strings.Repeat("abs(", 1000) + "1" + strings.Repeat(")", 1000),
	} {
		if _, err := conn.ExecContext(context.Background(), q); err == nil {
			t.Errorf("%s: no error", name)
		}
		expectAlive(t, conn, name+": same connection")
	}

	// PREPARE ... FROM a variable built by the server.
	mustExec(t, conn, "SET @q = CONCAT('SELECT 1', REPEAT('+1', 300000))")
	if _, err := conn.ExecContext(context.Background(), "PREPARE s FROM @q"); mysqlErrNum(err) != errtable.ERStackOverrun {
		t.Errorf("PREPARE FROM @q: %v, want 1436", err)
	}
	expectAlive(t, conn, "after PREPARE")

	// The binary protocol's COM_STMT_PREPARE.
	for _, q := range []string{
		"SELECT 1" + strings.Repeat("+1", 300_000),
		"SELECT " + strings.Repeat("NOT ", 5000) + "?",
	} {
		st, err := conn.PrepareContext(context.Background(), q)
		if err == nil {
			st.Close()
		}
		if mysqlErrNum(err) != errtable.ERStackOverrun {
			t.Errorf("prepare of %d bytes: %v, want 1436", len(q), err)
		}
		expectAlive(t, conn, "after COM_STMT_PREPARE")
	}

	// Multi-statements: the deep one fails, the ones before it ran.
	multi, err := openPool(dsn + "&multiStatements=true")
	if err != nil {
		t.Fatal(err)
	}
	defer multi.Close()
	_, err = multi.Exec("CREATE TABLE m (a INT); INSERT INTO m VALUES (1); SELECT 1" + strings.Repeat("+1", 300_000) + "; INSERT INTO m VALUES (2)")
	if mysqlErrNum(err) != errtable.ERStackOverrun {
		t.Errorf("multi-statement: %v, want 1436", err)
	}
	expectRows(t, multi, "SELECT a FROM deep.m", "1")
	// The token scan of a multi-statement stops at the first ';', which
	// may be inside a procedure's body: the tree is measured whole.
	_, err = multi.Exec("CREATE PROCEDURE deep_m() BEGIN SELECT 1; SELECT " + strings.Repeat("~", 4_000_000) + "1; END; SELECT 1")
	if mysqlErrNum(err) != errtable.ERStackOverrun {
		t.Errorf("multi-statement procedure: %v, want 1436", err)
	}
	expectAlive(t, multi, "after the multi-statement procedure")

	// A COM_STMT_PREPARE too long to parse safely closes the connection
	// before the listener parses it.
	bigPrep := "SELECT " + strings.Repeat("~", 4<<20) + "1"
	if st, err := pool.Prepare(bigPrep); err == nil {
		st.Close()
		t.Errorf("prepare of %d bytes: no error", len(bigPrep))
	}

	fresh, err := openPool(dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	expectAlive(t, fresh, "new connection")
}

// TestBigShallowStatements runs big statements that nest little: they
// must not be refused.
func TestBigShallowStatements(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE big", "CREATE TABLE big.t (id INT PRIMARY KEY, v VARCHAR(20), n INT)",
		"CREATE TABLE big.h (id INT PRIMARY KEY, v VARCHAR(20), n INT)")

	var ins strings.Builder
	ins.WriteString("INSERT INTO big.t VALUES ")
	for i := range 1000 {
		if i > 0 {
			ins.WriteString(", ")
		}
		fmt.Fprintf(&ins, "(%d, 'row %d', %d)", i, i, -i)
	}
	if _, err := db.Exec(ins.String()); err != nil {
		t.Fatalf("1000-row INSERT: %v", err)
	}
	expectRows(t, db, "SELECT COUNT(*) FROM big.t", "1000")

	// 100,000 rows in one INSERT (3 MB): scanned, not refused.
	var huge strings.Builder
	huge.WriteString("INSERT INTO big.h (id, v, n) VALUES ")
	for i := range 100_000 {
		if i > 0 {
			huge.WriteString(",")
		}
		fmt.Fprintf(&huge, "(%d,'x',-%d)", i, i)
	}
	if _, err := db.Exec(huge.String()); err != nil {
		t.Fatalf("100,000-row INSERT: %v", err)
	}
	expectRows(t, db, "SELECT COUNT(*) FROM big.h", "100000")

	in := make([]string, 10_000)
	for i := range in {
		in[i] = strconv.Itoa(i * 3)
	}
	expectRowsArgs(t, db, "SELECT COUNT(*) FROM big.t WHERE id IN ("+strings.Join(in, ",")+")", nil, "334")

	or := make([]string, 500)
	for i := range or {
		or[i] = fmt.Sprintf("(id = %d AND n = %d)", i, -i)
	}
	expectRowsArgs(t, db, "SELECT COUNT(*) FROM big.t WHERE "+strings.Join(or, " OR "), nil, "500")
	expectRowsArgs(t, db, "SELECT 1"+strings.Repeat("+1", 900), nil, "901")
	expectRowsArgs(t, db, "SELECT COUNT(*) FROM (SELECT 1 x"+strings.Repeat(" UNION ALL SELECT 1", 100)+") u", nil, "101")
	// UNION chains of one kind, as long as MariaDB runs them: regrouped
	// (unions.go), they were refused as nesting (1436), and one of 900
	// took 150 s to plan. The rows come in order, typed by all the
	// SELECTs (the first is TINYINT), named by the first.
	var un strings.Builder
	un.WriteString("SELECT n, COUNT(*) OVER () FROM (SELECT 0 AS n")
	for i := 1; i < 10_000; i++ {
		fmt.Fprintf(&un, " UNION ALL SELECT %d", i*7)
	}
	un.WriteString(") u")
	rows := queryRows(t, db, un.String())
	if len(rows) != 10_000 || rows[0] != "0|10000" || rows[1] != "7|10000" || rows[9999] != "69993|10000" {
		t.Fatalf("10,000-SELECT UNION ALL: %d rows, %v ... %v", len(rows), rows[:min(2, len(rows))], rows[max(0, len(rows)-1):])
	}
	un.Reset()
	un.WriteString("SELECT COUNT(*), SUM(n) FROM (SELECT 1 AS n")
	for i := 1; i < 5000; i++ {
		fmt.Fprintf(&un, " UNION SELECT %d", i%10)
	}
	un.WriteString(") u")
	expectRowsArgs(t, db, un.String(), nil, "10|45")

	// A CASE of 100,000 branches (2 MB) is a long list, not a deep
	// tree: it was refused as nesting (1436).
	var cs strings.Builder
	cs.WriteString("SELECT CASE 99998")
	for i := range 100_000 {
		fmt.Fprintf(&cs, " WHEN %d THEN %d", i, -i)
	}
	cs.WriteString(" END")
	expectRowsArgs(t, db, cs.String(), nil, "-99998")

	// The same through the binary protocol.
	args := make([]any, 2000)
	marks := make([]string, 2000)
	for i := range args {
		args[i], marks[i] = i, "?"
	}
	expectRowsArgs(t, db, "SELECT COUNT(*) FROM big.t WHERE id IN ("+strings.Join(marks, ",")+")", args, "1000")
}

// expectRowsArgs is expectRows for a statement with parameters.
func expectRowsArgs(t *testing.T, db execer, q string, args []any, want ...string) {
	t.Helper()
	got, err := queryStrings(db, q, args...)
	if err != nil {
		t.Fatalf("%.80s: %v", q, err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%.80s: got %q, want %q", q, got, want)
	}
}

// TestMaxAllowedPacket: a packet beyond max_allowed_packet (16 MiB by
// default) is answered with 1153 and the connection closed, as MariaDB
// does (it was closed without an answer); the server goes on.
func TestMaxAllowedPacket(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	expectRows(t, db, "SELECT @@max_allowed_packet", "16777216")
	// The driver refuses to send more than the server's limit unless
	// told its own.
	big, err := openPool(ts.dsn("root", "", "") + "&maxAllowedPacket=67108864")
	if err != nil {
		t.Fatal(err)
	}
	defer big.Close()
	q := "SELECT '" + strings.Repeat("x", 17<<20) + "'"
	if _, err := big.Exec(q); mysqlErrNum(err) != 1153 {
		t.Fatalf("17 MiB query: %v, want 1153", err)
	}
	// Just below the limit goes through.
	var n int
	if err := big.QueryRow("SELECT LENGTH('" + strings.Repeat("x", 15<<20) + "')").Scan(&n); err != nil || n != 15<<20 {
		t.Fatalf("15 MiB query: %d %v", n, err)
	}
	expectAlive(t, db, "after a too big packet")
}

// TestTokenNesting checks the token scan's estimate against the depth of
// the parsed tree.
func TestTokenNesting(t *testing.T) {
	for _, c := range []struct {
		q        string
		min, max int
	}{
		{"SELECT 1", 1, 10},
		{"SELECT 1" + strings.Repeat("+1", 1000), 2000, 2010},
		{"SELECT 1" + strings.Repeat(", 1", 100000), 1, 10},
		{"INSERT INTO t VALUES " + strings.Repeat("(1, 'a;b', -2), ", 1000) + "(1, 'x', 2)", 1, 10},
		{"SELECT 1, 2" + strings.Repeat(" UNION SELECT 1, 2", 1000), 1000, 1010},
		{"SELECT 1; SELECT 1" + strings.Repeat("+1", 1000), 2000, 2010},
		{"SELECT '" + strings.Repeat("(", 1000) + "'", 1, 10},
		{"SELECT /* " + strings.Repeat("(", 1000) + " */ 1", 1, 10},
		{"SELECT /*! " + strings.Repeat("(", 100) + " */ 1", 100, 110},
		// a CASE of many branches is flat; CASEs in CASEs nest, with or
		// without parentheses; BEGIN ... END is no CASE
		{"SELECT CASE x" + strings.Repeat(" WHEN 1 THEN 2", 10000) + " ELSE 3 END", 1, 10},
		{"SELECT " + strings.Repeat("CASE WHEN 1 THEN ", 1000) + "1" + strings.Repeat(" END", 1000), 1000, 1010},
		{"SELECT " + strings.Repeat("(CASE WHEN 1 THEN ", 500) + "1" + strings.Repeat(" END)", 500), 1000, 1010},
		{"SELECT (CASE WHEN 1 THEN (1" + strings.Repeat("+1", 1000) + ") END)", 2000, 2010},
		{"BEGIN SELECT 1; END" + strings.Repeat("+1", 100), 200, 210},
	} {
		got := tokenNesting(c.q, false, 1<<30)
		if got < c.min || got > c.max {
			t.Errorf("%.60s: %d, want %d..%d", c.q, got, c.min, c.max)
		}
	}
	// With first, only the first statement counts.
	if got := tokenNesting("SELECT 1; SELECT 1"+strings.Repeat("+1", 1000), true, 1<<30); got > 10 {
		t.Errorf("first statement: %d", got)
	}
	// The scan stops once past the limit.
	if got := tokenNesting("SELECT 1"+strings.Repeat("+1", 100000), false, 100); got != 101 {
		t.Errorf("limit: %d", got)
	}
}

// TestTreeWalk checks the syntax tree measure: depths as counted, and the
// walk's budget far above what real statements need.
func TestTreeWalk(t *testing.T) {
	depth := func(q string) int {
		st, err := sqlparser.Parse(q)
		if err != nil {
			t.Fatalf("%.60s: %v", q, err)
		}
		for d := 1; d < 100_000; d++ {
			w := treeWalker{limit: d, budget: 1 << 30}
			if w.walk(reflect.ValueOf(st), 0) {
				return d
			}
		}
		return -1
	}
	for _, c := range []struct {
		q    string
		want int
	}{
		{"SELECT 1" + strings.Repeat("+1", 100), 104},
		{"SELECT " + strings.Repeat("NOT ", 100) + "1", 104},
		{"SELECT 1" + strings.Repeat(" UNION SELECT 1", 100), 104},
		{"SELECT 1 FROM " + commaJoin(100), 107},
		{"SELECT 1 IN (" + strings.Repeat("1, ", 10_000) + "1)", 6},
		// The body of a procedure, which vitess's own Walk skips.
		{"CREATE PROCEDURE p() BEGIN SELECT 1" + strings.Repeat("+1", 100) + "; END", 106},
		// A column's default, likewise.
		{"CREATE TABLE t (a INT DEFAULT (1" + strings.Repeat("+1", 100) + "))", 106},
	} {
		if got := depth(c.q); got != c.want {
			t.Errorf("%.60s: depth %d, want %d", c.q, got, c.want)
		}
	}

	var ins strings.Builder
	ins.WriteString("INSERT INTO t (a, b, c) VALUES ")
	for i := range 1000 {
		if i > 0 {
			ins.WriteString(", ")
		}
		fmt.Fprintf(&ins, "(%d, 'x', -%d.5)", i, i)
	}
	var create strings.Builder
	create.WriteString("CREATE TABLE t (id INT PRIMARY KEY AUTO_INCREMENT")
	for i := range 300 {
		fmt.Fprintf(&create, ", c%d VARCHAR(10) NOT NULL DEFAULT 'x' COMMENT 'c', KEY (c%d)", i, i)
	}
	create.WriteString(") ENGINE=InnoDB")
	for _, q := range []string{
		ins.String(),
		create.String(),
		"SELECT a.x, b.y, (SELECT MAX(z) FROM c WHERE c.k = a.k) FROM a JOIN b ON a.id = b.id " +
			"LEFT JOIN d USING (k) WHERE a.x IN (1, 2, 3) AND b.y LIKE 'p%' GROUP BY a.x HAVING COUNT(*) > 1 ORDER BY 1 DESC LIMIT 10",
		"CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN IF NEW.a > 1 THEN SET NEW.b = 'y'; ELSE SET NEW.b = 'n'; END IF; END",
		"ALTER TABLE t ADD COLUMN q INT, ADD INDEX (q), DROP COLUMN r, RENAME TO u",
	} {
		st, err := sqlparser.Parse(q)
		if err != nil {
			t.Fatalf("%.60s: %v", q, err)
		}
		const budget = 1 << 30
		w := treeWalker{limit: maxStatementDepth, budget: budget}
		if !w.walk(reflect.ValueOf(st), 0) {
			t.Fatalf("%.60s: refused", q)
		}
		if perByte := float64(budget-w.budget) / float64(len(q)); perByte > 16 {
			t.Errorf("%.60s: %.1f values visited per byte", q, perByte)
		}
		if err := checkTree(st, len(q)); err != nil {
			t.Errorf("%.60s: %v", q, err)
		}
	}
}

// TestDisconnectCancelsStatement: a statement whose client goes away is
// cancelled (the wrapped connection hides the TCP socket from
// go-mysql-server's own check; watchStatement does it), sent as text or
// prepared.
func TestDisconnectCancelsStatement(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	for _, args := range [][]any{nil, {60}} {
		query := "SELECT SLEEP(60)"
		if args != nil {
			query = "SELECT SLEEP(?)"
		}
		t.Run(query, func(t *testing.T) {
			conn, err := db.Conn(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
			defer cancel()
			// The driver closes the connection when the context ends.
			if _, err = conn.ExecContext(ctx, query, args...); err == nil {
				t.Fatalf("%s returned", query)
			}
			conn.Close()
			deadline := time.Now().Add(peerCheckInterval + 5*time.Second)
			for {
				rows := queryRows(t, db, "SELECT info FROM information_schema.processlist WHERE info LIKE 'SELECT SLEEP%'")
				if len(rows) == 0 {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("the statement still runs: %q", rows)
				}
				time.Sleep(200 * time.Millisecond)
			}
		})
	}
}

// FuzzTokenNesting checks the token scan's promise: a statement's syntax
// tree is at most a few times deeper than tokenNesting's estimate (the
// scan is what keeps the parser's own walks shallow on long texts).
func FuzzTokenNesting(f *testing.F) {
	for _, q := range []string{
		"SELECT 1+2*3", "SELECT CASE a WHEN 1 THEN (CASE WHEN b THEN 2 END) ELSE 3 END",
		"SELECT f(g(h(1)))", "SELECT (SELECT (SELECT 1))", "SELECT 1 UNION SELECT 2 UNION SELECT 3",
		"SELECT NOT NOT NOT a", "SELECT CASE WHEN (CASE WHEN 1 THEN 2 END) THEN 3 END",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		if len(q) > 4096 {
			return
		}
		st, err := sqlparser.Parse(q)
		if err != nil || st == nil {
			return
		}
		est := tokenNesting(q, false, 1<<30)
		w := treeWalker{limit: 4*est + 16, budget: 1 << 30}
		if !w.walk(reflect.ValueOf(st), 0) {
			t.Fatalf("%q: tree deeper than 4 times the estimate %d", q, est)
		}
	})
}
