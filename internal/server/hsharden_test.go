package server

import (
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
)

// dialFrom connects to addr from the local address ip (any 127.0.0.0/8
// address reaches a listener on 127.0.0.1 on Linux).
func dialFrom(t *testing.T, ip string, addr net.Addr) net.Conn {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
	c, err := d.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// hsCheck sends req from ip to addr on a new connection and compares the
// reply lines with want.
func hsCheck(t *testing.T, ip string, addr net.Addr, req string, want ...string) {
	t.Helper()
	lines := exchange(t, dialFrom(t, ip, addr), req, len(want))
	for i := range want {
		if lines[i] != want[i] {
			t.Fatalf("from %s, %q: reply %d is %q, want %q (all: %q)", ip, req, i, lines[i], want[i], lines)
		}
	}
}

func sqlExec(t *testing.T, s *Server, db string, qs ...string) {
	t.Helper()
	d := sqlDB(t, s, db)
	for _, q := range qs {
		if _, err := d.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestHSAccountHost: `A user:password` is checked against the account's
// host with the peer's real address, as a MySQL login from there would
// be: an account at 127.0.0.1 works from 127.0.0.1 only, one at
// 127.0.0.2 from 127.0.0.2 only, one at '%' from both.
func TestHSAccountHost(t *testing.T) {
	s := startTest(t, func(c *config.Config) {
		c.HSSecret, c.HSSecretWr = "rdsecret", "wrsecret"
		c.HSSQLUsers = true
		c.MaxAuthFailures = 0
	})
	sqlExec(t, s, "hh",
		"CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO t VALUES (1, 'one')",
		"CREATE USER 'u1'@'127.0.0.1' IDENTIFIED BY 'p1'",
		"CREATE USER 'u2'@'127.0.0.2' IDENTIFIED BY 'p2'",
		"CREATE USER 'ua'@'%' IDENTIFIED BY 'pa'",
		"GRANT SELECT ON hh.* TO 'u1'@'127.0.0.1'",
		"GRANT SELECT ON hh.* TO 'u2'@'127.0.0.2'",
		"GRANT SELECT ON hh.* TO 'ua'@'%'",
	)
	rd := s.HS().ReadAddr()
	const open = "P\t1\thh\tt\tPRIMARY\tid,v\n1\t=\t1\t1\n"
	ok := []string{"0\t1\n", "0\t1\n", "0\t2\t1\tone\n"}
	refused := []string{"3\t1\tunauth\n", "3\t1\tunauth\n", "3\t1\tunauth\n"}
	for _, c := range []struct {
		ip, key string
		want    []string
	}{
		{"127.0.0.1", "u1:p1", ok},
		{"127.0.0.2", "u1:p1", refused},
		{"127.0.0.2", "u2:p2", ok},
		{"127.0.0.1", "u2:p2", refused},
		{"127.0.0.1", "ua:pa", ok},
		{"127.0.0.2", "ua:pa", ok},
		{"127.0.0.3", "ua:pa", ok},
	} {
		hsCheck(t, c.ip, rd, "A\t1\t"+c.key+"\n"+open, c.want...)
	}
}

// TestHSSecretsAndAccounts: how the plain secrets and SQL accounts
// combine. root's empty password never opens anything over HandlerSocket;
// accounts need --handlersocket-sql-users; a secret holding ':' is still
// compared whole; --handlersocket-require-auth on a port without a secret
// does not take the empty key.
func TestHSSecretsAndAccounts(t *testing.T) {
	const open = "P\t1\tsa\tt\tPRIMARY\tid\n"
	setup := func(s *Server) {
		sqlExec(t, s, "sa",
			"CREATE TABLE t (id INT PRIMARY KEY)",
			"CREATE USER 'w'@'%' IDENTIFIED BY 'pw'",
			"GRANT SELECT, INSERT, UPDATE, DELETE ON sa.* TO 'w'@'%'",
			"CREATE USER 'nopw'@'%'",
			"GRANT ALL ON *.* TO 'nopw'@'%'",
		)
	}
	unauth2 := []string{"3\t1\tunauth\n", "3\t1\tunauth\n"}
	// Each port gets many wrong keys from 127.0.0.1: no back-off here.
	t.Run("defaults", func(t *testing.T) {
		s := startTest(t, func(c *config.Config) { c.MaxAuthFailures = 0 })
		setup(s)
		// No secret: the port is open as in the plugin, but A root: (or
		// any account) is not accepted.
		for _, key := range []string{"root:", "w:pw", "nopw:"} {
			hsCheck(t, "127.0.0.1", s.HS().ReadAddr(), "A\t1\t"+key+"\n", "3\t1\tunauth\n")
		}
	})
	t.Run("secret", func(t *testing.T) {
		s := startTest(t, func(c *config.Config) {
			c.HSSecret, c.HSSecretWr = "rd:secret", "wrsecret"
			c.MaxAuthFailures = 0
		})
		setup(s)
		for _, key := range []string{"root:", "w:pw", "nopw:", "rd:"} {
			hsCheck(t, "127.0.0.1", s.HS().ReadAddr(), "A\t1\t"+key+"\n"+open, unauth2...)
			hsCheck(t, "127.0.0.1", s.HS().WriteAddr(), "A\t1\t"+key+"\n"+open, unauth2...)
		}
		hsCheck(t, "127.0.0.1", s.HS().ReadAddr(), "A\t1\trd:secret\n"+open, "0\t1\n", "0\t1\n")
		hsCheck(t, "127.0.0.1", s.HS().WriteAddr(), "A\t1\twrsecret\n"+open, "0\t1\n", "0\t1\n")
	})
	t.Run("secret-and-accounts", func(t *testing.T) {
		s := startTest(t, func(c *config.Config) {
			c.HSSecret, c.HSSecretWr = "rd:secret", "wrsecret"
			c.HSSQLUsers = true
			c.MaxAuthFailures = 0
		})
		setup(s)
		for _, key := range []string{"root:", "nopw:", "w:", "w:wrong"} {
			hsCheck(t, "127.0.0.1", s.HS().ReadAddr(), "A\t1\t"+key+"\n"+open, unauth2...)
		}
		for _, key := range []string{"rd:secret", "w:pw"} {
			hsCheck(t, "127.0.0.1", s.HS().ReadAddr(), "A\t1\t"+key+"\n"+open, "0\t1\n", "0\t1\n")
		}
	})
	t.Run("require-auth", func(t *testing.T) {
		s := startTest(t, func(c *config.Config) {
			c.HSRequireAuth, c.HSSQLUsers = true, true
			c.MaxAuthFailures = 0
		})
		setup(s)
		for _, key := range []string{"", "root:", "nopw:"} {
			hsCheck(t, "127.0.0.1", s.HS().ReadAddr(), "A\t1\t"+key+"\n"+open, unauth2...)
			hsCheck(t, "127.0.0.1", s.HS().WriteAddr(), "A\t1\t"+key+"\n"+open, unauth2...)
		}
		hsCheck(t, "127.0.0.1", s.HS().WriteAddr(), "A\t1\tw:pw\n"+open, "0\t1\n", "0\t1\n")
	})
}

// TestHSWritePrivileges: on the write port each request needs its own
// privilege: an INSERT-only account can insert but neither find nor read
// old rows through U?; a modify needs SELECT too (it reads which rows
// match); a REVOKE applies from the next P.
func TestHSWritePrivileges(t *testing.T) {
	s := startTest(t, func(c *config.Config) {
		c.HSSQLUsers = true
		c.MaxAuthFailures = 0
	})
	db := sqlDB(t, s, "wp")
	execAll(t, db,
		"CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')",
		"CREATE USER 'iud'@'%' IDENTIFIED BY 'pw'",
		"GRANT INSERT, UPDATE, DELETE ON wp.t TO 'iud'@'%'",
		"CREATE USER 'ins'@'%' IDENTIFIED BY 'pi'",
		"GRANT INSERT ON wp.t TO 'ins'@'%'",
		"CREATE USER 'upd'@'%' IDENTIFIED BY 'pu'",
		"GRANT UPDATE ON wp.t TO 'upd'@'%'",
		"CREATE USER 'su'@'%' IDENTIFIED BY 'psu'",
		"GRANT SELECT, UPDATE ON wp.* TO 'su'@'%'",
		"CREATE USER 'sel'@'%' IDENTIFIED BY 'ps'",
		"GRANT SELECT ON wp.* TO 'sel'@'%'",
	)
	wr, rd := s.HS().WriteAddr(), s.HS().ReadAddr()
	const open = "P\t1\twp\tt\tPRIMARY\tid,v\n"
	const unauth = "3\t1\tunauth\n"
	// Every write privilege but SELECT: no row comes back.
	hsCheck(t, "127.0.0.1", wr, "A\t1\tiud:pw\n"+open+"1\t=\t1\t1\n1\t>\t1\t0\t10\t0\n1\t=\t1\t1\t1\t0\tU?\t1\tone\n"+
		"1\t=\t1\t1\t1\t0\tD?\n1\t=\t1\t1\t1\t0\t+?\t0\t0\n1\t=\t1\t1\t1\t0\t-?\t0\t0\n1\t=\t1\t1\t1\t0\t+\t0\t0\n",
		"0\t1\n", "0\t1\n", unauth, unauth, unauth, unauth, unauth, unauth, unauth)
	hsCheck(t, "127.0.0.1", wr, "A\t1\tins:pi\n"+open+
		"1\t=\t1\t1\n"+ // find
		"1\t>=\t1\t0\t10\t0\n"+ // range find
		"1\t=\t1\t1\t1\t0\tU?\t1\tx\n"+
		"1\t=\t1\t1\t1\t0\tD?\n"+
		"1\t=\t1\t1\t1\t0\t+?\t1\t0\n"+
		"1\t=\t1\t1\t1\t0\tU\t1\tx\n"+
		"1\t=\t1\t1\t1\t0\tD\n"+
		"1\t+\t2\t4\tfour\n", // insert: allowed, on the same connection
		"0\t1\n", "0\t1\n", unauth, unauth, unauth, unauth, unauth, unauth, unauth, "0\t1\n")
	// UPDATE without SELECT: the modify would tell which rows match.
	hsCheck(t, "127.0.0.1", wr, "A\t1\tupd:pu\n"+open+"1\t=\t1\t1\t1\t0\tU\t1\tx\n1\t+\t2\t5\tfive\n",
		"0\t1\n", "0\t1\n", unauth, unauth)
	// SELECT and UPDATE: finds, U and U? work; D and inserts do not.
	c := dialFrom(t, "127.0.0.1", wr)
	got := exchangeKeep(t, c, "A\t1\tsu:psu\n"+open+"1\t=\t1\t1\n1\t=\t1\t1\t1\t0\tU?\t1\tuno\n1\t=\t1\t2\t1\t0\tU\t2\tdos\n"+
		"1\t=\t1\t3\t1\t0\tD\n1\t+\t2\t6\tsix\n", 7)
	want := []string{"0\t1\n", "0\t1\n", "0\t2\t1\tone\n", "0\t2\t1\tone\n", "0\t1\t1\n", unauth, unauth}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("su: reply %d is %q, want %q (all %q)", i, got[i], want[i], got)
		}
	}
	// SELECT only: no write-port open; the read port is fine.
	hsCheck(t, "127.0.0.1", wr, "A\t1\tsel:ps\n"+open, "0\t1\n", unauth)
	hsCheck(t, "127.0.0.1", rd, "A\t1\tsel:ps\n"+open+"1\t=\t1\t1\n", "0\t1\n", "0\t1\n", "0\t2\t1\tuno\n")
	// REVOKE SELECT: the open handle keeps what P found; the next P does not.
	if _, err := db.Exec("REVOKE SELECT ON wp.* FROM 'su'@'%'"); err != nil {
		t.Fatal(err)
	}
	got = exchangeKeep(t, c, "1\t=\t1\t1\t1\t0\tU\t1\tone\n"+open+"1\t=\t1\t1\t1\t0\tU\t1\tone\n1\t=\t1\t1\n", 4)
	want = []string{"0\t1\t1\n", "0\t1\n", unauth, unauth}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("su after REVOKE: reply %d is %q, want %q (all %q)", i, got[i], want[i], got)
		}
	}
	c.Close()
	var n int
	var v1, v2 string
	if err := db.QueryRow("SELECT COUNT(*), MAX(CASE WHEN id = 1 THEN v END), MAX(CASE WHEN id = 2 THEN v END) FROM t").Scan(&n, &v1, &v2); err != nil {
		t.Fatal(err)
	}
	if n != 4 || v1 != "one" || v2 != "dos" {
		t.Fatalf("table holds %d rows, v(1)=%q, v(2)=%q; want 4 rows (id 4 inserted, 3 not deleted), one, dos", n, v1, v2)
	}
}

