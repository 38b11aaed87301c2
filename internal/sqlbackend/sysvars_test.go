package sqlbackend

import "testing"

// TestSysVarDefaults checks the global variables installSysVars gives
// MariaDB's defaults, read before any statement sets them (this package's
// tests set none of them).
func TestSysVarDefaults(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	for q, want := range map[string]string{
		"SELECT @@global.local_infile":             "1",
		"SELECT @@global.innodb_lock_wait_timeout": "50",
	} {
		got, err := b.Query(ctx, q)
		if err != nil || len(got) != 1 || got[0] != want {
			t.Errorf("%s: %v %v, want %s", q, got, err, want)
		}
	}
}
