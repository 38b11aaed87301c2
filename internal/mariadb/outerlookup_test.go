package mariadb

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestOuterLookup compares correlated subqueries over three-table joins
// (whose hash joins outerLookupRule makes lookups) with the same answers
// computed by one outer join and GROUP BY, on random rows with NULL and
// dangling keys, for key columns of several types; and checks which
// subquery plans got lookup joins.
func TestOuterLookup(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	rng := rand.New(rand.NewSource(26))
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d")
	kinds := []struct {
		name           string
		rKey, iKey     string // r.iid and i.id
		iFilm, filmKey string // i.fid and f.id
		lookups        bool
	}{
		{"ints", "INT NULL", "BIGINT NOT NULL", "SMALLINT NOT NULL", "INT NOT NULL", true},
		{"text", "INT NULL", "INT NOT NULL", "VARCHAR(8) NOT NULL", "VARCHAR(8) NOT NULL", true},
		// text against a number compares as numbers: no lookup
		{"mixed", "INT NULL", "INT NOT NULL", "VARCHAR(8) NOT NULL", "INT NOT NULL", false},
	}
	for _, k := range kinds {
		b.MustExec(t, ctx,
			fmt.Sprintf("CREATE TABLE c_%s (id INT PRIMARY KEY, name VARCHAR(10))", k.name),
			fmt.Sprintf("CREATE TABLE r_%s (id INT PRIMARY KEY, cid INT NOT NULL, iid %s, KEY icid (cid))", k.name, k.rKey),
			fmt.Sprintf("CREATE TABLE i_%s (id %s PRIMARY KEY, fid %s)", k.name, k.iKey, k.iFilm),
			fmt.Sprintf("CREATE TABLE f_%s (id %s PRIMARY KEY, title VARCHAR(20), v INT)", k.name, k.filmKey))
		var rows []string
		for i := 1; i <= 30; i++ {
			rows = append(rows, fmt.Sprintf("(%d, 'c%d')", i, i))
		}
		b.MustExec(t, ctx, fmt.Sprintf("INSERT INTO c_%s VALUES %s", k.name, strings.Join(rows, ", ")))
		rows = rows[:0]
		for i := 1; i <= 200; i++ {
			iid := fmt.Sprint(rng.Intn(60) + 1) // 1..60, some without an inventory row
			if rng.Intn(12) == 0 {
				iid = "NULL"
			}
			rows = append(rows, fmt.Sprintf("(%d, %d, %s)", i, rng.Intn(25)+1, iid))
		}
		b.MustExec(t, ctx, fmt.Sprintf("INSERT INTO r_%s VALUES %s", k.name, strings.Join(rows, ", ")))
		rows = rows[:0]
		for i := 1; i <= 50; i++ {
			rows = append(rows, fmt.Sprintf("(%d, '%d')", i, rng.Intn(25)+1)) // films 1..25, some missing
		}
		b.MustExec(t, ctx, fmt.Sprintf("INSERT INTO i_%s VALUES %s", k.name, strings.Join(rows, ", ")))
		rows = rows[:0]
		for i := 1; i <= 20; i++ {
			rows = append(rows, fmt.Sprintf("('%d', 't%02d', %d)", i, rng.Intn(20), rng.Intn(100)))
		}
		b.MustExec(t, ctx, fmt.Sprintf("INSERT INTO f_%s VALUES %s", k.name, strings.Join(rows, ", ")))

		join := fmt.Sprintf("r_%[1]s r JOIN i_%[1]s i ON i.id = r.iid JOIN f_%[1]s f ON f.id = i.fid", k.name)
		pairs := []struct{ sub, flat string }{
			{"COUNT(*)", "COUNT(f.id)"},
			{"SUM(f.v)", "SUM(f.v)"},
			{"GROUP_CONCAT(f.title ORDER BY f.title, r.id)", "GROUP_CONCAT(f.title ORDER BY f.title, r.id)"},
			{"MAX(r.id)", "MAX(IF(f.id IS NULL, NULL, r.id))"},
		}
		for _, p := range pairs {
			sub := fmt.Sprintf("SELECT c.id, (SELECT %s FROM %s WHERE r.cid = c.id) FROM c_%s c ORDER BY c.id", p.sub, join, k.name)
			flat := fmt.Sprintf("SELECT c.id, %s FROM c_%[3]s c LEFT JOIN (%[2]s) ON r.cid = c.id GROUP BY c.id ORDER BY c.id", p.flat, join, k.name)
			want, err := b.Query(ctx, flat)
			if err != nil {
				t.Fatalf("%s: %v", flat, err)
			}
			if p.sub == "COUNT(*)" {
				// an empty COUNT(*) subquery is 0, not NULL
				for i, w := range want {
					want[i] = strings.Replace(w, "|NULL", "|0", 1)
				}
			}
			b.ExpectRows(t, ctx, sub, want...)
			plan := b.PlanOf(t, ctx, sub)
			if got := lookupJoins(plan) == 2; got != k.lookups {
				t.Errorf("%s: two lookup joins %v, want %v:\n%s", sub, got, k.lookups, plan)
			}
		}
	}
}

