package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/admin"
)

// dirBackup creates the directory it is given, as a checkpoint does.
type dirBackup struct{}

func (dirBackup) Checkpoint(dir string) error { return os.Mkdir(dir, 0o700) }

// TestBackupCommand runs `handlerdb backup` against a real admin
// listener: it sends the token (from a file, a flag or the environment)
// and the name, and reports the server's refusals.
func TestBackupCommand(t *testing.T) {
	backups := t.TempDir()
	s, err := admin.New("127.0.0.1:0", dirBackup{}, admin.Options{Token: "cmd-t0ken", BackupDir: backups})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	defer s.Close(context.Background())
	addr := s.Addr().String()
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("  cmd-t0ken\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	noEnv := func(string) string { return "" }

	var out strings.Builder
	if err := backup([]string{"--admin-address", addr, "--admin-token-file", tokenFile, "--to", "b1"}, noEnv, &out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(backups, "b1")); err != nil || !strings.Contains(out.String(), "b1") {
		t.Fatalf("backup b1: %v, printed %q", err, out.String())
	}
	env := map[string]string{"HANDLERDB_ADMIN_ADDRESS": addr, "HANDLERDB_ADMIN_TOKEN": "cmd-t0ken"}
	if err := backup([]string{"--to=b2"}, func(k string) string { return env[k] }, &out); err != nil {
		t.Fatalf("token and address from the environment: %v", err)
	}
	if err := backup([]string{"--admin-address=" + addr, "--admin-token=cmd-t0ken", "--to=b3"}, noEnv, &out); err != nil {
		t.Fatalf("token from the flag: %v", err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--admin-address", addr, "--to", "b4"}, "no admin token"},
		{[]string{"--admin-address", addr, "--admin-token=wrong", "--to", "b4"}, "401"},
		{[]string{"--admin-address", addr, "--admin-token=x", "--admin-token-file", tokenFile, "--to", "b4"}, "only one"},
		{[]string{"--admin-address", addr, "--admin-token-file", tokenFile, "--to", "../b4"}, "400"},
		{[]string{"--admin-address", addr, "--admin-token-file", tokenFile, "--to", "b1"}, "already exists"},
		{[]string{"--admin-address", addr, "--admin-token-file", tokenFile}, "--to NAME is required"},
	} {
		err := backup(tc.args, noEnv, &out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("backup %q: %v, want an error with %q", tc.args, err, tc.want)
		}
	}
}
