package types

import (
	"math"
	"testing"
	"unicode/utf8"
)

// mustType parses a column type or fails the test.
func mustType(t testing.TB, def string) *Type {
	t.Helper()
	typ, err := ParseType(def)
	if err != nil {
		t.Fatalf("ParseType(%q): %v", def, err)
	}
	return &typ
}

// conv converts in and returns the printed value.
func conv(t testing.TB, typ *Type, in string) string {
	t.Helper()
	return string(AppendFormat(nil, typ, Convert(typ, []byte(in), nil)))
}

// convCase is one input of a conversion rule and its printed result.
type convCase struct {
	typ, in, want string
}

// TestConversionRules has one subtest per conversion rule of
// conformance/NOTES.md ("Conversions") and of the typevectors README
// (surprises 6 to 15), with a few inputs each, some beyond the vectors.
func TestConversionRules(t *testing.T) {
	rules := []struct {
		name  string
		cases []convCase
	}{
		{"notes/int_numeric_prefix", []convCase{
			{"INT", "3x", "3"}, {"INT", " 3", "3"}, {"INT", "abc", "0"}, {"INT", "", "0"},
			{"INT", "\t\n 12", "12"}, {"INT", "- 5", "0"}, {"INT", "+7up", "7"},
		}},
		{"notes/int_decimals_round", []convCase{
			{"INT", "3.7", "4"}, {"INT", "2.5", "3"}, {"INT", "3.49999999999", "3"},
			{"INT", ".5", "1"}, {"INT", "-.5", "-1"}, {"BIGINT", "9223372036854775806.5", "9223372036854775807"},
		}},
		{"notes/int_exponent", []convCase{
			{"INT", "1e2", "100"}, {"INT", "15e-1", "2"}, {"INT", "1.5E1", "15"}, {"INT", "1e", "1"},
			{"INT", "1e+2", "100"}, {"INT", "1e-99999999999999", "0"},
		}},
		{"notes/int_clamp", []convCase{
			{"TINYINT", "300", "127"}, {"TINYINT", "-300", "-128"}, {"TINYINT UNSIGNED", "-5", "0"},
			{"SMALLINT UNSIGNED", "70000", "65535"}, {"MEDIUMINT UNSIGNED", "1e9", "16777215"},
			{"BIGINT", "-1e30", "-9223372036854775808"}, {"BIGINT UNSIGNED", "1e30", "18446744073709551615"},
			{"INT UNSIGNED", "-0.4", "0"},
		}},
		{"notes/string_truncate_and_char_spaces", []convCase{
			{"VARCHAR(3)", "abcdef", "abc"}, {"CHAR(3)", "a  ", "a"}, {"VARCHAR(3)", "a  ", "a  "},
			{"VARCHAR(2)", "日本語", "日本"}, {"CHAR(4)", "ab  cd", "ab"},
		}},
		{"notes/datetime_layouts", []convCase{
			{"DATETIME", "2020-01-02", "2020-01-02 00:00:00"},
			{"DATETIME", "20200102030405", "2020-01-02 03:04:05"},
			{"DATETIME", "2020/02/03 4:5:6", "2020-02-03 04:05:06"},
			{"DATETIME", "200102", "2020-01-02 00:00:00"},
			{"DATETIME", "20200102T030405", "2020-01-02 03:04:05"},
			{"DATETIME", "2020.01.02.03.04.05", "2020-01-02 03:04:05"},
			{"DATETIME", "2020-01-02 03:04", "2020-01-02 03:04:00"},
			{"DATE", "20-1-2", "2020-01-02"},
			{"DATETIME", "  2020-01-02 03:04:05 xyz", "2020-01-02 03:04:05"},
		}},
		{"notes/invalid_dates_zero", []convCase{
			{"DATE", "2020-02-30", "0000-00-00"}, {"DATE", "2019-02-29", "0000-00-00"},
			{"DATE", "2020-02-29", "2020-02-29"}, {"DATE", "2000-02-29", "2000-02-29"},
			{"DATE", "1900-02-29", "0000-00-00"}, {"DATETIME", "2020-01-02 24:00:00", "0000-00-00 00:00:00"},
			{"DATE", "hello", "0000-00-00"}, {"DATE", "-2020-01-02", "0000-00-00"},
		}},
		{"notes/decimal_prints_scale", []convCase{
			{"DECIMAL(10,3)", "1.5", "1.500"}, {"DECIMAL(5,0)", "1.5", "2"}, {"DECIMAL(4,4)", "0.12345", "0.1235"},
			{"DECIMAL", "12.5", "13"}, {"DECIMAL(65,30)", "1", "1.000000000000000000000000000000"},
		}},
		{"notes/double_prints_like_mariadb", []convCase{
			{"DOUBLE", "1e20", "1e20"}, {"DOUBLE", "1e14", "100000000000000"}, {"DOUBLE", "1e15", "1e15"},
			{"DOUBLE", "123456789012345678", "1.2345678901234568e17"}, {"DOUBLE", "0.1", "0.1"},
			{"DOUBLE", "1e-15", "0.000000000000001"}, {"DOUBLE", "1e-16", "1e-16"}, {"DOUBLE", "-1.5e-7", "-0.00000015"},
			{"DOUBLE", "1234567890123456.7", "1234567890123456.8"},
		}},
		{"surprise06/round_half_away_and_prefix", []convCase{
			{"INT", "2.5", "3"}, {"INT", "3.5", "4"}, {"INT", "-2.5", "-3"}, {"INT", "1.5e-3", "0"},
			{"DECIMAL(10,3)", "0.0005", "0.001"}, {"DECIMAL(10,3)", "-0.0005", "-0.001"},
			{"INT", "2020-01-02", "2020"}, {"INT", "12:34:56", "12"}, {"INT", "0x10", "0"},
			{"DECIMAL(5,2)", "1e9", "999.99"}, {"DECIMAL(5,2)", "-999.995", "-999.99"}, {"DECIMAL(5,2)", "999.994", "999.99"},
		}},
		{"surprise07/float_6_digits", []convCase{
			{"FLOAT", "2147483648", "2147480000"}, {"FLOAT", "16777216", "16777200"},
			{"FLOAT", "1e-10", "0.0000000001"}, {"FLOAT", "1e400", "3.40282e38"}, {"FLOAT", "-1e400", "-3.40282e38"},
			{"FLOAT", "1.0000001", "1"}, {"FLOAT", "1e-45", "1.4013e-45"}, {"FLOAT", "0.1", "0.1"},
			{"DOUBLE", "9007199254740992", "9.007199254740992e15"}, {"DOUBLE", "1e400", "1.7976931348623157e308"},
			{"FLOAT(7,2)", "1.5", "1.50"}, {"FLOAT(7,2)", "1e9", "99999.99"}, {"FLOAT(7,2)", "-1e9", "-99999.99"},
			{"FLOAT(7,2)", "1.234", "1.23"}, {"DOUBLE(6,3)", "2.0005", "2.001"}, {"FLOAT(5,2) UNSIGNED", "-3", "0.00"},
		}},
		{"surprise08/no_negative_zero", []convCase{
			{"FLOAT", "-0", "0"}, {"DOUBLE", "-0.0", "0"}, {"DECIMAL(10,3)", "-0.0004", "0.000"},
			{"DECIMAL(10,3)", "-0", "0.000"}, {"FLOAT(7,2)", "-0.001", "0.00"}, {"DOUBLE", "2e-324", "0"},
			{"DOUBLE", "5e-324", "5e-324"}, {"DOUBLE", "-2e-324", "0"},
		}},
		{"surprise09/fraction_truncated", []convCase{
			{"DATETIME(3)", "2020-01-02 03:04:05.9995", "2020-01-02 03:04:05.999"},
			{"DATETIME(3)", "2020-01-02 03:04:05.0009", "2020-01-02 03:04:05.000"},
			{"DATETIME", "2020-01-02 03:04:05.678", "2020-01-02 03:04:05"},
			{"TIME", "-00:00:00.5", "00:00:00"}, {"TIME(2)", "12:00:00.129", "12:00:00.12"},
			{"DATETIME(6)", "2020-01-02 03:04:05.1234567", "2020-01-02 03:04:05.123456"},
			{"TIMESTAMP(1)", "2020-01-02 03:04:05.99", "2020-01-02 03:04:05.9"},
		}},
		{"surprise10/timestamp_range", []convCase{
			{"TIMESTAMP", "1970-01-01 00:00:00", "0000-00-00 00:00:00"},
			{"TIMESTAMP", "1970-01-01 00:00:01", "1970-01-01 00:00:01"},
			{"TIMESTAMP", "70-01-01", "0000-00-00 00:00:00"},
			{"TIMESTAMP", "2038-01-19 03:14:07", "2038-01-19 03:14:07"},
			{"TIMESTAMP", "2038-01-19 03:14:08", "0000-00-00 00:00:00"},
			{"TIMESTAMP", "2020-00-00", "0000-00-00 00:00:00"},
		}},
		{"surprise10/partial_dates_and_time_layouts", []convCase{
			{"DATE", "2020-00-00", "2020-00-00"}, {"DATE", "2020-13-01", "0000-00-00"},
			{"DATE", "839:00:00", "0839-00-00"}, {"DATETIME", "0000-01-00", "0000-01-00 00:00:00"},
			{"TIME", "3 12:00:00", "84:00:00"}, {"TIME", "123456", "12:34:56"}, {"TIME", "127", "00:01:27"},
			{"TIME", "20200102", "838:59:59"}, {"TIME", "-20200102", "-838:59:59"}, {"TIME", "1:2", "01:02:00"},
			{"TIME", "2020-01-02", "00:20:20"}, {"TIME", "2020-01-02 03:04:05", "03:04:05"},
			{"TIME", "1e2", "00:00:00"}, {"TIME", "12:61:00", "00:00:00"}, {"TIME", "100:00:00", "100:00:00"},
			{"TIME", "-1 00:00:00", "-24:00:00"}, {"TIME(3)", "838:59:59.5", "838:59:59.500"},
		}},
		{"surprise11/year", []convCase{
			{"YEAR", "0", "2000"}, {"YEAR", "00", "2000"}, {"YEAR", "0000-00-00", "2000"}, {"YEAR", "0000", "0000"},
			{"YEAR", "1", "2001"}, {"YEAR", "01", "2001"}, {"YEAR", "69", "2069"}, {"YEAR", "70", "1970"},
			{"YEAR", "1900", "0000"}, {"YEAR", "2156", "0000"}, {"YEAR", "-1", "0000"}, {"YEAR", "1e2", "0000"},
			{"YEAR", "1901", "1901"}, {"YEAR", "2155", "2155"}, {"YEAR", "abc", "0000"}, {"YEAR", "99.5", "0000"}, {"YEAR", "69.4", "2069"},
		}},
		{"surprise12/bit_raw_bytes", []convCase{
			{"BIT(8)", "1", "1"}, {"BIT(8)", "A", "A"}, {"BIT(8)", "AB", "\xff"}, {"BIT(8)", "", "\x00"},
			{"BIT(8)", "\x00A", "A"}, {"BIT(16)", "AB", "AB"}, {"BIT(12)", "\xff\xff", "\x0f\xff"},
			{"BIT(12)", "\x01\x02", "\x01\x02"}, {"BIT(1)", "\x02", "\x01"},
		}},
		{"surprise13/enum", []convCase{
			{"ENUM('a','b','c')", "1", "a"}, {"ENUM('a','b','c')", "3", "c"}, {"ENUM('a','b','c')", "4", ""},
			{"ENUM('a','b','c')", "B", "b"}, {"ENUM('zebra','apple','mango')", "Mango ", "mango"},
			{"ENUM('a','b','c')", "x", ""}, {"ENUM('a','b','c')", "+2", "b"}, {"ENUM('a','b','c')", "0", ""},
			{"ENUM('a','b','c')", "2 ", "b"}, {"ENUM('a','b','c')", "1.0", ""},
		}},
		{"surprise13/set", []convCase{
			{"SET('x','y','z')", "7", "x,y,z"}, {"SET('x','y','z')", "8", ""}, {"SET('x','y','z')", " 42", "y"},
			{"SET('x','y','z')", "42 ", ""}, {"SET('x','y','z')", "x,w", "x"}, {"SET('x','y','z')", "z,x", "x,z"},
			{"SET('x','y','z')", "X,Y", "x,y"}, {"SET('x','y','z')", "-1", "x,y,z"}, {"SET('x','y','z')", "", ""},
		}},
		{"surprise15/strings", []convCase{
			{"CHAR(5)", "ab   ", "ab"}, {"VARCHAR(5)", "ab   ", "ab   "}, {"BINARY(5)", "ab", "ab\x00\x00\x00"},
			{"BINARY(5)", "abcdefg", "abcde"}, {"VARBINARY(5)", "abcdé", "abcd\xc3"}, {"VARCHAR(5)", "abcdé", "abcdé"},
			{"VARCHAR(5)", "\xff\xfe", "??"}, {"VARCHAR(5)", "a\x00\x01", "a\x00\x01"}, {"TEXT", "\xe6\x9c", "??"},
			{"VARCHAR(5) CHARACTER SET latin1", "\xff\xfe", "\xff\xfe"}, {"TINYTEXT", string(make([]byte, 300)), string(make([]byte, 255))},
			{"BLOB", "\xff", "\xff"},
		}},
	}
	for _, rule := range rules {
		t.Run(rule.name, func(t *testing.T) {
			for _, c := range rule.cases {
				typ := mustType(t, c.typ)
				if got := conv(t, typ, c.in); got != c.want {
					t.Errorf("%s: Convert(%q) prints %q, want %q", c.typ, c.in, got, c.want)
				}
			}
		})
	}
}

