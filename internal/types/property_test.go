package types

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/collation"
)

// propertyType is a type and a generator of its values.
type propertyType struct {
	name string
	typ  *Type
	gen  func(r *rand.Rand) Value
}

// pick returns one of the given values.
func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// propertyTypes lists every kind with a generator of valid values that
// collide often (small domains, edge values, equal-by-collation strings).
func propertyTypes(t *testing.T) []propertyType {
	var out []propertyType
	add := func(def string, gen func(r *rand.Rand, typ *Type) Value) {
		typ := mustType(t, def)
		out = append(out, propertyType{name: def, typ: typ, gen: func(r *rand.Rand) Value { return gen(r, typ) }})
	}
	for _, def := range []string{"TINYINT", "SMALLINT", "MEDIUMINT", "INT", "BIGINT"} {
		for _, u := range []string{"", " UNSIGNED"} {
			add(def+u, func(r *rand.Rand, typ *Type) Value {
				lo, hi := intRange(typ)
				switch r.IntN(4) {
				case 0:
					return Value{I: clampInt(typ, pick(r, lo, hi, 0, 1, -1, lo+1, hi-1))}
				case 1:
					return FromInt(typ, r.Int64N(200)-100)
				}
				return FromInt(typ, int64(r.Uint64()))
			})
		}
	}
	for _, ps := range [][2]int{{1, 0}, {5, 0}, {10, 3}, {18, 9}, {30, 30}, {40, 5}, {65, 0}, {65, 30}} {
		add(fmt.Sprintf("DECIMAL(%d,%d)", ps[0], ps[1]), func(r *rand.Rand, typ *Type) Value {
			return Convert(typ, []byte(randDecimalText(r)), nil)
		})
	}
	add("DECIMAL(12,4) UNSIGNED", func(r *rand.Rand, typ *Type) Value {
		return Convert(typ, []byte(randDecimalText(r)), nil)
	})
	add("FLOAT", func(r *rand.Rand, typ *Type) Value {
		if r.IntN(3) == 0 {
			return Convert(typ, []byte(pick(r, "0", "-0", "1", "-1", "1.0000001", "3.5e38", "-3.5e38", "1e-45", "-1e-45", "0.1")), nil)
		}
		f := math.Float32frombits(r.Uint32())
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			f = 0
		}
		return storeReal(typ, float64(f))
	})
	add("FLOAT(7,2)", func(r *rand.Rand, typ *Type) Value {
		return storeReal(typ, (r.Float64()-0.5)*float64(pick(r, 1, 100, 1e6)))
	})
	add("DOUBLE", func(r *rand.Rand, typ *Type) Value {
		if r.IntN(3) == 0 {
			return Convert(typ, []byte(pick(r, "0", "-0", "1", "-1", "5e-324", "-5e-324", "1e400", "-1e400", "0.1", "2e-324")), nil)
		}
		f := math.Float64frombits(r.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			f = 0
		}
		return storeReal(typ, f)
	})
	for _, w := range []int{1, 7, 8, 12, 33, 64} {
		add(fmt.Sprintf("BIT(%d)", w), func(r *rand.Rand, typ *Type) Value {
			return fromIntBit(typ, int64(r.Uint64()&bitMax(pick(r, 1, 3, bitWidth(typ)))))
		})
	}
	dateGen := func(r *rand.Rand, typ *Type) Value {
		y := pick(r, 0, 1970, 2000, 2020, 9999, r.IntN(10000))
		mo := r.IntN(13)
		d := r.IntN(32)
		if mo > 0 && d > 28 {
			d = 28
		}
		if r.IntN(10) == 0 {
			y, mo, d = 0, 0, 0
		}
		if typ.Kind == Date {
			return Value{I: PackDateTime(y, mo, d, 0, 0, 0, 0)}
		}
		us := int(truncMicro(uint64(r.IntN(1000000)), typ.Scale))
		return Value{I: PackDateTime(y, mo, d, r.IntN(24), r.IntN(60), pick(r, 0, 59, r.IntN(60)), us)}
	}
	add("DATE", dateGen)
	add("DATETIME", dateGen)
	add("DATETIME(3)", dateGen)
	add("DATETIME(6)", dateGen)
	add("TIMESTAMP(2)", func(r *rand.Rand, typ *Type) Value {
		return Convert(typ, []byte(fmt.Sprintf("%d-%02d-%02d %02d:%02d:%02d.%06d", 1969+r.IntN(71), 1+r.IntN(12), 1+r.IntN(28),
			r.IntN(24), r.IntN(60), r.IntN(60), r.IntN(1000000))), nil)
	})
	timeGen := func(r *rand.Rand, typ *Type) Value {
		const max = (838*3600 + 59*60 + 59) * microsPerSec
		us := int64(truncMicro(uint64(r.Int64N(max+1)), typ.Scale))
		if r.IntN(3) == 0 {
			us = int64(truncMicro(uint64(r.Int64N(10*microsPerSec)), typ.Scale))
		}
		if r.IntN(2) == 0 {
			us = -us
		}
		return Value{I: us}
	}
	add("TIME", timeGen)
	add("TIME(4)", timeGen)
	add("YEAR", func(r *rand.Rand, typ *Type) Value {
		return Convert(typ, []byte(pick(r, "0000", "1901", "2155", "0", "69", "70", fmt.Sprint(1901+r.IntN(255)))), nil)
	})
	add("ENUM('zebra','apple','mango','Kiwi')", func(r *rand.Rand, typ *Type) Value { return Value{I: r.Int64N(5)} })
	add("SET('x','y','z','w','v')", func(r *rand.Rand, typ *Type) Value { return Value{I: r.Int64N(32)} })
	add("SET('a','b','c','d','e','f','g','h','i','j','k','l','m','n','o','p','q','r','s','t','u','v','w','x','y','z','A1','B1','C1','D1','E1','F1','G1','H1','I1','J1','K1','L1','M1','N1','O1','P1','Q1','R1','S1','T1','U1','V1','W1','X1','Y1','Z1','a2','b2','c2','d2','e2','f2','g2','h2','i2','j2','k2','l2')",
		func(r *rand.Rand, typ *Type) Value { return Value{I: int64(r.Uint64())} })
	for _, def := range []string{"BINARY(4)", "VARBINARY(8)", "BLOB"} {
		add(def, func(r *rand.Rand, typ *Type) Value { return Convert(typ, randBytes(r), nil) })
	}
	for _, name := range []string{"binary", "utf8mb4_bin", "utf8mb4_general_ci", "utf8mb4_unicode_ci",
		"utf8mb4_0900_ai_ci", "latin1_swedish_ci", "latin1_bin"} {
		c := collation.Lookup(name)
		if c == nil {
			t.Logf("collation %s is not available: skipped", name)
			continue
		}
		for _, kind := range []string{"CHAR(6)", "VARCHAR(8)"} {
			add(kind+" COLLATE "+name, func(r *rand.Rand, typ *Type) Value {
				if c.Charset == "utf8mb4" {
					return Convert(typ, []byte(randText(r)), nil)
				}
				return Convert(typ, randBytes(r), nil)
			})
		}
	}
	return out
}

