package sqlbackend

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
)

// coverSetup creates d.cv, whose secondary indexes hold columns of many
// kinds (and some whose keys cannot be read back), with rows holding
// NULLs, 0x00 bytes, negative numbers and text in mixed case, and d.o,
// a table to join cv from.
func coverSetup(t *testing.T, b *TestBackend, ctx *sql.Context) {
	t.Helper()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		`CREATE TABLE cv (
		  id INT NOT NULL, b VARBINARY(6) NOT NULL,
		  i INT NULL, u BIGINT UNSIGNED NULL, dt DATETIME(3) NULL, dd DATE NULL,
		  m DECIMAL(7,2) NULL, y YEAR NULL, e ENUM('x','y','z') NULL,
		  s VARCHAR(20) COLLATE utf8mb4_general_ci NULL, f DOUBLE NULL, tx TEXT NULL,
		  PRIMARY KEY (id, b),
		  KEY ki (i, dt), KEY km (m), KEY ky (y, e, dd), KEY ks (s, i), KEY kf (f), KEY kp (tx(3)),
		  UNIQUE KEY uu (u))`,
		"CREATE TABLE o (k INT PRIMARY KEY, v INT)")
	var rows []string
	for n := 1; n <= 240; n++ {
		null := func(every int, v string) string {
			if n%every == 0 {
				return "NULL"
			}
			return v
		}
		bin := fmt.Sprintf("X'%02x00%02x'", n%3, n%5)
		if n%4 == 0 {
			bin = fmt.Sprintf("X'%02x'", n%7)
		}
		words := []string{"Abc", "abc", "ABD", "éa", "ea", "zz "}
		rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)",
			n/2, bin,
			null(9, fmt.Sprint(n%11-5)),
			null(7, fmt.Sprint(uint64(n)*1000003+18446744073000000000)),
			null(8, fmt.Sprintf("'2024-%02d-%02d %02d:00:01.%03d'", n%12+1, n%28+1, n%24, n%1000)),
			null(10, fmt.Sprintf("'20%02d-01-%02d'", n%30, n%28+1)),
			null(6, fmt.Sprintf("%d.%02d", n%200-100, n%100)),
			null(13, fmt.Sprint(1990+n%40)),
			null(5, fmt.Sprintf("'%c'", 'x'+n%3)),
			null(12, "'"+words[n%len(words)]+"'"),
			null(11, fmt.Sprintf("%d.25", n%9-4)),
			null(14, "'"+strings.Repeat(words[n%len(words)], 2)+"'")))
	}
	b.MustExec(t, ctx, "INSERT INTO cv VALUES "+strings.Join(rows, ", "))
	b.MustExec(t, ctx, "INSERT INTO o VALUES (1, -3), (2, 0), (3, 4), (4, 99), (5, NULL)")
}

// coverQueries are reads through secondary indexes whose entries hold
// every column they read: each must decode its rows from the entries.
// The form is a format with one %s: nothing for the covering read, and
// an extra column (s, whose key is a sort key) for the same read through
// the primary rows.
var coverQueries = []string{
	"SELECT i, dt, id, b%s FROM cv WHERE i BETWEEN -2 AND 2 ORDER BY i, dt, id, b",
	"SELECT id, b, dt%s FROM cv WHERE i = 1 AND dt >= '2024-06-01' ORDER BY id, b",
	"SELECT m, id%s FROM cv WHERE m > -50.5 ORDER BY m, id, b",
	"SELECT m%s FROM cv WHERE m IS NULL OR m < -90 ORDER BY m, id, b",
	"SELECT y, e, dd, b%s FROM cv WHERE y >= 2010 ORDER BY y, e, dd, id, b",
	"SELECT e, id%s FROM cv WHERE y = 2006 AND e = 'y' ORDER BY id, b",
	"SELECT u, id, b%s FROM cv WHERE u > 18446744073100000000 ORDER BY u, id, b",
	"SELECT u%s FROM cv WHERE u IS NULL ORDER BY id, b",
	"SELECT HEX(b), id%s FROM cv WHERE i < 0 ORDER BY id, b",
	"SELECT MOD(id, 3), COUNT(*), MAX(dt)%s FROM cv WHERE i > 0 GROUP BY MOD(id, 3) ORDER BY 1",
	"SELECT o.k, cv.id, HEX(cv.b)%s FROM o JOIN cv ON cv.i = o.v ORDER BY o.k, cv.id, cv.b",
	"SELECT o.k, cv.dt%s FROM o LEFT JOIN cv ON cv.i = o.v AND cv.dt > '2024-10-01' ORDER BY o.k, cv.id, cv.b",
}

