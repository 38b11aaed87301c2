package mariadb

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestMergeKeys joins on an equality whose side is not a column (t.id %
// 13, t.id * -1, t.id DIV 3), which go-mysql-server planned as a merge
// join although the expression does not keep the index's order, and
// compares the counts with the ones computed here from the same rows.
func TestMergeKeys(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	rng := rand.New(rand.NewSource(13))
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE t (id INT PRIMARY KEY)",
		"CREATE TABLE ev (id INT PRIMARY KEY, k INT NULL, KEY (k))")
	var rows []string
	for i := 1; i <= 80; i++ {
		rows = append(rows, fmt.Sprintf("(%d)", i))
	}
	b.MustExec(t, ctx, "INSERT INTO t VALUES "+strings.Join(rows, ", "))
	ks := map[int]int{} // k -> rows of ev with it
	rows = rows[:0]
	for i := 1; i <= 120; i++ {
		k := rng.Intn(40) - 20
		if rng.Intn(10) == 0 {
			rows = append(rows, fmt.Sprintf("(%d, NULL)", i))
			continue
		}
		ks[k]++
		rows = append(rows, fmt.Sprintf("(%d, %d)", i, k))
	}
	b.MustExec(t, ctx, "INSERT INTO ev VALUES "+strings.Join(rows, ", "))
	for _, c := range []struct {
		expr string
		f    func(int) int
	}{
		{"t.id % 13", func(id int) int { return id % 13 }},
		{"t.id * -1", func(id int) int { return -id }},
		{"t.id DIV 3", func(id int) int { return id / 3 }},
		{"20 - t.id", func(id int) int { return 20 - id }},
	} {
		inner, outer := 0, 0
		for id := 1; id <= 80; id++ {
			n := ks[c.f(id)]
			inner += n
			if n == 0 {
				n = 1
			}
			outer += n
		}
		b.ExpectRows(t, ctx, fmt.Sprintf("SELECT COUNT(*) FROM t JOIN ev ON ev.k = %s", c.expr), fmt.Sprint(inner))
		b.ExpectRows(t, ctx, fmt.Sprintf("SELECT COUNT(*) FROM t LEFT JOIN ev ON ev.k = %s", c.expr), fmt.Sprint(outer))
		if plan := b.PlanOf(t, ctx, fmt.Sprintf("SELECT COUNT(*) FROM t JOIN ev ON ev.k = %s", c.expr)); strings.Contains(plan, "MergeJoin") {
			t.Errorf("%s: a merge join:\n%s", c.expr, plan)
		}
	}
}

// TestDecimalHashKeys joins tables on DECIMAL columns, and on a DECIMAL
// expression of integers, large enough that go-mysql-server plans hash
// joins, and compares the counts with the ones computed here.
func TestDecimalHashKeys(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE a (id INT PRIMARY KEY, p DECIMAL(5,2), n INT)",
		"CREATE TABLE c (id INT PRIMARY KEY, p DECIMAL(6,3), n INT)")
	count := map[string]int{}
	var rows []string
	for i := 1; i <= 300; i++ {
		v := fmt.Sprintf("%d.%02d", i%7, (i%3)*25)
		count[v]++
		rows = append(rows, fmt.Sprintf("(%d, %s, %d)", i, v, i%40))
	}
	b.MustExec(t, ctx, "INSERT INTO a VALUES "+strings.Join(rows, ", "), "INSERT INTO c VALUES "+strings.Join(rows, ", "))
	pairs := 0
	for _, n := range count {
		pairs += n * n
	}
	modPairs := 0 // a.n % 13 = c.n
	for i := 1; i <= 300; i++ {
		for j := 1; j <= 300; j++ {
			if (i%40)%13 == j%40 {
				modPairs++
			}
		}
	}
	for q, want := range map[string]int{
		"SELECT COUNT(*) FROM a JOIN c ON c.p = a.p":         pairs,
		"SELECT COUNT(*) FROM a JOIN c ON c.p + 0 = a.p":     pairs,
		"SELECT COUNT(*) FROM a JOIN c ON c.n = a.n % 13":    modPairs,
		"SELECT COUNT(c.id) FROM a LEFT JOIN c ON c.p = a.p": pairs,
	} {
		b.ExpectRows(t, ctx, q, fmt.Sprint(want))
	}
	if plan := b.PlanOf(t, ctx, "SELECT COUNT(*) FROM a JOIN c ON c.p = a.p"); !strings.Contains(plan, "HashJoin") {
		t.Errorf("not a hash join (the case this tests):\n%s", plan)
	}
}
