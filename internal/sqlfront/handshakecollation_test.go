package sqlfront

import (
	"database/sql"
	"testing"
)

// TestHandshakeCollation checks that the collation a client names in its
// handshake becomes the session's connection collation and character
// sets, as in MariaDB (go-sql-driver's collation parameter), and that
// utf8mb3's stays utf8mb4 (see connectionStart).
func TestHandshakeCollation(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	for _, c := range []struct{ collation, want string }{
		{"latin1_general_ci", "latin1_general_ci|latin1|latin1|latin1"},
		{"binary", "binary|binary|binary|binary"},
		{"utf8mb4_unicode_ci", "utf8mb4_unicode_ci|utf8mb4|utf8mb4|utf8mb4"},
		{"utf8mb4_general_ci", "utf8mb4_general_ci|utf8mb4|utf8mb4|utf8mb4"},
		{"utf8mb3_general_ci", "utf8mb4_general_ci|utf8mb4|utf8mb4|utf8mb4"},
	} {
		db, err := sql.Open("mysql", ts.dsn("root", "", "")+"&collation="+c.collation)
		if err != nil {
			t.Fatal(err)
		}
		got := joinLines(queryRows(t, db, "SELECT @@collation_connection, @@character_set_client, @@character_set_connection, @@character_set_results"))
		if got != c.want {
			t.Errorf("collation=%s: %s, want %s", c.collation, got, c.want)
		}
		db.Close()
	}
}
