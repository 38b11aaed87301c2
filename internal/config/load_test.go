package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadPrecedence(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "handlerdb.toml")
	os.WriteFile(file, []byte("datadir = \"/from/file\"\nport = 1111\nhandlersocket-port = 2222\n[mysqld]\nhandlersocket_timeout = 7\n"), 0o644)
	env := []string{"HANDLERDB_PORT=3333", "HANDLERDB_HANDLERSOCKET_PLAIN_SECRET=envsecret", "PATH=/bin"}
	c, _, _, err := Load([]string{"--config", file, "--handlersocket-port=4444"}, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	// flag > env > file > default
	if c.HSPort != 4444 || c.Port != 3333 || c.DataDir != "/from/file" || c.HSSecret != "envsecret" ||
		c.HSTimeout != 7*time.Second || c.HSPortWr != 9999 {
		t.Fatalf("%+v", c)
	}
}

func TestLoadMyCnfAliases(t *testing.T) {
	file := filepath.Join(t.TempDir(), "my.cnf")
	os.WriteFile(file, []byte(`[client]
port = 1
[mysqld]
plugin-load-add=handlersocket.so
loose_handlersocket_port = 9990
handlersocket_port_wr = 9991
handlersocket_address = 127.0.0.2
handlersocket_threads = 16
handlersocket_plain_secret = s3cret
`), 0o644)
	c, _, ignored, err := Load([]string{"--config=" + file}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.HSPort != 9990 || c.HSPortWr != 9991 || c.BindAddress != "127.0.0.2" || c.HSSecret != "s3cret" || c.Port != 3306 {
		t.Fatalf("%+v", c)
	}
	if strings.Join(ignored, ",") != "handlersocket-threads,plugin-load-add" {
		t.Fatalf("ignored %v", ignored)
	}
}

func TestLoadErrors(t *testing.T) {
	if _, _, _, err := Load(nil, []string{"HANDLERDB_NO_SUCH=1"}, nil); err == nil {
		t.Fatal("unknown env option accepted")
	}
	if _, _, _, err := Load([]string{"--port=x"}, nil, nil); err == nil {
		t.Fatal("bad flag accepted")
	}
	if _, _, _, err := Load([]string{"--config=/does/not/exist"}, nil, nil); err == nil {
		t.Fatal("missing file accepted")
	}
}

func TestPrintMasksSecrets(t *testing.T) {
	c := Default()
	c.HSSecret = "topsecret"
	var sb strings.Builder
	if err := c.Print(&sb); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sb.String(), "topsecret") || !strings.Contains(sb.String(), "handlersocket-port = 9998") {
		t.Fatalf("%s", sb.String())
	}
}

// TestLoadTOMLSectionOrder: an option in several places of a TOML file
// takes the [handlerdb] value over the [mysqld] one over the top level,
// every time (the file is read as maps, whose order Go randomises).
func TestLoadTOMLSectionOrder(t *testing.T) {
	file := filepath.Join(t.TempDir(), "handlerdb.toml")
	os.WriteFile(file, []byte("port = 1111\nhandlersocket-port = 2221\n[mysqld]\nport = 1112\nhandlersocket-port = 2222\nhandlersocket-port-wr = 3332\n[handlerdb]\nport = 1113\n"), 0o644)
	for range 50 {
		c, _, _, err := Load([]string{"--config", file}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.Port != 1113 || c.HSPort != 2222 || c.HSPortWr != 3332 {
			t.Fatalf("port %d, hs %d, hs-wr %d; want 1113, 2222, 3332", c.Port, c.HSPort, c.HSPortWr)
		}
	}
}

// TestSecretFiles: every secret can come from a file (less one trailing
// line end) or from its HANDLERDB_* variable instead of the command line;
// giving one both ways, or an empty file, is an error.
func TestSecretFiles(t *testing.T) {
	dir := t.TempDir()
	file := func(name, v string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	c, _, _, err := Load([]string{
		"--handlersocket-plain-secret-file", file("rd", "rd secret\n"),
		"--handlersocket-plain-secret-wr-file", file("wr", "wr:secret\r\n"),
		"--root-password-file", file("root", "rootpw"),
		"--replicate-from", "repl@10.0.0.9:3307",
		"--replicate-from-password-file", file("repl", "p@ss:w\n"),
	}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.HSSecret != "rd secret" || c.HSSecretWr != "wr:secret" || c.RootPassword != "rootpw" {
		t.Fatalf("secrets from files: %q %q %q", c.HSSecret, c.HSSecretWr, c.RootPassword)
	}
	src, err := ParseReplicateFrom(c.ReplicateFrom)
	if err != nil || src.User != "repl" || src.Password != "p@ss:w" || src.Host != "10.0.0.9" || src.Port != 3307 {
		t.Fatalf("replication source %+v %v", src, err)
	}
	env := []string{
		"HANDLERDB_HANDLERSOCKET_PLAIN_SECRET=from-env",
		"HANDLERDB_HANDLERSOCKET_PLAIN_SECRET_WR_FILE=" + file("wr2", "wr-from-file\n"),
		"HANDLERDB_ROOT_PASSWORD=env-root",
		"HANDLERDB_REPLICATE_FROM=u:envpw@h:1",
		"HANDLERDB_ADMIN_TOKEN=envtoken",
	}
	c, _, _, err = Load(nil, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.HSSecret != "from-env" || c.HSSecretWr != "wr-from-file" || c.RootPassword != "env-root" || c.ReplicateFrom != "u:envpw@h:1" || c.AdminToken != "envtoken" {
		t.Fatalf("secrets from the environment: %+v", c)
	}
	for _, bad := range [][]string{
		{"--handlersocket-plain-secret", "x", "--handlersocket-plain-secret-file", file("x", "y")},
		{"--root-password-file", file("empty", "\n")},
		{"--replicate-from", "u:pw@h:1", "--replicate-from-password-file", file("pw", "pw")},
		{"--replicate-from-password-file", file("pw2", "pw")},
		{"--handlersocket-plain-secret-file", filepath.Join(dir, "missing")},
	} {
		if _, _, _, err := Load(bad, nil, nil); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
