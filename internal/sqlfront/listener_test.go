package sqlfront

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	gosql "database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"math/big"
	mathrand "math/rand/v2"
	"net"
	"strings"
	"testing"
	"time"

	gmclient "github.com/go-mysql-org/go-mysql/client"
	mysqldrv "github.com/go-sql-driver/mysql"

	"github.com/handlerdb/handlerdb/internal/mariadbtest"

	"github.com/handlerdb/handlerdb/internal/mysqlproto"
)

// rawCommand sends one command on pc (a client's side of the framing)
// and returns the answer's packets up to its end: an ERR, an OK, or the
// EOF (or DEPRECATE_EOF's OK) that ends a result set or, with cursor,
// the column definitions.
func rawCommand(t *testing.T, pc *mysqlproto.Conn, payload []byte, resultSet bool) [][]byte {
	t.Helper()
	pc.ResetSequence()
	if err := pc.WritePacket(payload); err != nil {
		t.Fatal(err)
	}
	if err := pc.Flush(); err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for {
		p, err := pc.ReadPacket()
		if err != nil {
			t.Fatalf("reading the answer: %v (so far %d packets)", err, len(out))
		}
		p = append([]byte(nil), p...) // (valid until the next read)
		out = append(out, p)
		switch {
		case p[0] == 0xff:
			return out
		case !resultSet && len(out) == 1:
			return out
		case p[0] == 0xfe && len(p) < 0xffffff && len(out) > 1:
			return out
		}
	}
}

// statusOf is the status flags of an EOF packet or of DEPRECATE_EOF's OK.
func statusOf(t *testing.T, p []byte) uint16 {
	t.Helper()
	if p[0] != 0xfe {
		t.Fatalf("not an end packet: % x", p)
	}
	if len(p) == 5 { // EOF: warnings, status
		return binary.LittleEndian.Uint16(p[3:])
	}
	// OK with the EOF header: affected rows and insert id (one byte
	// each here), status.
	return binary.LittleEndian.Uint16(p[3:])
}

// TestCursorFetch: an execution with a cursor answers with the columns
// only (CURSOR_EXISTS); COM_STMT_FETCH sends the rows in the batches
// asked for, the last with LAST_ROW_SENT; a fetch after that is 1421.
func TestCursorFetch(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE cur", "CREATE TABLE cur.t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO cur.t VALUES (1,'a'),(2,'b'),(3,'c'),(4,'d'),(5,'e')")
	raw := ts.rawConn()
	pc := mysqlproto.NewConn(raw.Conn)

	ans := rawCommand(t, pc, append([]byte{mysqlproto.ComStmtPrepare}, "SELECT id, v FROM cur.t ORDER BY id"...), false)
	if ans[0][0] != 0 {
		t.Fatalf("prepare: % x", ans[0])
	}
	id := binary.LittleEndian.Uint32(ans[0][1:])
	cols := int(binary.LittleEndian.Uint16(ans[0][5:]))
	// The column definitions (and an EOF unless DEPRECATE_EOF).
	for i := 0; i < cols; i++ {
		if _, err := pc.ReadPacket(); err != nil {
			t.Fatal(err)
		}
	}
	if raw.Capabilities&mysqlproto.ClientDeprecateEOF == 0 {
		if p, err := pc.ReadPacket(); err != nil || p[0] != 0xfe {
			t.Fatalf("after the definitions: % x %v", p, err)
		}
	}

	exec := binary.LittleEndian.AppendUint32([]byte{mysqlproto.ComStmtExecute}, id)
	exec = append(exec, 1 /* CURSOR_TYPE_READ_ONLY */, 1, 0, 0, 0)
	ans = rawCommand(t, pc, exec, true)
	if len(ans) != 1+cols+1 || ans[0][0] != byte(cols) {
		t.Fatalf("execute with a cursor: %d packets, first % x", len(ans), ans[0])
	}
	if st := statusOf(t, ans[len(ans)-1]); st&mysqlproto.StatusCursorExists == 0 {
		t.Fatalf("execute with a cursor: status %#x", st)
	}

	var got []string
	for round := 0; round < 3; round++ {
		fetch := binary.LittleEndian.AppendUint32([]byte{mysqlproto.ComStmtFetch}, id)
		fetch = binary.LittleEndian.AppendUint32(fetch, 2)
		ans = rawCommand(t, pc, fetch, true)
		rows := ans[:len(ans)-1]
		for _, r := range rows {
			// A binary row: header, NULL bitmap (1 byte for 2 columns),
			// INT (4 bytes), VARCHAR (length and bytes).
			got = append(got, fmt.Sprintf("%d%s", binary.LittleEndian.Uint32(r[2:]), r[7:]))
		}
		st := statusOf(t, ans[len(ans)-1])
		last := round == 2
		if want := map[bool]int{false: 2, true: 1}[last]; len(rows) != want {
			t.Fatalf("fetch %d: %d rows, want %d", round, len(rows), want)
		}
		if last != (st&mysqlproto.StatusLastRowSent != 0) || last == (st&mysqlproto.StatusCursorExists != 0) {
			t.Fatalf("fetch %d: status %#x", round, st)
		}
	}
	if strings.Join(got, " ") != "1a 2b 3c 4d 5e" {
		t.Fatalf("rows fetched: %v", got)
	}
	fetch := binary.LittleEndian.AppendUint32([]byte{mysqlproto.ComStmtFetch}, id)
	fetch = binary.LittleEndian.AppendUint32(fetch, 2)
	ans = rawCommand(t, pc, fetch, true)
	if ans[0][0] != 0xff || binary.LittleEndian.Uint16(ans[0][1:]) != 1421 {
		t.Fatalf("fetch past the end: % x", ans[0])
	}
	// The connection still answers.
	ans = rawCommand(t, pc, []byte{mysqlproto.ComPing}, false)
	if ans[0][0] != 0 {
		t.Fatalf("ping: % x", ans[0])
	}
}

