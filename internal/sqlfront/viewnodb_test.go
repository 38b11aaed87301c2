package sqlfront

import (
	"strings"
	"testing"
)

// TestViewWithoutDatabase: with no database selected, a statement whose
// every table is qualified reads a view (go-mysql-server asked for a
// current database to bind one: 1046), the session still has no
// database after it, and a statement naming an unqualified table is still
// 1046 — over both text paths (one statement a packet, and several).
func TestViewWithoutDatabase(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE vw", "CREATE TABLE vw.item (id INT PRIMARY KEY, price INT)",
		"INSERT INTO vw.item VALUES (1, 5), (2, 500)", "CREATE VIEW vw.cheap AS SELECT id, price FROM vw.item WHERE price < 100")
	for _, multi := range []string{"", "&multiStatements=true"} {
		db, err := openPool(ts.dsn("root", "", "") + multi)
		if err != nil {
			t.Fatal(err)
		}
		c, err := db.Conn(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		expectRows(t, c, "SELECT id, price FROM vw.cheap", "1|5")
		expectRows(t, c, "SELECT c.id, i.price FROM vw.cheap c JOIN vw.item i ON i.id = c.id", "1|5")
		expectRows(t, c, "SELECT DATABASE()", "NULL")
		if _, err := c.ExecContext(t.Context(), "SELECT * FROM vw.cheap, item"); err == nil || !strings.Contains(err.Error(), "1046") {
			t.Errorf("multi %q: an unqualified table with no database: %v, want 1046", multi, err)
		}
		c.Close()
		db.Close()
	}
}

// TestQualifiedFunctionCall: db.f(...) runs db's f whatever the current
// database: go-mysql-server looked the name up in the current one, so it
// ran another database's f of that name (a silent wrong answer) or
// none (1305).
func TestQualifiedFunctionCall(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	mustExec(t, ts.open(""), "CREATE DATABASE fa", "CREATE DATABASE fb",
		"CREATE FUNCTION fa.scale(x INT) RETURNS INT DETERMINISTIC RETURN x * 2",
		"CREATE FUNCTION fb.scale(x INT) RETURNS INT DETERMINISTIC RETURN x * 3")
	for _, db := range []string{"", "fa", "fb"} {
		c := ts.conn(db)
		expectRows(t, c, "SELECT fa.scale(5), fb.scale(5)", "10|15")
		if _, err := c.ExecContext(t.Context(), "SELECT fa.nothere(1)"); err == nil || !strings.Contains(err.Error(), "1305") {
			t.Errorf("db %q: a missing qualified function: %v, want 1305", db, err)
		}
	}
	expectRows(t, ts.conn("fb"), "SELECT scale(5)", "15")
}
