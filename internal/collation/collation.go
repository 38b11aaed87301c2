// Package collation holds the character sets and collations HandlerDB
// supports: how a string column's bytes are cleaned on store, measured in
// characters, compared, and encoded into an order-preserving key.
//
// The collations follow MariaDB 10.11 as recorded in the shared type vectors
// (order/<collation>.tsv): case and accent folding of the _ci collations,
// PAD SPACE (trailing spaces are insignificant, and a trailing character is
// compared against a space, so "a\t" < "a"), UCA ignorables and expansions
// ("ß" = "ss" in utf8mb4_unicode_ci).
//
// Weights are not typed in by hand here: they come from the per-rune sort
// orders of github.com/dolthub/go-mysql-server/sql/encodings, and the UCA
// expansion structure (which characters weigh as several letters, which are
// ignorable) comes from golang.org/x/text/collate; see table.go.
//
// Collations are immutable package-level values, safe for concurrent use.
// Their weight tables are built lazily on first use (a few milliseconds for
// utf8mb4_general_ci and latin1, up to a few hundred for the UCA collations).
package collation

import (
	"slices"
	"strings"
	"sync"
)

// Collation is one MySQL/MariaDB collation of one character set. All its
// methods are safe for concurrent use.
type Collation struct {
	ID       uint16 // MySQL collation id (as in information_schema.COLLATIONS)
	Name     string // e.g. "utf8mb4_general_ci"
	Charset  string // "utf8mb4", "utf8mb3", "latin1" or "binary"
	PadSpace bool   // trailing spaces are insignificant in comparisons

	kind kind
	// mb3: UTF-8 of at most 3 bytes a character (utf8mb3): a character
	// outside the Basic Multilingual Plane is stored as '?'.
	mb3   bool
	table *lazyTable // weights; nil for binary
}

// kind says how a collation's bytes are read.
type kind uint8

const (
	kindBinary kind = iota // bytes, compared as bytes, NO PAD
	kindLatin1             // one byte = one character, weight from a byte table
	kindUTF8               // UTF-8 characters, weights per rune
)

// lazyTable builds a weight table once, on first use.
type lazyTable struct {
	once  sync.Once
	build func() *table
	t     *table
}

func (l *lazyTable) get() *table {
	l.once.Do(func() { l.t = l.build() })
	return l.t
}

func lazy(build func() *table) *lazyTable { return &lazyTable{build: build} }

// The supported collations. They are immutable and safe for concurrent use;
// Lookup, ByID, ForCharset and All return these same pointers.
var (
	// Binary is the "binary" collation of the binary character set
	// (BINARY, VARBINARY, BLOB): bytes compared as unsigned bytes, NO PAD.
	Binary = &Collation{ID: 63, Name: "binary", Charset: "binary", kind: kindBinary}

	// Utf8mb4GeneralCI is utf8mb4_general_ci, MariaDB's default: one weight
	// per character, case- and accent-insensitive, every supplementary
	// character weighs the same, PAD SPACE.
	Utf8mb4GeneralCI = &Collation{ID: 45, Name: "utf8mb4_general_ci", Charset: "utf8mb4", PadSpace: true,
		kind: kindUTF8, table: lazy(buildGeneralCI)}

	// Utf8mb4Bin is utf8mb4_bin: code point order, PAD SPACE.
	Utf8mb4Bin = &Collation{ID: 46, Name: "utf8mb4_bin", Charset: "utf8mb4", PadSpace: true,
		kind: kindUTF8, table: lazy(buildCodePoint)}

	// Utf8mb4NopadBin is MariaDB's utf8mb4_nopad_bin: code point order,
	// NO PAD ("a" < "a\0" < "a\t" < "a ").
	Utf8mb4NopadBin = &Collation{ID: 1070, Name: "utf8mb4_nopad_bin", Charset: "utf8mb4",
		kind: kindUTF8, table: lazy(buildCodePoint)}

	// Utf8mb4UnicodeCI is utf8mb4_unicode_ci (UCA 4.0.0, primary level,
	// PAD SPACE; supplementary characters all weigh the same and sort last).
	Utf8mb4UnicodeCI = &Collation{ID: 224, Name: "utf8mb4_unicode_ci", Charset: "utf8mb4", PadSpace: true,
		kind: kindUTF8, table: lazy(buildUnicodeCI)}

	// Utf8mb4Unicode520CI is utf8mb4_unicode_520_ci (UCA 5.2.0, primary
	// level, PAD SPACE).
	Utf8mb4Unicode520CI = &Collation{ID: 246, Name: "utf8mb4_unicode_520_ci", Charset: "utf8mb4", PadSpace: true,
		kind: kindUTF8, table: lazy(buildUnicode520CI)}

	// Utf8mb4UCA0900AICI is MySQL 8's utf8mb4_0900_ai_ci (UCA 9.0.0, primary
	// level, NO PAD).
	Utf8mb4UCA0900AICI = &Collation{ID: 255, Name: "utf8mb4_0900_ai_ci", Charset: "utf8mb4",
		kind: kindUTF8, table: lazy(build0900AICI)}

	// Utf8mb4UCA1400AICI is MariaDB's utf8mb4_uca1400_ai_ci (UCA 14.0.0,
	// primary level, PAD SPACE). It is approximated from the UCA 9.0.0 order
	// (see build1400AICI): characters added in Unicode 10 to 14 sort as
	// unassigned ones.
	Utf8mb4UCA1400AICI = &Collation{ID: 2304, Name: "utf8mb4_uca1400_ai_ci", Charset: "utf8mb4", PadSpace: true,
		kind: kindUTF8, table: lazy(build1400AICI)}

	// Utf8mb3GeneralCI is utf8mb3_general_ci (utf8's default; also named
	// utf8_general_ci): utf8mb4_general_ci's weights over the Basic
	// Multilingual Plane, the only characters utf8mb3 holds.
	Utf8mb3GeneralCI = &Collation{ID: 33, Name: "utf8mb3_general_ci", Charset: "utf8mb3", PadSpace: true,
		kind: kindUTF8, mb3: true, table: Utf8mb4GeneralCI.table}

	// Utf8mb3Bin is utf8mb3_bin: code point order, PAD SPACE.
	Utf8mb3Bin = &Collation{ID: 83, Name: "utf8mb3_bin", Charset: "utf8mb3", PadSpace: true,
		kind: kindUTF8, mb3: true, table: Utf8mb4Bin.table}

	// Utf8mb3UnicodeCI is utf8mb3_unicode_ci (UCA 4.0.0, as
	// utf8mb4_unicode_ci).
	Utf8mb3UnicodeCI = &Collation{ID: 192, Name: "utf8mb3_unicode_ci", Charset: "utf8mb3", PadSpace: true,
		kind: kindUTF8, mb3: true, table: Utf8mb4UnicodeCI.table}

	// Utf8mb3Unicode520CI is utf8mb3_unicode_520_ci (UCA 5.2.0, as
	// utf8mb4_unicode_520_ci).
	Utf8mb3Unicode520CI = &Collation{ID: 214, Name: "utf8mb3_unicode_520_ci", Charset: "utf8mb3", PadSpace: true,
		kind: kindUTF8, mb3: true, table: Utf8mb4Unicode520CI.table}

	// Latin1SwedishCI is latin1_swedish_ci, latin1's default collation
	// (MySQL's latin1 is Windows-1252): case-insensitive, "å", "ä"/"æ" and "ö"
	// after "z", "ü" = "y", PAD SPACE.
	Latin1SwedishCI = &Collation{ID: 8, Name: "latin1_swedish_ci", Charset: "latin1", PadSpace: true,
		kind: kindLatin1, table: lazy(buildLatin1SwedishCI)}

	// Latin1Bin is latin1_bin: byte order, PAD SPACE.
	Latin1Bin = &Collation{ID: 47, Name: "latin1_bin", Charset: "latin1", PadSpace: true,
		kind: kindLatin1, table: lazy(buildLatin1Bin)}
)

