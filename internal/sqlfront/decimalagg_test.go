package sqlfront

import (
	"context"
	gosql "database/sql"
	"fmt"
	"strings"
	"testing"
)

// TestDecimalAggregateColumns checks the values and the column definitions
// clients see for SUM and AVG over DECIMAL and INT, grouped and windowed,
// and for TRUNCATE. The wanted types are MariaDB 10.11's answers to the
// same statements (column type, precision and scale as go-sql-driver
// derives them from the field's length and decimals).
func TestDecimalAggregateColumns(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c,
		"CREATE DATABASE agg", "USE agg",
		"CREATE TABLE t (id INT PRIMARY KEY, g INT, i INT, d DECIMAL(8,2), f DOUBLE)",
		"INSERT INTO t VALUES (1, 1, 2, 1.00, 0.5), (2, 1, 2, 1.00, 0.25), (3, 2, 1, 2.01, NULL), (4, 2, NULL, NULL, 1)",
	)
	cases := []struct {
		query string
		types []string // per column: TYPE(precision,scale), or TYPE
		rows  []string
	}{{
		query: "SELECT SUM(d), AVG(d), SUM(i), AVG(i), MIN(d), MAX(d), SUM(d)*1.1, SUM(f) FROM t",
		types: []string{"DECIMAL(30,2)", "DECIMAL(12,6)", "DECIMAL(32,0)", "DECIMAL(14,4)", "DECIMAL(8,2)", "DECIMAL(8,2)", "DECIMAL", "DOUBLE"},
		rows:  []string{"4.01|1.336667|5|1.6667|1.00|2.01|4.411|1.75"},
	}, {
		query: "SELECT g, SUM(d) AS total, AVG(i) FROM t GROUP BY g HAVING SUM(d) > 1 ORDER BY total DESC",
		types: []string{"INT", "DECIMAL(30,2)", "DECIMAL(14,4)"},
		rows:  []string{"2|2.01|1.0000", "1|2.00|2.0000"},
	}, {
		query: "SELECT id, SUM(d) OVER (ORDER BY d, i), AVG(d) OVER (), AVG(i) OVER (PARTITION BY g) FROM t WHERE id < 4 ORDER BY id",
		types: []string{"INT", "DECIMAL(30,2)", "DECIMAL(12,6)", "DECIMAL(14,4)"},
		rows:  []string{"1|2.00|1.336667|2.0000", "2|2.00|1.336667|2.0000", "3|4.01|1.336667|1.0000"},
	}, {
		query: "SELECT SUM(d), AVG(i) FROM t WHERE id > 10",
		types: []string{"DECIMAL(30,2)", "DECIMAL(14,4)"},
		rows:  []string{"NULL|NULL"},
	}, {
		// The sides' DECIMALs differ: the union's column is the wider one.
		query: "SELECT SUM(d) AS x FROM t UNION ALL SELECT AVG(i) FROM t ORDER BY x DESC",
		types: []string{"DECIMAL(32,4)"},
		rows:  []string{"4.0100", "1.6667"},
	}, {
		// A total row under the groups: the planner converts the first
		// column of both sides (INT and a string) and reads the SUM by position.
		query: "SELECT g, SUM(d) AS total FROM t GROUP BY g UNION ALL SELECT 'all', SUM(d) FROM t ORDER BY total DESC",
		types: []string{"", "DECIMAL(30,2)"},
		rows:  []string{"all|4.01", "2|2.01", "1|2.00"},
	}, {
		query: "SELECT TRUNCATE(2.345, 1), TRUNCATE(-2.345, 1), TRUNCATE(1234.5, -2), TRUNCATE(d, 1), TRUNCATE(0.29e0, 2), TRUNCATE(-15, -1) FROM t WHERE id = 3",
		types: []string{"DECIMAL(2,1)", "DECIMAL(2,1)", "DECIMAL(4,0)", "DECIMAL(7,1)", "DOUBLE", ""},
		rows:  []string{"2.3|-2.3|1200|2.0|0.28|-10"},
	}}
	for _, tc := range cases {
		rs, err := c.QueryContext(context.Background(), tc.query)
		if err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		cts, err := rs.ColumnTypes()
		if err != nil {
			t.Fatal(err)
		}
		for i, ct := range cts {
			if tc.types[i] == "" {
				continue
			}
			got := ct.DatabaseTypeName()
			if p, s, ok := ct.DecimalSize(); ok && got == "DECIMAL" && strings.Contains(tc.types[i], "(") {
				got = fmt.Sprintf("DECIMAL(%d,%d)", p, s)
			}
			if got != tc.types[i] {
				t.Errorf("%s: column %d (%s) is %s, want %s", tc.query, i+1, ct.Name(), got, tc.types[i])
			}
		}
		var rows []string
		vals := make([]gosql.RawBytes, len(cts))
		ptrs := make([]any, len(vals))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		for rs.Next() {
			if err := rs.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			parts := make([]string, len(vals))
			for i, v := range vals {
				parts[i] = "NULL"
				if v != nil {
					parts[i] = string(v)
				}
			}
			rows = append(rows, strings.Join(parts, "|"))
		}
		if err := rs.Err(); err != nil {
			t.Fatalf("%s: %v", tc.query, err)
		}
		rs.Close()
		if strings.Join(rows, "\n") != strings.Join(tc.rows, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", tc.query, rows, tc.rows)
		}
	}
}
