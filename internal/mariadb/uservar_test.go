package mariadb

import "testing"

// TestAssignVar: the function the SQL front makes of `@v := expr` sets
// the variable once per row, in row order, and returns the value.
func TestAssignVar(t *testing.T) {
	b := newTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d", "CREATE TABLE t (id INT PRIMARY KEY, n INT)",
		"INSERT INTO t VALUES (1, 10), (2, 20), (3, 30)", "SET @s = 0")
	b.ExpectRows(t, ctx, "SELECT id, __hdb_assign('@s', @s + n) FROM t ORDER BY id", "1|10", "2|30", "3|60")
	b.ExpectRows(t, ctx, "SELECT @s", "60")
	b.ExpectRows(t, ctx, "SELECT id FROM t WHERE (__hdb_assign('@w', n)) > 15 ORDER BY id", "2", "3")
	b.ExpectRows(t, ctx, "SELECT @w, __hdb_assign('@`a b`', 'x'), @`a b`", "30|x|x")
	if _, err := b.Query(ctx, "SELECT __hdb_assign(1, 2)"); err == nil {
		t.Fatal("a number was taken for a variable's name")
	}
}
