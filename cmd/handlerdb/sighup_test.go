package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestSIGHUPReloadsLogLevel: the binary re-reads its config file on
// SIGHUP and applies the new log level; SIGTERM then shuts it down.
func TestSIGHUPReloadsLogLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	conf := filepath.Join(dir, "handlerdb.toml")
	os.WriteFile(conf, []byte("log-level = \"info\"\n"), 0o644)
	cmd := exec.Command(bin, "--config", conf, "--datadir", filepath.Join(dir, "data"),
		"--port=-1", "--handlersocket-port=0", "--handlersocket-port-wr=0", "--memcached-port=-1", "--admin-address=")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := make(chan map[string]any, 64)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			var rec map[string]any
			if json.Unmarshal(sc.Bytes(), &rec) == nil {
				lines <- rec
			}
		}
		close(lines)
	}()
	wait := func(msg string) map[string]any {
		t.Helper()
		timeout := time.After(20 * time.Second)
		for {
			select {
			case rec, ok := <-lines:
				if !ok {
					t.Fatalf("log ended before %q", msg)
				}
				if rec["msg"] == msg {
					return rec
				}
			case <-timeout:
				t.Fatalf("no %q line", msg)
			}
		}
	}
	wait("ready")
	os.WriteFile(conf, []byte("log-level = \"debug\"\n"), 0o644)
	cmd.Process.Signal(syscall.SIGHUP)
	if rec := wait("reloaded"); rec["log_level"] != "DEBUG" {
		t.Fatalf("reloaded %v", rec)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	wait("shutting down")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
}

// TestStartLinesAtErrorLevel: the listening and ready lines, which scripts
// wait for, are logged (as NOTICE) whatever --log-level says.
func TestStartLinesAtErrorLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	p := startBinary(t, bin, "--log-level=error", "--datadir", filepath.Join(t.TempDir(), "data"))
	defer func() {
		p.cmd.Process.Kill()
		p.cmd.Wait()
	}()
	for _, proto := range []string{"admin", "hs-read", "hs-write", "mysql"} {
		if p.addrs[proto] == "" {
			t.Errorf("no listening line for %s at --log-level=error (got %v)", proto, p.addrs)
		}
	}
}
