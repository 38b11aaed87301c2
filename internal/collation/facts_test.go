package collation

import (
	"bytes"
	"testing"
)

// fact is one recorded MariaDB comparison: a <op> b under coll, where op is
// "<", "=" or ">".
type fact struct {
	name string
	coll string
	a    string
	op   string
	b    string
}

func checkFacts(t *testing.T, facts []fact) {
	t.Helper()
	for _, f := range facts {
		t.Run(f.name, func(t *testing.T) {
			c := Lookup(f.coll)
			if c == nil {
				t.Fatalf("no collation %s", f.coll)
			}
			want := map[string]int{"<": -1, "=": 0, ">": 1}[f.op]
			a, b := []byte(f.a), []byte(f.b)
			if got := c.Compare(a, b); got != want {
				t.Errorf("%s: Compare(%+q, %+q) = %d, want %s", f.coll, f.a, f.b, got, f.op)
			}
			if got := c.Compare(b, a); got != -want {
				t.Errorf("%s: Compare(%+q, %+q) = %d, want %d", f.coll, f.b, f.a, got, -want)
			}
			if got := c.Equal(a, b); got != (want == 0) {
				t.Errorf("%s: Equal(%+q, %+q) = %v", f.coll, f.a, f.b, got)
			}
			ka, kb := c.AppendKey(nil, a), c.AppendKey(nil, b)
			if got := bytes.Compare(ka, kb); got != want {
				t.Errorf("%s: keys of %+q and %+q compare %d, want %s (%x, %x)", f.coll, f.a, f.b, got, f.op, ka, kb)
			}
		})
	}
}

// padCollations are the PAD SPACE collations; utf8mb4_nopad_bin,
// utf8mb4_0900_ai_ci and binary are NO PAD.
var padCollations = []string{"utf8mb4_general_ci", "utf8mb4_bin", "utf8mb4_unicode_ci",
	"utf8mb4_unicode_520_ci", "utf8mb4_uca1400_ai_ci", "latin1_swedish_ci", "latin1_bin"}

// TestSurprise16PadSpace: PAD SPACE collations treat "a", "a " and "a  " as
// equal, and "a\t" sorts before "a" because trailing characters are compared
// against a space; so does "a\0" in general_ci, the bin collations and
// latin1, while the UCA collations ignore NUL. In utf8mb4_nopad_bin,
// "a" < "a\0" < "a\t" < "a ".
func TestSurprise16PadSpace(t *testing.T) {
	var facts []fact
	for _, c := range padCollations {
		facts = append(facts,
			fact{c + "/a=a_", c, "a", "=", "a "},
			fact{c + "/a=a__", c, "a", "=", "a  "},
			fact{c + "/empty=space", c, "", "=", " "},
			fact{c + "/a_tab<a", c, "a\t", "<", "a"},
			fact{c + "/a_tab<a_", c, "a\t", "<", "a "},
			fact{c + "/a_space_tab<a", c, "a \t", "<", "a"},
			fact{c + "/a_space_b>a", c, "a b", ">", "a"},
		)
	}
	for _, c := range []string{"utf8mb4_general_ci", "utf8mb4_bin", "latin1_swedish_ci", "latin1_bin"} {
		facts = append(facts,
			fact{c + "/a_nul<a", c, "a\x00", "<", "a"},
			fact{c + "/a_nul<a_tab", c, "a\x00", "<", "a\t"},
		)
	}
	for _, c := range []string{"utf8mb4_unicode_ci", "utf8mb4_unicode_520_ci", "utf8mb4_uca1400_ai_ci"} {
		facts = append(facts,
			fact{c + "/a_nul=a", c, "a\x00", "=", "a"},
			fact{c + "/nul_a=a", c, "\x00a", "=", "a"},
		)
	}
	facts = append(facts,
		fact{"nopad_bin/a<a_nul", "utf8mb4_nopad_bin", "a", "<", "a\x00"},
		fact{"nopad_bin/a_nul<a_tab", "utf8mb4_nopad_bin", "a\x00", "<", "a\t"},
		fact{"nopad_bin/a_tab<a_", "utf8mb4_nopad_bin", "a\t", "<", "a "},
		fact{"nopad_bin/a_<a__", "utf8mb4_nopad_bin", "a ", "<", "a  "},
		fact{"nopad_bin/empty<space", "utf8mb4_nopad_bin", "", "<", " "},
		fact{"0900/a<a_", "utf8mb4_0900_ai_ci", "a", "<", "a "},
		fact{"0900/a_nul=a", "utf8mb4_0900_ai_ci", "a\x00", "=", "a"},
		fact{"binary/a<a_", "binary", "a", "<", "a "},
		fact{"binary/a<a_nul", "binary", "a", "<", "a\x00"},
	)
	checkFacts(t, facts)
}

