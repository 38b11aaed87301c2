package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math/rand"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var built struct {
	once sync.Once
	bin  string
	err  error
	out  []byte
}

// buildBinary compiles the server once per test run.
func buildBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "handlerdb-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.bin = filepath.Join(dir, "handlerdb")
		built.out, built.err = exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.bin != "" {
		os.RemoveAll(filepath.Dir(built.bin))
	}
	os.Exit(code)
}

// proc is a running server binary and the addresses it logged.
type proc struct {
	cmd   *exec.Cmd
	addrs map[string]string
}

// startBinary runs the server on ephemeral ports and waits for `ready`,
// reading the listener lines from its JSON log.
func startBinary(t *testing.T, bin string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"--port=0", "--handlersocket-port=0", "--handlersocket-port-wr=0", "--memcached-port=-1", "--admin-address=127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &proc{cmd: cmd, addrs: map[string]string{}}
	sc := bufio.NewScanner(stderr)
	ready := false
	for !ready && sc.Scan() {
		var rec map[string]any
		if json.Unmarshal(sc.Bytes(), &rec) != nil {
			continue
		}
		switch rec["msg"] {
		case "listening":
			p.addrs[fmt.Sprint(rec["proto"])] = fmt.Sprint(rec["addr"])
		case "ready":
			ready = true
		}
	}
	if !ready {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatal("server did not log ready")
	}
	go io.Copy(io.Discard, stderr)
	return p
}

// TestKill9DuringWrites kills the server binary with SIGKILL during a
// HandlerSocket insert load, restarts it on the same data directory and
// checks that every acknowledged insert is there, and that the database an
// SQL CREATE DATABASE acknowledged before the load is there too; in each
// durability mode, since os and none defer only the fsync.
func TestKill9DuringWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it 40 times")
	}
	bin := buildBinary(t)
	for _, tc := range []struct {
		mode   string
		rounds int
	}{{"sync", 10}, {"os", 15}, {"none", 15}} {
		t.Run(tc.mode, func(t *testing.T) { kill9Rounds(t, bin, tc.mode, tc.rounds) })
	}
}

func kill9Rounds(t *testing.T, bin, mode string, rounds int) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	acked := map[int]bool{}
	var mu sync.Mutex
	for round := 0; round < rounds; round++ {
		p := startBinary(t, bin, "--datadir="+dir, "--durability="+mode)
		wr := p.addrs["hs-write"]
		if round == 0 {
			createTable(t, p.addrs["mysql"])
		}
		// Check everything acknowledged so far survived, then have SQL
		// acknowledge a database of this round.
		checkAcked(t, p.addrs["hs-read"], acked, round)
		checkDatabases(t, p.addrs["mysql"], round)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func(g int) {
				defer wg.Done()
				c, err := net.Dial("tcp", wr)
				if err != nil {
					return
				}
				defer c.Close()
				r := bufio.NewReader(c)
				fmt.Fprintf(c, "P\t1\tk\tt\tPRIMARY\tid,v\n")
				if l, err := r.ReadString('\n'); err != nil || l != "0\t1\n" {
					return
				}
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					id := round*10_000_000 + g*1_000_000 + i
					// Two inserts per batch: both acknowledged together.
					fmt.Fprintf(c, "1\t+\t2\t%d\tv\n1\t+\t2\t%d\tw\n", id*2, id*2+1)
					l1, err1 := r.ReadString('\n')
					l2, err2 := r.ReadString('\n')
					if err1 != nil || err2 != nil {
						return // killed
					}
					if l1 != "0\t1\n" || l2 != "0\t1\n" {
						t.Errorf("insert answered %q %q", l1, l2)
						return
					}
					mu.Lock()
					acked[id*2], acked[id*2+1] = true, true
					mu.Unlock()
				}
			}(g)
		}
		time.Sleep(time.Duration(50+rng.Intn(250)) * time.Millisecond)
		p.cmd.Process.Kill()
		p.cmd.Wait()
		close(stop)
		wg.Wait()
	}
	p := startBinary(t, bin, "--datadir="+dir)
	checkAcked(t, p.addrs["hs-read"], acked, rounds)
	checkDatabases(t, p.addrs["mysql"], rounds)
	p.cmd.Process.Signal(os.Interrupt)
	p.cmd.Wait()
	if len(acked) == 0 {
		t.Fatal("no insert was acknowledged")
	}
	t.Logf("%d rounds, %d acknowledged inserts all present", rounds, len(acked))
}

// checkAcked reads every row over HandlerSocket and checks each
// acknowledged id is present.
func checkAcked(t *testing.T, rd string, acked map[int]bool, round int) {
	t.Helper()
	c, err := net.Dial("tcp", rd)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(c, "P\t1\tk\tt\tPRIMARY\tid\n1\t>=\t1\t0\t100000000\t0\n")
	r := bufio.NewReaderSize(c, 1<<20)
	if l, _ := r.ReadString('\n'); l != "0\t1\n" {
		t.Fatalf("round %d: open: %q", round, l)
	}
	l, err := r.ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	fields := strings.Split(strings.TrimSuffix(l, "\n"), "\t")
	present := make(map[string]bool, len(fields))
	for _, f := range fields[2:] {
		present[f] = true
	}
	for id := range acked {
		if !present[fmt.Sprint(id)] {
			t.Fatalf("round %d: acknowledged insert %d lost", round, id)
		}
	}
}
