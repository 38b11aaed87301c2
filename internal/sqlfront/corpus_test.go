package sqlfront

import (
	"context"
	gosql "database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/go-sql-driver/mysql"
)

// The SQL corpus (testdata/sqlcorpus) is a differential test: every
// NAME.sql is replayed over the MySQL protocol and the rendered answers are
// compared with NAME.out, recorded from MariaDB 10.11 by
// scripts/record-sql-corpus.sh (HANDLERDB_SQLCORPUS_RECORD=<dsn> makes this
// test write the .out files from that server instead of comparing;
// HANDLERDB_SQLCORPUS_ONLY=name[,name] records only those scripts).
//
// NAME.sql: statements, each ending with ';' at the end of a line (one
// statement may span lines; no DELIMITER). Lines starting with "--" are
// comments; "-- deviation: reason" right before a statement lets its
// answer differ from MariaDB's, and "-- include: FILE" stands for the
// statements of FILE (in this directory; a setup several scripts share).
//
// NAME.out: for each statement a block
//
//	-- N
//	<statement>;
//	ok <rows affected>                       | error <errno> <sqlstate> <message>
//	| <column names, tab-separated>
//	| <rows, tab-separated; NULL as NULL; not-UTF-8 values as 0x<HEX>;
//	|  '\' tab and newline inside values as \\ \t \n>
//
// with a blank line between blocks. Each script runs on one connection (so
// session state carries) in a fresh database named after the script
// (sqlcorpus_<name> with '-' as '_').

const corpusDir = "../../testdata/sqlcorpus"

type corpusScript struct {
	name       string
	stmts      []string
	deviations map[int]string // statement number -> reason
}

var (
	deviationRE = regexp.MustCompile(`^--\s*deviation:\s*(.*)$`)
	includeRE   = regexp.MustCompile(`^--\s*include:\s*(\S+)\s*$`)
)

// parseCorpusScript splits a script into statements; include reads the
// files its include lines name.
func parseCorpusScript(name, text string, include func(string) (string, error)) (*corpusScript, error) {
	sc := &corpusScript{name: name, deviations: map[int]string{}}
	var cur []string
	deviation := ""
	lines := strings.Split(text, "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimRight(lines[i], " \t\r")
		trimmed := strings.TrimSpace(line)
		if len(cur) == 0 && (trimmed == "" || strings.HasPrefix(trimmed, "--")) {
			if m := includeRE.FindStringSubmatch(trimmed); m != nil {
				inc, err := include(m[1])
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", name, i+1, err)
				}
				rest := append(strings.Split(strings.TrimRight(inc, "\n"), "\n"), lines[i+1:]...)
				lines = append(lines[:i+1:i+1], rest...)
			} else if m := deviationRE.FindStringSubmatch(trimmed); m != nil {
				deviation = strings.TrimSpace(m[1])
			}
			continue
		}
		if trimmed == "" || strings.HasPrefix(trimmed, "-- ") || trimmed == "--" {
			continue // blank and comment lines inside a statement are dropped
		}
		cur = append(cur, line)
		if strings.HasSuffix(line, ";") {
			stmt := strings.Join(cur, "\n")
			stmt = strings.TrimSpace(strings.TrimSuffix(stmt, ";"))
			sc.stmts = append(sc.stmts, stmt)
			if deviation != "" {
				sc.deviations[len(sc.stmts)] = deviation
				deviation = ""
			}
			cur = nil
		}
	}
	if len(cur) != 0 {
		return nil, fmt.Errorf("%s: last statement does not end with ';'", name)
	}
	if deviation != "" {
		return nil, fmt.Errorf("%s: a deviation comment with no statement after it", name)
	}
	return sc, nil
}

func corpusDBName(script string) string {
	return "sqlcorpus_" + strings.NewReplacer("-", "_", ".", "_").Replace(script)
}

// corpusIsQuery tells whether a statement returns a result set.
func corpusIsQuery(stmt string) bool {
	s := strings.TrimLeft(stmt, " \t\n(")
	words := strings.FieldsFunc(s, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '(' || r == ';'
	})
	if len(words) == 0 {
		return false
	}
	switch strings.ToUpper(words[0]) {
	case "SELECT", "SHOW", "WITH", "DESC", "DESCRIBE", "EXPLAIN", "VALUES", "TABLE", "CHECKSUM", "ANALYZE", "CHECK":
		return true
	}
	return false
}

