package types

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"github.com/handlerdb/handlerdb/internal/conformance"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/collation"
)

// The typevectors (testdata/typevectors, see its README.md) were recorded
// from MariaDB 10.11 through HandlerSocket and SQL. These tests replay them
// against Convert, AppendFormat, InsertValue, Compare and AppendKey.

const vectorsDir = "testdata/typevectors"

// field is one decoded TSV field.
type field struct {
	b    []byte
	null bool // \N
	na   bool // \- (not applicable)
}

// decodeField undoes the typevectors escape notation.
func decodeField(s string) (field, error) {
	switch s {
	case `\N`:
		return field{null: true}, nil
	case `\-`:
		return field{na: true}, nil
	}
	b, err := conformance.Unescape(s)
	if err != nil {
		return field{}, fmt.Errorf("%q: %w", s, err)
	}
	return field{b: b}, nil
}

// tsvRow is one data line: its raw fields and the comment lines seen since
// the previous data line.
type tsvRow struct {
	line   int
	fields []string
	notes  []string
}

// tsvFile is a parsed typevectors file.
type tsvFile struct {
	comments []string // every comment line
	header   []string
	rows     []tsvRow
}

func readTSV(t *testing.T, path string) *tsvFile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out tsvFile
	var notes []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		s := sc.Text()
		if strings.HasPrefix(s, "#") {
			out.comments = append(out.comments, s)
			notes = append(notes, s)
			continue
		}
		if out.header == nil {
			out.header = strings.Split(s, "\t")
			continue
		}
		out.rows = append(out.rows, tsvRow{line: line, fields: strings.Split(s, "\t"), notes: notes})
		notes = nil
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return &out
}

// col returns the decoded field named name of row r.
func (f *tsvFile) col(t *testing.T, r tsvRow, name string) field {
	t.Helper()
	for i, h := range f.header {
		if h == name {
			if i >= len(r.fields) {
				t.Fatalf("line %d: no field %s", r.line, name)
			}
			v, err := decodeField(r.fields[i])
			if err != nil {
				t.Fatalf("line %d: %v", r.line, err)
			}
			return v
		}
	}
	t.Fatalf("no column %s in %v", name, f.header)
	return field{}
}

// createType extracts and parses the type of column c from the file's
// "# create:" line.
func (f *tsvFile) createType(t *testing.T) Type {
	t.Helper()
	for _, c := range f.comments {
		rest, ok := strings.CutPrefix(c, "# create: ")
		if !ok {
			continue
		}
		i := strings.Index(rest, ", c ")
		if i < 0 {
			t.Fatalf("no column c in %q", c)
		}
		rest = rest[i+4:]
		j := strings.Index(rest, " NULL)")
		if j < 0 {
			j = strings.Index(rest, " NULL, KEY")
		}
		if j < 0 {
			t.Fatalf("can't find the type in %q", c)
		}
		typ, err := ParseType(rest[:j])
		if err != nil {
			t.Fatalf("ParseType(%q): %v", rest[:j], err)
		}
		return typ
	}
	t.Fatal("no # create: line")
	return Type{}
}

// sqlHex computes SELECT HEX(c) for a stored value: the hex of the
// integer value for numbers (REAL values rounded half away from zero,
// all ones outside the range), else the hex of the printed bytes.
func sqlHex(typ *Type, v Value) string {
	switch typ.Kind {
	case TinyInt, SmallInt, MediumInt, Int, BigInt, Bit, Year:
		return fmt.Sprintf("%X", uint64(v.I))
	case Decimal:
		return fmt.Sprintf("%X", uint64(ValInt(typ, v)))
	case Float, Double:
		f := v.F
		if f <= math.MinInt64 || f >= math.MaxUint64 {
			return "FFFFFFFFFFFFFFFF"
		}
		if f > 0 {
			f += 0.5
		} else {
			f -= 0.5
		}
		if f < 0 {
			return fmt.Sprintf("%X", uint64(int64(f)))
		}
		return fmt.Sprintf("%X", uint64(f))
	}
	return strings.ToUpper(hex.EncodeToString(AppendFormat(nil, typ, v)))
}

func convFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(vectorsDir, "conv", "*.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if filepath.Base(f) != "null-and-omitted.tsv" {
			out = append(out, f)
		}
	}
	if len(out) != 30 {
		t.Fatalf("found %d conv type files, want 30", len(out))
	}
	return out
}

// TestConvVectors converts every input of every conv/<type>.tsv file and
// compares the printed value with what HandlerSocket returned.
func TestConvVectors(t *testing.T) {
	for _, path := range convFiles(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".tsv")
		t.Run(name, func(t *testing.T) {
			f := readTSV(t, path)
			typ := f.createType(t)
			if len(f.rows) != 82 {
				t.Fatalf("%d rows, want 82", len(f.rows))
			}
			var buf []byte
			for k, r := range f.rows {
				t.Run(fmt.Sprintf("row%02d", k), func(t *testing.T) {
					in := f.col(t, r, "input")
					want := f.col(t, r, "hs_value")
					if reply := f.col(t, r, "hs_insert_reply"); string(reply.b) != "0\t1" {
						t.Fatalf("recorded insert reply %q", reply.b)
					}
					if in.null {
						if !want.null {
							t.Fatalf("NULL input printed %q", want.b)
						}
						return
					}
					if want.null {
						t.Fatalf("non-NULL input %q recorded as NULL", in.b)
					}
					v := Convert(&typ, in.b, buf)
					if typ.Class() == ClassBytes {
						if len(v.B) > 0 && len(in.b) > 0 && &v.B[0] == &in.b[0] {
							t.Fatal("Value.B aliases the input")
						}
						buf = v.B
					}
					got := AppendFormat(nil, &typ, v)
					if !bytes.Equal(got, want.b) {
						t.Fatalf("%s: Convert(%q) prints %q, want %q", typ.String(), in.b, got, want.b)
					}
					if hx := f.col(t, r, "sql_hex"); string(hx.b) != sqlHex(&typ, v) {
						t.Errorf("HEX = %s, want %s", sqlHex(&typ, v), hx.b)
					}
					if sv := f.col(t, r, "sql_value"); !bytes.Equal(sv.b, want.b) {
						t.Errorf("sql_value %q differs from hs_value %q", sv.b, want.b)
					}
				})
			}
		})
	}
}

// parseColumnDef parses the column_def of null-and-omitted.tsv, e.g.
// "c DATE NOT NULL DEFAULT '2001-02-03'", into a Column. It reports
// skip reasons for definitions this package does not evaluate.
func parseColumnDef(t *testing.T, def string) (col Column, skip string) {
	t.Helper()
	if strings.HasPrefix(def, "k INT AUTO_INCREMENT") {
		return col, "AUTO_INCREMENT ids are assigned by the engine, not by InsertValue"
	}
	rest, ok := strings.CutPrefix(def, "c ")
	if !ok {
		t.Fatalf("unexpected column_def %q", def)
	}
	var dflt string
	if i := strings.Index(rest, " DEFAULT "); i >= 0 {
		rest, dflt = rest[:i], rest[i+len(" DEFAULT "):]
	}
	switch {
	case strings.HasSuffix(rest, " NOT NULL"):
		rest = strings.TrimSuffix(rest, " NOT NULL")
	case strings.HasSuffix(rest, " NULL"):
		rest = strings.TrimSuffix(rest, " NULL")
		col.Nullable = true
	default:
		col.Nullable = true
	}
	typ, err := ParseType(rest)
	if err != nil {
		t.Fatalf("ParseType(%q): %v", rest, err)
	}
	col.Name, col.Type = "c", typ
	switch {
	case dflt == "":
	case strings.HasPrefix(dflt, "("):
		return col, "expression defaults such as DEFAULT (1+1) are evaluated by the engine, not stored as a Value"
	case strings.EqualFold(dflt, "CURRENT_TIMESTAMP"):
		col.DefaultCurrentTimestamp = true
	case strings.HasPrefix(dflt, "b'"):
		bits := strings.TrimSuffix(strings.TrimPrefix(dflt, "b'"), "'")
		n, err := strconv.ParseUint(bits, 2, 64)
		if err != nil {
			t.Fatalf("bad bit literal %q", dflt)
		}
		v := FromInt(&typ, int64(n))
		col.Default = &v
	case strings.HasPrefix(dflt, "'"):
		v := Convert(&typ, []byte(strings.TrimSuffix(strings.TrimPrefix(dflt, "'"), "'")), nil)
		col.Default = &v
	default:
		v := Convert(&typ, []byte(dflt), nil)
		col.Default = &v
	}
	return col, ""
}