// TestErrorAfterRows: a statement that fails after some of its rows went
// out ends its answer with the error, as MariaDB does, and the
// connection stays usable (vitess's listener could only cut it).
func TestErrorAfterRows(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE ear", "CREATE TABLE ear.t (id INT PRIMARY KEY)", "CREATE TABLE ear.d (k INT)")
	var vals []string
	for i := 1; i <= 400; i++ {
		vals = append(vals, fmt.Sprintf("(%d)", i))
	}
	mustExec(t, db, "INSERT INTO ear.t VALUES "+strings.Join(vals, ","), "INSERT INTO ear.d VALUES (1),(2),(300),(300)")
	c := ts.conn("")
	rs, err := c.QueryContext(context.Background(), "SELECT id, (SELECT k FROM ear.d WHERE k = t.id) FROM ear.t ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rs.Next() {
		n++
	}
	var me *mysqldrv.MySQLError
	if err := rs.Err(); !errors.As(err, &me) || me.Number != 1242 {
		t.Fatalf("after %d rows: %v, want 1242", n, err)
	}
	rs.Close()
	if n == 0 || n >= 300 {
		t.Fatalf("%d rows before the error", n)
	}
	var one int
	if err := c.QueryRowContext(context.Background(), "SELECT 1").Scan(&one); err != nil || one != 1 {
		t.Fatalf("the connection after the error: %v", err)
	}
}

