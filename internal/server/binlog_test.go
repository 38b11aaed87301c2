package server

import (
	"context"
	"database/sql"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	gmysql "github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-mysql-org/go-mysql/replication"

	"github.com/handlerdb/handlerdb/hs"
	"github.com/handlerdb/handlerdb/internal/config"
)

// TestHandlerDBReplicaOfHandlerDB: a HandlerDB replica follows a
// HandlerDB primary that writes its binary log (--log-bin): it copies
// the primary from a consistent snapshot first (binlog_snapshot_file and
// _position, BINLOG_GTID_POS), then streams by GTID, and ends with the
// same rows, those written over HandlerSocket's write port included, and
// the tables DDL made after the copy.
func TestHandlerDBReplicaOfHandlerDB(t *testing.T) {
	primary := startTest(t, func(c *config.Config) { c.LogBin, c.ServerID = true, 1 })
	replica := startTest(t, func(c *config.Config) { c.ServerID = 2 })
	pdb := sqlDB(t, primary, "hr")
	execAll(t, pdb, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20), n DECIMAL(6,2))",
		"INSERT INTO t VALUES (1, 'copied', 1.5), (2, 'copied too', NULL)")
	rdb := sqlDB(t, replica, "mysql")
	host, port, _ := net.SplitHostPort(primary.SQLAddr().String())
	execAll(t, rdb, fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_USE_GTID=slave_pos", host, port),
		"START SLAVE")
	execAll(t, pdb, "INSERT INTO t VALUES (3, 'streamed', 3.25)", "UPDATE t SET v = 'changed' WHERE id = 1", "DELETE FROM t WHERE id = 2",
		"CREATE TABLE later (k INT PRIMARY KEY)", "INSERT INTO later VALUES (7)")
	// Over HandlerSocket's write port.
	c, err := hs.New(hs.Options{ReadAddr: primary.HS().ReadAddr().String(), WriteAddr: primary.HS().WriteAddr().String()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Index("hr", "t", "PRIMARY", []string{"id", "v", "n"}).Insert(context.Background(), 4, "over hs", "4.00"); err != nil {
		t.Fatal(err)
	}
	rows := func(db *sql.DB, q string) string {
		rs, err := db.Query(q)
		if err != nil {
			return err.Error()
		}
		defer rs.Close()
		var out []string
		for rs.Next() {
			var a, b, c sql.NullString
			if err := rs.Scan(&a, &b, &c); err != nil {
				return err.Error()
			}
			out = append(out, a.String+"|"+b.String+"|"+c.String)
		}
		return strings.Join(out, "\n")
	}
	q := "SELECT id, v, n FROM hr.t UNION ALL SELECT k, NULL, NULL FROM hr.later ORDER BY 1"
	want := rows(pdb, q)
	if !strings.Contains(want, "over hs") {
		t.Fatalf("the primary's rows:\n%s", want)
	}
	got := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if got = rows(rdb, q); got == want {
			return
		}
	}
	t.Fatalf("the replica has\n%s\nwant\n%s", got, want)
}

