package sqlfront

import (
	"database/sql"
	"testing"
	"time"
)

// TestBinaryTemporals checks temporal values over the binary protocol
// (prepared statements) as go-sql-driver reads MariaDB's: a zero DATE or
// DATETIME is sent with no bytes, so that the driver reads
// "0000-00-00" (and the zero time.Time with parseTime), not a date it
// builds from year 0, month 0, day 0 (-0001-11-30); and CAST(? AS TIME)
// of a DATETIME parameter (a time.Time) takes its time of day, where it
// was NULL; a CAST to TIME(n) keeps n digits.
func TestBinaryTemporals(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE bt", "CREATE TABLE bt.z (id INT PRIMARY KEY, d DATE, dt DATETIME, ts TIMESTAMP NULL, dt3 DATETIME(3))",
		"INSERT INTO bt.z VALUES (1, '0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00', '0000-00-00 00:00:00.000'),"+
			" (2, '2024-02-03', '2024-02-03 04:05:06', '2024-02-03 04:05:06', '2024-02-03 04:05:06.789')")
	for _, c := range []struct {
		q    string
		args []any
		want string
	}{
		{"SELECT d, dt, ts, dt3 FROM bt.z WHERE id = ?", []any{1}, "0000-00-00|0000-00-00 00:00:00|0000-00-00 00:00:00|0000-00-00 00:00:00.000"},
		{"SELECT d, dt, ts, dt3 FROM bt.z WHERE id = ?", []any{2}, "2024-02-03|2024-02-03 04:05:06|2024-02-03 04:05:06|2024-02-03 04:05:06.789"},
		{"SELECT d, dt FROM bt.z WHERE id > ? ORDER BY id", []any{0}, "0000-00-00|0000-00-00 00:00:00\n2024-02-03|2024-02-03 04:05:06"},
		{"SELECT CAST(? AS DATE), CAST(? AS DATETIME)", []any{"0000-00-00", "0000-00-00 00:00:00"}, "0000-00-00|0000-00-00 00:00:00"},
		{"SELECT CAST(? AS TIME), CAST(? AS TIME), CAST(? AS TIME)",
			[]any{time.Date(1, 1, 1, 3, 25, 45, 0, time.UTC), time.Time{}, time.Date(2011, 11, 20, 21, 27, 37, 0, time.UTC)},
			"03:25:45|00:00:00|21:27:37"},
		{"SELECT CAST(? AS TIME), CAST(? AS TIME)", []any{"2011-11-20 21:27:37.5", "12:34:56"}, "21:27:37|12:34:56"},
		// go-sql-driver prints a binary TIME or DATETIME with the field's
		// decimals: a CAST to TIME(n) must send n (go-mysql-server sent 0,
		// so 03:25:45.6 arrived as 03:25:45; go-sql-driver's TestDateTime).
		{"SELECT cast(? as TIME(1))", []any{"03:25:45.6"}, "03:25:45.6"},
		{"SELECT CAST(? AS TIME(1)), CAST(? AS TIME(2)), CAST(? AS DATETIME(3))", []any{"-838:59:58.9", "-12:00:01.25", "2011-11-20 21:27:37.5"},
			"-838:59:58.9|-12:00:01.25|2011-11-20 21:27:37.500"},
		{"SELECT CAST(? AS TIME(1)) FROM bt.z WHERE id = ?", []any{"00:00:00.0", 2}, "00:00:00.0"},
	} {
		// Twice: a point select's second run is the fast path's.
		for run := 0; run < 2; run++ {
			if got := joinLines(queryRows(t, db, c.q, c.args...)); got != c.want {
				t.Errorf("%s %v (run %d):\n%s\nwant\n%s", c.q, c.args, run, got, c.want)
			}
		}
	}
	// With parseTime, a zero date is the zero time.Time.
	pt, err := sql.Open("mysql", ts.dsn("root", "", "bt")+"&parseTime=true")
	if err != nil {
		t.Fatal(err)
	}
	defer pt.Close()
	for run := 0; run < 2; run++ {
		var d, dt time.Time
		if err := pt.QueryRow("SELECT d, dt FROM z WHERE id = ?", 1).Scan(&d, &dt); err != nil || !d.IsZero() || !dt.IsZero() {
			t.Errorf("zero dates with parseTime (run %d): %v %v %v", run, d, dt, err)
		}
	}
}
