package sqlfront

import (
	"context"
	gosql "database/sql"
	"slices"
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

// TestAccountLock: an account made or altered with ACCOUNT LOCK cannot log
// in (4151 after its password, as MariaDB) until ACCOUNT UNLOCK, however
// the statement is written (MariaDB's dump line for mariadb.sys, an
// executable comment, a comment first); a resource limit, which
// go-mysql-server would drop, is refused.
func TestAccountLock(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	root := ts.conn("")
	exec := func(db execer, q string) string {
		t.Helper()
		if _, err := db.ExecContext(context.Background(), q); err != nil {
			return err.Error()
		}
		return ""
	}
	loginErr := func(user, pw string) string {
		t.Helper()
		db, err := gosql.Open("mysql", ts.dsn(user, pw, ""))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		return exec(db, "SELECT 1")
	}
	const locked = "Error 4151 (HY000): Access denied, this account is locked"
	for _, q := range []string{
		"CREATE USER lk@'%' IDENTIFIED BY 'pw' ACCOUNT LOCK",
		"CREATE USER `mariadb.sys`@`localhost` ACCOUNT LOCK PASSWORD EXPIRE",
		"/*!40101 CREATE USER c1@'%' IDENTIFIED BY 'pw' ACCOUNT LOCK */",
		"/* made locked */ CREATE USER c2@'%' IDENTIFIED BY 'pw' ACCOUNT LOCK",
		"CREATE USER open1@'%' IDENTIFIED BY 'pw'",
	} {
		if e := exec(root, q); e != "" {
			t.Fatalf("%s: %s", q, e)
		}
	}
	for _, u := range []string{"lk", "c1", "c2"} {
		if e := loginErr(u, "pw"); e != locked {
			t.Errorf("%s: login %q, want %q", u, e, locked)
		}
	}
	if e := loginErr("lk", "wrong"); !strings.Contains(e, "1045") {
		t.Errorf("locked account, wrong password: %q, want 1045", e)
	}
	if e := loginErr("mariadb.sys", ""); e != locked {
		t.Errorf("mariadb.sys: %q", e)
	}
	expectRows(t, root, "SHOW CREATE USER `mariadb.sys`@`localhost`", "CREATE USER `mariadb.sys`@`localhost` ACCOUNT LOCK")
	expectRows(t, root, "SHOW CREATE USER lk", "CREATE USER `lk`@`%` IDENTIFIED BY PASSWORD '*D821809F681A40A6E379B50D0463EFAE20BDD122' ACCOUNT LOCK")

	for q, want := range map[string]string{
		"ALTER USER lk ACCOUNT UNLOCK":                     "",
		"ALTER USER open1@'%', c1 ACCOUNT LOCK":            "",
		"ALTER USER nobody ACCOUNT LOCK":                   "Error 1396 (HY000): Operation ALTER USER failed for 'nobody'@'%'",
		"ALTER USER IF EXISTS nobody ACCOUNT LOCK":         "",
		"CREATE USER lim@'%' WITH MAX_QUERIES_PER_HOUR 10": "Error 1235 (42000): This version of MariaDB doesn't yet support 'resource limits'",
	} {
		if e := exec(root, q); e != want {
			t.Errorf("%s: %q, want %q", q, e, want)
		}
	}
	if e := loginErr("lk", "pw"); e != "" {
		t.Errorf("lk after UNLOCK: %q", e)
	}
	if e := loginErr("open1", "pw"); e != locked {
		t.Errorf("open1 after LOCK: %q", e)
	}
	expectRows(t, root, "SELECT COUNT(*) FROM mysql.user WHERE user = 'lim'", "0")

	mustExec(t, root, "CREATE USER plain@'%' IDENTIFIED BY 'pw'")
	db, err := gosql.Open("mysql", ts.dsn("plain", "pw", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if e := exec(db, "ALTER USER lk ACCOUNT LOCK"); e != "Error 1227 (42000): Access denied; you need (at least one of) the CREATE USER privilege(s) for this operation" {
		t.Errorf("ALTER USER by an account without CREATE USER: %q", e)
	}
}

// TestRootPasswordChangedAtRestart: a server started again over the same
// store with another --root-password gives root that password, and root
// logs in with all its privileges, as one account (setupUsers replaces
// the stored account through replaceUser).
func TestRootPasswordChangedAtRestart(t *testing.T) {
	dir := t.TempDir()
	first := startTestServer(t, dir, Config{RootPassword: "one"})
	first.stop()
	second := startTestServer(t, dir, Config{RootPassword: "two"})
	db := second.open("")
	expectRows(t, db, "SELECT CURRENT_USER()", "root@localhost")
	mustExec(t, db, "CREATE DATABASE after_restart")
	expectRows(t, db, "SELECT COUNT(*) FROM mysql.user WHERE user = 'root'", "1")
	old, err := gosql.Open("mysql", second.dsn("root", "one", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	if err := old.Ping(); err == nil || !strings.Contains(err.Error(), "1045") {
		t.Errorf("the old password: %v, want 1045", err)
	}
}

// TestGrantStatementsOfMariaDBDumps: the account lines of mariadb-dump
// --system=users that go-mysql-server's parser lacks, with MariaDB's
// answers: GRANT ... IDENTIFIED BY PASSWORD makes a missing account with
// that password or gives an existing one the password; SET DEFAULT ROLE
// is 1960 for no account and 1959 for a role not granted; GRANT PROXY is
// taken with note 1235.
func TestGrantStatementsOfMariaDBDumps(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	root := ts.conn("")
	const pw1 = "*2B602296A79E0A8784ACC5C88D92E46588CCA3C3" // PASSWORD('pw1')
	const pw2 = "*D821809F681A40A6E379B50D0463EFAE20BDD122" // PASSWORD('pw')
	mustExec(t, root, "CREATE DATABASE acc",
		"GRANT USAGE ON *.* TO `nu`@`%` IDENTIFIED BY PASSWORD '"+pw1+"'")
	expectRows(t, root, "SHOW CREATE USER nu", "CREATE USER `nu`@`%` IDENTIFIED BY PASSWORD '"+pw1+"'")
	login := func(user, pw string) error {
		t.Helper()
		db, err := gosql.Open("mysql", ts.dsn(user, pw, ""))
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		return db.Ping()
	}
	if err := login("nu", "pw1"); err != nil {
		t.Fatalf("made by GRANT ... IDENTIFIED BY PASSWORD: %v", err)
	}
	mustExec(t, root, "GRANT SELECT ON `acc`.* TO `nu`@`%` IDENTIFIED BY PASSWORD '"+pw2+"' WITH GRANT OPTION")
	expectRows(t, root, "SHOW CREATE USER nu", "CREATE USER `nu`@`%` IDENTIFIED BY PASSWORD '"+pw2+"'")
	if err := login("nu", "pw"); err != nil {
		t.Fatalf("the password given by GRANT: %v", err)
	}
	grants := strings.Join(queryRows(t, root, "SHOW GRANTS FOR nu"), "\n")
	if !strings.Contains(grants, "GRANT SELECT ON `acc`.* TO `nu`@`%` WITH GRANT OPTION") {
		t.Errorf("SHOW GRANTS FOR nu:\n%s", grants)
	}

	errOf := func(q string) string {
		t.Helper()
		if _, err := root.ExecContext(context.Background(), q); err != nil {
			return err.Error()
		}
		return ""
	}
	mustExec(t, root, "CREATE ROLE rr")
	for _, c := range []struct{ q, want string }{
		{"SET DEFAULT ROLE NONE FOR 'nu'@'%'", ""},
		{"/*M!100005 SET DEFAULT ROLE NONE FOR 'nu'@'%' */", ""},
		{"SET DEFAULT ROLE NONE FOR nobody", "Error 1960 (0L000): The current user is invalid"},
		{"SET DEFAULT ROLE rr FOR nu", "Error 1959 (OP000): User `nu`@`%` has not been granted role `rr`"},
		{"GRANT rr TO nu", ""},
		{"SET DEFAULT ROLE 'rr' FOR 'nu'@'%'", ""},
		{"GRANT PROXY ON ''@'%' TO 'nu'@'%' WITH GRANT OPTION", ""},
	} {
		if got := errOf(c.q); got != c.want {
			t.Errorf("%s: %q, want %q", c.q, got, c.want)
		}
	}
	expectRows(t, root, "SHOW WARNINGS", "Note|1235|This version of MariaDB doesn't yet support 'PROXY privileges (not kept)'")
}

// TestRoleStatementsOfMariaDBDumps: the role lines of mariadb-dump
// --system=users. SET ROLE names a granted role (1959 otherwise) that
// CURRENT_ROLE() returns; CREATE ROLE ... WITH ADMIN grants the role to
// the grantee; GRANT ... TO CURRENT_USER() names the current account;
// EXECUTE IMMEDIATE runs the text its expression gives.
func TestRoleStatementsOfMariaDBDumps(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	root := ts.conn("")
	mustExec(t, root, "CREATE DATABASE rl", "CREATE TABLE rl.t (a INT)", "INSERT INTO rl.t VALUES (1)",
		"CREATE ROLE IF NOT EXISTS imp", "GRANT imp TO CURRENT_USER()", "SET ROLE imp",
		"/*M!100005 CREATE ROLE 'rdr' WITH ADMIN imp */", "GRANT SELECT ON rl.* TO rdr")
	expectRows(t, root, "SELECT CURRENT_ROLE()", "imp")
	// (go-mysql-server's SHOW GRANTS does not print the admin option)
	expectRows(t, root, "SELECT from_user, to_user, with_admin_option FROM mysql.role_edges WHERE to_user = 'imp'", "rdr|imp|Y")
	mustExec(t, root, "SET ROLE NONE")
	expectRows(t, root, "SELECT COALESCE(CURRENT_ROLE(), 'NONE')", "NONE")
	mustExec(t, root, "SELECT COALESCE(CURRENT_ROLE(),'NONE') into @current_role", "SET @r = 'imp'",
		"EXECUTE IMMEDIATE CONCAT('SET ROLE ', @r)")
	expectRows(t, root, "SELECT CURRENT_ROLE()", "imp")
	expectRows(t, root, "EXECUTE IMMEDIATE CONCAT('SELECT a + ', 1, ' FROM rl.t')", "2")
	mustExec(t, root, "/*M!100203 EXECUTE IMMEDIATE CONCAT('SET ROLE ', @current_role) */")
	expectRows(t, root, "SELECT CURRENT_ROLE()", "NULL")
	// A text that runs itself again is refused, as in MariaDB.
	mustExec(t, root, "SET @q = 'EXECUTE IMMEDIATE @q'")
	for _, q := range []string{"EXECUTE IMMEDIATE @q", "EXECUTE IMMEDIATE 'PREPARE s FROM ''SELECT 1'''"} {
		if _, err := root.ExecContext(context.Background(), q); err == nil ||
			err.Error() != "Error 1295 (HY000): This command is not supported in the prepared statement protocol yet" {
			t.Errorf("%s: %v", q, err)
		}
	}
	if _, err := root.ExecContext(context.Background(), "SET ROLE rdr"); err == nil ||
		err.Error() != "Error 1959 (OP000): User `root`@`localhost` has not been granted role `rdr`" {
		t.Errorf("SET ROLE of a role not granted: %v", err)
	}

	// A user given the role reads through it.
	mustExec(t, root, "CREATE USER ru IDENTIFIED BY 'pw'", "GRANT rdr TO ru", "SET DEFAULT ROLE rdr FOR ru", "DROP ROLE imp")
	db, err := gosql.Open("mysql", ts.dsn("ru", "pw", ""))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	expectRows(t, db, "SELECT a FROM rl.t", "1")
}

// TestShowGrantsMariaDBForm compares SHOW GRANTS with MariaDB 10.11's
// lines for the same statements (recorded with the mariadb client): a
// role without a host, the roles granted first and one per line, the
// password hash on the global line, ALL PRIVILEGES for a level's every
// privilege, the header naming the account. (MariaDB's SET DEFAULT ROLE
// line is left out: HandlerDB keeps no default role.) The lines load
// back: each is a statement HandlerDB runs.
func TestShowGrantsMariaDBForm(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	root := ts.conn("")
	mustExec(t, root, "CREATE DATABASE test", "CREATE TABLE test.cp (id INT PRIMARY KEY, a INT, b INT)",
		"CREATE USER 'hdb_u2'@'localhost' IDENTIFIED BY 'pw'",
		"GRANT SELECT, INSERT, UPDATE, DELETE ON test.* TO 'hdb_u2'@'localhost'",
		"GRANT ALL PRIVILEGES ON test.cp TO 'hdb_u2'@'localhost' WITH GRANT OPTION",
		"GRANT PROCESS, RELOAD ON *.* TO 'hdb_u2'@'localhost'",
		"CREATE ROLE hdb_r2", "CREATE ROLE hdb_r3", "GRANT SELECT ON test.* TO hdb_r3",
		"GRANT hdb_r2 TO 'hdb_u2'@'localhost'", "GRANT hdb_r3 TO 'hdb_u2'@'localhost'",
		"CREATE USER 'hdb_u3'@'%'", "GRANT ALL ON *.* TO 'hdb_u3'@'%' WITH GRANT OPTION")
	grants := func(q string) (string, []string) {
		t.Helper()
		rs, err := root.QueryContext(context.Background(), q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		cols, _ := rs.Columns()
		lines, err := scanStrings(rs)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return cols[0], lines
	}
	for _, c := range []struct {
		q, header string
		lines     []string
	}{
		{"SHOW GRANTS FOR 'hdb_u2'@'localhost'", "Grants for hdb_u2@localhost", []string{
			"GRANT `hdb_r2` TO `hdb_u2`@`localhost`",
			"GRANT `hdb_r3` TO `hdb_u2`@`localhost`",
			"GRANT RELOAD, PROCESS ON *.* TO `hdb_u2`@`localhost` IDENTIFIED BY PASSWORD '*D821809F681A40A6E379B50D0463EFAE20BDD122'",
			"GRANT SELECT, INSERT, UPDATE, DELETE ON `test`.* TO `hdb_u2`@`localhost`",
			"GRANT ALL PRIVILEGES ON `test`.`cp` TO `hdb_u2`@`localhost` WITH GRANT OPTION"}},
		{"SHOW GRANTS FOR hdb_r2", "Grants for hdb_r2", []string{"GRANT USAGE ON *.* TO `hdb_r2`"}},
		{"SHOW GRANTS FOR hdb_r3", "Grants for hdb_r3", []string{"GRANT USAGE ON *.* TO `hdb_r3`", "GRANT SELECT ON `test`.* TO `hdb_r3`"}},
		{"SHOW GRANTS FOR 'hdb_u3'@'%'", "Grants for hdb_u3@%", []string{"GRANT ALL PRIVILEGES ON *.* TO `hdb_u3`@`%` WITH GRANT OPTION"}},
	} {
		header, lines := grants(c.q)
		if header != c.header || !slices.Equal(lines, c.lines) {
			t.Errorf("%s:\n%s\n%s\nwant\n%s\n%s", c.q, header, strings.Join(lines, "\n"), c.header, strings.Join(c.lines, "\n"))
		}
	}
	// The lines make the account again (its privilege lines first: the
	// global one makes it, as in MariaDB, and a role is granted to an
	// account that exists).
	_, u2 := grants("SHOW GRANTS FOR 'hdb_u2'@'localhost'")
	mustExec(t, root, "DROP USER 'hdb_u2'@'localhost'")
	mustExec(t, root, u2[2:]...)
	mustExec(t, root, u2[:2]...)
	if _, again := grants("SHOW GRANTS FOR 'hdb_u2'@'localhost'"); !slices.Equal(again, u2) {
		t.Errorf("after loading its lines:\n%s\nwant\n%s", strings.Join(again, "\n"), strings.Join(u2, "\n"))
	}
}

// TestRolesSurviveRestart: a role is still a role after a restart
// (go-mysql-server's stored users do not say which accounts are roles;
// one came back as a locked account at '%'), for roles made and dropped
// by statements on any connection.
func TestRolesSurviveRestart(t *testing.T) {
	dir := t.TempDir()
	first := startTestServer(t, dir, Config{})
	db := first.open("")
	mustExec(t, db, "CREATE ROLE keep", "CREATE ROLE gone", "CREATE USER member@'%'", "GRANT keep TO member@'%'", "DROP ROLE gone",
		"CREATE DATABASE rsr", "GRANT SELECT ON rsr.* TO keep")
	first.stop()
	second := startTestServer(t, dir, Config{})
	db = second.open("")
	expectRows(t, db, "SHOW GRANTS FOR keep", "GRANT USAGE ON *.* TO `keep`", "GRANT SELECT ON `rsr`.* TO `keep`")
	expectRows(t, db, "SHOW GRANTS FOR member@'%'", "GRANT `keep` TO `member`@`%`", "GRANT USAGE ON *.* TO `member`@`%`")
	expectRows(t, db, "SELECT COUNT(*) FROM mysql.user WHERE user = 'gone'", "0")
}
