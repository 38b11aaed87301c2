package server

import (
	"flag"
	"io"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
)

// The flags' 0 ("never", "no limit") becomes the fronts' negative "none";
// other values pass through.
func TestFrontOptions(t *testing.T) {
	c := config.Default()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.RegisterFlags(fs)
	if err := fs.Parse([]string{"--handlersocket-timeout=0", "--handlersocket-max-response=0", "--handlersocket-line-timeout=7"}); err != nil {
		t.Fatal(err)
	}
	h := hsConfig(&c)
	if h.Timeout != -1 || h.MaxResponse != -1 || h.LineTimeout != 7*time.Second || h.MaxConns != 10000 || h.MaxConnsPerPeer != 5000 {
		t.Errorf("hsfront config %+v", h)
	}
	if s := sqlConfig(&c); s.MaxConnections != 151 || s.ConnectTimeout != 10*time.Second || s.NoPointFastPath || s.NoPlanCache {
		t.Errorf("sqlfront config %+v", s)
	}
	if err := fs.Parse([]string{"--sql-plan-cache=false"}); err != nil {
		t.Fatal(err)
	}
	if s := sqlConfig(&c); !s.NoPlanCache {
		t.Errorf("--sql-plan-cache=false: sqlfront config %+v", s)
	}
}
