package sqlfront

import (
	"context"
	"strings"
	"testing"
)

// TestViewTextAcrossDatabases: a view's SELECT is printed with every
// table and column named with its database when it is shown from another
// database (and the view's name too) or when it reads another database's
// tables, and always in information_schema.VIEWS, whose text keeps the
// FROM list of several tables out of parentheses; a view's columns are
// named through the view alone. The expected texts are MariaDB 10.11's
// for the same statements.
func TestViewTextAcrossDatabases(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	db := ts.open("")
	mustExec(t, db, "CREATE DATABASE vh", "CREATE TABLE vh.t (id INT PRIMARY KEY, a INT)",
		"CREATE VIEW vh.plain AS SELECT id, a + 1 AS b FROM vh.t WHERE a > 0",
		"CREATE DATABASE vh2", "CREATE TABLE vh2.u (k INT, id INT)",
		"CREATE VIEW vh.cross_db AS SELECT t.id, u.k, vh.plain.b FROM vh.t JOIN vh2.u ON u.id = t.id, vh.plain")
	c, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	head := "CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW "
	crossBody := "select `vh`.`t`.`id` AS `id`,`vh2`.`u`.`k` AS `k`,`plain`.`b` AS `b` from ((`vh`.`t` join `vh2`.`u` on(`vh2`.`u`.`id` = `vh`.`t`.`id`)) join `vh`.`plain`)"
	for _, step := range []struct{ use, show, want string }{
		{"vh", "SHOW CREATE VIEW plain", head + "`plain` AS select `t`.`id` AS `id`,`t`.`a` + 1 AS `b` from `t` where `t`.`a` > 0"},
		{"vh", "SHOW CREATE VIEW cross_db", head + "`cross_db` AS " + crossBody},
		{"vh2", "SHOW CREATE VIEW vh.plain", head + "`vh`.`plain` AS select `vh`.`t`.`id` AS `id`,`vh`.`t`.`a` + 1 AS `b` from `vh`.`t` where `vh`.`t`.`a` > 0"},
		{"vh2", "SHOW CREATE VIEW vh.cross_db", head + "`vh`.`cross_db` AS " + crossBody},
	} {
		if _, err := c.ExecContext(context.Background(), "USE "+step.use); err != nil {
			t.Fatal(err)
		}
		var name, text, cs, coll string
		if err := c.QueryRowContext(context.Background(), step.show).Scan(&name, &text, &cs, &coll); err != nil {
			t.Fatalf("%s: %v", step.show, err)
		}
		if text != step.want {
			t.Errorf("USE %s; %s:\n got %s\nwant %s", step.use, step.show, text, step.want)
		}
	}
	expectRows(t, db, "SELECT VIEW_DEFINITION FROM information_schema.VIEWS WHERE TABLE_NAME = 'cross_db'",
		"select `vh`.`t`.`id` AS `id`,`vh2`.`u`.`k` AS `k`,`plain`.`b` AS `b` from (`vh`.`t` join `vh2`.`u` on(`vh2`.`u`.`id` = `vh`.`t`.`id`)) join `vh`.`plain`")
}

