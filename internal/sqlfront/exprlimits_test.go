package sqlfront

import (
	"runtime"
	"strings"
	"testing"
)

// TestStringResultsBoundedByMaxPacket: a string function whose result
// would pass max_allowed_packet (16 MiB) answers NULL with warning 1301,
// as MariaDB does, and decides so before building the value: the heap
// the whole statement allocates (server and client, both in this
// process) stays far below the value's size.
func TestStringResultsBoundedByMaxPacket(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	c := ts.conn("")
	cases := []struct{ q, fn string }{
		{"SELECT REPEAT('x', 2e8)", "repeat"},
		{"SELECT LPAD('x', 2e8, 'y')", "lpad"},
		{"SELECT RPAD('x', 2e8, 'y')", "rpad"},
		{"SELECT SPACE(2e8)", "space"},
		{"SELECT REPEAT(REPEAT('x', 1e5), 2e3)", "repeat"},
		{"SELECT CONCAT(REPEAT('x', 1e7), REPEAT('y', 1e7))", "concat"},
		{"SELECT CONCAT_WS(',', REPEAT('x', 1e7), REPEAT('y', 1e7))", "concat_ws"},
		{"SELECT REPLACE(REPEAT('a', 1e6), 'a', 'xxxxxxxxxxxxxxxxxxxx')", "replace"},
		{"SELECT TO_BASE64(REPEAT('x', 1.5e7))", "to_base64"},
		{"SELECT HEX(REPEAT('x', 1e7))", "hex"},
	}
	for _, tc := range cases {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		got := queryRows(t, c, tc.q)
		runtime.ReadMemStats(&after)
		if len(got) != 1 || got[0] != "NULL" {
			short := joinLines(got)
			if len(short) > 40 {
				short = short[:40] + "..."
			}
			t.Errorf("%s = %q, want NULL", tc.q, short)
		}
		// The arguments of the last five are up to 15 MB each, built
		// once; the broken behaviour allocates the whole result (at
		// least 20 MB, 200 MB for the first five) and sends it.
		limit := uint64(64 << 20)
		if strings.Contains(tc.q, "2e") {
			limit = 16 << 20
		}
		if d := after.TotalAlloc - before.TotalAlloc; d > limit {
			t.Errorf("%s allocated %d MiB, want at most %d MiB", tc.q, d>>20, limit>>20)
		}
		want := "Warning|1301|Result of " + tc.fn + "() was larger than max_allowed_packet (16777216) - truncated"
		if w := joinLines(queryRows(t, c, "SHOW WARNINGS")); w != want {
			t.Errorf("%s: warnings %q, want %q", tc.q, w, want)
		}
	}
	// Below the limit the functions answer as before.
	expectRows(t, c, "SELECT LENGTH(REPEAT(REPEAT('x', 1e3), 1e3)), LPAD('a', 3, 'b'), CONCAT_WS('-', 'a', NULL, 'b'), REPLACE('aXa', 'a', 'bb'), HEX('ab'), TO_BASE64('ab'), CONCAT('a', 1, 2.5), LENGTH(SPACE(7))",
		"1000000|bba|a-b|bbXbb|6162|YWI=|a12.5|7")
}