// TestNullAndOmittedVectors replays conv/null-and-omitted.tsv through
// Column.InsertValue.
func TestNullAndOmittedVectors(t *testing.T) {
	f := readTSV(t, filepath.Join(vectorsDir, "conv", "null-and-omitted.tsv"))
	for i, r := range f.rows {
		def := f.col(t, r, "column_def")
		cs := f.col(t, r, "case")
		t.Run(fmt.Sprintf("%02d_%s/%s", i, sanitize(string(def.b)), cs.b), func(t *testing.T) {
			col, skip := parseColumnDef(t, string(def.b))
			if skip != "" {
				t.Skip(skip)
			}
			if reply := f.col(t, r, "hs_insert_reply"); string(reply.b) != "0\t1" {
				t.Fatalf("recorded insert reply %q", reply.b)
			}
			var v Value
			switch string(cs.b) {
			case "null_token":
				v = col.InsertValue(nil, true, false, nil)
			case "omitted":
				v = col.InsertValue(nil, false, true, nil)
			case "empty_string":
				v = col.InsertValue([]byte{}, false, false, nil)
			default:
				t.Fatalf("unknown case %q", cs.b)
			}
			want := f.col(t, r, "hs_value")
			if want.null || v.Null {
				if want.null != v.Null {
					t.Fatalf("got NULL=%v, want NULL=%v (%q)", v.Null, want.null, want.b)
				}
				return
			}
			got := AppendFormat(nil, &col.Type, v)
			if !bytes.Equal(got, want.b) {
				t.Fatalf("got %q, want %q", got, want.b)
			}
			if hx := f.col(t, r, "sql_hex"); string(hx.b) != sqlHex(&col.Type, v) {
				t.Errorf("HEX = %s, want %s", sqlHex(&col.Type, v), hx.b)
			}
		})
	}
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == ' ' || r == '/' {
			return '_'
		}
		return r
	}, s)
}

// collationOrderFiles are the order files that test one collation through
// VARCHAR(32); they need the real collation package.
var collationOrderFiles = map[string]bool{
	"utf8mb4_general_ci": true, "utf8mb4_unicode_ci": true, "utf8mb4_bin": true,
	"latin1_swedish_ci": true, "latin1_bin": true, "utf8mb4_unicode_520_ci": true,
	"utf8mb4_uca1400_ai_ci": true, "utf8mb4_nopad_bin": true,
}

// TestOrderVectors converts the inputs of every order/*.tsv file, sorts
// their keys and checks the dense ranks against the recorded ones, and
// that Compare agrees with the key order.
func TestOrderVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(vectorsDir, "order", "*.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 31 {
		t.Fatalf("found %d order files, want 31", len(files))
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".tsv")
		t.Run(name, func(t *testing.T) {
			if collationOrderFiles[name] && collation.Lookup(name) == nil {
				t.Skipf("collation %s is not provided by the collation package", name)
			}
			f := readTSV(t, path)
			typ := f.createType(t)
			checkOrder(t, f, &typ)
		})
	}
}

