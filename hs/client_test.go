package hs_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/hs"
)

func TestParseDSN(t *testing.T) {
	cases := []struct {
		dsn  string
		want hs.Options
		err  string
	}{
		{dsn: "hs://127.0.0.1", want: hs.Options{ReadAddr: "127.0.0.1:9998", WriteAddr: "127.0.0.1:9999"}},
		{dsn: "hs://s3cret@db1:19998/app?wr_port=19999&wr_secret=w%40x", want: hs.Options{ReadAddr: "db1:19998", WriteAddr: "db1:19999", ReadSecret: "s3cret", WriteSecret: "w@x", Database: "app"}},
		{dsn: "hs://app:pw@db1?wr_secret=app:pw", want: hs.Options{ReadAddr: "db1:9998", WriteAddr: "db1:9999", ReadSecret: "app:pw", WriteSecret: "app:pw"}},
		{dsn: "hs://db1?wr_port=off", want: hs.Options{ReadAddr: "db1:9998"}},
		{dsn: "hs://db1?rd=off&wr_host=db2", want: hs.Options{WriteAddr: "db2:9999"}},
		{dsn: "hs://[::1]:7000?wr_port=7001", want: hs.Options{ReadAddr: "[::1]:7000", WriteAddr: "[::1]:7001"}},
		{dsn: "hs://h?pool_size=3&wr_pool_size=5&max_idle=2&idle_timeout=1m&dial_timeout=1s&timeout=2s&debug=true",
			want: hs.Options{ReadAddr: "h:9998", WriteAddr: "h:9999", ReadPoolSize: 3, WritePoolSize: 5, MaxIdle: 2, IdleTimeout: time.Minute, DialTimeout: time.Second, ReadTimeout: 2 * time.Second, WriteTimeout: 2 * time.Second, Debug: true}},
		{dsn: "hs://h?read_timeout=3s&write_timeout=4s&rd_pool_size=6", want: hs.Options{ReadAddr: "h:9998", WriteAddr: "h:9999", ReadTimeout: 3 * time.Second, WriteTimeout: 4 * time.Second, ReadPoolSize: 6}},
		// The specific parameters win over the general ones in any order.
		{dsn: "hs://h?wr_pool_size=5&pool_size=3&read_timeout=1s&timeout=2s", want: hs.Options{ReadAddr: "h:9998", WriteAddr: "h:9999", ReadPoolSize: 3, WritePoolSize: 5, ReadTimeout: time.Second, WriteTimeout: 2 * time.Second}},
		{dsn: "mysql://h", err: "scheme"},
		{dsn: "hs://h?bogus=1", err: "unknown parameter"},
		{dsn: "hs://h?pool_size=x", err: "pool_size"},
		{dsn: "hs://h?wr_port=99999", err: "wr_port"},
		{dsn: "hs://h?timeout=soon", err: "timeout"},
	}
	// Each DSN is parsed many times: a parser that depended on the order
	// of Go's map iteration would give different answers.
	for i := 0; i < 50*len(cases); i++ {
		tc := cases[i%len(cases)]
		got, err := hs.ParseDSN(tc.dsn)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.dsn, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.dsn, err)
			continue
		}
		if fmt.Sprintf("%+v", got) != fmt.Sprintf("%+v", tc.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.dsn, got, tc.want)
		}
	}
	if _, err := hs.New(hs.Options{}); !errors.Is(err, hs.ErrNoAddr) {
		t.Errorf("New without addresses: %v", err)
	}
}

