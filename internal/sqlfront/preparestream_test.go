package sqlfront

import (
	"bytes"
	"context"
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
// handshake response, and a prepared DO becomes the marked SELECT, the
// packet's length fixed up; commands, other
// prepares and every packet of a connection that asked for TLS pass as
// they came.
func TestPrepareStream(t *testing.T) {
	login := packet(1, "\x0d\xa2\x00\x00"+strings.Repeat("x", 40)) // capabilities without SSL or compression
	prep := "\x16INSERT INTO t (a) VALUES (?) RETURNING id"
	in := bytes.Join([][]byte{login, packet(0, "\x03SELECT 'returning'"), packet(0, prep), packet(0, "\x16SELECT 1"),
		packet(0, "\x16 do RELEASE_LOCK(?)"), packet(0, "\x03DO 1"), packet(0, "\x16DOUBLE")}, nil)
	want := bytes.Join([][]byte{login, packet(0, "\x03SELECT 'returning'"),
		packet(0, "\x16INSERT INTO t (a) VALUES (?) /*hdb:RETURNING id*/"), packet(0, "\x16SELECT 1"),
		packet(0, "\x16/*hdb:DO*/SELECT RELEASE_LOCK(?)"), packet(0, "\x03DO 1"), packet(0, "\x16DOUBLE")}, nil)
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
// holds a RETURNING to hide or a DO to mark, and then every packet is still a packet
// whose hidden clause unmarkReturning gives back.
func FuzzPrepareStream(f *testing.F) {
	f.Add([]byte(string(packet(1, "\x0d\xa2\x00\x00abc")) + string(packet(0, "\x16INSERT INTO t VALUES (1) RETURNING id"))))
	f.Add([]byte(string(packet(1, "\x00\x00\x00\x00")) + string(packet(0, "\x03SELECT 1")) + "\x01"))
	f.Add([]byte{0xff, 0xff, 0xff, 0})
	f.Fuzz(func(t *testing.T, in []byte) {
		out := streamOut(t, in)
		if low := bytes.ToLower(in); !bytes.Contains(low, []byte("returning")) && !bytes.Contains(low, []byte("do")) {
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

// TestPreparedDo: DO prepared (as go-sql-driver prepares a statement with
// arguments) runs its expressions and answers OK with no columns; its
// errors are the statement's.
func TestPreparedDo(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE pd", "CREATE TABLE pd.t (id INT PRIMARY KEY)")
	c := ts.conn("pd")
	ctx := context.Background()
	if _, err := c.ExecContext(ctx, "DO GET_LOCK(?, 0)", "pd-lock"); err != nil {
		t.Fatal(err)
	}
	expectRows(t, db, "SELECT IS_USED_LOCK('pd-lock') IS NOT NULL", "1")
	res, err := c.ExecContext(ctx, "DO RELEASE_LOCK(?), ? + 1", "pd-lock", 2)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 0 {
		t.Errorf("DO affected %d rows", n)
	}
	expectRows(t, db, "SELECT IS_USED_LOCK('pd-lock') IS NULL", "1")
	rows, err := c.QueryContext(ctx, "DO ?", 1)
	if err != nil {
		t.Fatal(err)
	}
	if cols, _ := rows.Columns(); len(cols) != 0 || rows.Next() {
		t.Errorf("DO answered columns %v or rows", cols)
	}
	rows.Close()
	if _, err := c.ExecContext(ctx, "DO (SELECT id FROM nope WHERE id = ?)", 1); err == nil || !strings.Contains(err.Error(), "1146") {
		t.Errorf("DO of a missing table: %v, want 1146", err)
	}
}
