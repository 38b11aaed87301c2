package sqlfront

import (
	gosql "database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	gmysql "github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-sql-driver/mysql"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/mariadbtest"
)

// semiStatus reads one of the primary's Rpl_semi_sync_master_* status
// variables.
func semiStatus(t *testing.T, db *gosql.DB, name string) string {
	t.Helper()
	var n, v string
	if err := db.QueryRow("SHOW GLOBAL STATUS LIKE 'Rpl_semi_sync_master_"+name+"'").Scan(&n, &v); err != nil {
		t.Fatalf("Rpl_semi_sync_master_%s: %v", name, err)
	}
	return v
}

// waitSemiStatus waits up to 20 s for a status variable's value.
func waitSemiStatus(t *testing.T, db *gosql.DB, name, want string) {
	t.Helper()
	got := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if got = semiStatus(t, db, name); got == want {
			return
		}
	}
	t.Fatalf("Rpl_semi_sync_master_%s is %s, want %s", name, got, want)
}

// TestMariaDBSemiSync: a real MariaDB 10.11 replica with
// rpl_semi_sync_slave_enabled acknowledges HandlerDB's events: with
// rpl_semi_sync_master_enabled a commit is answered only once the
// replica has it (one whose replica is stopped waits until it comes
// back), the status variables count as MariaDB's do, and after the
// timeout semi-sync switches off (commits stop waiting) until the
// replica catches up.
func TestMariaDBSemiSync(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	ts := startLoggingServer(t)
	db := ts.open("")
	db.SetMaxOpenConns(4)
	m, err := mariadbtest.Start("hdb-semisync-replica-", "--server-id=2")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	t.Cleanup(func() {
		mustExec(t, db, "SET GLOBAL rpl_semi_sync_master_enabled = 0", "SET GLOBAL rpl_semi_sync_master_timeout = 10000")
	})
	if got := semiStatus(t, db, "status"); got != "OFF" {
		t.Fatalf("Rpl_semi_sync_master_status %s before it is enabled", got)
	}
	mustExec(t, db, "CREATE DATABASE ss", "CREATE TABLE ss.t (id INT PRIMARY KEY, v VARCHAR(20))",
		"SET GLOBAL rpl_semi_sync_master_timeout = 60000", "SET GLOBAL rpl_semi_sync_master_enabled = 1")
	host, port, _ := net.SplitHostPort(ts.s.Addr().String())
	mustExec(t, m.Root, "SET GLOBAL rpl_semi_sync_slave_enabled = 1", "SET GLOBAL gtid_slave_pos = ''",
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos", host, port),
		"START SLAVE")
	defer mustExec(t, m.Root, "STOP SLAVE")
	waitSemiStatus(t, db, "clients", "1")
	// The replica's registration.
	if hosts := queryRows(t, db, "SHOW SLAVE HOSTS"); len(hosts) != 1 || !strings.HasPrefix(hosts[0], "2|") || !strings.HasSuffix(hosts[0], "|1") {
		t.Fatalf("SHOW SLAVE HOSTS: %q", hosts)
	}
	for i := range 10 {
		mustExec(t, db, fmt.Sprintf("INSERT INTO ss.t VALUES (%d, 'acked')", i))
	}
	if got := semiStatus(t, db, "yes_tx"); got != "10" {
		t.Fatalf("Rpl_semi_sync_master_yes_tx %s after 10 commits (%s)", got, slaveError(m.Root))
	}
	if got := semiStatus(t, db, "no_tx"); got != "0" {
		t.Fatalf("Rpl_semi_sync_master_no_tx %s", got)
	}
	if st := semiStatus(t, db, "status"); st != "ON" {
		t.Fatalf("Rpl_semi_sync_master_status %s", st)
	}
	var replicaStatus string
	if err := m.Root.QueryRow("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'RPL_SEMI_SYNC_SLAVE_STATUS'").Scan(&replicaStatus); err != nil || replicaStatus != "ON" {
		t.Fatalf("the replica's Rpl_semi_sync_slave_status %q %v", replicaStatus, err)
	}

	// The replica's connection stops: a commit is not answered until it
	// is back and has the commit's events.
	mustExec(t, m.Root, "STOP SLAVE IO_THREAD")
	waitSemiStatus(t, db, "clients", "0")
	done := make(chan error, 1)
	go func() {
		_, err := db.Exec("INSERT INTO ss.t VALUES (100, 'held')")
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("a commit was answered with no replica to acknowledge it (%v)", err)
	case <-time.After(time.Second):
	}
	mustExec(t, m.Root, "START SLAVE IO_THREAD")
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the held commit was not answered after the replica came back")
	}
	if got := semiStatus(t, db, "yes_tx"); got != "11" {
		t.Fatalf("Rpl_semi_sync_master_yes_tx %s after the held commit", got)
	}

	// The timeout switches semi-sync off; the replica catching up
	// switches it on again.
	mustExec(t, db, "SET GLOBAL rpl_semi_sync_master_timeout = 300")
	mustExec(t, m.Root, "STOP SLAVE IO_THREAD")
	waitSemiStatus(t, db, "clients", "0")
	start := time.Now()
	mustExec(t, db, "INSERT INTO ss.t VALUES (200, 'timed out')")
	if d := time.Since(start); d < 300*time.Millisecond {
		t.Fatalf("a commit with no replica took %v, the timeout is 300 ms", d)
	}
	if st, nt := semiStatus(t, db, "status"), semiStatus(t, db, "no_times"); st != "OFF" || nt != "1" {
		t.Fatalf("after the timeout: status %s, no_times %s", st, nt)
	}
	start = time.Now()
	mustExec(t, db, "INSERT INTO ss.t VALUES (201, 'async')")
	if d := time.Since(start); d >= 300*time.Millisecond {
		t.Fatalf("with semi-sync off a commit took %v", d)
	}
	if got := semiStatus(t, db, "no_tx"); got != "2" {
		t.Fatalf("Rpl_semi_sync_master_no_tx %s", got)
	}
	mustExec(t, m.Root, "START SLAVE IO_THREAD")
	waitSemiStatus(t, db, "status", "ON")
	mustExec(t, db, "INSERT INTO ss.t VALUES (202, 'acked again')")
	if got := semiStatus(t, db, "yes_tx"); got != "12" {
		t.Fatalf("Rpl_semi_sync_master_yes_tx %s after semi-sync came back", got)
	}
	q := "SELECT id, v FROM ss.t ORDER BY id"
	want := fmt.Sprint(queryRows(t, db, q))
	got := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && got != want; time.Sleep(50 * time.Millisecond) {
		got = fmt.Sprint(queryRows(t, m.Root, q))
	}
	if got != want {
		t.Fatalf("the replica has %s, want %s (%s)", got, want, slaveError(m.Root))
	}
}

