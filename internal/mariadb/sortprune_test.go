package mariadb

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestSortPrune runs reports ordered by a select-list alias (whose plan
// projects every column of the table under the sort) and checks that the
// table reads only the columns used, and that the answers are those of
// the same reports ordered by the alias's expression (a plan the rule
// does not touch).
func TestSortPrune(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	rng := rand.New(rand.NewSource(21))
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE r (id INT PRIMARY KEY, inv INT, cust INT, staff INT, at DATETIME, back DATETIME NULL, note VARCHAR(20))")
	var rows []string
	for i := 1; i <= 200; i++ {
		back := fmt.Sprintf("'2024-03-%02d 10:00:00'", 1+rng.Intn(28))
		if rng.Intn(4) == 0 {
			back = "NULL"
		}
		rows = append(rows, fmt.Sprintf("(%d, %d, %d, %d, '2024-02-%02d 0%d:00:00', %s, 'n%d')", i, rng.Intn(50), rng.Intn(30), rng.Intn(3), 1+rng.Intn(28), rng.Intn(10), back, i))
	}
	b.MustExec(t, ctx, "INSERT INTO r VALUES "+strings.Join(rows, ", "))
	for _, c := range []struct{ q, ref, unread string }{
		{"SELECT r.id, r.cust, DATE(r.at) AS day, DATEDIFF('2025-01-01', r.at) AS days_out FROM r WHERE r.back IS NULL ORDER BY days_out DESC, r.id LIMIT 10",
			"SELECT r.id, r.cust, DATE(r.at) AS day, DATEDIFF('2025-01-01', r.at) AS days_out FROM r WHERE r.back IS NULL ORDER BY DATEDIFF('2025-01-01', r.at) DESC, r.id LIMIT 10", "staff"},
		{"SELECT id, inv * 2 AS twice FROM r WHERE staff = 1 ORDER BY twice, id LIMIT 5 OFFSET 3",
			"SELECT id, inv * 2 AS twice FROM r WHERE staff = 1 ORDER BY inv * 2, id LIMIT 5 OFFSET 3", "note"},
		{"SELECT id, CONCAT(note, '!') AS n2 FROM r ORDER BY n2 DESC, id",
			"SELECT id, CONCAT(note, '!') AS n2 FROM r ORDER BY CONCAT(note, '!') DESC, id", "staff"},
	} {
		want, err := b.Query(ctx, c.ref)
		if err != nil {
			t.Fatalf("%s: %v", c.ref, err)
		}
		b.ExpectRows(t, ctx, c.q, want...)
		plan := b.PlanOf(t, ctx, c.q)
		if i := strings.Index(plan, "columns: ["); i < 0 || strings.Contains(plan[strings.LastIndex(plan, "columns: ["):], c.unread) {
			t.Errorf("%s: the table reads %s:\n%s", c.q, c.unread, plan)
		}
	}
}
