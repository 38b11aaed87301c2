package hsproto

import "testing"

// TestErrorsList: Errors lists every reply but ErrNone once, each with its
// own code and word, and ErrorOf finds each by them.
func TestErrorsList(t *testing.T) {
	all := Errors()
	if len(all) != int(numErrors)-1 {
		t.Fatalf("Errors has %d replies, the table %d", len(all), numErrors-1)
	}
	seen := map[string]Error{}
	for i, e := range all {
		if e == ErrNone || (i > 0 && e <= all[i-1]) {
			t.Fatalf("Errors()[%d] = %d", i, e)
		}
		key := string(AppendError(nil, e))
		if prev, ok := seen[key]; ok {
			t.Errorf("%s and %s are both %q", prev, e, key)
		}
		seen[key] = e
		if got, ok := ErrorOf(e.Code(), e.Word()); !ok || got != e {
			t.Errorf("ErrorOf(%d, %q) = %s %v, want %s", e.Code(), e.Word(), got, ok, e)
		}
	}
	for _, c := range []struct {
		code uint32
		word string
	}{{0, ""}, {1, "167"}, {2, "121"}, {1, "cmd"}, {2, ""}} {
		if e, ok := ErrorOf(c.code, c.word); ok {
			t.Errorf("ErrorOf(%d, %q) = %s", c.code, c.word, e)
		}
	}
}
