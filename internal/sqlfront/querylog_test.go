package sqlfront

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestQueryLogs: the general query log has each connection, statement,
// prepare and execute (its parameters written in), a multi-statement text
// once, and the disconnection; the slow query log each statement that ran
// for long_query_time or more, in MariaDB's format; turning a log off
// stops it. Files and switches come from the server's configuration.
func TestQueryLogs(t *testing.T) {
	dir := t.TempDir()
	gen, slow := filepath.Join(dir, "gen.log"), filepath.Join(dir, "slow.log")
	long := 0.05
	ts := startTestServer(t, "", Config{GeneralLog: true, GeneralLogFile: gen, SlowQueryLog: true, SlowQueryLogFile: slow, LongQueryTime: &long})
	db := ts.open("")
	t.Cleanup(func() {
		mustExec(t, db, "SET GLOBAL general_log = 0", "SET GLOBAL slow_query_log = 0", "SET GLOBAL long_query_time = 10",
			"SET GLOBAL general_log_file = '"+generalLog.defName+"'", "SET GLOBAL slow_query_log_file = '"+slowLog.defName+"'")
	})
	ctx := context.Background()
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE ql", "USE ql", "CREATE TABLE t (id INT PRIMARY KEY)", "INSERT INTO t VALUES (1), (2)")
	expectRows(t, c, "SELECT SLEEP(0.1), COUNT(*) FROM t", "0|2")
	var n int
	var s string
	if err := c.QueryRowContext(ctx, "SELECT ? + SLEEP(0.06), ?", 5, "it's").Scan(&n, &s); err != nil || n != 5 {
		t.Fatalf("prepared: %d %v", n, err)
	}
	multi, err := openPool(ts.dsn("root", "", "ql") + "&multiStatements=true")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := multi.Exec("DELETE FROM t WHERE id = 2; DO SLEEP(0.06)"); err != nil {
		t.Fatal(err)
	}
	multi.Close()
	// The server logs the Quit when it reads it, after Close returned.
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if b, _ := os.ReadFile(gen); strings.Contains(string(b), " Quit\t") {
			break
		}
	}
	mustExec(t, db, "SET GLOBAL general_log = 0", "SET GLOBAL slow_query_log = 0")
	expectRows(t, c, "SELECT 'after', SLEEP(0.06)", "after|0")

	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	g := read(gen)
	if !strings.HasPrefix(g, "handlerdb, Version: "+DefaultVersionString+". started with:\nTcp port: ") ||
		!strings.Contains(g, "\nTime\t\t    Id Command\tArgument\n") {
		t.Errorf("general log header:\n%s", g)
	}
	line := regexp.MustCompile(`(?m)^(?:\d{6} [ \d]\d:\d\d:\d\d|\t)\t +(\d+) (\w+(?: \w+)?)\t(.*)$`)
	var got []string
	ids := map[string]bool{}
	for _, m := range line.FindAllStringSubmatch(g, -1) {
		ids[m[1]] = true
		got = append(got, m[2]+"|"+m[3])
	}
	text := strings.Join(got, "\n")
	for _, want := range []string{
		"Connect|root@127.0.0.1 on  using TCP/IP",
		"Query|USE ql",
		"Query|SELECT SLEEP(0.1), COUNT(*) FROM t",
		"Prepare|SELECT ? + SLEEP(0.06), ?",
		`Execute|SELECT 5 + SLEEP(0.06), 'it\'s'`,
		"Connect|root@127.0.0.1 on ql using TCP/IP",
		"Query|DELETE FROM t WHERE id = 2; DO SLEEP(0.06)",
		"Quit|",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("general log lacks %q:\n%s", want, text)
		}
	}
	if strings.Count(text, "DO SLEEP(0.06)") != 1 || strings.Contains(text, "after") || len(ids) < 3 {
		t.Errorf("general log: the multi-statement text once, nothing after it was turned off, three connections:\n%s", text)
	}

	sl := read(slow)
	entry := regexp.MustCompile(`(?m)^# User@Host: root\[root\] @  \[127\.0\.0\.1\]\n# Thread_id: \d+  Schema: (\w*)  QC_hit: No\n# Query_time: ([\d.]+)  Lock_time: 0\.000000  Rows_sent: (\d+)  Rows_examined: 0\n# Rows_affected: (\d+)  Bytes_sent: 0\n(?:use ` + "`ql`" + `;\n)?SET timestamp=\d+;\n(.*)\n`)
	got = got[:0]
	for _, m := range entry.FindAllStringSubmatch(sl, -1) {
		if q, err := strconv.ParseFloat(m[2], 64); err != nil || q < long {
			t.Errorf("query time %s below long_query_time", m[2])
		}
		got = append(got, m[1]+"|"+m[3]+"|"+m[4]+"|"+m[5])
	}
	want := []string{
		"ql|1|0|SELECT SLEEP(0.1), COUNT(*) FROM t;",
		`ql|1|0|SELECT 5 + SLEEP(0.06), 'it\'s';`,
		"ql|0|0|DO SLEEP(0.06);",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("slow log entries:\n got %q\nwant %q\n%s", got, want, sl)
	}
	if !strings.Contains(sl, "\nuse `ql`;\n") {
		t.Errorf("slow log has no use `ql`:\n%s", sl)
	}
}
