package sqlfront

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mysqldrv "github.com/go-sql-driver/mysql"
)

// Statements that panicked inside go-mysql-server and dropped the
// connection answer as MariaDB 10.11 does (recorded on it), on one
// connection that then still answers SELECT 1.
func TestNoPanicStatements(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	ctx := context.Background()
	c := ts.conn("")
	for _, q := range []string{
		"CREATE DATABASE p", "USE p", "CREATE TABLE t (id INT PRIMARY KEY, v INT)",
		"INSERT INTO t VALUES (1,1)", "CREATE VIEW v AS SELECT * FROM t",
	} {
		if _, err := c.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	alive := func(after string) {
		t.Helper()
		var one int
		if err := c.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("after %s the connection is gone: %v", after, err)
		}
	}
	join := func(n int) string {
		q := "SELECT COUNT(*) FROM t t0"
		for i := 1; i < n; i++ {
			q += fmt.Sprintf(" JOIN t t%d ON t%d.id=t0.id", i, i)
		}
		return q
	}

	// A join of more than 61 tables: 1116; of 61: its answer.
	_, err := c.ExecContext(ctx, join(70))
	var me *mysqldrv.MySQLError
	if !errors.As(err, &me) || me.Number != 1116 || me.Message != "Too many tables; MariaDB can only use 61 tables in a join" {
		t.Fatalf("70-table join: %v, want 1116", err)
	}
	alive("a 70-table join")
	var n int
	if err := c.QueryRowContext(ctx, join(61)).Scan(&n); err != nil || n != 1 {
		t.Fatalf("61-table join: %d %v", n, err)
	}

	// SHOW CREATE TABLE of a view is SHOW CREATE VIEW.
	for _, q := range []string{"SHOW CREATE TABLE v", "SHOW CREATE VIEW v"} {
		rows, err := c.QueryContext(ctx, q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rows.Columns()
		var name, create, cs, coll string
		if !rows.Next() {
			t.Fatalf("%s: no row", q)
		}
		if err := rows.Scan(&name, &create, &cs, &coll); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		rows.Close()
		if strings.Join(cols, ",") != "View,Create View,character_set_client,collation_connection" || name != "v" || !strings.Contains(create, "VIEW `v`") {
			t.Fatalf("%s: %q %q %q", q, cols, name, create)
		}
	}
	alive("SHOW CREATE TABLE of a view")

	// LOAD_FILE of a file under secure_file_priv: its contents.
	var dir string
	if err := c.QueryRowContext(ctx, "SELECT @@secure_file_priv").Scan(&dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(path, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got string
	if err := c.QueryRowContext(ctx, "SELECT LOAD_FILE(?)", path).Scan(&got); err != nil || got != "hello\n" {
		t.Fatalf("LOAD_FILE: %q %v", got, err)
	}
	alive("LOAD_FILE")
}

// A prepared statement takes up to 65535 placeholders, as in MariaDB (the
// NULL bitmap of that many parameters is 8192 bytes; vitess's execute
// parser sized it in 16 bits and failed past 65528); one more is refused
// at the prepare with MariaDB's 1390, and the connection stays.
func TestManyPlaceholders(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	ctx := context.Background()
	c := ts.conn("")
	if _, err := c.ExecContext(ctx, "CREATE DATABASE mp"); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1000, 65529, 65535, 65536} {
		q := "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name IN (" + strings.Repeat("?,", n-1) + "?)"
		args := make([]any, n)
		for i := range args {
			args[i] = "mp"
		}
		var got int
		err := c.QueryRowContext(ctx, q, args...).Scan(&got)
		var me *mysqldrv.MySQLError
		switch {
		case n <= 65535 && (err != nil || got != 1):
			t.Fatalf("%d placeholders: %d %v", n, got, err)
		case n > 65535 && (!errors.As(err, &me) || me.Number != 1390):
			t.Fatalf("%d placeholders: %v, want 1390", n, err)
		}
		var one int
		if err := c.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
			t.Fatalf("after %d placeholders the connection is gone: %v", n, err)
		}
	}
}
