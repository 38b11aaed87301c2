package hsproto

import "testing"

var (
	benchFind    = []byte("1\t=\t1\t12345\t10\t0")
	benchComplex = []byte("1\t>=\t2\tab\x01Ccd\t\x00\t100\t5\t@\t0\t3\ta\tb\tc\tF\t>=\t0\t10\tW\t!=\t1\t\x00\tU?\tx\ty\t\x00")
	benchRow     = []Value{{B: []byte("12345")}, {B: []byte("banana")}, {Null: true}, {B: []byte("2020-01-02 03:04:05")}}
	benchStream  = []byte("P\t1\tconf\ttf\tPRIMARY\tk,a,b,c\r\n1\t=\t1\t1\n1\t=\t1\t2\n1\t>\t1\t3\t10\t0\n1\t=\t1")
)

func writeFindResponse(out []byte, row []Value) []byte {
	out = AppendResultHeader(out, len(row))
	for _, v := range row {
		out = AppendField(out, v)
	}
	return AppendEnd(out)
}

// TestZeroAllocs pins the hot path at zero allocations once buffers have
// grown: framing, parsing (simple and with every option), the codec
// checks and the response writer.
func TestZeroAllocs(t *testing.T) {
	var r Request
	line := make([]byte, len(benchComplex))
	out := make([]byte, 0, 4096)
	checks := []struct {
		name string
		f    func()
	}{
		{"NextLine", func() {
			buf := benchStream
			for {
				_, rest, ok := NextLine(buf)
				if !ok {
					break
				}
				buf = rest
			}
		}},
		{"ParseFind", func() { r.Parse(benchFind) }},
		{"ParseComplex", func() {
			copy(line, benchComplex)
			r.Parse(line)
		}},
		{"ParseOpen", func() {
			copy(line, "P\t1\tconf\ttf\tPRIMARY\tk,a,b,c\tb,c")
			r.Parse(line[:len("P\t1\tconf\ttf\tPRIMARY\tk,a,b,c\tb,c")])
		}},
		{"CheckExec", func() {
			copy(line, benchComplex)
			r.Parse(line)
			_ = r.CheckExec(ExecEnv{Slots: 2, Opened: true, FilterColumns: 2})
		}},
		{"WriteFindResponse", func() { out = writeFindResponse(out[:0], benchRow) }},
		{"WriteShort", func() {
			out = AppendOK(out[:0])
			out = AppendOKNum(out, 12345)
			out = AppendError(out, ErrStmtnum)
			out = AppendHandlerError(out, 121)
		}},
	}
	for _, c := range checks {
		c.f() // let buffers grow
		if n := testing.AllocsPerRun(200, c.f); n != 0 {
			t.Errorf("%s: %v allocs/op, want 0", c.name, n)
		}
	}
}

// BenchmarkParseFind parses a find with one key, a limit and an offset.
func BenchmarkParseFind(b *testing.B) {
	var r Request
	r.Parse(benchFind)
	b.ReportAllocs()
	b.SetBytes(int64(len(benchFind)))
	for b.Loop() {
		r.Parse(benchFind)
	}
	if r.Limit != 10 || string(r.Key(0).B) != "12345" {
		b.Fatal(dumpRequest(&r))
	}
}

// BenchmarkParseComplex parses a find with IN, two filters and a modify.
func BenchmarkParseComplex(b *testing.B) {
	var r Request
	line := make([]byte, len(benchComplex))
	b.ReportAllocs()
	b.SetBytes(int64(len(benchComplex)))
	for b.Loop() {
		copy(line, benchComplex)
		r.Parse(line)
	}
}

// BenchmarkWriteFindResponse writes a one-row reply of four columns.
func BenchmarkWriteFindResponse(b *testing.B) {
	out := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		out = writeFindResponse(out[:0], benchRow)
	}
	if string(out) != "0\t4\t12345\tbanana\t\x00\t2020-01-02 03:04:05\n" {
		b.Fatalf("%q", out)
	}
}

// BenchmarkAppendEscaped escapes a 1 KiB value holding a few low bytes.
func BenchmarkAppendEscaped(b *testing.B) {
	src := make([]byte, 1024)
	for i := range src {
		src[i] = byte('a' + i%26)
	}
	src[100], src[700] = '\t', 0
	out := make([]byte, 0, 2048)
	b.ReportAllocs()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		out = AppendEscaped(out[:0], src)
	}
}

// BenchmarkAppendEscapedRow escapes the fields of a row shaped like
// hsbench's (an id, a name, a 32-byte email, a DATETIME): short values
// with nothing to escape, the common reply.
func BenchmarkAppendEscapedRow(b *testing.B) {
	vals := [][]byte{[]byte("12345"), []byte("name-12345"), []byte("user12345@example.com.xxxxxxxxxxx"), []byte("2024-01-02 03:04:05")}
	out := make([]byte, 0, 256)
	for b.Loop() {
		out = out[:0]
		for _, v := range vals {
			out = append(out, '\t')
			out = AppendEscaped(out, v)
		}
	}
}
