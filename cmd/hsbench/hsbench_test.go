package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/handlerdb/handlerdb/hs"
	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/server"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The tests run hsbench against an in-process HandlerDB (with its SQL
// port when it starts) and a small in-test memcached.
var (
	srv      *server.Server
	hsDSN    string
	mysqlDSN string // "" when the SQL port is off
)

const testKeys = 2000

func TestMain(m *testing.M) {
	logrus.SetLevel(logrus.ErrorLevel)
	dir, err := os.MkdirTemp("", "hsbench-test-")
	if err != nil {
		log.Fatal(err)
	}
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.Port, cfg.HSPort, cfg.HSPortWr, cfg.MemcachedPort = 0, 0, 0, -1
	cfg.Durability = engine.DurabilityNone
	cfg.AdminAddress = ""
	if srv, err = server.Start(cfg, nil); err != nil {
		cfg.Port = -1
		if srv, err = server.Start(cfg, nil); err != nil {
			log.Fatal(err)
		}
	}
	_, wport, _ := strings.Cut(srv.HS().WriteAddr().String(), ":")
	hsDSN = "hs://" + srv.HS().ReadAddr().String() + "?wr_port=" + wport
	if a := srv.SQLAddr(); a != nil {
		mysqlDSN = "root@tcp(" + a.String() + ")/"
	} else if err := createBenchTable(srv.Engine()); err != nil {
		log.Fatal(err)
	}
	code := m.Run()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	srv.Shutdown(ctx)
	cancel()
	os.RemoveAll(dir)
	os.Exit(code)
}

// createBenchTable creates hsbench.bench through the engine, for when
// the server has no SQL port.
func createBenchTable(e *engine.Engine) error {
	return e.Update(context.Background(), func(tx *engine.Job) error {
		if err := tx.CreateDatabase("hsbench"); err != nil {
			return err
		}
		def := &engine.TableDef{Name: "bench", Indexes: []engine.IndexDef{{Name: "PRIMARY", Primary: true, Unique: true, Columns: []string{"id"}}}}
		for _, c := range [][2]string{{"id", "INT"}, {"name", "VARCHAR(64)"}, {"email", "VARCHAR(255)"}, {"created", "DATETIME"}} {
			t, err := types.ParseType(c[1])
			if err != nil {
				return err
			}
			def.Columns = append(def.Columns, types.Column{Name: c[0], Type: t, Nullable: c[0] != "id"})
		}
		_, err := tx.CreateTable("hsbench", def)
		return err
	})
}

// hsbench runs a command line and returns its stdout and stderr.
func hsbench(t *testing.T, args ...string) (string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	if err := run(context.Background(), args, &out, &errOut); err != nil {
		t.Fatalf("hsbench %s: %v\nstderr:\n%s", strings.Join(args, " "), err, errOut.String())
	}
	return out.String(), errOut.String()
}

// runJSON runs a command with --json and decodes its results.
func runJSON(t *testing.T, args ...string) []*result {
	t.Helper()
	out, _ := hsbench(t, append(args, "--json", "--quiet")...)
	var rs []*result
	if err := json.Unmarshal([]byte(out), &rs); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out)
	}
	return rs
}

var loadOnce sync.Once

// loaded fills hsbench.bench once for the tests that need rows.
func loaded(t *testing.T) {
	loadOnce.Do(func() {
		args := []string{"load", "--hs", hsDSN, "--keys", strconv.Itoa(testKeys), "--conns", "2", "--batch", "300"}
		if mysqlDSN != "" {
			args = append(args, "--mysql", mysqlDSN)
		}
		out, errOut := hsbench(t, args...)
		if !strings.Contains(out, fmt.Sprintf("loaded %d rows into hsbench.bench", testKeys)) || !strings.Contains(out, " 0 failed") {
			t.Fatalf("load printed %q", out)
		}
		if mysqlDSN != "" && !strings.Contains(errOut, "created table hsbench.bench") {
			t.Fatalf("load stderr %q", errOut)
		}
	})
}

var benchLineRE = regexp.MustCompile(`(?m)^BenchmarkHS/get/conns=2/pipeline=1\t\d+\t[0-9.]+ ns/op\t\d+ p50-ns\t\d+ p99-ns\t\d+ p99.9-ns\t\d+ max-ns\t0 errors\t[0-9.]+ KB/s$`)

func TestRunGet(t *testing.T) {
	loaded(t)
	out, errOut := hsbench(t, "run", "--hs", hsDSN, "--workload", "get", "--keys", strconv.Itoa(testKeys),
		"--conns", "2", "--duration", "1500ms", "--warmup", "600ms")
	t.Logf("stdout:\n%s\nstderr:\n%s", out, errOut)
	for _, want := range []string{"target", "ops/s", "p50", "p99.9", "max", "errors", "KB/s"} {
		if !strings.Contains(out, want) {
			t.Errorf("table without %q", want)
		}
	}
	if !benchLineRE.MatchString(out) {
		t.Errorf("no benchmark line in\n%s", out)
	}
	// one line per second, the first during the warm-up
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	if len(lines) < 2 || !strings.Contains(lines[0], "(warmup)") || !strings.Contains(lines[0], "ops/s") || strings.Contains(lines[1], "warmup") {
		t.Errorf("per-second lines:\n%s", errOut)
	}
}

