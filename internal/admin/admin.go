// Package admin is HandlerDB's operations listener: Prometheus metrics on
// /metrics, liveness on /livez, readiness on /readyz, profiles under
// /debug/pprof/, and online backups on POST /backup?to=NAME.
//
// /metrics, /livez and /readyz are open (scrapers and health probes).
// /backup and everything under /debug/pprof/ require the bearer token of
// Options.Token (`Authorization: Bearer <token>`); without a configured
// token they answer 403. Backups are written only into Options.BackupDir.
// Every request other than GET and HEAD is refused when it comes from
// another site (its Origin is not the listener's own, or Sec-Fetch-Site
// says cross-site or same-site), and a POST is refused when its
// Content-Type is one a browser form may send without a CORS preflight.
//
// A Server is safe for concurrent use; backups run one at a time.
package admin

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"mime"
	"net"
	"net/http"
	"net/http/pprof"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/handlerdb/handlerdb/internal/config"
)

// Backuper takes a consistent copy of the store into a new directory.
type Backuper interface {
	Checkpoint(dir string) error
}

// Options are the admin listener's access settings.
type Options struct {
	// Token is the bearer token POST /backup and /debug/pprof/ require;
	// empty refuses those endpoints (403).
	Token string
	// BackupDir is the directory backups are written into, one new
	// subdirectory per backup; empty refuses backups (403). New creates it
	// (mode 0700) when missing; it may be a symbolic link to a directory.
	BackupDir string
	// Args is the command line /debug/pprof/cmdline shows, with the secret
	// flags' values masked (see config.MaskArgs); nil means os.Args.
	Args []string
}

// Server is the admin HTTP listener.
type Server struct {
	ln       net.Listener
	srv      *http.Server
	ready    atomic.Bool
	backup   Backuper
	hasToken bool
	tokenSum [sha256.Size]byte // SHA-256 of the token, compared in constant time
	dir      string            // absolute BackupDir, "" when backups are off
	args     []string
	backupMu sync.Mutex // held while a backup runs
	// Registry holds every metric served on /metrics.
	Registry *prometheus.Registry
}

