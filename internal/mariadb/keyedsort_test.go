package mariadb

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestKeyedSort compares ORDER BY (keyedSort's full sort) with ORDER BY
// ... LIMIT k (its bounded heap) for several k, on random text of mixed
// case, accents and trailing spaces, NULLs and computed keys, and checks
// that the plans use it. (Its order against MariaDB's is the corpus'
// 29-order.sql.)
func TestKeyedSort(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE s (id INT PRIMARY KEY, g VARCHAR(20) COLLATE utf8mb4_general_ci NULL, u VARCHAR(20) COLLATE utf8mb4_unicode_ci NULL, n INT NULL, c CHAR(10) NULL)")
	rng := rand.New(rand.NewSource(26))
	words := []string{"abc", "ABC", "Abc", "abd", "é", "e", "E", "ée", "a", "a ", "", "zz", "Zz", "straße", "strasse", "ß", "ss", "Ω", "ω"}
	var rows []string
	for i := 1; i <= 300; i++ {
		pick := func() string {
			if rng.Intn(9) == 0 {
				return "NULL"
			}
			return "'" + words[rng.Intn(len(words))] + "'"
		}
		n := "NULL"
		if rng.Intn(7) != 0 {
			n = fmt.Sprint(rng.Intn(20) - 5)
		}
		rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s, %s)", i, pick(), pick(), n, pick()))
	}
	b.MustExec(t, ctx, "INSERT INTO s VALUES "+strings.Join(rows, ", "))
	orders := []string{
		"g, id", "g DESC, id", "u, id DESC", "u DESC, g, id", "c, id", "CONCAT(g, u), id",
		"n, g DESC, id", "n DESC, u, id", "LOWER(g) DESC, n, id", "g IS NULL, g, id", "-n, id",
	}
	for _, o := range orders {
		q := "SELECT id, g, u, n FROM s ORDER BY " + o
		got, err := b.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		for _, k := range []int{0, 1, 7, 150, 299, 300, 1000} {
			b.ExpectRows(t, ctx, fmt.Sprintf("%s LIMIT %d", q, k), got[:min(k, len(got))]...)
		}
		b.ExpectRows(t, ctx, q+" LIMIT 5, 10", got[5:15]...)
		for _, pq := range []string{q, q + " LIMIT 3"} {
			if p := b.PlanOf(t, ctx, pq); !strings.Contains(p, "keys: computed once per row") {
				t.Errorf("%s: plan\n%s", pq, p)
			}
		}
	}
	all, err := b.Query(ctx, "SELECT COUNT(*) FROM s WHERE n > 3")
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		"SELECT SQL_CALC_FOUND_ROWS id FROM s WHERE n > 3 ORDER BY g, id LIMIT 2",
		"SELECT SQL_CALC_FOUND_ROWS id, g FROM s WHERE n > 3 ORDER BY g, id LIMIT 2",
	} {
		b.MustExec(t, ctx, q)
		b.ExpectRows(t, ctx, "SELECT FOUND_ROWS()", all...)
	}
	// A window's rows come sorted as it will sort them (the answers are
	// the corpus' windows, against MariaDB).
	wq := "SELECT id, ROW_NUMBER() OVER (PARTITION BY LOWER(g) ORDER BY n DESC, id) FROM s"
	if p := b.PlanOf(t, ctx, wq); !strings.Contains(p, "keys: computed once per row") {
		t.Errorf("%s: plan\n%s", wq, p)
	}
	wrows, err := b.Query(ctx, wq)
	if err != nil || len(wrows) != 300 {
		t.Fatalf("%s: %d rows, %v", wq, len(wrows), err)
	}
	// A subquery's sort and a sort in a derived table.
	q := "SELECT x.id FROM (SELECT id, g FROM s ORDER BY g DESC, id) x WHERE x.id IN (SELECT id FROM s WHERE u > 'b' ORDER BY u) ORDER BY x.g, x.id"
	got, err := b.Query(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	b.ExpectRows(t, ctx, q+" LIMIT 100000", got...)
}
