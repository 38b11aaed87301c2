package sqlfront

import (
	"context"
	gosql "database/sql"
	"strings"
	"testing"
)

// TestAccountsAsMariaDBDumpsThem checks the account statements that
// mariadb-dump --system=users reads and writes, with MariaDB 10.11's
// answers (recorded on it): SHOW CREATE USER prints the password as
// IDENTIFIED BY PASSWORD '<hash>', and CREATE USER takes that form back,
// so an account dropped and made again from that line logs in with its
// old password; 1396, 1133 and 1142 as there. root is root@localhost, as
// in MariaDB, so a MariaDB dump's CREATE USER root@localhost is 1396 and
// leaves root its privileges (root@127.0.0.1 was shadowed by the new
// account for loopback logins).
func TestAccountsAsMariaDBDumpsThem(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	root := ts.conn("")
	const hash = "*2B602296A79E0A8784ACC5C88D92E46588CCA3C3" // PASSWORD('pw1')
	line := "CREATE USER `gu`@`%` IDENTIFIED BY PASSWORD '" + hash + "'"
	mustExec(t, root, "CREATE USER 'gu'@'%' IDENTIFIED BY PASSWORD '"+hash+"'", "CREATE USER nopw@localhost",
		"CREATE DATABASE acc", "CREATE TABLE acc.t (a INT)", "GRANT SELECT ON acc.t TO 'gu'@'%'")
	expectRows(t, root, "SHOW CREATE USER 'gu'@'%'", line)
	expectRows(t, root, "SHOW CREATE USER gu", line)
	expectRows(t, root, "SHOW CREATE USER `nopw`@`localhost`", "CREATE USER `nopw`@`localhost`")
	expectRows(t, root, "SHOW CREATE USER CURRENT_USER", "CREATE USER `root`@`localhost`")
	rs, err := root.QueryContext(context.Background(), "SHOW CREATE USER gu")
	if err != nil {
		t.Fatal(err)
	}
	if cols, _ := rs.Columns(); len(cols) != 1 || cols[0] != "CREATE USER for gu@%" {
		t.Errorf("columns %q, want [CREATE USER for gu@%%]", cols)
	}
	rs.Close()

	errOf := func(db execer, q string) string {
		t.Helper()
		_, err := db.ExecContext(context.Background(), q)
		if err == nil {
			return ""
		}
		return err.Error()
	}
	for q, want := range map[string]string{
		"CREATE USER gu":                 "Error 1396 (HY000): Operation CREATE USER failed for 'gu'@'%'",
		"CREATE USER root@localhost":     "Error 1396 (HY000): Operation CREATE USER failed for 'root'@'localhost'",
		"DROP USER nobody":               "Error 1396 (HY000): Operation DROP USER failed for 'nobody'@'%'",
		"SHOW CREATE USER nobody":        "Error 1133 (28000): Can't find any matching row in the user table",
		"SHOW CREATE USER nobody@'%'":    "Error 1133 (28000): Can't find any matching row in the user table",
		"CREATE TABLE acc.after (a INT)": "",
	} {
		if got := errOf(root, q); got != want {
			t.Errorf("%s: got %q, want %q", q, got, want)
		}
	}

	login := func(user, pw string) *gosql.DB {
		t.Helper()
		db, err := gosql.Open("mysql", ts.dsn(user, pw, ""))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	gu := login("gu", "pw1")
	expectRows(t, gu, "SELECT CURRENT_USER()", "gu@%")
	expectRows(t, gu, "SHOW CREATE USER CURRENT_USER()", line)
	if got := errOf(gu, "SHOW CREATE USER root@localhost"); !strings.Contains(got, "Error 1142 (42000): SELECT command denied to user 'gu'@'127.0.0.1' for table `mysql`.`user`") {
		t.Errorf("another account's SHOW CREATE USER: %q", got)
	}

	// The line SHOW CREATE USER printed makes the account again.
	mustExec(t, root, "DROP USER gu", line, "GRANT SELECT ON acc.t TO 'gu'@'%'")
	expectRows(t, root, "SHOW CREATE USER gu", line)
	expectRows(t, login("gu", "pw1"), "SELECT COUNT(*) FROM acc.t", "0")
	if _, err := login("gu", "wrong").Exec("SELECT 1"); err == nil || !strings.Contains(err.Error(), "1045") {
		t.Errorf("wrong password: %v", err)
	}
	mustExec(t, root, "ALTER USER gu IDENTIFIED BY PASSWORD '*0000000000000000000000000000000000000000'")
	expectRows(t, root, "SHOW CREATE USER gu", "CREATE USER `gu`@`%` IDENTIFIED BY PASSWORD '*0000000000000000000000000000000000000000'")
}
