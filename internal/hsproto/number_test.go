package hsproto

import (
	"math"
	"testing"
)

func TestParseUint32(t *testing.T) {
	tests := []struct {
		in   string
		want uint32
	}{
		{"", 0},
		{"0", 0},
		{"1", 1},
		{"200", 200},
		{"1x2", 12}, // P id in open_id_digits_only
		{"x1", 1},   // vlen in find_vlen_non_numeric
		{"one", 0},  // vlen: klen
		{"ten", 0},  // limit: means 1
		{"2x", 2},   // limit_non_numeric
		{"1y", 1},   // offset in limit_non_numeric
		{"abc", 0},  //
		{"-5", 5},   // the sign is skipped like any non-digit
		{" 3 ", 3},  //
		{"1.5", 15}, //
		{"4294967295", math.MaxUint32},
		{"4294967296", 0},  // 32-bit wraparound: id 4294967296 is id 0
		{"4294967297", 1},  //
		{"42949672960", 0}, //
		{"99999999999", 1215752191},
		{"\x00\t9", 9}, // any byte that is not a digit is skipped
		{"\xff1\x802", 12},
	}
	for _, tt := range tests {
		if got := ParseUint32([]byte(tt.in)); got != tt.want {
			t.Errorf("ParseUint32(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestParseInt64(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"", 0},
		{"5", 5},
		{"7up", 7}, // inc_non_numeric_values
		{"abc", 0},
		{"+2", 2},
		{"-5", -5}, // dec_negative_towards_positive
		{"-3x", -3},
		{"-", 0},
		{"+", 0},
		{"--1", 0},
		{"+-1", 0},
		{" 3", 0}, // no whitespace skipping
		{"1.9", 1},
		{"1e3", 1},
		{"0x10", 0},
		{"00042", 42},
		{"9223372036854775807", math.MaxInt64},
		{"-9223372036854775808", math.MinInt64},
		{"9223372036854775808", math.MinInt64}, // wraps
		{"18446744073709551615", -1},           // wraps
		{"18446744073709551616", 0},            // wraps
		{"-1x2", -1},
	}
	for _, tt := range tests {
		if got := ParseInt64([]byte(tt.in)); got != tt.want {
			t.Errorf("ParseInt64(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestIndexNumber(t *testing.T) {
	tests := []struct {
		index   string
		n       int
		numeric bool
	}{
		{"", 0, false},
		{"PRIMARY", 0, false},
		{"ia", 0, false},
		{"0", 0, true},
		{"1", 1, true},
		{"3", 3, true},
		{"1x", 1, true},
		{"12ab3", 12, true},
		{"007", 7, true},
		{"2147483647", math.MaxInt32, true},
		{"2147483648", math.MinInt32, true}, // does not fit a C int: idxnum
		{"4294967296", 0, true},             // atoi keeps the low 32 bits
		{"4294967297", 1, true},
		{"99999999999999999999", -1, true}, // strtol saturates, then -1
		{"-1", 0, false},
		{" 1", 0, false},
	}
	for _, tt := range tests {
		r := parseFresh([]byte("P\t1\tdb\tt\t" + tt.index + "\tk"))
		n, numeric := r.IndexNumber()
		if n != tt.n || numeric != tt.numeric {
			t.Errorf("IndexNumber(%q) = %d, %v; want %d, %v", tt.index, n, numeric, tt.n, tt.numeric)
		}
	}
}

func TestAppendNumbers(t *testing.T) {
	if got := string(AppendUint([]byte("x"), math.MaxUint64)); got != "x18446744073709551615" {
		t.Errorf("AppendUint: %q", got)
	}
	if got := string(AppendInt(nil, math.MinInt64)); got != "-9223372036854775808" {
		t.Errorf("AppendInt: %q", got)
	}
	if got := string(AppendInt(nil, 0)); got != "0" {
		t.Errorf("AppendInt(0): %q", got)
	}
}
