package mariadb

import (
	"strings"
	"testing"
)

// planOf returns go-mysql-server's plan of q.
func TestEqualityTransfer(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE orders (id INT NOT NULL PRIMARY KEY, customer_id INT NOT NULL, code VARCHAR(10) NOT NULL, KEY icust (customer_id))",
		"CREATE TABLE order_items (order_id INT NOT NULL, line INT NOT NULL, qty INT NOT NULL, PRIMARY KEY (order_id, line))",
		"CREATE TABLE notes (code VARCHAR(10) NOT NULL, body VARCHAR(20) NOT NULL, KEY icode (code))",
		"INSERT INTO orders WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM s WHERE n < 300) SELECT n, n % 30, LPAD(n, 4, '0') FROM s",
		// Order 7 has no items; the others have 1 to 3.
		"INSERT INTO order_items SELECT o.id, l.n, o.id * l.n FROM orders o JOIN (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3) l ON l.n <= o.id % 3 + 1 WHERE o.id <> 7",
		"INSERT INTO notes VALUES ('0005', 'padded'), ('5', 'plain'), ('5.0', 'decimal'), ('0012', 'twelve')")

	// Each query is run as written (the rule applies) and with the
	// constant hidden in an expression (o.id + 0 = c: no column =
	// literal, so the rule leaves it alone): both must give the same rows.
	cases := []struct {
		q       string
		indexed string // a table the plan must read through an index ("": no check)
	}{
		{"SELECT o.id, i.line, i.qty FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id = 250 ORDER BY i.line", "order_items"},
		{"SELECT o.id, i.line FROM order_items i JOIN orders o ON o.id = i.order_id WHERE 250 = o.id ORDER BY i.line", "order_items"},
		{"SELECT o.id, COUNT(*), SUM(i.qty) FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id = 299 GROUP BY o.id", "order_items"},
		// Through two joins: o2.customer_id = o.customer_id and a constant on o.
		{"SELECT o.id, o2.id, i.line FROM orders o JOIN orders o2 ON o2.customer_id = o.customer_id JOIN order_items i ON i.order_id = o2.id WHERE o.customer_id = 4 AND o.id = 4 ORDER BY o2.id, i.line", ""},
		// The constant in the join condition.
		{"SELECT o.id, i.line FROM orders o JOIN order_items i ON i.order_id = o.id AND o.id = 8 ORDER BY i.line", "order_items"},
		// LEFT JOIN: order 7 has no items, the row stays with NULLs.
		{"SELECT o.id, i.line FROM orders o LEFT JOIN order_items i ON i.order_id = o.id WHERE o.id = 7 ORDER BY i.line", "order_items"},
		{"SELECT o.id, i.line FROM orders o LEFT JOIN order_items i ON i.order_id = o.id WHERE o.id = 8 ORDER BY i.line", "order_items"},
		// A constant on the right side of a LEFT JOIN is not carried to the left.
		{"SELECT o.id, i.line FROM orders o LEFT JOIN order_items i ON i.order_id = o.id AND i.order_id = 9 WHERE o.id IN (8, 9) ORDER BY o.id, i.line", ""},
		// A string column equal to an integer one compares as numbers: not carried.
		{"SELECT o.id, n.body FROM orders o JOIN notes n ON n.code = o.id WHERE o.id = 5 ORDER BY n.body", ""},
		// Two string columns of one collation: carried.
		{"SELECT o.id, n.body FROM orders o JOIN notes n ON n.code = o.code WHERE o.code = '0012' ORDER BY n.body", "notes"},
		{"SELECT o.id, i.line FROM orders o JOIN order_items i ON i.order_id = o.id WHERE o.id = 1000", "order_items"},
	}
	for _, c := range cases {
		hidden := strings.NewReplacer("o.id = ", "o.id + 0 = ", "= o.id\n", "= o.id + 0", "250 = o.id", "250 = o.id + 0", "o.code = '", "CONCAT(o.code) = '", "AND i.order_id = 9", "AND i.order_id + 0 = 9").Replace(c.q)
		if hidden == c.q {
			t.Fatalf("no constant to hide in %s", c.q)
		}
		want, err := b.Query(ctx, hidden)
		if err != nil {
			t.Fatalf("%s: %v", hidden, err)
		}
		b.ExpectRows(t, ctx, c.q, want...)
		if c.indexed != "" {
			if p := b.PlanOf(t, ctx, c.q); !strings.Contains(p, "IndexedTableAccess("+c.indexed+")") {
				t.Errorf("%s: %s is not read through an index:\n%s", c.q, c.indexed, p)
			}
		}
	}
	// The padded code and the decimal one equal 5 as numbers.
	b.ExpectRows(t, ctx, "SELECT o.id, n.body FROM orders o JOIN notes n ON n.code = o.id WHERE o.id = 5 ORDER BY n.body", "5|decimal", "5|padded", "5|plain")
	b.ExpectRows(t, ctx, "SELECT o.id, i.line FROM orders o LEFT JOIN order_items i ON i.order_id = o.id WHERE o.id = 7", "7|NULL")
}
