package mariadb

import "testing"

func TestLikeBytes(t *testing.T) {
	for _, c := range []struct {
		s, p string
		want bool
	}{
		{"abc", "a%", true}, {"abc", "%c", true}, {"abc", "a_c", true}, {"abc", "a_", false},
		{"a%c", `a\%c`, true}, {"abc", `a\%c`, false}, {"\xff\x00z", "\xff%z", true}, {"", "%", true},
		{"zzz", "z%z%z", true}, {"ab", "%b%b", false},
	} {
		if got := likeBytes([]byte(c.s), []byte(c.p), '\\'); got != c.want {
			t.Errorf("%q LIKE %q = %v, want %v", c.s, c.p, got, c.want)
		}
	}
}
