package sqlfront

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	gomysql "github.com/go-sql-driver/mysql"

	"github.com/handlerdb/handlerdb/internal/types"
)

// What the SQL corpus cannot show about sql_mode: the warning count of
// the OK packet (MariaDB 10.11, checked with the mariadb client: "Query
// OK, 2 rows affected, 2 warnings"), and the rows affected by SET. The
// client is vitess's, which reports the packet's fields (but not its info
// line: TestUpdateInfoWarnings).
func TestSQLModeOKPacket(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	host, port, err := net.SplitHostPort(ts.s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := strconv.Atoi(port)
	c, err := mysql.Connect(context.Background(), &mysql.ConnParams{Host: host, Port: p, Uname: "root", Pass: ts.cfg.RootPassword})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	run := func(q string) (uint64, uint16, string, error) {
		t.Helper()
		r, w, err := c.ExecuteFetchWithWarningCount(q, 100, false)
		if err != nil {
			return 0, 0, "", err
		}
		return r.RowsAffected, w, r.Info, nil
	}
	for _, q := range []string{"CREATE DATABASE m", "USE m",
		"CREATE TABLE t (id INT PRIMARY KEY, ti TINYINT NULL, v VARCHAR(3) NULL)",
		"INSERT INTO t (id) VALUES (1), (2)"} {
		if _, _, _, err := run(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}

	// Strict (the default): the statement fails, nothing changes.
	_, _, _, err = run("UPDATE t SET ti = 1000")
	var se *mysql.SQLError
	if !errors.As(err, &se) || se.Num != 1264 || se.State != "22003" || se.Message != "Out of range value for column 'ti' at row 1" {
		t.Fatalf("strict UPDATE: %v, want 1264 (22003) Out of range value for column 'ti' at row 1", err)
	}

	n, w, _, err := run("SET sql_mode = ''")
	if err != nil || n != 0 || w != 0 {
		t.Fatalf("SET: %d rows, %d warnings, %v; want 0 rows", n, w, err)
	}
	n, w, _, err = run("UPDATE t SET ti = 1000")
	if err != nil {
		t.Fatal(err)
	}
	if n != 2 || w != 2 {
		t.Errorf("non-strict UPDATE: %d rows, %d warnings; want 2, 2", n, w)
	}
	n, w, _, err = run("INSERT INTO t VALUES (3, -1000, 'abcdef')")
	if err != nil || n != 1 || w != 2 {
		t.Errorf("non-strict INSERT: %d rows, %d warnings, %v; want 1 row, 2 warnings", n, w, err)
	}
	r, err := c.ExecuteFetch("SELECT id, ti, v FROM t ORDER BY id", 10, false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, row := range r.Rows {
		got = append(got, row[0].ToString()+" "+row[1].ToString()+" "+row[2].ToString())
	}
	want := []string{"1 127 ", "2 127 ", "3 -128 abc"}
	if len(got) != len(want) {
		t.Fatalf("rows %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d: %q, want %q", i, got[i], want[i])
		}
	}
}

// TestUpdateInfoWarnings: the info line of an UPDATE counts the
// statement's warnings ("Rows matched: 2  Changed: 2  Warnings: 2" in
// MariaDB); go-mysql-server always writes 0 there.
func TestUpdateInfoWarnings(t *testing.T) {
	var sent *sqltypes.Result
	cb := reformatting(func(r *sqltypes.Result, more bool) error { sent = r; return nil }, func(*querypb.Field) *types.Type { return nil }, func() uint16 { return 2 }, nil)
	for in, want := range map[string]string{
		"Rows matched: 2  Changed: 2  Warnings: 0": "Rows matched: 2  Changed: 2  Warnings: 2",
		"Records: 2  Duplicates: 0  Warnings: 0":   "Records: 2  Duplicates: 0  Warnings: 0",
	} {
		if err := cb(&sqltypes.Result{RowsAffected: 2, Info: in}, false); err != nil {
			t.Fatal(err)
		}
		if sent.Info != want {
			t.Errorf("info %q became %q, want %q", in, sent.Info, want)
		}
	}
}

// TestSQLModeLoadData: LOAD DATA stores its fields as INSERT does under
// sql_mode (MariaDB's rules for both; its LOAD DATA INFILE is off on the
// reference server, so the expectations are those of INSERT there).
func TestSQLModeLoadData(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	path := filepath.Join(ts.dir, "files", "ld.tsv")
	if err := os.WriteFile(path, []byte("1\t1000\tabcdef\n2\tx\tab\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mustExec(t, c, "CREATE DATABASE m", "USE m", "CREATE TABLE ld (id INT PRIMARY KEY, ti TINYINT NULL, v VARCHAR(3) NULL)")
	load := "LOAD DATA INFILE '" + path + "' INTO TABLE ld"
	_, err := c.ExecContext(context.Background(), load)
	var me *gomysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1264 || me.Message != "Out of range value for column 'ti' at row 1" {
		t.Fatalf("strict LOAD DATA: %v, want 1264 Out of range value for column 'ti' at row 1", err)
	}
	expectRows(t, c, "SELECT COUNT(*) FROM ld", "0")
	mustExec(t, c, "SET sql_mode = ''", load)
	expectRows(t, c, "SHOW WARNINGS",
		"Warning|1264|Out of range value for column 'ti' at row 1",
		"Warning|1265|Data truncated for column 'v' at row 1",
		"Warning|1366|Incorrect integer value: 'x' for column `m`.`ld`.`ti` at row 2")
	expectRows(t, c, "SELECT id, ti, v FROM ld ORDER BY id", "1|127|abc", "2|0|ab")
}

// TestSQLModePrepared: a prepared INSERT or UPDATE (COM_STMT_EXECUTE)
// stores its parameters as a text statement stores literals, at each
// execution.
func TestSQLModePrepared(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	mustExec(t, c, "CREATE DATABASE m", "USE m", "CREATE TABLE t (id INT PRIMARY KEY, ti TINYINT NULL, v VARCHAR(3) NULL)")
	ctx := context.Background()
	ins, err := c.PrepareContext(ctx, "INSERT INTO t VALUES (?, ?, ?)")
	if err != nil {
		t.Fatal(err)
	}
	defer ins.Close()
	for i := 0; i < 2; i++ {
		_, err = ins.ExecContext(ctx, 1, 1000, "a")
		var me *gomysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1264 || me.Message != "Out of range value for column 'ti' at row 1" {
			t.Fatalf("execution %d: %v, want 1264 Out of range value for column 'ti' at row 1", i+1, err)
		}
	}
	mustExec(t, c, "SET sql_mode = ''")
	for i := 0; i < 2; i++ {
		if _, err := ins.ExecContext(ctx, i+1, 1000, "abcdef"); err != nil {
			t.Fatalf("non-strict execution %d: %v", i+1, err)
		}
		expectRows(t, c, "SHOW WARNINGS",
			"Warning|1264|Out of range value for column 'ti' at row 1",
			"Warning|1265|Data truncated for column 'v' at row 1")
	}
	upd, err := c.PrepareContext(ctx, "UPDATE t SET ti = ? WHERE id = ?")
	if err != nil {
		t.Fatal(err)
	}
	defer upd.Close()
	if _, err := upd.ExecContext(ctx, -1000, 2); err != nil {
		t.Fatal(err)
	}
	expectRows(t, c, "SELECT id, ti, v FROM t ORDER BY id", "1|127|abc", "2|-128|abc")
}

// TestPreparedSetRows: a prepared SET affects 0 rows, as in MariaDB.
func TestPreparedSetRows(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	for _, q := range []string{"SET @a = ?", "SET sql_mode = ?"} {
		r, err := c.ExecContext(context.Background(), q, "")
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n, _ := r.RowsAffected(); n != 0 {
			t.Errorf("%s: %d rows affected, want 0", q, n)
		}
	}
}
