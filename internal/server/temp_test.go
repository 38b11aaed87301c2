package server

import (
	"context"
	"strings"
	"testing"
)

// TestTemporaryTableInvisibleToHandlerSocket: a SQL session's temporary
// table shadows the stored table of the same name for that session only.
// HandlerSocket opens the stored table, and cannot open the temporary one
// under its hidden engine name either.
func TestTemporaryTableInvisibleToHandlerSocket(t *testing.T) {
	s := startTest(t, nil)
	sqlExec(t, s, "tt",
		"CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO t VALUES (1, 'stored')")
	c, err := sqlDB(t, s, "tt").Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, q := range []string{
		"CREATE TEMPORARY TABLE t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO t VALUES (1, 'temporary')",
	} {
		if _, err := c.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var v string
	if err := c.QueryRowContext(context.Background(), "SELECT v FROM t WHERE id = 1").Scan(&v); err != nil || v != "temporary" {
		t.Fatalf("the session reads %q, %v; want its temporary table's row", v, err)
	}
	// HandlerSocket (read and write port) sees the stored table.
	hsCheck(t, "127.0.0.1", s.HS().ReadAddr(), "P\t1\ttt\tt\tPRIMARY\tid,v\n1\t=\t1\t1\n", "0\t1\n", "0\t2\t1\tstored\n")
	hsCheck(t, "127.0.0.1", s.HS().WriteAddr(), "P\t1\ttt\tt\tPRIMARY\tid,v\n1\t=\t1\t1\n", "0\t1\n", "0\t2\t1\tstored\n")
	// The hidden table exists in the engine, but not for HandlerSocket.
	edb, err := s.Engine().Catalog().Database("tt")
	if err != nil {
		t.Fatal(err)
	}
	hidden := edb.HiddenTables()
	if len(hidden) != 1 || !strings.HasSuffix(hidden[0].Name, "-t") {
		t.Fatalf("hidden tables %v, want the one temporary table", hidden)
	}
	hsCheck(t, "127.0.0.1", s.HS().ReadAddr(), "P\t1\ttt\t"+hidden[0].Name+"\tPRIMARY\tid,v\n", "1\t1\topen_table\n")
}
