package sqlfront

import (
	"context"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// One connection past MaxConnections is answered 1040, as mysqld does;
// the slot is usable again once a connection closes.
func TestMaxConnections(t *testing.T) {
	ts := startTestServer(t, "", Config{MaxConnections: 2})
	db := ts.open("")
	db.SetMaxIdleConns(2)
	ctx := context.Background()
	c1, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c2, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Conn(ctx)
	var me *mysql.MySQLError
	if !errors.As(err, &me) || me.Number != 1040 || string(me.SQLState[:]) != "08004" || me.Message != "Too many connections" {
		t.Fatalf("third connection: %v, want error 1040 (08004) Too many connections", err)
	}
	if got := ts.s.Stats().Refused.Load(); got != 1 {
		t.Errorf("refused %d, want 1", got)
	}
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
