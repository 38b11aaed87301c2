package sqlfront

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestTextTemplate: what textTemplate cuts out of an INSERT's text and
// what it leaves alone.
func TestTextTemplate(t *testing.T) {
	cases := []struct {
		q, text string
		vals    []string // "" for a statement left alone
	}{
		{"INSERT INTO t (id, c) VALUES (1, 'a''b')", "INSERT INTO t (id, c) VALUES (?, ?)", []string{"1", "a'b"}},
		{"UPDATE t SET c = 'p''q''r', d = '''''' WHERE id = 2", "UPDATE t SET c = ?, d = ? WHERE id = ?", []string{"p'q'r", "''", "2"}},
		{"UPDATE t SET c = '', d = 'x''' WHERE id = 2", "UPDATE t SET c = ?, d = ? WHERE id = ?", []string{"", "x'", "2"}},
		{"insert into sbtest1 (id, k, c, pad) values (0, 5, '12-34', 'x y');", "insert into sbtest1 (id, k, c, pad) values (?, ?, ?, ?)", []string{"0", "5", "12-34", "x y"}},
		{"INSERT INTO `t1` VALUES (-2.50, .5, NULL, 'é')", "INSERT INTO `t1` VALUES (-?, ?, NULL, ?)", []string{"2.50", ".5", "é"}},
		{"INSERT INTO t2x VALUES (t2x.1, 'a')", "INSERT INTO t2x VALUES (t2x.1, ?)", []string{"a"}}, // 1 after a dot is a name
		{"INSERT INTO t VALUES ('a\\'b')", "", nil},                     // a backslash
		{"INSERT INTO t VALUES (\"a\")", "", nil},                       // double quotes
		{"INSERT INTO t VALUES (_utf8mb4'a')", "", nil},                 // introducer
		{"INSERT INTO t VALUES (X'0A')", "", nil},                       // hexadecimal
		{"INSERT INTO t VALUES (0x0A)", "", nil},                        // hexadecimal
		{"INSERT INTO t VALUES (1e5)", "", nil},                         // exponent
		{"INSERT INTO t VALUES (DATE '2024-01-01')", "", nil},           // typed literal
		{"INSERT INTO t VALUES ('a' 'b')", "", nil},                     // adjacent strings
		{"INSERT INTO t VALUES (1) /* c */", "", nil},                   // comment
		{"INSERT INTO t VALUES (1); INSERT INTO t VALUES (2)", "", nil}, // two statements
		{"INSERT INTO t VALUES (1234567890123456789)", "", nil},         // 19 digits
		{"INSERT INTO t VALUES ('unterminated)", "", nil},               // no end
		{"INSERT INTO t VALUES (?)", "", nil},                           // a parameter
		{"INSERT INTO t VALUES (NULL)", "", nil},                        // nothing to cut
		{"SELECT 1", "", nil},                                           // a literal before WHERE
		{"SELECT c FROM t WHERE id = 5 AND k = 'x'", "SELECT c FROM t WHERE id = ? AND k = ?", []string{"5", "x"}},
		{"SELECT 'a' FROM t WHERE id = 5", "", nil},                                       // a literal names a column
		{"SELECT c, 2 FROM t WHERE id = 5", "", nil},                                      // a literal names a column
		{"SELECT c FROM t2 WHERE id = 5", "SELECT c FROM t2 WHERE id = ?", []string{"5"}}, // a digit in a name
		{"SHOW TABLES LIKE 'a'", "", nil},                                                 // not an INSERT, UPDATE, DELETE or SELECT
		{"INSERT INTO `a``b` (`1c`) VALUES (7)", "INSERT INTO `a``b` (`1c`) VALUES (?)", []string{"7"}},
		{"INSERT INTO t (c1) VALUES (1col)", "", nil}, // an identifier starting with digits
	}
	for _, c := range cases {
		text, vars, ok := textTemplate(c.q)
		if ok != (c.vals != nil) || text != c.text {
			t.Errorf("%q: %q, %v; want %q", c.q, text, ok, c.text)
			continue
		}
		for i, v := range c.vals {
			if bv := vars[fmt.Sprintf("v%d", i+1)]; bv == nil || string(bv.Value) != v {
				t.Errorf("%q: v%d = %v, want %q", c.q, i+1, bv, v)
			}
		}
	}
}

