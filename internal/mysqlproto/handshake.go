package mysqlproto

import (
	"crypto/rand"
	"crypto/tls"
	"errors"
	"fmt"
)

// Capability bits (CLIENT_* in the protocol's documentation).
const (
	ClientLongPassword     = 1 << 0
	ClientFoundRows        = 1 << 1
	ClientLongFlag         = 1 << 2
	ClientConnectWithDB    = 1 << 3
	ClientNoSchema         = 1 << 4
	ClientCompress         = 1 << 5
	ClientLocalFiles       = 1 << 7
	ClientIgnoreSpace      = 1 << 8
	ClientProtocol41       = 1 << 9
	ClientInteractive      = 1 << 10
	ClientSSL              = 1 << 11
	ClientTransactions     = 1 << 13
	ClientSecureConnection = 1 << 15
	ClientMultiStatements  = 1 << 16
	ClientMultiResults     = 1 << 17
	ClientPSMultiResults   = 1 << 18
	ClientPluginAuth       = 1 << 19
	ClientConnectAttrs     = 1 << 20
	ClientPluginAuthLenenc = 1 << 21
	ClientSessionTrack     = 1 << 23
	ClientDeprecateEOF     = 1 << 24
)

// ServerCapabilities is what HandlerDB offers: MariaDB 10.11's set without
// compression and session tracking, and with DEPRECATE_EOF (which MariaDB
// offers too). ClientSSL is added when TLS is configured.
const ServerCapabilities = ClientLongPassword | ClientFoundRows | ClientLongFlag |
	ClientConnectWithDB | ClientNoSchema | ClientLocalFiles | ClientIgnoreSpace |
	ClientProtocol41 | ClientInteractive | ClientTransactions | ClientSecureConnection |
	ClientMultiStatements | ClientMultiResults | ClientPSMultiResults | ClientPluginAuth |
	ClientConnectAttrs | ClientPluginAuthLenenc | ClientDeprecateEOF

// NativePassword is the name of the mysql_native_password plugin, the
// only one HandlerDB's accounts use (MariaDB's default).
const NativePassword = "mysql_native_password"

// Greeting is what the server says first (the handshake v10 packet).
type Greeting struct {
	ServerVersion string
	ConnectionID  uint32
	Capabilities  uint32 // offered; ClientSSL is added when TLS is offered
	Charset       byte   // the server's default collation id
	Status        uint16
	AuthPlugin    string // NativePassword when empty
}

// Login is the client's handshake response.
type Login struct {
	Capabilities        uint32 // the client's, before agreement
	MariaDBCapabilities uint32 // MARIADB_CLIENT_* (the filler's last 4 bytes)
	MaxPacket           uint32
	Charset             byte
	User                string
	AuthResponse        []byte
	Database            string // "" when not given
	AuthPlugin          string
	Attributes          map[string]string
	// Salt is the 20 bytes the server sent for the client to scramble its
	// password with.
	Salt []byte
}

// ErrTLSRequired is returned by Handshake when TLS is required and the
// client did not ask for it.
var ErrTLSRequired = errors.New("mysqlproto: the client did not start TLS")

// Handshake greets the client and reads its answer, upgrading to TLS
// when tlsCfg is set and the client asks for it (and failing with
// ErrTLSRequired when requireTLS is set and it does not). The caller
// checks the account (and may switch the plugin with AuthSwitch), then
// answers with WriteOK or WriteError.
func (c *Conn) Handshake(g *Greeting, tlsCfg *tls.Config, requireTLS bool) (*Login, error) {
	salt := make([]byte, 20)
	if _, err := rand.Read(salt); err != nil {
		return nil, err
	}
	for i, b := range salt {
		// The scramble is printable and has no NUL (clients read the
		// second part as a NUL-ended string).
		salt[i] = b&0x7f | 1
		if salt[i] == '$' {
			salt[i] = '%'
		}
	}
	caps := g.Capabilities
	if caps == 0 {
		caps = ServerCapabilities
	}
	if tlsCfg != nil {
		caps |= ClientSSL
	}
	plugin := g.AuthPlugin
	if plugin == "" {
		plugin = NativePassword
	}
	b := make([]byte, 0, 128)
	b = append(b, 10)
	b = append(b, g.ServerVersion...)
	b = append(b, 0)
	b = append(b, byte(g.ConnectionID), byte(g.ConnectionID>>8), byte(g.ConnectionID>>16), byte(g.ConnectionID>>24))
	b = append(b, salt[:8]...)
	b = append(b, 0)
	b = append(b, byte(caps), byte(caps>>8), g.Charset, byte(g.Status), byte(g.Status>>8), byte(caps>>16), byte(caps>>24))
	b = append(b, byte(len(salt)+1))
	b = append(b, make([]byte, 10)...)
	b = append(b, salt[8:]...)
	b = append(b, 0)
	b = append(b, plugin...)
	b = append(b, 0)
	c.ResetSequence()
	if err := c.WritePacket(b); err != nil {
		return nil, err
	}
	if err := c.Flush(); err != nil {
		return nil, err
	}
	p, err := c.ReadPacket()
	if err != nil {
		return nil, err
	}
	l, sslRequest, err := parseLogin(p)
	if err != nil {
		return nil, err
	}
	if sslRequest {
		if tlsCfg == nil {
			return nil, errors.New("mysqlproto: TLS asked for and not offered")
		}
		if err := c.upgradeTLS(tlsCfg); err != nil {
			return nil, err
		}
		if p, err = c.ReadPacket(); err != nil {
			return nil, err
		}
		if l, sslRequest, err = parseLogin(p); err != nil {
			return nil, err
		}
		if sslRequest {
			return nil, errors.New("mysqlproto: a second TLS request")
		}
	} else if requireTLS && tlsCfg != nil {
		return l, ErrTLSRequired
	}
	l.Salt = salt
	if l.AuthPlugin == "" {
		l.AuthPlugin = NativePassword
	}
	c.Capabilities = l.Capabilities & caps
	return l, nil
}

