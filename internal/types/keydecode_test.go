package types

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"
)

// TestDecodeKeyProperty checks, for random values of every kind
// KeyReversible admits, that DecodeKey gives back exactly the value
// AppendKey keyed, and takes exactly its key when another key follows.
func TestDecodeKeyProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	checked := 0
	for _, pt := range propertyTypes(t) {
		if !KeyReversible(pt.typ) {
			continue
		}
		t.Run(pt.name, func(t *testing.T) {
			var buf []byte
			for i := 0; i < 300; i++ {
				v := NullValue
				if i > 0 {
					v = pt.gen(r)
				}
				key := AppendKey(nil, pt.typ, v)
				n := len(key)
				key = AppendKey(key, pt.typ, pt.gen(r)) // a following part
				buf = buf[:0]
				got, m, nb, err := DecodeKey(pt.typ, key, buf)
				buf = nb
				if err != nil {
					t.Fatalf("%s (key %x): %v", show(pt.typ, v), key[:n], err)
				}
				if m != n || !sameValue(got, v) {
					t.Fatalf("%s (key %x): decoded %s taking %d bytes, want %d", show(pt.typ, v), key[:n], show(pt.typ, got), m, n)
				}
				checked++
			}
		})
	}
	if checked == 0 {
		t.Fatal("no reversible type checked")
	}
}

func sameValue(a, b Value) bool {
	return a.Null == b.Null && a.I == b.I && a.F == b.F && bytes.Equal(a.B, b.B)
}

// TestKeyNotReversible shows, for each kind KeyReversible refuses, two
// different values with one key: a decode could give back only one.
func TestKeyNotReversible(t *testing.T) {
	for _, c := range []struct{ def, a, b string }{
		{"VARCHAR(8) COLLATE utf8mb4_general_ci", "abc", "ABC"},
		{"VARCHAR(8) COLLATE utf8mb4_bin", "abc", "abc "},
		{"CHAR(4) COLLATE latin1_swedish_ci", "e", "E"},
	} {
		typ := mustType(t, c.def)
		if KeyReversible(typ) {
			t.Errorf("%s: KeyReversible", c.def)
		}
		va, vb := Convert(typ, []byte(c.a), nil), Convert(typ, []byte(c.b), nil)
		if sameValue(va, vb) {
			t.Errorf("%s: %q and %q are one value", c.def, c.a, c.b)
		}
		if !bytes.Equal(AppendKey(nil, typ, va), AppendKey(nil, typ, vb)) {
			t.Errorf("%s: %q and %q have different keys", c.def, c.a, c.b)
		}
	}
	// Floats: -0 is keyed as 0, and a FLOAT's key holds float32 bits.
	for _, c := range []struct {
		def  string
		a, b Value
	}{
		{"DOUBLE", Value{F: 0}, Value{F: math.Copysign(0, -1)}},
		{"FLOAT", Value{F: 0}, Value{F: math.Copysign(0, -1)}},
		{"FLOAT", Value{F: float64(float32(0.1))}, Value{F: 0.1}},
	} {
		typ := mustType(t, c.def)
		if KeyReversible(typ) {
			t.Errorf("%s: KeyReversible", c.def)
		}
		if !bytes.Equal(AppendKey(nil, typ, c.a), AppendKey(nil, typ, c.b)) {
			t.Errorf("%s: %v and %v have different keys", c.def, c.a.F, c.b.F)
		}
	}
}

// TestDecodeKeyMalformed checks that truncated keys are refused.
func TestDecodeKeyMalformed(t *testing.T) {
	for _, c := range []struct{ def, v string }{
		{"INT", "-5"}, {"DECIMAL(6,2)", "-12.5"}, {"DECIMAL(6,2)", "7.25"}, {"VARBINARY(8)", "a\x00b"},
		{"DATETIME", "2024-01-02 03:04:05"}, {"BIT(12)", "5"},
	} {
		typ := mustType(t, c.def)
		key := AppendKey(nil, typ, Convert(typ, []byte(c.v), nil))
		for n := 0; n < len(key); n++ {
			if _, _, _, err := DecodeKey(typ, key[:n], nil); err == nil {
				t.Errorf("%s %q: a key cut to %d of %d bytes decoded", c.def, c.v, n, len(key))
			}
		}
	}
}