// TestTinyTextCutsOnCharacter checks that TEXT limits bytes without
// splitting a character.
func TestTinyTextCutsOnCharacter(t *testing.T) {
	typ := mustType(t, "TINYTEXT")
	in := make([]byte, 0, 300)
	for len(in) < 300 {
		in = append(in, "é"...)
	}
	in = append([]byte{'a'}, in...)
	got := Convert(typ, in, nil).B
	if len(got) != 255 {
		t.Fatalf("stored %d bytes, want 255", len(got))
	}
	got = Convert(typ, in[1:], nil).B
	if len(got) != 254 || !utf8.Valid(got) {
		t.Fatalf("stored %d bytes (valid UTF-8: %v), want 254 bytes of é", len(got), utf8.Valid(got))
	}
}

// cmpCase is a comparison rule: Compare of two converted inputs.
type cmpCase struct {
	typ, a, b string
	want      int
}

// TestComparisonRules checks the comparison rules of NOTES.md and
// surprises 14 and 16: collations, ENUM/SET by index, binary by bytes.
func TestComparisonRules(t *testing.T) {
	rules := []struct {
		name  string
		cases []cmpCase
	}{
		{"notes/ci_collation_ignores_case_and_trailing_spaces", []cmpCase{
			{"VARCHAR(10)", "ABC", "abc", 0}, {"VARCHAR(10)", "abc ", "abc", 0}, {"CHAR(10)", "a", "a\t", 1},
			{"VARCHAR(10) COLLATE utf8mb4_bin", "ABC", "abc", -1}, {"VARCHAR(10) COLLATE utf8mb4_bin", "abc ", "abc", 0},
			{"VARCHAR(10) COLLATE utf8mb4_nopad_bin", "abc ", "abc", 1},
		}},
		{"notes/int_key_uses_converted_value", []cmpCase{
			{"INT", "abc", "0", 0}, {"INT", "007", "7", 0}, {"TINYINT", "300", "127", 0},
			{"INT UNSIGNED", "4294967295", "1", 1}, {"BIGINT UNSIGNED", "18446744073709551615", "1", 1},
		}},
		{"surprise14/enum_set_by_index", []cmpCase{
			{"ENUM('zebra','apple','mango')", "zebra", "apple", -1}, {"ENUM('zebra','apple','mango')", "", "zebra", -1},
			{"SET('x','y','z')", "z", "x,y", 1}, {"SET('x','y','z')", "y,x", "x,y", 0},
		}},
		{"surprise15/binary_by_bytes", []cmpCase{
			{"BINARY(4)", "a", "a\x00", 0}, {"VARBINARY(4)", "a", "a\x00", -1}, {"VARBINARY(4)", "a ", "a", 1},
			{"BLOB", "\x80", "\x7f", 1},
		}},
		{"numbers_and_dates", []cmpCase{
			{"DECIMAL(10,3)", "-0.0004", "0", 0}, {"DECIMAL(10,3)", "-1.5", "-1.25", -1}, {"DECIMAL(10,3)", "10", "9.999", 1},
			{"FLOAT", "1.0000001", "1", 1}, {"DOUBLE", "-0", "0", 0}, {"TIME", "-1", "0", -1},
			{"DATE", "2020-00-00", "2020-01-01", -1}, {"YEAR", "0000", "1901", -1}, {"BIT(8)", "\xff", "\x01", 1},
		}},
	}
	for _, rule := range rules {
		t.Run(rule.name, func(t *testing.T) {
			for _, c := range rule.cases {
				typ := mustType(t, c.typ)
				a := Convert(typ, []byte(c.a), nil)
				b := Convert(typ, []byte(c.b), nil)
				if got := Compare(typ, a, b); got != c.want {
					t.Errorf("%s: Compare(%q, %q) = %d, want %d", c.typ, c.a, c.b, got, c.want)
				}
				ka, kb := AppendKey(nil, typ, a), AppendKey(nil, typ, b)
				if got := sign(bytesCompare(ka, kb)); got != c.want {
					t.Errorf("%s: key order of %q, %q = %d, want %d", c.typ, c.a, c.b, got, c.want)
				}
			}
		})
	}
}

