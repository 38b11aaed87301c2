package sqlfront

import (
	"bytes"
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
