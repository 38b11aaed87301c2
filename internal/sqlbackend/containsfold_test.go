package sqlbackend

import (
	"context"
	"strings"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
)

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

// TestQueryContainsFold: the session's remembered answers are
// ContainsFold's for the statement's text, and a new text (even one of
// the same length) is scanned afresh.
func TestQueryContainsFold(t *testing.T) {
	s := &Session{BaseSession: sql.NewBaseSession()}
	long := func(word string) string {
		return "SELECT " + strings.Repeat("x, ", memoFoldLen/3) + word
	}
	texts := []string{long("repeat"), long("lpad__"), long("repeat"), "SELECT REPEAT('a', 2)", long("hex___")}
	for _, q := range texts {
		ctx := sql.NewContext(context.Background(), sql.WithSession(s), sql.WithQuery(q))
		for _, w := range []string{"repeat", "pad", "hex", "select", "nothing"} {
			for range 2 {
				if got, want := QueryContainsFold(ctx, w), ContainsFold(q, w); got != want {
					t.Fatalf("%q in a text of %d bytes ending %q: %v, want %v", w, len(q), q[len(q)-6:], got, want)
				}
			}
		}
	}
}
