package hsproto

import (
	"bytes"
	"testing"
)

// FuzzParse frames arbitrary bytes, checks that the lines and the partial
// rest reassemble the input exactly, and parses every line: no panic, the
// invariants of Request hold, and a reused Request agrees with a fresh one.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"P\t1\tconf\ttf\tPRIMARY\tk,a,b\n1\t=\t1\t2\n",
		"1\t=\t1\t0\t10\t0\t@\t0\t3\t3\t1\t8\n",
		"1\t>=\t1\t0\t10\t0\tF\t=\t0\t20\tW\t<\t0\t\x00\tU?\tx\r\n",
		"A\t1\trdsecret\n\n\r\nX\n",
	} {
		f.Add([]byte(s))
	}
	var reused Request
	f.Fuzz(func(t *testing.T, data []byte) {
		// Framing: lines plus terminators plus rest give back the input.
		pos := 0
		buf := data
		var lines [][]byte
		for {
			line, rest, ok := NextLine(buf)
			if !ok {
				if !bytes.Equal(rest, data[pos:]) || bytes.IndexByte(rest, '\n') >= 0 {
					t.Fatalf("bad rest %q at %d", rest, pos)
				}
				break
			}
			if bytes.IndexByte(line, '\n') >= 0 || !bytes.Equal(line, data[pos:pos+len(line)]) {
				t.Fatalf("bad line %q at %d", line, pos)
			}
			pos += len(line)
			switch {
			case data[pos] == '\r' && data[pos+1] == '\n':
				pos += 2
			case data[pos] == '\n':
				if len(line) > 0 && line[len(line)-1] == '\r' {
					t.Fatalf("CR before LF kept in %q", line)
				}
				pos++
			default:
				t.Fatalf("line %q not followed by its terminator", line)
			}
			lines = append(lines, line)
			buf = rest
		}
		// The same bytes fed in two reads frame the same lines.
		split := len(data) / 3
		var again [][]byte
		pending := append([]byte(nil), data[:split]...)
		for i, chunk := range [][]byte{nil, data[split:]} {
			if i > 0 {
				pending = append(pending, chunk...)
			}
			for {
				line, rest, ok := NextLine(pending)
				if !ok {
					break
				}
				again = append(again, line)
				pending = rest
			}
		}
		if len(again) != len(lines) {
			t.Fatalf("split framing: %d lines, want %d", len(again), len(lines))
		}
		for i := range lines {
			if !bytes.Equal(again[i], lines[i]) {
				t.Fatalf("split framing: line %d %q, want %q", i, again[i], lines[i])
			}
		}
		// Parsing.
		for _, line := range lines {
			r := parseFresh(line)
			checkInvariants(t, r, line)
			reused.Parse(bytes.Clone(line))
			if a, b := dumpRequest(&reused), dumpRequest(r); a != b {
				t.Fatalf("reused Request: %s\nfresh: %s", a, b)
			}
		}
		// The whole input as one line (it may hold LFs: Parse does not care).
		checkInvariants(t, parseFresh(data), data)
	})
}

func checkInvariants(t *testing.T, r *Request, line []byte) {
	t.Helper()
	if r.Cmd > CmdExec {
		t.Fatalf("Cmd %d", r.Cmd)
	}
	if r.Cmd != CmdExec {
		if len(r.Keys)+len(r.InValues)+len(r.Filters)+len(r.ModValues) != 0 || r.SyntaxErr != ErrNone {
			t.Fatalf("%q: exec fields set on %s", line, dumpRequest(r))
		}
	}
	if uint64(len(r.Keys)) > uint64(r.VLen) || uint64(len(r.InValues)) > uint64(r.InCount) {
		t.Fatalf("%q: more values than declared: %s", line, dumpRequest(r))
	}
	if !r.HasIn && (r.InCount != 0 || r.InCol != 0) {
		t.Fatalf("%q: IN fields without IN", line)
	}
	switch r.SyntaxErr {
	case ErrNone, ErrFiltertype:
	case ErrInvalueslen:
		if !r.HasIn || r.InCount != 0 || len(r.Filters) != 0 {
			t.Fatalf("%q: invalueslen with %s", line, dumpRequest(r))
		}
	default:
		t.Fatalf("%q: SyntaxErr %s", line, r.SyntaxErr)
	}
	for _, f := range r.Filters {
		if f.Type != 'F' && f.Type != 'W' {
			t.Fatalf("%q: filter type %q", line, f.Type)
		}
	}
	if r.SyntaxErr != ErrNone && (r.ModToken != nil || len(r.ModValues) != 0) {
		t.Fatalf("%q: modify part after a syntax error", line)
	}
	if (r.Mod == ModNone) != (len(r.ModToken) == 0) {
		t.Fatalf("%q: Mod %d for token %q", line, r.Mod, r.ModToken)
	}
	for i := 0; i < 3; i++ {
		_ = r.Key(i)
		_ = r.InValue(i)
		_ = r.ModValue(i)
	}
	_ = r.InKeyPart()
	_, _ = r.IndexNumber()
	_ = r.IndexName()
	for _, env := range []ExecEnv{{}, {Slots: 1 << 33, Opened: true, FilterColumns: 3}, {ReadOnly: true, Slots: 5}} {
		e := r.CheckExec(env)
		if e >= numErrors || (r.Cmd != CmdExec && e != ErrCmd) {
			t.Fatalf("%q: CheckExec %d", line, e)
		}
	}
	if e := r.CheckAuth([]byte("k")); r.Cmd == CmdAuth && e != ErrNone && e != ErrUnauth && e != ErrAuthtype {
		t.Fatalf("%q: CheckAuth %s", line, e)
	}
}

