package admin

import (
	"context"
	"errors"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

// fakeBackup creates the directory it is given, as a Pebble checkpoint
// does, and remembers it. A directory named "fail" fails.
type fakeBackup struct {
	mu  sync.Mutex
	dir string
}

func (f *fakeBackup) Checkpoint(dir string) error {
	if filepath.Base(dir) == "fail" {
		return errors.New("disk full")
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	f.mu.Lock()
	f.dir = dir
	f.mu.Unlock()
	return nil
}

func (f *fakeBackup) last() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.dir
}

const testToken = "t0ken-for-tests"

// startAdmin serves a Server on a loopback port and returns its base URL.
func startAdmin(t *testing.T, b Backuper, opt Options) (*Server, string) {
	t.Helper()
	s, err := New("127.0.0.1:0", b, opt)
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(func() { s.Close(context.Background()) })
	return s, "http://" + s.Addr().String()
}

// call sends one request; token "" sends no Authorization header. hdr
// holds further headers as name, value pairs.
func call(t *testing.T, method, url, token string, hdr ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	for i := 0; i+1 < len(hdr); i += 2 {
		req.Header.Set(hdr[i], hdr[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(body)
}

func TestOpenRoutes(t *testing.T) {
	s, base := startAdmin(t, &fakeBackup{}, Options{})
	if got, _, _ := call(t, "GET", base+"/readyz", ""); got != 503 {
		t.Fatalf("readyz before SetReady: %d", got)
	}
	s.SetReady(true)
	for _, path := range []string{"/readyz", "/livez", "/metrics"} {
		if got, _, _ := call(t, "GET", base+path, ""); got != 200 {
			t.Fatalf("%s without a token: %d, want 200", path, got)
		}
	}
}

// TestNoTokenConfigured: without a configured token, /backup and every
// pprof endpoint answer 403 with a message naming the flag, whatever the
// request sends.
func TestNoTokenConfigured(t *testing.T) {
	b := &fakeBackup{}
	dir := t.TempDir()
	_, base := startAdmin(t, b, Options{BackupDir: dir})
	for _, tc := range []struct{ method, path, token string }{
		{"POST", "/backup?to=b1", ""},
		{"POST", "/backup?to=b1", "anything"},
		{"GET", "/debug/pprof/", ""},
		{"GET", "/debug/pprof/cmdline", ""},
		{"GET", "/debug/pprof/goroutine?debug=1", "anything"},
		{"GET", "/debug/pprof/symbol", ""},
	} {
		got, _, body := call(t, tc.method, base+tc.path, tc.token)
		if got != 403 || !strings.Contains(body, "--admin-token-file") {
			t.Errorf("%s %s: %d %q, want 403 naming --admin-token-file", tc.method, tc.path, got, body)
		}
	}
	if b.last() != "" {
		t.Fatalf("a backup was taken without a token: %s", b.last())
	}
}

// TestWrongToken: a missing, malformed or wrong token gets 401 with
// WWW-Authenticate: Bearer; the right one gets through.
func TestWrongToken(t *testing.T) {
	b := &fakeBackup{}
	dir := t.TempDir()
	_, base := startAdmin(t, b, Options{Token: testToken, BackupDir: dir})
	for _, auth := range []string{"", "Bearer", "Bearer wrong", "Bearer " + testToken + "x", "Basic " + testToken, testToken} {
		for _, path := range []string{"/debug/pprof/", "/debug/pprof/cmdline", "/backup?to=b1"} {
			method := "GET"
			if strings.HasPrefix(path, "/backup") {
				method = "POST"
			}
			var hdr []string
			if auth != "" {
				hdr = []string{"Authorization", auth}
			}
			got, h, _ := call(t, method, base+path, "", hdr...)
			if got != 401 || !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("%s with Authorization %q: %d, WWW-Authenticate %q; want 401, Bearer", path, auth, got, h.Get("WWW-Authenticate"))
			}
		}
	}
	if b.last() != "" {
		t.Fatalf("a backup was taken with a wrong token: %s", b.last())
	}
	if got, _, _ := call(t, "GET", base+"/debug/pprof/", testToken); got != 200 {
		t.Fatalf("pprof with the token: %d", got)
	}
	if got, _, _ := call(t, "GET", base+"/debug/pprof/", "", "Authorization", "bearer "+testToken); got != 200 {
		t.Fatalf("pprof with a lower-case scheme: %d", got)
	}
}

// TestBackupIntoDir: with the token, a backup goes into the backup
// directory under the given name; names that are paths, hidden, or exist
// already are refused with 400 and nothing is written.
func TestBackupIntoDir(t *testing.T) {
	b := &fakeBackup{}
	dir := t.TempDir()
	_, base := startAdmin(t, b, Options{Token: testToken, BackupDir: dir})
	got, _, body := call(t, "POST", base+"/backup?to=nightly-1", testToken)
	want := filepath.Join(dir, "nightly-1")
	if got != 200 || b.last() != want {
		t.Fatalf("backup: %d %q, into %q; want 200 into %q", got, body, b.last(), want)
	}
	if fi, err := os.Stat(want); err != nil || !fi.IsDir() {
		t.Fatalf("backup directory: %v", err)
	}
	outside := filepath.Join(filepath.Dir(dir), "outside")
	os.Symlink(filepath.Join(t.TempDir(), "nowhere"), filepath.Join(dir, "dangling"))
	for _, name := range []string{
		"", "..", ".", "../x", "../" + filepath.Base(dir) + "x", "/abs", outside, "a/b", `a\b`, ".hidden",
		"nightly-1", // exists
		"dangling",  // a symbolic link to nowhere
		"sp ace", "nul\x00", "semi;colon",
	} {
		got, _, body := call(t, "POST", base+"/backup?to="+url.QueryEscape(name), testToken)
		if got != 400 {
			t.Errorf("to=%q: %d %q, want 400", name, got, body)
		}
	}
	if b.last() != want {
		t.Fatalf("a refused name reached the backup: %s", b.last())
	}
	if _, err := os.Lstat(outside); err == nil {
		t.Fatalf("%s was written", outside)
	}
	if got, _, _ := call(t, "POST", base+"/backup?to=fail", testToken); got != 500 {
		t.Fatalf("failing backup: %d", got)
	}
	if got, _, _ := call(t, "GET", base+"/backup?to=b2", testToken); got != 405 {
		t.Fatalf("GET backup: %d", got)
	}
}

// TestBackupDirSymlinkAndOff: the backup directory may be a symbolic link
// (the backup lands in its target); without one, backups are refused with
// 403 naming --backup-dir; a missing one is created.
func TestBackupDirSymlinkAndOff(t *testing.T) {
	real := t.TempDir()
	link := filepath.Join(t.TempDir(), "backups")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	b := &fakeBackup{}
	_, base := startAdmin(t, b, Options{Token: testToken, BackupDir: link})
	if got, _, body := call(t, "POST", base+"/backup?to=b1", testToken); got != 200 {
		t.Fatalf("backup through a linked directory: %d %q", got, body)
	}
	if _, err := os.Stat(filepath.Join(real, "b1")); err != nil {
		t.Fatal(err)
	}

	_, base = startAdmin(t, b, Options{Token: testToken})
	if got, _, body := call(t, "POST", base+"/backup?to=b2", testToken); got != 403 || !strings.Contains(body, "--backup-dir") {
		t.Fatalf("backup without --backup-dir: %d %q; want 403 naming --backup-dir", got, body)
	}

	missing := filepath.Join(t.TempDir(), "new", "backups")
	_, base = startAdmin(t, b, Options{Token: testToken, BackupDir: missing})
	if got, _, body := call(t, "POST", base+"/backup?to=b3", testToken); got != 200 {
		t.Fatalf("backup into a created directory: %d %q", got, body)
	}
	if fi, err := os.Stat(missing); err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("created backup directory: %v %v", fi, err)
	}
}

// TestCrossSite: a non-GET request from another origin or site is refused
// with 403 even with the right token; the listener's own origin, and GETs,
// pass.
func TestCrossSite(t *testing.T) {
	b := &fakeBackup{}
	s, base := startAdmin(t, b, Options{Token: testToken, BackupDir: t.TempDir()})
	port := s.Addr().String()[strings.LastIndex(s.Addr().String(), ":"):]
	for i, hdr := range [][]string{
		{"Origin", "http://evil.example"},
		{"Origin", "http://evil.example" + port},
		{"Origin", "null"},
		{"Origin", "https://127.0.0.1" + port},
		{"Origin", "http://127.0.0.2" + port},
		{"Origin", "http://127.0.0.1:1"},
		{"Sec-Fetch-Site", "cross-site"},
		{"Sec-Fetch-Site", "same-site"},
		{"Origin", base, "Sec-Fetch-Site", "cross-site"},
	} {
		got, _, body := call(t, "POST", base+"/backup?to=x"+string(rune('a'+i)), testToken, hdr...)
		if got != 403 {
			t.Errorf("POST with %q: %d %q, want 403", hdr, got, body)
		}
	}
	if b.last() != "" {
		t.Fatalf("a cross-site request took a backup: %s", b.last())
	}
	for i, hdr := range [][]string{
		{"Origin", base},
		{"Origin", "http://localhost" + port},
		{"Origin", base, "Sec-Fetch-Site", "same-origin"},
		{"Sec-Fetch-Site", "none"},
	} {
		if got, _, body := call(t, "POST", base+"/backup?to=ok"+string(rune('a'+i)), testToken, hdr...); got != 200 {
			t.Errorf("POST with %q: %d %q, want 200", hdr, got, body)
		}
	}
	if got, _, _ := call(t, "GET", base+"/metrics", "", "Origin", "http://evil.example", "Sec-Fetch-Site", "cross-site"); got != 200 {
		t.Fatalf("cross-site GET /metrics: %d", got)
	}
}

// TestFormContentType: a POST whose Content-Type a browser form can send
// without a preflight is refused with 415; none, or a binary type, passes.
func TestFormContentType(t *testing.T) {
	b := &fakeBackup{}
	_, base := startAdmin(t, b, Options{Token: testToken, BackupDir: t.TempDir()})
	for i, ct := range []string{
		"application/x-www-form-urlencoded",
		"multipart/form-data; boundary=xyz",
		"text/plain",
		"TEXT/Plain; charset=utf-8",
		"text/plain garbage",
	} {
		got, _, body := call(t, "POST", base+"/backup?to=f"+string(rune('a'+i)), testToken, "Content-Type", ct)
		if got != 415 {
			t.Errorf("POST with Content-Type %q: %d %q, want 415", ct, got, body)
		}
	}
	if b.last() != "" {
		t.Fatalf("a form POST took a backup: %s", b.last())
	}
	if got, _, body := call(t, "POST", base+"/backup?to=bin", testToken, "Content-Type", "application/octet-stream"); got != 200 {
		t.Fatalf("POST with application/octet-stream: %d %q", got, body)
	}
}

// TestCmdlineMasked: /debug/pprof/cmdline shows the command line with
// every secret flag's value masked, in all four flag forms.
func TestCmdlineMasked(t *testing.T) {
	args := []string{
		"/usr/bin/handlerdb",
		"--handlersocket-plain-secret=rdS3cret",
		"-handlersocket-plain-secret-wr", "wrS3cret",
		"--root-password", "r00tpw",
		"-root-password=r00tpw2",
		"--admin-token=tokS3cret",
		"--datadir", "/var/lib/handlerdb",
		"--port=3306",
	}
	_, base := startAdmin(t, &fakeBackup{}, Options{Token: testToken, Args: args})
	got, _, body := call(t, "GET", base+"/debug/pprof/cmdline", testToken)
	if got != 200 {
		t.Fatalf("cmdline: %d %q", got, body)
	}
	for _, secret := range []string{"S3cret", "r00tpw"} {
		if strings.Contains(body, secret) {
			t.Fatalf("cmdline shows a secret: %q", body)
		}
	}
	want := strings.Join([]string{
		"/usr/bin/handlerdb",
		"--handlersocket-plain-secret=********",
		"-handlersocket-plain-secret-wr", "********",
		"--root-password", "********",
		"-root-password=********",
		"--admin-token=********",
		"--datadir", "/var/lib/handlerdb",
		"--port=3306",
	}, "\x00")
	if body != want {
		t.Fatalf("cmdline %q, want %q", body, want)
	}

	// The default is the process's own command line, masked too.
	old := os.Args
	os.Args = []string{"handlerdb", "--root-password", "fromOsArgs"}
	defer func() { os.Args = old }()
	_, base = startAdmin(t, &fakeBackup{}, Options{Token: testToken})
	if _, _, body := call(t, "GET", base+"/debug/pprof/cmdline", testToken); body != "handlerdb\x00--root-password\x00********" {
		t.Fatalf("cmdline of os.Args: %q", body)
	}
}

// TestBatchHistogram: n observations at once land in the bucket whose
// bound is the first at or above the value, the count is the +Inf
// bucket's and the sum is n times the value.
func TestBatchHistogram(t *testing.T) {
	var h batchHistogram
	h.observe(3*time.Microsecond, 5)  // le 4e-6
	h.observe(4*time.Microsecond, 1)  // le 4e-6 (a bound is inclusive)
	h.observe(20*time.Microsecond, 2) // le 6.4e-5
	h.observe(time.Hour, 1)           // +Inf only
	var m dto.Metric
	if err := h.metric(prometheus.NewDesc("x", "x", nil, nil)).Write(&m); err != nil {
		t.Fatal(err)
	}
	hg := m.GetHistogram()
	if hg.GetSampleCount() != 9 {
		t.Errorf("count %d, want 9", hg.GetSampleCount())
	}
	if want := (15e-6 + 4e-6 + 40e-6 + 3600); math.Abs(hg.GetSampleSum()-want) > 1e-9 {
		t.Errorf("sum %v, want %v", hg.GetSampleSum(), want)
	}
	want := map[float64]uint64{1e-6: 0, 4e-6: 6, 1.6e-5: 6, 6.4e-5: 8, 2.56e-4: 8}
	for _, b := range hg.GetBucket() {
		if w, ok := want[b.GetUpperBound()]; ok && b.GetCumulativeCount() != w {
			t.Errorf("bucket le %g: %d, want %d", b.GetUpperBound(), b.GetCumulativeCount(), w)
		}
	}
	if last := hg.GetBucket()[len(hg.GetBucket())-1]; last.GetCumulativeCount() != 8 {
		t.Errorf("last finite bucket %d, want 8 (the hour is above every bound)", last.GetCumulativeCount())
	}
}