// errno is a statement's MariaDB error number (0: none).
func errno(err error) uint16 {
	var me *mysql.MySQLError
	if errors.As(err, &me) {
		return me.Number
	}
	return 0
}

// TestBinlogStatements: SHOW BINLOG EVENTS lists the log's events as
// MariaDB 10.11 lists its own (types, positions, Info), with IN, FROM
// and LIMIT and MariaDB's errors (1220) for another file or a position
// inside an event; PURGE BINARY LOGS TO a file the log lacks is 1373,
// BEFORE a time after the last transaction purges the log (the list
// then starts after it); without --log-bin PURGE is 1381 and the list
// is empty.
func TestBinlogStatements(t *testing.T) {
	ts := startLoggingServer(t)
	db := ts.open("")
	db.SetMaxOpenConns(1)
	mustExec(t, db, "CREATE DATABASE bs", "CREATE TABLE bs.t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO bs.t VALUES (1, 'a'), (2, 'b')", "UPDATE bs.t SET v = 'c' WHERE id = 1", "DELETE FROM bs.t WHERE id = 2")
	rows := queryRows(t, db, "SHOW BINLOG EVENTS")
	var types []string
	for _, r := range rows {
		types = append(types, strings.Split(r, "|")[2])
	}
	want := "Format_desc Gtid_list Gtid Query Gtid Query Gtid Table_map Write_rows_v1 Xid Gtid Table_map Update_rows_v1 Xid Gtid Table_map Delete_rows_v1 Xid"
	if strings.Join(types, " ") != want {
		t.Fatalf("SHOW BINLOG EVENTS:\n%s", strings.Join(rows, "\n"))
	}
	if !strings.HasSuffix(rows[3], "CREATE DATABASE bs") || !strings.Contains(rows[6], "BEGIN GTID 0-1-3") ||
		!strings.HasSuffix(rows[9], "COMMIT /* xid=3 */") || !strings.Contains(rows[8], "flags: STMT_END_F") {
		t.Fatalf("Info texts:\n%s", strings.Join(rows, "\n"))
	}
	pos := strings.Split(rows[6], "|")[1]
	if got := queryRows(t, db, "SHOW BINLOG EVENTS IN 'hdb-bin.000001' FROM "+pos+" LIMIT 1, 2"); len(got) != 2 || got[0] != rows[7] || got[1] != rows[8] {
		t.Fatalf("FROM %s LIMIT 1, 2: %q", pos, got)
	}
	for q, n := range map[string]uint16{
		"SHOW BINLOG EVENTS FROM 5":          errtable.ERErrorWhenExecutingCommand,
		"SHOW BINLOG EVENTS IN 'other.0001'": errtable.ERErrorWhenExecutingCommand,
		"PURGE BINARY LOGS TO 'other.0001'":  errtable.ERUnknownTargetBinlog,
	} {
		if _, err := db.Exec(q); errno(err) != n {
			t.Errorf("%s: %v, want %d", q, err, n)
		}
	}
	mustExec(t, db, "PURGE BINARY LOGS TO 'hdb-bin.000001'")
	if got := queryRows(t, db, "SHOW BINLOG EVENTS"); len(got) != len(rows) {
		t.Fatalf("PURGE TO the log's one file purged something: %d events, %d before", len(got), len(rows))
	}
	mustExec(t, db, "PURGE BINARY LOGS BEFORE NOW() + INTERVAL 1 DAY", "INSERT INTO bs.t VALUES (3, 'd')")
	after := queryRows(t, db, "SHOW BINLOG EVENTS")
	if len(after) != 4 || !strings.Contains(after[0], "BEGIN GTID 0-1-6") {
		t.Fatalf("after PURGE BEFORE:\n%s", strings.Join(after, "\n"))
	}
	plain := startTestServer(t, "", Config{}).open("")
	if _, err := plain.Exec("PURGE BINARY LOGS BEFORE NOW()"); errno(err) != errtable.ERNoBinaryLogging {
		t.Errorf("PURGE without a log: %v", err)
	}
	if got := queryRows(t, plain, "SHOW BINLOG EVENTS"); len(got) != 0 {
		t.Errorf("SHOW BINLOG EVENTS without a log: %q", got)
	}
}

