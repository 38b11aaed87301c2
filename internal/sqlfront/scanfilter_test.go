package sqlfront

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// TestScanFilter compares WHERE conditions that sqlbackend's scanFilter
// checks on the engine's rows (IS NULL, IS NOT NULL, integer and date
// comparisons, text and ENUM equality, IN lists), over whole reads and reads of
// an index's ranges, with the same conditions wrapped
// in IS TRUE, which go-mysql-server alone evaluates: random rows (NULLs,
// zero dates in a NOT NULL column, text differing in case, accents and
// trailing spaces) and random conjunctions, the same rows each time.
func TestScanFilter(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "SET sql_mode = ''", "CREATE DATABASE sf",
		"CREATE TABLE sf.t (id INT PRIMARY KEY, i TINYINT NULL, u INT UNSIGNED NULL, b BIGINT NULL, "+
			"v VARCHAR(12) NULL, ch CHAR(6) NULL, vb VARCHAR(8) COLLATE utf8mb4_bin NULL, "+
			"e ENUM('basic','silver','Gold') NULL, d DATE NULL, dn DATE NOT NULL, dt DATETIME NULL, KEY ii (i))")
	r := rand.New(rand.NewPCG(3, 11))
	texts := []string{"abc", "ABC", "abc ", "äbc", "abd", "", " abc", "x"}
	ints := []string{"0", "1", "-1", "5", "-128", "127", "100", "4000000000", "-9000000000"}
	dates := []string{"2024-01-05", "2024-01-06", "2023-12-31", "0000-00-00", "2024-02-30"}
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	orNull := func(v string) string {
		if r.IntN(5) == 0 {
			return "NULL"
		}
		return v
	}
	var rows []string
	for id := range 300 {
		rows = append(rows, fmt.Sprintf("(%d,%s,%s,%s,%s,%s,%s,%s,%s,'%s',%s)", id,
			orNull(fmt.Sprint(r.IntN(256)-128)), orNull(fmt.Sprint(r.IntN(200))), orNull(pick(ints)),
			orNull("'"+pick(texts)+"'"), orNull("'"+pick(texts)+"'"), orNull("'"+pick(texts)+"'"),
			orNull("'"+pick([]string{"basic", "silver", "Gold", "gold"})+"'"),
			orNull("'"+pick(dates)+"'"), pick(dates), orNull("'"+pick(dates)+" 1"+fmt.Sprint(r.IntN(10))+":00:00'")))
	}
	mustExec(t, c, "INSERT INTO sf.t VALUES "+strings.Join(rows, ","))
	cols := []string{"i", "u", "b", "v", "ch", "vb", "e", "d", "dn", "dt"}
	ops := []string{"=", "<", "<=", ">", ">="}
	atom := func() string {
		col := pick(cols)
		switch r.IntN(9) {
		case 8:
			// an IN list, sometimes with a NULL member
			var ms []string
			for range 1 + r.IntN(3) {
				switch col {
				case "i", "u", "b":
					ms = append(ms, pick(ints))
				case "v", "ch", "vb":
					ms = append(ms, "'"+pick(texts)+"'")
				case "e":
					ms = append(ms, "'"+pick([]string{"gold", "Gold", "basic", "silver ", "x"})+"'")
				default:
					ms = append(ms, "'"+pick(dates)+"'")
				}
			}
			if r.IntN(4) == 0 {
				ms = append(ms, "NULL")
			}
			return col + " IN (" + strings.Join(ms, ", ") + ")"
		case 0:
			return col + " IS NULL"
		case 1:
			return col + " IS NOT NULL"
		case 2:
			return "NOT (" + col + " IS NULL)"
		case 3:
			return col + " = NULL"
		}
		var lit string
		op := pick(ops)
		switch col {
		case "i", "u", "b":
			lit = pick(ints)
		case "v", "ch", "vb":
			lit, op = "'"+pick(texts)+"'", "="
		case "e":
			lit, op = "'"+pick([]string{"gold", "GOLD", "Gold", "silver ", "1", "x", ""})+"'", "="
		default:
			lit = "'" + pick(dates) + "'"
			if col == "dt" && r.IntN(2) == 0 {
				lit = "'" + pick(dates) + " 12:00:00'"
			}
			if r.IntN(3) == 0 {
				lit = "DATE" + lit[:11] + "'"
			}
		}
		if r.IntN(3) == 0 {
			flip := map[string]string{"=": "=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
			return lit + " " + flip[op] + " " + col
		}
		return col + " " + op + " " + lit
	}
	before := sqlbackend.ScanFilterReads()
	kept, conds := 0, 0
	for range 400 {
		n := 1 + r.IntN(3)
		var as []string
		for range n {
			as = append(as, atom())
		}
		cond := strings.Join(as, " AND ")
		// (without ORDER BY a whole read of the table; with it, of the
		// primary key's range; a condition on i may read ranges of ii)
		order := ""
		if r.IntN(3) == 0 {
			order = " ORDER BY id"
		}
		got := queryRows(t, c, "SELECT id FROM sf.t WHERE "+cond+order)
		want := queryRows(t, c, "SELECT id FROM sf.t WHERE ("+cond+") IS TRUE"+order)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("WHERE %s: %d rows %v, want %d rows %v", cond, len(got), got, len(want), want)
		}
		kept += len(got)
		conds++
	}
	// Prepared statements run again with other values, and texts that
	// differ only in their literals: plan templates put the new values
	// in the condition, and the checks are made from it each time.
	for i := range 60 {
		x, txt := r.IntN(300)-150, pick(texts)
		q := "SELECT id FROM sf.t WHERE i > ? AND v = ? AND e = ?"
		args := []any{x, txt, pick([]string{"Gold", "basic", "silver"})}
		if i%2 == 1 {
			q = fmt.Sprintf("SELECT id FROM sf.t WHERE i > %d AND v = '%s' AND e = '%s'", x, txt, args[2])
			args = nil
		}
		got := queryRows(t, c, q, args...)
		want := queryRows(t, c, strings.Replace(q, "WHERE ", "WHERE (", 1)+") IS TRUE", args...)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%s %v: %v, want %v", q, args, got, want)
		}
		conds++
	}
	reads := sqlbackend.ScanFilterReads() - before
	if reads < int64(conds)/2 {
		t.Fatalf("%d of %d conditions read through early checks", reads, conds)
	}
	t.Logf("%d conditions, %d through early checks, %d rows kept", conds, reads, kept)
}
