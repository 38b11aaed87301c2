package collation

import (
	"bytes"
	"sync"
	"testing"
)

func TestRegistry(t *testing.T) {
	want := []struct {
		id      uint16
		name    string
		charset string
		pad     bool
	}{
		{8, "latin1_swedish_ci", "latin1", true},
		{33, "utf8mb3_general_ci", "utf8mb3", true},
		{45, "utf8mb4_general_ci", "utf8mb4", true},
		{46, "utf8mb4_bin", "utf8mb4", true},
		{47, "latin1_bin", "latin1", true},
		{63, "binary", "binary", false},
		{83, "utf8mb3_bin", "utf8mb3", true},
		{192, "utf8mb3_unicode_ci", "utf8mb3", true},
		{214, "utf8mb3_unicode_520_ci", "utf8mb3", true},
		{224, "utf8mb4_unicode_ci", "utf8mb4", true},
		{246, "utf8mb4_unicode_520_ci", "utf8mb4", true},
		{255, "utf8mb4_0900_ai_ci", "utf8mb4", false},
		{1070, "utf8mb4_nopad_bin", "utf8mb4", false},
		{2304, "utf8mb4_uca1400_ai_ci", "utf8mb4", true},
	}
	got := All()
	if len(got) != len(want) {
		t.Fatalf("All() has %d collations, want %d", len(got), len(want))
	}
	for i, w := range want {
		c := got[i]
		if c.ID != w.id || c.Name != w.name || c.Charset != w.charset || c.PadSpace != w.pad {
			t.Errorf("All()[%d] = %d %s %s pad=%v, want %+v", i, c.ID, c.Name, c.Charset, c.PadSpace, w)
		}
		if ByID(w.id) != c {
			t.Errorf("ByID(%d) = %v", w.id, ByID(w.id))
		}
		if Lookup(w.name) != c {
			t.Errorf("Lookup(%q) = %v", w.name, Lookup(w.name))
		}
	}
	got[0] = nil // All returns a copy
	if All()[0] == nil {
		t.Error("All() shares its slice")
	}
	if Default != Lookup("utf8mb4_general_ci") || Default.ID != 45 || !Default.PadSpace {
		t.Errorf("Default = %+v", Default)
	}
	for name, wantName := range map[string]string{
		"UTF8MB4_General_CI": "utf8mb4_general_ci",
		"utf8_general_ci":    "utf8mb3_general_ci",
		"utf8mb3_bin":        "utf8mb3_bin",
		"utf8_unicode_ci":    "utf8mb3_unicode_ci",
		"Latin1_Bin":         "latin1_bin",
		"uca1400_ai_ci":      "utf8mb4_uca1400_ai_ci",
		"BINARY":             "binary",
	} {
		if c := Lookup(name); c == nil || c.Name != wantName {
			t.Errorf("Lookup(%q) = %v, want %s", name, c, wantName)
		}
	}
	for _, name := range []string{"", "utf8mb4", "latin1_german1_ci", "utf8_", "utf8mb4_general_cs", "utf8_binary"} {
		if c := Lookup(name); c != nil {
			t.Errorf("Lookup(%q) = %v, want nil", name, c)
		}
	}
	if ByID(0) != nil || ByID(34) != nil {
		t.Error("ByID of an unsupported id is not nil")
	}
	for cs, wantName := range map[string]string{
		"utf8mb4": "utf8mb4_general_ci", "UTF8": "utf8mb3_general_ci", "utf8mb3": "utf8mb3_general_ci",
		"latin1": "latin1_swedish_ci", "binary": "binary",
	} {
		if c := ForCharset(cs); c == nil || c.Name != wantName {
			t.Errorf("ForCharset(%q) = %v, want %s", cs, c, wantName)
		}
	}
	if ForCharset("ascii") != nil || ForCharset("") != nil {
		t.Error("ForCharset of an unsupported charset is not nil")
	}
}

func TestClean(t *testing.T) {
	for _, tc := range []struct {
		coll, in, want string
	}{
		{"utf8mb4_general_ci", "\xFF\xFE", "??"},
		{"utf8mb4_general_ci", "abc", "abc"},
		{"utf8mb4_general_ci", "a\x00\x01\tb", "a\x00\x01\tb"},
		{"utf8mb4_general_ci", "日本😀é", "日本😀é"},
		{"utf8mb4_general_ci", "a\xE6\x97b", "a??b"},           // truncated sequence: one '?' per byte
		{"utf8mb4_general_ci", "\xED\xA0\x80", "???"},          // surrogate
		{"utf8mb4_general_ci", "\xC0\xAF", "??"},               // overlong
		{"utf8mb4_general_ci", "\xF4\x90\x80\x80", "????"},     // above U+10FFFF
		{"utf8mb4_bin", "abcd\xC3", "abcd?"},                   // cut multibyte character
		{"utf8mb4_unicode_ci", "\xEF\xBF\xBD", "\xEF\xBF\xBD"}, // a real U+FFFD stays
		{"latin1_swedish_ci", "\xFF\xFE\xE9", "\xFF\xFE\xE9"},
		{"latin1_bin", "\x80", "\x80"},
		{"binary", "\xFF\x00\xFE", "\xFF\x00\xFE"},
	} {
		c := Lookup(tc.coll)
		prefix := []byte("pre:")
		got := c.Clean(prefix, []byte(tc.in))
		if string(got) != "pre:"+tc.want {
			t.Errorf("%s: Clean(%+q) = %+q, want %+q", tc.coll, tc.in, got[4:], tc.want)
		}
	}
}

