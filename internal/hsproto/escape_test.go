package hsproto

import (
	"bytes"
	"testing"
)

func TestAppendEscapedEveryByte(t *testing.T) {
	for c := 0; c < 256; c++ {
		got := AppendEscaped(nil, []byte{byte(c)})
		want := []byte{byte(c)}
		if c < 0x10 {
			want = []byte{0x01, byte(c) + 0x40}
		}
		if !bytes.Equal(got, want) {
			t.Errorf("byte %#02x: %q, want %q", c, got, want)
		}
		if back := Unescape(bytes.Clone(got)); !bytes.Equal(back, []byte{byte(c)}) {
			t.Errorf("byte %#02x: decoded back to %q", c, back)
		}
	}
}

func TestEscapeExamples(t *testing.T) {
	// Values and their wire form, from 05-escaping.case.
	tests := []struct{ raw, wire string }{
		{"\x00", "\x01@"},
		{"\x00\x01\x02\x03\x04\x05\x06\x07", "\x01@\x01A\x01B\x01C\x01D\x01E\x01F\x01G"},
		{"A\t\nB", "A\x01I\x01JB"},
		{"\x08\t\n\x0b\x0c\r\x0e\x0f", "\x01H\x01I\x01J\x01K\x01L\x01M\x01N\x01O"},
		{"\x7f\x80\xc3\xa9\xff", "\x7f\x80\xc3\xa9\xff"},
		{"\x10\x11\x12", "\x10\x11\x12"},
		{"z\x00\n", "z\x01@\x01J"},
		{"\x03x\x0f", "\x01Cx\x01O"},
		{"", ""},
		{"plain text", "plain text"},
	}
	for _, tt := range tests {
		if got := AppendEscaped(nil, []byte(tt.raw)); string(got) != tt.wire {
			t.Errorf("AppendEscaped(%q) = %q, want %q", tt.raw, got, tt.wire)
		}
		if got := Unescape([]byte(tt.wire)); string(got) != tt.raw {
			t.Errorf("Unescape(%q) = %q, want %q", tt.wire, got, tt.raw)
		}
	}
}

func TestUnescapeLenient(t *testing.T) {
	tests := []struct{ wire, want string }{
		{"\x01P", "\x10"},              // esc_unescaped_low_byte_in_request: needless escape accepted
		{"\x01\x7f", "\x3f"},           // any byte >= 0x40 after 0x01
		{"\x01\xff", "\xbf"},           //
		{"\x05", "\x05"},               // unescaped low bytes pass through
		{"x\x010y", "x"},               // bad escape (0x01 then a byte < 0x40): value cut, esc_invalid_escape_sequence
		{"x\x01", "x"},                 // 0x01 at the end: cut
		{"\x01", ""},                   //
		{"\x01\x3f", ""},               //
		{"ab\x01@\x01\x01@", "ab\x00"}, // cut at the second escape, whose next byte is 0x01
		{"\x01@\x01@", "\x00\x00"},
	}
	for _, tt := range tests {
		if got := Unescape([]byte(tt.wire)); string(got) != tt.want {
			t.Errorf("Unescape(%q) = %q, want %q", tt.wire, got, tt.want)
		}
	}
}

func TestUnescapeInPlace(t *testing.T) {
	buf := []byte("a\x01Bb\tnext")
	tok := buf[:4]
	got := Unescape(tok)
	if string(got) != "a\x02b" {
		t.Fatalf("got %q", got)
	}
	if &got[0] != &buf[0] {
		t.Fatal("not decoded in place")
	}
	// The bytes after the decoded value are left as they were, and the
	// rest of the buffer is untouched.
	if string(buf) != "a\x02bb\tnext" {
		t.Fatalf("buffer = %q", buf)
	}
	if cap(got) != len(got) {
		t.Fatalf("cap %d", cap(got))
	}
}

func TestDecodeToken(t *testing.T) {
	tests := []struct {
		tok  string
		want Value
	}{
		{"\x00", Value{Null: true}},          // the NULL token
		{"", Value{B: []byte{}}},             // empty string, not NULL
		{"\x01@", Value{B: []byte{0}}},       // an encoded 0x00 byte is a string
		{"\x00\x00", Value{B: []byte{0, 0}}}, // two NULs: a string
		{"a\x00", Value{B: []byte("a\x00")}}, //
		{"abc", Value{B: []byte("abc")}},     //
		{"\x01Cx\x01O", Value{B: []byte("\x03x\x0f")}},
	}
	for _, tt := range tests {
		got := DecodeToken([]byte(tt.tok))
		if got.Null != tt.want.Null || !bytes.Equal(got.B, tt.want.B) {
			t.Errorf("DecodeToken(%q) = %s, want %s", tt.tok, dumpValue(got), dumpValue(tt.want))
		}
	}
}

func TestAppendTokenAndField(t *testing.T) {
	tests := []struct {
		v     Value
		token string
	}{
		{Value{Null: true}, "\x00"},
		{Value{}, ""},
		{Value{B: []byte{0}}, "\x01@"},
		{Value{B: []byte("banana")}, "banana"},
		{Value{Null: true, B: []byte("ignored")}, "\x00"},
	}
	for _, tt := range tests {
		if got := string(AppendToken(nil, tt.v)); got != tt.token {
			t.Errorf("AppendToken(%s) = %q, want %q", dumpValue(tt.v), got, tt.token)
		}
		if got := string(AppendField([]byte("0\t1"), tt.v)); got != "0\t1\t"+tt.token {
			t.Errorf("AppendField(%s) = %q", dumpValue(tt.v), got)
		}
		back := DecodeToken(AppendToken(nil, tt.v))
		if back.Null != tt.v.Null || (!tt.v.Null && !bytes.Equal(back.B, tt.v.B)) {
			t.Errorf("round trip of %s gave %s", dumpValue(tt.v), dumpValue(back))
		}
	}
}
