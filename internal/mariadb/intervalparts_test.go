package mariadb

import (
	"strings"
	"testing"
)

// FuzzPartsDelta: any text reads without a panic, and a '-' before it
// negates every part (MariaDB's sign applies to the whole interval).
func FuzzPartsDelta(f *testing.F) {
	for _, s := range []string{"1.5", "5", ".5", "1 1:1:1.02", "1.2.3.4.5", "1:30x", "", "x", "1-13", "99999999999999999999:1", "1.0000009"} {
		f.Add(s, uint8(0))
	}
	units := make([]string, 0, len(intervalParts))
	for u := range intervalParts {
		units = append(units, u)
	}
	f.Fuzz(func(t *testing.T, text string, unit uint8) {
		u := units[int(unit)%len(units)]
		fields := intervalParts[u]
		td, null, err := partsDelta(fields, text)
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimLeft(text, " \t\n\r") != text || strings.HasPrefix(text, "-") {
			return
		}
		neg, nnull, _ := partsDelta(fields, "-"+text)
		if null != nnull {
			t.Fatalf("%q %s: NULL %v, negated %v", text, u, null, nnull)
		}
		for _, p := range fields {
			if *partField(&td, p) != -*partField(&neg, p) {
				t.Fatalf("%q %s: %+v, negated %+v", text, u, td, neg)
			}
		}
	})
}
