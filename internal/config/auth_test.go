package config

import (
	"flag"
	"testing"
	"time"
)

// TestAuthFlags: the HandlerSocket account and back-off flags parse, and
// their defaults are SQL accounts off, a back-off after 5 failures of 1 s.
func TestAuthFlags(t *testing.T) {
	c := Default()
	if c.HSSQLUsers || c.MaxAuthFailures != 5 || c.AuthBackoff != time.Second {
		t.Fatalf("defaults: sql users %v, max failures %d, back-off %v", c.HSSQLUsers, c.MaxAuthFailures, c.AuthBackoff)
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	c.RegisterFlags(fs)
	if err := fs.Parse([]string{"--handlersocket-sql-users", "--max-auth-failures=3", "--auth-backoff=250ms"}); err != nil {
		t.Fatal(err)
	}
	if !c.HSSQLUsers || c.MaxAuthFailures != 3 || c.AuthBackoff != 250*time.Millisecond {
		t.Fatalf("parsed: sql users %v, max failures %d, back-off %v", c.HSSQLUsers, c.MaxAuthFailures, c.AuthBackoff)
	}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
}

// TestValidateAuth: a negative failure count, a back-off that is not
// positive, and --handlersocket-require-auth where no A could succeed are
// refused.
func TestValidateAuth(t *testing.T) {
	for name, c := range map[string]struct {
		mut func(*Config)
		ok  bool
	}{
		"negative failures":            {func(c *Config) { c.MaxAuthFailures = -1 }, false},
		"zero back-off":                {func(c *Config) { c.AuthBackoff = 0 }, false},
		"back-off off":                 {func(c *Config) { c.MaxAuthFailures, c.AuthBackoff = 0, 0 }, true},
		"require-auth alone":           {func(c *Config) { c.HSRequireAuth = true }, false},
		"require-auth, one secret":     {func(c *Config) { c.HSRequireAuth, c.HSSecret = true, "s" }, false},
		"require-auth, both secrets":   {func(c *Config) { c.HSRequireAuth, c.HSSecret, c.HSSecretWr = true, "s", "w" }, true},
		"require-auth, write port off": {func(c *Config) { c.HSRequireAuth, c.HSSecret, c.HSPortWr = true, "s", -1 }, true},
		"require-auth, sql users":      {func(c *Config) { c.HSRequireAuth, c.HSSQLUsers = true, true }, true},
	} {
		cfg := Default()
		c.mut(&cfg)
		if err := cfg.Validate(); (err == nil) != c.ok {
			t.Errorf("%s: Validate() = %v, want ok %v", name, err, c.ok)
		}
	}
}
