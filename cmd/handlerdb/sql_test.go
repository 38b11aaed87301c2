package main

import (
	"database/sql"
	"fmt"
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

// checkDatabases checks that the databases r0 .. r<round-1>, each created
// by an acknowledged CREATE DATABASE of an earlier round, exist, and
// creates r<round>.
func checkDatabases(t *testing.T, addr string, round int) {
	t.Helper()
	db, err := sql.Open("mysql", "root@tcp("+addr+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for r := 0; r < round; r++ {
		var name string
		err := db.QueryRow("SELECT schema_name FROM information_schema.schemata WHERE schema_name = ?", fmt.Sprintf("r%d", r)).Scan(&name)
		if err != nil {
			t.Fatalf("round %d: database r%d, acknowledged in round %d: %v", round, r, r, err)
		}
	}
	if _, err := db.Exec(fmt.Sprintf("CREATE DATABASE r%d", round)); err != nil {
		t.Fatal(err)
	}
}
