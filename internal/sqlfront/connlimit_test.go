package sqlfront

import (
	"context"
	gosql "database/sql"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// One login past MaxConnections is answered 1040, as mysqld does, except
// one more by an account with SUPER (root); the slot is usable again once
// a connection closes.
func TestMaxConnections(t *testing.T) {
	ts := startTestServer(t, "", Config{MaxConnections: 3})
	root := ts.open("")
	root.SetMaxIdleConns(4) // root's first connection stays: one session
	ctx := context.Background()
	if _, err := root.Exec("CREATE USER 'app'@'%' IDENTIFIED BY 'app'"); err != nil {
		t.Fatal(err)
	}
	db, err := gosql.Open("mysql", ts.dsn("app", "app", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxIdleConns(2)
	c1, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tooMany := func(what string, err error) {
		t.Helper()
		var me *mysql.MySQLError
		if !errors.As(err, &me) || me.Number != 1040 || string(me.SQLState[:]) != "08004" || me.Message != "Too many connections" {
			t.Fatalf("%s: %v, want error 1040 (08004) Too many connections", what, err)
		}
	}
	_, err = db.Conn(ctx)
	tooMany("third connection", err)
	if got := ts.s.Stats().Refused.Load(); got != 1 {
		t.Errorf("refused %d, want 1", got)
	}
	// SUPER takes the one slot past max_connections, and only that one.
	r0, err := root.Conn(ctx) // the idle one
	if err != nil {
		t.Fatal(err)
	}
	r1, err := root.Conn(ctx)
	if err != nil {
		t.Fatalf("root past max_connections: %v", err)
	}
	if err := r1.PingContext(ctx); err != nil {
		t.Fatal(err)
	}
	_, err = root.Conn(ctx)
	tooMany("a second root past max_connections", err)
	r0.Close()
	r1.Close()
	c1.Close()
	c2.Close()
	db.SetMaxIdleConns(0) // close them for real
	db.SetMaxIdleConns(2)
	var deadline = time.Now().Add(5 * time.Second)
	for {
		c3, err := db.Conn(ctx)
		if err == nil {
			c3.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no slot after closing: %v", err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Sockets that connect and never log in do not take the slots of
// sessions: with 400 of them open (more than max_connections and than
// the pending bound), root still logs in at once and runs a statement,
// and the oldest silent sockets are closed to make room. (Before, 151
// silent sockets locked root out for connect_timeout.)
func TestSilentSocketsDoNotLockOut(t *testing.T) {
	ts := startTestServer(t, "", Config{MaxConnections: 10, ConnectTimeout: time.Minute})
	var socks []net.Conn
	defer func() {
		for _, c := range socks {
			c.Close()
		}
	}()
	for range 400 {
		c, err := net.Dial("tcp", ts.s.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		socks = append(socks, c)
	}
	db := ts.open("")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	start := time.Now()
	var one int
	if err := db.QueryRowContext(ctx, "SELECT 1").Scan(&one); err != nil {
		t.Fatalf("root behind 400 silent sockets: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("root waited %v", d)
	}
	// The first silent sockets were closed: a read ends.
	socks[0].SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.ReadAll(socks[0]); err != nil {
		t.Fatalf("the oldest silent socket is still open: %v", err)
	}
}

// max_connect_errors: a host whose connections end before their login was
// checked that many times in a row is refused with 1129 until FLUSH HOSTS
// (which needs RELOAD); refused passwords do not count, and a successful
// login starts the count again. Other hosts are not touched.
func TestMaxConnectErrors(t *testing.T) {
	ts := startTestServer(t, "", Config{MaxConnectErrors: 3})
	root := ts.open("")
	for _, q := range []string{"CREATE USER 'u'@'%' IDENTIFIED BY 'pw'", "CREATE USER 'noreload'@'%' IDENTIFIED BY 'pw'"} {
		if _, err := root.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	addr := ts.s.Addr().(*net.TCPAddr)
	from := func(user, pw string) *gosql.DB {
		mysql.RegisterDialContext("from2", func(ctx context.Context, a string) (net.Conn, error) {
			d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
			return d.DialContext(ctx, "tcp", a)
		})
		db, err := gosql.Open("mysql", user+":"+pw+"@from2("+addr.String()+")/?timeout=5s")
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxIdleConns(0)
		t.Cleanup(func() { db.Close() })
		return db
	}
	abandon := func() {
		d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}
		c, err := d.Dial("tcp", addr.String())
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 4)
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		io.ReadFull(c, buf) // the handshake's header
		// Abandon the handshake and wait for the server's close, which
		// comes after it counted the error.
		c.(*net.TCPConn).CloseWrite()
		io.ReadAll(c)
		c.Close()
	}
	ping := func(db *gosql.DB) error {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		return db.PingContext(ctx)
	}
	blocked := func(err error) bool {
		var me *mysql.MySQLError
		return errors.As(err, &me) && me.Number == 1129 && me.Message == "Host '127.0.0.2' is blocked because of many connection errors; unblock with 'mariadb-admin flush-hosts'"
	}
	good, bad := from("u", "pw"), from("u", "wrong")
	for range 5 {
		if err := ping(bad); err == nil || blocked(err) {
			t.Fatalf("a wrong password: %v", err)
		}
	}
	abandon()
	abandon()
	if err := ping(good); err != nil {
		t.Fatalf("after 2 connection errors: %v", err)
	}
	for range 3 {
		abandon()
	}
	if err := ping(good); !blocked(err) {
		t.Fatalf("after 3 connection errors in a row: %v, want 1129", err)
	}
	var one int
	if err := root.QueryRow("SELECT 1").Scan(&one); err != nil {
		t.Fatalf("127.0.0.1 blocked too: %v", err)
	}
	nr, err := gosql.Open("mysql", ts.dsn("noreload", "pw", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer nr.Close()
	var me *mysql.MySQLError
	if _, err := nr.Exec("FLUSH HOSTS"); !errors.As(err, &me) || me.Number != 1227 {
		t.Fatalf("FLUSH HOSTS without RELOAD: %v, want 1227", err)
	}
	if _, err := root.Exec("FLUSH HOSTS"); err != nil {
		t.Fatal(err)
	}
	if err := ping(good); err != nil {
		t.Fatalf("after FLUSH HOSTS: %v", err)
	}
}

// A client that connects and never authenticates is closed after
// ConnectTimeout; an authenticated session idle for longer stays.
func TestConnectTimeout(t *testing.T) {
	ts := startTestServer(t, "", Config{ConnectTimeout: 300 * time.Millisecond})
	db := ts.open("")
	db.SetMaxIdleConns(1)
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := conn.PingContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	nc, err := net.Dial("tcp", ts.s.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	start := time.Now()
	nc.SetReadDeadline(time.Now().Add(5 * time.Second))
	io.ReadAll(nc) // the handshake, then the close
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("an unauthenticated connection stayed open %v", d)
	}
	time.Sleep(400 * time.Millisecond) // past the timeout for the session too
	var one int
	if err := conn.QueryRowContext(context.Background(), "SELECT 1").Scan(&one); err != nil {
		t.Fatalf("authenticated session closed by the connect timeout: %v", err)
	}
	if got := ts.s.Stats().ConnectTimeouts.Load(); got != 1 {
		t.Errorf("connect timeouts %d, want 1", got)
	}
}
