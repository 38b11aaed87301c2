package replica

import (
	"context"
	"fmt"
	"net"
	"time"

	"github.com/go-mysql-org/go-mysql/client"
)

// dialSource opens a plain client connection to the primary.
func dialSource(ctx context.Context, s *source) (*client.Conn, error) {
	addr := net.JoinHostPort(s.Host, fmt.Sprint(s.Port))
	d := &net.Dialer{Timeout: 5 * time.Second}
	return client.ConnectWithDialer(ctx, "tcp", addr, s.User, s.Password, "", d.DialContext)
}