// TestNullOrder checks that NULL equals NULL and sorts first.
func TestNullOrder(t *testing.T) {
	typ := mustType(t, "INT")
	v := FromInt(typ, math.MinInt32)
	if Compare(typ, NullValue, NullValue) != 0 || Compare(typ, NullValue, v) != -1 || Compare(typ, v, NullValue) != 1 {
		t.Fatal("NULL ordering wrong")
	}
	if k := AppendKey(nil, typ, NullValue); len(k) != 1 || k[0] != 0 {
		t.Fatalf("NULL key %x", k)
	}
	if k := AppendKey(nil, typ, v); k[0] != 1 || bytesCompare(k, []byte{0}) <= 0 {
		t.Fatalf("non-NULL key %x", k)
	}
}

// TestInsertRules checks HandlerSocket's insert rules (README surprise 3).
func TestInsertRules(t *testing.T) {
	seven := FromInt(mustType(t, "INT"), 7)
	cases := []struct {
		name            string
		col             Column
		in              string
		isNull, omitted bool
		want            string // "NULL" for NULL
	}{
		{"omitted_nullable_no_default_is_zero", Column{Type: *mustType(t, "INT"), Nullable: true}, "", false, true, "0"},
		{"omitted_uses_default", Column{Type: *mustType(t, "INT"), Nullable: true, Default: &seven}, "", false, true, "7"},
		{"omitted_enum_nullable_is_empty", Column{Type: *mustType(t, "ENUM('a','b')"), Nullable: true}, "", false, true, ""},
		{"omitted_enum_not_null_is_first", Column{Type: *mustType(t, "ENUM('a','b')")}, "", false, true, "a"},
		{"null_token_nullable_is_null", Column{Type: *mustType(t, "INT"), Nullable: true, Default: &seven}, "", true, false, "NULL"},
		{"null_token_not_null_uses_default", Column{Type: *mustType(t, "INT"), Default: &seven}, "", true, false, "7"},
		{"null_token_not_null_implicit", Column{Type: *mustType(t, "DATE")}, "", true, false, "0000-00-00"},
		{"null_token_current_timestamp_not_applied", Column{Type: *mustType(t, "TIMESTAMP"), DefaultCurrentTimestamp: true}, "", true, false, "0000-00-00 00:00:00"},
		{"empty_string_is_converted_not_default", Column{Type: *mustType(t, "INT"), Default: &seven}, "", false, false, "0"},
		{"binary_zero_padded", Column{Type: *mustType(t, "BINARY(3)")}, "", false, true, "\x00\x00\x00"},
		{"value_converted", Column{Type: *mustType(t, "INT")}, "12abc", false, false, "12"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := c.col.InsertValue([]byte(c.in), c.isNull, c.omitted, nil)
			got := "NULL"
			if !v.Null {
				got = string(AppendFormat(nil, &c.col.Type, v))
			}
			if got != c.want {
				t.Fatalf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestInsertValueCopiesDefault checks that the default's bytes are copied.
func TestInsertValueCopiesDefault(t *testing.T) {
	typ := mustType(t, "VARCHAR(5)")
	def := Convert(typ, []byte("dflt"), nil)
	col := Column{Type: *typ, Default: &def}
	v := col.InsertValue(nil, false, true, make([]byte, 0, 8))
	v.B[0] = 'X'
	if string(def.B) != "dflt" {
		t.Fatal("InsertValue returned the default's own bytes")
	}
}

// TestZeroAndImplicitDefault checks Zero and ImplicitDefault per kind.
func TestZeroAndImplicitDefault(t *testing.T) {
	cases := []struct{ typ, zero, implicit string }{
		{"INT", "0", "0"}, {"DECIMAL(6,2)", "0.00", "0.00"}, {"DECIMAL(6)", "0", "0"},
		{"DOUBLE", "0", "0"}, {"FLOAT(5,1)", "0.0", "0.0"}, {"BIT(12)", "\x00\x00", "\x00\x00"},
		{"DATE", "0000-00-00", "0000-00-00"}, {"DATETIME(2)", "0000-00-00 00:00:00.00", "0000-00-00 00:00:00.00"},
		{"TIME", "00:00:00", "00:00:00"}, {"YEAR", "0000", "0000"}, {"CHAR(3)", "", ""},
		{"BINARY(2)", "\x00\x00", "\x00\x00"}, {"ENUM('p','q')", "", "p"}, {"SET('p','q')", "", ""},
	}
	for _, c := range cases {
		typ := mustType(t, c.typ)
		if got := string(AppendFormat(nil, typ, Zero(typ))); got != c.zero {
			t.Errorf("Zero(%s) = %q, want %q", c.typ, got, c.zero)
		}
		if got := string(AppendFormat(nil, typ, ImplicitDefault(typ))); got != c.implicit {
			t.Errorf("ImplicitDefault(%s) = %q, want %q", c.typ, got, c.implicit)
		}
		if Zero(typ).Null || ImplicitDefault(typ).Null {
			t.Errorf("%s: default is NULL", c.typ)
		}
	}
}

// TestFromIntAndValInt checks the integer store and val_int() rules used
// by HandlerSocket's increment and decrement.
func TestFromIntAndValInt(t *testing.T) {
	from := []struct {
		typ  string
		n    int64
		want string
	}{
		{"TINYINT", 1000, "127"}, {"TINYINT UNSIGNED", -1, "0"}, {"BIGINT UNSIGNED", math.MaxInt64, "9223372036854775807"},
		{"DECIMAL(5,2)", 12, "12.00"}, {"DECIMAL(5,2)", 123456, "999.99"}, {"DECIMAL(5,2)", -5, "-5.00"},
		{"FLOAT", 16777217, "16777200"}, {"DOUBLE", -3, "-3"}, {"BIT(4)", 3, "\x03"}, {"BIT(4)", 16, "\x0f"},
		{"BIT(4)", -1, "\x0f"}, {"YEAR", 0, "0000"}, {"YEAR", 5, "2005"}, {"YEAR", 1999, "1999"}, {"YEAR", 3000, "0000"},
		{"ENUM('a','b')", 2, "b"}, {"ENUM('a','b')", 3, ""}, {"SET('a','b')", 3, "a,b"}, {"SET('a','b')", 4, ""},
		{"VARCHAR(3)", -1234, "-12"}, {"DATE", 20200102, "2020-01-02"}, {"TIME", -123, "-00:01:23"},
		{"DATETIME", 20200102030405, "2020-01-02 03:04:05"},
	}
	for _, c := range from {
		typ := mustType(t, c.typ)
		if got := string(AppendFormat(nil, typ, FromInt(typ, c.n))); got != c.want {
			t.Errorf("FromInt(%s, %d) = %q, want %q", c.typ, c.n, got, c.want)
		}
	}
	val := []struct {
		typ, in string
		want    int64
	}{
		{"INT", "-5", -5}, {"BIGINT UNSIGNED", "18446744073709551615", -1}, {"DECIMAL(10,3)", "2.5", 3},
		{"DECIMAL(10,3)", "-2.5", -3}, {"DOUBLE", "2.5", 2}, {"DOUBLE", "3.5", 4}, {"DOUBLE", "1e300", math.MaxInt64},
		{"FLOAT", "-7.25", -7}, {"VARCHAR(10)", "12abc", 12}, {"VARCHAR(10)", "2.5x", 3}, {"TEXT", "abc", 0},
		{"DATE", "2020-01-02", 20200102}, {"DATETIME", "2020-01-02 03:04:05", 20200102030405},
		{"TIME", "-12:34:56", -123456}, {"YEAR", "99", 1999}, {"ENUM('a','b')", "b", 2}, {"SET('a','b')", "a,b", 3},
		{"BIT(8)", "A", 65},
	}
	for _, c := range val {
		typ := mustType(t, c.typ)
		if got := ValInt(typ, Convert(typ, []byte(c.in), nil)); got != c.want {
			t.Errorf("ValInt(%s, %q) = %d, want %d", c.typ, c.in, got, c.want)
		}
	}
	if ValInt(mustType(t, "INT"), NullValue) != 0 {
		t.Error("ValInt(NULL) != 0")
	}
}

// TestPackDateTime checks that packing round-trips and sorts.
func TestPackDateTime(t *testing.T) {
	prev := int64(-1)
	for _, d := range [][7]int{
		{0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 1}, {0, 1, 0, 0, 0, 0, 0}, {2020, 0, 0, 0, 0, 0, 0},
		{2020, 0, 31, 23, 59, 59, 999999}, {2020, 1, 1, 0, 0, 0, 0}, {2020, 12, 31, 23, 59, 59, 999999},
		{9999, 12, 31, 23, 59, 59, 999999},
	} {
		v := PackDateTime(d[0], d[1], d[2], d[3], d[4], d[5], d[6])
		if v <= prev {
			t.Errorf("%v packs to %d, not above %d", d, v, prev)
		}
		prev = v
		y, mo, dd, h, mi, s, us := UnpackDateTime(v)
		if [7]int{y, mo, dd, h, mi, s, us} != d {
			t.Errorf("%v round-trips to %v", d, [7]int{y, mo, dd, h, mi, s, us})
		}
	}
}

func bytesCompare(a, b []byte) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			if a[i] < b[i] {
				return -1
			}
			return 1
		}
	}
	return sign(len(a) - len(b))
}
