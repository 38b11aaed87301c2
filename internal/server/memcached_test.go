package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bradfitz/gomemcache/memcache"

	"github.com/handlerdb/handlerdb/internal/config"
)

// mcDo sends req on a new memcached connection and reads n answer
// lines (a VALUE's data line counts as one).
func mcDo(t *testing.T, s *Server, req string, n int) []string {
	t.Helper()
	c, err := net.Dial("tcp", s.Memcached().Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	var out []string
	for len(out) < n {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("%q: %v after %q", req, err, out)
		}
		out = append(out, strings.TrimSuffix(line, "\r\n"))
	}
	return out
}

func startMemcachedServer(t *testing.T) *Server {
	return startTest(t, func(c *config.Config) { c.MemcachedPort = 0 })
}

// TestMemcachedClient: a Go memcached client (bradfitz/gomemcache) round
// trip: set, get, multi-get, add, replace, append, cas, incr, decr,
// touch, delete, with misses and conflicts as memcached answers them.
func TestMemcachedClient(t *testing.T) {
	s := startMemcachedServer(t)
	mc := memcache.New(s.Memcached().Addr().String())
	mc.Timeout = 10 * time.Second
	if err := mc.Set(&memcache.Item{Key: "k1", Value: []byte("v1"), Flags: 42}); err != nil {
		t.Fatal(err)
	}
	it, err := mc.Get("k1")
	if err != nil || string(it.Value) != "v1" || it.Flags != 42 {
		t.Fatalf("get: %+v %v", it, err)
	}
	if _, err := mc.Get("missing"); !errors.Is(err, memcache.ErrCacheMiss) {
		t.Fatalf("miss: %v", err)
	}
	if err := mc.Add(&memcache.Item{Key: "k1", Value: []byte("x")}); !errors.Is(err, memcache.ErrNotStored) {
		t.Fatalf("add over an item: %v", err)
	}
	if err := mc.Replace(&memcache.Item{Key: "k2", Value: []byte("x")}); !errors.Is(err, memcache.ErrNotStored) {
		t.Fatalf("replace of nothing: %v", err)
	}
	if err := mc.Append(&memcache.Item{Key: "k1", Value: []byte("+")}); err != nil {
		t.Fatal(err)
	}
	it, err = mc.Get("k1")
	if err != nil || string(it.Value) != "v1+" {
		t.Fatalf("after append: %+v %v", it, err)
	}
	it.Value = []byte("swapped")
	if err := mc.CompareAndSwap(it); err != nil {
		t.Fatalf("cas: %v", err)
	}
	if err := mc.CompareAndSwap(it); !errors.Is(err, memcache.ErrCASConflict) {
		t.Fatalf("cas with a stale unique: %v", err)
	}
	if err := mc.Set(&memcache.Item{Key: "n", Value: []byte("10")}); err != nil {
		t.Fatal(err)
	}
	if v, err := mc.Increment("n", 5); err != nil || v != 15 {
		t.Fatalf("incr: %d %v", v, err)
	}
	if v, err := mc.Decrement("n", 20); err != nil || v != 0 {
		t.Fatalf("decr below zero: %d %v", v, err)
	}
	if err := mc.Touch("n", 3600); err != nil {
		t.Fatal(err)
	}
	m, err := mc.GetMulti([]string{"k1", "n", "missing"})
	if err != nil || len(m) != 2 || string(m["k1"].Value) != "swapped" || strings.TrimSpace(string(m["n"].Value)) != "0" {
		t.Fatalf("multi-get: %v %v", m, err)
	}
	if err := mc.Delete("k1"); err != nil {
		t.Fatal(err)
	}
	if err := mc.Delete("k1"); !errors.Is(err, memcache.ErrCacheMiss) {
		t.Fatalf("second delete: %v", err)
	}
	if err := mc.Ping(); err != nil {
		t.Fatalf("ping (version): %v", err)
	}
	// /metrics counts requests by command and result, and keys by hit
	resp, err := http.Get("http://" + s.AdminAddr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, want := range []string{
		`handlerdb_requests_total{front="memcached",op="set",port="memcached",result="ok"} 2`,
		`handlerdb_requests_total{front="memcached",op="add",port="memcached",result="error"} 1`,
		`handlerdb_requests_total{front="memcached",op="cas",port="memcached",result="error"} 1`,
		`handlerdb_requests_total{front="memcached",op="get_key",port="memcached",result="hit"} 4`,
		`handlerdb_requests_total{front="memcached",op="get_key",port="memcached",result="miss"} 2`,
		`handlerdb_connections{front="memcached",port="memcached"}`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
}

// TestMemcachedSeesSQLAndHS: what memcached writes, SQL and HandlerSocket
// read at once, and the other way round, in the default container
// (innodb_memcache.cache, made at the first request).
func TestMemcachedSeesSQLAndHS(t *testing.T) {
	s := startMemcachedServer(t)
	if got := mcDo(t, s, "set m1 7 0 5\r\nhello\r\n", 1); got[0] != "STORED" {
		t.Fatal(got)
	}
	db := sqlDB(t, s, "innodb_memcache")
	var v string
	var flags int
	if err := db.QueryRow("SELECT mc_value, mc_flags FROM cache WHERE mc_key = 'm1'").Scan(&v, &flags); err != nil || v != "hello" || flags != 7 {
		t.Fatalf("SQL reads %q %d %v", v, flags, err)
	}
	sqlExec(t, s, "innodb_memcache", "INSERT INTO cache (mc_key, mc_value, mc_flags) VALUES ('fromsql', 'sqlvalue', 3)",
		"UPDATE cache SET mc_value = 'changed' WHERE mc_key = 'm1'")
	if got := mcDo(t, s, "get fromsql m1\r\n", 5); strings.Join(got, "|") != "VALUE fromsql 3 8|sqlvalue|VALUE m1 7 7|changed|END" {
		t.Fatalf("memcached reads %q", got)
	}
	// HandlerSocket: find the memcached row, insert one memcached reads
	hsAddr := s.HS().WriteAddr()
	lines := exchange(t, dialFrom(t, "127.0.0.1", hsAddr),
		"P\t1\tinnodb_memcache\tcache\tPRIMARY\tmc_key,mc_value,mc_flags,mc_cas,mc_expire\n1\t=\t1\tm1\n1\t+\t5\tfromhs\thsvalue\t9\t0\t0\n", 3)
	for i := range lines {
		lines[i] = strings.TrimSuffix(lines[i], "\n")
	}
	f := strings.Split(lines[1], "\t")
	if len(f) != 7 || strings.Join(f[:5], "\t") != "0\t5\tm1\tchanged\t7" || f[6] != "0" || lines[2] != "0\t1" {
		t.Fatalf("HandlerSocket: %q", lines)
	}
	if got := mcDo(t, s, "get fromhs\r\n", 3); strings.Join(got, "|") != "VALUE fromhs 9 7|hsvalue|END" {
		t.Fatalf("memcached reads the HS insert: %q", got)
	}
	if got := mcDo(t, s, "delete fromhs\r\n", 1); got[0] != "DELETED" {
		t.Fatal(got)
	}
	var n int
	if err := db.QueryRow("SELECT COUNT(*) FROM cache WHERE mc_key = 'fromhs'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("the memcached delete left %d rows (%v)", n, err)
	}
}

// TestMemcachedContainers: a container maps keys to a table of the
// user's, its value joined from several columns with the separator on
// get and split on set; `get @@name.key` reads it, `get @@name` makes it
// the connection's.
func TestMemcachedContainers(t *testing.T) {
	s := startMemcachedServer(t)
	mcDo(t, s, "get warmup\r\n", 1) // makes the configuration tables
	sqlExec(t, s, "shop",
		"CREATE TABLE item (id VARCHAR(32) PRIMARY KEY, name VARCHAR(50), price INT, note TEXT, fl INT UNSIGNED NOT NULL DEFAULT 0)",
		"INSERT INTO item VALUES ('a1', 'pen', 3, 'blue', 5)",
		"INSERT INTO innodb_memcache.containers VALUES ('items', 'shop', 'item', 'id', 'name|price|note', 'fl', NULL, NULL, 'PRIMARY')")
	var got []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		// the configuration is read again at most once a second
		if got = mcDo(t, s, "get @@items.a1\r\n", 1); got[0] != "END" {
			break
		}
	}
	got = append(got, mcDo(t, s, "get @@items.a1\r\n", 3)...)
	if strings.Join(got[1:], "|") != "VALUE @@items.a1 5 10|pen|3|blue|END" {
		t.Fatalf("multi-column get: %q", got)
	}
	if got := mcDo(t, s, "set @@items.a2 1 0 14\r\nbook|12|a note\r\n", 1); got[0] != "STORED" {
		t.Fatal(got)
	}
	db := sqlDB(t, s, "shop")
	var name, note string
	var price, fl int
	if err := db.QueryRow("SELECT name, price, note, fl FROM item WHERE id = 'a2'").Scan(&name, &price, &note, &fl); err != nil ||
		name != "book" || price != 12 || note != "a note" || fl != 1 {
		t.Fatalf("SQL reads the split value: %q %d %q %d %v", name, price, note, fl, err)
	}
	// switching the connection's container
	got = mcDo(t, s, "get @@items\r\nget a2\r\n", 5)
	if got[0] != "VALUE @@items 0 9" || got[1] != "shop/item" || strings.Join(got[3:], "|") != "VALUE a2 1 14|book|12|a note" {
		t.Fatalf("switch: %q", got)
	}
	// the default container is unchanged for other connections
	if got := mcDo(t, s, "get a2\r\n", 1); got[0] != "END" {
		t.Fatalf("default container: %q", got)
	}
}

// TestMemcachedAuth: with --memcached-auth a text connection logs in
// with memcached's ASCII authentication and a binary one with SASL PLAIN,
// as SQL accounts; before that every request is refused (the text
// connection closed, as memcached -Y does); the account's grants decide
// reads and writes.
func TestMemcachedAuth(t *testing.T) {
	s := startTest(t, func(c *config.Config) { c.MemcachedPort, c.MemcachedAuth = 0, true })
	sqlExec(t, s, "mysql",
		"CREATE USER 'rw'@'%' IDENTIFIED BY 'rwpw'", "GRANT ALL ON innodb_memcache.* TO 'rw'@'%'",
		"CREATE USER 'ro'@'%' IDENTIFIED BY 'ropw'", "GRANT SELECT ON innodb_memcache.* TO 'ro'@'%'")
	for _, c := range []struct {
		req  string
		want []string
	}{
		{"get a\r\n", []string{"CLIENT_ERROR unauthenticated"}},
		{"set x 0 0 8\r\nrw wrong\r\n", []string{"CLIENT_ERROR unauthenticated"}},
		{"set x 0 0 2\r\nrw\r\n", []string{"CLIENT_ERROR bad authentication token format"}},
		{"set x 0 0 7\r\nrw rwpw\r\nset k 0 0 1\r\nv\r\nget k\r\n", []string{"STORED", "STORED", "VALUE k 0 1", "v", "END"}},
		{"set x 0 0 7\r\nro ropw\r\nget k\r\nset k 0 0 1\r\nw\r\ndelete k\r\n", []string{"STORED", "VALUE k 0 1", "v", "END", "CLIENT_ERROR access denied", "CLIENT_ERROR access denied"}},
	} {
		if got := mcDo(t, s, c.req, len(c.want)); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%q: got %q, want %q", c.req, got, c.want)
		}
	}
	// binary: SASL PLAIN as the read-only account
	conn, err := net.Dial("tcp", s.Memcached().Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(10 * time.Second))
	bin := func(op byte, key, extras, value string) []byte {
		b := []byte{0x80, op, byte(len(key) >> 8), byte(len(key)), byte(len(extras)), 0, 0, 0}
		n := len(extras) + len(key) + len(value)
		b = append(b, byte(n>>24), byte(n>>16), byte(n>>8), byte(n), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
		return append(b, extras+key+value...)
	}
	r := bufio.NewReader(conn)
	answer := func(req []byte) (status int, body string) {
		if _, err := conn.Write(req); err != nil {
			t.Fatal(err)
		}
		h := make([]byte, 24)
		if _, err := io.ReadFull(r, h); err != nil {
			t.Fatal(err)
		}
		b := make([]byte, int(h[8])<<24|int(h[9])<<16|int(h[10])<<8|int(h[11]))
		io.ReadFull(r, b)
		return int(h[6])<<8 | int(h[7]), string(b[int(h[4])+int(h[2])<<8|int(h[3]):])
	}
	for _, c := range []struct {
		req    []byte
		status int
		body   string
	}{
		{bin(0x00, "k", "", ""), 0x20, "Auth failure."},
		{bin(0x20, "", "", ""), 0, "PLAIN"},
		{bin(0x21, "PLAIN", "", "\x00ro\x00bad"), 0x20, "Auth failure."},
		{bin(0x21, "PLAIN", "", "\x00ro\x00ropw"), 0, "Authenticated"},
		{bin(0x00, "k", "", ""), 0, "v"},
		{bin(0x01, "k", "\x00\x00\x00\x00\x00\x00\x00\x00", "w"), 0x20, "Auth failure."},
	} {
		if st, body := answer(c.req); st != c.status || body != c.body {
			t.Errorf("binary %x: status %#x %q, want %#x %q", c.req[1], st, body, c.status, c.body)
		}
	}
}

// TestReadLockHoldsEveryFront: while an SQL connection holds FLUSH
// TABLES WITH READ LOCK, a HandlerSocket insert and a memcached set wait
// (as HandlerSocket's writes wait in MariaDB), reads go on, and UNLOCK
// TABLES lets both finish.
func TestReadLockHoldsEveryFront(t *testing.T) {
	s := startMemcachedServer(t)
	if got := mcDo(t, s, "set before 0 0 1\r\nb\r\n", 1); got[0] != "STORED" {
		t.Fatal(got)
	}
	sqlExec(t, s, "rl", "CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))")
	holder, err := sqlDB(t, s, "rl").Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if _, err := holder.ExecContext(context.Background(), "FLUSH TABLES WITH READ LOCK"); err != nil {
		t.Fatal(err)
	}
	hc := dialFrom(t, "127.0.0.1", s.HS().WriteAddr())
	defer hc.Close()
	mc, err := net.Dial("tcp", s.Memcached().Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer mc.Close()
	hr, mr := bufio.NewReader(hc), bufio.NewReader(mc)
	io.WriteString(hc, "P\t1\trl\tt\tPRIMARY\tid,v\n")
	hc.SetReadDeadline(time.Now().Add(10 * time.Second))
	if line, err := hr.ReadString('\n'); line != "0\t1\n" {
		t.Fatalf("HS open: %q %v", line, err)
	}
	// The insert and the set wait.
	for _, w := range []struct {
		c   net.Conn
		req string
	}{{hc, "1\t+\t2\t1\ths\n"}, {mc, "set during 0 0 1\r\nd\r\n"}} {
		if _, err := io.WriteString(w.c, w.req); err != nil {
			t.Fatal(err)
		}
	}
	hc.SetReadDeadline(time.Now().Add(150 * time.Millisecond))
	mc.SetReadDeadline(time.Now().Add(10 * time.Millisecond))
	if line, err := hr.ReadString('\n'); err == nil {
		t.Fatalf("an HS insert answered under the read lock: %q", line)
	}
	if line, err := mr.ReadString('\n'); err == nil {
		t.Fatalf("a memcached set answered under the read lock: %q", line)
	}
	if got := mcDo(t, s, "get before\r\n", 3); got[1] != "b" {
		t.Fatalf("a memcached get under the read lock: %q", got)
	}
	if _, err := holder.ExecContext(context.Background(), "UNLOCK TABLES"); err != nil {
		t.Fatal(err)
	}
	hc.SetReadDeadline(time.Now().Add(10 * time.Second))
	mc.SetReadDeadline(time.Now().Add(10 * time.Second))
	if line, err := hr.ReadString('\n'); line != "0\t1\n" {
		t.Fatalf("HS insert after UNLOCK TABLES: %q %v", line, err)
	}
	if line, err := mr.ReadString('\n'); line != "STORED\r\n" {
		t.Fatalf("memcached set after UNLOCK TABLES: %q %v", line, err)
	}
	var v string
	if err := sqlDB(t, s, "rl").QueryRow("SELECT v FROM t WHERE id = 1").Scan(&v); err != nil || v != "hs" {
		t.Fatalf("the HS row: %q %v", v, err)
	}
}
