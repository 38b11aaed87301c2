package mariadb

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// TestOrderedGroup runs GROUP BY ... ORDER BY ... LIMIT over random rows
// (NULL keys included) in the forms orderedGroupRule streams from an
// index and checks each answer against the same query made unfit for the
// rule (ORDER BY k + 0 sorts alike, but is not a column), and which plans
// stream.
func TestOrderedGroup(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	rng := rand.New(rand.NewSource(8))
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE g (id INT PRIMARY KEY, k INT NULL, m SMALLINT NULL, d DATE NULL, v INT NOT NULL, t VARCHAR(4), KEY ik (k), KEY ikm (k, m), KEY ikd (k, d), KEY it (t))")
	var rows []string
	for i := 1; i <= 300; i++ {
		k, d := fmt.Sprint(rng.Intn(25)-5), fmt.Sprintf("'2024-02-%02d'", 1+rng.Intn(6))
		if rng.Intn(9) == 0 {
			k = "NULL"
		}
		if rng.Intn(7) == 0 {
			d = "NULL"
		}
		m := fmt.Sprint(rng.Intn(4))
		if rng.Intn(6) == 0 {
			m = "NULL"
		}
		rows = append(rows, fmt.Sprintf("(%d, %s, %s, %s, %d, '%c')", i, k, m, d, rng.Intn(50), 'a'+rng.Intn(4)))
	}
	b.MustExec(t, ctx, "INSERT INTO g VALUES "+strings.Join(rows, ", "))
	for _, c := range []struct {
		q      string
		stream bool
	}{
		{"SELECT k, COUNT(*), SUM(v), MIN(id) FROM g GROUP BY k ORDER BY k%s LIMIT 6", true},
		{"SELECT k, COUNT(*), SUM(v) FROM g GROUP BY k ORDER BY k%s", true},
		{"SELECT x.k, COUNT(*), MAX(x.v) FROM g x WHERE x.v > 10 GROUP BY x.k HAVING COUNT(*) > 2 ORDER BY x.k%s LIMIT 5", true},
		{"SELECT k, m, COUNT(*), SUM(v) FROM g GROUP BY k, m ORDER BY k%s, m LIMIT 12", true},
		{"SELECT k, m, COUNT(*) FROM g GROUP BY m, k ORDER BY k%s, m LIMIT 12", true},
		{"SELECT k, d, COUNT(*) FROM g GROUP BY k, d ORDER BY k%s, d LIMIT 12", false}, // a date: not taken
		{"SELECT k, COUNT(*) FROM g GROUP BY k ORDER BY k%s LIMIT 3 OFFSET 4", true},
		{"SELECT k, COUNT(*) FROM g GROUP BY k ORDER BY k%s DESC LIMIT 4", false},
		{"SELECT m, COUNT(*) FROM g GROUP BY m ORDER BY m%s LIMIT 3", false}, // no index starts with m
		{"SELECT t, COUNT(*) FROM g GROUP BY t ORDER BY t%s", false},         // text: its collation's order
		{"SELECT k, COUNT(*) FROM g GROUP BY k, t ORDER BY k%s LIMIT 4", false},
	} {
		q := fmt.Sprintf(c.q, "")
		ref := fmt.Sprintf(c.q, " + 0")
		if strings.Contains(c.q, "ORDER BY t") {
			ref = fmt.Sprintf(c.q, ", MAX(id)")
		}
		got, err := b.Query(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		want, err := b.Query(ctx, ref)
		if err != nil {
			t.Fatalf("%s: %v", ref, err)
		}
		if len(got) == 0 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s:\n got %v\nwant %v (%s)", q, got, want, ref)
		}
		if plan := b.PlanOf(t, ctx, q); strings.Contains(plan, "StreamGroupBy") != c.stream {
			t.Errorf("%s: streamed %v, want %v:\n%s", q, !c.stream, c.stream, plan)
		}
	}
}
