package sqlbackend

import (
	"strconv"
	"strings"
	"testing"
)

func TestCosterSecondaryMerge(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE inventory (id INT NOT NULL PRIMARY KEY, film_id INT NOT NULL, KEY ifilm (film_id))",
		"CREATE TABLE rental (id INT NOT NULL PRIMARY KEY, inventory_id INT NOT NULL, returned INT NULL, KEY iinventory (inventory_id))",
		"INSERT INTO inventory WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM s WHERE n < 1000) SELECT n, n % 97 FROM s",
		"INSERT INTO rental WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM s WHERE n < 3000) SELECT n, (n * 7919) % 1000 + 1, IF(n % 17 = 0, NULL, n) FROM s")
	q := "SELECT i.film_id % 5 AS g, COUNT(*) FROM rental r JOIN inventory i ON i.id = r.inventory_id WHERE r.returned IS NOT NULL GROUP BY i.film_id % 5 ORDER BY g"
	p := b.PlanOf(t, ctx, q)
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
	b.ExpectRows(t, ctx, q, want...)
}

// TestCosterLookupOverhead: a join of every row of one table to another
// by its primary key reads both tables once instead of one lookup per
// row; a join from one row filtered by its key stays a lookup.
func TestCosterLookupOverhead(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE rental (id INT NOT NULL PRIMARY KEY, inventory_id INT NOT NULL)",
		"CREATE TABLE payment (id INT NOT NULL PRIMARY KEY, rental_id INT NULL, amount INT NOT NULL, customer_id INT NOT NULL, UNIQUE KEY urental (rental_id), KEY icust (customer_id))",
		"INSERT INTO rental WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM s WHERE n < 3000) SELECT n, n % 50 FROM s",
		"INSERT INTO payment WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM s WHERE n < 2900) SELECT n, n + 7, n % 9, n % 300 FROM s")
	q := "SELECT r.inventory_id % 3 AS g, SUM(p.amount) FROM payment p JOIN rental r ON r.id = p.rental_id GROUP BY r.inventory_id % 3 ORDER BY g"
	if p := b.PlanOf(t, ctx, q); strings.Contains(p, "LookupJoin") || strings.Contains(p, "RangeRead(rental)") {
		t.Errorf("a lookup per payment:\n%s", p)
	}
	sums := map[int]int{}
	for n := 1; n <= 2900; n++ {
		if r := n + 7; r <= 3000 {
			sums[(r%50)%3] += n % 9
		}
	}
	b.ExpectRows(t, ctx, q, "0|"+strconv.Itoa(sums[0]), "1|"+strconv.Itoa(sums[1]), "2|"+strconv.Itoa(sums[2]))
	q = "SELECT p.id, r.inventory_id FROM payment p JOIN rental r ON r.id = p.rental_id WHERE p.customer_id = 12 ORDER BY p.id"
	if p := b.PlanOf(t, ctx, q); !strings.Contains(p, "LookupJoin") && !strings.Contains(p, "IndexedTableAccess(rental)") && !strings.Contains(p, "RangeRead(rental)") {
		t.Errorf("ten payments do not look their rentals up:\n%s", p)
	}
	b.ExpectRows(t, ctx, q, "12|19", "312|19", "612|19", "912|19", "1212|19", "1512|19", "1812|19", "2112|19", "2412|19", "2712|19")
	q = "SELECT p.id, r.inventory_id FROM payment p JOIN rental r ON r.id = p.rental_id WHERE p.amount * 1000 + p.customer_id = 3012 ORDER BY p.id"
	if p := b.PlanOf(t, ctx, q); !strings.Contains(p, "LookupJoin") && !strings.Contains(p, "IndexedTableAccess(rental)") && !strings.Contains(p, "RangeRead(rental)") {
		t.Errorf("a filtered scan of payments does not look its rentals up:\n%s", p)
	}
	b.ExpectRows(t, ctx, q, "12|19", "912|19", "1812|19", "2712|19")
}
