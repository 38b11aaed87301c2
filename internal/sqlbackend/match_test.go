package sqlbackend

import (
	"testing"

	"github.com/handlerdb/handlerdb/internal/collation"
)

// The search rules of match.go, checked on texts whose answers MariaDB
// 10.11 (InnoDB) gave for the same searches (corpus 24-spatial-fulltext
// has them over the wire).
func TestFTSearch(t *testing.T) {
	docs := []string{
		"The quick brown fox jumps over the lazy dog",
		"MySQL and MariaDB are relational databases",
		"Full-text search finds words in text: database, search, index",
		"A fox, another FOX and a third fox-like animal",
		"an ox is big; go to it",
		"",
		"dogs and cats, not a dog",
		"Brown dog; quick search of the database index",
	}
	cases := []struct {
		mode, q string
		want    []int // 1-based rows that match
	}{
		{matchNatural, "fox", []int{1, 4}},
		{matchNatural, "FOX dog", []int{1, 4, 7, 8}},
		{matchNatural, "database", []int{3, 8}},
		{matchNatural, "ox", nil},                 // shorter than 3
		{matchNatural, "the and", []int{2, 4, 7}}, // "the" is a stopword, "and" is not
		{matchNatural, "full-text", []int{3}},
		{matchBoolean, "+quick +brown", []int{1, 8}},
		{matchBoolean, "+dog -quick", []int{7}},
		{matchBoolean, "dog fox", []int{1, 4, 7, 8}},
		{matchBoolean, "data*", []int{2, 3, 8}},
		{matchBoolean, `"brown fox"`, []int{1}},
		{matchBoolean, `"brown dog"`, []int{8}},
		{matchBoolean, `+search -"database index"`, []int{3}},
		{matchBoolean, "-fox", nil},
	}
	c := collation.Default
	for _, tc := range cases {
		q := parseFTQuery(tc.mode, tc.q)
		var got []int
		for i, d := range docs {
			if q.score([]ftDoc{{coll: c, toks: tokenize(c, d)}}, nil) > 0 {
				got = append(got, i+1)
			}
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s %q: rows %v, want %v", tc.mode, tc.q, got, tc.want)
			continue
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s %q: rows %v, want %v", tc.mode, tc.q, got, tc.want)
				break
			}
		}
	}
	// More occurrences rank higher: row 4 has three foxes, row 1 one.
	q := parseFTQuery(matchNatural, "fox")
	s1 := q.score([]ftDoc{{coll: c, toks: tokenize(c, docs[0])}}, nil)
	s4 := q.score([]ftDoc{{coll: c, toks: tokenize(c, docs[3])}}, nil)
	if !(s4 > s1 && s1 > 0) {
		t.Errorf("relevance of fox: row 1 %v, row 4 %v", s1, s4)
	}
	// A binary collation compares words byte by byte.
	b := collation.Utf8mb4Bin
	if parseFTQuery(matchNatural, "FOX").score([]ftDoc{{coll: b, toks: tokenize(b, "a fox")}}, nil) != 0 {
		t.Error("utf8mb4_bin: FOX matched fox")
	}
}
