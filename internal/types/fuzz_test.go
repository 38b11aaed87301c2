package types

import (
	"bytes"
	"testing"
)

// fuzzTypes are the column types the fuzz targets pick from (by index
// modulo the list length). roundTrip says whether Convert(AppendFormat(v))
// gives v back: not for FLOAT, whose 6 printed digits lose information.
var fuzzTypes = []struct {
	def       string
	roundTrip bool
}{
	{"TINYINT", true}, {"SMALLINT UNSIGNED", true}, {"MEDIUMINT", true}, {"INT", true}, {"INT UNSIGNED", true},
	{"BIGINT", true}, {"BIGINT UNSIGNED", true}, {"DECIMAL(10,3)", true}, {"DECIMAL(65,30)", true},
	{"DECIMAL(5,0) UNSIGNED", true}, {"FLOAT", false}, {"DOUBLE", true}, {"FLOAT(7,2)", false},
	{"DOUBLE(12,4)", false}, {"BIT(8)", true}, {"BIT(13)", true}, {"BIT(64)", true}, {"DATE", true},
	{"DATETIME", true}, {"DATETIME(6)", true}, {"TIMESTAMP(3)", true}, {"TIME", true}, {"TIME(2)", true},
	{"YEAR", true}, {"CHAR(5)", true}, {"VARCHAR(8)", true}, {"VARCHAR(8) COLLATE utf8mb4_bin", true},
	{"VARCHAR(8) COLLATE utf8mb4_unicode_ci", true}, {"VARCHAR(8) CHARACTER SET latin1", true},
	{"TINYTEXT", true}, {"BINARY(5)", true}, {"VARBINARY(5)", true}, {"BLOB", true},
	{"ENUM('a','b','c')", true}, {"SET('x','y','z')", true},
}

func fuzzType(t *testing.T, i uint8) (*Type, bool) {
	ft := fuzzTypes[int(i)%len(fuzzTypes)]
	return mustType(t, ft.def), ft.roundTrip
}

// FuzzConvert converts arbitrary input into a type from fuzzTypes: it must
// not panic, must print, and (for round-tripping types) converting the
// printed text again must give an equal value with the same key.
func FuzzConvert(f *testing.F) {
	for i := range fuzzTypes {
		for _, s := range []string{"", "0", "-1", "3.5", "1e400", "2020-01-02 03:04:05.678", "-838:59:59", "\xff\xfe", "X,y"} {
			f.Add(uint8(i), []byte(s))
		}
	}
	f.Fuzz(func(t *testing.T, ti uint8, in []byte) {
		typ, roundTrip := fuzzType(t, ti)
		orig := append([]byte(nil), in...)
		v := Convert(typ, in, nil)
		if !bytes.Equal(in, orig) {
			t.Fatal("Convert modified its input")
		}
		if v.Null {
			t.Fatal("Convert returned NULL")
		}
		out := AppendFormat(nil, typ, v)
		key := AppendKey(nil, typ, v)
		if Compare(typ, v, v) != 0 {
			t.Fatalf("%s: value of %q not equal to itself", typ, in)
		}
		if !roundTrip {
			return
		}
		w := Convert(typ, out, nil)
		if c := Compare(typ, v, w); c != 0 {
			t.Fatalf("%s: %q prints %q, which converts to %q (Compare %d)", typ, in, out, AppendFormat(nil, typ, w), c)
		}
		if k := AppendKey(nil, typ, w); !bytes.Equal(k, key) {
			t.Fatalf("%s: %q and its printed form %q have keys %x and %x", typ, in, out, key, k)
		}
		if again := AppendFormat(nil, typ, w); !bytes.Equal(again, out) {
			t.Fatalf("%s: %q prints %q, then %q", typ, in, out, again)
		}
	})
}

// FuzzKeyOrder converts two inputs into one type and checks that their
// key order equals Compare and that the keys are prefix-free.
func FuzzKeyOrder(f *testing.F) {
	for i := range fuzzTypes {
		f.Add(uint8(i), []byte("1"), []byte("2"))
		f.Add(uint8(i), []byte("a "), []byte("A"))
		f.Add(uint8(i), []byte("-0.5"), []byte("0"))
	}
	f.Fuzz(func(t *testing.T, ti uint8, a, b []byte) {
		typ, _ := fuzzType(t, ti)
		va, vb := Convert(typ, a, nil), Convert(typ, b, nil)
		ka, kb := AppendKey(nil, typ, va), AppendKey(nil, typ, vb)
		want := Compare(typ, va, vb)
		if got := sign(bytes.Compare(ka, kb)); got != want {
			t.Fatalf("%s: %q vs %q: Compare %d, keys %x %x order %d", typ, a, b, want, ka, kb, got)
		}
		if !bytes.Equal(ka, kb) && (bytes.HasPrefix(ka, kb) || bytes.HasPrefix(kb, ka)) {
			t.Fatalf("%s: keys %x and %x: one is a prefix of the other", typ, ka, kb)
		}
		if Compare(typ, vb, va) != -want {
			t.Fatalf("%s: Compare not antisymmetric on %q, %q", typ, a, b)
		}
	})
}
