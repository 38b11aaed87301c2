package sqlfront

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	mysqldrv "github.com/go-sql-driver/mysql"
)

// secure_file_priv is never empty: by default the engine directory's
// "files", created at start, and files outside it cannot be read.
func TestSecureFilePrivDefault(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	var dir string
	if err := db.QueryRow("SELECT @@secure_file_priv").Scan(&dir); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(ts.dir, "files"); dir != want {
		t.Fatalf("secure_file_priv %q, want %q", dir, want)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("%s: %v", dir, err)
	}
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("s3cret"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got sql.NullString
	if err := db.QueryRow("SELECT LOAD_FILE(?)", outside).Scan(&got); err == nil && got.Valid {
		t.Fatalf("LOAD_FILE read a file outside secure_file_priv: %q", got.String)
	}
}

// SELECT ... INTO OUTFILE and INTO DUMPFILE need the global FILE
// privilege, as LOAD DATA does: an account with SELECT alone gets
// MariaDB's 1227 and no file is written; INTO @var needs nothing more;
// with FILE granted the file is written.
func TestIntoFileNeedsFilePrivilege(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	root := ts.open("")
	for _, q := range []string{
		"CREATE DATABASE fp", "CREATE TABLE fp.t (id INT PRIMARY KEY)", "INSERT INTO fp.t VALUES (1),(2)",
		"CREATE USER 'nf'@'%' IDENTIFIED BY 'nf'", "GRANT SELECT ON fp.* TO 'nf'@'%'",
	} {
		if _, err := root.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	var dir string
	if err := root.QueryRow("SELECT @@secure_file_priv").Scan(&dir); err != nil {
		t.Fatal(err)
	}
	u, err := sql.Open("mysql", ts.dsn("nf", "nf", "fp"))
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	for i, q := range []string{"SELECT * FROM t INTO OUTFILE '%s'", "SELECT id FROM t LIMIT 1 INTO DUMPFILE '%s'"} {
		path := filepath.Join(dir, fmt.Sprintf("out%d", i))
		_, err := u.Exec(fmt.Sprintf(q, path))
		var me *mysqldrv.MySQLError
		if !errors.As(err, &me) || me.Number != 1227 || !strings.Contains(me.Message, "FILE privilege") {
			t.Fatalf("%s without FILE: %v, want 1227", q, err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Fatalf("%s without FILE wrote %s", q, path)
		}
	}
	var v int
	if err := u.QueryRow("SELECT COUNT(*) FROM t").Scan(&v); err != nil || v != 2 {
		t.Fatalf("plain SELECT: %d %v", v, err)
	}
	if _, err := root.Exec("GRANT FILE ON *.* TO 'nf'@'%'"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "granted")
	if _, err := u.Exec(fmt.Sprintf("SELECT * FROM t INTO OUTFILE '%s'", path)); err != nil {
		t.Fatalf("with FILE: %v", err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "1\n2\n" {
		t.Fatalf("with FILE: %q %v", b, err)
	}
}
