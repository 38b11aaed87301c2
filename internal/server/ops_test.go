package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/engine"
)

func hsExchange(t *testing.T, addr net.Addr, req string, lines int) []string {
	t.Helper()
	c, err := net.Dial("tcp", addr.String())
	if err != nil {
		t.Fatal(err)
	}
	return exchange(t, c, req, lines)
}

// exchange sends req on c, reads lines reply lines and closes c.
func exchange(t *testing.T, c net.Conn, req string, lines int) []string {
	t.Helper()
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(c)
	var out []string
	for i := 0; i < lines; i++ {
		l, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("%q: %v", req, err)
		}
		out = append(out, l)
	}
	return out
}

// TestMetricsAfterKnownTraffic scrapes /metrics after a known number of
// HandlerSocket requests and parses it with the Prometheus text parser.
func TestMetricsAfterKnownTraffic(t *testing.T) {
	s := startTest(t, nil)
	db := sqlDB(t, s, "m")
	if _, err := db.Exec("CREATE TABLE kv (k INT PRIMARY KEY, v VARCHAR(20))"); err != nil {
		t.Fatal(err)
	}
	var req strings.Builder
	req.WriteString("P\t1\tm\tkv\tPRIMARY\tk,v\n")
	for i := 0; i < 7; i++ {
		fmt.Fprintf(&req, "1\t+\t2\t%d\tv%d\n", i, i)
	}
	req.WriteString("1\t+\t2\t0\tdup\n") // one duplicate: an error
	hsExchange(t, s.HS().WriteAddr(), req.String(), 9)
	hsExchange(t, s.HS().ReadAddr(), "P\t1\tm\tkv\tPRIMARY\tk,v\n1\t=\t1\t1\n1\t=\t1\t2\n1\t>=\t1\t0\t10\t0\nA\t1\twrong\n", 5)
	if _, err := db.Exec("SELECT * FROM no_such_table"); err == nil {
		t.Fatal("query of a missing table succeeded")
	}

	resp, err := http.Get("http://" + s.AdminAddr().String() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.LegacyValidation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	value := func(name string, labels map[string]string) float64 {
		f := fams[name]
		if f == nil {
			t.Fatalf("metric family %s missing", name)
		}
	next:
		for _, m := range f.Metric {
			for _, lp := range m.Label {
				if want, ok := labels[lp.GetName()]; ok && want != lp.GetValue() {
					continue next
				}
			}
			switch {
			case m.Counter != nil:
				return m.Counter.GetValue()
			case m.Gauge != nil:
				return m.Gauge.GetValue()
			case m.Histogram != nil:
				return float64(m.Histogram.GetSampleCount())
			}
		}
		return 0
	}
	req1 := map[string]string{"front": "handlersocket", "port": "write", "op": "insert", "result": "ok"}
	checks := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"handlerdb_requests_total", req1, 7},
		{"handlerdb_requests_total", map[string]string{"port": "write", "op": "insert", "result": "error"}, 1},
		{"handlerdb_requests_total", map[string]string{"port": "read", "op": "find", "result": "ok"}, 3},
		{"handlerdb_requests_total", map[string]string{"port": "read", "op": "open_index", "result": "ok"}, 1},
		{"handlerdb_auth_failures_total", nil, 1},
		{"handlerdb_requests_total", map[string]string{"front": "mysql", "op": "ddl", "result": "ok"}, 2}, // CREATE DATABASE, CREATE TABLE
		{"handlerdb_requests_total", map[string]string{"front": "mysql", "op": "select", "result": "error"}, 1},
		{"handlerdb_rows_read_total", nil, 2 + 7},
		{"handlerdb_handlersocket_request_duration_seconds", map[string]string{"port": "read", "op": "find"}, 3},
	}
	for _, c := range checks {
		if got := value(c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if got := value("handlerdb_rows_written_total", nil); got < 7 {
		t.Errorf("rows written %v, want at least 7", got)
	}
	for _, name := range []string{"handlerdb_group_commit_jobs", "handlerdb_group_commit_duration_seconds", "handlerdb_pebble_compactions_total",
		"handlerdb_pebble_block_cache_hits_total", "handlerdb_row_cache_hits_total", "handlerdb_connections"} {
		if fams[name] == nil {
			t.Errorf("metric family %s missing", name)
		}
	}
}

// TestReadyz: /readyz answers 503 until the store is open and every
// listener is up (the admin listener starts first and the flag is set
// last; internal/admin tests the flag itself), 200 when ready, and 503
// again as soon as a shutdown begins, while in-flight batches finish.
func TestReadyz(t *testing.T) {
	cfg := config.Default()
	cfg.DataDir, cfg.Port, cfg.HSPort, cfg.HSPortWr, cfg.Durability, cfg.AdminAddress = t.TempDir(), 0, 0, 0, engine.DurabilityNone, "127.0.0.1:0"
	cfg.MemcachedPort = -1
	s, err := Start(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	addr := s.AdminAddr().String()
	status := func() int {
		r, err := http.Get("http://" + addr + "/readyz")
		if err != nil {
			return 0
		}
		r.Body.Close()
		return r.StatusCode
	}
	if got := status(); got != 200 {
		t.Fatalf("ready server: %d", got)
	}
	if r, err := http.Get("http://" + addr + "/livez"); err != nil || r.StatusCode != 200 {
		t.Fatalf("livez: %v %v", r, err)
	}
	db := sqlDB(t, s, "r")
	if _, err := db.Exec("CREATE TABLE t (id INT PRIMARY KEY)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	// Hold the engine's writer with a job of our own, so that a
	// HandlerSocket write batch stays in flight and the graceful shutdown
	// has to wait for it.
	release, holding := make(chan struct{}), make(chan struct{})
	go s.Engine().Update(context.Background(), func(*engine.Job) error { close(holding); <-release; return nil })
	<-holding
	c, err := net.Dial("tcp", s.HS().WriteAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("P\t1\tr\tt\tPRIMARY\tid\n1\t+\t1\t1\n"))
	go io.Copy(io.Discard, c)
	// Wait until the connection is executing its batch (waiting for the
	// held writer).
	waitFor(t, "the write batch to start", func() bool {
		for _, ci := range s.HS().Conns() {
			if ci.Write && ci.State == "executing" {
				return true
			}
		}
		return false
	})
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		done <- s.Shutdown(ctx)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for status() != 503 {
		select {
		case err := <-done:
			t.Fatalf("shutdown ended (%v) before /readyz answered 503", err)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatal("/readyz never answered 503 during the shutdown")
		}
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestBackupDuringWrites takes a backup through the admin listener while
// HandlerSocket inserts run, restores it by starting a server on the copy,
// and checks that every insert acknowledged before the backup began is
// there and every index is consistent.
func TestBackupDuringWrites(t *testing.T) {
	backups := t.TempDir()
	tokenFile := filepath.Join(t.TempDir(), "admin-token")
	if err := os.WriteFile(tokenFile, []byte("backup-t0ken\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := startTest(t, func(c *config.Config) { c.AdminTokenFile, c.BackupDir = tokenFile, backups })
	db := sqlDB(t, s, "b")
	if _, err := db.Exec("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(32), KEY v (v))"); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	acked := map[int]bool{}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			c, err := net.Dial("tcp", s.HS().WriteAddr().String())
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			r := bufio.NewReader(c)
			fmt.Fprintf(c, "P\t1\tb\tt\tPRIMARY\tid,v\n")
			r.ReadString('\n')
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				id := g*1_000_000 + i
				fmt.Fprintf(c, "1\t+\t2\t%d\tv%d\n", id, id%97)
				if l, err := r.ReadString('\n'); err != nil || l != "0\t1\n" {
					t.Errorf("insert %d: %q %v", id, l, err)
					return
				}
				mu.Lock()
				acked[id] = true
				mu.Unlock()
			}
		}(g)
	}
	time.Sleep(200 * time.Millisecond)
	mu.Lock()
	before := make([]int, 0, len(acked))
	for id := range acked {
		before = append(before, id)
	}
	mu.Unlock()
	dir := filepath.Join(backups, "backup")
	req, _ := http.NewRequest("POST", "http://"+s.AdminAddr().String()+"/backup?to=backup", nil)
	req.Header.Set("Authorization", "Bearer backup-t0ken")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("backup: %d %s", resp.StatusCode, body)
	}
	time.Sleep(100 * time.Millisecond)
	close(stop)
	wg.Wait()
	if len(before) == 0 {
		t.Fatal("no insert acknowledged before the backup")
	}
	// Restore: start on the copy.
	r := startTest(t, func(c *config.Config) { c.DataDir = dir })
	tb, err := r.Engine().Catalog().Table("b", "t")
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Engine().Check(tb); err != nil {
		t.Fatal(err)
	}
	present := map[int64]bool{}
	it, _ := r.Engine().NewIterator(tb, nil, engine.Range{}, false)
	for {
		row, err := it.Next()
		if err != nil {
			break
		}
		present[row[0].I] = true
	}
	it.Close()
	for _, id := range before {
		if !present[int64(id)] {
			t.Fatalf("insert %d acknowledged before the backup is missing from it", id)
		}
	}
	t.Logf("%d inserts acknowledged before the backup, %d rows in it", len(before), len(present))
}

// hsStep is one HandlerSocket request line and the answer line it must
// get, both without their newline.
type hsStep struct{ req, want string }

// hsSteps sends the requests of steps to addr in one write and checks
// each answer.
func hsSteps(t *testing.T, addr net.Addr, steps []hsStep) {
	t.Helper()
	var req strings.Builder
	for _, st := range steps {
		req.WriteString(st.req + "\n")
	}
	got := hsExchange(t, addr, req.String(), len(steps))
	for i, st := range steps {
		if got[i] != st.want+"\n" {
			t.Errorf("%q: %q, want %q", st.req, got[i], st.want+"\n")
		}
	}
}