// TestHandlerDBSemiSyncReplica: a HandlerDB replica with
// rpl_semi_sync_slave_enabled acknowledges its HandlerDB primary's
// events: commits over SQL and HandlerSocket count as acknowledged
// (Rpl_semi_sync_master_yes_tx), and with the replica stopped a commit
// waits out the timeout, which switches semi-sync off.
func TestHandlerDBSemiSyncReplica(t *testing.T) {
	// (semi-sync set by the options, as in a configuration file)
	primary := startTest(t, func(c *config.Config) {
		c.LogBin, c.ServerID, c.SemiSyncPrimary, c.SemiSyncTimeoutMS = true, 1, true, 60000
	})
	replica := startTest(t, func(c *config.Config) { c.ServerID, c.SemiSyncReplica = 2, true })
	pdb := sqlDB(t, primary, "mysql")
	rdb := sqlDB(t, replica, "mysql")
	status := func(name string) string {
		t.Helper()
		var n, v string
		if err := pdb.QueryRow("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_"+name+"'").Scan(&n, &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	waitStatus := func(name, want string) {
		t.Helper()
		got := ""
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
			if got = status(name); got == want {
				return
			}
		}
		t.Fatalf("Rpl_semi_sync_master_%s is %s, want %s", name, got, want)
	}
	t.Cleanup(func() {
		execAll(t, pdb, "SET GLOBAL rpl_semi_sync_master_enabled = 0", "SET GLOBAL rpl_semi_sync_master_timeout = 10000",
			"SET GLOBAL rpl_semi_sync_slave_enabled = 0")
	})
	if st := status("status"); st != "ON" {
		t.Fatalf("Rpl_semi_sync_master_status %s with --rpl-semi-sync-master-enabled", st)
	}
	execAll(t, pdb, "SET GLOBAL rpl_semi_sync_master_enabled = 0", "CREATE DATABASE hr", "CREATE TABLE hr.t (id INT PRIMARY KEY, v VARCHAR(20))",
		"SET GLOBAL rpl_semi_sync_master_enabled = 1")
	host, port, _ := net.SplitHostPort(primary.SQLAddr().String())
	execAll(t, rdb,
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_USE_GTID=slave_pos", host, port),
		"START SLAVE")
	waitStatus("clients", "1")
	execAll(t, pdb, "INSERT INTO hr.t VALUES (1, 'sql')")
	c, err := hs.New(hs.Options{ReadAddr: primary.HS().ReadAddr().String(), WriteAddr: primary.HS().WriteAddr().String()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Index("hr", "t", "PRIMARY", []string{"id", "v"}).Insert(context.Background(), 2, "hs"); err != nil {
		t.Fatal(err)
	}
	if got := status("yes_tx"); got != "2" {
		t.Fatalf("Rpl_semi_sync_master_yes_tx %s after two commits", got)
	}
	// Its rows, on the replica.
	got := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && got != "2"; time.Sleep(20 * time.Millisecond) {
		_ = rdb.QueryRow("SELECT COUNT(*) FROM hr.t").Scan(&got)
	}
	if got != "2" {
		t.Fatalf("the replica has %s rows", got)
	}
	execAll(t, rdb, "STOP SLAVE")
	waitStatus("clients", "0")
	execAll(t, pdb, "SET GLOBAL rpl_semi_sync_master_timeout = 300")
	start := time.Now()
	execAll(t, pdb, "INSERT INTO hr.t VALUES (3, 'timed out')")
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Fatalf("a commit without its replica took %v, the timeout is 300 ms", d)
	}
	if st := status("status"); st != "OFF" {
		t.Fatalf("Rpl_semi_sync_master_status %s after the timeout", st)
	}
	execAll(t, rdb, "START SLAVE")
	waitStatus("status", "ON")
}

// TestHandlerDBReplicaInMySQLFlavor: a primary that presents itself as
// MySQL (--version-string without "MariaDB") is followed by a HandlerDB
// replica as a MySQL primary is: the copy takes its position from SHOW
// MASTER STATUS's Executed_Gtid_Set, the stream comes by
// COM_BINLOG_DUMP_GTID in MySQL's flavor (GTIDs server_uuid:N, BEGIN,
// version 2 rows events), and after a restart the replica resumes from
// its GTID set. Both end with the same rows and the replica's
// Executed_Gtid_Set is the primary's @@gtid_executed.
func TestHandlerDBReplicaInMySQLFlavor(t *testing.T) {
	replica := startTest(t, func(c *config.Config) { c.ServerID = 2 })
	// (started last: @@version is the process's, the last server's)
	primary := startTest(t, func(c *config.Config) {
		c.LogBin, c.ServerID, c.VersionString = true, 1, "8.0.99-HandlerDB"
	})
	pdb := sqlDB(t, primary, "mf")
	if v := oneValue(t, pdb, "SELECT @@gtid_mode"); v != "ON" {
		t.Fatalf("@@gtid_mode %q", v)
	}
	execAll(t, pdb, "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(20), n DECIMAL(6,2))",
		"INSERT INTO t VALUES (1, 'copied', 1.5), (2, 'copied too', NULL)")
	rdb := sqlDB(t, replica, "mysql")
	host, port, _ := net.SplitHostPort(primary.SQLAddr().String())
	execAll(t, rdb, fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='%s', SOURCE_PORT=%s, SOURCE_USER='root', SOURCE_PASSWORD='', SOURCE_AUTO_POSITION=1, SOURCE_CONNECT_RETRY=1", host, port),
		"START REPLICA")
	execAll(t, pdb, "INSERT INTO t VALUES (3, 'streamed', 3.25)", "UPDATE t SET v = 'changed' WHERE id = 1", "DELETE FROM t WHERE id = 2",
		"CREATE TABLE later (k INT PRIMARY KEY)", "INSERT INTO later VALUES (7)",
		"BEGIN", "INSERT INTO later VALUES (8)", "UPDATE t SET n = n * 2", "COMMIT")
	c, err := hs.New(hs.Options{ReadAddr: primary.HS().ReadAddr().String(), WriteAddr: primary.HS().WriteAddr().String()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Index("mf", "t", "PRIMARY", []string{"id", "v", "n"}).Insert(context.Background(), 4, "over hs", "4.00"); err != nil {
		t.Fatal(err)
	}
	q := "SELECT id, v, n FROM mf.t UNION ALL SELECT k, NULL, NULL FROM mf.later ORDER BY 1, 2"
	waitEqual(t, "rows", q, pdb, rdb)
	executed := oneValue(t, pdb, "SELECT @@gtid_executed")
	if executed != "48444200-0000-8000-8000-000000000001:1-10" {
		t.Fatalf("the primary's @@gtid_executed %q", executed)
	}
	waitStatus := func(want string) {
		t.Helper()
		got := ""
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(30 * time.Millisecond) {
			st := slaveStatus(t, rdb)
			if got = st["Executed_Gtid_Set"]; got == want && st["Master_UUID"] == "48444200-0000-8000-8000-000000000001" {
				return
			}
		}
		t.Fatalf("replica's Executed_Gtid_Set %q (Master_UUID %q), want %q", got, slaveStatus(t, rdb)["Master_UUID"], want)
	}
	waitStatus(executed)

	// Stopped, the replica misses writes; started, it asks for them by
	// its GTID set.
	execAll(t, rdb, "STOP REPLICA")
	execAll(t, pdb, "INSERT INTO later VALUES (9)", "DELETE FROM later WHERE k = 7")
	execAll(t, rdb, "START REPLICA")
	waitEqual(t, "rows after a restart", q, pdb, rdb)
	waitStatus(oneValue(t, pdb, "SELECT @@gtid_executed"))
	if st := slaveStatus(t, rdb); st["Master_Server_Id"] != "1" {
		t.Errorf("Master_Server_Id %q", st["Master_Server_Id"])
	}

	// A MySQL reader by file and position (no @mariadb_slave_capability)
	// gets MySQL's events too: every transaction as GTID, (BEGIN,) ...,
	// ending at the position SHOW MASTER STATUS gives.
	pport, _ := strconv.Atoi(port)
	syncer := replication.NewBinlogSyncer(replication.BinlogSyncerConfig{ServerID: 99, Flavor: gmysql.MySQLFlavor,
		Host: host, Port: uint16(pport), User: "root", Logger: slog.New(slog.DiscardHandler)})
	defer syncer.Close()
	st, err := syncer.StartSync(gmysql.Position{Name: "hdb-bin.000001", Pos: 4})
	if err != nil {
		t.Fatal(err)
	}
	var end uint32
	fmt.Sscan(strings.Split(queryText(t, pdb, "SHOW MASTER STATUS"), "|")[1], &end)
	var types []string
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		ev, err := st.GetEvent(ctx)
		if err != nil {
			t.Fatalf("after %v: %v", types, err)
		}
		switch ev.Header.EventType {
		case replication.GTID_EVENT, replication.WRITE_ROWS_EVENTv2, replication.UPDATE_ROWS_EVENTv2, replication.DELETE_ROWS_EVENTv2:
			types = append(types, ev.Header.EventType.String())
		case replication.QUERY_EVENT:
			types = append(types, string(ev.Event.(*replication.QueryEvent).Query))
		}
		if ev.Header.LogPos == end {
			break
		}
	}
	got := strings.Join(types, " ")
	for _, want := range []string{"GTIDEvent CREATE TABLE t", "GTIDEvent BEGIN WriteRowsEventV2 GTIDEvent BEGIN UpdateRowsEventV2 GTIDEvent BEGIN DeleteRowsEventV2",
		"GTIDEvent BEGIN WriteRowsEventV2 UpdateRowsEventV2"} {
		if !strings.Contains(got, want) {
			t.Errorf("the MySQL reader's events lack %q:\n%s", want, got)
		}
	}
	if n := strings.Count(got, "GTIDEvent"); n != 12 {
		t.Errorf("%d transactions, want 12:\n%s", n, got)
	}

	// A reader whose GTID set holds more of the primary's transactions
	// than its log is refused with 1236, naming them.
	ahead, err := gmysql.ParseMysqlGTIDSet("48444200-0000-8000-8000-000000000001:1-20")
	if err != nil {
		t.Fatal(err)
	}
	syncer2 := replication.NewBinlogSyncer(replication.BinlogSyncerConfig{ServerID: 98, Flavor: gmysql.MySQLFlavor,
		Host: host, Port: uint16(pport), User: "root", Logger: slog.New(slog.DiscardHandler)})
	defer syncer2.Close()
	st2, err := syncer2.StartSyncGTID(ahead)
	if err == nil {
		_, err = st2.GetEvent(ctx)
	}
	if err == nil || !strings.Contains(err.Error(), "1236") || !strings.Contains(err.Error(), "more GTIDs than the source") || !strings.Contains(err.Error(), ":13-20") {
		t.Errorf("a reader ahead of the log: %v", err)
	}
}