func TestTruncateCharLen(t *testing.T) {
	for _, tc := range []struct {
		coll string
		in   string
		max  int
		want string
		n    int // CharLen(in)
	}{
		{"utf8mb4_general_ci", "abcdé", 5, "abcdé", 5},
		{"utf8mb4_general_ci", "abcdéf", 5, "abcdé", 6},
		{"utf8mb4_general_ci", "日本語テキスト", 5, "日本語テキ", 7},
		{"utf8mb4_general_ci", "😀😁🙂", 2, "😀😁", 3},
		{"utf8mb4_general_ci", "\xFF\xFEab", 3, "\xFF\xFEa", 4},
		{"utf8mb4_general_ci", "abc", 0, "", 3},
		{"utf8mb4_general_ci", "", 3, "", 0},
		{"utf8mb4_bin", "ab", 5, "ab", 2},
		{"latin1_swedish_ci", "abc\xE9\xE9", 4, "abc\xE9", 5},
		{"binary", "abcdé", 5, "abcd\xC3", 6},
		{"binary", "ab", -1, "", 2},
	} {
		c := Lookup(tc.coll)
		if got := c.Truncate([]byte(tc.in), tc.max); string(got) != tc.want {
			t.Errorf("%s: Truncate(%+q, %d) = %+q, want %+q", tc.coll, tc.in, tc.max, got, tc.want)
		}
		if got := c.CharLen([]byte(tc.in)); got != tc.n {
			t.Errorf("%s: CharLen(%+q) = %d, want %d", tc.coll, tc.in, got, tc.n)
		}
	}
}

// TestInvalidBytesCompareAsStored: an invalid UTF-8 byte compares as the '?'
// it is stored as, so a lookup with raw bytes finds the cleaned value.
func TestInvalidBytesCompareAsStored(t *testing.T) {
	for _, c := range All() {
		if c.Charset != "utf8mb4" {
			continue
		}
		for _, s := range []string{"\xFF\xFE", "a\xE6\x97b", "x\xC3", "\xED\xA0\x80z"} {
			clean := c.Clean(nil, []byte(s))
			if c.Compare([]byte(s), clean) != 0 || !bytes.Equal(c.AppendKey(nil, []byte(s)), c.AppendKey(nil, clean)) {
				t.Errorf("%s: %+q does not compare as %+q", c.Name, s, clean)
			}
		}
	}
}

// TestConcurrentFirstUse builds the tables from many goroutines at once
// (run with -race to check).
func TestConcurrentFirstUse(t *testing.T) {
	var wg sync.WaitGroup
	for _, c := range All() {
		for i := 0; i < 4; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				k := c.AppendKey(nil, []byte("Straße ß 😀"))
				if len(k) == 0 || c.Compare([]byte("a"), []byte("b")) >= 0 {
					t.Errorf("%s: bad result", c.Name)
				}
			}()
		}
	}
	wg.Wait()
}

// utf8mb3 holds the Basic Multilingual Plane only: a character of four
// bytes is stored as "????", as the plugin stores it (recorded on MariaDB
// 10.11: HandlerSocket's insert of "x😀y" into a utf8 column reads back
// "x????y"); utf8mb4 keeps it. Weights are utf8mb4's.
func TestUTF8MB3(t *testing.T) {
	in := []byte("a😀b\xffé")
	if got := string(Utf8mb3GeneralCI.Clean(nil, in)); got != "a????b?é" {
		t.Errorf("utf8mb3 Clean(%q) = %q", in, got)
	}
	if got := string(Utf8mb4GeneralCI.Clean(nil, in)); got != "a😀b?é" {
		t.Errorf("utf8mb4 Clean(%q) = %q", in, got)
	}
	for c, n := range map[*Collation]int{Utf8mb3Bin: 3, Utf8mb4Bin: 4, Latin1Bin: 1, Binary: 1} {
		if c.MaxCharLen() != n {
			t.Errorf("%s.MaxCharLen() = %d, want %d", c.Name, c.MaxCharLen(), n)
		}
	}
	if Utf8mb3GeneralCI.Compare([]byte("ÄBC "), []byte("abc")) != 0 || Utf8mb3Bin.Compare([]byte("a"), []byte("A")) <= 0 {
		t.Error("utf8mb3 weights differ from utf8mb4's")
	}
}