// TestTextInsertTemplates sends the same random text INSERTs, UPDATEs
// and DELETEs (strings
// with quotes and other scripts, decimals, negatives, NULLs, values out
// of a column's range, duplicate and missing keys) to a server without
// plan caches and to one with text templates, and compares errors, rows
// affected, insert ids, warnings and the tables.
func TestTextInsertTemplates(t *testing.T) {
	plain := startTestServer(t, "", Config{NoPlanCache: true, NoPointFastPath: true})
	fast := startTestServer(t, "", Config{})
	setup := []string{"CREATE DATABASE ttx", "USE ttx",
		"CREATE TABLE tp (id INT PRIMARY KEY, k INT NOT NULL, c VARCHAR(8), small TINYINT, d DECIMAL(6,2), UNIQUE KEY uk (k))",
		"CREATE TABLE ta (id INT AUTO_INCREMENT PRIMARY KEY, k INT, c CHAR(4))"}
	c0, c1 := plain.conn(""), fast.conn("")
	mustExec(t, c0, setup...)
	mustExec(t, c1, setup...)
	r := rand.New(rand.NewPCG(5, 6))
	str := func() string {
		switch r.IntN(8) {
		case 0:
			return "NULL"
		case 1:
			return "'it''s'"
		case 2:
			return "'é✓'"
		case 3:
			return "'toolongvalue'"
		case 4:
			return "''"
		}
		return fmt.Sprintf("'c%d'", r.IntN(50))
	}
	num := func() string {
		switch r.IntN(9) {
		case 0:
			return "NULL"
		case 1:
			return fmt.Sprintf("-%d", r.IntN(5))
		case 2:
			return fmt.Sprint(200 + r.IntN(200))
		case 3:
			return fmt.Sprintf("%d.%02d", r.IntN(100), r.IntN(100))
		case 4:
			return "'7'"
		}
		return fmt.Sprint(r.IntN(400))
	}
	shapes := []func() string{
		func() string {
			return fmt.Sprintf("INSERT INTO tp (id, k, c, small, d) VALUES (%s, %s, %s, %s, %s)", num(), num(), str(), num(), num())
		},
		func() string {
			return fmt.Sprintf("INSERT INTO tp VALUES (%s, %s, %s, %s, %s), (%s, %s, 'v', 1, 2.5)", num(), num(), str(), num(), num(), num(), num())
		},
		func() string { return fmt.Sprintf("INSERT INTO ta (k, c) VALUES (%s, %s)", num(), str()) },
		func() string { return fmt.Sprintf("insert into ta values (%s, %s, %s);", num(), num(), str()) },
		func() string { return fmt.Sprintf("INSERT IGNORE INTO tp (id, k) VALUES (%s, %s)", num(), num()) },
		func() string {
			return fmt.Sprintf("UPDATE tp SET c = %s, small = %s WHERE id = %s", str(), num(), num())
		},
		func() string {
			return fmt.Sprintf("UPDATE tp SET k = k + %d WHERE id BETWEEN %d AND %d", r.IntN(3), r.IntN(300), r.IntN(300))
		},
		func() string { return fmt.Sprintf("DELETE FROM tp WHERE id = %d", r.IntN(400)) },
		func() string { return fmt.Sprintf("DELETE FROM ta WHERE k < %d LIMIT %d", r.IntN(100), 1+r.IntN(3)) },
		// one text and types, as sysbench's oltp_insert sends
		func() string {
			return fmt.Sprintf("INSERT INTO ta (k, c) VALUES (%d, 'c%d')", r.IntN(1000), r.IntN(1000))
		},
		func() string {
			return fmt.Sprintf("INSERT INTO ta (k, c) VALUES (%d, 'c%d')", r.IntN(1000), r.IntN(1000))
		},
	}
	ctx := context.Background()
	for run := 0; run < 1200; run++ {
		q := shapes[r.IntN(len(shapes))]()
		var affected, lastID [2]int64
		var warns [2][]string
		res0, err0 := c0.ExecContext(ctx, q)
		warns[0] = queryRows(t, c0, "SHOW WARNINGS")
		res1, err1 := c1.ExecContext(ctx, q)
		warns[1] = queryRows(t, c1, "SHOW WARNINGS")
		errs := [2]error{err0, err1}
		if err0 == nil {
			affected[0], _ = res0.RowsAffected()
			lastID[0], _ = res0.LastInsertId()
		}
		if err1 == nil {
			affected[1], _ = res1.RowsAffected()
			lastID[1], _ = res1.LastInsertId()
		}
		if (errs[0] == nil) != (errs[1] == nil) || (errs[0] != nil && errs[0].Error() != errs[1].Error()) {
			t.Fatalf("%s: error %v, without templates %v", q, errs[1], errs[0])
		}
		if affected != [2]int64{affected[0], affected[0]} || lastID != [2]int64{lastID[0], lastID[0]} {
			t.Fatalf("%s: rows %d id %d, without templates rows %d id %d", q, affected[1], lastID[1], affected[0], lastID[0])
		}
		if !slices.Equal(warns[0], warns[1]) {
			t.Fatalf("%s: warnings %q, without templates %q", q, warns[1], warns[0])
		}
		if run%50 == 49 {
			for _, tbl := range []string{"tp", "ta"} {
				want := queryRows(t, c0, "SELECT * FROM "+tbl+" ORDER BY id")
				if got := queryRows(t, c1, "SELECT * FROM "+tbl+" ORDER BY id"); !slices.Equal(got, want) {
					t.Fatalf("after %s: %s differs:\n got %q\nwant %q", q, tbl, got, want)
				}
			}
			if got, want := queryRows(t, c1, "SELECT LAST_INSERT_ID()"), queryRows(t, c0, "SELECT LAST_INSERT_ID()"); !slices.Equal(got, want) {
				t.Fatalf("LAST_INSERT_ID() %q, without templates %q", got, want)
			}
		}
	}
	// (The point writes among them take the fast path, from the same
	// template text: pointwrite.go.)
	t.Logf("%d statements from templates, %d point writes", fast.s.mh.plans.Rebound.Load(), fast.s.mh.stats.PointWrites.Load())
	if n := fast.s.mh.plans.Rebound.Load() + fast.s.mh.stats.PointWrites.Load(); n < 300 {
		t.Fatalf("%d INSERTs ran from templates or as point writes", n)
	}
}
