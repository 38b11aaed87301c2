package sqlfront

import (
	"bytes"
	gosql "database/sql"
	"net"
	"os/exec"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/mariadbtest"
)

// dumpTripSchema is a database with what mariadb-dump carries besides
// rows: a view, a procedure, a function, a trigger and events, and values that
// need quoting.
var dumpTripSchema = []string{
	"CREATE DATABASE rt",
	"CREATE TABLE rt.item (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, name VARCHAR(40) NOT NULL, price DECIMAL(8,2) NULL," +
		" kind ENUM('a','b','c') NOT NULL DEFAULT 'a', added DATETIME NULL, note TEXT NULL, UNIQUE KEY uname (name), KEY ikind (kind))",
	"CREATE TABLE rt.audit (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, item_id INT NOT NULL, what VARCHAR(20) NOT NULL)",
	`INSERT INTO rt.item (name, price, kind, added, note) VALUES ('plain', 1.50, 'a', '2024-01-02 03:04:05', NULL),` +
		` ('it''s "quoted"', NULL, 'b', NULL, 'line one\nline two\ttab \\ backslash'), ('ünïcödé ✓', 99999.99, 'c', '1999-12-31 23:59:59', '')`,
	"CREATE VIEW rt.cheap AS SELECT id, name, price FROM rt.item WHERE price < 100",
	"CREATE SQL SECURITY INVOKER VIEW rt.kind_a AS SELECT id, kind FROM rt.item WHERE kind = 'a' WITH CHECK OPTION",
	"CREATE PROCEDURE rt.count_kind(IN k VARCHAR(1), OUT n INT) BEGIN SELECT COUNT(*) INTO n FROM rt.item WHERE kind = k; END",
	"CREATE FUNCTION rt.with_tax(p DECIMAL(8,2)) RETURNS DECIMAL(10,2) DETERMINISTIC RETURN p * 1.25",
	"CREATE TRIGGER rt.item_added AFTER INSERT ON rt.item FOR EACH ROW INSERT INTO rt.audit (item_id, what) VALUES (NEW.id, 'added')",
	"CREATE EVENT rt.nightly ON SCHEDULE EVERY 1 DAY STARTS '2030-01-01 00:00:00' COMMENT 'prune' DO DELETE FROM rt.audit WHERE id < 0",
	"CREATE EVENT rt.once ON SCHEDULE AT '2031-06-01 12:00:00' ON COMPLETION PRESERVE DISABLE DO UPDATE rt.item SET price = price",
}

// dumpTripChecks are what both servers must answer alike once a dump was
// loaded: the rows, the view, the routines, and the trigger at work.
var dumpTripChecks = []string{
	"SELECT id, name, price, kind, added, note FROM rt.item ORDER BY id",
	"SELECT id, name, price FROM rt.cheap ORDER BY id",
	"SELECT id, item_id, what FROM rt.audit ORDER BY id",
	"SELECT rt.with_tax(price) FROM rt.item ORDER BY id",
	"CALL rt.count_kind('b', @n)",
	"SELECT @n",
	"INSERT INTO rt.item (name) VALUES ('after load')",
	"SELECT id, item_id, what FROM rt.audit ORDER BY id",
	"SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'rt' ORDER BY TABLE_NAME",
	"SELECT ROUTINE_NAME, ROUTINE_TYPE FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'rt' ORDER BY 1",
	"SELECT TABLE_NAME, SECURITY_TYPE, CHECK_OPTION, ALGORITHM, IS_UPDATABLE FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'rt' ORDER BY 1",
	"SELECT id, kind FROM rt.kind_a ORDER BY id",
	"SELECT EVENT_NAME, EVENT_TYPE, EXECUTE_AT, INTERVAL_VALUE, INTERVAL_FIELD, STARTS, STATUS, ON_COMPLETION, EVENT_COMMENT" +
		" FROM information_schema.EVENTS WHERE EVENT_SCHEMA = 'rt' ORDER BY 1",
}

