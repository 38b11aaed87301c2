package collation

import (
	"slices"
	"testing"
	"unicode/utf8"
)

// testRunes returns the code points the source-order tests check: the whole
// BMP except surrogates, planes 1 and 14, and a sample of the rest.
func testRunes() []rune {
	var rs []rune
	for r := rune(0); r <= utf8.MaxRune; r++ {
		switch {
		case r >= 0xD800 && r <= 0xDFFF:
			continue
		case r < 0x20000, r >= 0xE0000 && r < 0xE1000, r%251 == 0, r == utf8.MaxRune:
			rs = append(rs, r)
		}
	}
	return rs
}

// TestMatchesSourceOrder checks each collation against the per-character
// sort order it was derived from (go-mysql-server's ranks of one-character
// strings): sorting all single characters by Compare must give exactly that
// order, with the same ties. For the UCA collations this checks the
// expansion and ignorable structure taken from x/text.
func TestMatchesSourceOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	for _, c := range []*Collation{Utf8mb4GeneralCI, Utf8mb4Bin, Utf8mb4UnicodeCI, Utf8mb4Unicode520CI, Utf8mb4UCA0900AICI, Utf8mb4UCA1400AICI} {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			rank := c.table.get().src
			if c == Utf8mb4UCA1400AICI {
				// Its source ranks are those of the NO PAD utf8mb4_0900_ai_ci.
				nopad := *c
				nopad.PadSpace = false
				c = &nopad
			}
			type item struct {
				r  rune
				rk int32
				s  []byte
			}
			var items []item
			for _, r := range testRunes() {
				if c.ID == Utf8mb4UCA1400AICI.ID && r >= hangulFirst && r <= hangulLast {
					continue // not decomposed, unlike the UCA 9.0 source; see TestHangul1400
				}
				items = append(items, item{r, rank(r), utf8.AppendRune(nil, r)})
			}
			slices.SortStableFunc(items, func(a, b item) int {
				if d := c.Compare(a.s, b.s); d != 0 {
					return d
				}
				return cmpInt(int(a.rk), int(b.rk))
			})
			bad := 0
			for i := 1; i < len(items); i++ {
				a, b := items[i-1], items[i]
				eq := c.Compare(a.s, b.s) == 0
				if eq != (a.rk == b.rk) || a.rk > b.rk {
					bad++
					if bad <= 20 {
						t.Errorf("%U %q (rank %d) then %U %q (rank %d): Compare equal=%v", a.r, a.s, a.rk, b.r, b.s, b.rk, eq)
					}
				}
			}
			if bad > 0 {
				t.Errorf("%d of %d adjacent pairs disagree", bad, len(items)-1)
			}
		})
	}
}

func TestLatin1MatchesSourceOrder(t *testing.T) {
	for _, c := range []*Collation{Latin1SwedishCI, Latin1Bin} {
		var bs [][]byte
		for b := 0; b < 256; b++ {
			bs = append(bs, []byte{byte(b)})
		}
		rank := func(s []byte) int32 {
			if c == Latin1Bin {
				return int32(s[0])
			}
			return c.table.get().src(latin1Rune(s[0]))
		}
		for _, a := range bs {
			for _, b := range bs {
				// Compare pads: a single byte below the space weight is
				// smaller than the empty string, which changes nothing
				// between two single bytes.
				if got, want := c.Compare(a, b), cmpInt(int(rank(a)), int(rank(b))); got != want {
					t.Errorf("%s: Compare(%x, %x) = %d, want %d", c.Name, a, b, got, want)
				}
			}
		}
	}
}

// TestHangul1400 checks the placement of Hangul syllables in
// utf8mb4_uca1400_ai_ci: after every CJK ideograph, among the unassigned
// code points around them by code point (the UCA implicit weights MariaDB
// gives them), while utf8mb4_0900_ai_ci decomposes them into jamo.
func TestHangul1400(t *testing.T) {
	src := Utf8mb4UCA1400AICI.table.get().src
	if src(hangulPrevFree)+1 != src(hangulNextFree) {
		t.Fatalf("source ranks of U+%04X and U+%04X are %d and %d, not adjacent",
			hangulPrevFree, hangulNextFree, src(hangulPrevFree), src(hangulNextFree))
	}
	c := Utf8mb4UCA1400AICI
	str := func(rs ...rune) []byte { return []byte(string(rs)) }
	order := [][]byte{
		str(0x4E00), str(0x9FA5), str(0x4DB5), // CJK ideographs
		str(hangulPrevFree), str(hangulPrevFree, 0xD7A3), str(hangulPrevFree, 0x10FFFF),
		str(0xAC00), str(0xAC00, 'a'), str(0xAC01), str(0xD55C), str(0xD7A3), str(0xD7A4),
		str(hangulNextFree), str(0xE0080), // unassigned
	}
	for i := 1; i < len(order); i++ {
		if c.Compare(order[i-1], order[i]) >= 0 {
			t.Errorf("%s: %+q should sort before %+q", c.Name, order[i-1], order[i])
		}
	}
	if c.Compare(str(0xD55C), str(0xD55C, ' ')) != 0 {
		t.Errorf("%s: trailing space after a syllable is significant", c.Name)
	}
	// 0900 decomposes: 한 sorts with its jamo, before the CJK ideographs.
	if Utf8mb4UCA0900AICI.Compare(str(0xD55C), str(0x4E00)) >= 0 {
		t.Errorf("utf8mb4_0900_ai_ci: 한 should sort before 一")
	}
}

// TestWeightsInRange: every weight fits the key's 24 bits and no expansion
// holds an ignorable (zero) weight.
func TestWeightsInRange(t *testing.T) {
	for _, c := range All() {
		if c.kind != kindUTF8 {
			continue
		}
		tab := c.table.get()
		for r := rune(0); r <= utf8.MaxRune; r++ {
			if r >= 0xD800 && r <= 0xDFFF {
				continue
			}
			w, exp := tab.lookup(r)
			if exp == nil && w > maxWeight {
				t.Fatalf("%s: weight of %U is %d", c.Name, r, w)
			}
			for _, w := range exp {
				if w == 0 || w > maxWeight {
					t.Fatalf("%s: expansion of %U is %v", c.Name, r, exp)
				}
			}
		}
	}
}