func corpusValue(v gosql.RawBytes) string {
	if v == nil {
		return "NULL"
	}
	if !utf8.Valid(v) {
		return "0x" + strings.ToUpper(hex.EncodeToString(v))
	}
	return strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`).Replace(string(v))
}

func corpusError(err error) string {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		state := string(me.SQLState[:])
		if me.SQLState == [5]byte{} {
			state = "HY000"
		}
		return fmt.Sprintf("error %d %s %s", me.Number, state, strings.ReplaceAll(me.Message, "\n", `\n`))
	}
	return "error client " + strings.ReplaceAll(err.Error(), "\n", `\n`)
}

// runCorpusStmt runs one statement and renders its answer (without the
// header and statement lines).
func runCorpusStmt(ctx context.Context, c *gosql.Conn, stmt string) string {
	if !corpusIsQuery(stmt) {
		res, err := c.ExecContext(ctx, stmt)
		if err != nil {
			return corpusError(err) + "\n"
		}
		n, err := res.RowsAffected()
		if err != nil {
			return corpusError(err) + "\n"
		}
		return fmt.Sprintf("ok %d\n", n)
	}
	rs, err := c.QueryContext(ctx, stmt)
	if err != nil {
		return corpusError(err) + "\n"
	}
	defer rs.Close()
	cols, err := rs.Columns()
	if err != nil {
		return corpusError(err) + "\n"
	}
	var b strings.Builder
	b.WriteString(strings.Join(cols, "\t") + "\n")
	vals := make([]gosql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	parts := make([]string, len(cols))
	for rs.Next() {
		if err := rs.Scan(ptrs...); err != nil {
			return b.String() + corpusError(err) + "\n"
		}
		for i, v := range vals {
			parts[i] = corpusValue(v)
		}
		b.WriteString(strings.Join(parts, "\t") + "\n")
	}
	if err := rs.Err(); err != nil {
		b.WriteString(corpusError(err) + "\n")
	}
	return b.String()
}

// replayCorpus runs a script on a fresh database of the server at dsn
// (which names no database) and returns one rendered block per statement.
func replayCorpus(tb testing.TB, dsn string, sc *corpusScript) []string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	db, err := gosql.Open("mysql", dsn)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	c, err := db.Conn(ctx)
	if err != nil {
		tb.Fatal(err)
	}
	defer c.Close()
	dbName := corpusDBName(sc.name)
	for _, s := range []string{"DROP DATABASE IF EXISTS " + dbName, "CREATE DATABASE " + dbName, "USE " + dbName} {
		if _, err := c.ExecContext(ctx, s); err != nil {
			tb.Fatalf("%s: %s: %v", sc.name, s, err)
		}
	}
	blocks := make([]string, len(sc.stmts))
	for i, stmt := range sc.stmts {
		blocks[i] = fmt.Sprintf("-- %d\n%s;\n", i+1, stmt) + runCorpusStmt(ctx, c, stmt)
	}
	if _, err := c.ExecContext(ctx, "DROP DATABASE IF EXISTS "+dbName); err != nil {
		tb.Logf("%s: dropping %s: %v", sc.name, dbName, err)
	}
	return blocks
}

var corpusHeaderRE = regexp.MustCompile(`^-- ([0-9]+)$`)

// parseCorpusOut splits a .out file into its blocks (as rendered, without
// the blank separator line).
func parseCorpusOut(text string) ([]string, error) {
	var blocks []string
	var cur []string
	flush := func() {
		if cur == nil {
			return
		}
		if n := len(cur); n > 0 && cur[n-1] == "" {
			cur = cur[:n-1] // the blank line before the next block
		}
		blocks = append(blocks, strings.Join(cur, "\n")+"\n")
		cur = nil
	}
	for _, line := range strings.Split(text, "\n") {
		if m := corpusHeaderRE.FindStringSubmatch(line); m != nil {
			flush()
			if n, _ := strconv.Atoi(m[1]); n != len(blocks)+1 {
				return nil, fmt.Errorf("block %d is numbered %d", len(blocks)+1, n)
			}
			cur = []string{}
		} else if cur == nil {
			if line != "" {
				return nil, fmt.Errorf("text before the first block: %q", line)
			}
			continue
		}
		cur = append(cur, line)
	}
	flush()
	return blocks, nil
}

// corpusDiff renders a line diff of want (-) and got (+).
func corpusDiff(want, got string) string {
	a := strings.Split(strings.TrimSuffix(want, "\n"), "\n")
	b := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	// LCS table.
	l := make([][]int, len(a)+1)
	for i := range l {
		l[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out.WriteString("  " + a[i] + "\n")
			i++
			j++
		case j < len(b) && (i == len(a) || l[i][j+1] >= l[i+1][j]):
			out.WriteString("+ " + b[j] + "\n")
			j++
		default:
			out.WriteString("- " + a[i] + "\n")
			i++
		}
	}
	return out.String()
}

func loadCorpus(tb testing.TB) []*corpusScript {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir, "*.sql"))
	if err != nil {
		tb.Fatal(err)
	}
	if len(files) == 0 {
		tb.Fatalf("no scripts in %s", corpusDir)
	}
	sort.Strings(files)
	var scripts []*corpusScript
	for _, f := range files {
		text, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		sc, err := parseCorpusScript(strings.TrimSuffix(filepath.Base(f), ".sql"), string(text), readCorpusFile)
		if err != nil {
			tb.Fatal(err)
		}
		scripts = append(scripts, sc)
	}
	return scripts
}

// readCorpusFile reads a file an include line names.
func readCorpusFile(name string) (string, error) {
	if name != filepath.Base(name) {
		return "", fmt.Errorf("include %q: a name in %s", name, corpusDir)
	}
	b, err := os.ReadFile(filepath.Join(corpusDir, name))
	return string(b), err
}

func TestSQLCorpus(t *testing.T) {
	scripts := loadCorpus(t)
	if dsn := os.Getenv("HANDLERDB_SQLCORPUS_RECORD"); dsn != "" {
		only := map[string]bool{}
		for _, name := range strings.Fields(strings.ReplaceAll(os.Getenv("HANDLERDB_SQLCORPUS_ONLY"), ",", " ")) {
			only[name] = true
		}
		for _, sc := range scripts {
			if len(only) > 0 && !only[sc.name] {
				continue
			}
			blocks := replayCorpus(t, dsn, sc)
			out := filepath.Join(corpusDir, sc.name+".out")
			if err := os.WriteFile(out, []byte(strings.Join(blocks, "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Logf("recorded %s (%d statements)", out, len(blocks))
		}
		return
	}
	ts := startTestServer(t, "", Config{})
	// Every SELECT the plan cache keeps runs from a plan executed
	// before (plancache.go).
	ts.s.mh.plans.check.Store(true)
	dsn := ts.dsn("root", ts.cfg.RootPassword, "")
	for _, sc := range scripts {
		t.Run(sc.name, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(corpusDir, sc.name+".out"))
			if err != nil {
				t.Fatalf("%v (record it with scripts/record-sql-corpus.sh)", err)
			}
			want, err := parseCorpusOut(string(text))
			if err != nil {
				t.Fatalf("%s.out: %v", sc.name, err)
			}
			if len(want) != len(sc.stmts) {
				t.Fatalf("%s.out has %d blocks for %d statements: re-record it (scripts/record-sql-corpus.sh)", sc.name, len(want), len(sc.stmts))
			}
			got := replayCorpus(t, dsn, sc)
			var failed []int
			firstDiff := ""
			matched := 0
			for i := range got {
				n := i + 1
				if reason, ok := sc.deviations[n]; ok {
					same := "differs"
					if got[i] == want[i] {
						same = "now matches MariaDB"
					}
					t.Logf("statement %d: deviation (%s): %s", n, same, reason)
					continue
				}
				if got[i] == want[i] {
					matched++
					continue
				}
				if !strings.HasPrefix(want[i], fmt.Sprintf("-- %d\n%s;\n", n, sc.stmts[i])) {
					t.Fatalf("%s.out block %d is for another statement: re-record it", sc.name, n)
				}
				if firstDiff == "" {
					firstDiff = corpusDiff(want[i], got[i])
				} else if testing.Verbose() {
					t.Logf("statement %d also differs:\n%s", n, corpusDiff(want[i], got[i]))
				}
				failed = append(failed, n)
			}
			t.Logf("%d statements: %d match, %d deviations, %d differ", len(got), matched, len(sc.deviations), len(failed))
			if len(failed) > 0 {
				t.Errorf("statements %v differ from MariaDB's answers; first (- MariaDB, + HandlerDB):\n%s", failed, firstDiff)
			}
		})
	}
}

func TestSQLCorpusParse(t *testing.T) {
	inc := func(name string) (string, error) {
		if name != "setup.inc" {
			return "", fmt.Errorf("no %s", name)
		}
		return "CREATE TABLE t (a INT);\n", nil
	}
	sc, err := parseCorpusScript("x", "-- include: setup.inc\n-- other\nSELECT 1;\n\n-- deviation: why\nSELECT\n  2\n;\nINSERT INTO t VALUES ('a;b');\n", inc)
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.stmts) != 4 || sc.stmts[0] != "CREATE TABLE t (a INT)" || sc.stmts[2] != "SELECT\n  2" || len(sc.deviations) != 1 || sc.deviations[3] != "why" {
		t.Fatalf("%q %v", sc.stmts, sc.deviations)
	}
	if _, err := parseCorpusScript("x", "-- include: other.inc\n", inc); err == nil {
		t.Fatal("a missing include was accepted")
	}
	if _, err := parseCorpusScript("x", "SELECT 1;\n-- deviation: dangling\n", inc); err == nil {
		t.Fatal("a deviation with no statement was accepted")
	}
	blocks := []string{"-- 1\nSELECT 1;\n1\n1\n", "-- 2\nSELECT '';\n''\n\n", "-- 3\nDO 1;\nok 0\n", "-- 4\nSELECT '';\n''\n\n"}
	back, err := parseCorpusOut(strings.Join(blocks, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(back, "|") != strings.Join(blocks, "|") {
		t.Fatalf("%q", back)
	}
}
