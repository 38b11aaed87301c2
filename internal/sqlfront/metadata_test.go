package sqlfront

import (
	"strings"
	"testing"
	"time"
)

// TestTableTimes: information_schema.TABLES has each table's creation
// time (kept across restarts, moved by a rebuilding ALTER TABLE) and the
// time of the last commit that changed its rows since the server started
// (NULL before one and after a restart); a view has NULL in both, as in
// MariaDB 10.11. go-mysql-server put 2000-01-01 in all of them.
func TestTableTimes(t *testing.T) {
	dir := t.TempDir()
	ts := startTestServer(t, dir, Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE tt", "CREATE TABLE tt.a (id INT PRIMARY KEY, v INT)", "CREATE VIEW tt.va AS SELECT * FROM tt.a")
	times := func() (created, updated map[string]*time.Time) {
		t.Helper()
		created, updated = map[string]*time.Time{}, map[string]*time.Time{}
		rs, err := db.Query("SELECT TABLE_NAME, CREATE_TIME, UPDATE_TIME FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'tt'")
		if err != nil {
			t.Fatal(err)
		}
		defer rs.Close()
		for rs.Next() {
			var name string
			var c, u *string
			if err := rs.Scan(&name, &c, &u); err != nil {
				t.Fatal(err)
			}
			parse := func(s *string) *time.Time {
				if s == nil {
					return nil
				}
				v, err := time.ParseInLocation(time.DateTime, *s, time.Local)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				return &v
			}
			created[name], updated[name] = parse(c), parse(u)
		}
		return created, updated
	}
	within := func(what string, v *time.Time, lo, hi time.Time) {
		t.Helper()
		if v == nil || v.Before(lo.Truncate(time.Second)) || v.After(hi) {
			t.Fatalf("%s = %v, want between %v and %v", what, v, lo, hi)
		}
	}
	before := time.Now()
	mustExec(t, db, "CREATE TABLE tt.b (id INT PRIMARY KEY)")
	c, u := times()
	within("b's CREATE_TIME", c["b"], before, time.Now())
	if u["b"] != nil || c["va"] != nil || u["va"] != nil || u["a"] != nil {
		t.Fatalf("UPDATE_TIME of unwritten tables and view times must be NULL: b %v, va %v/%v, a %v", u["b"], c["va"], u["va"], u["a"])
	}
	createdB := *c["b"]

	w := time.Now()
	mustExec(t, db, "INSERT INTO tt.b VALUES (1)")
	_, u = times()
	within("b's UPDATE_TIME after an INSERT", u["b"], w, time.Now())
	if u["a"] != nil {
		t.Fatalf("a's UPDATE_TIME = %v after a write to b", u["a"])
	}
	time.Sleep(1100 * time.Millisecond)
	w = time.Now()
	mustExec(t, db, "UPDATE tt.b SET id = 2 WHERE id = 2", "INSERT INTO tt.a VALUES (1, 1)")
	_, u = times()
	if u["b"].After(w) {
		t.Fatalf("an UPDATE that changed nothing moved b's UPDATE_TIME to %v", u["b"])
	}
	mustExec(t, db, "UPDATE tt.a SET v = 2")
	_, u = times()
	within("a's UPDATE_TIME after an UPDATE", u["a"], w, time.Now())

	ts.stop()
	ts = startTestServer(t, dir, Config{})
	db = ts.open("")
	c, u = times()
	if c["b"] == nil || !c["b"].Equal(createdB) || u["b"] != nil {
		t.Fatalf("after a restart b's times are %v/%v, want %v/NULL", c["b"], u["b"], createdB)
	}
	w = time.Now()
	mustExec(t, db, "ALTER TABLE tt.b ADD COLUMN x INT")
	c, _ = times()
	within("b's CREATE_TIME after ALTER TABLE", c["b"], w, time.Now())
}

// TestYearZeroText: a YEAR holding 0 is sent as 0000 in text results, as
// MariaDB sends every YEAR with four digits (go-mysql-server sent 0,
// which the mariadb CLI printed as 0 and go-sql-driver reads alike, so
// the raw bytes are read with vitess's client). The binary protocol sends
// the number.
func TestYearZeroText(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.rawConn()
	for _, q := range []string{"CREATE DATABASE yz", "CREATE TABLE yz.t (id INT PRIMARY KEY, y YEAR)", "INSERT INTO yz.t VALUES (1, 0), (2, 1999), (3, NULL)"} {
		if _, err := c.ExecuteFetch(q, 10, false); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	r, err := c.ExecuteFetch("SELECT id, y FROM yz.t ORDER BY id", 10, true)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range r.Rows {
		got = append(got, row[0].ToString()+"|"+row[1].ToString())
	}
	if want := "1|0000 2|1999 3|"; strings.Join(got, " ") != want {
		t.Fatalf("text rows %q, want %q", strings.Join(got, " "), want)
	}
	var y int
	if err := ts.open("").QueryRow("SELECT y FROM yz.t WHERE id = ?", 1).Scan(&y); err != nil || y != 0 {
		t.Fatalf("binary YEAR 0: %d, %v", y, err)
	}
}

// TestAliasCaseInFields: a result field's table is the alias as the
// statement spells it (go-mysql-server lower-cased aliases and derived
// tables' names: a.one for A.one in go-sql-driver's columnsWithAlias),
// and, for a FLOAT field, its original table the table itself, so the
// column's digits are kept.
func TestAliasCaseInFields(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.rawConn()
	for _, q := range []string{"CREATE DATABASE ac", "USE ac", "CREATE TABLE tb (id INT PRIMARY KEY, f FLOAT(7,2))", "INSERT INTO tb VALUES (1, 1.5)"} {
		if _, err := c.ExecuteFetch(q, 10, false); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	for q, want := range map[string]string{
		"SELECT * FROM (SELECT 1 AS one) AS A": "A",
		"SELECT Xy.id FROM tb AS Xy":           "Xy",
		"SELECT xy.id FROM tb AS xy":           "xy",
		"SELECT id FROM tb":                    "tb",
	} {
		r, err := c.ExecuteFetch(q, 10, true)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if got := r.Fields[0].Table; got != want {
			t.Errorf("%s: table %q, want %q", q, got, want)
		}
	}
	// Through an alias the original table is the table itself, and the
	// column's FLOAT(7,2) digits are kept (they were lost: 1.5).
	for _, q := range []string{"SELECT Xy.f FROM tb AS Xy", "SELECT x.f FROM ac.tb x JOIN tb y USING (id)", "SELECT `q`.f FROM `ac`.`tb` AS `q`"} {
		r, err := c.ExecuteFetch(q, 10, true)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if f := r.Fields[0]; f.OrgTable != "tb" || r.Rows[0][0].ToString() != "1.50" {
			t.Errorf("%s: original table %q, value %q; want tb, 1.50", q, f.OrgTable, r.Rows[0][0].ToString())
		}
	}
}
