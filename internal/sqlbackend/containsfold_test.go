package sqlbackend

import "testing"

// TestContainsFold: any ASCII case of the word matches, and so do words
// that start with a sign (the plan cache looks for "@").
func TestContainsFold(t *testing.T) {
	for _, c := range []struct {
		s, sub string
		want   bool
	}{
		{"SELECT @a", "@", true},
		{"SELECT a", "@", false},
		{"select * FROM t FOR UPDATE", "for update", true},
		{"SELECT 1 Returning", "returning", true},
		{"SELECT json_EXTRACT(x)", "json_", true},
		{"SELEC", "select", false},
		{"", "a", false},
	} {
		if got := ContainsFold(c.s, c.sub); got != c.want {
			t.Errorf("ContainsFold(%q, %q) = %v, want %v", c.s, c.sub, got, c.want)
		}
	}
}
