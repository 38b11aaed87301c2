package sqlfront

import (
	"context"
	"strings"
	"testing"
)

// TestPreparedDo: DO prepared (as go-sql-driver prepares a statement with
// arguments) runs its expressions and answers OK with no columns; its
// errors are the statement's.
func TestPreparedDo(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE pd", "CREATE TABLE pd.t (id INT PRIMARY KEY)")
	c := ts.conn("pd")
	ctx := context.Background()
	if _, err := c.ExecContext(ctx, "DO GET_LOCK(?, 0)", "pd-lock"); err != nil {
		t.Fatal(err)
	}
	expectRows(t, db, "SELECT IS_USED_LOCK('pd-lock') IS NOT NULL", "1")
	res, err := c.ExecContext(ctx, "DO RELEASE_LOCK(?), ? + 1", "pd-lock", 2)
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := res.RowsAffected(); n != 0 {
		t.Errorf("DO affected %d rows", n)
	}
	expectRows(t, db, "SELECT IS_USED_LOCK('pd-lock') IS NULL", "1")
	rows, err := c.QueryContext(ctx, "DO ?", 1)
	if err != nil {
		t.Fatal(err)
	}
	if cols, _ := rows.Columns(); len(cols) != 0 || rows.Next() {
		t.Errorf("DO answered columns %v or rows", cols)
	}
	rows.Close()
	if _, err := c.ExecContext(ctx, "DO (SELECT id FROM nope WHERE id = ?)", 1); err == nil || !strings.Contains(err.Error(), "1146") {
		t.Errorf("DO of a missing table: %v, want 1146", err)
	}
}
