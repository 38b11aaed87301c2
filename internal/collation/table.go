package collation

import (
	"cmp"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql/encodings"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// A weight is a positive number; characters compare by their weight
// sequences. Weight 0 marks an ignorable character (no weight at all).
// Weights fit in 24 bits (see AppendKey).
const (
	maxWeight = 1<<24 - 1
	expFlag   = 1 << 31 // in table.bmp / table.suppl: index into table.exps
)

// table holds the weights of one collation. It is built once and then only
// read, so it is safe for concurrent use.
type table struct {
	space uint32      // weight of ' ', the PAD SPACE weight
	ascii [128]uint32 // UTF-8 collations: weight of each ASCII byte (0 = ignorable)
	latin [256]uint32 // latin1 collations: weight of each byte

	direct    bool             // UTF-8: weight = code point + 1 (the bin collations)
	bmp       []uint32         // weight of each BMP rune: 0 = ignorable, expFlag|i = exps[i]
	exps      [][]uint32       // expansions: several weights for one character
	suppl     map[rune]uint32  // supplementary runes that are ignorable or expand, coded as bmp
	supplRank func(rune) int32 // rank of any other supplementary rune (weight = rank+1)

	// src is the per-rune sort order the table was derived from (tests only).
	src func(rune) int32
}

// lookup returns the weights of r: either one weight w (0 = ignorable) and
// a nil slice, or 0 and the expansion.
func (t *table) lookup(r rune) (uint32, []uint32) {
	if t.direct {
		return uint32(r) + 1, nil
	}
	var v uint32
	if r < 0x10000 {
		v = t.bmp[r]
	} else if sv, ok := t.suppl[r]; ok {
		v = sv
	} else {
		v = rankWeight(t.supplRank(r))
	}
	if v&expFlag != 0 {
		return 0, t.exps[v&^expFlag]
	}
	return v, nil
}

// rankWeight turns a sort rank (0-based) into a weight (1-based), clamping
// the "unknown rune" rank of the encodings package into range.
func rankWeight(rk int32) uint32 {
	if rk < 0 || rk >= maxWeight-1 {
		return maxWeight
	}
	return uint32(rk) + 1
}

// fillASCII sets t.ascii and t.space from t.lookup.
func (t *table) fillASCII() {
	for b := rune(0); b < 128; b++ {
		w, exp := t.lookup(b)
		if exp != nil {
			panic("collation: ASCII expansion")
		}
		t.ascii[b] = w
	}
	t.space = t.ascii[' ']
}

// buildCodePoint is the table of utf8mb4_bin and utf8mb4_nopad_bin.
func buildCodePoint() *table {
	t := &table{direct: true, src: func(r rune) int32 { return r }}
	t.fillASCII()
	return t
}

// buildGeneralCI is utf8mb4_general_ci: one weight per character, from
// go-mysql-server's sort order (which maps every supplementary character to
// one weight).
func buildGeneralCI() *table {
	f := encodings.Utf8mb4_general_ci_RuneWeight
	t := &table{bmp: make([]uint32, 0x10000), supplRank: f, src: f}
	for r := rune(0); r < 0x10000; r++ {
		t.bmp[r] = rankWeight(f(r))
	}
	t.fillASCII()
	return t
}

// latin1Rune returns the Unicode character of a latin1 byte (MySQL's latin1
// is Windows-1252, with the five undefined bytes mapped to C1 controls).
func latin1Rune(b byte) rune {
	dec, ok := encodings.Latin1.Decode([]byte{b})
	if !ok {
		return rune(b)
	}
	r, _ := utf8.DecodeRune(dec)
	return r
}

func buildLatin1SwedishCI() *table {
	t := &table{src: encodings.Latin1_swedish_ci_RuneWeight}
	for b := 0; b < 256; b++ {
		t.latin[b] = rankWeight(encodings.Latin1_swedish_ci_RuneWeight(latin1Rune(byte(b))))
	}
	t.space = t.latin[' ']
	return t
}

func buildLatin1Bin() *table {
	t := &table{}
	for b := 0; b < 256; b++ {
		t.latin[b] = uint32(b) + 1
	}
	t.space = t.latin[' ']
	return t
}

func buildUnicodeCI() *table {
	return deriveUCA(encodings.Utf8mb4_unicode_ci_RuneWeight, true)
}

func buildUnicode520CI() *table {
	return deriveUCA(encodings.Utf8mb4_unicode_520_ci_RuneWeight, true)
}

func build0900AICI() *table { return table0900.get() }

// table0900 is shared by utf8mb4_0900_ai_ci and (as the base of)
// utf8mb4_uca1400_ai_ci.
var table0900 = lazy(func() *table {
	return deriveUCA(encodings.Utf8mb4_0900_ai_ci_RuneWeight, false)
})

// Hangul syllables (U+AC00..U+D7A3), and the unassigned code points around
// them. The UCA 9.0 source treats U+D7A4..U+D7AF like syllables too, so
// build1400AICI gives them implicit weights with the syllables.
const (
	hangulFirst    = 0xAC00
	hangulLast     = 0xD7AF
	hangulPrevFree = 0xABFF // unassigned in every Unicode version
	hangulNextFree = 0xD7C7 // unassigned in every Unicode version
)

// build1400AICI approximates MariaDB's utf8mb4_uca1400_ai_ci from the UCA
// 9.0.0 order of utf8mb4_0900_ai_ci: the same primary weights, but PAD SPACE
// (the Collation says so) and, like MariaDB, Hangul syllables are not
// decomposed into jamo: they get the UCA implicit weights of unassigned code
// points (lead weight FBC1, trail = code point), so they sort after the CJK
// ideographs and next to the unassigned code points around them.
//
// That is modelled as two weights: the weight of U+ABFF (the unassigned code
// point before them, which has the same implicit lead weight) followed by a
// trail weight above every other weight, ordered by code point. The next
// implicit weight in the source is that of U+D7C7 (checked by the tests).
func build1400AICI() *table {
	base := table0900.get()
	t := *base
	t.bmp = append([]uint32(nil), base.bmp...)
	t.exps = append([][]uint32(nil), base.exps...)
	lead := t.bmp[hangulPrevFree]
	// trail: above the weight of every character, so above anything that
	// can follow U+ABFF. Implicit weights grow with the code point, so the
	// last code point has the largest supplementary rank. (The made-up
	// weights of deriveUCA's between can be larger, but only ever follow
	// another weight inside an expansion.)
	trail := rankWeight(base.src(utf8.MaxRune)) + 1
	for _, v := range base.bmp {
		if v&expFlag == 0 && v < maxWeight { // maxWeight: surrogates
			trail = max(trail, v+1)
		}
	}
	flat := make([]uint32, 0, 2*(hangulLast-hangulFirst+1))
	for r := rune(hangulFirst); r <= hangulLast; r++ {
		flat = append(flat, lead, trail+uint32(r-hangulFirst))
		t.bmp[r] = expFlag | uint32(len(t.exps))
		t.exps = append(t.exps, flat[len(flat)-2:len(flat):len(flat)])
	}
	return &t
}

// deriveUCA builds the table of a UCA collation compared at the primary
// level from two sources:
//
//   - rank: go-mysql-server's sort order of single characters under the
//     collation (dense ranks of one-character strings). It has the exact
//     order of the collation's own UCA version, but one number per
//     character, so it cannot say that "ß" weighs as "s","s", nor tell an
//     ignorable character from a space when the ranks were taken under PAD
//     SPACE (padSource: both then rank as the empty string).
//   - golang.org/x/text/collate (CLDR root, Unicode 6.2): which characters
//     are primary-ignorable, and which expand to several primary weights and
//     to which ones.
//
// A character is ignorable if the ranks say it is (padSource: it ranks as a
// space and x/text says ignorable; otherwise: it ranks as U+0000). A
// character that x/text expands to primaries p1..pn gets the weights of
// characters that have exactly p1, ..., pn, if its own rank is consistent
// with that: it must rank after p1's character and before the next
// single-weight character. Otherwise (æ in UCA 4.0, where it is a letter of
// its own; Hangul syllables, which these tables do not decompose) it keeps
// its own rank as its only weight. Every other character has one weight, its
// rank. Characters that x/text does not know (newer than Unicode 6.2) keep
// their rank and are left out of that check, since the source may give them
// an expansion (U+1F1AA SQUARED SS sits between "s" and "ß" in UCA 9.0).
// The tests check that the result sorts all single characters exactly as
// the ranks do.
func deriveUCA(rank func(rune) int32, padSource bool) *table {
	xc := collate.New(language.Und, collate.Loose)
	var buf collate.Buffer
	var key []byte
	var prims []int32
	primaries := func(r rune) []int32 {
		key = utf8.AppendRune(key[:0], r)
		k := xc.Key(&buf, key)
		prims = prims[:0]
		for i := 0; i < len(k); {
			if k[i]&0x80 != 0 && i+2 < len(k) {
				prims = append(prims, int32(k[i]&0x7f)<<16|int32(k[i+1])<<8|int32(k[i+2]))
				i += 3
			} else if i+1 < len(k) {
				prims = append(prims, int32(k[i])<<8|int32(k[i+1]))
				i += 2
			} else {
				break
			}
		}
		buf.Reset()
		return prims
	}

	spaceRank, nulRank := rank(' '), rank(0)
	isIgnorable := func(rk int32, xIgnorable bool) bool {
		if padSource {
			return rk == spaceRank && xIgnorable
		}
		return rk == nulRank
	}

	type candidate struct {
		r     rune
		rk    int32
		prims []int32
	}
	var (
		reps       = map[int32]rune{} // primary -> first character with exactly that primary
		cands      []candidate
		ignorables = map[rune]bool{}
		unknown    = map[rune]bool{}
		maxRank    int32
	)
	for r := rune(0); r <= utf8.MaxRune; r++ {
		rk := rank(r)
		if rk < 0 || rk >= maxWeight-1 {
			continue
		}
		if skipDerive(r) {
			if r <= 0xFFFF {
				maxRank = max(maxRank, rk) // single, see below
			}
			continue
		}
		maxRank = max(maxRank, rk)
		p := primaries(r)
		if isIgnorable(rk, len(p) == 0) {
			ignorables[r] = true
			continue
		}
		switch {
		case len(p) == 0:
		case len(p) == 1 && p[0] > 0x7FFF:
			// An implicit weight: x/text (Unicode 6.2) does not know r. Its
			// rank is its only weight, but it says nothing about the
			// neighbourhood of that rank (see below).
			unknown[r] = true
		case len(p) == 1:
			if _, ok := reps[p[0]]; !ok {
				reps[p[0]] = r
			}
		default:
			cands = append(cands, candidate{r, rk, append([]int32(nil), p...)})
		}
	}

	// Candidate expansions, as ranks of their parts.
	type expansion struct {
		r     rune
		rk    int32
		parts []int32
	}
	var exps []expansion
	for _, c := range cands {
		var parts []int32
		ok := true
		for _, p := range c.prims {
			rep, found := reps[p]
			if !found {
				// Typically a CJK ideograph (skipped above) inside a
				// compatibility character such as U+337B SQUARE ERA NAME
				// HEISEI: find it in the character's decomposition.
				for _, d := range norm.NFKD.String(string(c.r)) {
					if dp := primaries(d); len(dp) == 1 && dp[0] == p {
						rep, found = d, true
						reps[p] = d
						break
					}
				}
			}
			if !found {
				ok = false
				break
			}
			if ignorables[rep] {
				continue
			}
			parts = append(parts, rank(rep))
		}
		if ok && len(parts) >= 2 {
			exps = append(exps, expansion{c.r, c.rk, parts})
		}
	}

	// single[rk]: some single-weight character has rank rk.
	single := make([]uint64, int(maxRank)/64+2)
	setSingle := func(rk int32) { single[rk/64] |= 1 << (rk % 64) }
	isSingle := func(rk int32) bool { return single[rk/64]&(1<<(rk%64)) != 0 }
	nextSingle := func(rk int32) int32 { // smallest single rank > rk
		for i := rk + 1; int(i) < len(single)*64; {
			word := single[i/64] >> (i % 64)
			if word != 0 {
				for word&1 == 0 {
					word >>= 1
					i++
				}
				return i
			}
			i = (i/64 + 1) * 64
		}
		return math.MaxInt32
	}
	isExp := map[rune]bool{}
	for _, e := range exps {
		isExp[e.r] = true
	}
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if ignorables[r] || isExp[r] || unknown[r] || r > 0xFFFF && skipDerive(r) {
			continue
		}
		if rk := rank(r); rk >= 0 && rk <= maxRank {
			setSingle(rk)
		}
	}
	// Demote the expansions whose rank contradicts them, until none does.
	for changed := true; changed; {
		changed = false
		kept := exps[:0]
		for _, e := range exps {
			if e.rk > e.parts[0] && e.rk < nextSingle(e.parts[0]) && !isSingle(e.rk) {
				kept = append(kept, e)
				continue
			}
			setSingle(e.rk)
			changed = true
		}
		exps = kept
	}

	// Kept expansions as weights, by rank.
	type weighed struct {
		r  rune
		rk int32
		ws []uint32
	}
	var final []weighed
	for _, e := range exps {
		ws := make([]uint32, len(e.parts))
		for i, p := range e.parts {
			ws[i] = rankWeight(p)
		}
		final = append(final, weighed{e.r, e.rk, ws})
	}
	slices.SortFunc(final, func(a, b weighed) int { return cmp.Or(cmp.Compare(a.rk, b.rk), cmp.Compare(a.r, b.r)) })

	// A character x/text does not know that ranks like a kept expansion
	// gets the same weights. One that ranks after a single character s and
	// before a kept expansion that starts with s's weight must be an
	// expansion too (a weight of its own would sort after that expansion):
	// it gets made-up weights that sort between its neighbours'. Any other
	// keeps its rank as its only weight.
	unk := make([]rune, 0, len(unknown))
	for r := range unknown {
		unk = append(unk, r)
	}
	slices.SortFunc(unk, func(a, b rune) int { return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a, b)) })
	type gap struct {
		rk int32
		ws []uint32
	}
	gaps := map[int]gap{}
	n := len(final)
	for _, u := range unk {
		rk := rank(u)
		if isSingle(rk) {
			continue
		}
		i, found := slices.BinarySearchFunc(final[:n], rk, func(e weighed, rk int32) int { return cmp.Compare(e.rk, rk) })
		if found {
			final = append(final, weighed{u, rk, final[i].ws})
			continue
		}
		if i == n || rk <= int32(final[i].ws[0])-1 {
			continue
		}
		g, ok := gaps[i]
		if !ok {
			// The zone's single character, or the expansion below.
			g = gap{int32(final[i].ws[0]) - 1, final[i].ws[:1]}
			if i > 0 && final[i-1].ws[0] == final[i].ws[0] {
				g = gap{final[i-1].rk, final[i-1].ws}
			}
		}
		if g.rk != rk {
			g = gap{rk, between(g.ws, final[i].ws)}
			gaps[i] = g
		}
		final = append(final, weighed{u, rk, g.ws})
	}

	t := &table{bmp: make([]uint32, 0x10000), suppl: map[rune]uint32{}, supplRank: rank, src: rank}
	for r := rune(0); r < 0x10000; r++ {
		if ignorables[r] {
			t.bmp[r] = 0
		} else {
			t.bmp[r] = rankWeight(rank(r))
		}
	}
	for r := range ignorables {
		if r >= 0x10000 {
			t.suppl[r] = 0
		}
	}
	for _, e := range final {
		v := expFlag | uint32(len(t.exps))
		t.exps = append(t.exps, e.ws)
		if e.r < 0x10000 {
			t.bmp[e.r] = v
		} else {
			t.suppl[e.r] = v
		}
	}
	t.fillASCII()
	return t
}

// between returns a weight sequence that sorts strictly between a and b,
// given a < b.
func between(a, b []uint32) []uint32 {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	c := append([]uint32(nil), a...)
	if i == len(a) { // a is a proper prefix of b
		return append(c, max(b[i]-1, 1))
	}
	return append(c, maxWeight)
}

// skipDerive reports whether deriveUCA can skip r: surrogates, private use,
// CJK ideographs and the planes with no other characters, all of which have
// one implicit weight in every source.
func skipDerive(r rune) bool {
	switch {
	case r >= 0xD800 && r <= 0xF8FF: // surrogates, private use
		return true
	case r >= 0x3400 && r <= 0x4DBF, r >= 0x4E00 && r <= 0x9FFF: // CJK ideographs
		return true
	case r >= 0x20000 && r < 0xE0000: // CJK extensions, unassigned planes
		return true
	case r >= 0xE0200: // unassigned, private use
		return true
	}
	return false
}
