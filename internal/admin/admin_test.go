package admin

import (
	"context"
	"errors"
	"net/http"
	"testing"
)

type fakeBackup struct{ dir string }

func (f *fakeBackup) Checkpoint(dir string) error {
	if dir == "/fail" {
		return errors.New("disk full")
	}
	f.dir = dir
	return nil
}

func TestReadinessAndBackupRoutes(t *testing.T) {
	b := &fakeBackup{}
	s, err := New("127.0.0.1:0", b)
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	defer s.Close(context.Background())
	base := "http://" + s.Addr().String()
	get := func(path string) int {
		r, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	if got := get("/readyz"); got != 503 {
		t.Fatalf("readyz before SetReady: %d", got)
	}
	s.SetReady(true)
	if got := get("/readyz"); got != 200 {
		t.Fatalf("readyz when ready: %d", got)
	}
	if got := get("/livez"); got != 200 {
		t.Fatalf("livez: %d", got)
	}
	if got := get("/debug/pprof/"); got != 200 {
		t.Fatalf("pprof: %d", got)
	}
	post := func(q string) int {
		r, err := http.Post(base+"/backup"+q, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		r.Body.Close()
		return r.StatusCode
	}
	if got := post("?to=relative"); got != 400 {
		t.Fatalf("relative backup dir: %d", got)
	}
	if got := post("?to=/fail"); got != 500 {
		t.Fatalf("failing backup: %d", got)
	}
	if got := post("?to=/tmp/x"); got != 200 || b.dir != "/tmp/x" {
		t.Fatalf("backup: %d %q", got, b.dir)
	}
	if got := get("/backup?to=/tmp/y"); got != 405 {
		t.Fatalf("GET backup: %d", got)
	}
}
