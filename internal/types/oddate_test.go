package types

import "testing"

// Dates with a zero month or day parse in every mode; a day past its
// month's end only with invalidOK (ALLOW_INVALID_DATES); ValidDate tells
// them apart from dates time.Time can hold.
func TestConvertDateOdd(t *testing.T) {
	dt := &Type{Kind: DateTime, Scale: 6}
	cases := []struct {
		in        string
		invalidOK bool
		ok        bool
		want      string
		valid     bool
	}{
		{"2020-00-15", false, true, "2020-00-15 00:00:00.000000", false},
		{"0000-00-01 10:00:00", false, true, "0000-00-01 10:00:00.000000", false},
		{"2020-05-00 23:59:59.5", false, true, "2020-05-00 23:59:59.500000", false},
		{"2021-02-30", false, false, "0000-00-00 00:00:00.000000", true},
		{"2021-02-30", true, true, "2021-02-30 00:00:00.000000", false},
		{"2021-02-32", true, false, "0000-00-00 00:00:00.000000", true},
		{"2020-02-29", false, true, "2020-02-29 00:00:00.000000", true},
		{"0000-00-00", false, true, "0000-00-00 00:00:00.000000", true},
		{"20200015", false, true, "2020-00-15 00:00:00.000000", false},
		{"abc", true, false, "0000-00-00 00:00:00.000000", true},
	}
	for _, c := range cases {
		v, ok := ConvertDate(dt, []byte(c.in), c.invalidOK)
		got := string(AppendFormat(nil, dt, v))
		if ok != c.ok || got != c.want || ValidDate(v.I) != c.valid {
			t.Errorf("ConvertDate(%q, %v) = %s %v (valid %v), want %s %v (valid %v)", c.in, c.invalidOK, got, ok, ValidDate(v.I), c.want, c.ok, c.valid)
		}
	}
}
