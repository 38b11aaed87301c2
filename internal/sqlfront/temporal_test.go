package sqlfront

import (
	"slices"
	"testing"
)

// A result column that reads a DATETIME(n), TIMESTAMP(n) or TIME(n)
// column carries n as its decimals, as MariaDB's does (checked with
// mariadb --column-type-info: Decimals 3, 2, 1 and 0 for the columns
// below), and prints its values with n digits, odd dates included.
func TestTemporalFieldDecimals(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.rawConn()
	for _, q := range []string{"CREATE DATABASE tf", "USE tf", "SET sql_mode = ''",
		"CREATE TABLE t (id INT PRIMARY KEY, a DATETIME(3) NULL, b TIMESTAMP(2) NULL, c TIME(1) NULL, d DATE NULL)",
		"INSERT INTO t VALUES (1, '2024-05-00 01:02:03', '2024-05-06 07:08:09', '10:11:12', '2024-00-01')"} {
		if _, err := c.ExecuteFetch(q, 10, false); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	r, err := c.ExecuteFetch("SELECT a, b, c, d FROM t", 10, true)
	if err != nil {
		t.Fatal(err)
	}
	wantDec := []uint32{3, 2, 1, 0}
	wantVal := []string{"2024-05-00 01:02:03.000", "2024-05-06 07:08:09.00", "10:11:12.0", "2024-00-01"}
	for i, f := range r.Fields {
		if f.Decimals != wantDec[i] {
			t.Errorf("field %s: decimals %d, want %d", f.Name, f.Decimals, wantDec[i])
		}
		if got := r.Rows[0][i].ToString(); got != wantVal[i] {
			t.Errorf("field %s: %q, want %q", f.Name, got, wantVal[i])
		}
	}
}

// TestTypedLiteralRows: a DATE literal inside an expression keeps its
// type over the wire (DATE + INTERVAL is a DATE; mariadb.TypedLiteralValues).
func TestTypedLiteralRows(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	if got := queryRows(t, c, "SELECT DATE '2024-02-29' + INTERVAL 1 DAY, CONCAT(DATE '2024-02-29', '!')"); !slices.Equal(got, []string{"2024-03-01|2024-02-29!"}) {
		t.Fatalf("rows %q", got)
	}
}
