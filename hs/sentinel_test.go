package hs

import (
	"testing"

	"github.com/handlerdb/handlerdb/internal/hsproto"
)

// TestSentinelsMatchServerTable: every error reply the server can send
// (internal/hsproto's table) has exactly one sentinel with the same code
// and word, a reply maps to that shared sentinel, and it has a
// description; the client has no sentinel the server cannot send.
func TestSentinelsMatchServerTable(t *testing.T) {
	replies := hsproto.Errors()
	if len(serverErrors) != len(replies) {
		t.Errorf("%d sentinels for %d server replies", len(serverErrors), len(replies))
	}
	for _, e := range replies {
		var found *ServerError
		for _, s := range serverErrors {
			if s.Code == int(e.Code()) && s.Token == e.Word() {
				if found != nil {
					t.Errorf("%d %s: two sentinels", e.Code(), e.Word())
				}
				found = s
			}
		}
		if found == nil {
			t.Errorf("server reply %d %s has no sentinel", e.Code(), e.Word())
			continue
		}
		if got := serverError(int(e.Code()), []byte(e.Word())); got != found {
			t.Errorf("%d %s: serverError returned %p, not the sentinel %p", e.Code(), e.Word(), got, found)
		}
		if describe(found.Code, found.Token) == "" {
			t.Errorf("%d %s: no description", e.Code(), e.Word())
		}
	}
	for _, s := range serverErrors {
		if _, ok := hsproto.ErrorOf(uint32(s.Code), s.Token); !ok {
			t.Errorf("sentinel %d %s is not a server reply", s.Code, s.Token)
		}
	}
	if describe(1, "167") != "" || describe(2, "121") != "" || describe(-1, "cmd") != "" {
		t.Error("a reply the server does not send has a description")
	}
}