// TestMariaDBReplicaGetsAccounts: account statements go to the binary
// log as their text, as MariaDB logs them: a MariaDB replica makes the
// user and its grants (and drops them).
func TestMariaDBReplicaGetsAccounts(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	ts := startLoggingServer(t)
	db := ts.open("")
	m, err := mariadbtest.Start("hdb-binlog-accounts-", "--server-id=2")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	host, port, _ := net.SplitHostPort(ts.s.Addr().String())
	mustExec(t, m.Root, "SET GLOBAL gtid_slave_pos = ''",
		fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='root', MASTER_PASSWORD='', MASTER_CONNECT_RETRY=1, MASTER_USE_GTID=slave_pos", host, port),
		"START SLAVE")
	defer m.Root.Exec("STOP SLAVE")
	mustExec(t, db, "CREATE DATABASE acc", "CREATE USER 'app'@'%' IDENTIFIED BY 'pw1'", "GRANT SELECT, INSERT ON acc.* TO 'app'@'%'",
		"CREATE USER 'gone'@'localhost'", "DROP USER 'gone'@'localhost'")
	want := "GRANT SELECT, INSERT ON `acc`.* TO `app`@`%`"
	got := ""
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && !strings.Contains(got, want); time.Sleep(50 * time.Millisecond) {
		rows, err := queryStrings(m.Root, "SHOW GRANTS FOR 'app'@'%'")
		got = strings.Join(rows, "\n")
		if err != nil {
			got = err.Error()
		}
	}
	if !strings.Contains(got, want) {
		t.Fatalf("the replica's grants for app: %q (%s)", got, slaveError(m.Root))
	}
	var n int
	if err := m.Root.QueryRow("SELECT COUNT(*) FROM mysql.user WHERE User = 'gone'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the dropped user on the replica: %d %v", n, err)
	}
	// The password works there.
	var one int
	app, err := gosql.Open("mysql", fmt.Sprintf("app:pw1@tcp(127.0.0.1:%d)/acc", m.Port))
	if err != nil {
		t.Fatal(err)
	}
	defer app.Close()
	if err := app.QueryRow("SELECT 1").Scan(&one); err != nil {
		t.Fatalf("app's login on the replica: %v", err)
	}
}

