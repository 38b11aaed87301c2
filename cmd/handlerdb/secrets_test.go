package main

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestSecretsOutOfPS: the HS secrets and the root password given as files
// work as the flags do and appear nowhere in the process's command line
// (what ps shows every local user), unlike the secret flags themselves.
func TestSecretsOutOfPS(t *testing.T) {
	bin := buildBinary(t)
	dir := t.TempDir()
	write := func(name, v string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const rd, wr = "read-s3cret-9431", "write-s3cret-2207"
	p := startBinary(t, bin, "--log-level=error", "--datadir", filepath.Join(dir, "data"),
		"--handlersocket-plain-secret-file", write("rd", rd+"\n"),
		"--handlersocket-plain-secret-wr-file", write("wr", wr+"\n"),
		"--root-password-file", write("root", "r00t-pw-5521\n"))
	defer func() { p.cmd.Process.Kill(); p.cmd.Wait() }()
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(p.cmd.Process.Pid) + "/cmdline")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	for _, s := range []string{rd, wr, "r00t-pw-5521"} {
		if strings.Contains(string(cmdline), s) {
			t.Fatalf("secret %q is in the command line %q", s, cmdline)
		}
	}
	for _, c := range []struct{ port, secret string }{{"hs-read", rd}, {"hs-write", wr}} {
		for _, try := range []struct {
			key string
			ok  bool
		}{{"wrong", false}, {c.secret, true}} {
			conn, err := net.Dial("tcp", p.addrs[c.port])
			if err != nil {
				t.Fatal(err)
			}
			conn.SetDeadline(time.Now().Add(10 * time.Second))
			conn.Write([]byte("A\t1\t" + try.key + "\n"))
			got, err := bufio.NewReader(conn).ReadString('\n')
			conn.Close()
			if err != nil || (got == "0\t1\n") != try.ok {
				t.Fatalf("%s: A with %q: %q %v (want accepted: %v)", c.port, try.key, got, err, try.ok)
			}
		}
	}
}
