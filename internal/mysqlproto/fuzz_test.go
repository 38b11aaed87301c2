package mysqlproto

import (
	"testing"

	"github.com/dolthub/vitess/go/sqltypes"
)

// FuzzParseExecute feeds COM_STMT_EXECUTE payloads for statements of 0 to
// 3 parameters: a parse may fail, never panic, and a value read must
// print back (its text is what the SQL layer binds).
func FuzzParseExecute(f *testing.F) {
	f.Add(uint8(2), []byte{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 8, 0, 253, 0, 5, 0, 0, 0, 0, 0, 0, 0, 3, 'a', 'b', 'c'})
	f.Add(uint8(1), []byte{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 12, 0, 11, 228, 7, 2, 29, 13, 14, 15, 64, 226, 1, 0})
	f.Add(uint8(1), []byte{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 11, 0, 12, 1, 1, 0, 0, 0, 2, 3, 4, 5, 0, 0, 0})
	f.Add(uint8(3), []byte{1, 0, 0, 0, 0, 1, 0, 0, 0, 7, 1, 6, 0, 6, 0, 6, 0})
	f.Add(uint8(0), []byte{1, 0, 0, 0, 0, 1, 0, 0, 0})
	f.Fuzz(func(t *testing.T, params uint8, p []byte) {
		st := NewStmt(1, int(params%4), 1)
		ex, err := ParseExecute(p, func(id uint32) *Stmt {
			if id == 1 {
				return st
			}
			return nil
		})
		if err != nil {
			return
		}
		if len(ex.Args) != st.Params && st.Params > 0 {
			t.Fatalf("%d args for %d parameters", len(ex.Args), st.Params)
		}
		for _, a := range ex.Args {
			_ = a.ToString()
			if a.Type() == sqltypes.Null && !a.IsNull() {
				t.Fatal("a NULL-typed value that is not NULL")
			}
		}
	})
}

// FuzzParseLogin feeds handshake responses: a parse may fail, never panic.
func FuzzParseLogin(f *testing.F) {
	resp := []byte{0x8d, 0xa6, 0x3f, 0x01, 0, 0, 0, 0, 45}
	resp = append(resp, make([]byte, 23)...)
	resp = append(resp, "root\x00"...)
	resp = append(resp, 20)
	resp = append(resp, make([]byte, 20)...)
	resp = append(resp, "db\x00mysql_native_password\x00"...)
	resp = append(resp, 7, 3, 'a', 'p', 'p', 2, 'g', 'o')
	f.Add(resp)
	f.Add(resp[:32])
	f.Add([]byte{0, 2, 0, 0})
	f.Fuzz(func(t *testing.T, p []byte) {
		l, ssl, err := parseLogin(p)
		if err == nil && !ssl && l == nil {
			t.Fatal("no login and no error")
		}
	})
}
