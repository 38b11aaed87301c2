package sqlbackend

import (
	"context"
	"testing"

	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/types"
)

// oddAt packs a date-time for the tests.
func oddAt(y, mo, d, h, mi, s, us int) int64 { return types.PackDateTime(y, mo, d, h, mi, s, us) }

// dateValue gives dates time.Time cannot hold as an OddDate, which prints,
// numbers and orders as MariaDB's values (answers checked in MariaDB
// 10.11: SELECT d, d + 0 ... ORDER BY d).
func TestOddDateValues(t *testing.T) {
	date := &types.Type{Kind: types.Date}
	dt3 := &types.Type{Kind: types.DateTime, Scale: 3}
	cases := []struct {
		t      *types.Type
		p      int64
		text   string
		number string
	}{
		{date, oddAt(2020, 0, 15, 0, 0, 0, 0), "2020-00-15", "20200015"},
		{date, oddAt(0, 0, 1, 0, 0, 0, 0), "0000-00-01", "1"},
		{dt3, oddAt(2020, 5, 0, 10, 0, 0, 500000), "2020-05-00 10:00:00.500", "20200500100000.500"},
		{date, oddAt(2021, 2, 30, 0, 0, 0, 0), "2021-02-30", "20210230"},
	}
	for _, c := range cases {
		o, ok := dateValue(c.t, c.p).(OddDate)
		if !ok {
			t.Fatalf("%s: dateValue gives %T, want OddDate", c.text, dateValue(c.t, c.p))
		}
		if o.String() != c.text {
			t.Errorf("String() = %q, want %q", o.String(), c.text)
		}
		n := o.Number()
		text := valueText(n)
		if d, ok := n.(decimal.Decimal); ok {
			text = d.StringFixed(-d.Exponent()) // with the scale's digits
		}
		if text != c.number {
			t.Errorf("%s: Number() = %s, want %s", c.text, text, c.number)
		}
	}
	if _, ok := dateValue(date, oddAt(2020, 1, 15, 0, 0, 0, 0)).(OddDate); ok {
		t.Errorf("2020-01-15 is an OddDate; want a time.Time")
	}
	if v := dateValue(date, 0); v != ZeroTime {
		t.Errorf("the zero date is %v, want go-mysql-server's zero time", v)
	}
	// oddType orders an OddDate among ordinary dates and strings.
	ot := OddTypeOf(gtypes.Date)
	ctx := context.Background()
	odd := dateValue(date, oddAt(2020, 0, 15, 0, 0, 0, 0))
	for _, c := range []struct {
		other interface{}
		want  int
	}{
		{dateValue(date, oddAt(2019, 12, 31, 0, 0, 0, 0)), 1},
		{dateValue(date, oddAt(2020, 1, 1, 0, 0, 0, 0)), -1},
		{"2020-00-15", 0},
		{"2020-00-16", -1},
		{ZeroTime, 1},
	} {
		if got, err := ot.Compare(ctx, odd, c.other); err != nil || got != c.want {
			t.Errorf("Compare(2020-00-15, %v) = %d %v, want %d", c.other, got, err, c.want)
		}
	}
	v, err := ot.SQL(nil, nil, odd)
	if err != nil || v.ToString() != "2020-00-15" || v.Type() != sqltypes.Date {
		t.Errorf("SQL(2020-00-15) = %v %v", v, err)
	}
}

// DATE_FORMAT of an OddDate: MariaDB 10.11's answers (NULL for a month
// name of month 0); dayNumber is MariaDB's TO_DAYS.
func TestFormatOddDate(t *testing.T) {
	if n := dayNumber(2020, 1, 1); n != 737790 {
		t.Errorf("dayNumber(2020-01-01) = %d, want 737790", n)
	}
	cases := []struct {
		p      int64
		format string
		want   string
		ok     bool
	}{
		{oddAt(2020, 0, 15, 0, 0, 0, 0), "%Y/%m/%d", "2020/00/15", true},
		{oddAt(2020, 0, 15, 0, 0, 0, 0), "%M", "", false},
		{oddAt(2020, 5, 0, 0, 0, 0, 0), "%M %W %D %e %j", "May Thursday 0th 0 121", true},
		{oddAt(2020, 5, 0, 23, 59, 0, 0), "%Y-%m-%d %H:%i", "2020-05-00 23:59", true},
		{oddAt(2021, 2, 30, 0, 0, 0, 0), "%d %M", "30 February", true},
	}
	for _, c := range cases {
		got, ok := FormatOddDate(OddDate{P: c.p}, c.format)
		if got != c.want || ok != c.ok {
			t.Errorf("formatOddDate(%s, %q) = %q %v, want %q %v", OddDate{P: c.p}, c.format, got, ok, c.want, c.ok)
		}
	}
}
