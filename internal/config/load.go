package config

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"sort"
	"strconv"
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
	"daemon-memcached-option":       "",
	"daemon-memcached-r-batch-size": "",
	"daemon-memcached-w-batch-size": "",
	"innodb-api-enable-binlog":      "",
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
	if err := c.readSecretFiles(); err != nil {
		return c, fs, nil, err
	}
	return c, fs, ignored, c.Validate()
}

// readSecretFiles fills each secret from its file flag (see
// Config.HSSecretFile).
func (c *Config) readSecretFiles() error {
	for _, f := range []struct {
		flag, file string
		value      *string
	}{
		{"handlersocket-plain-secret", c.HSSecretFile, &c.HSSecret},
		{"handlersocket-plain-secret-wr", c.HSSecretWrFile, &c.HSSecretWr},
		{"root-password", c.RootPasswordFile, &c.RootPassword},
	} {
		if f.file == "" {
			continue
		}
		if *f.value != "" {
			return fmt.Errorf("config: --%s and --%s-file: give only one", f.flag, f.flag)
		}
		v, err := readSecretFile(f.flag, f.file)
		if err != nil {
			return err
		}
		*f.value = v
	}
	if c.ReplicatePasswordFile == "" {
		return nil
	}
	src, err := ParseReplicateFrom(c.ReplicateFrom)
	if err != nil {
		return fmt.Errorf("config: --replicate-from-password-file needs --replicate-from user@host:port: %w", err)
	}
	if strings.Contains(c.ReplicateFrom[:strings.LastIndexByte(c.ReplicateFrom, '@')], ":") {
		return fmt.Errorf("config: --replicate-from gives a password and --replicate-from-password-file another: give only one")
	}
	pw, err := readSecretFile("replicate-from-password", c.ReplicatePasswordFile)
	if err != nil {
		return err
	}
	c.ReplicateFrom = fmt.Sprintf("%s:%s@%s", src.User, pw, net.JoinHostPort(src.Host, strconv.Itoa(src.Port)))
	return nil
}

// readSecretFile reads the secret of --flag-file: the file's contents
// less one trailing line end, which must leave something.
func readSecretFile(flag, path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("config: --%s-file: %w", flag, err)
	}
	v := strings.TrimSuffix(strings.TrimSuffix(string(data), "\n"), "\r")
	if v == "" {
		return "", fmt.Errorf("config: --%s-file %s is empty", flag, path)
	}
	return v, nil
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

// Masked replaces a secret's value wherever one would be shown.
const Masked = "********"

// secretFlags names every flag whose value is a secret: Print masks them,
// and MaskArgs masks them on a command line. A new secret flag goes here.
var secretFlags = []string{
	"handlersocket-plain-secret",
	"handlersocket-plain-secret-wr",
	"root-password",
	"replicate-from", // user:password@host:port
	"admin-token",
}

// IsSecretFlag reports whether the flag name (without dashes) holds a
// secret.
func IsSecretFlag(name string) bool {
	for _, s := range secretFlags {
		if name == s {
			return true
		}
	}
	return false
}

