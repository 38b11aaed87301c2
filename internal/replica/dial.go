package replica

import (
	"context"
	"crypto/tls"
	"fmt"
	"net"
	"time"

	"github.com/go-mysql-org/go-mysql/client"
)

// dialSource opens a client connection to the primary, over TLS with
// MASTER_SSL.
func dialSource(ctx context.Context, s *source) (*client.Conn, error) {
	addr := net.JoinHostPort(s.Host, fmt.Sprint(s.Port))
	d := &net.Dialer{Timeout: 5 * time.Second}
	var opts []client.Option
	if cfg := s.tlsConfig(); cfg != nil {
		opts = append(opts, func(c *client.Conn) error { c.SetTLSConfig(cfg); return nil })
	}
	return client.ConnectWithDialer(ctx, "tcp", addr, s.User, s.Password, "", d.DialContext, opts...)
}

// tlsConfig is the TLS configuration of the connections to the primary
// (nil: plain).
func (s *source) tlsConfig() *tls.Config {
	if !s.SSL {
		return nil
	}
	return &tls.Config{ServerName: s.Host, InsecureSkipVerify: true} //nolint:gosec // MariaDB's MASTER_SSL=1 without MASTER_SSL_VERIFY_SERVER_CERT
}
