package sqlfront

import (
	"strings"
	"testing"
)

// TestEventsKeptNotRun: events survive a restart, and since no scheduler
// runs them @@event_scheduler is DISABLED and turning it on is refused
// with 1290 (MariaDB's answer under --event-scheduler=DISABLED), where
// go-mysql-server said ON and ran nothing.
func TestEventsKeptNotRun(t *testing.T) {
	dir := t.TempDir()
	ts := startTestServer(t, dir, Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE ev", "CREATE TABLE ev.t (id INT PRIMARY KEY)",
		"CREATE EVENT ev.tick ON SCHEDULE EVERY 1 SECOND DO INSERT INTO ev.t VALUES (1)")
	expectRows(t, db, "SELECT @@event_scheduler", "DISABLED")
	for _, v := range []string{"ON", "OFF"} {
		if _, err := db.Exec("SET GLOBAL event_scheduler = " + v); err == nil || !strings.Contains(err.Error(), "1290") {
			t.Errorf("SET GLOBAL event_scheduler = %s: %v, want 1290", v, err)
		}
	}
	ts.stop()
	ts = startTestServer(t, dir, Config{})
	db = ts.open("")
	expectRows(t, db, "SELECT EVENT_NAME, EVENT_DEFINITION, STATUS FROM information_schema.EVENTS WHERE EVENT_SCHEMA = 'ev'",
		"tick|INSERT INTO ev.t VALUES (1)|ENABLED")
	expectRows(t, db, "SELECT COUNT(*) FROM ev.t", "0")
}
