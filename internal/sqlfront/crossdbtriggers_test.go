package sqlfront

import "testing"

// TestTriggersFromAnotherDatabase: a write to a table with triggers made
// while another database (or none) is selected fires them on the tables
// they name in their own database, a procedure called so (or by such a
// trigger) runs in its own database, and information_schema.TRIGGERS reads
// from any database (mariadb-dump asks it for each table it dumps).
// go-mysql-server bound the trigger in the current database: the write
// failed with "Table 'other.t' doesn't exist".
func TestTriggersFromAnotherDatabase(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	ta := ts.conn("")
	mustExec(t, ta, "CREATE DATABASE ta", "CREATE DATABASE other", "USE ta",
		"CREATE TABLE t (a INT PRIMARY KEY, b INT)", "CREATE TABLE log (a INT, what VARCHAR(10))",
		"CREATE TABLE counts (n INT)", "INSERT INTO counts VALUES (0)",
		"CREATE PROCEDURE bump() UPDATE counts SET n = n + 1",
		"CREATE TRIGGER ins AFTER INSERT ON t FOR EACH ROW BEGIN INSERT INTO log VALUES (NEW.a, 'ins'); CALL bump(); END",
		"CREATE TRIGGER upd BEFORE UPDATE ON t FOR EACH ROW SET NEW.b = (SELECT n FROM counts)")
	for _, db := range []string{"other", ""} {
		c := ts.conn(db)
		mustExec(t, c, "INSERT INTO ta.t VALUES (1, 0)", "UPDATE ta.t SET b = 5 WHERE a = 1", "DELETE FROM ta.t", "CALL ta.bump()")
	}
	expectRows(t, ta, "SELECT a, what FROM log ORDER BY a, what", "1|ins", "1|ins")
	expectRows(t, ta, "SELECT n FROM counts", "4")
	other := ts.conn("other")
	expectRows(t, other, "SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE EVENT_OBJECT_SCHEMA = DATABASE()")
	expectRows(t, other, "SELECT TRIGGER_NAME, EVENT_OBJECT_TABLE FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'ta' ORDER BY 1", "ins|t", "upd|t")
	// In its own database a trigger reads as written.
	expectRows(t, ta, "SELECT ACTION_STATEMENT FROM information_schema.TRIGGERS WHERE TRIGGER_NAME = 'upd'", "SET NEW.b = (SELECT n FROM counts)")
}
