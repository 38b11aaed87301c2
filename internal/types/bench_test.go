package types

import "testing"

func benchConvert(b *testing.B, def, in string) {
	typ := mustType(b, def)
	src := []byte(in)
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		v := Convert(typ, src, buf)
		buf = v.B
	}
}

func BenchmarkConvertInt(b *testing.B)     { benchConvert(b, "INT", "-123456") }
func BenchmarkConvertIntKey(b *testing.B)  { benchConvert(b, "INT", "54321") }
func BenchmarkConvertBigint(b *testing.B)  { benchConvert(b, "BIGINT UNSIGNED", "18446744073709551615") }
func BenchmarkConvertDecimal(b *testing.B) { benchConvert(b, "DECIMAL(10,3)", "-12345.6785") }
func BenchmarkConvertDouble(b *testing.B)  { benchConvert(b, "DOUBLE", "3.14159265358979") }
func BenchmarkConvertDatetime(b *testing.B) {
	benchConvert(b, "DATETIME(3)", "2020-01-02 03:04:05.678")
}
func BenchmarkConvertTime(b *testing.B)    { benchConvert(b, "TIME", "-12:34:56") }
func BenchmarkConvertVarchar(b *testing.B) { benchConvert(b, "VARCHAR(32)", "hello wörld, a value") }
func BenchmarkConvertEnum(b *testing.B)    { benchConvert(b, "ENUM('zebra','apple','mango')", "Mango") }

func benchKey(b *testing.B, def, in string) {
	typ := mustType(b, def)
	v := Convert(typ, []byte(in), nil)
	dst := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		dst = AppendKey(dst[:0], typ, v)
	}
}

func BenchmarkAppendKeyInt(b *testing.B)      { benchKey(b, "INT", "-123456") }
func BenchmarkAppendKeyBigint(b *testing.B)   { benchKey(b, "BIGINT UNSIGNED", "18446744073709551615") }
func BenchmarkAppendKeyDecimal(b *testing.B)  { benchKey(b, "DECIMAL(10,3)", "-12345.678") }
func BenchmarkAppendKeyDouble(b *testing.B)   { benchKey(b, "DOUBLE", "3.14159265358979") }
func BenchmarkAppendKeyDatetime(b *testing.B) { benchKey(b, "DATETIME(3)", "2020-01-02 03:04:05.678") }
func BenchmarkAppendKeyVarchar(b *testing.B)  { benchKey(b, "VARCHAR(32)", "Hello World") }
func BenchmarkAppendKeyBinary(b *testing.B)   { benchKey(b, "VARBINARY(32)", "bin\x00ary") }

func benchFormat(b *testing.B, def, in string) {
	typ := mustType(b, def)
	v := Convert(typ, []byte(in), nil)
	dst := make([]byte, 0, 64)
	b.ReportAllocs()
	for b.Loop() {
		dst = AppendFormat(dst[:0], typ, v)
	}
}

func BenchmarkAppendFormatInt(b *testing.B)     { benchFormat(b, "INT", "-123456") }
func BenchmarkAppendFormatDecimal(b *testing.B) { benchFormat(b, "DECIMAL(10,3)", "-12345.678") }
func BenchmarkAppendFormatFloat(b *testing.B)   { benchFormat(b, "FLOAT", "3.4028234e38") }
func BenchmarkAppendFormatDouble(b *testing.B)  { benchFormat(b, "DOUBLE", "9007199254740992") }
func BenchmarkAppendFormatDatetime(b *testing.B) {
	benchFormat(b, "DATETIME(3)", "2020-01-02 03:04:05.678")
}
func BenchmarkAppendFormatTime(b *testing.B) { benchFormat(b, "TIME", "-838:59:59") }
func BenchmarkAppendFormatSet(b *testing.B)  { benchFormat(b, "SET('x','y','z')", "x,z") }

func BenchmarkCompareVarchar(b *testing.B) {
	typ := mustType(b, "VARCHAR(32)")
	x := Convert(typ, []byte("Hello World"), nil)
	y := Convert(typ, []byte("hello world "), nil)
	b.ReportAllocs()
	for b.Loop() {
		if Compare(typ, x, y) != 0 {
			b.Fatal("not equal")
		}
	}
}

func BenchmarkCompareDecimal(b *testing.B) {
	typ := mustType(b, "DECIMAL(10,3)")
	x := Convert(typ, []byte("-12345.678"), nil)
	y := Convert(typ, []byte("-12345.679"), nil)
	b.ReportAllocs()
	for b.Loop() {
		Compare(typ, x, y)
	}
}

// TestZeroAllocs checks that the key, format and compare paths, and the
// conversions into a reused buffer, do not allocate.
func TestZeroAllocs(t *testing.T) {
	cases := []struct{ def, in string }{
		{"INT", "-123456"}, {"BIGINT UNSIGNED", "18446744073709551615"}, {"DECIMAL(10,3)", "-12345.6785"},
		{"FLOAT", "3.4e38"}, {"DOUBLE", "1e-300"}, {"FLOAT(7,2)", "12.5"}, {"DATE", "2020-01-02"},
		{"DATETIME(6)", "2020-01-02 03:04:05.678"}, {"TIMESTAMP", "2020-01-02 03:04:05"}, {"TIME(1)", "-1 12:34:56.7"},
		{"YEAR", "99"}, {"BIT(13)", "\x1f\xff"}, {"CHAR(8)", "héllo  "}, {"VARCHAR(8)", "\xffabc"},
		{"VARCHAR(8) CHARACTER SET latin1 COLLATE latin1_bin", "\xe9t\xe9"}, {"TEXT", "long text"},
		{"BINARY(8)", "a\x00b"}, {"VARBINARY(8)", "a\x00b"}, {"ENUM('a','b')", "B"}, {"SET('x','y')", "y,x"},
	}
	for _, c := range cases {
		typ := mustType(t, c.def)
		in := []byte(c.in)
		buf := make([]byte, 0, 64)
		dst := make([]byte, 0, 128)
		v := Convert(typ, in, buf)
		if n := testing.AllocsPerRun(100, func() { v = Convert(typ, in, buf) }); n != 0 {
			t.Errorf("%s: Convert allocates %.0f times", c.def, n)
		}
		if n := testing.AllocsPerRun(100, func() { dst = AppendKey(dst[:0], typ, v) }); n != 0 {
			t.Errorf("%s: AppendKey allocates %.0f times", c.def, n)
		}
		if n := testing.AllocsPerRun(100, func() { dst = AppendFormat(dst[:0], typ, v) }); n != 0 {
			t.Errorf("%s: AppendFormat allocates %.0f times", c.def, n)
		}
		if n := testing.AllocsPerRun(100, func() { Compare(typ, v, v) }); n != 0 {
			t.Errorf("%s: Compare allocates %.0f times", c.def, n)
		}
	}
}