type orderItem struct {
	pos  int // position in the file (the recorded order)
	rank int
	in   []byte
	v    Value
	key  []byte
}

func checkOrder(t *testing.T, f *tsvFile, typ *Type) {
	items := make([]orderItem, 0, len(f.rows))
	for i, r := range f.rows {
		in := f.col(t, r, "input")
		rank, err := strconv.Atoi(string(f.col(t, r, "rank").b))
		if err != nil {
			t.Fatalf("line %d: bad rank", r.line)
		}
		it := orderItem{pos: i, rank: rank, in: in.b}
		if in.null {
			it.v = NullValue
		} else {
			it.v = Convert(typ, in.b, nil)
		}
		it.key = AppendKey(nil, typ, it.v)
		items = append(items, it)
	}
	// Rows in the file are sorted by (c, id); ids follow insertion order,
	// which the file does not give, so sort by key and compare ranks.
	sorted := append([]orderItem(nil), items...)
	sort.SliceStable(sorted, func(i, j int) bool { return bytes.Compare(sorted[i].key, sorted[j].key) < 0 })
	rank := 0
	for i := range sorted {
		if i == 0 || !bytes.Equal(sorted[i].key, sorted[i-1].key) {
			rank++
		}
		if sorted[i].rank != rank {
			t.Errorf("input %q (line %d of the data, printed %q): key rank %d, want %d",
				sorted[i].in, sorted[i].pos+1, AppendFormat(nil, typ, sorted[i].v), rank, sorted[i].rank)
		}
	}
	for i := range items {
		for j := range items {
			a, b := items[i], items[j]
			want := sign(a.rank - b.rank)
			if got := Compare(typ, a.v, b.v); got != want {
				t.Errorf("Compare(%q, %q) = %d, want %d", a.in, b.in, got, want)
			}
			if got := sign(bytes.Compare(a.key, b.key)); got != want {
				t.Errorf("key order of %q, %q = %d, want %d", a.in, b.in, got, want)
			}
		}
	}
}

// TestShowCreateVectors checks Type.String against the column types of
// every "# show_create" line in the vectors.
func TestShowCreateVectors(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(vectorsDir, "*", "*.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, path := range files {
		f := readTSV(t, path)
		defs := map[string]string{} // show_create name -> column_def
		if filepath.Base(path) == "null-and-omitted.tsv" {
			for _, r := range f.rows {
				for _, note := range r.notes {
					if rest, ok := strings.CutPrefix(note, "# show_create "); ok {
						name, _, _ := strings.Cut(rest, ":")
						defs[name] = string(f.col(t, r, "column_def").b)
					}
				}
			}
		}
		for _, c := range f.comments {
			rest, ok := strings.CutPrefix(c, "# show_create")
			if !ok {
				continue
			}
			i := strings.Index(rest, "`c` ")
			if i < 0 {
				continue
			}
			shown := rest[i+4:]
			for _, stop := range []string{" NOT NULL", " NULL DEFAULT", " DEFAULT"} {
				if j := strings.Index(shown, stop); j >= 0 {
					shown = shown[:j]
				}
			}
			var typ Type
			if strings.HasPrefix(rest, " def_") {
				name, _, _ := strings.Cut(strings.TrimPrefix(rest, " "), ":")
				col, skip := parseColumnDef(t, defs[name])
				if strings.HasPrefix(skip, "AUTO_INCREMENT") {
					continue
				}
				typ = col.Type
			} else {
				typ = f.createType(t)
			}
			if got := typ.String(); got != shown {
				t.Errorf("%s: String() = %q, SHOW CREATE TABLE says %q", filepath.Base(path), got, shown)
			}
			n++
		}
	}
	if n < 60 {
		t.Fatalf("checked only %d show_create lines", n)
	}
}