// TestProcedureResultSets: each SELECT or UNION a procedure runs (not
// one INTO a variable, nor a cursor's, nor a DO) is a result set of the
// CALL, in order, over the text and the binary protocol, and the CALL
// ends with an OK; a SIGNAL after a SELECT arrives after its rows.
func TestProcedureResultSets(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE prs", "CREATE TABLE prs.t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO prs.t VALUES (1,'a'),(2,'b'),(3,'c')",
		`CREATE PROCEDURE prs.p(n INT)
BEGIN
  DECLARE x INT;
  DECLARE done INT DEFAULT 0;
  DECLARE i INT DEFAULT 0;
  DECLARE cur CURSOR FOR SELECT id FROM prs.t ORDER BY id;
  DECLARE CONTINUE HANDLER FOR NOT FOUND SET done = 1;
  DO 1, 2;
  WHILE i < 3 DO
    SET i = i + 1;
    DO i;
  END WHILE;
  SELECT COUNT(*) INTO x FROM prs.t;
  SELECT id, v FROM prs.t WHERE id <= n ORDER BY id;
  OPEN cur;
  FETCH cur INTO x;
  CLOSE cur;
  IF n > 1 THEN
    SELECT 'x' AS a UNION SELECT 'y';
  END IF;
  SELECT x AS first_id, n * 10 AS tens, i;
END`,
		`CREATE PROCEDURE prs.shows()
BEGIN
  SHOW TABLES FROM prs;
  SELECT 1 AS one;
END`,
		`CREATE PROCEDURE prs.sig(ret INT)
BEGIN
  SELECT ret;
  SIGNAL SQLSTATE '45001' SET MESSAGE_TEXT = 'an error', MYSQL_ERRNO = 45001;
END`)
	read := func(rs *gosql.Rows) string {
		var sets []string
		for {
			cols, err := rs.Columns()
			if err != nil {
				t.Fatal(err)
			}
			rows, err := scanSet(rs)
			if err != nil {
				t.Fatal(err)
			}
			sets = append(sets, strings.Join(cols, ",")+":"+strings.Join(rows, ";"))
			if !rs.NextResultSet() {
				break
			}
		}
		if err := rs.Err(); err != nil {
			t.Fatal(err)
		}
		return strings.Join(sets, " | ")
	}
	want := "id,v:1|a;2|b | a:x;y | first_id,tens,i:1|20|3"
	rs, err := db.Query("CALL prs.p(2)")
	if err != nil {
		t.Fatal(err)
	}
	if got := read(rs); got != want {
		t.Errorf("text CALL: %s\nwant        %s", got, want)
	}
	rs.Close()
	st, err := db.Prepare("CALL prs.p(?)")
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := 0; i < 2; i++ {
		rs, err = st.Query(2)
		if err != nil {
			t.Fatal(err)
		}
		if got := read(rs); got != want {
			t.Errorf("prepared CALL %d: %s\nwant            %s", i, got, want)
		}
		rs.Close()
	}
	rs, err = db.Query("CALL prs.shows()")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := read(rs), "Tables_in_prs:t | one:1"; got != want {
		t.Errorf("SHOW in a procedure: %s, want %s", got, want)
	}
	rs.Close()
	// A statement after the CALL sees the connection in step.
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM prs.t").Scan(&n); err != nil || n != 3 {
		t.Fatalf("after the CALLs: %d %v", n, err)
	}

	c := ts.conn("")
	for _, q := range []string{"CALL prs.sig(42)", "prepared"} {
		var rs *gosql.Rows
		var err error
		if q == "prepared" {
			rs, err = c.QueryContext(context.Background(), "CALL prs.sig(?)", 42)
		} else {
			rs, err = c.QueryContext(context.Background(), q)
		}
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		var vals []int
		for rs.Next() {
			var v int
			if err := rs.Scan(&v); err != nil {
				t.Fatal(err)
			}
			vals = append(vals, v)
		}
		for rs.NextResultSet() {
		}
		var me *mysqldrv.MySQLError
		if err := rs.Err(); !errors.As(err, &me) || me.Number != 45001 {
			t.Errorf("%s: after the rows %v, want 45001", q, err)
		}
		rs.Close()
		if fmt.Sprint(vals) != "[42]" {
			t.Errorf("%s: rows before the SIGNAL %v", q, vals)
		}
	}
	var one int
	if err := c.QueryRowContext(context.Background(), "SELECT 1").Scan(&one); err != nil {
		t.Fatalf("after the SIGNAL: %v", err)
	}
}

// TestPreparedReturningOverTLS: a prepared INSERT ... RETURNING and a
// prepared DO (which the vitess grammar that counts placeholders lacks)
// run over a TLS connection too: they were rewritten under vitess's
// listener in the packets, which TLS hid (a syntax error for GORM over
// TLS). The INSERT's row comes back on a table plain enough for the
// fast write path, which had taken it and sent none.
func TestPreparedReturningOverTLS(t *testing.T) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	ts := startTestServer(t, "", Config{TLS: &tls.Config{Certificates: []tls.Certificate{{Certificate: [][]byte{der}, PrivateKey: key}}}, TLSRequired: true})
	if err := mysqldrv.RegisterTLSConfig("prtls", &tls.Config{InsecureSkipVerify: true}); err != nil {
		t.Fatal(err)
	}
	db, err := gosql.Open("mysql", strings.Replace(ts.dsn("root", "", ""), "?", "?tls=prtls&", 1))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	mustExec(t, db, "CREATE DATABASE prt", "CREATE TABLE prt.m (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(10))")
	var id int
	var name string
	if err := db.QueryRow("INSERT INTO prt.m (name) VALUES (?) RETURNING id, name", "a").Scan(&id, &name); err != nil || id != 1 || name != "a" {
		t.Fatalf("prepared RETURNING over TLS: %d %q %v", id, name, err)
	}
	if _, err := db.Exec("DO ?", 1); err != nil {
		t.Fatalf("prepared DO over TLS: %v", err)
	}
	var cipher string
	if err := db.QueryRow("SHOW STATUS LIKE 'Ssl_cipher'").Scan(&name, &cipher); err != nil || cipher == "" {
		t.Fatalf("not TLS: %q %v", cipher, err)
	}
}

