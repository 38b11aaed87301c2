package mariadb

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/handlerdb/handlerdb/internal/sqltest"
)

func temporalFixture(t *testing.T) (*sqltest.Backend, func(q string, want ...string)) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx,
		"CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY, d DATE, dt DATETIME, dt3 DATETIME(3), ts TIMESTAMP NULL, e ENUM('basic','gold'))",
		"INSERT INTO t VALUES (1, '1961-03-23', '2024-01-18 08:46:00', '2024-01-18 08:46:00.250', '2024-06-01 12:00:17', 'gold')",
		"INSERT INTO t VALUES (2, '0000-00-00', '0000-00-00 00:00:00', NULL, NULL, 'basic')",
		"CREATE VIEW v AS SELECT id, d, dt3, e FROM t")
	return b, func(q string, want ...string) {
		t.Helper()
		b.ExpectRows(t, ctx, q, want...)
	}
}

// TestTemporalText: a time value given to a string function is printed
// as MariaDB prints it (its type's digits, a DATE without a time).
func TestTemporalText(t *testing.T) {
	_, expect := temporalFixture(t)
	expect("SELECT CONCAT(d), CONCAT_WS('/', e, d, dt), CONCAT(dt3), LENGTH(d), HEX(d), REPLACE(d, '-', ''), UPPER(e) FROM t WHERE id = 1",
		"1961-03-23|gold/1961-03-23/2024-01-18 08:46:00|2024-01-18 08:46:00.250|10|313936312D30332D3233|19610323|GOLD")
	expect("SELECT CONCAT(d), CONCAT(dt), LOWER(d) FROM t WHERE id = 2",
		"0000-00-00|0000-00-00 00:00:00|0000-00-00")
	expect("SELECT CONCAT(d, '|', dt3), LENGTH(dt3), CONCAT(e) FROM v WHERE id = 1",
		"1961-03-23|2024-01-18 08:46:00.250|23|gold")
	expect("SELECT CONCAT(x) FROM (SELECT d AS x FROM t WHERE id = 1) s", "1961-03-23")
	expect("SELECT d LIKE '%-23', CAST(d AS CHAR), CONCAT(MAX(d)) FROM t WHERE id = 1", "true|1961-03-23|1961-03-23")
	expect("SELECT GROUP_CONCAT(d ORDER BY id), JSON_ARRAY(d) FROM t WHERE id = 1", `1961-03-23|["1961-03-23"]`)
	expect("SELECT CONCAT(IFNULL(d, d)), CONCAT(d + INTERVAL 1 DAY), CONCAT(DATE_ADD(d, INTERVAL 1 MONTH)) FROM t WHERE id = 1",
		"1961-03-23|1961-03-24|1961-04-23")
	// IFNULL of a DATE and a DATETIME is a DATETIME in MariaDB.
	expect("SELECT CONCAT(IFNULL(d, dt)), CONCAT(IFNULL(dt3, d)), CONCAT(IF(id = 1, d, NULL)) FROM t ORDER BY id",
		"1961-03-23 00:00:00|2024-01-18 08:46:00.250|1961-03-23", "0000-00-00 00:00:00|0000-00-00 00:00:00.000|NULL")
}

// TestTemporalTypes: date arithmetic has MariaDB's result type.
func TestTemporalTypes(t *testing.T) {
	b, expect := temporalFixture(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "USE d")
	for _, c := range []struct{ expr, typ string }{
		{"DATE_ADD(dt, INTERVAL 2 DAY)", "datetime"},
		{"DATE_SUB(dt, INTERVAL 1 SECOND)", "datetime"},
		{"ADDDATE(dt, 2)", "datetime"},
		{"dt + INTERVAL 1 HOUR", "datetime"},
		{"DATE_ADD(dt3, INTERVAL 1 DAY)", "datetime(3)"},
		{"dt3 - INTERVAL 1 DAY", "datetime(3)"},
		{"DATE_ADD(dt, INTERVAL 5 MICROSECOND)", "datetime(6)"},
		{"DATE_ADD(ts, INTERVAL 1 DAY)", "datetime"},
		{"DATE_ADD(d, INTERVAL 1 DAY)", "date"},
		{"d + INTERVAL 7 DAY", "date"},
		{"INTERVAL 1 WEEK + d", "date"},
		{"d - INTERVAL 1 MONTH", "date"},
		{"d + INTERVAL 1 HOUR", "datetime"},
		{"d + INTERVAL 1 MICROSECOND", "datetime(6)"},
	} {
		sch, _, _, err := b.SE.Query(ctx.WithQuery("SELECT "+c.expr+" FROM t"), "SELECT "+c.expr+" FROM t")
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		if got := strings.ToLower(sch[0].Type.String()); got != c.typ {
			t.Errorf("%s: type %s, want %s", c.expr, got, c.typ)
		}
	}
	expect("SELECT DATE_ADD(dt, INTERVAL 2 DAY), d - INTERVAL 1 MONTH, DATE_ADD(dt3, INTERVAL 1 DAY) FROM t WHERE id = 1",
		"2024-01-20 08:46:00 +0000 UTC|1961-02-23 00:00:00 +0000 UTC|2024-01-19 08:46:00.25 +0000 UTC")
	// A DATE compares with a DATETIME as the day's midnight.
	expect("SELECT id FROM t WHERE dt > CAST('2024-01-17' AS DATE) + INTERVAL 1 DAY", "1")
	expect("SELECT id FROM t WHERE dt > d + INTERVAL 22946 DAY", "1")
}

