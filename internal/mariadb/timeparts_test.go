package mariadb

import (
	"fmt"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// TestISODates compares each date-part function over isoDate with the
// function over the plain text, for ISO text, text go-mysql-server reads
// in other layouts, and text that is no date.
func TestISODates(t *testing.T) {
	texts := []string{
		"2024-01-05", "2024-02-29", "2023-02-29", "2024-12-31 23:59:59", "2024-03-10 00:00:00.5",
		"2024-03-10 07:08:09.123456", "2024-03-10 07:08:09.123456789", "1999-1-5", "2024-01-05T10:00:00",
		"2024-13-01", "2024-00-10", "0000-00-00", "2024-04-31", "2024-01-05 24:00:00", "20240105",
		"2024-01-05 10:11", "2024-01-05 10:11:12.", "abc", "", "2024-01-05 10:61:00", "9999-12-31 23:59:59",
	}
	fns := map[string]func(sql.Expression) sql.Expression{
		"YEAR": function.NewYear, "MONTH": function.NewMonth, "DAY": function.NewDay, "QUARTER": function.NewQuarter,
		"WEEKDAY": function.NewWeekday, "HOUR": function.NewHour, "MINUTE": function.NewMinute, "SECOND": function.NewSecond,
		"DAYOFWEEK": function.NewDayOfWeek, "DAYOFYEAR": function.NewDayOfYear, "DATE": function.NewDate,
	}
	parsed := 0
	for _, s := range texts {
		if _, ok := parseISODate(s); ok {
			parsed++
		}
		for name, fn := range fns {
			lit := expression.NewLiteral(s, gtypes.LongText)
			ctx1, ctx2 := sql.NewEmptyContext(), sql.NewEmptyContext()
			want, werr := fn(lit).Eval(ctx1, nil)
			got, gerr := fn(&isoDate{lit}).Eval(ctx2, nil)
			if fmt.Sprint(want) != fmt.Sprint(got) || fmt.Sprint(werr) != fmt.Sprint(gerr) || ctx1.WarningCount() != ctx2.WarningCount() {
				t.Errorf("%s(%q): %v %v (%d warnings), want %v %v (%d)", name, s, got, gerr, ctx2.WarningCount(), want, werr, ctx1.WarningCount())
			}
		}
	}
	if parsed != 7 {
		t.Errorf("%d texts parsed as ISO, want 7", parsed)
	}
}

func TestISODatesRule(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE r (id INT NOT NULL PRIMARY KEY, at DATETIME NOT NULL)",
		"INSERT INTO r VALUES (1, '2024-01-31 23:50:00'), (2, '2024-02-29 10:00:00'), (3, '2024-03-01 00:00:00')")
	b.ExpectRows(t, ctx, "SELECT id, YEAR(DATE(at)), MONTH(DATE(at)), DAY(DATE(at)), DAYOFWEEK(DATE(at)) FROM r ORDER BY id",
		"1|2024|1|31|4", "2|2024|2|29|5", "3|2024|3|1|6")
	b.ExpectRows(t, ctx, "SELECT MONTH(d), COUNT(*) FROM (SELECT DATE(at) AS d FROM r) t GROUP BY MONTH(d) ORDER BY MONTH(d)",
		"1|1", "2|1", "3|1")
}
