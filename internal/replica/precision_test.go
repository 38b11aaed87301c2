package replica_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// precisionTypes are the column types whose declaration carries a
// precision, length or scale: every fractional-second precision of TIME,
// DATETIME and TIMESTAMP, and the others that MariaDB keeps a number for.
func precisionTypes() []string {
	var out []string
	for _, k := range []string{"TIME", "DATETIME", "TIMESTAMP NULL"} {
		for p := 0; p <= 6; p++ {
			name, rest, _ := strings.Cut(k, " ")
			out = append(out, strings.TrimSpace(fmt.Sprintf("%s(%d) %s", name, p, rest)))
		}
	}
	return append(out,
		"DECIMAL(5,2)", "DECIMAL(20,10)", "DECIMAL(65,30)", "DECIMAL(10,0)",
		"FLOAT(10)", "FLOAT(30)", "FLOAT(7,2)", "DOUBLE(10,3)",
		"BIT(1)", "BIT(13)", "BIT(64)",
		"CHAR(1)", "CHAR(10)", "VARCHAR(5)", "VARCHAR(300)",
		"BINARY(4)", "VARBINARY(10)", "YEAR")
}

// precisionInputs are stored (non-strict) in every column; what the
// primary refuses is left out.
var precisionInputs = []string{
	"12:34:56.789123", "-838:59:59.999999", "00:00:00.5", "1.5", "0",
	"2024-02-29 23:59:59.999999", "1999-12-31 23:59:59.5", "2038-01-19 03:14:07.4999",
	"123.456789", "-99.995", "255", "1", "abcdefghijklmnop", "2155", "69",
}

// TestTypePrecisions: every column type with every precision is created on
// the replica as the primary declares it and reads back the primary's
// values, both for tables the initial copy creates (from SHOW CREATE
// TABLE) and for tables a streamed CREATE TABLE creates.
func TestTypePrecisions(t *testing.T) {
	p := sharedPrimary(t)
	typs := precisionTypes()
	create := func(db string) {
		p.exec(t, "DROP DATABASE IF EXISTS "+db, "CREATE DATABASE "+db)
		conn, err := p.Root.Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(t.Context(), "SET SESSION sql_mode=''"); err != nil {
			t.Fatal(err)
		}
		for i, typ := range typs {
			if _, err := conn.ExecContext(t.Context(), fmt.Sprintf("CREATE TABLE %s.p%d (k INT PRIMARY KEY, c %s)", db, i, typ)); err != nil {
				t.Fatalf("primary: %s: %v", typ, err)
			}
			for k, in := range precisionInputs {
				conn.ExecContext(t.Context(), fmt.Sprintf("INSERT INTO %s.p%d VALUES (?, ?)", db, i), k, in)
			}
		}
	}
	create("tpcopy")
	s := startReplica(t, "", nil)
	rdb := sqlOf(t, s)
	follow(t, rdb, p)
	catchUp(t, rdb, p, 30*time.Second)
	create("tpstream")
	catchUp(t, rdb, p, 30*time.Second)

	// Values are compared as text the SQL layer of each side gives for
	// the same expression: hex for BIT and binary strings, the value
	// itself for the others.
	for _, db := range []string{"tpcopy", "tpstream"} {
		for i, typ := range typs {
			table := fmt.Sprintf("%s.p%d", db, i)
			q := fmt.Sprintf("SELECT COLUMN_TYPE FROM information_schema.COLUMNS WHERE TABLE_SCHEMA='%s' AND TABLE_NAME='p%d' AND COLUMN_NAME='c'", db, i)
			var want, got string
			if err := p.Root.QueryRow(q).Scan(&want); err != nil {
				t.Fatal(err)
			}
			if err := rdb.QueryRow(q).Scan(&got); err != nil {
				t.Fatalf("replica %s: %v", table, err)
			}
			if got != want {
				t.Errorf("%s (%s): the replica's column is %s, the primary's %s", table, typ, got, want)
			}
			expr := "c"
			if strings.HasPrefix(typ, "BIT") || strings.Contains(typ, "BINARY") {
				expr = "HEX(c)"
			}
			sameRows(t, table+" ("+typ+")", dumpCols(t, p.Root, "k, "+expr, table, "k"), dumpCols(t, rdb, "k, "+expr, table, "k"))
		}
	}
	p.exec(t, "DROP DATABASE tpcopy", "DROP DATABASE tpstream")
	catchUp(t, rdb, p, 10*time.Second)
}
