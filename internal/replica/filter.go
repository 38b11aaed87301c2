package replica

import (
	"strings"
	"unicode/utf8"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// Replication filters (CHANGE REPLICATION FILTER), applied with MySQL's
// rules (the reference manual's "How Servers Evaluate Replication
// Filtering Rules"):
//
//   - Rows: the database-level options first, on the database of the
//     table a rows event changes (dbOK); then, if the database passes, the
//     table-level options (tablesOK): a table named by REPLICATE_DO_TABLE
//     is applied, one named by REPLICATE_IGNORE_TABLE is not, then the
//     same with the wildcard patterns of REPLICATE_WILD_DO_TABLE and
//     REPLICATE_WILD_IGNORE_TABLE; a table that no option matches is
//     applied unless there are do-table options of either kind.
//   - Statements (the primary's DDL comes as query events): the
//     database-level options on the statement's default database, as MySQL
//     does for every statement event, so that `USE a; CREATE TABLE b.t` is
//     filtered as a statement of a (MySQL's well-known cross-database
//     caveat); a statement without a default database passes them. Then
//     the table-level options on the tables the statement names
//     (ddlTables: CREATE/ALTER/DROP/RENAME/TRUNCATE TABLE, CREATE/DROP
//     INDEX, with unqualified names in the default database): the first
//     table that an option matches decides, as for rows. A statement whose
//     tables the parser cannot read passes the table-level options.
//     CREATE/ALTER/DROP DATABASE is checked on the database it names: with
//     database-level options by those, without them by the database part
//     of the wildcard table patterns (dbStatementOK).
//
// REPLICATE_REWRITE_DB (RewriteDBs, from-to pairs) renames a database of
// the primary before any of those rules are asked (rewriteDB): the
// database of a rows event's table, and the default database of a
// statement, which is then run in the new one. As in MySQL, a statement's
// qualified names and the database CREATE/ALTER/DROP DATABASE names are
// not rewritten. The first pair whose from-name matches applies. The
// initial copy creates a rewritten database's tables, and loads their
// rows, in the new database.
//
// Names compare as the engine holds them, case-sensitively (MySQL with
// lower_case_table_names=0). A wildcard pattern matches the whole
// "db.table" text: % is any run of characters, _ any one character, and
// a backslash makes the next character literal.
//
// A filters value is not changed once a stream uses it (CHANGE
// REPLICATION FILTER is refused while replication runs, and a new value
// replaces the old), so its methods need no lock.
type filters struct {
	DoDBs            []string    `json:"do_dbs,omitempty"`
	IgnoreDBs        []string    `json:"ignore_dbs,omitempty"`
	DoTables         []string    `json:"do_tables,omitempty"` // "db.table"
	IgnoreTables     []string    `json:"ignore_tables,omitempty"`
	WildDoTables     []string    `json:"wild_do_tables,omitempty"` // "db_pattern.table_pattern"
	WildIgnoreTables []string    `json:"wild_ignore_tables,omitempty"`
	RewriteDBs       [][2]string `json:"rewrite_dbs,omitempty"` // {from, to}
}

// rewriteDB is db as REPLICATE_REWRITE_DB renames it.
func (f *filters) rewriteDB(db string) string {
	for _, p := range f.RewriteDBs {
		if p[0] == db {
			return p[1]
		}
	}
	return db
}

// rewriteList is REPLICATE_REWRITE_DB as SHOW REPLICA STATUS prints it:
// (from,to) pairs separated by commas.
func rewriteList(pairs [][2]string) string {
	var b strings.Builder
	for i, p := range pairs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("(" + p[0] + "," + p[1] + ")")
	}
	return b.String()
}

// tableName is a table a filter is asked about.
type tableName struct{ db, name string }

// dbOK applies the database-level options to db ("" for no database,
// which passes).
func (f *filters) dbOK(db string) bool {
	if db == "" {
		return true
	}
	if len(f.DoDBs) > 0 {
		return contains(f.DoDBs, db)
	}
	return !contains(f.IgnoreDBs, db)
}

// hasTableRules reports whether any table-level option is set.
func (f *filters) hasTableRules() bool {
	return len(f.DoTables)+len(f.IgnoreTables)+len(f.WildDoTables)+len(f.WildIgnoreTables) > 0
}

