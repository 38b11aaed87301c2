package sqlbackend

import (
	"strconv"
	"strings"
	"testing"
)

func TestCosterSecondaryMerge(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.session()
	b.mustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE inventory (id INT NOT NULL PRIMARY KEY, film_id INT NOT NULL, KEY ifilm (film_id))",
		"CREATE TABLE rental (id INT NOT NULL PRIMARY KEY, inventory_id INT NOT NULL, returned INT NULL, KEY iinventory (inventory_id))",
		"INSERT INTO inventory WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM s WHERE n < 1000) SELECT n, n % 97 FROM s",
		"INSERT INTO rental WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM s WHERE n < 3000) SELECT n, (n * 7919) % 1000 + 1, IF(n % 17 = 0, NULL, n) FROM s")
	q := "SELECT i.film_id % 5 AS g, COUNT(*) FROM rental r JOIN inventory i ON i.id = r.inventory_id WHERE r.returned IS NOT NULL GROUP BY i.film_id % 5 ORDER BY g"
	p := b.planOf(t, ctx, q)
	// Without the coster, go-mysql-server merges rental's iinventory
	// index with inventory's primary index.
	if strings.Contains(p, "MergeJoin") && strings.Contains(p, "rental.inventory_id") {
		t.Errorf("a merge join over a secondary index:\n%s", p)
	}
	// The counts, computed apart: rental n joins inventory (n*7919)%1000+1.
	counts := map[int]int{}
	for n := 1; n <= 3000; n++ {
		if n%17 != 0 {
			inv := (n*7919)%1000 + 1
			counts[(inv%97)%5]++
		}
	}
	var want []string
	for g := 0; g < 5; g++ {
		want = append(want, strconv.Itoa(g)+"|"+strconv.Itoa(counts[g]))
	}
	b.expectRows(t, ctx, q, want...)
}