// TestDumpRoundTrip dumps a database with mariadb-dump --routines
// --triggers --events from HandlerDB into a real MariaDB, and from that MariaDB
// into HandlerDB, and checks that both servers then answer alike: a dump
// tool's output loads unchanged in both directions.
func TestDumpRoundTrip(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	for _, bin := range []string{"mariadb-dump", "mariadb"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s is not installed (apt-get install mariadb-client)", bin)
		}
	}
	m, err := mariadbtest.Start("hdb-dumptrip-")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	ts := startTestServer(t, "", Config{})
	hdb := ts.open("")
	_, hdbPort, _ := net.SplitHostPort(ts.s.Addr().String())
	mariaPort := strings.TrimPrefix(m.Addr(), "127.0.0.1:")

	compare := func(dir string) {
		t.Helper()
		same := func(want, got []string, q string) {
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("%s: %s:\nHandlerDB\n%s\nMariaDB\n%s", dir, q, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
		for _, q := range dumpTripChecks {
			same(queryRows(t, m.Root, q), queryRows(t, hdb, q), q)
		}
	}
	// From HandlerDB to MariaDB.
	mustExec(t, hdb, dumpTripSchema...)
	load(t, mariaPort, dump(t, hdbPort))
	compare("HandlerDB to MariaDB")

	// From MariaDB to HandlerDB: the same schema made on MariaDB.
	mustExec(t, m.Root, "DROP DATABASE rt")
	mustExec(t, hdb, "DROP DATABASE rt")
	mustExec(t, m.Root, dumpTripSchema...)
	load(t, hdbPort, dump(t, mariaPort))
	compare("MariaDB to HandlerDB")
}

// dump runs mariadb-dump --routines --triggers --events of database rt against
// the server on port.
func dump(t *testing.T, port string) []byte {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command("mariadb-dump", "-h127.0.0.1", "-P"+port, "-uroot", "--routines", "--triggers", "--events", "--databases", "rt")
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("mariadb-dump from port %s: %v\n%s", port, err, errb.String())
	}
	return out.Bytes()
}

// load feeds a dump to the mariadb client against the server on port.
func load(t *testing.T, port string, sql []byte) {
	t.Helper()
	cmd := exec.Command("mariadb", "-h127.0.0.1", "-P"+port, "-uroot")
	cmd.Stdin = bytes.NewReader(sql)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("loading the dump into port %s: %v\n%s", port, err, out)
	}
}

