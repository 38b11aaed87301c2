package replica

import "testing"

// TestWildMatch: % and _ with the backslash escape, over the whole text.
func TestWildMatch(t *testing.T) {
	for _, c := range []struct {
		pattern, s string
		want       bool
	}{
		{"db.t", "db.t", true},
		{"db.t", "db.t1", false},
		{"db.t", "Db.t", false},
		{"db%.%", "db.t", true},
		{"db%.%", "db12.orders", true},
		{"db%.%", "xdb.t", false},
		{"db%.%", "db.", true},
		{"db_.t_", "db1.t2", true},
		{"db_.t_", "db.t2", false},
		{"db_.t_", "db12.t2", false},
		{"%", "", true},
		{"_", "", false},
		{"%.%x", "a.b.x", true},
		{"%a%b%c", "xxaxxbxxc", true},
		{"%a%b%c", "xxaxxcxxb", false},
		{`db\_1.t`, "db_1.t", true},
		{`db\_1.t`, "dbx1.t", false},
		{`d\%.t`, "d%.t", true},
		{`d\%.t`, "dx.t", false},
		{`a\\b.t`, `a\b.t`, true},
		{`ab\`, `ab\`, true},
		{"caf_.t", "café.t", true}, // _ is one character, é two bytes
		{"%_", "é", true},
	} {
		if got := wildMatch(c.pattern, c.s); got != c.want {
			t.Errorf("wildMatch(%q, %q) = %v, want %v", c.pattern, c.s, got, c.want)
		}
	}
}

// TestFilterRules: the database-level options first, then the table
// options in MySQL's order (do-table, ignore-table, wild-do, wild-ignore,
// and with none matched, ignored only if there are do options), for rows
// and for DDL.
func TestFilterRules(t *testing.T) {
	type check struct {
		db, table string
		want      bool
	}
	for _, c := range []struct {
		name   string
		f      filters
		checks []check
	}{
		{"none", filters{}, []check{{"a", "t", true}}},
		{"do db", filters{DoDBs: []string{"a"}}, []check{{"a", "t", true}, {"b", "t", false}, {"A", "t", false}}},
		{"do db wins over ignore db", filters{DoDBs: []string{"a"}, IgnoreDBs: []string{"a", "b"}}, []check{{"a", "t", true}, {"b", "t", false}, {"c", "t", false}}},
		{"ignore db", filters{IgnoreDBs: []string{"a"}}, []check{{"a", "t", false}, {"b", "t", true}}},
		{"do table", filters{DoTables: []string{"a.t"}}, []check{{"a", "t", true}, {"a", "u", false}, {"b", "t", false}}},
		{"ignore table", filters{IgnoreTables: []string{"a.t"}}, []check{{"a", "t", false}, {"a", "u", true}}},
		{"do table before ignore", filters{DoTables: []string{"a.t"}, IgnoreTables: []string{"a.t"}}, []check{{"a", "t", true}, {"a", "u", false}}},
		{"ignore table before wild do", filters{IgnoreTables: []string{"a.t"}, WildDoTables: []string{"a.%"}}, []check{{"a", "t", false}, {"a", "u", true}, {"b", "u", false}}},
		{"do table before wild ignore", filters{DoTables: []string{"a.t"}, WildIgnoreTables: []string{"a.%"}}, []check{{"a", "t", true}, {"a", "u", false}}},
		{"wild do before wild ignore", filters{WildDoTables: []string{"a.t%"}, WildIgnoreTables: []string{"a.%"}}, []check{{"a", "t1", true}, {"a", "u", false}, {"b", "u", false}}},
		{"wild ignore only", filters{WildIgnoreTables: []string{"a.%"}}, []check{{"a", "t", false}, {"b", "t", true}}},
		{"db rules before table rules", filters{IgnoreDBs: []string{"a"}, DoTables: []string{"a.t", "b.t"}}, []check{{"a", "t", false}, {"b", "t", true}, {"b", "u", false}}},
	} {
		for _, k := range c.checks {
			if got := c.f.rowOK(k.db, k.table); got != k.want {
				t.Errorf("%s: row of %s.%s applied %v, want %v", c.name, k.db, k.table, got, k.want)
			}
			// The same table's CREATE TABLE, run in its database, is
			// filtered as its rows are.
			q := "CREATE TABLE `" + k.table + "` (k INT PRIMARY KEY)"
			if got := c.f.statementOK(k.db, q); got != k.want {
				t.Errorf("%s: %s in %s applied %v, want %v", c.name, q, k.db, got, k.want)
			}
		}
	}

	f := filters{DoDBs: []string{"a"}, IgnoreTables: []string{"a.x", "b.y"}}
	for _, c := range []struct {
		db, q string
		want  bool
	}{
		{"b", "CREATE TABLE a.t (k INT PRIMARY KEY)", false}, // the default database decides
		{"", "CREATE TABLE a.t (k INT PRIMARY KEY)", true},   // no default database: applied
		{"a", "DROP TABLE x", false},
		{"a", "DROP TABLE IF EXISTS t, x", false}, // the first table a rule matches decides
		{"a", "DROP TABLE IF EXISTS t, u", true},  // none matched, no do-table options: applied
		{"a", "ALTER TABLE x ADD COLUMN v INT", false},
		{"a", "RENAME TABLE t TO x", false},
		{"a", "TRUNCATE TABLE t", true},
		{"a", "CREATE INDEX i ON x (k)", false},
		{"a", "CREATE DATABASE c", false}, // by the database it names
		{"", "CREATE DATABASE a", true},
		{"a", "this is not SQL", true}, // tables unknown: the database rule only
	} {
		if got := f.statementOK(c.db, c.q); got != c.want {
			t.Errorf("%q in %q: applied %v, want %v", c.q, c.db, got, c.want)
		}
	}
	// Database statements without database options: the wildcard
	// patterns' database part.
	w := filters{WildDoTables: []string{"shop%.%"}, WildIgnoreTables: []string{"tmp%.%"}}
	for db, want := range map[string]bool{"shop1": true, "tmp": false, "other": false} {
		if got := w.dbStatementOK(db); got != want {
			t.Errorf("wild do shop%%.%%: CREATE DATABASE %s applied %v, want %v", db, got, want)
		}
	}
	if w := (filters{WildIgnoreTables: []string{"tmp%.%"}}); !w.dbStatementOK("other") || w.dbStatementOK("tmp1") {
		t.Errorf("wild ignore tmp%%.%%: CREATE DATABASE other should apply and tmp1 not")
	}
	if w := (filters{WildDoTables: []string{"shop%.orders"}}); w.dbStatementOK("shop1") {
		t.Errorf("wild do shop%%.orders: CREATE DATABASE shop1 applied")
	}
}

// TestRewriteRule: the first pair whose from-name matches renames; the
// others names are kept; the status text lists the pairs.
func TestRewriteRule(t *testing.T) {
	f := filters{RewriteDBs: [][2]string{{"a", "b"}, {"a", "c"}, {"b", "d"}}}
	for in, want := range map[string]string{"a": "b", "b": "d", "A": "A", "": "", "c": "c"} {
		if got := f.rewriteDB(in); got != want {
			t.Errorf("rewriteDB(%q) = %q, want %q", in, got, want)
		}
	}
	if got := rewriteList(f.RewriteDBs); got != "(a,b),(a,c),(b,d)" {
		t.Errorf("rewriteList: %q", got)
	}
}