func TestAuth(t *testing.T) {
	s, err := startServer(t.TempDir(), "rdsecret", "wrsecret", false)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Shutdown(context.Background())
	e := &env{db: testDB, eng: s.Engine()}
	if err := e.createDatabase(); err != nil {
		t.Fatal(err)
	}
	e.mustCreate(t, fruitTable("tauth"), fruitRows...)
	rd, wr := s.HS().ReadAddr().String(), s.HS().WriteAddr().String()
	_, wport, _ := strings.Cut(wr, ":")

	c, err := hs.Open("hs://rdsecret@" + rd + "/" + testDB + "?wr_port=" + wport + "&wr_secret=wrsecret")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	ix := c.Index("", "tauth", "", []string{"k", "a"})
	if _, err := ix.Get(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Insert(ctx, 100, "x"); err != nil {
		t.Fatal(err)
	}

	for _, dsn := range []string{
		"hs://wrong@" + rd + "/" + testDB + "?wr_port=" + wport + "&wr_secret=wrsecret",
		"hs://" + rd + "/" + testDB + "?wr_port=" + wport + "&wr_secret=wrsecret", // no secret: P is refused
	} {
		bad, _ := hs.Open(dsn)
		_, err = bad.Index("", "tauth", "", []string{"k"}).Get(ctx, 1)
		wantErr(t, err, hs.ErrUnauth)
		bad.Close()
	}
	// the write port does not take the read secret
	bad, _ := hs.Open("hs://rdsecret@" + rd + "/" + testDB + "?wr_port=" + wport + "&wr_secret=rdsecret")
	defer bad.Close()
	_, err = bad.Index("", "tauth", "", []string{"k"}).Insert(ctx, 101)
	wantErr(t, err, hs.ErrUnauth)
	wantErr(t, bad.Ping(ctx), hs.ErrUnauth)
	// a secret sent to a port without one is refused
	nc, _ := hs.Open("hs://oops@" + readAddr + "?wr_port=off")
	defer nc.Close()
	wantErr(t, nc.Ping(ctx), hs.ErrUnauth)
}

// TestStaleConnection: the server closes a connection after answering (as
// it does with idle ones); the next request notices before sending and
// opens a new connection, without needing a retry.
func TestStaleConnection(t *testing.T) {
	f := newFakeServer(t, func(conn int, line string) string {
		if strings.HasPrefix(line, "P\t") {
			return "0\t1"
		}
		if strings.Contains(line, "\t+\t") {
			return "BYE:0\t1"
		}
		return "BYE:0\t1\tv"
	})
	var retried atomic.Bool
	c := fakeClient(t, f, func(o *hs.Options) {
		o.Hooks = []hs.Hook{hookFuncs{after: func(op *hs.Operation) { retried.Store(retried.Load() || op.Retried) }}}
	})
	ix := c.Index("d", "t", "", []string{"v"})
	for i := 0; i < 3; i++ {
		if i > 0 { // wait until the server has closed both connections
			for deadline := time.Now().Add(5 * time.Second); f.closed.Load() < int32(2*i); {
				if time.Now().After(deadline) {
					t.Fatalf("the server closed %d connections, want %d", f.closed.Load(), 2*i)
				}
				time.Sleep(time.Millisecond)
			}
		}
		if _, err := ix.Get(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := ix.Insert(ctx, 100+i); err != nil {
			t.Fatal(err)
		}
	}
	st := c.Stats()
	if st.Read.Stale != 2 || st.Write.Stale != 2 || st.Read.Dials != 3 || st.Write.Dials != 3 || retried.Load() {
		t.Fatalf("stats %+v, retried %v", st, retried.Load())
	}
}

// fakeServer answers request lines with a function of the connection
// number (from 1) and the line. A reply "CLOSE" closes the connection
// without answering, "HANG" never answers, "BYE:reply" answers and closes.
type fakeServer struct {
	ln     net.Listener
	conns  atomic.Int32
	closed atomic.Int32 // connections the server has closed
	mu     sync.Mutex
	lines  []string
}

func newFakeServer(t *testing.T, reply func(conn int, line string) string) *fakeServer {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServer{ln: ln}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			n := int(f.conns.Add(1))
			go func() {
				defer func() {
					nc.Close()
					f.closed.Add(1)
				}()
				r := bufio.NewReader(nc)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					line = strings.TrimSuffix(line, "\n")
					f.mu.Lock()
					f.lines = append(f.lines, line)
					f.mu.Unlock()
					out := reply(n, line)
					switch out {
					case "CLOSE":
						return
					case "HANG":
						io := make([]byte, 1)
						nc.Read(io)
						return
					}
					bye := strings.HasPrefix(out, "BYE:")
					if _, err := nc.Write([]byte(strings.TrimPrefix(out, "BYE:") + "\n")); err != nil || bye {
						return
					}
				}
			}()
		}
	}()
	return f
}

func (f *fakeServer) addr() string { return f.ln.Addr().String() }

func (f *fakeServer) received() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.lines...)
}