// exchangeKeep is exchange without closing the connection.
func exchangeKeep(t *testing.T, c net.Conn, req string, lines int) []string {
	t.Helper()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	var out []string
	buf := make([]byte, 0, 4096)
	one := make([]byte, 1)
	for len(out) < lines {
		if _, err := c.Read(one); err != nil {
			t.Fatalf("%q: after %q: %v", req, out, err)
		}
		buf = append(buf, one[0])
		if one[0] == '\n' {
			out = append(out, string(buf))
			buf = buf[:0]
		}
	}
	return out
}

// TestHSAuthBackoff: after --max-auth-failures failed A from one address,
// that address's A is refused, the right secret included, on both ports,
// until the back-off has passed; another address is not affected, and
// the refusals are counted.
func TestHSAuthBackoff(t *testing.T) {
	const backoff = time.Second
	s := startTest(t, func(c *config.Config) {
		c.HSSecret, c.HSSecretWr = "rdsecret", "wrsecret"
		c.MaxAuthFailures, c.AuthBackoff = 5, backoff
	})
	sqlExec(t, s, "bo", "CREATE TABLE t (id INT PRIMARY KEY)")
	rd, wr := s.HS().ReadAddr(), s.HS().WriteAddr()
	const open = "P\t1\tbo\tt\tPRIMARY\tid\n"
	unauth := "3\t1\tunauth\n"
	hsCheck(t, "127.0.0.2", rd, "A\t1\twrong\nA\t1\twrong2\nA\t1\t\nA\t1\tx:y\n", unauth, unauth, unauth, unauth)
	// The 5th, on the other port; failed is before the server counts it.
	failed := time.Now()
	hsCheck(t, "127.0.0.2", wr, "A\t1\trdsecret\n", unauth)
	// A bad type is no guess: answered as always.
	hsCheck(t, "127.0.0.2", rd, "A\t2\trdsecret\n", "3\t1\tauthtype\n")
	hsCheck(t, "127.0.0.2", rd, "A\t1\trdsecret\n"+open, unauth, unauth)
	hsCheck(t, "127.0.0.2", wr, "A\t1\twrsecret\n"+open, unauth, unauth)
	if time.Since(failed) >= backoff {
		t.Skip("too slow to observe the back-off")
	}
	hsCheck(t, "127.0.0.3", rd, "A\t1\trdsecret\n"+open, "0\t1\n", "0\t1\n")
	hsCheck(t, "127.0.0.3", wr, "A\t1\twrsecret\n"+open, "0\t1\n", "0\t1\n")
	if n := s.HS().AuthBackoffs(); n != 2 {
		t.Fatalf("%d A refused by the back-off, want 2", n)
	}
	var back time.Duration
	waitFor(t, "the back-off to pass", func() bool {
		lines := exchange(t, dialFrom(t, "127.0.0.2", rd), "A\t1\trdsecret\n", 1)
		back = time.Since(failed)
		return lines[0] == "0\t1\n"
	})
	if back < backoff {
		t.Fatalf("accepted again %v after the 5th failure, before the back-off of %v", back, backoff)
	}
	hsCheck(t, "127.0.0.2", wr, "A\t1\twrsecret\n"+open, "0\t1\n", "0\t1\n")
}

