package config

import (
	"flag"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/engine"
)

func TestFlags(t *testing.T) {
	c := Default()
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	c.RegisterFlags(fs)
	err := fs.Parse([]string{"--datadir=/tmp/d", "--port=0", "--handlersocket-port=-1", "--handlersocket-timeout=30",
		"--handlersocket-plain-secret-wr=w", "--durability=os"})
	if err != nil {
		t.Fatal(err)
	}
	if c.DataDir != "/tmp/d" || c.Port != 0 || c.HSPort != -1 || c.HSTimeout != 30*time.Second || c.HSSecretWr != "w" || c.Durability != engine.DurabilityOS {
		t.Fatalf("parsed %+v", c)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	if c.Addr(c.HSPort) != "" || c.Addr(c.Port) != "127.0.0.1:0" {
		t.Fatalf("addrs %q %q", c.Addr(c.HSPort), c.Addr(c.Port))
	}
	if err := fs.Parse([]string{"--handlersocket-timeout=1m30s"}); err != nil || c.HSTimeout != 90*time.Second {
		t.Fatalf("duration form: %v %v", err, c.HSTimeout)
	}
}

func TestValidate(t *testing.T) {
	for name, mut := range map[string]func(*Config){
		"datadir":  func(c *Config) { c.DataDir = "" },
		"bind":     func(c *Config) { c.BindAddress = "nowhere" },
		"port":     func(c *Config) { c.Port = 70000 },
		"maxconns": func(c *Config) { c.HSMaxConnections = 0 },
	} {
		c := Default()
		mut(&c)
		if c.Validate() == nil {
			t.Errorf("%s: invalid config accepted", name)
		}
	}
	c := Default()
	if err := c.Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
}
