package replica_test

import (
	gosql "database/sql"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	_ "github.com/go-sql-driver/mysql"

	"github.com/handlerdb/handlerdb/internal/mariadbtest"
)

// primary is a real MariaDB server the tests replicate from
// (mariadbtest): a row-based binary log with full row images (MariaDB's
// GTIDs are always on), and a replication user. Started once per test
// binary (sharedPrimary) and stopped by TestMain.
type primary struct {
	*mariadbtest.Server
}

// The replication account the tests give the replica.
const (
	replUser = "repl"
	replPass = "replpw"
)

var (
	primaryOnce sync.Once
	thePrimary  *primary
	primaryErr  error
	primarySkip string
)

// sharedPrimary returns the package's MariaDB primary, starting it at the
// first call. It skips the test when mariadbd is not installed.
func sharedPrimary(t testing.TB) *primary {
	t.Helper()
	primaryOnce.Do(func() {
		if primarySkip = mariadbtest.Missing(); primarySkip == "" {
			thePrimary, primaryErr = startPrimary()
		}
	})
	if primarySkip != "" {
		t.Skip(primarySkip)
	}
	if primaryErr != nil {
		t.Fatalf("starting the MariaDB primary: %v", primaryErr)
	}
	return thePrimary
}

// startPrimary starts a MariaDB server with the primary's binary log and
// replication user.
func startPrimary() (*primary, error) {
	s, err := mariadbtest.Start("hdb-primary-", "--log-bin=binlog", "--binlog-format=ROW", "--server-id=1",
		"--binlog-row-image=FULL", "--sync-binlog=0")
	if err != nil {
		return nil, err
	}
	p := &primary{s}
	for _, st := range []string{
		fmt.Sprintf("CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s'", replUser, replPass),
		fmt.Sprintf("GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '%s'@'127.0.0.1'", replUser),
	} {
		if _, err := p.Root.Exec(st); err != nil {
			p.Stop()
			return nil, fmt.Errorf("%s: %w", st, err)
		}
	}
	return p, nil
}

// restart stops mariadbd cleanly and starts it again on the same data
// and port.
func (p *primary) restart(t testing.TB) {
	t.Helper()
	if err := p.Restart(); err != nil {
		t.Fatalf("restarting the primary: %v", err)
	}
}

// exec runs statements on the primary as root, failing the test on error.
func (p *primary) exec(t testing.TB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := p.Root.Exec(s); err != nil {
			t.Fatalf("primary: %s: %v", s, err)
		}
	}
}

// execIn runs statements on one connection of the primary whose default
// database is db.
func (p *primary) execIn(t testing.TB, db string, stmts ...string) {
	t.Helper()
	c, err := p.Root.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, s := range append([]string{"USE " + db}, stmts...) {
		if _, err := c.ExecContext(t.Context(), s); err != nil {
			t.Fatalf("primary: %s: %v", s, err)
		}
	}
}

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		runChild(dir, os.Getenv(childSourceEnv)) // never returns
	}
	code := m.Run()
	if thePrimary != nil {
		thePrimary.Stop()
	}
	os.Exit(code)
}

// TestPrimary: the helper's server writes a row-based binary log with
// GTIDs and has the replication user.
func TestPrimary(t *testing.T) {
	p := sharedPrimary(t)
	var name, val string
	for v, want := range map[string]string{"log_bin": "ON", "binlog_format": "ROW", "binlog_row_image": "FULL", "server_id": "1"} {
		if err := p.Root.QueryRow("SHOW GLOBAL VARIABLES LIKE '"+v+"'").Scan(&name, &val); err != nil || val != want {
			t.Errorf("%s = %q (%v), want %q", v, val, err, want)
		}
	}
	p.exec(t, "CREATE DATABASE IF NOT EXISTS replica_probe", "CREATE TABLE replica_probe.t (k INT PRIMARY KEY)", "INSERT INTO replica_probe.t VALUES (1)", "DROP DATABASE replica_probe")
	var gtid string
	if err := p.Root.QueryRow("SELECT @@gtid_binlog_pos").Scan(&gtid); err != nil || !strings.HasPrefix(gtid, "0-1-") {
		t.Errorf("gtid_binlog_pos %q (%v), want 0-1-n", gtid, err)
	}
	repl, err := gosql.Open("mysql", fmt.Sprintf("%s:%s@tcp(%s)/", replUser, replPass, p.Addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	var grants string
	if err := repl.QueryRow("SHOW GRANTS").Scan(&grants); err != nil || !strings.Contains(grants, "REPLICATION SLAVE") {
		t.Errorf("replication user's grants %q (%v)", grants, err)
	}
}
