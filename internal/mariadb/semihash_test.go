package mariadb

import (
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// TestSemiHash compares IN and NOT IN over GROUP BY ... HAVING subqueries
// (the nested-loop joins semiHashRule materializes) on random rows, NULL
// keys included, with the answer SQL's three-valued logic gives, computed
// here from the same rows; and checks which plans got the hash lookup and
// which (other key types, a NOT IN whose key may be NULL) kept the loop.
func TestSemiHash(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	rng := rand.New(rand.NewSource(26))
	kinds := []struct {
		left, right string
		hashed      bool // for IN; NOT IN also needs a NOT NULL key
	}{
		{"INT", "INT", true},
		{"BIGINT", "SMALLINT UNSIGNED", true},
		{"TINYINT", "INT", false},           // the right key's values may not fit
		{"VARCHAR(5)", "VARCHAR(5)", false}, // collations: no hash
	}
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d")
	for ki, k := range kinds {
		for _, rightNull := range []bool{true, false} {
			name := fmt.Sprintf("%d_%v", ki, rightNull)
			null := "NULL"
			if !rightNull {
				null = "NOT NULL"
			}
			b.MustExec(t, ctx,
				fmt.Sprintf("CREATE TABLE l%s (id INT PRIMARY KEY, k %s NULL, k2 INT NULL)", name, k.left),
				fmt.Sprintf("CREATE TABLE r%s (id INT PRIMARY KEY, k %s %s, k2 INT NOT NULL, v INT NOT NULL)", name, k.right, null))
			// left rows: keys 0..14 or NULL; right rows: keys 0..11
			// (NULL when allowed), values 0..9.
			type row struct {
				k, k2 *int
				v     int
			}
			var left, right []row
			var sqlRows []string
			for i := 1; i <= 40; i++ {
				r := row{k: intp(rng.Intn(15)), k2: intp(rng.Intn(3))}
				if rng.Intn(8) == 0 {
					r.k = nil
				}
				left = append(left, r)
				sqlRows = append(sqlRows, fmt.Sprintf("(%d, %s, %s)", i, sqlInt(r.k), sqlInt(r.k2)))
			}
			b.MustExec(t, ctx, fmt.Sprintf("INSERT INTO l%s VALUES %s", name, strings.Join(sqlRows, ", ")))
			sqlRows = sqlRows[:0]
			for i := 1; i <= 120; i++ {
				r := row{k: intp(rng.Intn(12)), k2: intp(rng.Intn(3)), v: rng.Intn(10)}
				if rightNull && rng.Intn(10) == 0 {
					r.k = nil
				}
				right = append(right, r)
				sqlRows = append(sqlRows, fmt.Sprintf("(%d, %s, %s, %d)", i, sqlInt(r.k), sqlInt(r.k2), r.v))
			}
			b.MustExec(t, ctx, fmt.Sprintf("INSERT INTO r%s VALUES %s", name, strings.Join(sqlRows, ", ")))

			for round := 0; round < 12; round++ {
				sumOver := rng.Intn(70)
				countAtLeast := rng.Intn(14)
				// the groups, by key (nil: the NULL group)
				sums, counts := map[string]int{}, map[string]int{}
				keyOf := map[string]*int{}
				for _, r := range right {
					s := sqlInt(r.k)
					sums[s] += r.v
					counts[s]++
					keyOf[s] = r.k
				}
				var bySum, byCount []*int
				for s := range sums {
					if sums[s] > sumOver {
						bySum = append(bySum, keyOf[s])
					}
					if counts[s] >= countAtLeast {
						byCount = append(byCount, keyOf[s])
					}
				}
				var wantIn, wantNotIn []string
				for i, l := range left {
					if in3(l.k, bySum) == 1 {
						wantIn = append(wantIn, strconv.Itoa(i+1))
					}
					if in3(l.k, byCount) == 0 {
						wantNotIn = append(wantNotIn, strconv.Itoa(i+1))
					}
				}
				qIn := fmt.Sprintf("SELECT id FROM l%s WHERE k IN (SELECT k FROM r%s GROUP BY k HAVING SUM(v) > %d) ORDER BY id", name, name, sumOver)
				qNotIn := fmt.Sprintf("SELECT id FROM l%s WHERE k NOT IN (SELECT k FROM r%s GROUP BY k HAVING COUNT(*) >= %d) ORDER BY id", name, name, countAtLeast)
				b.ExpectRows(t, ctx, qIn, wantIn...)
				b.ExpectRows(t, ctx, qNotIn, wantNotIn...)
				if round == 0 {
					if got := strings.Contains(b.PlanOf(t, ctx, qIn), "HashLookup"); got != k.hashed {
						t.Errorf("%s: hash lookup %v, want %v:\n%s", qIn, got, k.hashed, b.PlanOf(t, ctx, qIn))
					}
					want := k.hashed && !rightNull
					if got := strings.Contains(b.PlanOf(t, ctx, qNotIn), "HashLookup"); got != want {
						t.Errorf("%s: hash lookup %v, want %v:\n%s", qNotIn, got, want, b.PlanOf(t, ctx, qNotIn))
					}
				}
			}
			// Two keys, one of them compared with an expression, and a
			// condition besides the equality.
			var want []string
			for i, l := range left {
				found := false
				for _, r := range right {
					if l.k != nil && r.k != nil && l.k2 != nil && *l.k == *r.k && *l.k2+1 == *r.k2 && r.v > 4 {
						found = true
					}
				}
				if found {
					want = append(want, strconv.Itoa(i+1))
				}
			}
			q := fmt.Sprintf("SELECT id FROM l%s l WHERE (k, k2 + 1) IN (SELECT k, k2 FROM r%s GROUP BY k, k2, v HAVING v > 4) ORDER BY id", name, name)
			b.ExpectRows(t, ctx, q, want...)
		}
	}
}

// in3 is x IN (set) in SQL's three-valued logic: 1 true, 0 false, -1 NULL.
func in3(x *int, set []*int) int {
	if len(set) == 0 {
		return 0
	}
	if x == nil {
		return -1
	}
	res := 0
	for _, s := range set {
		if s == nil {
			res = -1
		} else if *s == *x {
			return 1
		}
	}
	return res
}

func intp(i int) *int { return &i }

func sqlInt(p *int) string {
	if p == nil {
		return "NULL"
	}
	return strconv.Itoa(*p)
}
