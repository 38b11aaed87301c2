package sqlfront

import (
	"strings"
	"testing"
	"time"
)

// TestShowProcessList: a connection that logged in without a database is
// listed with its account and host:port (go-mysql-server listed it as
// "unauthenticated user" until a database was selected); a statement is
// in State as a word, not a progress tree; a statement holding a byte
// that is not UTF-8 no longer fails the list.
func TestShowProcessList(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	busy := ts.conn("")
	done := make(chan error, 1)
	go func() {
		_, err := busy.ExecContext(t.Context(), "SELECT SLEEP(1.5) /* a\x82b */")
		done <- err
	}()
	watcher := ts.conn("")
	var rows []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		rows = queryRows(t, watcher, "SELECT ID, USER, HOST, COMMAND, STATE, INFO FROM information_schema.PROCESSLIST ORDER BY ID")
		if strings.Contains(strings.Join(rows, "\n"), "SLEEP(1.5)") {
			break
		}
	}
	found := false
	for _, r := range rows {
		f := strings.Split(r, "|")
		if f[1] != "root" || !strings.HasPrefix(f[2], "127.0.0.1:") {
			t.Errorf("process %s: user %q host %q, want root at 127.0.0.1:port", f[0], f[1], f[2])
		}
		if strings.ContainsAny(f[4], "\n\x00") {
			t.Errorf("process %s: state %q", f[0], f[4])
		}
		if strings.Contains(f[5], "SLEEP(1.5)") {
			found = true
		}
	}
	if !found {
		t.Errorf("the sleeping statement is not listed:\n%s", strings.Join(rows, "\n"))
	}
	if show := queryRows(t, watcher, "SHOW PROCESSLIST"); len(show) < 2 {
		t.Errorf("SHOW PROCESSLIST: %v", show)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
