package config

import (
	"flag"
	"io"
	"testing"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// The flags' 0 ("never", "no limit") becomes the packages' negative
// "none"; other values pass through; durability is typed.
func TestFrontOptions(t *testing.T) {
	c := Default()
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	c.RegisterFlags(fs)
	if err := fs.Parse([]string{"--durability=maybe"}); err == nil {
		t.Fatal("--durability=maybe accepted")
	}
	if err := fs.Parse([]string{"--durability=none", "--handlersocket-timeout=0", "--row-cache-size=0",
		"--handlersocket-max-response=0", "--handlersocket-line-timeout=7"}); err != nil {
		t.Fatal(err)
	}
	eo := c.EngineOptions()
	if eo.Durability != engine.DurabilityNone || eo.RowCacheSize != -1 || eo.Dir != c.DataDir {
		t.Errorf("engine options %+v", eo)
	}
}
