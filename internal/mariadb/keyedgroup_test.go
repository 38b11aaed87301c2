package mariadb

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/transform"
)

// TestKeyedGroup compares GROUP BY answers, run by keyedGroupBy, with
// the same groups computed here from random rows: integer and NULL keys,
// two keys, an expression key, a GROUP BY in a derived table and in a
// correlated subquery (whose rows carry the outer row), and checks that
// the plans use the node.
func TestKeyedGroup(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE c (id INT PRIMARY KEY)",
		"CREATE TABLE t (id INT PRIMARY KEY, c INT NOT NULL, k INT NULL, v INT NOT NULL, KEY ic (c))")
	rng := rand.New(rand.NewSource(26))
	type row struct{ c, k, v int } // k -1: NULL
	var rows []row
	var vals []string
	for i := 1; i <= 400; i++ {
		r := row{c: rng.Intn(12) + 1, k: rng.Intn(9) - 1, v: rng.Intn(100)}
		rows = append(rows, r)
		k := "NULL"
		if r.k >= 0 {
			k = fmt.Sprint(r.k)
		}
		vals = append(vals, fmt.Sprintf("(%d, %d, %s, %d)", i, r.c, k, r.v))
	}
	b.MustExec(t, ctx, "INSERT INTO c VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10),(11),(12),(13)",
		"INSERT INTO t VALUES "+strings.Join(vals, ", "))
	key := func(k int) string {
		if k < 0 {
			return "NULL"
		}
		return fmt.Sprint(k)
	}
	type agg struct{ n, sum, max int }
	group := func(by func(r row) string) map[string]*agg {
		m := map[string]*agg{}
		for _, r := range rows {
			g := m[by(r)]
			if g == nil {
				g = &agg{max: -1}
				m[by(r)] = g
			}
			g.n++
			g.sum += r.v
			g.max = max(g.max, r.v)
		}
		return m
	}
	sorted := func(m map[string]*agg, f func(k string, g *agg) string) []string {
		var out []string
		for k, g := range m {
			out = append(out, f(k, g))
		}
		sort.Strings(out)
		return out
	}
	byK := group(func(r row) string { return key(r.k) })
	b.ExpectRows(t, ctx, "SELECT CONCAT(COALESCE(k, 'NULL'), '|', COUNT(*), '|', SUM(v)) AS x FROM t GROUP BY k ORDER BY x",
		sorted(byK, func(k string, g *agg) string { return fmt.Sprintf("%s|%d|%d", k, g.n, g.sum) })...)
	byCK := group(func(r row) string { return fmt.Sprintf("%02d|%s", r.c, key(r.k)) })
	b.ExpectRows(t, ctx, "SELECT CONCAT(LPAD(c, 2, '0'), '|', COALESCE(k, 'NULL'), '|', MAX(v)) AS x FROM t GROUP BY c, k ORDER BY x",
		sorted(byCK, func(k string, g *agg) string { return fmt.Sprintf("%s|%d", k, g.max) })...)
	byMod := group(func(r row) string { return fmt.Sprint(r.v % 7) })
	b.ExpectRows(t, ctx, "SELECT CONCAT(m, '|', n) AS x FROM (SELECT v % 7 AS m, COUNT(*) AS n FROM t GROUP BY v % 7) d ORDER BY x",
		sorted(byMod, func(k string, g *agg) string { return fmt.Sprintf("%s|%d", k, g.n) })...)
	// per customer: its largest group by k (a GROUP BY inside a
	// correlated subquery)
	var want []string
	for c := 1; c <= 13; c++ {
		best := ""
		m := map[int]int{}
		for _, r := range rows {
			if r.c == c {
				m[r.k]++
			}
		}
		most := -1
		for _, n := range m {
			most = max(most, n)
		}
		if most >= 0 {
			best = fmt.Sprint(most)
		} else {
			best = "NULL"
		}
		want = append(want, fmt.Sprintf("%d|%s", c, best))
	}
	q := "SELECT c.id, (SELECT COUNT(*) AS n FROM t WHERE t.c = c.id GROUP BY t.k ORDER BY n DESC LIMIT 1) FROM c ORDER BY c.id"
	b.ExpectRows(t, ctx, q, want...)
	const plain = "SELECT k, COUNT(*) FROM t GROUP BY k"
	n, err := b.SE.AnalyzeQuery(ctx.WithQuery(plain), plain)
	if err != nil {
		t.Fatal(err)
	}
	keyed := false
	transform.Inspect(n, func(n sql.Node) bool {
		if _, ok := n.(*keyedGroupBy); ok {
			keyed = true
		}
		return true
	})
	if !keyed {
		t.Errorf("%s: no keyed GROUP BY:\n%s", plain, sql.DebugString(n))
	}
}
