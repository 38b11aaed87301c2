package mariadb

import (
	"strings"
	"testing"
)

// TestDerivedResultColumns: a derived table (or view) whose select list
// has a date and names an aggregate twice (COUNT(*) in the list and in
// HAVING) answers as the same SELECT alone. oddResult put a projection
// over the derived table's list, placed by column id once inside the
// outer plan, and COUNT(*) AS n read the grouped column's values.
func TestDerivedResultColumns(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE customer (customer_id INT PRIMARY KEY, store_id INT)",
		"CREATE TABLE payment (payment_id INT PRIMARY KEY, customer_id INT, amount DECIMAL(5,2), payment_date DATETIME)",
		"INSERT INTO customer VALUES (1, 1), (2, 2), (3, 1)",
		"INSERT INTO payment VALUES (1, 1, 2.99, '2005-05-25 11:30:37'), (2, 1, 0.99, '2005-05-28 10:35:23'), (3, 2, 5.99, '2005-06-15 00:54:12'), (4, 3, 1.50, NULL)")
	for _, q := range []string{
		"SELECT c.customer_id, COUNT(*) n, SUM(p.amount) AS total, MAX(p.payment_date) last, AVG(amount) FROM customer c LEFT JOIN payment p ON p.customer_id = c.customer_id GROUP BY c.customer_id HAVING COUNT(*) > 0 AND total > 1 ORDER BY total DESC LIMIT 10",
		"SELECT p.customer_id, COUNT(*) AS n, MIN(p.payment_date) first FROM payment p GROUP BY p.customer_id HAVING COUNT(*) >= 1 ORDER BY first LIMIT 5",
		"SELECT DISTINCT payment_date, customer_id FROM payment WHERE amount > 1 ORDER BY customer_id",
	} {
		direct, err := b.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if len(direct) == 0 {
			t.Fatalf("%s: no rows", q)
		}
		derived, err := b.Query(ctx, "SELECT * FROM ("+q+") x")
		if err != nil {
			t.Fatalf("derived %s: %v", q, err)
		}
		if strings.Join(derived, "\n") != strings.Join(direct, "\n") {
			t.Errorf("%s:\n derived %q\n  direct %q", q, derived, direct)
		}
	}
}