func fakeClient(t *testing.T, f *fakeServer, mod func(*hs.Options)) *hs.Client {
	o := hs.Options{ReadAddr: f.addr(), WriteAddr: f.addr(), ReadPoolSize: 1, WritePoolSize: 1}
	if mod != nil {
		mod(&o)
	}
	c, err := hs.New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// answers P with success and anything else with a one-column row; the
// second request of connection 1 is never answered: the connection dies.
func dyingServer(t *testing.T) *fakeServer {
	var seen atomic.Int32
	return newFakeServer(t, func(conn int, line string) string {
		if strings.HasPrefix(line, "P\t") {
			return "0\t1"
		}
		if conn == 1 && seen.Add(1) == 2 {
			return "CLOSE"
		}
		if strings.Contains(line, "\t+\t") {
			return "0\t1\t7"
		}
		return "0\t1\tv"
	})
}

func TestRetryRead(t *testing.T) {
	f := dyingServer(t)
	var retried atomic.Bool
	c := fakeClient(t, f, func(o *hs.Options) {
		o.Hooks = []hs.Hook{hookFuncs{after: func(op *hs.Operation) {
			if op.Retried {
				retried.Store(true)
			}
		}}}
	})
	ix := c.Index("d", "t", "", []string{"v"})
	for i := 0; i < 3; i++ {
		row, err := ix.Get(ctx, i)
		if err != nil || row.String(0) != "v" {
			t.Fatalf("get %d: %v", i, err)
		}
	}
	if f.conns.Load() != 2 || !retried.Load() {
		t.Fatalf("%d connections, retried %v", f.conns.Load(), retried.Load())
	}
}

func TestNoRetryWrite(t *testing.T) {
	f := dyingServer(t)
	c := fakeClient(t, f, nil)
	ix := c.Index("d", "t", "", []string{"v"})
	if id, err := ix.Insert(ctx, "a"); err != nil || id != 7 {
		t.Fatalf("first insert: %d %v", id, err)
	}
	if _, err := ix.Insert(ctx, "b"); err == nil {
		t.Fatal("insert on a dying connection succeeded")
	}
	inserts := 0
	for _, l := range f.received() {
		if strings.Contains(l, "\t+\t") {
			inserts++
		}
	}
	if inserts != 2 {
		t.Fatalf("server saw %d inserts, want 2 (no retry)", inserts)
	}
	// the client recovers on a new connection
	if _, err := ix.Insert(ctx, "c"); err != nil {
		t.Fatal(err)
	}
}

func TestErrorReplies(t *testing.T) {
	var reply atomic.Value
	f := newFakeServer(t, func(conn int, line string) string {
		if strings.HasPrefix(line, "P\t") {
			return "0\t1"
		}
		return reply.Load().(string)
	})
	c := fakeClient(t, f, nil)
	ix := c.Index("d", "t", "", []string{"v"})
	for _, want := range []*hs.ServerError{
		hs.ErrOpenTable, hs.ErrIdxnum, hs.ErrFld, hs.ErrStmtnum, hs.ErrOp, hs.ErrKlen, hs.ErrKpnum,
		hs.ErrReadonly, hs.ErrModop, hs.ErrInvalueslen, hs.ErrFilterfld, hs.ErrFiltertype,
		hs.ErrFilterblob, hs.ErrNotimpl, hs.ErrUnauth, hs.ErrAuthtype, hs.ErrCmd, hs.ErrLinelen,
		hs.ErrLockTables, hs.ErrTblnum, hs.ErrDuplicateKey, {Code: 1, Token: "167"},
	} {
		reply.Store(fmt.Sprintf("%d\t1\t%s", want.Code, want.Token))
		_, err := ix.Find(ctx, hs.Eq(1))
		var se *hs.ServerError
		if !errors.Is(err, want) || !errors.As(err, &se) || *se != *want {
			t.Errorf("%s: got %v", want.Token, err)
		}
		if !strings.Contains(err.Error(), want.Token) {
			t.Errorf("%s: message %q", want.Token, err)
		}
	}
	if errors.Is(hs.ErrKlen, hs.ErrKpnum) || errors.Is(&hs.ServerError{Code: 1, Token: "fld"}, hs.ErrFld) {
		t.Error("different errors compare equal")
	}
	// replies the client cannot read: a protocol error, and the connection
	// is not reused
	for _, bad := range []string{"garbage", "0", "0\t2\tx\ty", "x\t1\tcmd"} {
		reply.Store(bad)
		before := f.conns.Load()
		_, err := ix.Find(ctx, hs.Eq(1))
		wantErr(t, err, hs.ErrProtocol)
		reply.Store("0\t1\tok")
		if _, err := ix.Get(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if f.conns.Load() != before+1 {
			t.Errorf("%q: connection reused after a protocol error", bad)
		}
	}
	// a count reply that is not a number
	reply.Store("0\t1\tmany")
	_, err := ix.Delete(ctx, hs.Eq(1))
	wantErr(t, err, hs.ErrProtocol)
}

func TestContext(t *testing.T) {
	f := newFakeServer(t, func(conn int, line string) string {
		if strings.HasPrefix(line, "P\t") {
			return "0\t1"
		}
		if strings.Contains(line, "slow") {
			return "HANG"
		}
		return "0\t1\tv"
	})
	c := fakeClient(t, f, nil)
	ix := c.Index("d", "t", "", []string{"v"})
	dctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := ix.Get(dctx, "slow")
	wantErr(t, err, context.DeadlineExceeded)
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("deadline took %v", d)
	}
	cctx, cancel2 := context.WithCancel(ctx)
	time.AfterFunc(50*time.Millisecond, cancel2)
	_, err = ix.Get(cctx, "slow")
	wantErr(t, err, context.Canceled)
	// cancelled before the call
	_, err = ix.Get(cctx, 1)
	wantErr(t, err, context.Canceled)
	// the client still works, on new connections
	if _, err := ix.Get(ctx, 1); err != nil {
		t.Fatal(err)
	}
	// the read timeout of the options, with no context deadline
	tc := fakeClient(t, f, func(o *hs.Options) { o.ReadTimeout = 100 * time.Millisecond })
	_, err = tc.Index("d", "t", "", []string{"v"}).Get(ctx, "slow")
	wantErr(t, err, os.ErrDeadlineExceeded)
	// a pool at its size waits as long as the context allows
	pc := fakeClient(t, f, nil)
	pix := pc.Index("d", "t", "", []string{"v"})
	hctx, cancel4 := context.WithTimeout(ctx, time.Second)
	defer cancel4()
	countSlow := func() (n int) {
		for _, l := range f.received() {
			if strings.Contains(l, "slow") {
				n++
			}
		}
		return n
	}
	before := countSlow()
	go pix.Get(hctx, "slow") // holds the only connection
	for countSlow() == before {
		time.Sleep(10 * time.Millisecond)
		if hctx.Err() != nil {
			t.Fatal("the slow request never reached the server")
		}
	}
	wctx, cancel3 := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel3()
	_, err = pix.Get(wctx, 1)
	wantErr(t, err, context.DeadlineExceeded)
	if st := pc.Stats(); st.Read.Waits != 1 || st.Read.Timeouts != 1 {
		t.Fatalf("stats %+v", st.Read)
	}
}

func TestClosed(t *testing.T) {
	c, _ := hs.Open(serverDSN)
	ix := c.Index("", "users", "", []string{"id"})
	if _, err := ix.Get(ctx, 1); err != nil {
		t.Fatal(err)
	}
	c.Close()
	c.Close()
	_, err := ix.Get(ctx, 1)
	wantErr(t, err, hs.ErrClosed)
	wantErr(t, c.Ping(ctx), hs.ErrClosed)
	if st := c.Stats(); st.Read.Idle != 0 {
		t.Fatalf("idle connections after Close: %+v", st.Read)
	}
}

type hookFuncs struct {
	before func(op *hs.Operation)
	after  func(op *hs.Operation)
}

func (h hookFuncs) Before(ctx context.Context, op *hs.Operation) context.Context {
	if h.before != nil {
		h.before(op)
	}
	return ctx
}

func (h hookFuncs) After(ctx context.Context, op *hs.Operation) {
	if h.after != nil {
		h.after(op)
	}
}

type ctxKey struct{}

// recorder is a Hook that keeps what it saw.
type recorder struct {
	mu  sync.Mutex
	ops []string
}

func (r *recorder) Before(ctx context.Context, op *hs.Operation) context.Context {
	return context.WithValue(ctx, ctxKey{}, op.Name)
}

func (r *recorder) After(ctx context.Context, op *hs.Operation) {
	r.mu.Lock()
	defer r.mu.Unlock()
	idx := "-"
	if op.Index != nil {
		idx = op.Index.Table()
	}
	r.ops = append(r.ops, fmt.Sprintf("%s/%v %s n=%d write=%v err=%v ok=%v", op.Name, ctx.Value(ctxKey{}), idx, op.Requests, op.Write, op.Err,
		op.Duration > 0 && op.BytesSent > 0 && op.BytesReceived > 0 && op.Addr != "" && !op.Start.IsZero() && len(op.Payload) > 0))
}

func TestHooks(t *testing.T) {
	local.mustCreate(t, fruitTable("t_hooks"), fruitRows...)
	rec := &recorder{}
	var order []string
	o, _ := hs.ParseDSN(serverDSN)
	o.Hooks = []hs.Hook{
		hookFuncs{before: func(*hs.Operation) { order = append(order, "b1") }, after: func(*hs.Operation) { order = append(order, "a1") }},
		rec,
		hookFuncs{before: func(*hs.Operation) { order = append(order, "b2") }, after: func(*hs.Operation) { order = append(order, "a2") }},
	}
	c, _ := hs.New(o)
	defer c.Close()
	ix := c.Index("", "t_hooks", "", []string{"k", "a"})
	ix.Get(ctx, 1)
	ix.Insert(ctx, 1, "dup")
	ix.Update(ctx, hs.Eq(2), 2, "b")
	p := c.Pipeline()
	p.Get(ix, 1)
	p.Get(ix, 2)
	p.Exec(ctx)
	want := []string{
		"find/find t_hooks n=1 write=false err=<nil> ok=true",
		"insert/insert t_hooks n=1 write=true err=" + hs.ErrDuplicateKey.Error() + " ok=true",
		"update/update t_hooks n=1 write=true err=<nil> ok=true",
		"pipeline/pipeline - n=2 write=false err=<nil> ok=true",
	}
	if strings.Join(rec.ops, "\n") != strings.Join(want, "\n") {
		t.Fatalf("hook saw\n%s\nwant\n%s", strings.Join(rec.ops, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(order[:4], ",") != "b1,b2,a2,a1" {
		t.Fatalf("hook order %v", order)
	}
}

func TestDebugLog(t *testing.T) {
	var logged []hs.DebugRecord
	o, _ := hs.ParseDSN(serverDSN)
	o.Debug, o.DebugKeep = true, 3
	o.DebugLog = func(r hs.DebugRecord) { logged = append(logged, r) }
	c, _ := hs.New(o)
	defer c.Close()
	ix := c.Index("", "users", "", []string{"id", "name"})
	for i := 1; i <= 4; i++ {
		ix.Get(ctx, i)
	}
	recs := c.DebugRecords()
	if len(logged) != 5 || len(recs) != 3 {
		t.Fatalf("%d logged, %d kept", len(logged), len(recs))
	}
	if !strings.HasSuffix(recs[0].Request, "\t=\t1\t2\t1\t0") {
		t.Fatalf("oldest kept record %q", recs[0].Request)
	}
	if recs[0].Reply != "0\t2\t2\tbob" || recs[2].Reply != "0\t2" {
		t.Fatalf("replies %q %q", recs[0].Reply, recs[2].Reply)
	}
	if (&hs.Client{}).DebugRecords() != nil {
		t.Fatal("records without debug mode")
	}
}

// TestUserPassword authenticates as a HandlerDB SQL user: the secret is
// user:password.
func TestUserPassword(t *testing.T) {
	if local.sql == nil {
		t.Skip("the in-process server has no SQL port, so no SQL users")
	}
	// An account with a password (HandlerDB never lets one without a
	// password in over HandlerSocket).
	for _, q := range []string{
		"CREATE USER IF NOT EXISTS 'hsuser'@'127.0.0.1' IDENTIFIED BY 'pw'",
		"GRANT SELECT, INSERT, UPDATE, DELETE ON " + testDB + ".* TO 'hsuser'@'127.0.0.1'",
	} {
		if _, err := local.sql.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	_, wport, _ := strings.Cut(writeAddr, ":")
	c, err := hs.Open("hs://hsuser:pw@" + readAddr + "/" + testDB + "?wr_port=" + wport + "&wr_secret=hsuser:pw")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if o := c.Options(); o.ReadSecret != "hsuser:pw" || o.WriteSecret != "hsuser:pw" {
		t.Fatalf("secrets %q %q", o.ReadSecret, o.WriteSecret)
	}
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Index("", "users", "", []string{"name"}).Get(ctx, 1); err != nil {
		t.Fatal(err)
	}
	bad, _ := hs.Open("hs://hsuser:wrong@" + readAddr + "/" + testDB + "?wr_port=off")
	defer bad.Close()
	_, err = bad.Index("", "users", "", []string{"name"}).Get(ctx, 1)
	wantErr(t, err, hs.ErrUnauth)
}
