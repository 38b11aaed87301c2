package errtable

import (
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// TestDupEntry: duplicate keys are printed as MariaDB prints them (binary
// bytes escaped, 64 bytes at most).
func TestDupEntry(t *testing.T) {
	bin := types.Type{Kind: types.VarBinary, Length: 10}
	str := types.Type{Kind: types.VarChar, Length: 300}
	for _, c := range []struct {
		key  []types.Value
		typ  []types.Type
		want string
	}{
		{[]types.Value{{B: []byte{0, 0xff, 'A'}}}, []types.Type{bin}, `\x00\xFFA`},
		{[]types.Value{{B: []byte("b")}, {Null: true}}, []types.Type{str, str}, "b-NULL"},
		{[]types.Value{{I: 1}, {B: []byte("p")}}, []types.Type{{Kind: types.Int}, str}, "1-p"},
		{[]types.Value{{B: []byte(strings.Repeat("c", 65))}}, []types.Type{str}, strings.Repeat("c", 61) + "..."},
		{[]types.Value{{B: []byte(strings.Repeat("é", 64))}}, []types.Type{str}, strings.Repeat("é", 30) + "..."},
		{[]types.Value{{B: []byte("a" + strings.Repeat("é", 64))}}, []types.Type{str}, "a" + strings.Repeat("é", 30) + "..."},
	} {
		if got := DupEntry(c.key, c.typ); got != c.want {
			t.Errorf("DupEntry(%v) = %q, want %q", c.key, got, c.want)
		}
	}
}

func TestTruncate(t *testing.T) {
	for _, c := range []struct {
		s    string
		max  int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "..."},
		{"abcdefgh", 6, "abc..."},
		{"ab€def", 6, "ab..."},
	} {
		if got := Truncate(c.s, c.max); got != c.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", c.s, c.max, got, c.want)
		}
	}
}