// TestHSGrantDuringWriteBatches: GRANT and REVOKE keep working while
// write-port batches of SQL-account connections authenticate, open and
// write. (A GRANT holds the SQL front's user table while it waits for the
// writer to store it; a batch that asked for a password or grants from
// inside its writer job stopped both for good.)
func TestHSGrantDuringWriteBatches(t *testing.T) {
	s := startTest(t, func(c *config.Config) {
		c.HSSQLUsers = true
		c.MaxAuthFailures = 0
	})
	db := sqlDB(t, s, "gw")
	execAll(t, db,
		"CREATE TABLE t (id INT PRIMARY KEY)",
		"CREATE TABLE o (id INT PRIMARY KEY)",
		"CREATE USER 'u'@'%' IDENTIFIED BY 'p'",
		"GRANT SELECT, INSERT, UPDATE, DELETE ON gw.t TO 'u'@'%'",
	)
	done := make(chan struct{})
	errs := make(chan error, 1)
	go func() {
		defer close(errs)
		for i := 0; ; i++ {
			select {
			case <-done:
				return
			default:
			}
			q := "GRANT SELECT ON gw.o TO 'u'@'%'"
			if i%2 == 1 {
				q = "REVOKE SELECT ON gw.o FROM 'u'@'%'"
			}
			if _, err := db.Exec(q); err != nil {
				errs <- err
				return
			}
		}
	}()
	for i, deadline := 0, time.Now().Add(2*time.Second); time.Now().Before(deadline); i++ {
		hsCheck(t, "127.0.0.1", s.HS().WriteAddr(), fmt.Sprintf("A\t1\tu:p\nP\t1\tgw\tt\tPRIMARY\tid\n1\t+\t1\t%d\n1\t=\t1\t%d\n", i, i),
			"0\t1\n", "0\t1\n", "0\t1\n", fmt.Sprintf("0\t1\t%d\n", i))
	}
	close(done)
	if err := <-errs; err != nil {
		t.Fatal(err)
	}
}
