package hsproto

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/handlerdb/handlerdb/internal/conformance"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// casesDir holds the conformance corpus recorded from the real plugin.
const casesDir = "../../testdata/conformance/cases"

// caseStep is one directive of a .case file that matters to the codec.
type caseStep struct {
	file string
	line int
	kind string // "target", "case", "send", "expect", "eof", "close"
	conn string // for send and close
	arg  string // target name, case name
	data []byte // bytes sent or expected
}

// readCases reads every .case file, in name order, into steps.
func readCases(t testing.TB) [][]caseStep {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(casesDir, "*.case"))
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		t.Fatalf("no .case files under %s", casesDir)
	}
	sort.Strings(names)
	var files [][]caseStep
	for _, name := range names {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		var steps []caseStep
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		n := 0
		base := filepath.Base(name)
		for sc.Scan() {
			n++
			text := sc.Text()
			st := caseStep{file: base, line: n}
			switch {
			case strings.HasPrefix(text, "> "):
				conn, rest, ok := strings.Cut(text[2:], " ")
				if !ok {
					t.Fatalf("%s:%d: bad send line", base, n)
				}
				st.kind, st.conn = "send", conn
				st.data = mustUnescapeNotation(t, base, n, rest)
			case text == "<eof":
				st.kind = "eof"
			case strings.HasPrefix(text, "< "):
				st.kind = "expect"
				st.data = mustUnescapeNotation(t, base, n, text[2:])
			case strings.HasPrefix(text, "close "):
				st.kind, st.conn = "close", strings.TrimPrefix(text, "close ")
			case strings.HasPrefix(text, "case "):
				st.kind, st.arg = "case", strings.TrimPrefix(text, "case ")
			case strings.HasPrefix(text, "target "):
				st.kind, st.arg = "target", strings.TrimPrefix(text, "target ")
			default:
				continue // comments, setup, sql>, rows, =
			}
			steps = append(steps, st)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		f.Close()
		files = append(files, steps)
	}
	return files
}

// unescapeNotation decodes the byte notation of FORMAT.md.
func unescapeNotation(s string) ([]byte, error) {
	return conformance.Unescape(s)
}

func mustUnescapeNotation(t testing.TB, file string, line int, s string) []byte {
	t.Helper()
	b, err := unescapeNotation(s)
	if err != nil {
		t.Fatalf("%s:%d: %v", file, line, err)
	}
	return b
}

// notation writes b in the byte notation of FORMAT.md.
func notation(b []byte) string {
	return conformance.Escape(b)
}

// dumpValue renders a value for dumps: NULL, or the string quoted.
func dumpValue(v Value) string {
	if v.Null {
		return "NULL"
	}
	return strconv.Quote(string(v.B))
}

func dumpValues(vs []Value) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = dumpValue(v)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func dumpNames(ns [][]byte) string {
	parts := make([]string, len(ns))
	for i, n := range ns {
		parts[i] = strconv.Quote(string(n))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

var opNames = map[Op]string{OpInvalid: "invalid", OpEQ: "eq", OpGT: "gt", OpGE: "ge", OpLT: "lt", OpLE: "le", OpInsert: "insert", OpSQL: "sql"}
var modNames = map[ModOp]string{ModNone: "none", ModUpdate: "update", ModDelete: "delete", ModIncrement: "inc", ModDecrement: "dec", ModInvalid: "invalid"}
var filterOpNames = map[FilterOp]string{FilterAlways: "always", FilterEQ: "eq", FilterNE: "ne", FilterLT: "lt", FilterLE: "le", FilterGT: "gt", FilterGE: "ge", FilterNever: "never"}

// dumpRequest renders every meaningful field of r on one line, for golden
// files and table tests.
func dumpRequest(r *Request) string {
	var b strings.Builder
	switch r.Cmd {
	case CmdInvalid:
		return "invalid"
	case CmdOpen:
		fmt.Fprintf(&b, "open id=%d db=%q table=%q index=%q cols=%s fcols=%s",
			r.ID, r.DB, r.Table, r.Index, dumpNames(r.Columns), dumpNames(r.FilterColumns))
		return b.String()
	case CmdAuth:
		fmt.Fprintf(&b, "auth type=%q key=%q", r.AuthType, r.AuthKey)
		return b.String()
	}
	fmt.Fprintf(&b, "exec id=%d op=%q:%s vlen=%d keys=%s limit=%d offset=%d",
		r.ID, r.OpToken, opNames[r.Op], r.VLen, dumpValues(r.Keys), r.Limit, r.Offset)
	if r.HasIn {
		fmt.Fprintf(&b, " in=@%d:%d%s", r.InCol, r.InCount, dumpValues(r.InValues))
	}
	for _, f := range r.Filters {
		fmt.Fprintf(&b, " filter=%c:%q:%s:%d:%s", f.Type, f.OpToken, filterOpNames[f.Op], f.Col, dumpValue(f.Value))
	}
	if r.ModToken != nil || len(r.ModValues) > 0 {
		q := ""
		if r.ModReturnRows {
			q = "?"
		}
		fmt.Fprintf(&b, " mod=%q:%s%s vals=%s", r.ModToken, modNames[r.Mod], q, dumpValues(r.ModValues))
	}
	if r.SyntaxErr != ErrNone {
		fmt.Fprintf(&b, " err=%s", r.SyntaxErr)
	}
	return b.String()
}

// parseFresh parses a copy of line into a new Request.
func parseFresh(line []byte) *Request {
	r := new(Request)
	r.Parse(bytes.Clone(line))
	return r
}

// refDecode is a plain, allocating reference for Unescape.
func refDecode(raw []byte) []byte {
	out := []byte{}
	for i := 0; i < len(raw); i++ {
		if raw[i] != 0x01 {
			out = append(out, raw[i])
			continue
		}
		if i+1 == len(raw) || raw[i+1] < 0x40 {
			return out
		}
		out = append(out, raw[i+1]-0x40)
		i++
	}
	return out
}

// canonical reports whether raw is exactly what AppendEscaped produces for
// its decoding: no raw byte below 0x10 and every escape well formed and
// necessary.
func canonical(raw []byte) bool {
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == 0x01 {
			if i+1 == len(raw) || raw[i+1] < 0x40 || raw[i+1] >= 0x50 {
				return false
			}
			i++
			continue
		}
		if c < 0x10 {
			return false
		}
	}
	return true
}
