package mcproto

import (
	"bytes"
	"fmt"
	"testing"
)

// TestNext: framing and parsing of one request, with memcached 1.6's
// answers to malformed lines (checked against Debian's memcached by
// mcfront's differential test).
func TestNext(t *testing.T) {
	const max = 1 << 20
	for _, c := range []struct {
		in   string
		ok   bool
		n    int
		cmd  Cmd
		err  Error
		want string // a summary of the request
	}{
		{in: "get a", ok: false},
		{in: "get a\r\n", ok: true, n: 7, cmd: CmdGet, want: "keys=[a]"},
		{in: "get a  b\tc\n", ok: true, n: 11, cmd: CmdGet, want: "keys=[a b\tc]"},
		{in: "gets a b\r\nget", ok: true, n: 10, cmd: CmdGets, want: "keys=[a b]"},
		{in: "get\r\n", ok: true, n: 5, err: ErrUnknown},
		{in: "\r\n", ok: true, n: 2, err: ErrUnknown},
		{in: "GET a\r\n", ok: true, n: 7, err: ErrUnknown},
		{in: "get " + string(bytes.Repeat([]byte("k"), 251)) + "\r\n", ok: true, n: 257, err: ErrFormat},
		{in: "gat 10 a b\r\n", ok: true, n: 12, cmd: CmdGat, want: "keys=[a b] exp=10"},
		{in: "gat x a\r\n", ok: true, n: 9, err: ErrExptime},
		{in: "set a 5 0 3\r\nab", ok: false},
		{in: "set a 5 0 3\r\nabc\r\n", ok: true, n: 18, cmd: CmdSet, want: "keys=[a] flags=5 data=abc"},
		{in: "set a 5 0 3 noreply\r\nabc\r\n", ok: true, n: 26, cmd: CmdSet, want: "keys=[a] flags=5 data=abc noreply"},
		{in: "set a 5 0 3 x\r\nabc\r\n", ok: true, n: 20, cmd: CmdSet, want: "keys=[a] flags=5 data=abc"},
		{in: "set a 0 0 3\r\nabcd\r\n", ok: true, n: 18, err: ErrDataChunk},
		{in: "set a 0 0 -1\r\n", ok: true, n: 14, err: ErrFormat},
		{in: "set a -1 0 1\r\nx\r\n", ok: true, n: 14, err: ErrFormat},
		{in: "set a 4294967296 0 1\r\nx\r\n", ok: true, n: 25, cmd: CmdSet, want: "keys=[a] flags=0 data=x"},
		{in: "set a 0 0 1 noreply extra\r\nx\r\n", ok: true, n: 27, err: ErrUnknown},
		{in: "set a 0 0 2000000\r\n", ok: true, n: 19, err: ErrTooLarge},
		{in: "cas a 0 0 1 77\r\nx\r\n", ok: true, n: 19, cmd: CmdCas, want: "keys=[a] flags=0 data=x cas=77"},
		{in: "cas a 0 0 1\r\nx\r\n", ok: true, n: 13, err: ErrUnknown},
		{in: "delete a\r\n", ok: true, n: 10, cmd: CmdDelete, want: "keys=[a]"},
		{in: "delete a 0 noreply\r\n", ok: true, n: 20, cmd: CmdDelete, want: "keys=[a] noreply"},
		{in: "delete a 1\r\n", ok: true, n: 12, err: ErrDeleteUsage},
		{in: "incr a 5\r\n", ok: true, n: 10, cmd: CmdIncr, want: "keys=[a] delta=5"},
		{in: "incr a -1\r\n", ok: true, n: 11, err: ErrDelta},
		{in: "incr a\r\n", ok: true, n: 8, err: ErrUnknown},
		{in: "touch a 10 noreply\r\n", ok: true, n: 20, cmd: CmdTouch, want: "keys=[a] exp=10 noreply"},
		{in: "touch a x\r\n", ok: true, n: 11, err: ErrExptime},
		{in: "flush_all 10\r\n", ok: true, n: 14, cmd: CmdFlushAll, want: "exp=10"},
		{in: "flush_all x\r\n", ok: true, n: 13, err: ErrExptime},
		{in: "verbosity\r\n", ok: true, n: 11, err: ErrUnknown},
		{in: "verbosity x\r\n", ok: true, n: 13, err: ErrFormat},
		{in: "stats settings\r\n", ok: true, n: 16, cmd: CmdStats, want: "args=[settings]"},
		{in: "quit\r\n", ok: true, n: 6, cmd: CmdQuit},
		{in: "mg a v k O12\r\n", ok: true, n: 14, cmd: CmdMg, want: "keys=[a]"},
		{in: "ms a 2 T9 F3\r\nhi\r\n", ok: true, n: 18, cmd: CmdMs, want: "keys=[a] data=hi"},
		{in: "ms a 2 MX\r\nhi\r\n", ok: true, n: 11, err: ErrMsMode},
		{in: "mg a v v\r\n", ok: true, n: 10, err: ErrDuplicateFlag},
		{in: "mg a E5\r\n", ok: true, n: 9, err: ErrInvalidFlag},
		{in: "mg bTE= b v\r\n", ok: true, n: 13, cmd: CmdMg, want: "keys=[m1]"},
		{in: "mg !!! b v\r\n", ok: true, n: 12, err: ErrKeyDecode},
		{in: "mg\r\n", ok: true, n: 4, err: ErrUnknown},
		{in: "mn\r\n", ok: true, n: 4, cmd: CmdMn},
	} {
		var r Request
		f, err, ok := Next([]byte(c.in), max, &r)
		if ok != c.ok {
			t.Errorf("%q: complete %v, want %v", c.in, ok, c.ok)
			continue
		}
		if !ok {
			continue
		}
		if f.N != c.n || err != c.err {
			t.Errorf("%q: n %d err %d, want n %d err %d", c.in, f.N, err, c.n, c.err)
			continue
		}
		if err != ErrNone {
			continue
		}
		if r.Cmd != c.cmd {
			t.Errorf("%q: command %v, want %v", c.in, r.Cmd, c.cmd)
		}
		if got := summary(&r); got != c.want {
			t.Errorf("%q: %s, want %s", c.in, got, c.want)
		}
	}
}