// TestCoveringReads checks each covering read against the same read
// through the primary rows: over committed data, within a transaction
// that wrote rows of its own, and in a REPEATABLE READ snapshot that
// another session's later changes do not reach; a locking read takes
// the primary rows. A decode that gave back any other value fails it.
func TestCoveringReads(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	coverSetup(t, b, ctx)
	sess := SessionOf(ctx)
	run := func(label, q string, wantKeyOnly bool) []string {
		t.Helper()
		before := sess.keyOnlyWalks
		got, err := b.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %s: %v", label, q, err)
		}
		if used := sess.keyOnlyWalks > before; used != wantKeyOnly {
			t.Fatalf("%s: %s: key-only read %v, want %v", label, q, used, wantKeyOnly)
		}
		return got
	}
	check := func(label string) {
		t.Helper()
		for _, form := range coverQueries {
			covered := run(label, fmt.Sprintf(form, ""), true)
			whole := run(label, fmt.Sprintf(form, ", s"), false)
			if len(covered) == 0 {
				t.Fatalf("%s: %s: no rows", label, form)
			}
			for i := range whole {
				whole[i] = whole[i][:strings.LastIndexByte(whole[i], '|')]
			}
			if strings.Join(covered, "\n") != strings.Join(whole, "\n") {
				i := 0
				for i < len(covered) && i < len(whole) && covered[i] == whole[i] {
					i++
				}
				t.Fatalf("%s: %s: %d rows covering, %d whole; row %d: %q, want %q", label, form,
					len(covered), len(whole), i, at(covered, i), at(whole, i))
			}
		}
	}
	check("committed")

	b.MustExec(t, ctx, "BEGIN",
		"INSERT INTO cv (id, b, i, dt, m, y, e, u) VALUES (500, X'00', 1, '2024-07-01', -99.99, 2011, 'y', 18446744073709551615)",
		"UPDATE cv SET i = -1, m = 12.5 WHERE id < 20",
		"DELETE FROM cv WHERE id BETWEEN 40 AND 45")
	check("transaction")
	// A locking read locks and re-reads whole rows.
	run("locking", "SELECT i, id, b FROM cv WHERE i = 1 FOR UPDATE", false)
	b.MustExec(t, ctx, "ROLLBACK")

	other := b.Session()
	b.MustExec(t, other, "USE d")
	b.MustExec(t, ctx, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ", "START TRANSACTION WITH CONSISTENT SNAPSHOT")
	snapBefore, err := b.Query(ctx, fmt.Sprintf(coverQueries[0], ""))
	if err != nil {
		t.Fatal(err)
	}
	b.MustExec(t, other, "UPDATE cv SET i = 2, dt = '2030-01-01' WHERE i = -2", "DELETE FROM cv WHERE i = 0")
	check("snapshot")
	if snapAfter := run("snapshot", fmt.Sprintf(coverQueries[0], ""), true); strings.Join(snapAfter, "\n") != strings.Join(snapBefore, "\n") {
		t.Fatalf("the snapshot's covering read sees another session's commit")
	}
	b.MustExec(t, ctx, "COMMIT")
	check("after")
}

// TestNotCoveringReads checks reads whose columns the index entries do
// not hold whole (collated text, a prefix, a DOUBLE): they read the
// primary rows, and give the stored values (case, accents, the whole
// text).
func TestNotCoveringReads(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	coverSetup(t, b, ctx)
	sess := SessionOf(ctx)
	for _, c := range []struct{ q, scan string }{
		{"SELECT s, id FROM cv WHERE s = 'abc' ORDER BY id, b", "SELECT s, id FROM cv WHERE COALESCE(s = 'abc', 0) ORDER BY id, b"},
		{"SELECT i, id FROM cv WHERE s = 'ea' AND i > 0 ORDER BY id, b", "SELECT i, id FROM cv WHERE COALESCE(s = 'ea' AND i > 0, 0) ORDER BY id, b"},
		{"SELECT tx, id FROM cv WHERE tx LIKE 'abc%' ORDER BY id, b", "SELECT tx, id FROM cv WHERE COALESCE(tx LIKE 'abc%', 0) ORDER BY id, b"},
		{"SELECT id FROM cv WHERE tx = 'AbcAbc' ORDER BY id, b", "SELECT id FROM cv WHERE COALESCE(tx = 'AbcAbc', 0) ORDER BY id, b"},
		{"SELECT f, id FROM cv WHERE f > 0 ORDER BY f, id, b", "SELECT f, id FROM cv WHERE COALESCE(f > 0, 0) ORDER BY f, id, b"},
	} {
		before := sess.keyOnlyWalks
		got, err := b.Query(ctx, c.q)
		if err != nil {
			t.Fatalf("%s: %v", c.q, err)
		}
		if sess.keyOnlyWalks != before {
			t.Fatalf("%s: read from the index entries alone", c.q)
		}
		want, err := b.Query(ctx, c.scan)
		if err != nil {
			t.Fatalf("%s: %v", c.scan, err)
		}
		if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("%s:\n got %q\nwant %q", c.q, got, want)
		}
	}
}

func at(rows []string, i int) string {
	if i < len(rows) {
		return rows[i]
	}
	return "(none)"
}
