package collation

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// pieces are the building blocks of the random strings: ASCII, spaces,
// tabs, NUL, accented Latin, expansions, Greek, Cyrillic, CJK, Hangul,
// emoji and other supplementary characters, combining marks, and invalid
// UTF-8.
var pieces = []string{
	"a", "A", "b", "e", "s", "S", "z", "0", "9", "_", "-", ".", "?",
	" ", " ", " ", "\t", "\x00", "\x01", "\x1f", "\x7f",
	"á", "Á", "à", "ä", "å", "æ", "Æ", "é", "ß", "ẞ", "ø", "œ", "ñ", "ü", "ÿ", "ı", "İ",
	"ﬁ", "ǆ", "½", "㍳", "ℌ", "Ω", "ω", "Я", "я", "日", "本", "中", "한", "ｱ", "Ａ",
	"€", "😀", "😁", "🙂", "𝔸", "🆪", "\u0301", "\u00a0", "\u2029", "\U000E0100",
	"\xff", "\xfe", "\xc3", "\xe6\x97", "\xed\xa0\x80", "\xf0\x9f",
}

func randString(r *rand.Rand, latin1 bool) []byte {
	n := r.IntN(7)
	var b []byte
	for i := 0; i < n; i++ {
		if latin1 {
			switch r.IntN(4) {
			case 0:
				b = append(b, ' ')
			case 1:
				const common = "aAeEsy\xFCz\t\x00_\xE5\xE4\xC4"
				b = append(b, common[r.IntN(len(common))])
			default:
				b = append(b, byte(r.IntN(256)))
			}
			continue
		}
		b = append(b, pieces[r.IntN(len(pieces))]...)
	}
	if r.IntN(4) == 0 {
		b = append(b, "  "[:1+r.IntN(2)]...) // trailing spaces
	}
	return b
}

// checkKeyPair checks the AppendKey contract on one pair of strings.
func checkKeyPair(t *testing.T, c *Collation, a, b []byte) {
	t.Helper()
	ka, kb := c.AppendKey(nil, a), c.AppendKey(nil, b)
	cmp := c.Compare(a, b)
	if got := bytes.Compare(ka, kb); got != cmp {
		t.Fatalf("%s: Compare(%+q, %+q) = %d but keys compare %d (%x, %x)", c.Name, a, b, cmp, got, ka, kb)
	}
	if rev := c.Compare(b, a); rev != -cmp {
		t.Fatalf("%s: Compare(%+q, %+q) = %d but reversed %d", c.Name, a, b, cmp, rev)
	}
	if c.Equal(a, b) != (cmp == 0) {
		t.Fatalf("%s: Equal(%+q, %+q) = %v, Compare %d", c.Name, a, b, c.Equal(a, b), cmp)
	}
	if !bytes.Equal(ka, kb) && (bytes.HasPrefix(ka, kb) || bytes.HasPrefix(kb, ka)) {
		t.Fatalf("%s: key of %+q (%x) and key of %+q (%x): one is a prefix of the other", c.Name, a, ka, b, kb)
	}
	// Appending to a prefix changes nothing; a composite key of both orders
	// like its first column.
	if k := c.AppendKey([]byte("xy"), a); !bytes.Equal(k[2:], ka) {
		t.Fatalf("%s: AppendKey to a prefix differs", c.Name)
	}
	ca := c.AppendKey(c.AppendKey(nil, a), b)
	cb := c.AppendKey(c.AppendKey(nil, b), a)
	want := cmp
	if want == 0 {
		want = c.Compare(b, a)
	}
	if got := bytes.Compare(ca, cb); got != want {
		t.Fatalf("%s: composite keys (%+q,%+q) vs (%+q,%+q) compare %d, want %d", c.Name, a, b, b, a, got, want)
	}
}

