package sqlfront

import (
	"bytes"
	gosql "database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/binlog"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/mariadbtest"
)

// binlogTable has a column of every kind the binary log writes.
const binlogTable = `CREATE TABLE bl.t (id INT PRIMARY KEY, ti TINYINT, si SMALLINT UNSIGNED, mi MEDIUMINT, bi BIGINT UNSIGNED,
  f FLOAT, dbl DOUBLE, de DECIMAL(20,6), de2 DECIMAL(5,0), b BIT(10), d DATE, dt DATETIME(3), ts TIMESTAMP(6) NULL, tm TIME(2), tm6 TIME(6), y YEAR,
  c CHAR(5), v VARCHAR(300), tx TEXT, bl BLOB, bn BINARY(4), vb VARBINARY(10), e ENUM('a','b','c'), st SET('x','y','z'), l1 VARCHAR(10) CHARACTER SET latin1)`

// TestMariaDBReplicaFollows: a real MariaDB 10.11 replica follows
// HandlerDB's binary log, by GTID (MASTER_USE_GTID=slave_pos) from the
// start and then as rows commit, and again by file and position from
// position 4: it makes the same databases, tables, indexes and views
// from the DDL statements (an ALTER that rebuilds the table is its
// statement, not its rows) and ends with the same rows for a column of
// every kind, inserts, updates (NULLs, the primary key moved) and
// deletes; a rolled-back transaction is not in the log.
func TestMariaDBReplicaFollows(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	ts := startLoggingServer(t)
	e := ts.e
	db := ts.open("")
	m, err := mariadbtest.Start("hdb-binlog-replica-", "--server-id=2")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	// (DDL goes to the log as statements: the replica makes the tables)
	mustExec(t, db, "CREATE DATABASE bl", binlogTable, "CREATE TABLE bl.gone (k INT PRIMARY KEY)", "INSERT INTO bl.gone VALUES (1)")
	mustExec(t, db,
		`INSERT INTO bl.t VALUES (1, -128, 65535, -8388608, 18446744073709551615, 1.5, -2.25e100, '-12345678901234.123456', 99999, b'1010101010', '2024-02-29', '2024-02-29 23:59:59.999', '2038-01-19 03:14:07.123456', '-838:59:59.99', '12:34:56.000001', 2155,
		  'abc', REPEAT('é', 300), 'long text', x'00ff10', x'01020304', x'0a0b', 'b', 'x,z', 'café')`,
		`INSERT INTO bl.t (id) VALUES (2), (3)`,
		`UPDATE bl.t SET v = 'two', tm = '00:00:00.5', y = 0, d = '1000-01-01', ts = NULL WHERE id = 2`,
		"BEGIN", "INSERT INTO bl.t (id, v) VALUES (90, 'rolled back')", "ROLLBACK")
	host, port, _ := net.SplitHostPort(ts.s.Addr().String())
	follow := func(how string) {
		mustExec(t, m.Root, "STOP SLAVE", "RESET SLAVE ALL",
			fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_CONNECT_RETRY=1, %s", host, port, how),
			"START SLAVE")
	}
	mustExec(t, m.Root, "SET GLOBAL gtid_slave_pos = ''")
	follow("MASTER_USE_GTID=slave_pos")
	same := func(step string) {
		t.Helper()
		want := fmt.Sprintf("0-1-%d", e.FeedSeq())
		var pos string
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && pos != want; time.Sleep(50 * time.Millisecond) {
			if err := m.Root.QueryRow("SELECT @@gtid_slave_pos").Scan(&pos); err != nil {
				t.Fatal(err)
			}
		}
		if pos != want {
			t.Fatalf("%s: the replica is at %q, want %q (%s)", step, pos, want, slaveError(m.Root))
		}
		for _, q := range []string{
			"SELECT id, ti, si, mi, bi, f, dbl, de, de2, b + 0, d, dt, ts, tm, tm6, y, c, v, tx, HEX(bl), HEX(bn), HEX(vb), e, st, l1 FROM bl.t ORDER BY id",
			"SELECT * FROM bl.t ORDER BY id",
			"SELECT TABLE_NAME, TABLE_TYPE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'bl' ORDER BY 1",
			"SELECT INDEX_NAME, COLUMN_NAME FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'bl' ORDER BY 1, 2",
		} {
			ours, theirs := queryRows(t, db, q), queryRows(t, m.Root, q)
			if strings.Join(ours, "\n") != strings.Join(theirs, "\n") {
				t.Fatalf("%s: %s on the replica:\n%s\nwant\n%s", step, q, strings.Join(theirs, "\n"), strings.Join(ours, "\n"))
			}
		}
	}
	same("caught up by GTID")
	mustExec(t, db, "ALTER TABLE bl.t ADD COLUMN extra INT NOT NULL DEFAULT 5", "CREATE INDEX by_v ON bl.t (v)",
		"TRUNCATE TABLE bl.gone", "DROP TABLE bl.gone", "CREATE VIEW bl.vw AS SELECT id, extra FROM bl.t")
	mustExec(t, db, "INSERT INTO bl.t (id, v) VALUES (4, 'streamed'), (5, NULL)",
		"UPDATE bl.t SET id = 40, c = NULL WHERE id = 4",
		"DELETE FROM bl.t WHERE id = 3",
		"BEGIN", "INSERT INTO bl.t (id) VALUES (6)", "UPDATE bl.t SET v = 'in a transaction' WHERE id = 1", "COMMIT")
	same("streamed by GTID")
	// SHOW MASTER STATUS names the position the replica has read to.
	var file, pos, doDB, ignoreDB, executed string
	if err := db.QueryRow("SHOW MASTER STATUS").Scan(&file, &pos, &doDB, &ignoreDB, &executed); err != nil {
		t.Fatal(err)
	}
	if read := slaveStatus(m.Root, "Read_Master_Log_Pos"); file != "hdb-bin.000001" || pos != read || executed != fmt.Sprintf("%s:1-%d", binlog.ServerUUID(1), e.FeedSeq()) {
		t.Errorf("SHOW MASTER STATUS: %s %s %s; the replica read to %s", file, pos, executed, read)
	}
	// Again from the log's start, by file and position.
	mustExec(t, m.Root, "STOP SLAVE", "DROP DATABASE bl")
	follow("MASTER_USE_GTID=no, MASTER_LOG_FILE='hdb-bin.000001', MASTER_LOG_POS=4")
	mustExec(t, db, "INSERT INTO bl.t (id) VALUES (7)")
	same("by file and position")
	mustExec(t, m.Root, "STOP SLAVE")
}