// randDecimalText returns decimal text with few distinct digits.
func randDecimalText(r *rand.Rand) string {
	var b strings.Builder
	if r.IntN(2) == 0 {
		b.WriteByte('-')
	}
	for n := r.IntN(40); n > 0; n-- {
		b.WriteByte(pick[byte](r, '0', '1', '9', '5'))
	}
	if r.IntN(2) == 0 {
		b.WriteByte('.')
		for n := r.IntN(35); n > 0; n-- {
			b.WriteByte(pick[byte](r, '0', '1', '9', '5'))
		}
	}
	if r.IntN(5) == 0 {
		fmt.Fprintf(&b, "e%d", r.IntN(80)-40)
	}
	return b.String()
}

// randText returns short UTF-8 text (sometimes invalid) from pieces that
// collate equal or close under the various collations.
func randText(r *rand.Rand) string {
	pieces := []string{"a", "A", "á", "b", " ", "\t", "\x00", "ß", "ss", "s", "æ", "ae", "é", "E", "😀", "🙂", "𝔸",
		"\xff", "ı", "İ", "i", "_", "z", "€", "0", "9"}
	var b strings.Builder
	for n := r.IntN(6); n > 0; n-- {
		b.WriteString(pick(r, pieces...))
	}
	return b.String()
}

// randBytes returns short byte strings with many zeros and high bytes.
func randBytes(r *rand.Rand) []byte {
	b := make([]byte, r.IntN(7))
	for i := range b {
		b[i] = pick[byte](r, 0, 1, ' ', 'a', 'A', 0x7f, 0x80, 0xe9, 0xc9, 0xff, byte(r.IntN(256)))
	}
	return b
}

