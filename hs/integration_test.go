package hs_test

import (
	"database/sql"
	"net"
	"net/url"
	"os"
	"testing"
)

// TestRealHandlerSocket runs the suite against a real HandlerSocket plugin
// (MariaDB or MySQL with handlersocket.so). Set
//
//	HS_TEST_ADDR        host:port of the read port (required)
//	HS_TEST_WR_ADDR     host:port of the write port (default: read host, port 9999)
//	HS_TEST_MYSQL_DSN   go-sql-driver DSN used to create the tables (required),
//	                    e.g. root:pw@tcp(127.0.0.1:3306)/
//	HS_TEST_SECRET, HS_TEST_WR_SECRET   the ports' secrets, if any
//
// The tables are created in database hstest.
func TestRealHandlerSocket(t *testing.T) {
	addr := os.Getenv("HS_TEST_ADDR")
	if addr == "" {
		t.Skip("HS_TEST_ADDR is not set: no real HandlerSocket to test against (see the doc comment for the variables)")
	}
	mysqlDSN := os.Getenv("HS_TEST_MYSQL_DSN")
	if mysqlDSN == "" {
		t.Skip("HS_TEST_MYSQL_DSN is not set: the tables of the real HandlerSocket test are created over SQL")
	}
	wr := os.Getenv("HS_TEST_WR_ADDR")
	if wr == "" {
		host, _, _ := net.SplitHostPort(addr)
		wr = net.JoinHostPort(host, "9999")
	}
	wrHost, wrPort, err := net.SplitHostPort(wr)
	if err != nil {
		t.Fatal(err)
	}
	q := url.Values{"wr_host": {wrHost}, "wr_port": {wrPort}}
	if s := os.Getenv("HS_TEST_WR_SECRET"); s != "" {
		q.Set("wr_secret", s)
	}
	u := url.URL{Scheme: "hs", Host: addr, Path: "/" + testDB, RawQuery: q.Encode()}
	if s := os.Getenv("HS_TEST_SECRET"); s != "" {
		u.User = url.User(s)
	}
	db, err := sql.Open("mysql", mysqlDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ping(); err != nil {
		t.Fatalf("HS_TEST_MYSQL_DSN: %v", err)
	}
	e := &env{name: "handlersocket", dsn: u.String(), db: testDB, sql: db}
	if err := e.createDatabase(); err != nil {
		t.Fatal(err)
	}
	runSuite(t, e)
}
