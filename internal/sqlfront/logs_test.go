package sqlfront

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"sync"
	"testing"

	"github.com/sirupsen/logrus"
)

// lockedBuffer is a bytes.Buffer for concurrent writers.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) lines() []map[string]any {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(l.b.Bytes()), []byte("\n")) {
		var rec map[string]any
		if err := json.Unmarshal(line, &rec); err != nil {
			out = append(out, map[string]any{"unparsed": string(line)})
			continue
		}
		out = append(out, rec)
	}
	return out
}

// TestRouteLogs: go-mysql-server's start message (logrus) and the
// listener's refused-login warning (the wire layer's) arrive as JSON
// records of the slog logger given to RouteLogs.
func TestRouteLogs(t *testing.T) {
	var buf lockedBuffer
	RouteLogs(slog.New(slog.NewJSONHandler(&buf, nil)))
	defer RouteLogs(nil)
	logrus.SetLevel(logrus.InfoLevel) // TestMain quiets it
	defer logrus.SetLevel(logrus.ErrorLevel)
	ts := startTestServer(t, "", Config{RootPassword: "pw"})
	bad, err := openPool(ts.dsn("root", "nope", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	if bad.Ping() == nil {
		t.Fatal("wrong password accepted")
	}
	var gms, vt bool
	for _, rec := range buf.lines() {
		if u, ok := rec["unparsed"]; ok {
			t.Errorf("a log line that is not JSON: %v", u)
		}
		switch rec["from"] {
		case "go-mysql-server":
			gms = true
		case "sqlfront":
			if rec["level"] == "WARN" {
				vt = true
			}
		}
	}
	if !gms || !vt {
		t.Fatalf("go-mysql-server line %v, wire layer warning %v; log: %v", gms, vt, buf.lines())
	}
}

// TestQuietConnectionLogs: at the default level (info) the log holds no
// line per connection and none for a statement that failed, as
// MariaDB's error log; at debug level both are there, a statement's
// text as text.
func TestQuietConnectionLogs(t *testing.T) {
	for _, debug := range []bool{false, true} {
		var buf lockedBuffer
		opts := &slog.HandlerOptions{}
		if debug {
			opts.Level = slog.LevelDebug
		}
		RouteLogs(slog.New(slog.NewJSONHandler(&buf, opts)))
		logrus.SetLevel(logrus.DebugLevel)
		ts := startTestServer(t, "", Config{})
		db := ts.open("")
		if _, err := db.Exec("SELECT * FROM nope.x"); err == nil {
			t.Fatal("no error")
		}
		db.Close()
		ts.stop()
		conns, failed := 0, 0
		for _, rec := range buf.lines() {
			switch rec["msg"] {
			case "NewConnection", "ConnectionClosed":
				conns++
			case "error running query":
				failed++
			}
		}
		if debug != (conns > 0) || debug != (failed > 0) {
			t.Errorf("debug %v: %d connection lines, %d failed-statement lines", debug, conns, failed)
		}
	}
	RouteLogs(nil)
	logrus.SetLevel(logrus.ErrorLevel)
}