func TestRunWorkloads(t *testing.T) {
	loaded(t)
	c, err := hs.Open(hsDSN)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ix := c.Index("hsbench", "bench", "", []string{"id"})
	beyond := func() int { // rows past the loaded keys (earlier runs of the test leave some)
		r, err := ix.Find(context.Background(), hs.Query{Op: hs.GE, Key: []any{testKeys + 1}, Limit: 100000})
		if err != nil {
			t.Fatal(err)
		}
		return r.Len()
	}
	before := beyond()
	base := []string{"--hs", hsDSN, "--keys", strconv.Itoa(testKeys), "--conns", "2", "--warmup", "0"}
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"get-pipelined", []string{"--workload", "get", "--pipeline", "8", "--requests", "800"}},
		{"insert", []string{"--workload", "insert", "--requests", "300"}},
		{"insert-pipelined", []string{"--workload", "insert", "--pipeline", "10", "--requests", "300"}},
		{"update", []string{"--workload", "update", "--requests", "200", "--value-size", "100"}},
		{"mixed", []string{"--workload", "mixed", "--read-ratio", "0.5", "--requests", "200", "--key-dist", "zipf"}},
		{"range", []string{"--workload", "range", "--range-size", "20", "--requests", "100"}},
		{"delete", []string{"--workload", "delete", "--requests", "50"}},
		{"open-loop", []string{"--workload", "get", "--rate", "2000", "--duration", "500ms", "--pipeline", "2"}},
		{"server-cpu", []string{"--workload", "get", "--duration", "500ms", "--server-pid", strconv.Itoa(os.Getpid())}}, // /proc counts 10 ms ticks
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := runJSON(t, append([]string{"run"}, append(base, tc.args...)...)...)
			r := rs[0]
			if r.Ops == 0 || r.Errors != 0 || r.OpsPerSec <= 0 || r.P50 <= 0 || r.P99 < r.P50 || r.Max < r.P99 || r.KBPerSec <= 0 {
				t.Fatalf("result %+v", r)
			}
			for i, a := range tc.args {
				if a == "--requests" {
					if want, _ := strconv.Atoi(tc.args[i+1]); r.Ops != int64(want) {
						t.Fatalf("%d ops, want %d", r.Ops, want)
					}
				}
			}
			if tc.name == "open-loop" && (r.Ops < 600 || r.Ops > 1400) {
				t.Fatalf("open loop at 2000/s for 0.5s did %d ops", r.Ops)
			}
			if tc.name == "server-cpu" && (r.ServerCPUNsPerOp == nil || *r.ServerCPUNsPerOp <= 0) {
				t.Fatalf("no server CPU: %+v", r)
			}
		})
	}
	// the inserts went past the loaded keys, and the deletes removed 1..50
	if n := beyond() - before; n != 600 {
		t.Fatalf("%d rows inserted beyond the keys, want 600", n)
	}
	if _, err := ix.Get(context.Background(), 50); err != hs.ErrNotFound {
		t.Fatalf("row 50 after the deletes: %v", err)
	}
}

func TestCompare(t *testing.T) {
	loaded(t)
	out, _ := hsbench(t, "compare", "--hs", hsDSN, "--a", "hs", "--b", "hs="+hsDSN+"&pool_size=2", "--workload", "get",
		"--keys", strconv.Itoa(testKeys), "--conns", "2", "--rounds", "3", "--duration", "300ms", "--warmup", "100ms", "--quiet")
	t.Logf("\n%s", out)
	for _, want := range []string{"B/A", "ops/s", "p99.9", "±"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare output without %q", want)
		}
	}
	if n := len(benchLineRE.FindAllString(out, -1)); n != 6 {
		t.Errorf("%d benchmark lines, want 6", n)
	}
	var cmp comparison
	jout, _ := hsbench(t, "compare", "--hs", hsDSN, "--a", "hs", "--b", "hs", "--keys", strconv.Itoa(testKeys),
		"--conns", "1", "--rounds", "3", "--requests", "100", "--warmup", "0", "--quiet", "--json")
	if err := json.Unmarshal([]byte(jout), &cmp); err != nil {
		t.Fatal(err)
	}
	if len(cmp.Rounds) != 6 || cmp.Metrics[0].Name != "ops/s" || len(cmp.Metrics[0].Ratios) != 3 || cmp.Metrics[0].Ratio <= 0 {
		t.Fatalf("comparison %+v", cmp)
	}
	if cmp.Rounds[0].Round != 1 || cmp.Rounds[5].Round != 3 {
		t.Fatalf("rounds %d..%d", cmp.Rounds[0].Round, cmp.Rounds[5].Round)
	}
}