// TestKeyProperties: for random strings under every collation, key order is
// Compare's order, keys are equal exactly when Compare says equal, and no
// key is a proper prefix of another.
func TestKeyProperties(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 500
	}
	for _, c := range All() {
		t.Run(c.Name, func(t *testing.T) {
			r := rand.New(rand.NewPCG(1, uint64(c.ID)))
			latin1 := c.Charset != "utf8mb4"
			var strs [][]byte
			for i := 0; i < n; i++ {
				a, b := randString(r, latin1), randString(r, latin1)
				checkKeyPair(t, c, a, b)
				strs = append(strs, a)
				// Near misses: the same string with a change at the end.
				checkKeyPair(t, c, a, append(append([]byte(nil), a...), ' '))
				checkKeyPair(t, c, a, append(append([]byte(nil), a...), pieces[r.IntN(len(pieces))]...))
			}
			// Sorted by key, the strings are sorted by Compare.
			slices.SortFunc(strs, func(a, b []byte) int { return bytes.Compare(c.AppendKey(nil, a), c.AppendKey(nil, b)) })
			for i := 1; i < len(strs); i++ {
				if c.Compare(strs[i-1], strs[i]) > 0 {
					t.Fatalf("%s: %+q sorts by key before %+q but Compare says after", c.Name, strs[i-1], strs[i])
				}
			}
		})
	}
}

// FuzzKeyOrder checks the AppendKey contract on a collation (index into
// All) and two strings.
func FuzzKeyOrder(f *testing.F) {
	for i := range All() {
		f.Add(uint8(i), []byte("a"), []byte("a "))
		f.Add(uint8(i), []byte("a\t"), []byte("a"))
		f.Add(uint8(i), []byte("a\x00"), []byte("a"))
		f.Add(uint8(i), []byte("Straße"), []byte("STRASSE"))
		f.Add(uint8(i), []byte("æ"), []byte("ae"))
		f.Add(uint8(i), []byte("\xff\xfe"), []byte("??"))
		f.Add(uint8(i), []byte("😀 한"), []byte("𝔸 \t"))
	}
	colls := All()
	f.Fuzz(func(t *testing.T, idx uint8, a, b []byte) {
		c := colls[int(idx)%len(colls)]
		checkKeyPair(t, c, a, b)
		checkKeyPair(t, c, a, a)
		if c.PadSpace {
			checkKeyPair(t, c, a, append(append([]byte(nil), a...), "  "...))
		}
		// Truncate and Clean keep to their contracts.
		if tr := c.Truncate(a, 3); !bytes.HasPrefix(a, tr) || c.CharLen(tr) > 3 {
			t.Fatalf("%s: Truncate(%+q, 3) = %+q", c.Name, a, tr)
		}
		// utf8mb3 stores a character of four bytes as "????"; anything
		// else cleans to an equal value of as many characters.
		cl := c.Clean(nil, a)
		if c.mb3 && hasFourByte(a) {
			if hasFourByte(cl) || len(cl) != len(a) {
				t.Fatalf("%s: Clean(%+q) = %+q", c.Name, a, cl)
			}
		} else if c.Compare(cl, a) != 0 || c.CharLen(cl) != c.CharLen(a) {
			t.Fatalf("%s: Clean(%+q) = %+q", c.Name, a, cl)
		}
	})
}

var benchString = []byte("handlerdb user 12345") // 20 bytes of ASCII

func BenchmarkAppendKey(b *testing.B) {
	for _, c := range []*Collation{Utf8mb4GeneralCI, Utf8mb4Bin, Utf8mb4UnicodeCI, Latin1SwedishCI, Binary} {
		b.Run(c.Name, func(b *testing.B) {
			dst := c.AppendKey(nil, benchString)
			b.SetBytes(int64(len(benchString)))
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				dst = c.AppendKey(dst[:0], benchString)
			}
		})
	}
}

func BenchmarkCompare(b *testing.B) {
	other := []byte("handlerdb user 12346")
	for _, c := range []*Collation{Utf8mb4GeneralCI, Utf8mb4Bin, Utf8mb4UnicodeCI} {
		b.Run(c.Name, func(b *testing.B) {
			c.Compare(benchString, other)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.Compare(benchString, other)
			}
		})
	}
}

// TestAppendKeyAllocs is the benchmark's promise as a test: no allocation
// once dst has room.
func TestAppendKeyAllocs(t *testing.T) {
	other := []byte("ß 😀 x")
	for _, c := range All() {
		dst := c.AppendKey(nil, benchString)
		if n := testing.AllocsPerRun(100, func() { dst = c.AppendKey(dst[:0], benchString) }); n != 0 {
			t.Errorf("%s: AppendKey allocates %v times per call", c.Name, n)
		}
		if n := testing.AllocsPerRun(100, func() { c.Compare(benchString, other) }); n != 0 {
			t.Errorf("%s: Compare allocates %v times per call", c.Name, n)
		}
	}
}
