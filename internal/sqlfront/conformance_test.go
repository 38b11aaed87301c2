package sqlfront

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// confCase is the SQL side of one case of the HandlerSocket conformance
// corpus (testdata/conformance, see its FORMAT.md).
type confCase struct {
	file, name string
	setup      []string
	queries    []confQuery
	hsWrites   bool // the case writes over the HandlerSocket write port
}

type confQuery struct {
	line int
	sql  string
	rows [][]*string // nil entry = NULL
}

// unescape decodes the corpus' byte escape notation.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case '\\':
			b.WriteByte('\\')
		case 'x':
			if i+2 < len(s) {
				if v, err := strconv.ParseUint(s[i+1:i+3], 16, 8); err == nil {
					b.WriteByte(byte(v))
					i += 2
					continue
				}
			}
			b.WriteString(`\x`)
		default:
			b.WriteByte('\\')
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// parseRow reads an '=' line's fields.
func parseRow(s string) []*string {
	if s == "" {
		e := ""
		return []*string{&e}
	}
	var out []*string
	for _, f := range strings.Split(s, `\t`) {
		if f == `\N` {
			out = append(out, nil)
			continue
		}
		v := unescape(f)
		out = append(out, &v)
	}
	return out
}

func loadConformance(t *testing.T) []*confCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "conformance", "cases", "*.case"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no conformance cases found: %v", err)
	}
	var cases []*confCase
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		var cur *confCase
		var q *confQuery
		n := 0
		for sc.Scan() {
			n++
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "case "):
				cur = &confCase{file: filepath.Base(f), name: strings.TrimSpace(line[5:])}
				cases = append(cases, cur)
				q = nil
			case cur == nil:
			case strings.HasPrefix(line, "setup "):
				cur.setup = append(cur.setup, line[len("setup "):])
			case strings.HasPrefix(line, "> w"):
				cur.hsWrites = true
			case strings.HasPrefix(line, "sql> "):
				cur.queries = append(cur.queries, confQuery{line: n, sql: line[len("sql> "):]})
				q = &cur.queries[len(cur.queries)-1]
			case strings.HasPrefix(line, "rows "):
			case line == "=" || strings.HasPrefix(line, "= "):
				if q != nil {
					q.rows = append(q.rows, parseRow(strings.TrimPrefix(strings.TrimPrefix(line, "="), " ")))
				}
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return cases
}

// TestConformanceSQL runs, over the SQL port in database conf, every setup
// statement and every sql> query of the HandlerSocket conformance corpus,
// and compares the rows of the queries of cases that write nothing over
// HandlerSocket (the others depend on HandlerSocket writes this test does
// not make).
func TestConformanceSQL(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE conf")
	c := ts.conn("conf")
	cases := loadConformance(t)
	var nSetup, nQuery, nCompared int
	for _, cc := range cases {
		t.Run(cc.file+"/"+cc.name, func(t *testing.T) {
			for _, s := range cc.setup {
				if _, err := c.ExecContext(context.Background(), s); err != nil {
					t.Fatalf("setup %s: %v", s, err)
				}
				nSetup++
			}
			for _, q := range cc.queries {
				got, err := queryNullable(c, q.sql)
				if err != nil {
					t.Fatalf("line %d: %s: %v", q.line, q.sql, err)
				}
				nQuery++
				if cc.hsWrites {
					continue
				}
				nCompared++
				if a, b := formatRows(got), formatRows(q.rows); a != b {
					t.Errorf("line %d: %s:\n got:\n%s\nwant:\n%s", q.line, q.sql, a, b)
				}
			}
		})
	}
	t.Logf("%d cases: %d setup statements, %d queries run, %d compared", len(cases), nSetup, nQuery, nCompared)
}

func queryNullable(db execer, q string) ([][]*string, error) {
	rs, err := db.QueryContext(context.Background(), q)
	if err != nil {
		return nil, err
	}
	defer rs.Close()
	cols, _ := rs.Columns()
	var out [][]*string
	for rs.Next() {
		vals := make([]any, len(cols))
		raw := make([][]byte, len(cols))
		for i := range vals {
			vals[i] = &raw[i]
		}
		if err := rs.Scan(vals...); err != nil {
			return nil, err
		}
		row := make([]*string, len(cols))
		for i, v := range raw {
			if v != nil {
				s := string(v)
				row[i] = &s
			}
		}
		out = append(out, row)
	}
	return out, rs.Err()
}

func formatRows(rows [][]*string) string {
	var b strings.Builder
	for _, r := range rows {
		for i, v := range r {
			if i > 0 {
				b.WriteString(" | ")
			}
			if v == nil {
				b.WriteString("NULL")
			} else {
				fmt.Fprintf(&b, "%q", *v)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