// FuzzRegistration: any COM_REGISTER_SLAVE payload is read without a
// panic, and a well-formed one gives back its fields.
func FuzzRegistration(f *testing.F) {
	reg := func(id uint32, host, user, pass string, port uint16, master uint32) []byte {
		p := binary.LittleEndian.AppendUint32(nil, id)
		for _, s := range []string{host, user, pass} {
			p = append(append(p, byte(len(s))), s...)
		}
		p = binary.LittleEndian.AppendUint16(p, port)
		p = binary.LittleEndian.AppendUint32(p, 0)
		return binary.LittleEndian.AppendUint32(p, master)
	}
	f.Add(reg(2, "replica-host", "repl", "pw", 3306, 1))
	f.Add(reg(7, "", "", "", 0, 0))
	f.Add([]byte{2, 0, 0, 0, 200})
	f.Add([]byte{})
	f.Fuzz(func(t *testing.T, p []byte) {
		r := parseRegistration(p)
		if r == nil {
			t.Fatal("nil registration")
		}
		// Its fields, written as a replica writes them, read the same.
		if back := parseRegistration(reg(r.serverID, r.host, "u", "p", r.port, r.masterID)); *back != *r {
			t.Fatalf("%+v read back as %+v", r, back)
		}
	})
}

// FuzzDumpGTID: any COM_BINLOG_DUMP_GTID payload is read without a
// panic, as a request or a refusal; a well-formed one gives back its
// GTID set.
func FuzzDumpGTID(f *testing.F) {
	req := func(flags uint16, name string, s gmysql.GTIDSet) []byte {
		p := binary.LittleEndian.AppendUint16(nil, flags)
		p = binary.LittleEndian.AppendUint32(p, 9)
		p = binary.LittleEndian.AppendUint32(p, uint32(len(name)))
		p = append(p, name...)
		p = binary.LittleEndian.AppendUint64(p, 4)
		data := s.Encode()
		p = binary.LittleEndian.AppendUint32(p, uint32(len(data)))
		return append(p, data...)
	}
	for i, set := range []string{"48444200-0000-8000-8000-000000000001:1-10:12",
		"3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5,48444200-0000-8000-8000-000000000002:7", ""} {
		s, err := gmysql.ParseMysqlGTIDSet(set)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(req(uint16(i%2), "hdb-bin.000001"[:i*5], s), set)
	}
	f.Add([]byte{0, 0, 9, 0, 0, 0, 255, 255, 255, 255}, "")
	f.Fuzz(func(t *testing.T, p []byte, set string) {
		from, err := parseDumpGTID(p)
		if err != nil {
			return
		}
		if !from.MySQL || from.Set == nil {
			t.Fatalf("%+v", from)
		}
		// A request made from a set reads back that set.
		s, err := gmysql.ParseMysqlGTIDSet(set)
		if err != nil {
			return
		}
		back, err := parseDumpGTID(req(0, "", s))
		if err != nil || !back.Set.Equal(s) {
			t.Fatalf("%q read back as %v (%v)", s.String(), back.Set, err)
		}
	})
}