// TestCTETimeTypes: a recursive CTE's time columns have the anchor's
// types, in the recursive part and around the CTE.
func TestCTETimeTypes(t *testing.T) {
	b, expect := temporalFixture(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "USE d")
	q := "WITH RECURSIVE c (k, x, y) AS (SELECT 1, d, dt3 FROM t WHERE id = 1 UNION ALL SELECT k + 1, x + INTERVAL 1 DAY, y + INTERVAL 1 SECOND FROM c WHERE k < 2) " +
		"SELECT k, x, y, CONCAT(x, '|', y), (SELECT COUNT(*) FROM t WHERE t.d < c.x) FROM c ORDER BY k"
	sch, _, _, err := b.SE.Query(ctx.WithQuery(q), q)
	if err != nil {
		t.Fatal(err)
	}
	if got := sch[1].Type.String() + " " + sch[2].Type.String(); got != "date datetime(3)" {
		t.Errorf("types %s", got)
	}
	expect(q, "1|1961-03-23 00:00:00 +0000 UTC|2024-01-18 08:46:00.25 +0000 UTC|1961-03-23|2024-01-18 08:46:00.250|1",
		"2|1961-03-24 00:00:00 +0000 UTC|2024-01-18 08:46:01.25 +0000 UTC|1961-03-24|2024-01-18 08:46:01.250|2")
}

// TestEnumLabels: an ENUM chosen by a conditional expression, given to
// GROUP_CONCAT or JSON_ARRAY, or compared by MAX and MIN is its label;
// GROUP_CONCAT's ORDER BY still sorts by the index.
func TestEnumLabels(t *testing.T) {
	b, expect := temporalFixture(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "USE d", "INSERT INTO t (id, e) VALUES (3, 'gold')")
	// IFNULL(e, 'x') keeps the ENUM type (its index here, its label on
	// the wire); the others are text.
	expect("SELECT IFNULL(e, 'x'), IF(id = 1, e, 'z'), COALESCE(e, 'q'), CASE WHEN id > 0 THEN e ELSE 'n' END, CONCAT(IFNULL(e, 'x')) FROM t WHERE id = 1",
		"2|gold|gold|gold|gold")
	expect("SELECT GROUP_CONCAT(e ORDER BY e, id), JSON_ARRAY(MIN(e)), MAX(e), MIN(e) FROM t", `basic,gold,gold|["basic"]|gold|basic`)
	b.MustExec(t, ctx, "CREATE TABLE k (id INT PRIMARY KEY, e ENUM('z', 'a'))", "INSERT INTO k VALUES (1, 'z'), (2, 'a')")
	// Index order: z (1) before a (2); label order: a before z.
	expect("SELECT GROUP_CONCAT(e ORDER BY e), MAX(e), MIN(e) FROM k", "z,a|z|a")
	expect("SELECT COUNT(*) FROM k HAVING MIN(e) = 'a'", "2")
}

// TestAppendTemporal: the digits written by hand are time.Format's.
func TestAppendTemporal(t *testing.T) {
	for _, tm := range []time.Time{
		time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC), time.Date(999, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(1, 1, 1, 1, 2, 3, 4000, time.UTC), time.Date(9999, 12, 31, 8, 5, 0, 120000000, time.UTC),
	} {
		for _, c := range []struct {
			typ    sql.DatetimeType
			layout string
		}{{gtypes.Date, "2006-01-02"}, {gtypes.Datetime, "2006-01-02 15:04:05"}, {gtypes.MustCreateDatetimeType(sqltypes.Datetime, 3), "2006-01-02 15:04:05.000"}, {gtypes.DatetimeMaxPrecision, "2006-01-02 15:04:05.000000"}} {
			if got, want := string(appendTemporal(nil, tm, c.typ)), tm.Format(c.layout); got != want {
				t.Errorf("%v as %s: got %q, want %q", tm, c.typ, got, want)
			}
		}
	}
}

