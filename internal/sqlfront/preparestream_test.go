package sqlfront

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// packet frames payload as one MySQL packet of sequence number seq.
func packet(seq byte, payload string) []byte {
	n := len(payload)
	return append([]byte{byte(n), byte(n >> 8), byte(n >> 16), seq}, payload...)
}

// streamOut reads in through a prepareStream, one byte per read of the
// source (every split of a packet across reads).
func streamOut(t testing.TB, in []byte) []byte {
	s := &prepareStream{r: iotest.OneByteReader(bytes.NewReader(in))}
	out, err := io.ReadAll(iotest.HalfReader(s))
	if err != nil && err != io.ErrUnexpectedEOF {
		t.Fatal(err)
	}
	return out
}

// TestPrepareStream: a prepared INSERT's RETURNING is hidden after the
// handshake response, the packet's length fixed up; commands, other
// prepares and every packet of a connection that asked for TLS pass as
// they came.
func TestPrepareStream(t *testing.T) {
	login := packet(1, "\x0d\xa2\x00\x00"+strings.Repeat("x", 40)) // capabilities without SSL or compression
	prep := "\x16INSERT INTO t (a) VALUES (?) RETURNING id"
	in := bytes.Join([][]byte{login, packet(0, "\x03SELECT 'returning'"), packet(0, prep), packet(0, "\x16SELECT 1")}, nil)
	want := bytes.Join([][]byte{login, packet(0, "\x03SELECT 'returning'"),
		packet(0, "\x16INSERT INTO t (a) VALUES (?) /*hdb:RETURNING id*/"), packet(0, "\x16SELECT 1")}, nil)
	if got := streamOut(t, in); !bytes.Equal(got, want) {
		t.Errorf("plain text:\n got %q\nwant %q", got, want)
	}
	tls := packet(1, "\x0d\xaa\x00\x00"+strings.Repeat("\x00", 28)) // SSL request (0x800)
	in = bytes.Join([][]byte{tls, packet(0, prep)}, nil)
	if got := streamOut(t, in); !bytes.Equal(got, in) {
		t.Errorf("TLS: the stream changed:\n got %q\nwant %q", got, in)
	}
}

// FuzzPrepareStream: any byte stream passes through unchanged unless it
// holds a RETURNING to hide, and then every packet is still a packet
// whose hidden clause unmarkReturning gives back.
func FuzzPrepareStream(f *testing.F) {
	f.Add([]byte(string(packet(1, "\x0d\xa2\x00\x00abc")) + string(packet(0, "\x16INSERT INTO t VALUES (1) RETURNING id"))))
	f.Add([]byte(string(packet(1, "\x00\x00\x00\x00")) + string(packet(0, "\x03SELECT 1")) + "\x01"))
	f.Add([]byte{0xff, 0xff, 0xff, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		out := streamOut(t, in)
		if !bytes.Contains(bytes.ToLower(in), []byte("returning")) {
			if !bytes.Equal(out, in) {
				t.Fatalf("changed without a RETURNING:\n in %q\nout %q", in, out)
			}
			return
		}
		if len(out) < len(in) {
			t.Fatalf("lost bytes: in %d, out %d", len(in), len(out))
		}
		if u := unmarkReturning(string(out)); len(u) > len(out) {
			t.Fatalf("unmark grew the text")
		}
	})
}
