//go:build linux

package hsfront

import (
	"runtime"
	"testing"
)

// TestReadLoops: the read port runs Config.ReadLoops event loops, by
// default four per GOMAXPROCS, and every loop serves connections.
func TestReadLoops(t *testing.T) {
	_, s := startTestServer(t, Config{})
	if want := 4 * runtime.GOMAXPROCS(0); len(s.loops) != want {
		t.Fatalf("%d read loops by default, want %d", len(s.loops), want)
	}
	_, s3 := startTestServer(t, Config{ReadLoops: 3})
	if len(s3.loops) != 3 {
		t.Fatalf("%d read loops for ReadLoops 3", len(s3.loops))
	}
	// Connections are spread over the loops: each of six answers.
	for i := 0; i < 6; i++ {
		c := dial(t, s3.ReadAddr())
		c.do("P\t1\tconf\ttw\tPRIMARY\tk,s\n1\t=\t1\t2\n", "0\t1\n", "0\t2\t2\ttwo\n")
	}
	for i, l := range s3.loops {
		l.mu.Lock()
		n := len(l.conns)
		l.mu.Unlock()
		if n != 2 {
			t.Errorf("loop %d serves %d connections, want 2", i, n)
		}
	}
}