// TestEvaluatedShortcuts compares the answers of date comparisons, DATE()
// and date arithmetic with and without shortcutEvaluated (operands
// answered from the values oddExpr already has; the INTERVAL delta made
// without go-mysql-server's EvalDelta), over rows with NULLs, DATE and
// DATETIME(n) operands of equal and different types, and every unit.
func TestEvaluatedShortcuts(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE r (id INT PRIMARY KEY, d DATE NULL, d2 DATE NULL, dt DATETIME NULL, dt3 DATETIME(3) NULL, n INT NULL, s VARCHAR(20) NULL)",
		"INSERT INTO r VALUES (1, '2024-01-05', '2024-01-05', '2024-01-05 00:00:00', '2024-01-05 10:00:00.500', 3, '7')",
		"INSERT INTO r VALUES (2, '2024-01-06', '2024-01-05', '2024-01-05 23:59:59', '2024-01-04 10:00:00.000', -2, '12')",
		"INSERT INTO r VALUES (3, NULL, '2024-02-29', '2024-03-01 00:00:00', NULL, NULL, NULL)",
		"INSERT INTO r VALUES (4, '2023-12-31', NULL, NULL, '2023-12-31 00:00:00.001', 0, '-1')",
		"INSERT INTO r VALUES (5, NULL, NULL, NULL, NULL, 1, '2')")
	var queries []string
	for _, op := range []string{"=", "<=>", "<", "<=", ">", ">="} {
		for _, pair := range [][2]string{{"d", "d2"}, {"d", "dt"}, {"dt", "dt3"}, {"dt3", "d + INTERVAL n DAY"}, {"d2 + INTERVAL n HOUR", "dt"}} {
			queries = append(queries, "SELECT id, "+pair[0]+" "+op+" "+pair[1]+" FROM r ORDER BY id")
		}
	}
	queries = append(queries,
		"SELECT id, d IN (d2, '2024-01-06'), dt IN (dt3) FROM r ORDER BY id",
		"SELECT id, DATE(dt), DATE(dt3), DATE(d), DATE(s) FROM r ORDER BY id",
		"SELECT id FROM r WHERE dt > d + INTERVAL n DAY ORDER BY id",
		"SELECT id, d + INTERVAL n DAY, d - INTERVAL n WEEK, dt + INTERVAL n HOUR, dt3 - INTERVAL n MINUTE, dt + INTERVAL n SECOND, dt3 + INTERVAL n MICROSECOND FROM r ORDER BY id",
		"SELECT id, d + INTERVAL s DAY, dt + INTERVAL n QUARTER, d + INTERVAL n MONTH, DATE_ADD(dt3, INTERVAL 1.5 DAY), DATE_SUB(d, INTERVAL n YEAR) FROM r ORDER BY id")
	answers := func() []string {
		var out []string
		for _, q := range queries {
			rows, err := b.Query(ctx, q)
			if err != nil {
				t.Fatalf("%s: %v", q, err)
			}
			out = append(out, fmt.Sprintf("%s: %v", q, rows))
		}
		return out
	}
	fast := answers()
	shortcutEvaluated = false
	slow := answers()
	shortcutEvaluated = true
	for i := range fast {
		if fast[i] != slow[i] {
			t.Errorf("with shortcuts:\n  %s\nwithout:\n  %s", fast[i], slow[i])
		}
	}
}

// TestUnsignedCasts: +, - and * with a CAST to UNSIGNED or SIGNED as an
// operand are checked as MariaDB checks them: a result below zero or out
// of range is error 1690 quoting the CASTs as MariaDB writes them (3 -
// CAST(5 AS UNSIGNED) was -2).
func TestUnsignedCasts(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d", "CREATE TABLE uc (id INT PRIMARY KEY, u INT UNSIGNED, s INT)",
		"INSERT INTO uc VALUES (1, 3, -4), (2, 10, 2)")
	for q, want := range map[string]string{
		"SELECT 3 - CAST(5 AS UNSIGNED) FROM uc WHERE id = 1":               "BIGINT UNSIGNED value is out of range in '3 - cast(5 as unsigned)'",
		"SELECT CAST('7' AS UNSIGNED) - 8 FROM uc WHERE id = 1":             "BIGINT UNSIGNED value is out of range in 'cast('7' as unsigned) - 8'",
		"SELECT id, s - CAST(u AS UNSIGNED) FROM uc WHERE id = 2":           "BIGINT UNSIGNED value is out of range in '`d`.`uc`.`s` - cast(`d`.`uc`.`u` as unsigned)'",
		"SELECT CAST(-3 AS SIGNED) * 4 - CAST(2 AS UNSIGNED) FROM uc":       "BIGINT UNSIGNED value is out of range in 'cast(-3 as signed) * 4 - cast(2 as unsigned)'",
		"SELECT CAST(18446744073709551615 AS UNSIGNED) + u FROM uc LIMIT 1": "BIGINT UNSIGNED value is out of range",
	} {
		if rows, err := b.Query(ctx, q); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, %v; want error %q", q, rows, err, want)
		}
	}
	b.ExpectRows(t, ctx, "SELECT id, CAST(u AS UNSIGNED) + s, u - CAST(s AS UNSIGNED), CAST(7 AS UNSIGNED) - CAST(2 AS SIGNED) FROM uc WHERE id = 2", "2|12|8|5")
}
