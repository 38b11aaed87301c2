package hsfront

import (
	"io"
	"net"
	"testing"
	"time"
)

// FuzzConnection sends random bytes on a live connection (read or write
// port) and checks that the server neither panics nor hangs: after the
// client half-closes, the server answers what it can and closes, and a
// well-formed request on a new connection is still answered.
func FuzzConnection(f *testing.F) {
	for _, seed := range []string{
		"P\t1\tconf\ttw\tPRIMARY\tk,s,n\n1\t=\t1\t1\n",
		"P\t1\tconf\ttw\tis1\tk,s\ts,n\n1\t>=\t1\t\x00\t10\t0\tF\t>\t1\t5\tW\t!=\t0\tx\n",
		"P\t1\tconf\ttw\t\tk,s,n\n1\t+\t3\t9\tnine\t9\n1\t=\t1\t9\t1\t0\tU?\t9\tNINE\n1\t=\t1\t9\t1\t0\tD\n",
		"1\t=\t1\t1\t1\t0\t@\t0\t3\t1\t2\t3\n",
		"A\t1\tsecret\n\n\t\tX\nQ\n",
		"/\n",
		"P\t4294967296\tconf\ttw\t0\tk\nP\t1\tconf\ttw\tPRIMARY\tk\r\n1\t<=\t1\t3\t2\t1\n",
		"\x01\x01\x00\t\x01@\n",
	} {
		f.Add([]byte(seed), true)
		f.Add([]byte(seed), false)
	}
	_, s := startTestServer(f, Config{Timeout: 10 * time.Second})
	f.Fuzz(func(t *testing.T, data []byte, write bool) {
		addr := s.ReadAddr()
		if write {
			addr = s.WriteAddr()
		}
		c, err := net.Dial("tcp", addr.String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(10 * time.Second))
		if _, err := c.Write(data); err != nil {
			return // the server may close early ('/' first)
		}
		c.(*net.TCPConn).CloseWrite()
		if _, err := io.Copy(io.Discard, c); err != nil {
			if ne, ok := err.(net.Error); ok && ne.Timeout() {
				t.Fatalf("server hung on %q", data)
			}
		}
		r := dial(t, s.ReadAddr())
		r.do("P\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n")
	})
}