// TestKeyOrderProperty checks, for many random pairs of values of every
// kind, that the key order equals Compare, that equal values have equal
// keys, and that no key is a proper prefix of another.
func TestKeyOrderProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	const perType = 80
	pairs := 0
	for _, pt := range propertyTypes(t) {
		t.Run(pt.name, func(t *testing.T) {
			vals := make([]Value, perType)
			keys := make([][]byte, perType)
			for i := range vals {
				if i == 0 {
					vals[i] = NullValue
				} else {
					vals[i] = pt.gen(r)
				}
				keys[i] = AppendKey(nil, pt.typ, vals[i])
			}
			fails := 0
			for i := range vals {
				for j := range vals {
					pairs++
					want := Compare(pt.typ, vals[i], vals[j])
					got := sign(bytes.Compare(keys[i], keys[j]))
					if got != want || (want == 0 && !bytes.Equal(keys[i], keys[j])) {
						t.Errorf("%s vs %s: Compare %d, key order %d (keys %x, %x)",
							show(pt.typ, vals[i]), show(pt.typ, vals[j]), want, got, keys[i], keys[j])
						fails++
					}
					if !bytes.Equal(keys[i], keys[j]) && bytes.HasPrefix(keys[i], keys[j]) {
						t.Errorf("key of %s is a proper prefix of the key of %s", show(pt.typ, vals[j]), show(pt.typ, vals[i]))
						fails++
					}
					if want != -Compare(pt.typ, vals[j], vals[i]) {
						t.Errorf("Compare not antisymmetric on %s, %s", show(pt.typ, vals[i]), show(pt.typ, vals[j]))
						fails++
					}
					if fails > 10 {
						t.FailNow()
					}
				}
			}
		})
	}
	t.Logf("%d pairs checked", pairs)
}

// TestCompositeKeyProperty checks that concatenated keys of two columns
// sort like the column-by-column comparison.
func TestCompositeKeyProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	types := propertyTypes(t)
	for n := 0; n < 2000; n++ {
		a, b := types[r.IntN(len(types))], types[r.IntN(len(types))]
		v1, v2 := [2]Value{a.gen(r), b.gen(r)}, [2]Value{a.gen(r), b.gen(r)}
		if r.IntN(3) == 0 {
			v2[0] = v1[0]
		}
		k1 := AppendKey(AppendKey(nil, a.typ, v1[0]), b.typ, v1[1])
		k2 := AppendKey(AppendKey(nil, a.typ, v2[0]), b.typ, v2[1])
		want := Compare(a.typ, v1[0], v2[0])
		if want == 0 {
			want = Compare(b.typ, v1[1], v2[1])
		}
		if got := sign(bytes.Compare(k1, k2)); got != want {
			t.Fatalf("(%s, %s) vs (%s, %s) as %s, %s: key order %d, want %d", show(a.typ, v1[0]), show(b.typ, v1[1]),
				show(a.typ, v2[0]), show(b.typ, v2[1]), a.name, b.name, got, want)
		}
	}
}

func show(typ *Type, v Value) string {
	if v.Null {
		return "NULL"
	}
	return fmt.Sprintf("%q", AppendFormat(nil, typ, v))
}

// TestPlainDigits: for every integer type, convertInt's digits-only fast
// path gives what the general scan and rounding give, on digit strings
// of every length up to the fast path's limit and just past it, leading
// zeros and type bounds included.
func TestPlainDigits(t *testing.T) {
	slow := func(typ *Type, in []byte) Value {
		n := scanNumber(in)
		return Value{I: clampInt(typ, n.roundInt(typ.Unsigned))}
	}
	rnd := rand.New(rand.NewPCG(3, 4))
	var inputs []string
	for l := 1; l <= 20; l++ {
		for range 50 {
			b := make([]byte, l)
			for i := range b {
				b[i] = byte('0' + rnd.IntN(10))
			}
			inputs = append(inputs, string(b))
		}
	}
	inputs = append(inputs, "0", "00", "127", "128", "255", "256", "32767", "65535", "8388607", "16777215",
		"2147483647", "2147483648", "4294967295", "4294967296", "999999999999999999", "0000000000000000001")
	for _, k := range []Kind{TinyInt, SmallInt, MediumInt, Int, BigInt} {
		for _, unsigned := range []bool{false, true} {
			typ := &Type{Kind: k, Unsigned: unsigned}
			for _, in := range inputs {
				if got, want := convertInt(typ, []byte(in)), slow(typ, []byte(in)); got.I != want.I || got.Null != want.Null {
					t.Fatalf("%v unsigned=%v %q: %+v, the general path %+v", k, unsigned, in, got, want)
				}
			}
		}
	}
	for _, in := range []string{"", "1.5", "-3", "+3", " 3", "3 ", "1e3", "12a", "0x1f"} {
		if _, ok := plainDigits([]byte(in)); ok {
			t.Errorf("plainDigits took %q", in)
		}
	}
}