// TestSurprise17GeneralCI: every supplementary character is equal, "ß" is
// not "ss", "_" sorts after "z", "æ", "ø" and "œ" after "_", and "ı" and
// "İ" equal "i".
func TestSurprise17GeneralCI(t *testing.T) {
	const c = "utf8mb4_general_ci"
	checkFacts(t, []fact{
		{"grinning=beaming", c, "😀", "=", "😁"},
		{"grinning=smiling", c, "😀", "=", "🙂"},
		{"grinning=double_struck_A", c, "😀", "=", "𝔸"},
		{"supplementary_last", c, "ｱ", "<", "😀"},
		{"sharp_s<ss", c, "ß", "<", "ss"},
		{"sharp_s=s", c, "ß", "=", "s"},
		{"z<underscore", c, "z", "<", "_"},
		{"underscore<ae", c, "_", "<", "æ"},
		{"ae<o_slash", c, "æ", "<", "ø"},
		{"o_slash<oe", c, "ø", "<", "œ"},
		{"ae_upper=lower", c, "Æ", "=", "æ"},
		{"dotless_i=i", c, "ı", "=", "i"},
		{"dotted_I=i", c, "İ", "=", "i"},
		{"case", c, "AbC", "=", "abc"},
		{"accents", c, "éÉèë", "=", "eeee"},
		{"combining_acute_not_folded", c, "a\u0301", ">", "ae"},
	})
}

// TestSurprise18UCA: utf8mb4_unicode_ci (UCA 4.0) ignores NUL, has "ß" =
// "ss" but "æ" != "ae", makes every supplementary character equal and last,
// and sorts "€" before "0". unicode_520_ci: "æ" = "ae", "ẞ" = "ss", "𝔸" =
// "a", each emoji distinct. uca1400_ai_ci agrees with 520 there, but sorts
// the emoji before "€" and the digits.
func TestSurprise18UCA(t *testing.T) {
	const u, u520, u1400 = "utf8mb4_unicode_ci", "utf8mb4_unicode_520_ci", "utf8mb4_uca1400_ai_ci"
	facts := []fact{
		{"unicode/sharp_s=ss", u, "ß", "=", "ss"},
		{"unicode/sharp_s=SS", u, "ß", "=", "SS"},
		{"unicode/straße=strasse", u, "Straße", "=", "strasse"},
		{"unicode/ae>ae_letters", u, "æ", ">", "ae"},
		{"unicode/ae<b", u, "æ", "<", "b"},
		{"unicode/oe=oe", u, "œ", "=", "oe"},
		{"unicode/o_slash>oe", u, "ø", ">", "oe"},
		{"unicode/grinning=beaming", u, "😀", "=", "😁"},
		{"unicode/grinning=double_struck_A", u, "😀", "=", "𝔸"},
		{"unicode/emoji_after_hangul", u, "한", "<", "🙂"},
		{"unicode/capital_sharp_s_after_cjk", u, "本", "<", "ẞ"},
		{"unicode/capital_sharp_s<hangul", u, "ẞ", "<", "한"},
		{"unicode/euro<0", u, "€", "<", "0"},
		{"unicode/fi_ligature=fi", u, "ﬁ", "=", "fi"},
		{"unicode/fullwidth_A=a", u, "Ａ", "=", "a"},
		{"unicode/combining_acute_ignored", u, "a\u0301", "=", "a"},
		{"unicode/dotless_i>i", u, "ı", ">", "i"},
		{"unicode/underscore<hyphen", u, "_", "<", "-"},

		{"520/ae=ae_letters", u520, "æ", "=", "ae"},
		{"520/AE=ae", u520, "Æ", "=", "ae"},
		{"520/capital_sharp_s=ss", u520, "ẞ", "=", "ss"},
		{"520/sharp_s=ss", u520, "ß", "=", "ss"},
		{"520/double_struck_A=a", u520, "𝔸", "=", "a"},
		{"520/grinning<beaming", u520, "😀", "<", "😁"},
		{"520/beaming<smiling", u520, "😁", "<", "🙂"},
		{"520/emoji_after_hangul", u520, "한", "<", "😀"},
		{"520/euro<0", u520, "€", "<", "0"},
		{"520/o_slash=o", u520, "ø", "=", "o"},

		{"1400/ae=ae_letters", u1400, "æ", "=", "ae"},
		{"1400/capital_sharp_s=ss", u1400, "ẞ", "=", "ss"},
		{"1400/double_struck_A=a", u1400, "𝔸", "=", "a"},
		{"1400/grinning<beaming", u1400, "😀", "<", "😁"},
		{"1400/beaming<smiling", u1400, "😁", "<", "🙂"},
		{"1400/emoji<euro", u1400, "🙂", "<", "€"},
		{"1400/euro<0", u1400, "€", "<", "0"},
		{"1400/period<emoji", u1400, ".", "<", "😀"},
		{"1400/hangul_after_cjk", u1400, "本", "<", "한"},
		{"1400/dotless_i>i", u1400, "ı", ">", "i"},

		{"0900/ae=ae_letters", "utf8mb4_0900_ai_ci", "æ", "=", "ae"},
		{"0900/sharp_s=ss", "utf8mb4_0900_ai_ci", "ß", "=", "ss"},
		{"0900/emoji<euro", "utf8mb4_0900_ai_ci", "🙂", "<", "€"},
	}
	checkFacts(t, facts)
}