// tablesOK applies the table-level options to the tables of one event:
// the first table an option matches decides; with none matched, the
// event applies unless there are do-table options.
func (f *filters) tablesOK(tables []tableName) bool {
	if !f.hasTableRules() {
		return true
	}
	for _, t := range tables {
		key := t.db + "." + t.name
		switch {
		case contains(f.DoTables, key):
			return true
		case contains(f.IgnoreTables, key):
			return false
		case matchesAny(f.WildDoTables, key):
			return true
		case matchesAny(f.WildIgnoreTables, key):
			return false
		}
	}
	return len(f.DoTables) == 0 && len(f.WildDoTables) == 0
}

// rowOK reports whether a rows event on db.table applies.
func (f *filters) rowOK(db, table string) bool {
	return f.dbOK(db) && f.tablesOK([]tableName{{db, table}})
}

// dbStatementOK applies the filters to CREATE/ALTER/DROP DATABASE db:
// the database-level options if there are any, else the wildcard table
// patterns matched against "db." (so 'shop%.%' takes CREATE DATABASE
// shop1, and 'shop%.orders' does not).
func (f *filters) dbStatementOK(db string) bool {
	if len(f.DoDBs)+len(f.IgnoreDBs) > 0 {
		return f.dbOK(db)
	}
	key := db + "."
	switch {
	case matchesAny(f.WildDoTables, key):
		return true
	case matchesAny(f.WildIgnoreTables, key):
		return false
	}
	return len(f.WildDoTables) == 0
}

// statementOK reports whether a statement of the primary (DDL), run in
// the default database db, applies.
func (f *filters) statementOK(db, query string) bool {
	if !f.dbOK(db) {
		return false
	}
	if len(f.DoDBs)+len(f.IgnoreDBs) == 0 && !f.hasTableRules() {
		return true
	}
	named, isDB, tables := ddlTables(db, query)
	if isDB {
		return f.dbStatementOK(named)
	}
	return f.tablesOK(tables)
}

// ddlTables reads which object a DDL statement acts on: for
// CREATE/ALTER/DROP DATABASE the database (isDB); else the tables it
// names, unqualified ones in db. Nothing for a statement the parser
// cannot read or that names no table.
func ddlTables(db, query string) (named string, isDB bool, tables []tableName) {
	st, err := ast.Parse(query)
	if err != nil {
		return "", false, nil
	}
	add := func(n ast.TableName) {
		if n.Name.String() == "" {
			return
		}
		d := n.DbQualifier.String()
		if d == "" {
			d = db
		}
		tables = append(tables, tableName{d, n.Name.String()})
	}
	switch s := st.(type) {
	case *ast.DBDDL:
		return s.DBName, true, nil
	case *ast.AlterTable:
		add(s.Table)
	case *ast.DDL:
		add(s.Table)
		for _, n := range s.FromTables {
			add(n)
		}
		for _, n := range s.ToTables {
			add(n)
		}
	}
	return "", false, tables
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func matchesAny(patterns []string, s string) bool {
	for _, p := range patterns {
		if wildMatch(p, s) {
			return true
		}
	}
	return false
}

// wildMatch reports whether s matches the whole of pattern: % matches
// any run of characters (none too), _ any one character, and \ makes the
// character after it literal (a trailing \ is itself). Characters are
// bytes but for _, which takes one UTF-8 character.
func wildMatch(pattern, s string) bool {
	// Backtracking over the last %: linear in practice, quadratic at worst.
	p, i := 0, 0
	starP, starI := -1, 0
	for i < len(s) {
		if p < len(pattern) {
			c := pattern[p]
			switch {
			case c == '%':
				starP, starI = p, i
				p++
				continue
			case c == '_':
				p++
				_, n := utf8.DecodeRuneInString(s[i:])
				i += n
				continue
			case c == '\\' && p+1 < len(pattern):
				if pattern[p+1] == s[i] {
					p, i = p+2, i+1
					continue
				}
			case c == s[i]:
				p, i = p+1, i+1
				continue
			}
		}
		if starP < 0 {
			return false
		}
		starI++
		p, i = starP+1, starI
	}
	for p < len(pattern) && pattern[p] == '%' {
		p++
	}
	return p == len(pattern)
}

// joinList is a filter list as SHOW REPLICA STATUS prints it.
func joinList(l []string) string { return strings.Join(l, ",") }