// New opens the listener on addr (port 0 picks a free port) and creates
// opt.BackupDir when it is set and missing. Nothing is served until Start.
func New(addr string, b Backuper, opt Options) (*Server, error) {
	s := &Server{backup: b, args: opt.Args, Registry: prometheus.NewRegistry()}
	if opt.Token != "" {
		s.hasToken = true
		s.tokenSum = sha256.Sum256([]byte(opt.Token))
	}
	if opt.BackupDir != "" {
		dir, err := filepath.Abs(opt.BackupDir)
		if err != nil {
			return nil, fmt.Errorf("admin: --backup-dir: %w", err)
		}
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("admin: --backup-dir: %w", err)
		}
		s.dir = dir
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("admin: %w", err)
	}
	s.ln = ln
	prof := http.NewServeMux()
	prof.HandleFunc("/debug/pprof/", pprof.Index)
	prof.HandleFunc("/debug/pprof/cmdline", s.cmdline)
	prof.HandleFunc("/debug/pprof/profile", pprof.Profile)
	prof.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	prof.HandleFunc("/debug/pprof/trace", pprof.Trace)
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(s.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("/livez", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("/readyz", s.readyz)
	mux.Handle("/backup", s.requireToken(http.HandlerFunc(s.handleBackup)))
	mux.Handle("/debug/pprof/", s.requireToken(prof))
	s.srv = &http.Server{Handler: s.sameSite(mux), ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// Addr is the listener's address.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Start serves in the background.
func (s *Server) Start() {
	go func() {
		if err := s.srv.Serve(s.ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			_ = err // the listener died: /livez stops answering, which is the signal
		}
	}()
}

// SetReady switches /readyz between 200 and 503.
func (s *Server) SetReady(ready bool) { s.ready.Store(ready) }

func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) {
	if !s.ready.Load() {
		http.Error(w, "not ready", http.StatusServiceUnavailable)
		return
	}
	fmt.Fprintln(w, "ok")
}

// requireToken lets a request through to h only with the configured
// bearer token: 403 when no token is configured, 401 (with
// WWW-Authenticate: Bearer) when the request's is missing or wrong.
func (s *Server) requireToken(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hasToken {
			http.Error(w, "admin: "+r.URL.Path+" is off: no admin token is configured; start the server with "+
				"--admin-token-file FILE (or --admin-token / HANDLERDB_ADMIN_TOKEN) and send Authorization: Bearer <token>",
				http.StatusForbidden)
			return
		}
		token, ok := bearer(r)
		if !ok {
			w.Header().Set("WWW-Authenticate", `Bearer realm="handlerdb admin"`)
			http.Error(w, "admin: this endpoint needs Authorization: Bearer <admin token>", http.StatusUnauthorized)
			return
		}
		sum := sha256.Sum256([]byte(token))
		if subtle.ConstantTimeCompare(sum[:], s.tokenSum[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="handlerdb admin", error="invalid_token"`)
			http.Error(w, "admin: wrong admin token", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// bearer returns the credentials of an `Authorization: Bearer <token>`
// header (the scheme is case-insensitive).
func bearer(r *http.Request) (string, bool) {
	scheme, token, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	token = strings.TrimSpace(token)
	return token, token != ""
}

// sameSite refuses, before h sees them, the requests a page of another
// site could make a browser send: any method but GET and HEAD with a
// foreign Origin or a Sec-Fetch-Site of cross-site or same-site (403), and
// a POST whose Content-Type a form may carry without a CORS preflight
// (415). Clients that are not browsers send neither header.
func (s *Server) sameSite(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			h.ServeHTTP(w, r)
			return
		}
		if o := r.Header.Values("Origin"); len(o) > 0 && (len(o) > 1 || !s.ownOrigin(o[0])) {
			http.Error(w, "admin: cross-origin request refused (Origin "+strconv.Quote(strings.Join(o, ", "))+")", http.StatusForbidden)
			return
		}
		switch site := strings.ToLower(strings.TrimSpace(r.Header.Get("Sec-Fetch-Site"))); site {
		case "cross-site", "same-site":
			http.Error(w, "admin: request from another site refused (Sec-Fetch-Site: "+site+")", http.StatusForbidden)
			return
		}
		if r.Method == http.MethodPost && formContentType(r.Header.Values("Content-Type")) {
			http.Error(w, "admin: POST with a form's Content-Type refused; send no body, or application/octet-stream",
				http.StatusUnsupportedMediaType)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// formContentType reports whether a request with these Content-Type
// headers could be a browser's simple (unpreflighted) request: its media
// type is application/x-www-form-urlencoded, multipart/form-data or
// text/plain. A header that does not parse counts as one, and so does more
// than one header.
func formContentType(values []string) bool {
	switch len(values) {
	case 0:
		return false
	case 1:
	default:
		return true
	}
	if strings.TrimSpace(values[0]) == "" {
		return false
	}
	mt, _, err := mime.ParseMediaType(values[0])
	if err != nil {
		return true
	}
	switch mt {
	case "application/x-www-form-urlencoded", "multipart/form-data", "text/plain":
		return true
	}
	return false
}

// ownOrigin reports whether origin (an Origin header) is this listener:
// http, the listener's port, and as host the listener's IP address (for a
// wildcard listener: a loopback address or one of the machine's), or
// localhost for a loopback or wildcard listener. A host name other than
// localhost never matches, since DNS rebinding can point any name at us.
func (s *Server) ownOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Scheme != "http" || u.Opaque != "" || u.User != nil || u.Path != "" || u.RawQuery != "" || u.Fragment != "" {
		return false
	}
	la, ok := s.ln.Addr().(*net.TCPAddr)
	if !ok {
		return false
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	if port != strconv.Itoa(la.Port) {
		return false
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return la.IP.IsLoopback() || la.IP.IsUnspecified()
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return false
	}
	if !la.IP.IsUnspecified() {
		return ip.Equal(la.IP)
	}
	if ip.IsLoopback() {
		return true
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return false
	}
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && n.IP.Equal(ip) {
			return true
		}
	}
	return false
}

// cmdline serves /debug/pprof/cmdline as net/http/pprof does (arguments
// separated by NUL bytes), with the values of secret flags masked.
func (s *Server) cmdline(w http.ResponseWriter, _ *http.Request) {
	args := s.args
	if args == nil {
		args = os.Args
	}
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprint(w, strings.Join(config.MaskArgs(args), "\x00"))
}

// handleBackup writes a checkpoint of the store into a new directory
// named by the `to` parameter inside the backup directory, while traffic
// goes on.
func (s *Server) handleBackup(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "POST /backup?to=NAME", http.StatusMethodNotAllowed)
		return
	}
	if s.dir == "" {
		http.Error(w, "admin: backups are off: start the server with --backup-dir DIR; POST /backup?to=NAME then writes DIR/NAME",
			http.StatusForbidden)
		return
	}
	name := r.URL.Query().Get("to")
	if err := checkBackupName(name); err != nil {
		http.Error(w, "admin: to="+strconv.Quote(name)+": "+err.Error(), http.StatusBadRequest)
		return
	}
	if !s.backupMu.TryLock() {
		http.Error(w, "admin: another backup is running", http.StatusConflict)
		return
	}
	defer s.backupMu.Unlock()
	target, status, err := s.backupTarget(name)
	if err != nil {
		http.Error(w, "admin: to="+strconv.Quote(name)+": "+err.Error(), status)
		return
	}
	start := time.Now()
	if err := s.backup.Checkpoint(target); err != nil {
		http.Error(w, "backup failed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	fmt.Fprintf(w, "backup written to %s in %s\n", target, time.Since(start).Round(time.Millisecond))
}

// checkBackupName accepts a backup name: one path element of ASCII
// letters, digits, '.', '_' and '-', not starting with '.', at most 255
// bytes. So it can name nothing but a new entry of the backup directory.
func checkBackupName(name string) error {
	if name == "" {
		return errors.New("the backup's name is missing (to=NAME, a new directory inside --backup-dir)")
	}
	if len(name) > 255 {
		return errors.New("the name is longer than 255 bytes")
	}
	if strings.ContainsAny(name, `/\`) {
		return errors.New("the name must be a single name inside --backup-dir, not a path")
	}
	if name[0] == '.' {
		return errors.New("the name must not start with '.'")
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-') {
			return errors.New("the name may hold only ASCII letters, digits, '.', '_' and '-'")
		}
	}
	return nil
}

// backupTarget returns the directory a backup called name (checked by
// checkBackupName) goes to: name inside the backup directory (resolved,
// in case it is a symbolic link), which must not exist yet, not even as a
// dangling link. The status is for a refusal. Call with backupMu held, so
// no other backup creates the name in between.
func (s *Server) backupTarget(name string) (string, int, error) {
	base, err := filepath.EvalSymlinks(s.dir)
	if err != nil {
		return "", http.StatusInternalServerError, fmt.Errorf("backup directory: %w", err)
	}
	if fi, err := os.Stat(base); err != nil || !fi.IsDir() {
		return "", http.StatusInternalServerError, fmt.Errorf("backup directory %s is not a directory", s.dir)
	}
	target := filepath.Join(base, name)
	if filepath.Dir(target) != filepath.Clean(base) || filepath.Base(target) != name {
		return "", http.StatusBadRequest, errors.New("the name leaves the backup directory")
	}
	if _, err := os.Lstat(target); err == nil {
		return "", http.StatusBadRequest, fmt.Errorf("%s already exists; choose a new name", target)
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", http.StatusInternalServerError, err
	}
	return target, 0, nil
}

// Close stops the listener.
func (s *Server) Close(ctx context.Context) error {
	return s.srv.Shutdown(ctx)
}