// TestUsersDumpFromMariaDB loads mariadb-dump --system=users of a real
// MariaDB (accounts with passwords, a locked one, a role granted and made
// default, table grants; --insert-ignore, as for a server that has root)
// into HandlerDB without an error, then checks the accounts there: the
// same SHOW CREATE USER, logins with the same passwords, the lock, and
// the privileges, the role's included.
func TestUsersDumpFromMariaDB(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	if _, err := exec.LookPath("mariadb-dump"); err != nil {
		t.Skip("mariadb-dump is not installed (apt-get install mariadb-client)")
	}
	m, err := mariadbtest.Start("hdb-usersdump-")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	// mariadb-install-db also makes accounts at the machine's host name,
	// which a server with skip-name-resolve cannot SHOW (mariadb-dump
	// stops on them).
	mustExec(t, m.Root, "DELETE FROM mysql.global_priv WHERE host NOT IN ('localhost', '127.0.0.1', '::1', '%', '')", "FLUSH PRIVILEGES")
	mustExec(t, m.Root, "CREATE DATABASE ud", "CREATE TABLE ud.t (a INT)", "INSERT INTO ud.t VALUES (1)",
		"CREATE USER du1@'%' IDENTIFIED BY 'p1'", "CREATE USER du2@'%' IDENTIFIED BY 'p2' ACCOUNT LOCK",
		"CREATE ROLE ur", "GRANT SELECT ON ud.* TO ur", "GRANT ur TO du1@'%'", "SET DEFAULT ROLE ur FOR du1@'%'",
		"GRANT INSERT ON ud.t TO du1@'%'")
	var out, errb bytes.Buffer
	_, mariaPort, _ := net.SplitHostPort(m.Addr())
	cmd := exec.Command("mariadb-dump", "-h127.0.0.1", "-P"+mariaPort, "-uroot", "--system=users", "--insert-ignore", "--databases", "ud")
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("mariadb-dump: %v\n%s", err, errb.String())
	}

	ts := startTestServer(t, "", Config{})
	_, hdbPort, _ := net.SplitHostPort(ts.s.Addr().String())
	load(t, hdbPort, out.Bytes())
	hdb := ts.open("")
	for _, u := range []string{"du1@'%'", "du2@'%'"} {
		q := "SHOW CREATE USER " + u
		if want, got := queryRows(t, m.Root, q), queryRows(t, hdb, q); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\nHandlerDB %q\nMariaDB   %q", q, got, want)
		}
	}
	du1, err := gosql.Open("mysql", ts.dsn("du1", "p1", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer du1.Close()
	mustExec(t, du1, "INSERT INTO ud.t VALUES (2)")
	expectRows(t, du1, "SELECT a FROM ud.t ORDER BY a", "1", "2")
	du2, err := gosql.Open("mysql", ts.dsn("du2", "p2", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer du2.Close()
	if err := du2.Ping(); err == nil || !strings.Contains(err.Error(), "4151") {
		t.Errorf("the locked account: %v", err)
	}
}

// TestUsersDumpToMariaDB: mariadb-dump --system=users of a HandlerDB
// server loads into a real MariaDB, which then has the same accounts:
// SHOW CREATE USER and SHOW GRANTS alike on both servers, the role made
// (HandlerDB's mysql.user has MariaDB's is_role and default_role and
// mysql.roles_mapping is read from its role grants, usersdump.go; the
// dump failed on is_role), a role granted WITH ADMIN OPTION printed so
// on both, the default role kept, the passwords and the lock working
// there.
func TestUsersDumpToMariaDB(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	if _, err := exec.LookPath("mariadb-dump"); err != nil {
		t.Skip("mariadb-dump is not installed (apt-get install mariadb-client)")
	}
	m, err := mariadbtest.Start("hdb-usersdump-to-")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	schema := []string{"CREATE DATABASE ut", "CREATE TABLE ut.t (a INT)", "INSERT INTO ut.t VALUES (1)"}
	mustExec(t, m.Root, schema...)
	ts := startTestServer(t, "", Config{})
	hdb := ts.open("")
	mustExec(t, hdb, schema...)
	mustExec(t, hdb, "CREATE USER tu1@'%' IDENTIFIED BY 'p1'", "CREATE USER tu2@'localhost' IDENTIFIED BY 'p2' ACCOUNT LOCK",
		"CREATE ROLE tr", "GRANT SELECT ON ut.* TO tr", "GRANT tr TO tu1@'%'", "SET DEFAULT ROLE tr FOR tu1@'%'",
		"GRANT INSERT ON ut.t TO tu1@'%'", "CREATE USER tu3@'%'", "GRANT UPDATE ON ut.* TO tu3@'%'", "GRANT tr TO tu3@'%' WITH ADMIN OPTION")
	expectRows(t, hdb, "SELECT user, is_role, default_role FROM mysql.user WHERE user LIKE 't%' ORDER BY user",
		"tr|Y|", "tu1|N|tr", "tu2|N|", "tu3|N|")

	var out, errb bytes.Buffer
	_, hdbPort, _ := net.SplitHostPort(ts.s.Addr().String())
	cmd := exec.Command("mariadb-dump", "-h127.0.0.1", "-P"+hdbPort, "-uroot", "--system=users", "--insert-ignore")
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("mariadb-dump of HandlerDB: %v\n%s", err, errb.String())
	}
	_, mariaPort, _ := net.SplitHostPort(m.Addr())
	load(t, mariaPort, out.Bytes())

	for _, q := range []string{"SHOW CREATE USER tu1@'%'", "SHOW CREATE USER tu2@'localhost'", "SHOW CREATE USER tu3@'%'",
		"SHOW GRANTS FOR tr", "SHOW GRANTS FOR tu2@'localhost'", "SHOW GRANTS FOR tu3@'%'"} {
		if want, got := queryRows(t, m.Root, q), queryRows(t, hdb, q); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\nHandlerDB %q\nMariaDB   %q", q, got, want)
		}
	}
	// (MariaDB's SHOW GRANTS adds the SET DEFAULT ROLE line.)
	want := []string{"GRANT `tr` TO `tu1`@`%`", "GRANT USAGE ON *.* TO `tu1`@`%` IDENTIFIED BY PASSWORD '" + nativePassword("p1") + "'",
		"GRANT INSERT ON `ut`.`t` TO `tu1`@`%`", "SET DEFAULT ROLE `tr` FOR `tu1`@`%`"}
	if got := queryRows(t, m.Root, "SHOW GRANTS FOR tu1@'%'"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("MariaDB's grants of tu1:\n%q\nwant %q", got, want)
	}
	expectRows(t, m.Root, "SELECT user, is_role, default_role FROM mysql.user WHERE user LIKE 't%' ORDER BY user",
		"tr|Y|", "tu1|N|tr", "tu2|N|", "tu3|N|")
	tu1, err := gosql.Open("mysql", "tu1:p1@tcp("+m.Addr()+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer tu1.Close()
	expectRows(t, tu1, "SELECT a FROM ut.t", "1") // through the default role
	tu2, err := gosql.Open("mysql", "tu2:p2@tcp("+m.Addr()+")/")
	if err != nil {
		t.Fatal(err)
	}
	defer tu2.Close()
	if err := tu2.Ping(); err == nil || !strings.Contains(err.Error(), "4151") && !strings.Contains(err.Error(), "1045") {
		t.Errorf("the locked account on MariaDB: %v", err)
	}
}