// Default is the collation of a table that names none (MariaDB's default,
// utf8mb4_general_ci). It is safe for concurrent use.
var Default = Utf8mb4GeneralCI

// all lists every collation, by ID.
var all = func() []*Collation {
	l := []*Collation{Binary, Utf8mb4GeneralCI, Utf8mb4Bin, Utf8mb4NopadBin, Utf8mb4UnicodeCI,
		Utf8mb4Unicode520CI, Utf8mb4UCA0900AICI, Utf8mb4UCA1400AICI, Latin1SwedishCI, Latin1Bin,
		Utf8mb3GeneralCI, Utf8mb3Bin, Utf8mb3UnicodeCI, Utf8mb3Unicode520CI}
	slices.SortFunc(l, func(a, b *Collation) int { return int(a.ID) - int(b.ID) })
	return l
}()

var (
	byName = map[string]*Collation{}
	byID   = map[uint16]*Collation{}
)

func init() {
	for _, c := range all {
		byName[c.Name] = c
		byID[c.ID] = c
	}
	// MariaDB 10.10+ also accepts the UCA 14 collation without its charset.
	byName["uca1400_ai_ci"] = Utf8mb4UCA1400AICI
}

// Lookup returns the collation with the given name, or nil if it is not
// supported. Names are case-insensitive. A utf8_ name (such as
// "utf8_general_ci") is the utf8mb3_ collation of the same suffix, as in
// MariaDB. Safe for concurrent use.
func Lookup(name string) *Collation {
	n := strings.ToLower(name)
	if c := byName[n]; c != nil {
		return c
	}
	if rest, ok := strings.CutPrefix(n, "utf8_"); ok {
		return byName["utf8mb3_"+rest]
	}
	return nil
}

// ByID returns the collation with the given MySQL/MariaDB collation id, or
// nil. Safe for concurrent use.
func ByID(id uint16) *Collation { return byID[id] }

// ForCharset returns the default collation of a character set:
// utf8mb4 -> utf8mb4_general_ci, utf8mb3 (also "utf8") ->
// utf8mb3_general_ci, latin1 -> latin1_swedish_ci, binary -> binary. The
// name is case-insensitive; it returns nil for any other character set.
// Safe for concurrent use.
func ForCharset(charset string) *Collation {
	switch strings.ToLower(charset) {
	case "utf8mb4":
		return Utf8mb4GeneralCI
	case "utf8", "utf8mb3":
		return Utf8mb3GeneralCI
	case "latin1":
		return Latin1SwedishCI
	case "binary":
		return Binary
	}
	return nil
}

// All returns every supported collation, ordered by ID. The slice is a fresh
// copy; the collations are shared. Safe for concurrent use.
func All() []*Collation { return slices.Clone(all) }

// String returns the collation's name. It is safe for concurrent use.
func (c *Collation) String() string { return c.Name }
