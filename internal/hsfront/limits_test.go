package hsfront

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"
)

func TestMaxLine(t *testing.T) {
	_, s := startTestServer(t, Config{MaxLine: 1000})
	c := dial(t, s.ReadAddr())
	// A complete long line is fine (it fits once read); an unfinished one
	// past the limit is refused and the connection closed.
	c.do("P\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n")
	if _, err := c.c.Write(bytes.Repeat([]byte("x"), 5000)); err != nil {
		t.Fatal(err)
	}
	c.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	got, err := io.ReadAll(c.r)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "2\t1\tlinelen\n" {
		t.Fatalf("got %q", got)
	}
}

func TestIdleTimeout(t *testing.T) {
	_, s := startTestServer(t, Config{Timeout: 200 * time.Millisecond})
	c := dial(t, s.ReadAddr())
	c.do("P\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n")
	start := time.Now()
	c.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.r.ReadByte(); err != io.EOF {
		t.Fatalf("idle connection: %v, want EOF", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("closed after %v", d)
	}
}

func TestMaxConns(t *testing.T) {
	_, s := startTestServer(t, Config{MaxConns: 2})
	a, b := dial(t, s.ReadAddr()), dial(t, s.WriteAddr())
	a.do("P\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n")
	b.do("P\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n")
	c := dial(t, s.ReadAddr())
	c.c.Write([]byte("P\t1\tconf\ttw\tPRIMARY\tk\n"))
	c.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if got, _ := io.ReadAll(c.r); len(got) != 0 {
		t.Fatalf("connection over the limit answered %q", got)
	}
	if s.Stats().Refused.Load() != 1 {
		t.Fatalf("refused %d", s.Stats().Refused.Load())
	}
	a.c.Close()
	// The slot frees up once the server has seen the close.
	waitFor(t, "the closed connection to leave the list", func() bool { return len(s.Conns()) <= 1 })
	d := dial(t, s.ReadAddr())
	d.do("P\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n")
}

// TestShutdownAnswersInFlight: a batch sent before Shutdown is committed
// and answered, then the connection closes.
func TestShutdownAnswersInFlight(t *testing.T) {
	e, s := startTestServer(t, Config{})
	w := dial(t, s.WriteAddr())
	w.do("P\t1\tconf\ttw\tPRIMARY\tk,s\n", "0\t1\n")
	var batch bytes.Buffer
	for i := 100; i < 200; i++ {
		batch.WriteString("1\t+\t2\t" + itoa(i) + "\tv\n")
	}
	if _, err := w.c.Write(batch.Bytes()); err != nil {
		t.Fatal(err)
	}
	// Wait until the server has taken the batch (it is executing it, or
	// has executed it), then shut down.
	waitFor(t, "the server to take the batch", func() bool {
		for _, ci := range s.Conns() {
			if ci.Write && (ci.State == "executing" || ci.Requests > 1) {
				return true
			}
		}
		return false
	})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	w.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	got, _ := io.ReadAll(w.r)
	if want := bytes.Repeat([]byte("0\t1\n"), 100); !bytes.Equal(got, want) {
		t.Fatalf("answers after shutdown: %q", got)
	}
	tb, _ := e.Catalog().Table("conf", "tw")
	if n, _ := e.Count(tb); n != 103 {
		t.Fatalf("rows %d, want 103", n)
	}
}

func itoa(i int) string {
	return string([]byte{byte('0' + i/100), byte('0' + i/10%10), byte('0' + i%10)})
}

// TestIdleTimeoutFromLastRequest: on a goroutine per connection, where
// the read deadline is moved lazily, the idle timeout still runs from the
// last answered request: a request soon after the previous one does not
// move the deadline set on the socket, which then ends the read early,
// and the connection must stay until its own deadline.
func TestIdleTimeoutFromLastRequest(t *testing.T) {
	const timeout = 400 * time.Millisecond
	_, s := startTestServer(t, Config{Timeout: timeout, NoEventLoop: true})
	c := dial(t, s.ReadAddr())
	c.do("P\t1\tconf\ttw\tPRIMARY\tk\n", "0\t1\n")
	time.Sleep(timeout / 10) // under an eighth of the timeout after the first
	c.do("1\t=\t1\t2\n", "0\t1\t2\n")
	last := time.Now()
	c.c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.r.ReadByte(); err != io.EOF {
		t.Fatalf("idle connection: %v, want EOF", err)
	}
	if d := time.Since(last); d < timeout-10*time.Millisecond || d > 3*time.Second {
		t.Fatalf("closed %v after its last request, want %v", d, timeout)
	}
	if n := s.Stats().Expired.Load(); n != 1 {
		t.Fatalf("expired %d, want 1", n)
	}
}
