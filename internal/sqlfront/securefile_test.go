package sqlfront

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// secure_file_priv is never empty: by default the engine directory's
// "files", created at start, and files outside it cannot be read.
func TestSecureFilePrivDefault(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	var dir string
	if err := db.QueryRow("SELECT @@secure_file_priv").Scan(&dir); err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(ts.dir, "files"); dir != want {
		t.Fatalf("secure_file_priv %q, want %q", dir, want)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		t.Fatalf("%s: %v", dir, err)
	}
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("s3cret"), 0o644); err != nil {
		t.Fatal(err)
	}
	var got sql.NullString
	if err := db.QueryRow("SELECT LOAD_FILE(?)", outside).Scan(&got); err == nil && got.Valid {
		t.Fatalf("LOAD_FILE read a file outside secure_file_priv: %q", got.String)
	}
}
