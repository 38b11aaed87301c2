package sqlfront

import (
	"context"
	gosql "database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestPointWritesSameAnswers runs the same random statements on two
// servers holding the same rows: one serves prepared point UPDATEs and
// DELETEs on the fast path (pointwrite.go), the other sends everything
// to go-mysql-server. The values reach past what the fast path converts
// (out of range, too long, non-ASCII, NULL, strings for numbers), the
// session switches between strict and non-strict modes, one connection
// asks for CLIENT_FOUND_ROWS, and some tables have what the fast path
// leaves to go-mysql-server (a trigger, a CHECK, a foreign key, a unique
// key, a composite key). Every OK packet (affected rows, insert id,
// info), every error, ROW_COUNT(), FOUND_ROWS(), the warnings and the
// tables' rows must be the same; statements on the tables with a
// trigger, CHECK or foreign key must never take the fast path, and most
// of the others must.
func TestPointWritesSameAnswers(t *testing.T) {
	general := startTestServer(t, "", Config{NoPointFastPath: true})
	fast := startTestServer(t, "", Config{})
	setup := []string{"CREATE DATABASE pw", "USE pw",
		`CREATE TABLE t1 (id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL DEFAULT 0, s SMALLINT,
		  u TINYINT UNSIGNED, c CHAR(6), v VARCHAR(8), l VARCHAR(8) CHARACTER SET latin1, KEY k (k))`,
		"CREATE TABLE t2 (a INT, b BIGINT, x INT, PRIMARY KEY (a, b))",
		"CREATE TABLE t3 (id INT PRIMARY KEY, u INT, n INT, UNIQUE KEY u (u))",
		"CREATE TABLE t4 (id INT PRIMARY KEY, d DECIMAL(5,2) DEFAULT 1.5, n INT DEFAULT 7, c CHAR(3) DEFAULT 'x ')",
		"CREATE DATABASE pwx", // the tables whose writes are not plain
		"CREATE TABLE pwx.trig (id INT PRIMARY KEY, v INT)",
		"CREATE TABLE pwx.tlog (id INT, v INT)",
		"CREATE TRIGGER pwx.trig_au AFTER UPDATE ON pwx.trig FOR EACH ROW INSERT INTO pwx.tlog VALUES (NEW.id, NEW.v)",
		"CREATE TABLE pwx.chk (id INT PRIMARY KEY, n INT, CHECK (n < 100))",
		"CREATE TABLE pwx.par (id INT PRIMARY KEY, n INT)",
		"CREATE TABLE pwx.ch (id INT PRIMARY KEY, pid INT, FOREIGN KEY (pid) REFERENCES pwx.par (id) ON DELETE CASCADE)",
	}
	var r1, r2, r3, rx []string
	for i := 1; i <= 12; i++ {
		r1 = append(r1, fmt.Sprintf("(%d, %d, %d, %d, 'c%d', 'v%d', 'l%d')", i, i*10, i, 250+i%5, i, i, i))
		r2 = append(r2, fmt.Sprintf("(%d, %d, %d)", i%3, i, i))
		r3 = append(r3, fmt.Sprintf("(%d, %d, %d)", i, i, i))
		rx = append(rx, fmt.Sprintf("(%d, %d)", i, i))
	}
	setup = append(setup,
		"INSERT INTO t1 VALUES "+strings.Join(r1, ","),
		"INSERT INTO t2 VALUES "+strings.Join(r2, ","),
		"INSERT INTO t3 VALUES "+strings.Join(r3, ","),
		"INSERT INTO pwx.trig VALUES "+strings.Join(rx, ","),
		"INSERT INTO pwx.chk VALUES "+strings.Join(rx, ","),
		"INSERT INTO pwx.par VALUES "+strings.Join(rx, ","),
		"INSERT INTO pwx.ch VALUES "+strings.Join(rx, ","))
	ctx := context.Background()
	type side struct {
		c, found *gosql.Conn // found: a CLIENT_FOUND_ROWS connection
		tap      *copyTap
	}
	var sides []side
	for _, ts := range []*testServer{general, fast} {
		root := ts.conn("")
		mustExec(t, root, setup...)
		d, err := openPool(ts.dsn("root", ts.cfg.RootPassword, "pw") + "&clientFoundRows=true")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { d.Close() })
		found, err := d.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { found.Close() })
		sides = append(sides, side{c: ts.conn("pw"), found: found, tap: tapCopies(ts.s.mh)})
	}
	type shape struct {
		q     string
		args  func(r *rand.Rand) []any
		plain bool // the fast path may serve it
	}
	id := func(r *rand.Rand) any {
		if r.IntN(6) == 0 {
			return []any{nil, "3", -1, 99, 4000000000, 1.5}[r.IntN(6)]
		}
		return 1 + r.IntN(14) // 13 and 14 are missing
	}
	num := func(r *rand.Rand) any {
		switch r.IntN(8) {
		case 0:
			return nil
		case 1:
			return []any{"7", "12abc", "x", 2.5, 1e12}[r.IntN(5)]
		case 2:
			return []any{-40000, 70000, 300, -1, 2147483648, -9223372036854775807}[r.IntN(6)]
		}
		return r.IntN(200) - 20
	}
	text := func(r *rand.Rand) any {
		switch r.IntN(7) {
		case 0:
			return nil
		case 1:
			return []any{"abcdefghijk", "é", "tail  ", " lead", "", 42, "a\x00b"}[r.IntN(7)]
		}
		return fmt.Sprintf("s%d", r.IntN(1000))
	}
	shapes := []shape{
		{"UPDATE t1 SET k = k + 1 WHERE id = ?", func(r *rand.Rand) []any { return []any{id(r)} }, true},
		{"UPDATE t1 SET k = k - ?, c = ? WHERE id = ?", func(r *rand.Rand) []any { return []any{num(r), text(r), id(r)} }, true},
		{"UPDATE t1 SET s = ?, u = u + ? WHERE id = ?", func(r *rand.Rand) []any { return []any{num(r), num(r), id(r)} }, true},
		{"UPDATE t1 SET u = u - 3 WHERE id = ?", func(r *rand.Rand) []any { return []any{id(r)} }, true},
		{"UPDATE t1 SET c = ?, v = ?, l = ? WHERE id = ?", func(r *rand.Rand) []any { return []any{text(r), text(r), text(r), id(r)} }, true},
		{"UPDATE pw.t1 SET k = ? WHERE id = ?", func(r *rand.Rand) []any { return []any{num(r), id(r)} }, true},
		{"DELETE FROM t1 WHERE id = ?", func(r *rand.Rand) []any { return []any{id(r)} }, true},
		{"INSERT INTO t1 (id, k, c) VALUES (?, ?, ?)", func(r *rand.Rand) []any { return []any{id(r), num(r), text(r)} }, true},
		{"INSERT INTO t1 (k, v) VALUES (?, ?)", func(r *rand.Rand) []any { return []any{num(r), text(r)} }, true},
		{"INSERT INTO t1 (id, k, s, c) VALUES (?, ?, ?, ?)", func(r *rand.Rand) []any { return []any{[]any{nil, 0}[r.IntN(2)], num(r), num(r), text(r)} }, true},
		{"INSERT INTO t1 (s) VALUES (?)", func(r *rand.Rand) []any { return []any{num(r)} }, true},
		{"INSERT INTO t2 VALUES (?, ?, ?)", func(r *rand.Rand) []any { return []any{r.IntN(3), id(r), num(r)} }, true},
		{"INSERT INTO t3 VALUES (?, ?, ?)", func(r *rand.Rand) []any { return []any{id(r), r.IntN(15), 1} }, false},
		{"INSERT INTO t4 (id) VALUES (?)", func(r *rand.Rand) []any { return []any{id(r)} }, false}, // a DECIMAL default
		{"DELETE FROM t4 WHERE id = ?", func(r *rand.Rand) []any { return []any{id(r)} }, true},
		{"INSERT INTO pwx.chk VALUES (?, ?)", func(r *rand.Rand) []any { return []any{id(r), num(r)} }, false},
		{"UPDATE t2 SET x = x + ? WHERE a = ? AND b = ?", func(r *rand.Rand) []any { return []any{num(r), r.IntN(3), id(r)} }, true},
		{"DELETE FROM t2 WHERE b = ? AND a = ?", func(r *rand.Rand) []any { return []any{id(r), r.IntN(3)} }, true},
		{"UPDATE t3 SET u = ? WHERE id = ?", func(r *rand.Rand) []any { return []any{r.IntN(15), id(r)} }, false},
		{"UPDATE t3 SET n = n + 1 WHERE id = ?", func(r *rand.Rand) []any { return []any{id(r)} }, true},
		{"UPDATE t3 SET n = n - 0 WHERE id = ?", func(r *rand.Rand) []any { return []any{id(r)} }, true}, // changes nothing
		{"UPDATE pwx.trig SET v = ? WHERE id = ?", func(r *rand.Rand) []any { return []any{num(r), id(r)} }, false},
		{"UPDATE pwx.chk SET n = n + 10 WHERE id = ?", func(r *rand.Rand) []any { return []any{id(r)} }, false},
		{"DELETE FROM pwx.par WHERE id = ?", func(r *rand.Rand) []any { return []any{id(r)} }, false},
		{"UPDATE pwx.ch SET pid = ? WHERE id = ?", func(r *rand.Rand) []any { return []any{id(r), id(r)} }, false},
	}
	stmts := make([][]*gosql.Stmt, len(shapes)) // [shape][side*2 + found]
	for i, sh := range shapes {
		for _, s := range sides {
			stmts[i] = append(stmts[i], prepareOn(t, []*gosql.Conn{s.c, s.found}, sh.q)...)
		}
	}
	// answer is one statement's OK packet or error, and what the
	// session says of it after.
	// A text statement (asText) has its arguments written into it as
	// literals; its answer is what the driver reports.
	answer := func(s side, st *gosql.Stmt, found bool, args []any, asText string) (string, bool) {
		c := s.c
		if found {
			c = s.found
		}
		var out string
		fast := false
		if asText != "" {
			res, err := c.ExecContext(ctx, asText)
			s.tap.take() // (the fast path taps text results too)
			if err != nil {
				out = "error: " + err.Error()
			} else {
				n, _ := res.RowsAffected()
				id, _ := res.LastInsertId()
				out = fmt.Sprintf("affected %d id %d", n, id)
			}
		} else {
			_, err := st.ExecContext(ctx, args...)
			res, fastSent := s.tap.takeFast()
			switch {
			case err != nil:
				out = "error: " + err.Error()
			case len(res) != 1:
				return fmt.Sprintf("%d results", len(res)), false
			default:
				out = fmt.Sprintf("affected %d id %d info %q", res[0].RowsAffected, res[0].InsertID, res[0].Info)
			}
			fast = len(fastSent) == 1 && fastSent[0]
		}
		after, err := queryStrings(c, "SELECT ROW_COUNT(), FOUND_ROWS(), LAST_INSERT_ID()")
		if err != nil {
			return out + " error: " + err.Error(), false
		}
		warn, err := queryStrings(c, "SHOW WARNINGS")
		if err != nil {
			return out + " error: " + err.Error(), false
		}
		return out + " | " + strings.Join(after, ",") + " | " + strings.Join(warn, ";"), fast
	}
	tables := []string{"pw.t1", "pw.t2", "pw.t3", "pw.t4", "pwx.trig", "pwx.tlog", "pwx.chk", "pwx.par", "pwx.ch"}
	sameTables := func(when string) {
		t.Helper()
		for _, tb := range tables {
			want := queryRows(t, sides[0].c, "SELECT * FROM "+tb+" ORDER BY 1, 2")
			got := queryRows(t, sides[1].c, "SELECT * FROM "+tb+" ORDER BY 1, 2")
			if joinLines(want) != joinLines(got) {
				t.Fatalf("%s: %s differs:\nfast path:\n%s\ngo-mysql-server:\n%s", when, tb, joinLines(got), joinLines(want))
			}
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	modes := []string{"STRICT_TRANS_TABLES", "", "STRICT_ALL_TABLES,NO_UNSIGNED_SUBTRACTION", "TRADITIONAL"}
	var fastN, plainN, txnFast int
	txn, savepoint := "", false // the transaction open on c, and whether it has s1
	perShape := map[int]int{}
	var history []string
	for step := 0; step < 2500; step++ {
		if r.IntN(40) == 0 {
			q := fmt.Sprintf("SET SESSION sql_mode = '%s'", modes[r.IntN(len(modes))])
			history = append(history, q)
			for _, s := range sides {
				mustExec(t, s.c, q)
				mustExec(t, s.found, q)
			}
			continue
		}
		if r.IntN(25) == 0 {
			// Transactions: BEGIN, START TRANSACTION or autocommit off;
			// savepoints; COMMIT or ROLLBACK. (The CLIENT_FOUND_ROWS
			// connection waits meanwhile: it would wait for the locks.)
			var qs []string
			switch {
			case txn == "":
				txn = []string{"BEGIN", "START TRANSACTION", "SET autocommit = 0"}[r.IntN(3)]
				qs = []string{txn}
			case r.IntN(3) == 0:
				qs, savepoint = []string{"SAVEPOINT s1"}, true
			case savepoint && r.IntN(2) == 0:
				qs = []string{"ROLLBACK TO SAVEPOINT s1"}
			default:
				qs = []string{[]string{"COMMIT", "ROLLBACK"}[r.IntN(2)]}
				if txn == "SET autocommit = 0" {
					qs = append(qs, "SET autocommit = 1")
				}
				txn, savepoint = "", false
			}
			history = append(history, qs...)
			for _, s := range sides {
				mustExec(t, s.c, qs...)
			}
			continue
		}
		i := r.IntN(len(shapes))
		sh := shapes[i]
		args, found := sh.args(r), txn == "" && r.IntN(4) == 0
		asText := ""
		if r.IntN(3) == 0 {
			asText = textWith(sh.q, args)
		}
		history = append(history, fmt.Sprintf("%s %v found=%v text=%q", sh.q, args, found, asText))
		var answers []string
		var fastSent []bool
		before := fast.s.mh.stats.PointWrites.Load()
		for k, s := range sides {
			j := 2 * k
			if found {
				j++
			}
			a, f := answer(s, stmts[i][j], found, args, asText)
			answers = append(answers, a)
			fastSent = append(fastSent, f)
		}
		if answers[0] != answers[1] {
			t.Fatalf("step %d: %s %v (found rows %v, text %q):\nfast path: %s\ngo-mysql-server: %s\nhistory:\n%s",
				step, sh.q, args, found, asText, answers[1], answers[0], strings.Join(history[max(0, len(history)-15):], "\n"))
		}
		if fastSent[0] {
			t.Fatalf("step %d: the server without fast paths used one", step)
		}
		counted := fast.s.mh.stats.PointWrites.Load() - before
		if asText == "" && counted != int64(boolInt(fastSent[1])) {
			t.Fatalf("step %d: PointWrites counted %d, the tap saw %v", step, counted, fastSent[1])
		}
		if counted == 1 {
			fastN++
			if txn != "" {
				txnFast++
			}
			perShape[i]++
			if !sh.plain {
				t.Fatalf("step %d: %s took the fast path", step, sh.q)
			}
		}
		if sh.plain {
			plainN++
		}
		if step%250 == 0 {
			sameTables(fmt.Sprintf("step %d", step))
		}
	}
	for _, s := range sides {
		mustExec(t, s.c, "COMMIT", "SET autocommit = 1")
	}
	sameTables("the end")
	if txnFast < 100 {
		t.Fatalf("%d point writes inside transactions took the fast path, want 100 or more", txnFast)
	}
	t.Logf("%d of %d plain point writes took the fast path (%d inside transactions) %v", fastN, plainN, txnFast, perShape)
	if fastN < plainN/3 {
		t.Fatalf("%d of %d plain point writes took the fast path, want a third or more", fastN, plainN)
	}
}

// textWith writes args into q's placeholders as SQL literals.
func textWith(q string, args []any) string {
	var b strings.Builder
	for _, a := range args {
		i := strings.IndexByte(q, '?')
		b.WriteString(q[:i])
		q = q[i+1:]
		switch v := a.(type) {
		case nil:
			b.WriteString("NULL")
		case string:
			b.WriteString("'" + strings.ReplaceAll(v, "'", "''") + "'")
		default:
			fmt.Fprint(&b, v)
		}
	}
	return b.String() + q
}

// TestPointWritesLock checks the row lock of point writes: fast-path
// increments, autocommit and inside transactions, racing each other lose
// none; a fast-path write that waited for a lock writes over the row as
// the other transaction left it; a lock wait timeout and a deadlock are
// the errors the statements get without the fast path, with the same
// rows after.
func TestPointWritesLock(t *testing.T) {
	general := startTestServer(t, "", Config{NoPointFastPath: true})
	fast := startTestServer(t, "", Config{})
	ctx := context.Background()
	var timeouts, deadlocks []string
	for _, ts := range []*testServer{general, fast} {
		root := ts.conn("")
		mustExec(t, root, "CREATE DATABASE pl", "CREATE TABLE pl.t (id INT PRIMARY KEY, k INT NOT NULL)",
			"INSERT INTO pl.t VALUES (1, 0), (2, 0)")
		holder, waiter := ts.conn("pl"), ts.conn("pl")
		st, err := waiter.PrepareContext(ctx, "UPDATE t SET k = k + 1 WHERE id = ?")
		if err != nil {
			t.Fatal(err)
		}
		mustExec(t, waiter, "SET SESSION innodb_lock_wait_timeout = 1")
		mustExec(t, holder, "BEGIN", "UPDATE t SET k = k + 100 WHERE id = 2")
		_, err = st.ExecContext(ctx, 2)
		timeouts = append(timeouts, fmt.Sprint(err))
		mustExec(t, waiter, "SET SESSION innodb_lock_wait_timeout = 50")
		done := make(chan error, 1)
		go func() { _, err := st.ExecContext(ctx, 2); done <- err }()
		time.Sleep(100 * time.Millisecond)
		mustExec(t, holder, "UPDATE t SET k = k + 10 WHERE id = 2", "COMMIT")
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		expectRows(t, root, "SELECT k FROM pl.t WHERE id = 2", "111")
		st.Close()

		// holder and waiter each lock a row, then want the other's.
		mustExec(t, holder, "BEGIN", "UPDATE t SET k = k + 1 WHERE id = 1")
		mustExec(t, waiter, "BEGIN", "UPDATE t SET k = k + 1 WHERE id = 2")
		go func() { _, err := holder.ExecContext(ctx, "UPDATE t SET k = k + 1 WHERE id = 2"); done <- err }()
		time.Sleep(100 * time.Millisecond)
		_, err = waiter.ExecContext(ctx, "UPDATE t SET k = k + 1 WHERE id = 1")
		if err := <-done; err != nil {
			t.Fatal(err)
		}
		mustExec(t, holder, "COMMIT")
		mustExec(t, waiter, "ROLLBACK")
		deadlocks = append(deadlocks, fmt.Sprint(err, queryRows(t, root, "SELECT * FROM pl.t ORDER BY id")))
		mustExec(t, root, "UPDATE pl.t SET k = 0")
	}
	if timeouts[0] != timeouts[1] || !strings.Contains(timeouts[0], "1205") {
		t.Fatalf("lock wait timeout: fast path %q, go-mysql-server %q", timeouts[1], timeouts[0])
	}
	if deadlocks[0] != deadlocks[1] || !strings.Contains(deadlocks[0], "1213") {
		t.Fatalf("deadlock: fast path %q, go-mysql-server %q", deadlocks[1], deadlocks[0])
	}

	const workers, each, txns = 4, 150, 40
	var wg sync.WaitGroup
	errs := make(chan error, workers+2)
	before := fast.s.mh.stats.PointWrites.Load()
	for w := 0; w < workers; w++ {
		c := fast.conn("pl")
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, err := c.PrepareContext(ctx, "UPDATE t SET k = k + 1 WHERE id = ?")
			if err != nil {
				errs <- err
				return
			}
			defer st.Close()
			for i := 0; i < each; i++ {
				if _, err := st.ExecContext(ctx, 1); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for w := 0; w < 2; w++ {
		c := fast.conn("pl")
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < txns; i++ {
				for _, q := range []string{"BEGIN", "UPDATE t SET k = k + 1 WHERE id = 1", "COMMIT"} {
					if _, err := c.ExecContext(ctx, q); err != nil {
						errs <- err
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	expectRows(t, fast.conn(""), "SELECT k FROM pl.t WHERE id = 1", fmt.Sprint(workers*each+2*txns))
	if n := fast.s.mh.stats.PointWrites.Load() - before; n != workers*each+2*txns {
		t.Fatalf("%d of %d increments took the fast path", n, workers*each+2*txns)
	}
}

// TestPointWriteGrants: a prepared point write is checked against the
// account's grants as they are at each execution (the fast path keeps an
// authorization only while the grant tables and the current database are
// unchanged): a REVOKE refuses the next execution and writes nothing, a
// GRANT lets it through again, and the same text after USE of another
// database is checked there.
func TestPointWriteGrants(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	root := ts.conn("")
	mustExec(t, root, "CREATE DATABASE g1", "CREATE DATABASE g2",
		"CREATE TABLE g1.t (id INT PRIMARY KEY, n INT)", "CREATE TABLE g2.t (id INT PRIMARY KEY, n INT)",
		"INSERT INTO g1.t VALUES (1, 0)", "INSERT INTO g2.t VALUES (1, 0)",
		"CREATE USER 'wu'@'%' IDENTIFIED BY 'pw'", "GRANT SELECT, UPDATE ON g1.t TO 'wu'@'%'", "GRANT SELECT ON g2.t TO 'wu'@'%'")
	db, err := gosql.Open("mysql", ts.dsn("wu", "pw", "g1"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	st, err := c.PrepareContext(ctx, "UPDATE t SET n = n + 1 WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	update := func(want string) {
		t.Helper()
		_, err := st.ExecContext(ctx, 1)
		switch {
		case want == "" && err != nil:
			t.Fatalf("update: %v", err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Fatalf("update: got %v, want an error with %q", err, want)
		}
	}
	count := func(table string) string {
		t.Helper()
		return strings.Join(queryRows(t, root, "SELECT n FROM "+table), ",")
	}
	update("")
	update("")
	mustExec(t, root, "REVOKE UPDATE ON g1.t FROM 'wu'@'%'")
	update("denied")
	if n := count("g1.t"); n != "2" {
		t.Fatalf("after the REVOKE: n = %s, want 2", n)
	}
	mustExec(t, root, "GRANT UPDATE ON g1.* TO 'wu'@'%'")
	update("")
	if _, err := c.ExecContext(ctx, "USE g2"); err != nil {
		t.Fatal(err)
	}
	update("denied")
	if n := count("g2.t"); n != "0" {
		t.Fatalf("g2.t written without the grant: n = %s", n)
	}
	if n := count("g1.t"); n != "3" {
		t.Fatalf("g1.t: n = %s, want 3", n)
	}
}
