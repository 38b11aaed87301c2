package sqlfront

import (
	gosql "database/sql"
	"testing"
)

// TestTimeToSecFraction: TIME_TO_SEC keeps the fractional seconds of its
// argument, with as many digits as the argument has, and hours past 23
// and negative times count, as in MariaDB (the wants are MariaDB 10.11's
// answers to the same statements).
func TestTimeToSecFraction(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	for _, q := range []string{
		"CREATE DATABASE tts",
		"CREATE TABLE tts.t (k INT PRIMARY KEY, a TIME, b TIME(3), c TIME(6), d DATETIME(2), e VARCHAR(20))",
		"INSERT INTO tts.t VALUES (1, '01:00:00', '01:00:00.5', '-838:59:59.999999', '2024-01-01 10:00:00.25', '01:00:00.5')",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for _, c := range []struct{ expr, want string }{
		{"TIME_TO_SEC(CAST('01:00:00.5' AS TIME(3)))", "3600.500"},
		{"TIME_TO_SEC(a)", "3600"},
		{"TIME_TO_SEC(b)", "3600.500"},
		{"TIME_TO_SEC(c)", "-3020399.999999"},
		{"TIME_TO_SEC(d)", "36000.25"},
		{"TIME_TO_SEC(e)", "3600.500000"},
		{"TIME_TO_SEC('25:00:00')", "90000"},
		{"TIME_TO_SEC('01:00:00.123')", "3600.123"},
		{"TIME_TO_SEC('-01:00:00.5')", "-3600.5"},
		{"TIME_TO_SEC(123456)", "45296"},
		{"TIME_TO_SEC(NULL)", "NULL"},
		{"TIME_TO_SEC('abc')", "NULL"},
	} {
		var got gosql.NullString
		if err := db.QueryRow("SELECT " + c.expr + " FROM tts.t").Scan(&got); err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		s := "NULL"
		if got.Valid {
			s = got.String
		}
		if s != c.want {
			t.Errorf("%s = %s, MariaDB gives %s", c.expr, s, c.want)
		}
	}
}
