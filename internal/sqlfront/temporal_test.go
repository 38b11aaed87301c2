package sqlfront

import (
	"context"
	"net"
	"slices"
	"strconv"
	"testing"

	"github.com/dolthub/vitess/go/mysql"
)

// A result column that reads a DATETIME(n), TIMESTAMP(n) or TIME(n)
// column carries n as its decimals, as MariaDB's does (checked with
// mariadb --column-type-info: Decimals 3, 2, 1 and 0 for the columns
// below), and prints its values with n digits, odd dates included; so
// does an expression typed with digits (a CAST to TIME(n), which
// go-mysql-server sends with none). The lengths are MariaDB's too: the
// longest text of the type with those digits (go-mysql-server sent
// every TIME as 17 long, every DATETIME as 26).
func TestTemporalFieldDecimals(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.rawConn()
	for _, q := range []string{"CREATE DATABASE tf", "USE tf", "SET sql_mode = ''",
		"CREATE TABLE t (id INT PRIMARY KEY, a DATETIME(3) NULL, b TIMESTAMP(2) NULL, c TIME(1) NULL, d DATE NULL, e TIME NULL, f DATETIME NULL)",
		"INSERT INTO t VALUES (1, '2024-05-00 01:02:03', '2024-05-06 07:08:09', '10:11:12', '2024-00-01', '-838:59:59', '2024-05-06 07:08:09')"} {
		if _, err := c.ExecuteFetch(q, 10, false); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// (mariadb --column-type-info on MariaDB 10.11 for each column)
	want := []struct {
		dec, length uint32
		val         string
	}{
		{3, 23, "2024-05-00 01:02:03.000"}, {2, 22, "2024-05-06 07:08:09.00"}, {1, 12, "10:11:12.0"}, {0, 10, "2024-00-01"},
		{0, 10, "-838:59:59"}, {0, 19, "2024-05-06 07:08:09"},
		{2, 13, "10:11:12.00"}, {1, 12, "01:02:03.4"}, {2, 22, "2020-01-01 01:02:03.40"},
	}
	for _, q := range []string{
		"SELECT a, b, c, d, e, f, CAST(c AS TIME(2)), CAST('1:2:3.4' AS TIME(1)), CAST('2020-01-01 1:2:3.4' AS DATETIME(2)) FROM t",
		"SELECT a, b, c, d, e, f, CAST(c AS TIME(2)), CAST('1:2:3.4' AS TIME(1)), CAST('2020-01-01 1:2:3.4' AS DATETIME(2)) FROM t WHERE id > 0",
	} {
		for run := 0; run < 2; run++ { // (the second run is the plan cache's)
			r, err := c.ExecuteFetch(q, 10, true)
			if err != nil {
				t.Fatal(err)
			}
			for i, f := range r.Fields {
				if f.Decimals != want[i].dec || f.ColumnLength != want[i].length {
					t.Errorf("%s (run %d): field %s: decimals %d length %d, want %d %d", q, run, f.Name, f.Decimals, f.ColumnLength, want[i].dec, want[i].length)
				}
				if got := r.Rows[0][i].ToString(); got != want[i].val {
					t.Errorf("%s (run %d): field %s: %q, want %q", q, run, f.Name, got, want[i].val)
				}
			}
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

// TestTemporalDecimalsMultiStatement: each result of a multi-statement
// text gets the decimals of its own statement's types (the result types
// are read again for each; a second result with more columns than the
// first must not read the first's).
func TestTemporalDecimalsMultiStatement(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	host, port, err := net.SplitHostPort(ts.s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	c, err := mysql.Connect(context.Background(), &mysql.ConnParams{Host: host, Port: p, Uname: "root", Flags: mysql.CapabilityClientMultiStatements})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, status, err := c.ExecuteFetchMulti(context.Background(), "SELECT CAST('1:2:3.4' AS TIME(1)); SELECT 1, CAST('1:2:3.45' AS TIME(2)), CAST('1:2:3' AS TIME(3))", 10, true)
	if err != nil || status&mysql.ServerMoreResultsExists == 0 {
		t.Fatalf("first result: %v (status %x)", err, status)
	}
	if d := r.Fields[0].Decimals; d != 1 {
		t.Errorf("first result: decimals %d, want 1", d)
	}
	r, _, _, err = c.ReadQueryResult(context.Background(), 10, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := []uint32{r.Fields[0].Decimals, r.Fields[1].Decimals, r.Fields[2].Decimals}; !slices.Equal(got, []uint32{0, 2, 3}) {
		t.Errorf("second result: decimals %v, want [0 2 3]", got)
	}
	if got := r.Rows[0][2].ToString(); got != "01:02:03.000" {
		t.Errorf("second result: %q", got)
	}
}

// TestConcatWSTemporal: CONCAT_WS writes dates and times into its buffer
// (concatWS, temporalText.appendEval), skips NULLs, and prints zero and
// odd dates and a negative TIME as MariaDB 10.11 answered the same
// statements.
func TestConcatWSTemporal(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "SET sql_mode = ''", "CREATE DATABASE cw",
		"CREATE TABLE cw.t (id INT PRIMARY KEY, d DATE, dt DATETIME(3), ts TIMESTAMP NULL, tm TIME)",
		"INSERT INTO cw.t VALUES (1, '2024-02-29', '2024-01-02 03:04:05.678', '2024-05-06 07:08:09', '10:11:12'), (2, NULL, NULL, NULL, NULL), (3, '2024-00-00', '0000-00-00 00:00:00', NULL, '-01:00:00')")
	expectRows(t, c, "SELECT id, CONCAT_WS('#', id, d, dt, ts, tm, d + INTERVAL 1 DAY), CRC32(CONCAT_WS('#', d, NULL, dt)) FROM cw.t ORDER BY id",
		"1|1#2024-02-29#2024-01-02 03:04:05.678#2024-05-06 07:08:09#10:11:12#2024-03-01|235439869",
		"2|2|0",
		"3|3#2024-00-00#0000-00-00 00:00:00.000#-01:00:00|545359870")
}
