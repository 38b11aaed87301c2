package server

import (
	"database/sql"
	"io"
	"net"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/config"
)

// TestHSUsers: a SQL user with SELECT on db1 only opens db1 tables on the
// read port and is refused on db2 and on the write port; the plain secret
// still opens everything; a wrong password is refused.
func TestHSUsers(t *testing.T) {
	s := startTest(t, func(c *config.Config) {
		c.HSSecret, c.HSSecretWr = "rdsecret", "wrsecret"
		c.HSSQLUsers = true
	})
	root := sqlDB(t, s, "db1")
	execAll(t, root,
		"CREATE DATABASE IF NOT EXISTS db2",
		"CREATE TABLE db1.t (id INT PRIMARY KEY, v VARCHAR(10))",
		"CREATE TABLE db2.t (id INT PRIMARY KEY, v VARCHAR(10))",
		"INSERT INTO db1.t VALUES (1, 'one')",
		"CREATE USER 'reader'@'localhost' IDENTIFIED BY 'pw1'",
		"GRANT SELECT ON db1.* TO 'reader'@'localhost'",
	)
	rd, wr := s.HS().ReadAddr(), s.HS().WriteAddr()
	check := func(addr net.Addr, req string, want ...string) {
		t.Helper()
		lines := hsExchange(t, addr, req, len(want))
		for i := range want {
			if lines[i] != want[i] {
				t.Fatalf("%q: reply %d is %q, want %q", req, i, lines[i], want[i])
			}
		}
	}
	check(rd, "A\t1\treader:pw1\nP\t1\tdb1\tt\tPRIMARY\tid,v\n1\t=\t1\t1\nP\t2\tdb2\tt\tPRIMARY\tid,v\n",
		"0\t1\n", "0\t1\n", "0\t2\t1\tone\n", "3\t1\tunauth\n")
	check(wr, "A\t1\treader:pw1\nP\t1\tdb1\tt\tPRIMARY\tid,v\n", "0\t1\n", "3\t1\tunauth\n")
	check(rd, "A\t1\treader:wrong\nP\t1\tdb1\tt\tPRIMARY\tid,v\n", "3\t1\tunauth\n", "3\t1\tunauth\n")
	check(rd, "A\t1\tnobody:pw1\n", "3\t1\tunauth\n")
	check(wr, "A\t1\twrsecret\nP\t1\tdb2\tt\tPRIMARY\tid,v\n1\t+\t2\t5\tfive\n", "0\t1\n", "0\t1\n", "0\t1\n")
	// REVOKE takes effect on the next open.
	if _, err := root.Exec("REVOKE SELECT ON db1.* FROM 'reader'@'localhost'"); err != nil {
		t.Fatal(err)
	}
	check(rd, "A\t1\treader:pw1\nP\t1\tdb1\tt\tPRIMARY\tid,v\n", "0\t1\n", "3\t1\tunauth\n")
}

// TestProcesslistShowsHandlerSocket: SHOW PROCESSLIST lists the
// HandlerSocket connections with their port, open indexes and requests.
func TestProcesslistShowsHandlerSocket(t *testing.T) {
	s := startTest(t, nil)
	db := sqlDB(t, s, "pl")
	if _, err := db.Exec("CREATE TABLE t (id INT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	c, err := net.Dial("tcp", s.HS().WriteAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("P\t1\tpl\tt\tPRIMARY\tid\nP\t2\tpl\tt\tPRIMARY\tid\n"))
	buf := make([]byte, 16)
	if n, _ := io.ReadAtLeast(c, buf, 8); n != 8 {
		t.Fatalf("open replies: %q", buf[:n])
	}
	// The server stores the idle state just after its write returns, so
	// the reply can arrive first: look until the connection shows idle.
	list := func() string {
		rows, err := db.Query("SHOW PROCESSLIST")
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		found := ""
		for rows.Next() {
			var id int64
			var user, host, command, state string
			var dbName, info sql.NullString
			var tm int64
			if err := rows.Scan(&id, &user, &host, &dbName, &command, &tm, &state, &info); err != nil {
				t.Fatal(err)
			}
			if command == "HandlerSocket" {
				found = host + " " + info.String
			}
		}
		return found
	}
	var found string
	waitFor(t, "the connection to leave state writing", func() bool {
		found = list()
		return !strings.HasSuffix(found, "state=writing")
	})
	if want := c.LocalAddr().String() + " port=write open_indexes=2 requests=2 state=idle"; found != want {
		t.Fatalf("HandlerSocket process %q, want %q", found, want)
	}
}