func TestMySQLTargets(t *testing.T) {
	if mysqlDSN == "" {
		t.Skip("the in-process server has no SQL port")
	}
	loaded(t)
	for _, target := range []string{"mysql", "mysql-text"} {
		for _, wl := range []string{"get", "update", "range"} {
			rs := runJSON(t, "run", "--target", target, "--mysql", mysqlDSN, "--workload", wl, "--keys", strconv.Itoa(testKeys),
				"--conns", "2", "--requests", "60", "--warmup", "0")
			if r := rs[0]; r.Ops != 60 || r.Errors != 0 || r.Target != target || r.KBPerSec <= 0 {
				t.Fatalf("%s %s: %+v", target, wl, r)
			}
		}
	}
}

func TestMemcached(t *testing.T) {
	addr := fakeMemcached(t)
	out, _ := hsbench(t, "load", "--target", "memcached", "--memcached", addr, "--keys", "500", "--conns", "2", "--batch", "50")
	if !strings.Contains(out, "loaded 500 rows") || !strings.Contains(out, " 0 failed") {
		t.Fatalf("load: %s", out)
	}
	for _, wl := range []string{"get", "update", "insert", "delete", "mixed"} {
		rs := runJSON(t, "run", "--target", "memcached", "--memcached", addr, "--workload", wl, "--keys", "500",
			"--conns", "2", "--pipeline", "4", "--requests", "200", "--warmup", "0")
		if r := rs[0]; r.Ops != 200 || r.Errors != 0 || r.Target != "memcached" || r.KBPerSec <= 0 {
			t.Fatalf("%s: %+v", wl, r)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"bogus"},
		{"run", "--workload", "nope"},
		{"run", "--target", "redis"},
		{"run", "--conns", "0"},
		{"run", "--key-dist", "zipf", "--zipf-s", "1"},
		{"compare", "--rounds", "2"},
		{"run", "--target", "mysql", "--pipeline", "2", "--mysql", "root@tcp(127.0.0.1:1)/"},
		{"run", "--target", "memcached", "--workload", "range"},
		{"run", "extra"},
	} {
		var out, errOut bytes.Buffer
		if err := run(context.Background(), args, &out, &errOut); err == nil {
			t.Errorf("%v: no error", args)
		}
	}
}

func TestFormatting(t *testing.T) {
	for ns, want := range map[int64]string{512: "512ns", 31_234: "31.2µs", 1_500_000: "1.5ms", 2_000_000_000: "2s"} {
		if got := fmtDur(ns); got != want {
			t.Errorf("fmtDur(%d) = %q, want %q", ns, got, want)
		}
	}
	if s, ok := cpuSeconds(os.Getpid()); !ok || s < 0 {
		t.Errorf("cpuSeconds = %v %v", s, ok)
	}
	if _, ok := cpuSeconds(-1); ok {
		t.Error("cpuSeconds of no process")
	}
	r := &result{Target: "mysql-text", Workload: "mixed-read90", Conns: 4, Pipeline: 1, Rate: 1000, KeyDist: "zipf"}
	if got := benchName(r); got != "BenchmarkMySQLText/mixed-read90/conns=4/pipeline=1/rate=1000/zipf" {
		t.Errorf("benchName = %q", got)
	}
	m, s := meanSpread([]float64{1, 2, 3})
	if m != 2 || s != 0.5 {
		t.Errorf("meanSpread = %v %v", m, s)
	}
}

// fakeMemcached serves get/set/delete from a map.
func fakeMemcached(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	data := map[string][]byte{}
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer nc.Close()
				r, w := bufio.NewReader(nc), bufio.NewWriter(nc)
				for {
					if r.Buffered() == 0 {
						w.Flush()
					}
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					f := strings.Fields(line)
					if len(f) == 0 {
						w.WriteString("ERROR\r\n")
						continue
					}
					mu.Lock()
					switch f[0] {
					case "get":
						for _, k := range f[1:] {
							if v, ok := data[k]; ok {
								fmt.Fprintf(w, "VALUE %s 0 %d\r\n%s\r\n", k, len(v), v)
							}
						}
						w.WriteString("END\r\n")
					case "set":
						n, _ := strconv.Atoi(f[4])
						v := make([]byte, n+2)
						if _, err := io.ReadFull(r, v); err != nil {
							mu.Unlock()
							return
						}
						data[f[1]] = v[:n]
						w.WriteString("STORED\r\n")
					case "delete":
						if _, ok := data[f[1]]; ok {
							delete(data, f[1])
							w.WriteString("DELETED\r\n")
						} else {
							w.WriteString("NOT_FOUND\r\n")
						}
					case "quit":
						mu.Unlock()
						return
					default:
						w.WriteString("ERROR\r\n")
					}
					mu.Unlock()
				}
			}()
		}
	}()
	return ln.Addr().String()
}