// TestOuterLookupSwap: a correlated subquery whose join scans a whole
// table and probes the outer row's few rows of the other (the filter on
// the outer row falls on the join's second table) is planned with the
// sides swapped, the outer row's rows leading a lookup join, when the
// join feeds a GROUP BY; its answers are those of the same report as one
// outer join.
func TestOuterLookupSwap(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	rng := rand.New(rand.NewSource(31))
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE s (id INT PRIMARY KEY)",
		"CREATE TABLE inv (id INT PRIMARY KEY, sid INT NULL, KEY isid (sid))",
		"CREATE TABLE ren (id INT PRIMARY KEY, iid INT NULL, at INT NOT NULL, KEY iiid (iid))")
	var rows []string
	for i := 1; i <= 8; i++ {
		rows = append(rows, fmt.Sprintf("(%d)", i))
	}
	b.MustExec(t, ctx, "INSERT INTO s VALUES "+strings.Join(rows, ", "))
	rows = rows[:0]
	for i := 1; i <= 60; i++ {
		sid := fmt.Sprint(rng.Intn(7) + 1) // store 8 has none
		if rng.Intn(10) == 0 {
			sid = "NULL"
		}
		rows = append(rows, fmt.Sprintf("(%d, %s)", i, sid))
	}
	b.MustExec(t, ctx, "INSERT INTO inv VALUES "+strings.Join(rows, ", "))
	rows = rows[:0]
	for i := 1; i <= 300; i++ {
		iid := fmt.Sprint(rng.Intn(70) + 1) // some without an inventory row
		if rng.Intn(12) == 0 {
			iid = "NULL"
		}
		rows = append(rows, fmt.Sprintf("(%d, %s, %d)", i, iid, rng.Intn(1000)))
	}
	b.MustExec(t, ctx, "INSERT INTO ren VALUES "+strings.Join(rows, ", "))
	for _, agg := range []string{"MAX(ren.at)", "SUM(ren.at)", "GROUP_CONCAT(ren.id ORDER BY ren.id)", "COUNT(ren.id)"} {
		sub := fmt.Sprintf("SELECT s.id, (SELECT %s FROM ren JOIN inv ON inv.id = ren.iid WHERE inv.sid = s.id) FROM s ORDER BY s.id", agg)
		flat := fmt.Sprintf("SELECT s.id, %s FROM s LEFT JOIN (ren JOIN inv ON inv.id = ren.iid) ON inv.sid = s.id GROUP BY s.id ORDER BY s.id", agg)
		want, err := b.Query(ctx, flat)
		if err != nil {
			t.Fatalf("%s: %v", flat, err)
		}
		b.ExpectRows(t, ctx, sub, want...)
		plan := b.PlanOf(t, ctx, sub)
		if lookupJoins(plan) == 0 || strings.Contains(plan, "HashJoin") {
			t.Errorf("%s: not a lookup join:\n%s", sub, plan)
		}
	}
}

// TestPointLookupJoins: a join led by an index lookup of constant points
// (WHERE r.cid = 5, as a stored function's statement is once its
// parameter is put in) reads the other tables through their indexes, as
// the same query's answer computed without the lookup (r.cid + 0 = 5)
// says it must.
func TestPointLookupJoins(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	rng := rand.New(rand.NewSource(12))
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE r (id INT PRIMARY KEY, cid INT NOT NULL, iid INT NULL, KEY icid (cid))",
		"CREATE TABLE i (id INT PRIMARY KEY, fid SMALLINT NOT NULL)",
		"CREATE TABLE f (id INT PRIMARY KEY, v DECIMAL(5,2) NOT NULL)")
	var rows []string
	for n := 1; n <= 300; n++ {
		iid := fmt.Sprint(rng.Intn(90) + 1)
		if rng.Intn(10) == 0 {
			iid = "NULL"
		}
		rows = append(rows, fmt.Sprintf("(%d, %d, %s)", n, rng.Intn(30), iid))
	}
	b.MustExec(t, ctx, "INSERT INTO r VALUES "+strings.Join(rows, ", "))
	rows = rows[:0]
	for n := 1; n <= 80; n++ {
		rows = append(rows, fmt.Sprintf("(%d, %d)", n, rng.Intn(25)+1))
	}
	b.MustExec(t, ctx, "INSERT INTO i VALUES "+strings.Join(rows, ", "))
	rows = rows[:0]
	for n := 1; n <= 20; n++ {
		rows = append(rows, fmt.Sprintf("(%d, %d.%02d)", n, rng.Intn(10), rng.Intn(100)))
	}
	b.MustExec(t, ctx, "INSERT INTO f VALUES "+strings.Join(rows, ", "))
	for _, where := range []string{"r.cid = 5", "r.cid IN (3, 7, 11)", "r.cid = 29 AND r.iid > 10"} {
		q := "SELECT COUNT(*), SUM(f.v), GROUP_CONCAT(r.id ORDER BY r.id) FROM r JOIN i ON i.id = r.iid JOIN f ON f.id = i.fid WHERE " + where
		ref := strings.Replace(q, "r.cid", "r.cid + 0", -1)
		want, err := b.Query(ctx, ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		b.ExpectRows(t, ctx, q, want...)
		plan := b.PlanOf(t, ctx, q)
		if lookupJoins(plan) != 2 || strings.Contains(plan, "HashJoin") {
			t.Errorf("%s: not two lookup joins:\n%s", q, plan)
		}
	}
}

// lookupJoins counts a plan's joins that look the inner row up for each
// outer one: go-mysql-server's lookup joins and those of them turned into
// a range read of that key (sqlbackend's keyLookupJoin: RangeRead).
func lookupJoins(plan string) int {
	return strings.Count(plan, "LookupJoin") + strings.Count(plan, "RangeRead(")
}
