package conformance

import (
	"bytes"
	"testing"
)

// TestParseCorpus parses the project's copy of the corpus: every file
// parses, every case has steps, and escaping round-trips.
func TestParseCorpus(t *testing.T) {
	files, err := ParseDir("../../testdata/conformance/cases")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no case files found")
	}
	n := 0
	for _, f := range files {
		for _, c := range f.Cases {
			n++
			if len(c.Steps) == 0 {
				t.Errorf("%s/%s has no steps", f.Name, c.Name)
			}
			for _, st := range c.Steps {
				if st.Kind != StepSend {
					continue
				}
				back, err := Unescape(Escape(st.Bytes))
				if err != nil || !bytes.Equal(back, st.Bytes) {
					t.Errorf("%s/%s line %d: escape round trip: %v", f.Name, c.Name, st.Line, err)
				}
			}
		}
	}
	t.Logf("%d files, %d cases", len(files), n)
}

func TestParseRowNotation(t *testing.T) {
	f, err := Parse("x.case", []byte("case a\n> r x\n< y\nsql> SELECT 1\nrows 3\n= 1\\tone\\t\\N\n=\n= a\\\\tb\\x09c\n"))
	if err != nil {
		t.Fatal(err)
	}
	rows := f.Cases[0].Steps[1].Rows
	if len(rows) != 3 || len(rows[0]) != 3 || !rows[0][2].Null || string(rows[0][1].Bytes) != "one" {
		t.Fatalf("row 0: %+v", rows)
	}
	if len(rows[1]) != 1 || rows[1][0].Null || len(rows[1][0].Bytes) != 0 {
		t.Fatalf("bare = row: %+v", rows[1])
	}
	if len(rows[2]) != 1 || string(rows[2][0].Bytes) != "a\\tb\tc" {
		t.Fatalf("escaped backslash row: %q", rows[2][0].Bytes)
	}
}
