// Package admin is HandlerDB's operations listener: Prometheus metrics on
// /metrics, liveness on /livez, readiness on /readyz, profiles under
// /debug/pprof/, and online backups on POST /backup?to=DIR.
//
// A Server is safe for concurrent use.
package admin

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Backuper takes a consistent copy of the store into a new directory.
type Backuper interface {
	Checkpoint(dir string) error
}

// Server is the admin HTTP listener.
type Server struct {
	ln     net.Listener
	srv    *http.Server
	ready  atomic.Bool
	backup Backuper
	// Registry holds every metric served on /metrics.
	Registry *prometheus.Registry
}

// New opens the listener on addr (port 0 picks a free port). Nothing is
// served until Start.
func New(addr string, b Backuper) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("admin: %w", err)
	}
	s := &Server{ln: ln, backup: b, Registry: prometheus.NewRegistry()}
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(s.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("/livez", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("/readyz", s.readyz)
	mux.HandleFunc("/backup", s.handleBackup)
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
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

// handleBackup writes a checkpoint of the store into the directory named
// by the `to` parameter (absolute, must not exist) while traffic goes on.
func (s *Server) handleBackup(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST /backup?to=DIR", http.StatusMethodNotAllowed)
		return
	}
	dir := r.URL.Query().Get("to")
	if dir == "" || !filepath.IsAbs(dir) {
		http.Error(w, "to= must be an absolute directory path", http.StatusBadRequest)
		return
	}
	start := time.Now()
	if err := s.backup.Checkpoint(dir); err != nil {
		http.Error(w, "backup failed: "+err.Error(), http.StatusInternalServerError)
		return
	}
	fmt.Fprintf(w, "backup written to %s in %s\n", dir, time.Since(start).Round(time.Millisecond))
}

// Close stops the listener.
func (s *Server) Close(ctx context.Context) error {
	return s.srv.Shutdown(ctx)
}
