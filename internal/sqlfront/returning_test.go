package sqlfront

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// TestInsertReturning: INSERT ... RETURNING (MariaDB 10.5 and later)
// answers one row per inserted row with the list's values: columns
// (qualified or not), expressions, *, over VALUES and SELECT, into a
// table with CHECK constraints (go-mysql-server's own list put the
// checks in place of the first columns) — the result Django reads every
// new id from. A RETURNING word inside a string or a subquery is not the
// clause, and a failed insert is its error.
func TestInsertReturning(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "DROP DATABASE IF EXISTS ret", "CREATE DATABASE ret", "USE ret",
		"CREATE TABLE m (id INT AUTO_INCREMENT PRIMARY KEY, app VARCHAR(20), v JSON NOT NULL CHECK (JSON_VALID(v)), n INT, CONSTRAINT n_pos CHECK (n > 0))")
	ctx := context.Background()
	rows := func(q string) string {
		t.Helper()
		r, err := c.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		defer r.Close()
		cols, _ := r.Columns()
		out := []string{strings.Join(cols, ",")}
		for r.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := r.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			parts := make([]string, len(vals))
			for i, v := range vals {
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				parts[i] = fmt.Sprint(v)
			}
			out = append(out, strings.Join(parts, ","))
		}
		if err := r.Err(); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return strings.Join(out, ";")
	}
	for _, c := range []struct{ q, want string }{
		{"INSERT INTO `m` (`app`, `v`, `n`) VALUES ('a', '{}', 1) RETURNING `m`.`id`", "id;1"},
		{"INSERT INTO m (app, v, n) VALUES ('b', '[1]', 2), ('c', '{\"x\": 1}', 3) RETURNING id, app, CONCAT(app, '!') AS z", "id,app,z;2,b,b!;3,c,c!"},
		{"INSERT INTO m (app, v, n) VALUES ('returning', '{}', 4) RETURNING *", "id,app,v,n;4,returning,{},4"},
		{"INSERT INTO m (app, v, n) SELECT CONCAT(app, '2'), v, n FROM m WHERE id IN (SELECT id FROM m WHERE app <> 'returning') AND id < 3 RETURNING id, n * 10", "id,n * 10;5,10;6,20"},
	} {
		if got := rows(c.q); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.q, got, c.want)
		}
	}
	// A prepared statement (the driver prepares a query with arguments):
	// the listener's own parse of COM_STMT_PREPARE must let it through.
	var id int64
	if err := c.QueryRowContext(ctx, "INSERT INTO m (app, v, n) VALUES (?, ?, ?) RETURNING id", "prep", "{}", 7).Scan(&id); err != nil || id != 7 {
		t.Errorf("prepared INSERT ... RETURNING: id %d, %v; want 7", id, err)
	}
	if _, err := c.QueryContext(ctx, "INSERT INTO m (app, v, n) VALUES ('x', '{}', 0) RETURNING id"); err == nil || !strings.Contains(err.Error(), "4025") {
		t.Errorf("a failed check: %v, want error 4025", err)
	}
	if got := rows("SELECT COUNT(*) FROM m"); got != "COUNT(*);7" {
		t.Errorf("rows after: %s", got)
	}
}

// TestMarkReturning: the comment preparestream.go hides a prepared
// INSERT's RETURNING clause in is taken out to give the text back.
func TestMarkReturning(t *testing.T) {
	for _, c := range []struct {
		q      string
		marked bool
	}{
		{"INSERT INTO t (a) VALUES (?) RETURNING `t`.`id`", true},
		{"insert into t values (1) returning id, a ;", true},
		{"INSERT INTO t (a) VALUES ('returning')", false},
		{"INSERT INTO t (a) SELECT x FROM (SELECT 1 AS x) returning", false},
		{"SELECT 1 AS returning", false},
		{"INSERT INTO t VALUES (1) RETURNING id /* c */", false},
	} {
		m, ok := markReturning(c.q)
		if ok != c.marked {
			t.Errorf("%q: marked %v", c.q, ok)
		}
		if ok && (!strings.Contains(m, returningMark) || returningAt(m) >= 0) {
			t.Errorf("%q: marked as %q, which still shows RETURNING", c.q, m)
		}
		if back := unmarkReturning(m); back != c.q {
			t.Errorf("%q: marked %q, unmarked %q", c.q, m, back)
		}
	}
}