// TestReplicaWithoutBinlog: a real MariaDB replica pointed at HandlerDB
// gets through its set-up queries and registration, and its binlog dump
// is refused as a MariaDB primary without log_bin refuses it (1236,
// "Binary log is not open"; both commands were "Unknown command", 1047);
// an account without REPLICATION SLAVE is refused at the registration
// (1227), as in MariaDB.
func TestReplicaWithoutBinlog(t *testing.T) {
	if why := mariadbtest.Missing(); why != "" {
		t.Skip(why)
	}
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE USER norepl@'%' IDENTIFIED BY 'pw'")
	m, err := mariadbtest.Start("hdb-replica-nobinlog-", "--server-id=2")
	if err != nil {
		t.Fatal(err)
	}
	defer m.Stop()
	host, port, _ := net.SplitHostPort(ts.s.Addr().String())
	for _, c := range []struct {
		user, pass string
		errno      string
		text       string
	}{
		{"root", "", "1236", "Binary log is not open"},
		{"norepl", "pw", "1597", "REPLICATION SLAVE privilege"},
	} {
		mustExec(t, m.Root, "STOP SLAVE", "RESET SLAVE ALL",
			fmt.Sprintf("CHANGE MASTER TO MASTER_HOST='%s', MASTER_PORT=%s, MASTER_USER='%s', MASTER_PASSWORD='%s', MASTER_USE_GTID=no, MASTER_CONNECT_RETRY=1", host, port, c.user, c.pass),
			"START SLAVE")
		var errno, text string
		for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline) && (errno == "" || errno == "0"); time.Sleep(100 * time.Millisecond) {
			v := slaveStatusCols(m.Root, "Last_IO_Errno", "Last_IO_Error")
			errno, text = v[0], v[1]
		}
		if errno != c.errno || !strings.Contains(text, c.text) {
			t.Errorf("replica as %s: Last_IO_Errno %s, Last_IO_Error %q; want %s with %q", c.user, errno, text, c.errno, c.text)
		}
	}
	mustExec(t, m.Root, "STOP SLAVE")
}

// TestRandomCommands sends logged-in connections random commands (every
// command code, random payloads, some naming a real prepared statement)
// and checks that none makes the wire layer panic (it would end the
// connection and log "connection ended by a panic") and that the server
// answers afterwards.
func TestRandomCommands(t *testing.T) {
	var logs lockedBuffer
	RouteLogs(slog.New(slog.NewJSONHandler(&logs, nil)))
	defer RouteLogs(nil)
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE rc", "CREATE TABLE rc.t (id INT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO rc.t VALUES (1, 'a')")
	r := mathrand.New(mathrand.NewPCG(1, 2))
	for i := 0; i < 400; i++ {
		raw := ts.rawConn()
		pc := mysqlproto.NewConn(raw.Conn)
		send := func(p []byte) {
			pc.ResetSequence()
			_ = pc.WritePacket(p)
			_ = pc.Flush()
			// The answer comes in one write: after its first packet the
			// rest is there (commands with no answer wait the first
			// deadline out).
			wait := 50 * time.Millisecond
			for {
				_ = raw.Conn.SetReadDeadline(time.Now().Add(wait))
				if _, err := pc.ReadPacket(); err != nil {
					return
				}
				wait = 2 * time.Millisecond
			}
		}
		if i%2 == 0 {
			send(append([]byte{mysqlproto.ComStmtPrepare}, "SELECT v FROM rc.t WHERE id = ?"...))
		}
		payload := make([]byte, r.IntN(40))
		for j := range payload {
			payload[j] = byte(r.IntN(256))
		}
		cmd := byte(r.IntN(0x21))
		if i%2 == 0 && len(payload) >= 4 && r.IntN(2) == 0 {
			payload[0], payload[1], payload[2], payload[3] = 1, 0, 0, 0 // the statement's id
		}
		send(append([]byte{cmd}, payload...))
		raw.Close()
	}
	expectAlive(t, ts.open(""), "after random commands")
	for _, rec := range logs.lines() {
		if msg, _ := rec["msg"].(string); strings.Contains(msg, "panic") {
			t.Fatalf("a command made the wire layer panic: %v", rec)
		}
	}
}

// TestExecuteParameterCountFlag: a COM_STMT_EXECUTE whose flags carry
// MySQL 8's PARAMETER_COUNT_AVAILABLE (go-mysql-org's client sets it
// whenever there are parameters) answers its rows, as MariaDB does; it
// was taken for a cursor and answered none (a HandlerDB replica's copy
// of a HandlerDB primary found no tables).
func TestExecuteParameterCountFlag(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c, err := gmclient.Connect(ts.s.Addr().String(), "root", "", "")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	r, err := c.Execute("SELECT ?, 'a' UNION ALL SELECT ? + 1, 'b'", int64(5), int64(6))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i := range r.Values {
		a, _ := r.GetInt(i, 0)
		b, _ := r.GetString(i, 1)
		got = append(got, fmt.Sprintf("%d|%s", a, b))
	}
	if strings.Join(got, ",") != "5|a,7|b" {
		t.Fatalf("rows %q, want 5|a,7|b", got)
	}
}
