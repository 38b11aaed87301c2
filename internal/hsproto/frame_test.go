package hsproto

import (
	"bytes"
	"strings"
	"testing"
)

// splitAll frames buf completely and returns the lines and the partial
// rest.
func splitAll(buf []byte) (lines []string, rest string) {
	for {
		line, r, ok := NextLine(buf)
		if !ok {
			return lines, string(r)
		}
		lines = append(lines, string(line))
		buf = r
	}
}

func TestNextLine(t *testing.T) {
	tests := []struct {
		name  string
		in    string
		lines []string
		rest  string
	}{
		{"lf", "a\tb\n", []string{"a\tb"}, ""},
		{"crlf", "a\r\n", []string{"a"}, ""},
		{"only one cr dropped", "a\r\r\n", []string{"a\r"}, ""},
		{"lone cr is data", "1\t=\t1\t4\r1\n", []string{"1\t=\t1\t4\r1"}, ""},
		{"cr at start of line kept", "\ra\n", []string{"\ra"}, ""},
		{"empty line", "\n", []string{""}, ""},
		{"empty crlf line", "\r\n", []string{""}, ""},
		{"lone cr line", "\r\r\n", []string{"\r"}, ""},
		{"pipelined", "P\t1\n1\t=\t1\t1\n\n1\t=\t1\t2\r\n", []string{"P\t1", "1\t=\t1\t1", "", "1\t=\t1\t2"}, ""},
		{"partial kept", "a\nb\tc", []string{"a"}, "b\tc"},
		{"partial with cr kept", "a\r", nil, "a\r"},
		{"nothing", "", nil, ""},
		{"tabs are data", "\t\t\n", []string{"\t\t"}, ""},
		{"nul is data", "\x00\n", []string{"\x00"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lines, rest := splitAll([]byte(tt.in))
			if strings.Join(lines, "|") != strings.Join(tt.lines, "|") || len(lines) != len(tt.lines) {
				t.Errorf("lines = %q, want %q", lines, tt.lines)
			}
			if rest != tt.rest {
				t.Errorf("rest = %q, want %q", rest, tt.rest)
			}
		})
	}
}

// TestNextLineSplitWrites feeds a pipelined stream one byte at a time, the
// way TCP may split it, tracking the scanned prefix with NextLineFrom, and
// gets the same lines as in one piece.
func TestNextLineSplitWrites(t *testing.T) {
	stream := "P\t1\tconf\ttw\tPRIMARY\ts\r\n1\t=\t1\t4\r\n1\t=\t1\t4\r1\n\n1\t+\t2\ta\r\tb\n"
	want, _ := splitAll([]byte(stream))
	for chunk := 1; chunk <= len(stream); chunk++ {
		var got []string
		var buf []byte
		scanned := 0
		for i := 0; i < len(stream); i += chunk {
			buf = append(buf, stream[i:min(i+chunk, len(stream))]...)
			for {
				line, rest, ok := NextLineFrom(buf, scanned)
				if !ok {
					scanned = len(rest)
					break
				}
				got = append(got, string(line))
				buf = rest
				scanned = 0
			}
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Fatalf("chunk %d: lines = %q, want %q", chunk, got, want)
		}
		if len(buf) != 0 {
			t.Fatalf("chunk %d: left %q", chunk, buf)
		}
	}
}

func TestNextLineFromClamps(t *testing.T) {
	buf := []byte("ab\r\ncd")
	for _, from := range []int{-5, 0, 2, 3} {
		line, rest, ok := NextLineFrom(buf, from)
		if !ok || string(line) != "ab" || string(rest) != "cd" {
			t.Errorf("from %d: %q %q %v", from, line, rest, ok)
		}
	}
	if _, rest, ok := NextLineFrom(buf, 100); ok || !bytes.Equal(rest, buf) {
		t.Errorf("from past end: ok=%v rest=%q", ok, rest)
	}
}

func TestNextLineCapacity(t *testing.T) {
	buf := []byte("ab\ncd\n")
	line, _, _ := NextLine(buf)
	if cap(line) != 2 {
		t.Fatalf("cap(line) = %d, want 2", cap(line))
	}
	_ = append(line, 'X')
	if string(buf) != "ab\ncd\n" {
		t.Fatalf("append to line changed the buffer: %q", buf)
	}
}

func TestIsCloseRequest(t *testing.T) {
	for in, want := range map[string]bool{"/": true, "/\n": true, "/anything": true, "": false, "1\t=\n/\n": false, "Q\n": false, " /": false} {
		if got := IsCloseRequest([]byte(in)); got != want {
			t.Errorf("IsCloseRequest(%q) = %v", in, got)
		}
	}
}