// parseLogin reads a HandshakeResponse41 (or the SSLRequest that is its
// first 32 bytes).
func parseLogin(p []byte) (l *Login, sslRequest bool, err error) {
	r := &reader{b: p}
	l = &Login{}
	l.Capabilities = r.uint32()
	if r.err == nil && l.Capabilities&ClientProtocol41 == 0 {
		return nil, false, errors.New("mysqlproto: a client older than protocol 4.1")
	}
	l.MaxPacket = r.uint32()
	l.Charset = r.byte1()
	filler := r.bytes(23)
	if r.err != nil {
		return nil, false, fmt.Errorf("mysqlproto: handshake response: %w", r.err)
	}
	if l.Capabilities&ClientLongPassword == 0 {
		// MariaDB clients clear CLIENT_MYSQL (bit 0) and send their
		// extended capabilities in the filler's last 4 bytes.
		f := filler[19:]
		l.MariaDBCapabilities = uint32(f[0]) | uint32(f[1])<<8 | uint32(f[2])<<16 | uint32(f[3])<<24
	}
	if len(r.b) == 0 && l.Capabilities&ClientSSL != 0 {
		return l, true, nil
	}
	l.User = string(r.nulString())
	switch {
	case l.Capabilities&ClientPluginAuthLenenc != 0:
		l.AuthResponse = r.lenBytes()
	case l.Capabilities&ClientSecureConnection != 0:
		n := r.byte1()
		l.AuthResponse = r.bytes(int(n))
	default:
		l.AuthResponse = r.nulString()
	}
	if l.Capabilities&ClientConnectWithDB != 0 && len(r.b) > 0 {
		l.Database = string(r.nulString())
	}
	if l.Capabilities&ClientPluginAuth != 0 && len(r.b) > 0 {
		l.AuthPlugin = string(r.nulString())
	}
	if l.Capabilities&ClientConnectAttrs != 0 && len(r.b) > 0 {
		n, _ := r.lenInt()
		if r.err == nil && n <= uint64(len(r.b)) {
			attrs := &reader{b: r.bytes(int(n))}
			l.Attributes = map[string]string{}
			for len(attrs.b) > 0 && attrs.err == nil {
				k := attrs.lenBytes()
				v := attrs.lenBytes()
				if attrs.err == nil {
					l.Attributes[string(k)] = string(v)
				}
			}
		}
	}
	if r.err != nil {
		return nil, false, fmt.Errorf("mysqlproto: handshake response: %w", r.err)
	}
	l.AuthResponse = append([]byte(nil), l.AuthResponse...)
	return l, false, nil
}

// AuthSwitch asks the client to answer again with plugin over data (an
// AuthSwitchRequest) and returns its answer.
func (c *Conn) AuthSwitch(plugin string, data []byte) ([]byte, error) {
	b := make([]byte, 0, 2+len(plugin)+len(data)+1)
	b = append(b, 0xfe)
	b = append(b, plugin...)
	b = append(b, 0)
	b = append(b, data...)
	b = append(b, 0)
	if err := c.WritePacket(b); err != nil {
		return nil, err
	}
	if err := c.Flush(); err != nil {
		return nil, err
	}
	return c.ReadPacket()
}
