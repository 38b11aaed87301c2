// Package conformance reads and replays the HandlerSocket conformance
// corpus (testdata/conformance, format in its FORMAT.md): byte-exact
// request/response exchanges recorded from the real plugin, with SQL set-up
// and SQL checks. It drives any server reachable over TCP: ours in tests,
// or the real plugin.
//
// Parsing is pure. A Runner is used by one goroutine at a time.
package conformance

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// File is one parsed .case file.
type File struct {
	Name   string
	Target string // "default" or "auth"
	Cases  []*Case
}

// Case is one named case: set-up SQL then steps.
type Case struct {
	File  string
	Name  string
	Line  int
	Setup []string
	Steps []Step
	// Deviation is set when a `# DEVIATION` comment in the case marks
	// bytes edited to HandlerDB's deliberate behaviour (NOTES.md).
	Deviation bool
}

// StepKind says what a step does.
type StepKind uint8

// Step kinds.
const (
	StepSend  StepKind = iota // write Bytes on Conn, then read one line per Expect
	StepClose                 // close Conn
	StepSQL                   // run Query, compare Rows
)

// Step is one action of a case.
type Step struct {
	Kind   StepKind
	Line   int
	Conn   string
	Bytes  []byte
	Expect [][]byte // expected lines, each with its LF; nil entry = expect EOF
	Query  string
	Rows   [][]Field
}

// Field is one expected SQL value; Null for `\N`.
type Field struct {
	Null  bool
	Bytes []byte
}

// ParseDir parses every *.case file of dir, sorted by name.
func ParseDir(dir string) ([]*File, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.case"))
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var files []*File
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		f, err := Parse(filepath.Base(n), data)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// Parse parses one case file.
func Parse(name string, data []byte) (*File, error) {
	f := &File{Name: name, Target: "default"}
	var cur *Case
	var sqlStep *Step
	wantRows := 0
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	ln := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s:%d: %s", name, ln, fmt.Sprintf(format, args...))
	}
	for sc.Scan() {
		ln++
		line := sc.Text()
		if wantRows > 0 {
			if !strings.HasPrefix(line, "=") {
				return nil, fail("expected a row line, got %q", line)
			}
			row, err := parseRow(strings.TrimPrefix(strings.TrimPrefix(line, "="), " "))
			if err != nil {
				return nil, fail("%v", err)
			}
			sqlStep.Rows = append(sqlStep.Rows, row)
			wantRows--
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			if cur != nil && strings.Contains(line, "DEVIATION") {
				cur.Deviation = true
			}
			continue
		}
		if strings.HasPrefix(line, "target ") {
			f.Target = strings.TrimSpace(strings.TrimPrefix(line, "target "))
			continue
		}
		if strings.HasPrefix(line, "case ") {
			cur = &Case{File: name, Name: strings.TrimSpace(line[5:]), Line: ln}
			f.Cases = append(f.Cases, cur)
			continue
		}
		if cur == nil {
			return nil, fail("directive before the first case: %q", line)
		}
		n := len(cur.Steps)
		switch {
		case strings.HasPrefix(line, "setup "):
			cur.Setup = append(cur.Setup, line[6:])
		case strings.HasPrefix(line, "> "):
			conn, rest, ok := strings.Cut(line[2:], " ")
			if !ok {
				return nil, fail("send without bytes")
			}
			b, err := Unescape(rest)
			if err != nil {
				return nil, fail("%v", err)
			}
			cur.Steps = append(cur.Steps, Step{Kind: StepSend, Line: ln, Conn: conn, Bytes: b})
		case line == "<eof":
			if n == 0 || cur.Steps[n-1].Kind != StepSend {
				return nil, fail("<eof without a send")
			}
			cur.Steps[n-1].Expect = append(cur.Steps[n-1].Expect, nil)
		case strings.HasPrefix(line, "< "):
			if n == 0 || cur.Steps[n-1].Kind != StepSend {
				return nil, fail("expected line without a send")
			}
			b, err := Unescape(line[2:])
			if err != nil {
				return nil, fail("%v", err)
			}
			cur.Steps[n-1].Expect = append(cur.Steps[n-1].Expect, b)
		case strings.HasPrefix(line, "close "):
			cur.Steps = append(cur.Steps, Step{Kind: StepClose, Line: ln, Conn: strings.TrimSpace(line[6:])})
		case strings.HasPrefix(line, "sql> "):
			cur.Steps = append(cur.Steps, Step{Kind: StepSQL, Line: ln, Query: line[5:]})
			sqlStep = &cur.Steps[len(cur.Steps)-1]
		case strings.HasPrefix(line, "rows "):
			if n == 0 || cur.Steps[n-1].Kind != StepSQL {
				return nil, fail("rows without sql>")
			}
			k, err := strconv.Atoi(strings.TrimSpace(line[5:]))
			if err != nil || k < 0 {
				return nil, fail("bad row count %q", line)
			}
			sqlStep = &cur.Steps[n-1]
			sqlStep.Rows = [][]Field{}
			wantRows = k
		default:
			return nil, fail("unknown directive %q", line)
		}
	}
	if wantRows > 0 {
		return nil, fail("file ends inside a row list")
	}
	return f, sc.Err()
}

// Unescape turns the file's byte notation into bytes.
func Unescape(s string) ([]byte, error) {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i+1 >= len(s) {
			return nil, fmt.Errorf("lone backslash at the end of %q", s)
		}
		i++
		switch s[i] {
		case 't':
			out = append(out, '\t')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case '0':
			out = append(out, 0)
		case '\\':
			out = append(out, '\\')
		case 'x':
			if i+3 > len(s) {
				return nil, fmt.Errorf("short \\x escape in %q", s)
			}
			v, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return nil, fmt.Errorf("bad \\x escape in %q", s)
			}
			out = append(out, byte(v))
			i += 2
		default:
			return nil, fmt.Errorf("unknown escape \\%c in %q", s[i], s)
		}
	}
	return out, nil
}

// Escape writes bytes in the file's notation (for failure reports).
func Escape(b []byte) string {
	var sb strings.Builder
	for i, c := range b {
		switch {
		case c == '\t':
			sb.WriteString(`\t`)
		case c == '\n':
			sb.WriteString(`\n`)
		case c == '\r':
			sb.WriteString(`\r`)
		case c == 0:
			sb.WriteString(`\0`)
		case c == '\\':
			sb.WriteString(`\\`)
		case c < 0x20 || c >= 0x7f || (c == ' ' && i == len(b)-1):
			fmt.Fprintf(&sb, `\x%02X`, c)
		default:
			sb.WriteByte(c)
		}
	}
	return sb.String()
}

// parseRow splits a row on the two characters `\t` (not on an escaped
// backslash followed by t) and unescapes each field.
func parseRow(s string) ([]Field, error) {
	if s == "" {
		return []Field{{Bytes: []byte{}}}, nil
	}
	var parts []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			continue
		}
		if s[i+1] == 't' {
			parts = append(parts, s[start:i])
			start = i + 2
		}
		i++
	}
	parts = append(parts, s[start:])
	row := make([]Field, 0, len(parts))
	for _, part := range parts {
		if part == `\N` {
			row = append(row, Field{Null: true})
			continue
		}
		b, err := Unescape(part)
		if err != nil {
			return nil, err
		}
		row = append(row, Field{Bytes: b})
	}
	return row, nil
}
