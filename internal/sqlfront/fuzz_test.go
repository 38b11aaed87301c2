package sqlfront

import (
	"context"
	gosql "database/sql"
	"runtime"
	"strings"
	"testing"
	"time"
)

// maxFuzzAlloc bounds the heap one fuzz input may allocate.
const maxFuzzAlloc = 256 << 20

// fuzzTarget is the live server FuzzSQL sends its inputs to: one per
// process (the fuzzing engine runs FuzzSQL once in each worker, and the
// inputs one after the other). Inputs run as the account fuzz, which may
// do anything in the database fuzz and nothing else (so that no input can
// lock the checks out, as DROP USER root would); the checks run as root.
type fuzzTarget struct {
	ts   *testServer
	root *gosql.DB
	user *gosql.DB
	conn *gosql.Conn // the inputs' connection, nil after one broke it
}

// startFuzzTarget starts the server for the fuzz test f.
func startFuzzTarget(f *testing.F) *fuzzTarget {
	ft := &fuzzTarget{ts: startTestServer(f, "", Config{})}
	ft.root = ft.ts.open("")
	mustExec(f, ft.root,
		"CREATE DATABASE fuzz",
		"CREATE USER 'fuzz'@'%' IDENTIFIED BY 'fuzz'",
		"GRANT ALL ON fuzz.* TO 'fuzz'@'%'",
		"CREATE TABLE fuzz.t (id INT PRIMARY KEY, v VARCHAR(20), n DOUBLE, KEY (v))",
		"INSERT INTO fuzz.t VALUES (1, 'a', 1.5), (2, 'b', NULL), (3, NULL, -2)")
	var err error
	ft.user, err = openPool(ft.ts.dsn("fuzz", "fuzz", "") + "&multiStatements=true&maxAllowedPacket=0")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		ft.drop()
		ft.user.Close()
	})
	return ft
}

// session returns the input connection, opening one when there is none,
// in the database fuzz (created again if an input dropped it).
func (ft *fuzzTarget) session(t *testing.T) *gosql.Conn {
	if ft.conn != nil {
		return ft.conn
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := ft.user.Conn(ctx)
	if err != nil {
		t.Fatalf("server does not accept connections: %v", err)
	}
	if _, err := c.ExecContext(ctx, "USE fuzz"); err != nil {
		// An input dropped the database.
		if _, err := ft.root.ExecContext(ctx, "CREATE DATABASE IF NOT EXISTS fuzz"); err != nil {
			t.Fatalf("server does not answer: %v", err)
		}
		if _, err := c.ExecContext(ctx, "USE fuzz"); err != nil {
			t.Fatalf("server does not answer: %v", err)
		}
	}
	ft.conn = c
	return c
}

// drop forgets the input connection (after an input broke it).
func (ft *fuzzTarget) drop() {
	if ft.conn != nil {
		ft.conn.Close()
		ft.conn = nil
	}
}

// run sends one input as a text query and as a prepared statement,
// ignoring SQL errors, and then checks that the server still answers.
func (ft *fuzzTarget) run(t *testing.T, q string) {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	defer func() {
		// No input may take the host's memory: the heap the input
		// allocated (server and client, both in this process, twice: as
		// a query and prepared) stays under maxFuzzAlloc.
		runtime.ReadMemStats(&after)
		if d := after.TotalAlloc - before.TotalAlloc; d > maxFuzzAlloc {
			t.Fatalf("%.200q allocated %d MiB, want at most %d MiB", q, d>>20, maxFuzzAlloc>>20)
		}
	}()
	for _, prepare := range []bool{false, true} {
		c := ft.session(t)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		var err error
		if prepare {
			var st *gosql.Stmt
			if st, err = c.PrepareContext(ctx, q); err == nil {
				st.Close()
			}
		} else {
			var rows *gosql.Rows
			if rows, err = c.QueryContext(ctx, q); err == nil {
				for rows.Next() {
				}
				err = rows.Close()
			}
		}
		cancel()
		_ = err // SQL errors are expected
		ctx, cancel = context.WithTimeout(context.Background(), 10*time.Second)
		var one int
		if err := c.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			// The input broke its connection (an error the protocol
			// cannot report, or a panic go-mysql-server's listener
			// recovered): a new connection must work.
			ft.drop()
			if err := ft.root.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
				cancel()
				t.Fatalf("after %.200q (prepare %v): the server no longer answers: %v", q, prepare, err)
			}
		}
		cancel()
	}
}

// FuzzSQL sends arbitrary statements to a live server and fails if one of
// them stops it from answering. The seeds (testdata/fuzz/FuzzSQL and the
// generated ones below) run as a normal test.
func FuzzSQL(f *testing.F) {
	ft := startFuzzTarget(f)
	// A few seeds are generated (the engine mutates small inputs faster;
	// TestDeepStatementsRefused sends the huge ones).
	for _, q := range []string{
		"SELECT " + strings.Repeat("~", 1200) + "1",
		"SELECT 1 FROM t WHERE " + strings.Repeat("id = 1 OR ", 1200) + "id = 2",
		"SELECT " + strings.Repeat("(CASE WHEN 1 THEN ", 1200) + "1" + strings.Repeat(" END)", 1200),
		"SELECT CASE id" + strings.Repeat(" WHEN 1 THEN (CASE WHEN v THEN 2 END)", 300) + " END FROM t",
		"INSERT INTO t (id, v) VALUES " + strings.Repeat("(10, 'x'), ", 300) + "(11, 'y')",
		// Expression-heavy inputs: values past max_allowed_packet are
		// NULL, REGEXP is linear or bounded per match (see
		// exprlimits_test.go).
		"SELECT REPEAT('x', 1e9), LPAD('x', 1e9, 'y'), RPAD(v, 1e9, v), SPACE(1e9) FROM t",
		"SELECT REPEAT(REPEAT('x', 1e5), 1e5), CONCAT_WS(v, REPEAT(v, 1e8), v) FROM t",
		"SELECT CONCAT(" + strings.Repeat("REPEAT('x', 1e7), ", 20) + "1), HEX(REPEAT('x', 1e8)), TO_BASE64(SPACE(1e8))",
		"SELECT REPLACE(REPEAT('a', 1e6), 'a', REPEAT('b', 100)), GROUP_CONCAT(REPEAT(v, 1e6)) FROM t",
		"SELECT REPEAT('a', 30) REGEXP '^(a+)+$b', v RLIKE '(x+x+)+y', REGEXP_LIKE(REPEAT(v, 1e6), '(a|aa)*c') FROM t",
		"SELECT REGEXP_REPLACE(REPEAT(v, 1e5), '(.)', REPEAT('\\\\1', 500)), REGEXP_SUBSTR(REPEAT('a', 40), '(a|aa)+(?=c)\\\\1'), REGEXP_INSTR(v, '(?<=x)y', 1, 3) FROM t",
	} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		ft.run(t, q)
	})
}
