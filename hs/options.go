package hs

import (
	"context"
	"fmt"
	"maps"
	"net"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Default ports of HandlerSocket.
const (
	DefaultReadPort  = 9998
	DefaultWritePort = 9999
)

// Options configures a Client. New calls EnsureDefaults, which fills the
// zero fields with their defaults, and then Validate. In every number and
// duration, zero means the default; a negative value turns the limit off
// where a field says so ("negative: never", "negative: no limit") and is
// invalid everywhere else.
type Options struct {
	// ReadAddr is host:port of the read port (finds). Empty: finds go to
	// the write port.
	ReadAddr string
	// WriteAddr is host:port of the write port (inserts, updates, deletes,
	// increments, decrements, and finds in a pipeline that also writes).
	// Empty: writes fail with ErrNoWriteAddr. ReadAddr and WriteAddr must
	// not both be empty (ErrNoAddr).
	WriteAddr string

	// ReadSecret is sent as "A 1 <secret>" on every new read connection
	// when non-empty: the port's plain secret, or user:password for a
	// HandlerDB SQL user. Leave it empty for a port without a secret (such
	// a port refuses any non-empty secret).
	ReadSecret string
	// WriteSecret is the same for the write port. It does not default to
	// ReadSecret: the two ports have separate secrets on the server too.
	WriteSecret string

	// Database is used by Client.Index when its db argument is empty.
	Database string

	// ReadPoolSize and WritePoolSize bound the connections open to each
	// port. 0: default 2 * GOMAXPROCS, at least 4; negative: invalid. A
	// call that finds every connection busy waits for one, as long as its
	// context allows.
	ReadPoolSize, WritePoolSize int
	// MaxIdle bounds the idle connections kept per port. 0: default, each
	// port's own pool size (EnsureDefaults leaves it 0, since the two pools
	// may differ); above a pool's size: that size; negative: keep none.
	MaxIdle int
	// IdleTimeout closes connections left idle that long. 0: default 4
	// minutes, below the server's 300-second idle timeout; negative: never.
	IdleTimeout time.Duration

	// DialTimeout bounds connecting and authenticating. 0: default 5 s;
	// negative: no limit besides the context.
	DialTimeout time.Duration
	// ReadTimeout bounds the wait for the replies of one request or
	// pipeline. 0: default 30 s; negative: no limit besides the context.
	ReadTimeout time.Duration
	// WriteTimeout bounds sending one request or pipeline. 0: default
	// 30 s; negative: no limit besides the context.
	WriteTimeout time.Duration

	// Dialer, when set, opens connections instead of net.Dialer.
	Dialer func(ctx context.Context, network, addr string) (net.Conn, error)

	// Hooks are called around every request and pipeline (see Hook). None
	// may be nil.
	Hooks []Hook

	// Debug records every request line, its reply and its duration (see
	// Client.DebugRecords). It costs time and memory: leave it off in
	// production.
	Debug bool
	// DebugKeep is how many records Debug keeps, the oldest being dropped.
	// 0: default 1000; negative: invalid.
	DebugKeep int
	// DebugLog, when set with Debug, is also called with each record as it
	// is made.
	DebugLog func(DebugRecord)
}

// The defaults EnsureDefaults gives the zero fields of Options.
const (
	defaultIdleTimeout  = 4 * time.Minute
	defaultDialTimeout  = 5 * time.Second
	defaultReplyTimeout = 30 * time.Second // ReadTimeout and WriteTimeout
	defaultDebugKeep    = 1000
	minDefaultPoolSize  = 4
)

// defaultPoolSize is the default of ReadPoolSize and WritePoolSize: twice
// GOMAXPROCS, at least minDefaultPoolSize.
func defaultPoolSize() int {
	return max(2*runtime.GOMAXPROCS(0), minDefaultPoolSize)
}

// EnsureDefaults sets every zero field of o that has a default (see each
// field) to that default and returns o. Fields already set, negative
// values included, are left as they are, so calling it again changes
// nothing. New calls it; call it yourself to see the values a Client would
// use.
func (o *Options) EnsureDefaults() *Options {
	if o.ReadPoolSize == 0 {
		o.ReadPoolSize = defaultPoolSize()
	}
	if o.WritePoolSize == 0 {
		o.WritePoolSize = defaultPoolSize()
	}
	if o.IdleTimeout == 0 {
		o.IdleTimeout = defaultIdleTimeout
	}
	if o.DialTimeout == 0 {
		o.DialTimeout = defaultDialTimeout
	}
	if o.ReadTimeout == 0 {
		o.ReadTimeout = defaultReplyTimeout
	}
	if o.WriteTimeout == 0 {
		o.WriteTimeout = defaultReplyTimeout
	}
	if o.DebugKeep == 0 {
		o.DebugKeep = defaultDebugKeep
	}
	return o
}

// Validate returns an error naming the first field of o, in the order of
// their declaration, whose value is invalid: ReadAddr and WriteAddr both
// empty (the error wraps ErrNoAddr), a negative ReadPoolSize,
// WritePoolSize or DebugKeep, or a nil Hook. Zero values are valid, with
// or without EnsureDefaults; New calls both.
func (o *Options) Validate() error {
	if o.ReadAddr == "" && o.WriteAddr == "" {
		return fmt.Errorf("%w: Options.ReadAddr and Options.WriteAddr are both empty", ErrNoAddr)
	}
	if o.ReadPoolSize < 0 {
		return negativeField("ReadPoolSize", o.ReadPoolSize)
	}
	if o.WritePoolSize < 0 {
		return negativeField("WritePoolSize", o.WritePoolSize)
	}
	for i, h := range o.Hooks {
		if h == nil {
			return fmt.Errorf("hs: invalid Options.Hooks[%d]: nil", i)
		}
	}
	if o.DebugKeep < 0 {
		return negativeField("DebugKeep", o.DebugKeep)
	}
	return nil
}

// negativeField is Validate's error for a field that must not be negative.
func negativeField(name string, v int) error {
	return fmt.Errorf("hs: invalid Options.%s %d: must not be negative (0: the default)", name, v)
}

// ParseDSN parses a data source name of the form
//
//	hs://[secret@]host[:port][/database][?param=value&...]
//
// The user part is the read port's secret; "user:password" is kept whole
// (HandlerDB accepts a SQL user's credentials as the secret). The port
// defaults to 9998. The parameters are:
//
//	wr_port=9999          write port on the same host (default 9999; "off" or
//	                      "0" for no write port)
//	wr_host=host          write host (default: the read host)
//	wr_secret=secret      write port's secret (default: none)
//	rd=off                no read port: finds use the write port
//	pool_size=N           ReadPoolSize and WritePoolSize
//	rd_pool_size=N        ReadPoolSize
//	wr_pool_size=N        WritePoolSize
//	max_idle=N            MaxIdle
//	idle_timeout=D        IdleTimeout (a Go duration such as 90s)
//	dial_timeout=D        DialTimeout
//	read_timeout=D        ReadTimeout
//	write_timeout=D       WriteTimeout
//	timeout=D             ReadTimeout and WriteTimeout
//	debug=true            Debug
//
// The numbers and durations mean what the fields they set say: 0 is the
// default, a negative duration turns that limit off (timeout=-1s), a
// negative max_idle keeps no idle connection, and a negative pool size is
// refused by New. ParseDSN leaves the other fields zero (see
// Options.EnsureDefaults).
//
// Secrets containing '@', ':' or '/' must be percent-encoded.
func ParseDSN(dsn string) (Options, error) {
	var o Options
	u, err := url.Parse(dsn)
	if err != nil {
		return o, fmt.Errorf("hs: DSN: %w", err)
	}
	if u.Scheme != "hs" && u.Scheme != "handlersocket" {
		return o, fmt.Errorf("hs: DSN %q: scheme must be hs://", redact(dsn))
	}
	host := u.Hostname()
	if host == "" {
		host = "127.0.0.1"
	}
	port := u.Port()
	if port == "" {
		port = strconv.Itoa(DefaultReadPort)
	}
	o.ReadAddr = net.JoinHostPort(host, port)
	if u.User != nil {
		o.ReadSecret = u.User.Username()
		if p, ok := u.User.Password(); ok {
			o.ReadSecret += ":" + p
		}
	}
	o.Database = strings.TrimPrefix(u.Path, "/")
	wrHost, wrPort := host, strconv.Itoa(DefaultWritePort)
	q := u.Query()
	// pool_size and timeout set two fields each; the parameters naming one
	// of those fields (rd_pool_size, read_timeout, ...) override them, so
	// the general ones go first, whatever their order in the DSN.
	keys := slices.SortedFunc(maps.Keys(q), func(a, b string) int {
		general := func(k string) bool { return k == "pool_size" || k == "timeout" }
		if general(a) != general(b) {
			if general(a) {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	for _, k := range keys {
		vs := q[k]
		v := vs[len(vs)-1]
		var err error
		switch k {
		case "wr_port":
			wrPort = v
		case "wr_host":
			wrHost = v
		case "wr_secret":
			o.WriteSecret = v
		case "rd":
			if v == "off" || v == "0" || v == "false" {
				o.ReadAddr = ""
			}
		case "pool_size":
			o.ReadPoolSize, err = strconv.Atoi(v)
			o.WritePoolSize = o.ReadPoolSize
		case "rd_pool_size":
			o.ReadPoolSize, err = strconv.Atoi(v)
		case "wr_pool_size":
			o.WritePoolSize, err = strconv.Atoi(v)
		case "max_idle":
			o.MaxIdle, err = strconv.Atoi(v)
		case "idle_timeout":
			o.IdleTimeout, err = time.ParseDuration(v)
		case "dial_timeout":
			o.DialTimeout, err = time.ParseDuration(v)
		case "read_timeout":
			o.ReadTimeout, err = time.ParseDuration(v)
		case "write_timeout":
			o.WriteTimeout, err = time.ParseDuration(v)
		case "timeout":
			o.ReadTimeout, err = time.ParseDuration(v)
			o.WriteTimeout = o.ReadTimeout
		case "debug":
			o.Debug, err = strconv.ParseBool(v)
		default:
			return o, fmt.Errorf("hs: DSN: unknown parameter %q", k)
		}
		if err != nil {
			return o, fmt.Errorf("hs: DSN: parameter %s=%q: %w", k, v, err)
		}
	}
	if wrPort != "off" && wrPort != "0" && wrPort != "" {
		if _, err := strconv.ParseUint(wrPort, 10, 16); err != nil {
			return o, fmt.Errorf("hs: DSN: wr_port %q is not a port", wrPort)
		}
		o.WriteAddr = net.JoinHostPort(wrHost, wrPort)
	}
	return o, nil
}

// redact hides the secrets of a DSN for an error message.
func redact(dsn string) string {
	u, err := url.Parse(dsn)
	if err != nil {
		return "(unparsable)"
	}
	return u.Redacted()
}
