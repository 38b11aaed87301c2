package config

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// EnvPrefix starts the environment variables that set options:
// HANDLERDB_HANDLERSOCKET_PORT=9998 sets --handlersocket-port.
const EnvPrefix = "HANDLERDB_"

// aliases maps the HandlerSocket plugin's and mysqld's option names (as
// they appear in a my.cnf [mysqld] section, after '_' -> '-') to ours. An
// empty target means the option is accepted and ignored (it has no
// meaning here); Load reports those.
var aliases = map[string]string{
	"handlersocket-address":         "bind-address",
	"handlersocket-port":            "handlersocket-port",
	"handlersocket-port-wr":         "handlersocket-port-wr",
	"handlersocket-plain-secret":    "handlersocket-plain-secret",
	"handlersocket-plain-secret-wr": "handlersocket-plain-secret-wr",
	"handlersocket-timeout":         "handlersocket-timeout",
	"handlersocket-threads":         "",
	"handlersocket-threads-wr":      "",
	"handlersocket-epoll":           "",
	"handlersocket-readsize":        "",
	"handlersocket-backlog":         "",
	"handlersocket-sndbuf":          "",
	"handlersocket-rcvbuf":          "",
	"handlersocket-accept-balance":  "",
	"handlersocket-wrlock-timeout":  "",
	"handlersocket-verbose":         "",
	"plugin-load":                   "",
	"plugin-load-add":               "",
	"plugin-maturity":               "",
	"innodb-buffer-pool-size":       "cache-size",
	"ssl-cert":                      "tls-cert",
	"ssl-key":                       "tls-key",
	"require-secure-transport":      "tls-required",
}

// Load builds the configuration from, in increasing precedence: the
// defaults, the file named by --config (TOML, or a my.cnf whose [mysqld]
// or [handlerdb] section is read), HANDLERDB_* environment variables, and
// the command-line flags. It returns the config, the flag set (for usage)
// and the names of options it accepted but ignores.
func Load(args []string, environ []string, extra func(*flag.FlagSet)) (Config, *flag.FlagSet, []string, error) {
	c := Default()
	fs := flag.NewFlagSet("handlerdb", flag.ContinueOnError)
	c.RegisterFlags(fs)
	fs.String("config", "", "configuration file: TOML, or a my.cnf whose [mysqld]/[handlerdb] section is read")
	if extra != nil {
		extra(fs)
	}
	// --config must be known before the flags that override the file.
	path := ""
	for i, a := range args {
		a = strings.TrimLeft(a, "-")
		if v, ok := strings.CutPrefix(a, "config="); ok {
			path = v
		} else if a == "config" && i+1 < len(args) {
			path = args[i+1]
		}
	}
	var ignored []string
	set := func(src, key, val string) error {
		name := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(key)), "_", "-")
		name = strings.TrimPrefix(name, "loose-")
		if target, ok := aliases[name]; ok {
			if target == "" {
				ignored = append(ignored, name)
				return nil
			}
			name = target
		}
		if name == "config" {
			return nil
		}
		if fs.Lookup(name) == nil {
			return fmt.Errorf("config: %s: unknown option %q", src, key)
		}
		if err := fs.Set(name, val); err != nil {
			return fmt.Errorf("config: %s: %s: %w", src, key, err)
		}
		return nil
	}
	if path != "" {
		kv, err := readFile(path)
		if err != nil {
			return c, fs, nil, err
		}
		for _, k := range sortedKeys(kv) {
			if err := set(path, k, kv[k]); err != nil {
				return c, fs, nil, err
			}
		}
	}
	for _, e := range environ {
		k, v, ok := strings.Cut(e, "=")
		if !ok || !strings.HasPrefix(k, EnvPrefix) {
			continue
		}
		if err := set("environment "+k, strings.TrimPrefix(k, EnvPrefix), v); err != nil {
			return c, fs, nil, err
		}
	}
	if err := fs.Parse(args); err != nil {
		return c, fs, nil, err
	}
	if fs.NArg() > 0 {
		return c, fs, nil, fmt.Errorf("config: unexpected argument %q", fs.Arg(0))
	}
	return c, fs, ignored, c.Validate()
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// readFile reads option names and values from a TOML file (top level, or
// its [mysqld] / [handlerdb] tables) or, when it is not TOML, from a my.cnf.
func readFile(path string) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err == nil {
		// An option set in more than one place: [handlerdb] wins over
		// [mysqld], which wins over the top level.
		kv := map[string]string{}
		for k, v := range doc {
			if _, ok := v.(map[string]any); !ok {
				kv[k] = fmt.Sprint(v)
			}
		}
		for _, section := range []string{"mysqld", "handlerdb"} {
			if sub, ok := doc[section].(map[string]any); ok {
				for sk, sv := range sub {
					kv[sk] = fmt.Sprint(sv)
				}
			}
		}
		return kv, nil
	}
	return readMyCnf(bytes.NewReader(data))
}

// readMyCnf reads the [mysqld] and [handlerdb] sections of a my.cnf.
func readMyCnf(r io.Reader) (map[string]string, error) {
	kv := map[string]string{}
	section := ""
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' || line[0] == ';' || line[0] == '!' {
			continue
		}
		if line[0] == '[' && strings.HasSuffix(line, "]") {
			section = strings.TrimSpace(line[1 : len(line)-1])
			continue
		}
		if section != "mysqld" && section != "handlerdb" {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			v = "true" // a bare option
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		kv[strings.TrimSpace(k)] = v
	}
	return kv, sc.Err()
}

// Print writes the configuration as TOML (what --print-config shows).
// Secrets and the root password are masked.
func (c *Config) Print(w io.Writer) error {
	mask := func(s string) string {
		if s == "" {
			return ""
		}
		return "********"
	}
	out := map[string]any{
		"datadir":                                c.DataDir,
		"bind-address":                           c.BindAddress,
		"port":                                   c.Port,
		"handlersocket-port":                     c.HSPort,
		"handlersocket-port-wr":                  c.HSPortWr,
		"handlersocket-plain-secret":             mask(c.HSSecret),
		"handlersocket-plain-secret-wr":          mask(c.HSSecretWr),
		"handlersocket-timeout":                  c.HSTimeout.String(),
		"handlersocket-require-auth":             c.HSRequireAuth,
		"handlersocket-max-connections":          c.HSMaxConnections,
		"handlersocket-max-connections-per-peer": c.HSMaxConnectionsPerPeer,
		"handlersocket-line-timeout":             c.HSLineTimeout.String(),
		"handlersocket-max-response":             c.HSMaxResponse,
		"max-connections":                        c.MaxConnections,
		"connect-timeout":                        c.ConnectTimeout.String(),
		"durability":                             c.Durability,
		"root-password":                          mask(c.RootPassword),
		"root-host":                              c.RootHost,
		"cache-size":                             c.CacheSize,
		"row-cache-size":                         c.RowCacheSize,
		"sql-point-fast-path":                    c.SQLPointFastPath,
		"admin-address":                          c.AdminAddress,
		"tls-cert":                               c.TLSCert,
		"tls-key":                                c.TLSKey,
		"tls-required":                           c.TLSRequired,
		"log-level":                              c.LogLevel,
		"log-format":                             c.LogFormat,
	}
	return toml.NewEncoder(w).Encode(out)
}