// slaveStatus is column col of the replica's SHOW SLAVE STATUS.
func slaveStatus(c *gosql.DB, col string) string { return slaveStatusCols(c, col)[0] }

// slaveError is the replica's last IO and SQL errors.
func slaveError(c *gosql.DB) string {
	v := slaveStatusCols(c, "Last_IO_Error", "Last_SQL_Error")
	return "Last_IO_Error: " + v[0] + "; Last_SQL_Error: " + v[1]
}

// slaveStatusCols is the columns want of one SHOW SLAVE STATUS, in
// order ("" for a column or status it lacks).
func slaveStatusCols(c *gosql.DB, want ...string) []string {
	out := make([]string, len(want))
	rows, err := c.Query("SHOW SLAVE STATUS")
	if err != nil {
		return out
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	vals := make([]gosql.NullString, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if !rows.Next() || rows.Scan(ptrs...) != nil {
		return out
	}
	for i, c := range cols {
		if k := slices.Index(want, c); k >= 0 {
			out[k] = vals[i].String
		}
	}
	return out
}

// TestReplicaGTIDNotInLog: a replica whose GTID position names a
// transaction the log does not have (another server's, or past the
// log's end) is refused with 1236, as MariaDB refuses it, and does not
// start after it silently.
func TestReplicaGTIDNotInLog(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	ts := startLoggingServer(t)
	mustExec(t, ts.open(""), "CREATE DATABASE g1", "CREATE DATABASE g2")
	m, err := mariadbtest.Start("hdb-binlog-gtid-", "--server-id=2")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	host, port, _ := net.SplitHostPort(ts.s.Addr().String())
	for _, pos := range []string{"0-9-1", "0-1-3"} {
		mustExec(t, m.Root, "STOP SLAVE", "RESET SLAVE ALL", "SET GLOBAL gtid_slave_pos = '"+pos+"'",
			fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos", host, port),
			"START SLAVE")
		errno := ""
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && (errno == "" || errno == "0"); time.Sleep(50 * time.Millisecond) {
			errno = slaveStatus(m.Root, "Last_IO_Errno")
		}
		if errno != "1236" {
			t.Errorf("replica at %s: Last_IO_Errno %s (%s), want 1236", pos, errno, slaveError(m.Root))
		}
	}
	mustExec(t, m.Root, "STOP SLAVE")
}

// startLoggingServer starts a server that writes its binary log as
// server 1.
func startLoggingServer(t *testing.T) *testServer {
	t.Helper()
	return startTestServerOn(t, "", Config{}, func(e *engine.Engine, cfg *Config) {
		l, err := binlog.Open(e, 1)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Binlog = l
	})
}

// TestMariaDBBinlogReplays: mariadb-binlog --read-from-remote-server
// reads HandlerDB's whole binary log (a non-blocking dump ends at the
// log's end) and decodes every row, LOAD DATA's included; its output,
// run by a fresh MariaDB, makes the same tables with the same rows (a
// point-in-time recovery from HandlerDB's log).
func TestMariaDBBinlogReplays(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	tool, err := mariadbtest.LookBin("mariadb-binlog")
	if err != nil {
		t.Skip("no mariadb-binlog: ", err)
	}
	client, err := mariadbtest.LookBin("mariadb")
	if err != nil {
		t.Skip("no mariadb client: ", err)
	}
	ts := startLoggingServer(t)
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE bl", binlogTable,
		`INSERT INTO bl.t VALUES (1, -128, 65535, -8388608, 18446744073709551615, 1.5, -2.25e100, '-12345678901234.123456', 99999, b'1010101010', '2024-02-29', '2024-02-29 23:59:59.999', '2038-01-19 03:14:07.123456', '-838:59:59.99', '12:34:56.000001', 2155,
		  'abc', REPEAT('é', 300), 'long text', x'00ff10', x'01020304', x'0a0b', 'b', 'x,z', 'café')`,
		"INSERT INTO bl.t (id, v) VALUES (2, 'two'), (3, NULL)", "UPDATE bl.t SET id = 30, tm = '-00:00:01.25' WHERE id = 3",
		"DELETE FROM bl.t WHERE id = 2", "ALTER TABLE bl.t ADD COLUMN extra INT NOT NULL DEFAULT 5", "INSERT INTO bl.t (id, extra) VALUES (4, 44)")
	host, port, _ := net.SplitHostPort(ts.s.Addr().String())
	// LOAD DATA's rows are in the log too (in autocommit they were
	// ingested by a staged job, outside the log), as the mariadb client
	// sends it.
	// So are a REPLACE load's: one row replaces another with its primary
	// key, one deletes a row with its unique key.
	rowsFile := filepath.Join(t.TempDir(), "rows.tsv")
	if err := os.WriteFile(rowsFile, []byte("50\tloaded\t1\n51\t\\N\t2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	replaceFile := filepath.Join(t.TempDir(), "replace.tsv")
	if err := os.WriteFile(replaceFile, []byte("50\treplaced\t5\n52\tnew\t2\n53\tplain\t3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if msg, err := exec.Command(client, "--host="+host, "--port="+port, "--user=root", "--local-infile=1",
		"-e", "CREATE TABLE bl.loaded (id INT PRIMARY KEY, v VARCHAR(10), u INT, UNIQUE KEY (u)); LOAD DATA LOCAL INFILE '"+rowsFile+"' INTO TABLE bl.loaded; "+
			"LOAD DATA LOCAL INFILE '"+replaceFile+"' REPLACE INTO TABLE bl.loaded").CombinedOutput(); err != nil {
		t.Fatalf("LOAD DATA: %v\n%s", err, msg)
	}
	if got := strings.Join(queryRows(t, db, "SELECT id, v, u FROM bl.loaded ORDER BY id"), " "); got != "50|replaced|5 52|new|2 53|plain|3" {
		t.Fatalf("after LOAD DATA REPLACE: %s", got)
	}
	out, err := exec.Command(tool, "--read-from-remote-server", "--host="+host, "--port="+port, "--user=root", "-vv", "hdb-bin.000001").CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", tool, err, out)
	}
	for _, want := range []string{"### INSERT INTO `bl`.`t`", "### INSERT INTO `bl`.`loaded`", "### UPDATE `bl`.`t`", "### DELETE FROM `bl`.`t`", "@8=-12345678901234.123456", "ALTER TABLE bl.t ADD COLUMN extra", "# End of log file"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("mariadb-binlog's output lacks %q", want)
		}
	}
	m, err := mariadbtest.Start("hdb-binlog-replay-", "--server-id=2")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	replay := exec.Command(client, "--host=127.0.0.1", fmt.Sprintf("--port=%d", m.Port), "--user=root")
	replay.Stdin = bytes.NewReader(out)
	if msg, err := replay.CombinedOutput(); err != nil {
		t.Fatalf("replaying the log into MariaDB: %v\n%s", err, msg)
	}
	q := "SELECT id, ti, si, mi, bi, f, dbl, de, de2, b + 0, d, dt, ts, tm, tm6, y, c, v, tx, HEX(bl), HEX(bn), HEX(vb), e, st, l1, extra FROM bl.t ORDER BY id"
	for _, q := range []string{q, "SELECT id, v, u FROM bl.loaded ORDER BY id"} {
		if ours, theirs := queryRows(t, db, q), queryRows(t, m.Root, q); strings.Join(ours, "\n") != strings.Join(theirs, "\n") {
			t.Fatalf("MariaDB after the replay, %s:\n%s\nwant\n%s", q, strings.Join(theirs, "\n"), strings.Join(ours, "\n"))
		}
	}
}

// TestMariaDBDumpMasterData: mariadb-dump --single-transaction
// --master-data=2 --gtid takes its position from HandlerDB's consistent
// snapshot (Binlog_snapshot_file and _position, as MariaDB names them,
// which it needs to skip FLUSH TABLES WITH READ LOCK) and prints the
// binary log position and GTID of the rows it dumps; @@gtid_binlog_pos
// names the last transaction.
func TestMariaDBDumpMasterData(t *testing.T) {
	tool, err := mariadbtest.LookBin("mariadb-dump")
	if err != nil {
		t.Skip("no mariadb-dump: ", err)
	}
	ts := startLoggingServer(t)
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE md", "CREATE TABLE md.t (id INT PRIMARY KEY)", "INSERT INTO md.t VALUES (1), (2)")
	var gtid string
	if err := db.QueryRow("SELECT @@gtid_binlog_pos").Scan(&gtid); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("0-1-%d", ts.e.FeedSeq())
	if gtid != want {
		t.Errorf("@@gtid_binlog_pos %q, want %q", gtid, want)
	}
	var file, pos, doDB, ignoreDB, executed string
	if err := db.QueryRow("SHOW MASTER STATUS").Scan(&file, &pos, &doDB, &ignoreDB, &executed); err != nil {
		t.Fatal(err)
	}
	host, port, _ := net.SplitHostPort(ts.s.Addr().String())
	// With a consistent snapshot, and the way without one: FLUSH LOCAL
	// TABLES, FLUSH TABLES WITH READ LOCK, SHOW MASTER STATUS (readlock.go).
	for _, lock := range []string{"--single-transaction", "--lock-all-tables"} {
		out, err := exec.Command(tool, "--host="+host, "--port="+port, "--user=root", lock, "--master-data=2", "--gtid", "md").CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", tool, lock, err, out)
		}
		for _, line := range []string{
			fmt.Sprintf("CHANGE MASTER TO MASTER_LOG_FILE='%s', MASTER_LOG_POS=%s;", file, pos),
			fmt.Sprintf("SET GLOBAL gtid_slave_pos='%s';", want),
			"INSERT INTO `t` VALUES",
		} {
			if !strings.Contains(string(out), line) {
				t.Errorf("mariadb-dump %s: the output lacks %q:\n%s", lock, line, out)
			}
		}
	}
}