// FuzzEscape checks the value encoding: escaping output is well formed
// and decodes back to the input, and decoding arbitrary bytes agrees with
// a plain reference decoder.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "\x00", "abc", "A\t\nB", "\x01P", "x\x010y", "x\x01", "\x7f\x80\xff", "\x00\x01\x02\x0f\x10"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		enc := AppendEscaped(nil, data)
		low := 0
		for _, c := range data {
			if c < 0x10 {
				low++
			}
		}
		if len(enc) != len(data)+low {
			t.Fatalf("len(enc) = %d for %d bytes with %d low", len(enc), len(data), low)
		}
		if !canonical(enc) {
			t.Fatalf("escaped form %q of %q not canonical", enc, data)
		}
		if bytes.ContainsAny(enc, "\t\n\r") || (len(enc) == 1 && enc[0] == 0) {
			t.Fatalf("escaped form %q holds a delimiter or looks NULL", enc)
		}
		if dec := Unescape(bytes.Clone(enc)); !bytes.Equal(dec, data) {
			t.Fatalf("Unescape(AppendEscaped(%q)) = %q", data, dec)
		}
		v := DecodeToken(AppendToken(nil, Value{B: data}))
		if v.Null || !bytes.Equal(v.B, data) {
			t.Fatalf("token round trip of %q gave %s", data, dumpValue(v))
		}
		if v := DecodeToken(AppendToken(nil, Value{Null: true, B: data})); !v.Null {
			t.Fatal("NULL round trip")
		}
		field := AppendField(nil, Value{B: data})
		if field[0] != '\t' || !bytes.Equal(field[1:], enc) {
			t.Fatalf("AppendField = %q", field)
		}
		// Decoding arbitrary bytes.
		in := bytes.Clone(data)
		dec := Unescape(in)
		if want := refDecode(data); !bytes.Equal(dec, want) {
			t.Fatalf("Unescape(%q) = %q, reference %q", data, dec, want)
		}
		if len(dec) > 0 && &dec[0] != &in[0] {
			t.Fatal("not in place")
		}
		if !bytes.Equal(in[len(dec):], data[len(dec):]) && bytes.IndexByte(data, 0x01) < 0 {
			t.Fatal("bytes without escapes changed")
		}
		if canonical(data) {
			if re := AppendEscaped(nil, dec); !bytes.Equal(re, data) {
				t.Fatalf("canonical %q re-encoded as %q", data, re)
			}
		}
	})
}

// FuzzPeekFind: on any line, PeekFind changes no byte of it and, on a
// line without escapes, reads what Parse reads: whether it is an exec, its
// id, operation, declared key count and the key values present.
func FuzzPeekFind(f *testing.F) {
	for _, s := range []string{
		"1\t=\t1\t2", "12\t>=\t2\t\x00\tb\t10\t0", "1\t=\t3\t1", "P\t1\tdb\tt\tPRIMARY\tk",
		"7\tx\t1\ta\t1\t0\tU\tb", "1\t=\t1\ta\x01\x4ab", "", "\t", "1", "1\t=\t",
	} {
		f.Add([]byte(s))
	}
	var keys []Value
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') >= 0 {
			return // not a line
		}
		orig := bytes.Clone(line)
		id, op, vlen, got, ok := PeekFind(line, keys)
		keys = got
		if !bytes.Equal(line, orig) {
			t.Fatalf("PeekFind changed %q to %q", orig, line)
		}
		if bytes.IndexByte(line, escPrefix) >= 0 {
			return // PeekFind leaves escapes as they are; Parse decodes them
		}
		var r Request
		r.Parse(line)
		if ok != (r.Cmd == CmdExec) {
			t.Fatalf("%q: PeekFind ok %v, Parse command %v", line, ok, r.Cmd)
		}
		if !ok {
			return
		}
		if id != r.ID || op != r.Op || vlen != r.VLen || len(got) != len(r.Keys) {
			t.Fatalf("%q: PeekFind %d %v %d %d keys, Parse %d %v %d %d keys", line, id, op, vlen, len(got), r.ID, r.Op, r.VLen, len(r.Keys))
		}
		for i := range got {
			if got[i].Null != r.Keys[i].Null || !bytes.Equal(got[i].B, r.Keys[i].B) {
				t.Fatalf("%q: key %d: PeekFind %+v, Parse %+v", line, i, got[i], r.Keys[i])
			}
		}
	})
}
