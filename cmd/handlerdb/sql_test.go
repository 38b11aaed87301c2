package main

import (
	"database/sql"
	"testing"

	_ "github.com/go-sql-driver/mysql"
)

// createTable makes k.t (id BIGINT PRIMARY KEY, v VARCHAR(8), KEY v(v))
// over the server's SQL port.
func createTable(t *testing.T, addr string) {
	t.Helper()
	db, err := sql.Open("mysql", "root@tcp("+addr+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{"CREATE DATABASE k", "CREATE TABLE k.t (id BIGINT PRIMARY KEY, v VARCHAR(8), KEY v (v))"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}