func summary(r *Request) string {
	var b bytes.Buffer
	if len(r.Keys) > 0 {
		fmt.Fprintf(&b, "keys=%s ", r.Keys)
	}
	if r.Flags != 0 || r.Cmd.IsStorage() {
		fmt.Fprintf(&b, "flags=%d ", r.Flags)
	}
	if r.Exptime != 0 {
		fmt.Fprintf(&b, "exp=%d ", r.Exptime)
	}
	if r.Data != nil {
		fmt.Fprintf(&b, "data=%s ", r.Data)
	}
	if r.Cas != 0 {
		fmt.Fprintf(&b, "cas=%d ", r.Cas)
	}
	if r.Delta != 0 {
		fmt.Fprintf(&b, "delta=%d ", r.Delta)
	}
	if len(r.Args) > 0 {
		fmt.Fprintf(&b, "args=%s ", r.Args)
	}
	if r.NoReply {
		b.WriteString("noreply ")
	}
	return string(bytes.TrimSpace(b.Bytes()))
}

// TestTooLargeSwallows: a data block too large for the item limit is
// swallowed, CRLF included.
func TestTooLargeSwallows(t *testing.T) {
	var r Request
	f, err, ok := Next([]byte("set a 0 0 100\r\n"), 10, &r)
	if !ok || err != ErrTooLarge || f.N != 15 || f.Swallow != 102 {
		t.Fatalf("frame %+v err %d ok %v", f, err, ok)
	}
}

// TestParseUint64: memcached's safe_strtoull.
func TestParseUint64(t *testing.T) {
	for in, want := range map[string]any{
		"0": uint64(0), "18446744073709551615": uint64(18446744073709551615), "18446744073709551616": false,
		" 12": uint64(12), "12 ": uint64(12), "12 x": uint64(12), "12a": false, "": false, "+5": uint64(5),
		"-1": false, "-0": uint64(0), "x": false, "9 ": uint64(9),
	} {
		v, ok := ParseUint64([]byte(in))
		if w, isNum := want.(uint64); isNum != ok || (ok && v != w) {
			t.Errorf("%q: %d %v, want %v", in, v, ok, want)
		}
	}
}

// FuzzNext: no input makes Next panic, report a frame longer than its
// input, or a data block that is not inside the frame.
func FuzzNext(f *testing.F) {
	for _, s := range []string{"get a b\r\n", "set a 0 0 3\r\nabc\r\n", "cas a 1 2 3 4 noreply\r\nxyz\r\n",
		"incr a 18446744073709551615\r\n", "delete a 0 noreply\r\n", "gat -1 a\r\n", "set a 0 0 -1\r\n",
		"touch a 9\n", "flush_all 0 noreply\r\n", "stats settings\r\n", "\r\n", "set a 0 0 3\r\nabcd\r\n",
		"mg a v k f t s c O1 q\r\n", "ms bTE= 2 b T10 F3 MA c\r\nhi\r\n", "ma n N0 J5 D2 M- v\r\n", "md a C5 q\r\n", "mn\r\n", "ms a 1 MX\r\nx\r\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var r Request
		fr, err, ok := Next(in, 64, &r)
		if !ok {
			return
		}
		if fr.N <= 0 || fr.N > len(in) {
			t.Fatalf("frame %d of %d bytes", fr.N, len(in))
		}
		if err == ErrNone && (r.Cmd.IsStorage() || r.Cmd == CmdMs) {
			if len(r.Data) != r.Bytes || !bytes.Contains(in[:fr.N], r.Data) {
				t.Fatalf("data %q not in the frame", r.Data)
			}
		}
		if err == ErrNone && r.Cmd == CmdNone {
			t.Fatal("no command and no error")
		}
		for _, k := range r.Keys {
			if len(k) > KeyMax {
				t.Fatalf("key of %d bytes", len(k))
			}
		}
	})
}

// FuzzNextBinary: a binary frame never reaches past its input, and its
// parts add up to it.
func FuzzNextBinary(f *testing.F) {
	f.Add([]byte("\x80\x01\x00\x01\x08\x00\x00\x00\x00\x00\x00\x0a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00kv"))
	f.Add([]byte("\x80\x0a\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, in []byte) {
		var r BinRequest
		n, ok, bad := NextBinary(in, &r)
		if !ok || bad {
			return
		}
		if n > len(in) || n < BinaryHeader || BinaryHeader+len(r.Extras)+len(r.Key)+len(r.Value) != n {
			t.Fatalf("frame %d of %d bytes: extras %d key %d value %d", n, len(in), len(r.Extras), len(r.Key), len(r.Value))
		}
	})
}