// TestViewHeads: a view keeps the account that created it as its definer
// (go-mysql-server named whoever read information_schema.VIEWS), SHOW
// CREATE VIEW prints MariaDB's head (ALGORITHM, DEFINER, SQL SECURITY)
// and check option, and information_schema.VIEWS has MariaDB's
// ALGORITHM column, SECURITY_TYPE in capitals and the CHECK_OPTION. The
// account reading them needs SELECT and SHOW VIEW, not CREATE VIEW, and
// sees its own grants.
func TestViewHeads(t *testing.T) {
	ts := startTestServer(t, "", Config{})
	root := ts.open("")
	mustExec(t, root, "CREATE DATABASE vh", "CREATE TABLE vh.t (id INT PRIMARY KEY, a INT)",
		"CREATE VIEW vh.plain AS SELECT id, a + 1 AS b FROM vh.t WHERE a > 0",
		"CREATE ALGORITHM=MERGE SQL SECURITY invoker VIEW vh.inv AS SELECT id FROM vh.t WITH CHECK OPTION",
		"CREATE DEFINER=`someone`@`%` VIEW vh.other AS SELECT 1 AS one",
		"CREATE USER 'reader'@'%' IDENTIFIED BY 'pw'", "GRANT SELECT, SHOW VIEW ON vh.* TO 'reader'@'%'")
	reader, err := openPool(ts.dsn("reader", "pw", "vh"))
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	for _, db := range []execer{root, reader} {
		expectRows(t, db, "SELECT TABLE_NAME, DEFINER, SECURITY_TYPE, CHECK_OPTION, VIEW_DEFINITION, ALGORITHM FROM information_schema.VIEWS WHERE TABLE_SCHEMA = 'vh' ORDER BY TABLE_NAME",
			"inv|root@localhost|INVOKER|CASCADED|select `vh`.`t`.`id` AS `id` from `vh`.`t`|MERGE",
			"other|someone@%|DEFINER|NONE|select 1 AS `one`|UNDEFINED",
			"plain|root@localhost|DEFINER|NONE|select `vh`.`t`.`id` AS `id`,`vh`.`t`.`a` + 1 AS `b` from `vh`.`t` where `vh`.`t`.`a` > 0|UNDEFINED")
	}
	for q, want := range map[string]string{
		"SHOW CREATE VIEW vh.plain": "CREATE ALGORITHM=UNDEFINED DEFINER=`root`@`localhost` SQL SECURITY DEFINER VIEW `plain` AS select `t`.`id` AS `id`,`t`.`a` + 1 AS `b` from `t` where `t`.`a` > 0",
		"SHOW CREATE VIEW vh.inv":   "CREATE ALGORITHM=MERGE DEFINER=`root`@`localhost` SQL SECURITY INVOKER VIEW `inv` AS select `t`.`id` AS `id` from `t` WITH CASCADED CHECK OPTION",
		"SHOW CREATE TABLE other":   "CREATE ALGORITHM=UNDEFINED DEFINER=`someone`@`%` SQL SECURITY DEFINER VIEW `other` AS select 1 AS `one`",
	} {
		rows := queryRows(t, reader, q)
		if len(rows) != 1 || strings.Split(rows[0], "|")[1] != want {
			t.Errorf("%s:\n got %q\nwant %q", q, rows, want)
		}
	}
	// Reading a view asks for SELECT, not CREATE VIEW (go-mysql-server
	// bound the stored CREATE VIEW with its checks); making one still
	// asks for CREATE VIEW, whichever way it is sent.
	mustExec(t, root, "INSERT INTO vh.t VALUES (1, 5)")
	expectRows(t, reader, "SELECT id, b FROM vh.plain", "1|6")
	for _, q := range []string{"CREATE VIEW vh.mine AS SELECT 1", "PREPARE s FROM 'CREATE VIEW vh.mine AS SELECT 1'",
		"/*!50001 CREATE ALGORITHM=UNDEFINED */ /*!50013 SQL SECURITY DEFINER */ /*!50001 VIEW vh.mine AS SELECT 1 */",
		"/* a comment */ CREATE VIEW vh.mine AS SELECT 1"} {
		if _, err := reader.Exec(q); err == nil {
			t.Errorf("%s: no error for an account without CREATE VIEW", q)
		}
	}
	rc, err := reader.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if _, err := rc.ExecContext(context.Background(), "PREPARE s FROM 'CREATE VIEW vh.mine AS SELECT 1'"); err == nil {
		if _, err := rc.ExecContext(context.Background(), "EXECUTE s"); err == nil {
			t.Error("EXECUTE of a prepared CREATE VIEW: no error for an account without CREATE VIEW")
		}
	}
	if _, err := reader.Prepare("CREATE VIEW vh.mine AS SELECT ?"); err == nil {
		t.Error("COM_STMT_PREPARE of CREATE VIEW: no error for an account without CREATE VIEW")
	}
	expectRows(t, root, "SELECT COUNT(*) FROM information_schema.VIEWS WHERE TABLE_NAME = 'mine'", "0")

	// SHOW GRANTS of one's own account asks for no privilege (it was
	// 1044, access denied to mysql); another account's still does.
	for _, q := range []string{"SHOW GRANTS", "SHOW GRANTS FOR CURRENT_USER()", "SHOW GRANTS FOR CURRENT_USER"} {
		expectRows(t, reader, q, "GRANT USAGE ON *.* TO `reader`@`%` IDENTIFIED BY PASSWORD '*D821809F681A40A6E379B50D0463EFAE20BDD122'",
			"GRANT SELECT, SHOW VIEW ON `vh`.* TO `reader`@`%`")
	}
	if _, err := queryStrings(reader, "SHOW GRANTS FOR 'root'@'localhost'"); err == nil || !strings.Contains(err.Error(), "1044") {
		t.Errorf("SHOW GRANTS of another account: %v, want 1044", err)
	}
}
