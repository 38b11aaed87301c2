package mysqlproto

import (
	"net"
	"testing"
	"time"
)

// discardConn is a connection that drops what is written to it.
type discardConn struct{ net.Conn }

func (discardConn) Write(b []byte) (int, error)        { return len(b), nil }
func (discardConn) Read([]byte) (int, error)           { select {} }
func (discardConn) Close() error                       { return nil }
func (discardConn) SetDeadline(time.Time) error        { return nil }
func (discardConn) SetWriteDeadline(t time.Time) error { return nil }

// BenchmarkWriteRows encodes cannedTypes' rows (18 columns of every kind)
// in the text and the binary protocol: the cost per row and its
// allocations.
func BenchmarkWriteRows(b *testing.B) {
	for _, binary := range []bool{false, true} {
		name := map[bool]string{false: "text", true: "binary"}[binary]
		b.Run(name, func(b *testing.B) {
			c := NewConn(discardConn{})
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				row := cannedTypes.Rows[i%len(cannedTypes.Rows)]
				var err error
				if binary {
					err = c.WriteBinaryRow(cannedTypes.Fields, row)
				} else {
					err = c.WriteTextRow(row)
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