// MaskArgs returns a copy of the command line args with the value of
// every secret flag replaced by Masked, in each form the flag package
// accepts: -flag=value, --flag=value, -flag value and --flag value. An
// empty value stays empty. args itself is not changed.
func MaskArgs(args []string) []string {
	out := append([]string(nil), args...)
	for i := 0; i < len(out); i++ {
		a := out[i]
		if !strings.HasPrefix(a, "-") {
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !IsSecretFlag(name) {
			continue
		}
		switch {
		case hasValue && value != "":
			out[i] = a[:len(a)-len(value)] + Masked
		case !hasValue && i+1 < len(out):
			i++
			if out[i] != "" {
				out[i] = Masked
			}
		}
	}
	return out
}

// AdminTokenValue returns the admin listener's bearer token: c.AdminToken, or
// the trimmed contents of c.AdminTokenFile; "" when neither is set.
func (c *Config) AdminTokenValue() (string, error) {
	return AdminTokenFrom(c.AdminToken, c.AdminTokenFile)
}

// AdminTokenFrom returns the admin token given as its value or as a file
// holding it (trimmed of surrounding white space), as the server and
// `handlerdb backup` take it. Giving both, an unreadable or empty file, or
// a token with spaces or non-printable characters, is an error; giving
// neither returns "".
func AdminTokenFrom(token, file string) (string, error) {
	switch {
	case token != "" && file != "":
		return "", fmt.Errorf("config: --admin-token and --admin-token-file: give only one")
	case file != "":
		data, err := os.ReadFile(file)
		if err != nil {
			return "", fmt.Errorf("config: --admin-token-file: %w", err)
		}
		token = strings.TrimSpace(string(data))
		if token == "" {
			return "", fmt.Errorf("config: --admin-token-file %s is empty", file)
		}
		if err := checkAdminToken(token); err != nil {
			return "", fmt.Errorf("config: --admin-token-file %s: %w", file, err)
		}
	case token != "":
		if err := checkAdminToken(token); err != nil {
			return "", fmt.Errorf("config: --admin-token: %w", err)
		}
	}
	return token, nil
}

// checkAdminToken accepts a token that can travel in an Authorization
// header as it is: printable ASCII without spaces.
func checkAdminToken(t string) error {
	for i := 0; i < len(t); i++ {
		if t[i] <= ' ' || t[i] > '~' {
			return fmt.Errorf("the token must be printable ASCII without spaces")
		}
	}
	return nil
}

// Print writes the configuration as TOML (what --print-config shows).
// The values of the secret flags (see IsSecretFlag) are masked.
func (c *Config) Print(w io.Writer) error {
	mask := func(s string) string {
		if s == "" {
			return ""
		}
		return Masked
	}
	out := map[string]any{
		"datadir":                                   c.DataDir,
		"bind-address":                              c.BindAddress,
		"port":                                      c.Port,
		"handlersocket-port":                        c.HSPort,
		"handlersocket-port-wr":                     c.HSPortWr,
		"memcached-port":                            c.MemcachedPort,
		"memcached-max-item-size":                   c.MemcachedMaxItemSize,
		"memcached-flush-all":                       c.MemcachedFlushAll,
		"memcached-max-connections":                 c.MemcachedMaxConnections,
		"memcached-auth":                            c.MemcachedAuth,
		"handlersocket-plain-secret":                c.HSSecret,
		"handlersocket-plain-secret-wr":             c.HSSecretWr,
		"handlersocket-plain-secret-file":           c.HSSecretFile,
		"handlersocket-plain-secret-wr-file":        c.HSSecretWrFile,
		"root-password-file":                        c.RootPasswordFile,
		"replicate-from-password-file":              c.ReplicatePasswordFile,
		"handlersocket-timeout":                     c.HSTimeout.String(),
		"handlersocket-require-auth":                c.HSRequireAuth,
		"handlersocket-max-connections":             c.HSMaxConnections,
		"handlersocket-max-connections-per-peer":    c.HSMaxConnectionsPerPeer,
		"handlersocket-read-loops":                  c.HSReadLoops,
		"handlersocket-write-loops":                 c.HSWriteLoops,
		"handlersocket-line-timeout":                c.HSLineTimeout.String(),
		"handlersocket-max-response":                c.HSMaxResponse,
		"handlersocket-sql-users":                   c.HSSQLUsers,
		"max-auth-failures":                         c.MaxAuthFailures,
		"auth-backoff":                              c.AuthBackoff.String(),
		"max-connections":                           c.MaxConnections,
		"max-connect-errors":                        c.MaxConnectErrors,
		"connect-timeout":                           c.ConnectTimeout.String(),
		"general-log":                               c.GeneralLog,
		"general-log-file":                          c.GeneralLogFile,
		"slow-query-log":                            c.SlowQueryLog,
		"slow-query-log-file":                       c.SlowQueryLogFile,
		"long-query-time":                           c.LongQueryTime,
		"secure-file-priv":                          c.SecureFilePriv,
		"durability":                                c.Durability.String(),
		"root-password":                             c.RootPassword,
		"root-host":                                 c.RootHost,
		"cache-size":                                c.CacheSize,
		"row-cache-size":                            c.RowCacheSize,
		"sql-point-fast-path":                       c.SQLPointFastPath,
		"sql-plan-cache":                            c.SQLPlanCache,
		"log-bin":                                   c.LogBin,
		"server-id":                                 c.ServerID,
		"version-string":                            c.VersionString,
		"binlog-expire-logs-seconds":                c.BinlogExpire.String(),
		"max-binlog-total-size":                     c.BinlogMaxTotalSize,
		"rpl-semi-sync-master-enabled":              c.SemiSyncPrimary,
		"rpl-semi-sync-master-timeout":              c.SemiSyncTimeoutMS,
		"rpl-semi-sync-master-wait-for-slave-count": c.SemiSyncCount,
		"rpl-semi-sync-slave-enabled":               c.SemiSyncReplica,
		"admin-address":                             c.AdminAddress,
		"admin-token":                               c.AdminToken,
		"admin-token-file":                          c.AdminTokenFile,
		"backup-dir":                                c.BackupDir,
		"replicate-from":                            c.ReplicateFrom,
		"replica-stage-bytes":                       c.ReplicaStageBytes,
		"tls-cert":                                  c.TLSCert,
		"tls-key":                                   c.TLSKey,
		"tls-required":                              c.TLSRequired,
		"log-level":                                 c.LogLevel,
		"log-format":                                c.LogFormat,
	}
	for _, name := range secretFlags {
		if v, ok := out[name].(string); ok {
			out[name] = mask(v)
		}
	}
	return toml.NewEncoder(w).Encode(out)
}
