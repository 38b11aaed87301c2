package sqlfront

import (
	"context"
	"strings"
	"testing"
)

// TestReadOnlySessionPreparedWrites checks that prepared point writes,
// which the fast path serves outside go-mysql-server, are refused with
// 1792 in a read-only session (SET SESSION TRANSACTION READ ONLY,
// tx_read_only) and in START TRANSACTION READ ONLY, and change nothing;
// tx_read_only and transaction_read_only are one setting.
func TestReadOnlySessionPreparedWrites(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE ro", "CREATE TABLE ro.t (id INT PRIMARY KEY, v INT)", "INSERT INTO ro.t VALUES (1, 1), (2, 2)")
	c := ts.conn("ro")
	ctx := context.Background()
	writes := []struct {
		q    string
		args []any
	}{
		{"UPDATE t SET v = ? WHERE id = ?", []any{10, 1}},
		{"UPDATE t SET v = v + 1 WHERE id = ?", []any{2}},
		{"DELETE FROM t WHERE id = ?", []any{2}},
		{"INSERT INTO t VALUES (?, ?)", []any{3, 3}},
	}
	// Learnt by the fast path first, in a read-write session.
	for _, w := range writes {
		if _, err := c.ExecContext(ctx, w.q, w.args...); err != nil {
			t.Fatalf("%s: %v", w.q, err)
		}
	}
	mustExec(t, c, "DELETE FROM t WHERE id = 3", "REPLACE INTO t VALUES (1, 1), (2, 2)")
	for _, mode := range [][2]string{
		{"SET SESSION TRANSACTION READ ONLY", "SET SESSION TRANSACTION READ WRITE"},
		{"SET tx_read_only = 1", "SET tx_read_only = 0"},
		// one setting under two names, either way round
		{"SET tx_read_only = 1", "SET SESSION TRANSACTION READ WRITE"},
		{"SET SESSION TRANSACTION READ ONLY", "SET tx_read_only = 0"},
		{"START TRANSACTION READ ONLY", "COMMIT"},
	} {
		mustExec(t, c, mode[0])
		for _, w := range writes {
			_, err := c.ExecContext(ctx, w.q, w.args...)
			if err == nil || !strings.Contains(err.Error(), "1792") {
				t.Errorf("%s, %s: %v, want error 1792", mode[0], w.q, err)
			}
		}
		if mode[0] != "START TRANSACTION READ ONLY" {
			expectRows(t, c, "SELECT @@tx_read_only, @@transaction_read_only", "1|1")
		}
		mustExec(t, c, mode[1])
		expectRows(t, c, "SELECT id, v FROM t ORDER BY id", "1|1", "2|2")
		expectRows(t, c, "SELECT @@tx_read_only, @@transaction_read_only", "0|0")
		if _, err := c.ExecContext(ctx, "UPDATE t SET v = v WHERE id = 1"); err != nil {
			t.Errorf("after %s: %v", mode[1], err)
		}
	}
}
