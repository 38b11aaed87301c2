package collation

import (
	"bufio"
	"bytes"
	"fmt"
	"github.com/handlerdb/handlerdb/internal/conformance"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// unescape decodes one field of the type-vector files (see
// /work/shared/typevectors/README.md): \N (the whole field) is NULL, \\, \t,
// \n, \r, \0 and \xHH are escapes, and everything else stands for itself.
func unescape(field string) (b []byte, null bool, err error) {
	if field == `\N` {
		return nil, true, nil
	}
	b, err = conformance.Unescape(field)
	if err != nil {
		return nil, false, fmt.Errorf("%q: %w", field, err)
	}
	return b, false, nil
}

func TestUnescape(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []byte
		null bool
	}{
		{`\N`, nil, true},
		{``, []byte{}, false},
		{`a\0b`, []byte("a\x00b"), false},
		{`a\tb\\N`, []byte("a\tb\\N"), false},
		{`\xFF\xFE`, []byte{0xFF, 0xFE}, false},
		{`é`, []byte("é"), false},
	} {
		got, null, err := unescape(tc.in)
		if err != nil || null != tc.null || !bytes.Equal(got, tc.want) {
			t.Errorf("unescape(%q) = %q, %v, %v; want %q, %v", tc.in, got, null, err, tc.want, tc.null)
		}
	}
}

type orderRow struct {
	line  int
	rank  int
	input []byte // nil: NULL
}

// readOrderFile returns the rows of an order/<collation>.tsv file.
func readOrderFile(t *testing.T, path string) []orderRow {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var (
		rows     []orderRow
		rankCol  = -1
		inputCol = -1
	)
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "#") {
			continue
		}
		cols := strings.Split(text, "\t")
		if rankCol < 0 {
			rankCol, inputCol = slices.Index(cols, "rank"), slices.Index(cols, "input")
			if rankCol < 0 || inputCol < 0 {
				t.Fatalf("%s:%d: header %q lacks rank or input", path, line, text)
			}
			continue
		}
		rank, err := strconv.Atoi(cols[rankCol])
		if err != nil {
			t.Fatalf("%s:%d: rank: %v", path, line, err)
		}
		in, null, err := unescape(cols[inputCol])
		if err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		if null {
			in = nil
		}
		rows = append(rows, orderRow{line, rank, in})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows", path)
	}
	return rows
}

// TestOrderFiles checks every recorded MariaDB collation order: sorting the
// inputs by AppendKey (NULL first, stable) and dense-ranking them by key
// equality must give the recorded rank of every row, and Compare must agree
// with the ranks for every pair.
func TestOrderFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/order/*.tsv")
	if err != nil || len(files) == 0 {
		t.Fatalf("no order files: %v", err)
	}
	for _, path := range files {
		name := strings.TrimSuffix(filepath.Base(path), ".tsv")
		t.Run(name, func(t *testing.T) {
			c := Lookup(name)
			if c == nil {
				t.Fatalf("collation %s not found", name)
			}
			rows := readOrderFile(t, path)
			type keyed struct {
				orderRow
				key []byte
			}
			ks := make([]keyed, len(rows))
			for i, r := range rows {
				ks[i].orderRow = r
				if r.input != nil {
					ks[i].key = c.AppendKey(nil, r.input)
				}
			}
			// Rows are in the recorded order; a stable sort keeps insert
			// order (id) within a rank as the file does.
			slices.SortStableFunc(ks, func(a, b keyed) int {
				switch {
				case a.input == nil && b.input == nil:
					return 0
				case a.input == nil:
					return -1
				case b.input == nil:
					return 1
				}
				return bytes.Compare(a.key, b.key)
			})
			rank := 0
			for i, k := range ks {
				if i == 0 || (k.input == nil) != (ks[i-1].input == nil) || !bytes.Equal(k.key, ks[i-1].key) {
					rank++
				}
				if rows[i].rank != rank || !bytes.Equal(rows[i].input, k.input) || (rows[i].input == nil) != (k.input == nil) {
					t.Errorf("position %d: got %q with rank %d; file line %d has %q with rank %d",
						i+1, k.input, rank, rows[i].line, rows[i].input, rows[i].rank)
				}
			}
			for _, a := range rows {
				for _, b := range rows {
					if a.input == nil || b.input == nil {
						continue
					}
					want := cmpInt(a.rank, b.rank)
					if got := c.Compare(a.input, b.input); got != want {
						t.Errorf("Compare(%q, %q) = %d, want %d (ranks %d, %d)", a.input, b.input, got, want, a.rank, b.rank)
					}
					if got := c.Equal(a.input, b.input); got != (want == 0) {
						t.Errorf("Equal(%q, %q) = %v, want %v", a.input, b.input, got, want == 0)
					}
				}
			}
		})
	}
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
