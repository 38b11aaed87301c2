package mariadb

import (
	"strconv"
	"strings"
	"testing"
)

func TestFirstMatch(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE customer (id INT NOT NULL PRIMARY KEY, name VARCHAR(20) NOT NULL, code VARCHAR(10) NULL)",
		"CREATE TABLE rental (id INT NOT NULL PRIMARY KEY, customer_id INT NOT NULL, note VARCHAR(10) NULL, kind INT NOT NULL, code VARCHAR(10) NOT NULL, KEY icust (customer_id), KEY icode (code(2)))",
		"INSERT INTO customer WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM s WHERE n < 60) SELECT n, CONCAT('c', n), LPAD(n, 3, '0') FROM s",
		// Customers 1..40 rent; every third rental has a NULL note; kind is 1 or 2.
		"INSERT INTO rental WITH RECURSIVE s(n) AS (SELECT 1 UNION ALL SELECT n+1 FROM s WHERE n < 400) SELECT n, n % 40 + 1, IF(n % 3 = 0, NULL, 'x'), n % 2 + 1, LPAD(n % 40 + 1, 3, '0') FROM s")

	cases := []struct {
		q       string
		limited bool // the plan must have LIMIT 1 over the lookup
	}{
		{"SELECT cu.id FROM customer cu LEFT JOIN rental r ON r.customer_id = cu.id WHERE r.id IS NULL ORDER BY cu.id", true},
		{"SELECT cu.id FROM customer cu WHERE NOT EXISTS (SELECT 1 FROM rental r WHERE r.customer_id = cu.id) ORDER BY cu.id", true},
		{"SELECT cu.id, r.customer_id FROM customer cu LEFT JOIN rental r ON r.customer_id = cu.id WHERE r.kind IS NULL AND cu.name <> 'c5' ORDER BY cu.id", true},
		// note is NULL in some matches: a first match with a NULL note
		// must not count as no match, so no LIMIT.
		{"SELECT cu.id, r.id FROM customer cu LEFT JOIN rental r ON r.customer_id = cu.id WHERE r.note IS NULL ORDER BY cu.id, r.id", false},
		// A join condition the lookup does not apply (kind = 2): no LIMIT.
		{"SELECT cu.id FROM customer cu LEFT JOIN rental r ON r.customer_id = cu.id AND r.kind = 2 WHERE r.id IS NULL ORDER BY cu.id", false},
		// The same conditions inside NOT EXISTS filter the lookup's rows
		// before the LIMIT: the first row left is a match.
		{"SELECT cu.id FROM customer cu WHERE NOT EXISTS (SELECT 1 FROM rental r WHERE r.customer_id = cu.id AND r.kind = 2 AND r.id > 200) ORDER BY cu.id", true},
	}
	for _, c := range cases {
		p := b.PlanOf(t, ctx, c.q)
		if got := strings.Contains(p, "Limit(1)"); got != c.limited {
			t.Errorf("%s: LIMIT 1 %v, want %v:\n%s", c.q, got, c.limited, p)
		}
	}
	no := make([]string, 0, 20)
	for i := 41; i <= 60; i++ {
		no = append(no, strconv.Itoa(i))
	}
	b.ExpectRows(t, ctx, cases[0].q, no...)
	b.ExpectRows(t, ctx, cases[1].q, no...)
	with := make([]string, 0, 20)
	for i := 41; i <= 60; i++ {
		with = append(with, strconv.Itoa(i)+"|NULL")
	}
	b.ExpectRows(t, ctx, cases[2].q, with...) // the name test keeps all of 41..60
	// Customers with a kind-2 rental: those whose rentals n have n % 2 = 1;
	// customer c gets n = c - 1 + 40k, odd when c is even: the odd ones
	// (and 41..60) have none.
	var odd []string
	for i := 1; i <= 60; i++ {
		if i%2 == 1 || i > 40 {
			odd = append(odd, strconv.Itoa(i))
		}
	}
	b.ExpectRows(t, ctx, cases[4].q, odd...)
	b.ExpectRows(t, ctx, cases[5].q, odd...) // kind 2 needs an odd n, and the odd n > 200 reach every even customer
	got, err := b.Query(ctx, cases[3].q)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 20+400/3 {
		t.Errorf("%s: %d rows, want %d", cases[3].q, len(got), 20+400/3)
	}
}