// TestSurprise19Latin1: latin1_swedish_ci sorts "å", "ä"/"æ" and "ö" after
// "z" and makes "ü" = "y"; latin1_bin sorts by byte ("€" = 0x80 before "œ" =
// 0x9C and the accented letters). The strings are latin1 bytes.
func TestSurprise19Latin1(t *testing.T) {
	const sw, bin = "latin1_swedish_ci", "latin1_bin"
	checkFacts(t, []fact{
		{"swedish/z<a_ring", sw, "z", "<", "\xE5"},
		{"swedish/a_ring<a_uml", sw, "\xE5", "<", "\xE4"},
		{"swedish/a_uml=ae", sw, "\xE4", "=", "\xE6"},
		{"swedish/A_uml=a_uml", sw, "\xC4", "=", "\xE4"},
		{"swedish/a_uml<o_uml", sw, "\xE4", "<", "\xF6"},
		{"swedish/u_uml=y", sw, "\xFC", "=", "y"},
		{"swedish/a_acute=a", sw, "\xE1", "=", "a"},
		{"swedish/e_acute=E", sw, "\xE9", "=", "E"},
		{"swedish/o_uml<underscore", sw, "\xF6", "<", "_"},
		{"swedish/euro<oe", sw, "\x80", "<", "\x9C"},
		{"swedish/case", sw, "AbC", "=", "abc"},
		{"bin/z<euro", bin, "z", "<", "\x80"},
		{"bin/euro<oe", bin, "\x80", "<", "\x9C"},
		{"bin/oe<A_acute", bin, "\x9C", "<", "\xC1"},
		{"bin/A<a", bin, "A", "<", "a"},
		{"bin/a=a_", bin, "a", "=", "a "},
	})
}

// TestUCAExpansions checks expansions the UCA collations take from the
// Unicode collation element table (compatibility characters weigh as their
// decompositions at the primary level), including ones that contain CJK
// ideographs.
func TestUCAExpansions(t *testing.T) {
	var facts []fact
	for _, c := range []string{"utf8mb4_unicode_ci", "utf8mb4_unicode_520_ci", "utf8mb4_0900_ai_ci", "utf8mb4_uca1400_ai_ci"} {
		facts = append(facts,
			fact{c + "/heisei", c, "㍻", "=", "平成"},
			fact{c + "/parenthesized_one", c, "㈠", "=", "(一)"},
			fact{c + "/ffi", c, "ﬃ", "=", "FFI"},
			fact{c + "/dz_caron", c, "ǆ", "=", "dž"},
			fact{c + "/sharp_s<st", c, "ß", "<", "st"},
			fact{c + "/sharp_s>sr", c, "ß", ">", "sr"},
			fact{c + "/ij", c, "ĳ", "=", "ij"},
		)
	}
	checkFacts(t, facts)
}
