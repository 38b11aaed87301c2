package server

import (
	"database/sql"
	"strings"
	"testing"
)

// Dates with a zero month or day that HandlerSocket writes read back over
// SQL exactly, order and compare as MariaDB's do (2020-00-15 sorts
// between 2019-12-31 and 2020-01-01, also through an index), and SQL
// writes them (sql_mode without NO_ZERO_IN_DATE) for HandlerSocket to
// read. The SQL answers are MariaDB 10.11's for the same rows.
func TestHSOddDatesOverSQL(t *testing.T) {
	s := startTest(t, nil)
	db := sqlDB(t, s, "odd")
	execAll(t, db, "CREATE TABLE od (id INT PRIMARY KEY, d DATE NULL, dt DATETIME(2) NULL, KEY kd (d))")
	hsSteps(t, s.HS().WriteAddr(), []hsStep{
		{"P\t0\todd\tod\tPRIMARY\tid,d,dt", "0\t1"},
		{"0\t+\t3\t1\t2020-00-15\t2020-05-00 10:11:12.5", "0\t1"},
		{"0\t+\t3\t2\t0000-00-01\t0000-00-01 00:00:00", "0\t1"},
		{"0\t+\t3\t3\t2020-01-01\t2020-01-01 00:00:00", "0\t1"},
		{"0\t+\t3\t4\t2019-12-31\t2020-00-00 23:59:59.99", "0\t1"},
		{"0\t+\t3\t5\t0000-00-00\t0000-00-00 00:00:00", "0\t1"},
		{"0\t=\t1\t1", "0\t3\t1\t2020-00-15\t2020-05-00 10:11:12.50"},
	})
	queries := []struct{ q, want string }{
		{"SELECT id, d, dt FROM od ORDER BY id",
			"1 2020-00-15 2020-05-00 10:11:12.50|2 0000-00-01 0000-00-01 00:00:00.00|3 2020-01-01 2020-01-01 00:00:00.00|4 2019-12-31 2020-00-00 23:59:59.99|5 0000-00-00 0000-00-00 00:00:00.00"},
		{"SELECT id, d FROM od ORDER BY d", "5 0000-00-00|2 0000-00-01|4 2019-12-31|1 2020-00-15|3 2020-01-01"},
		{"SELECT id FROM od ORDER BY dt DESC, id", "1|3|4|2|5"},
		{"SELECT id FROM od WHERE d = '2020-00-15'", "1"},
		{"SELECT id FROM od WHERE d < '2020-01-01' ORDER BY id", "1|2|4|5"},
		{"SELECT id FROM od WHERE d BETWEEN '2019-12-31' AND '2020-00-31' ORDER BY id", "1|4"},
		{"SELECT id FROM od WHERE dt >= '2020-00-00 00:00:00' ORDER BY id", "1|3|4"},
		{"SELECT id, YEAR(d), MONTH(d), DAY(d), MONTH(dt), DAY(dt) FROM od ORDER BY id",
			"1 2020 0 15 5 0|2 0 0 1 0 1|3 2020 1 1 1 1|4 2019 12 31 0 0|5 0 0 0 0 0"},
		{"SELECT CAST(d AS CHAR), CONCAT(dt, '') FROM od WHERE id = 1", "2020-00-15 2020-05-00 10:11:12.50"},
		{"SELECT DATE_FORMAT(d, '%d.%m.%Y'), DATE_FORMAT(d, '%M') FROM od WHERE id = 1", "15.00.2020 NULL"},
		{"SELECT MIN(d), MAX(dt) FROM od", "0000-00-00 2020-05-00 10:11:12.50"},
	}
	check := func() {
		t.Helper()
		for _, q := range queries {
			if got := sqlRows(t, db, q.q); got != q.want {
				t.Errorf("%s:\n got %s\nwant %s", q.q, got, q.want)
			}
		}
	}
	check()
	// Prepared: a point select (the second execution takes the fast
	// path) and a comparison with a bound string.
	for i := 0; i < 2; i++ {
		var d, dt string
		if err := db.QueryRow("SELECT d, dt FROM od WHERE id = ?", 1).Scan(&d, &dt); err != nil || d != "2020-00-15" || dt != "2020-05-00 10:11:12.50" {
			t.Errorf("prepared point select %d: %q %q %v", i, d, dt, err)
		}
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM od WHERE d <= ?", "2020-00-15").Scan(&n); err != nil || n != 4 {
		t.Errorf("prepared d <= '2020-00-15': %d %v, want 4", n, err)
	}
	// Written over SQL: the same rows, read back by both fronts.
	execAll(t, db, "SET sql_mode = ''", "DELETE FROM od",
		"INSERT INTO od VALUES (1, '2020-00-15', '2020-05-00 10:11:12.5'), (2, '0000-00-01', '0000-00-01'), (3, '2020-01-01', '2020-01-01'), (4, '2019-12-31', '2020-00-00 23:59:59.99'), (5, '0000-00-00', '0000-00-00')")
	check()
	hsSteps(t, s.HS().ReadAddr(), []hsStep{
		{"P\t0\todd\tod\tkd\tid,d,dt", "0\t1"},
		{"0\t>=\t1\t2020-00-01\t10", "0\t3\t1\t2020-00-15\t2020-05-00 10:11:12.50\t3\t2020-01-01\t2020-01-01 00:00:00.00"},
	})
	// Under NO_ZERO_IN_DATE (strict) such a date is refused with 1292.
	execAll(t, db, "SET sql_mode = 'STRICT_TRANS_TABLES,NO_ZERO_IN_DATE'")
	if _, err := db.Exec("UPDATE od SET d = '2021-00-01' WHERE id = 3"); err == nil || !strings.Contains(err.Error(), "1292") {
		t.Errorf("UPDATE under NO_ZERO_IN_DATE: %v, want error 1292", err)
	}
}

// sqlRows runs a query and prints its rows: values joined by spaces
// (NULL for NULL), rows by '|'.
func sqlRows(t *testing.T, db *sql.DB, q string) string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]interface{}, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		parts := make([]string, len(cols))
		for i, v := range vals {
			parts[i] = "NULL"
			if v.Valid {
				parts[i] = v.String
			}
		}
		out = append(out, strings.Join(parts, " "))
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return strings.Join(out, "|")
}
