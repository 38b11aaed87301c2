package sqlfront

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// The older spellings of the replication statements.
//
// go-mysql-server's parser knows CHANGE REPLICATION SOURCE TO, START /
// STOP / RESET REPLICA and SHOW SLAVE STATUS, but not the forms MariaDB
// documents and most scripts still use: CHANGE MASTER TO MASTER_...=...,
// START SLAVE, STOP SLAVE, RESET SLAVE [ALL]. When a statement fails to
// parse, replicationRewrite (through dialectRewrite) gives the parser the
// current spelling instead: SLAVE becomes REPLICA, CHANGE MASTER TO
// becomes CHANGE REPLICATION SOURCE TO with each MASTER_ option named
// SOURCE_, and MariaDB's MASTER_USE_GTID = slave_pos or current_pos
// (no) becomes SOURCE_AUTO_POSITION = 1 (0). Named connections (CHANGE
// MASTER 'name' TO), START SLAVE UNTIL and the options the parser has no
// SOURCE_ form of (MASTER_LOG_FILE, MASTER_LOG_POS, MASTER_SSL_CA...)
// stay syntax errors.

// replicationRewrite returns q in the current spelling, and whether it
// is one of the older forms.
func replicationRewrite(q string) (string, bool) {
	toks := codeWords(q)
	is := func(i int, w string) bool {
		return i < len(toks) && toks[i].word && strings.EqualFold(toks[i].text, w)
	}
	switch {
	case (is(0, "START") || is(0, "STOP") || is(0, "RESET")) && is(1, "SLAVE"):
		return q[:toks[1].start] + "REPLICA" + q[toks[1].end:], true
	case is(0, "CHANGE") && is(1, "MASTER") && is(2, "TO") && strings.TrimSpace(q[toks[1].end:toks[2].start]) == "":
	default:
		return q, false
	}
	var b strings.Builder
	b.WriteString(q[:toks[0].start])
	b.WriteString("CHANGE REPLICATION SOURCE TO")
	last := toks[2].end
	for i := 3; i < len(toks); i++ {
		t := toks[i]
		if !t.word || i+1 >= len(toks) || toks[i+1].text != "=" {
			continue
		}
		name := strings.ToUpper(t.text)
		if !strings.HasPrefix(name, "MASTER_") {
			continue
		}
		b.WriteString(q[last:t.start])
		if name == "MASTER_USE_GTID" && i+2 < len(toks) {
			v := "1"
			if strings.EqualFold(toks[i+2].text, "no") {
				v = "0"
			}
			b.WriteString("SOURCE_AUTO_POSITION = " + v)
			last = toks[i+2].end
			i += 2
			continue
		}
		b.WriteString("SOURCE_" + t.text[len("MASTER_"):])
		last = t.end
	}
	b.WriteString(q[last:])
	return b.String(), true
}

// CHANGE REPLICATION FILTER.
//
// go-mysql-server's parser knows two of MySQL's filter options,
// REPLICATE_DO_TABLE and REPLICATE_IGNORE_TABLE. replicationFilter parses
// the whole statement instead, with MySQL's grammar:
//
//	CHANGE REPLICATION FILTER filter [, filter]... [FOR CHANNEL 'name']
//	filter: REPLICATE_DO_DB = ([db[, db]...])
//	      | REPLICATE_IGNORE_DB = ([db[, db]...])
//	      | REPLICATE_DO_TABLE = ([db.table[, db.table]...])
//	      | REPLICATE_IGNORE_TABLE = ([db.table[, db.table]...])
//	      | REPLICATE_WILD_DO_TABLE = (['db_pattern.table_pattern'[, ...]])
//	      | REPLICATE_WILD_IGNORE_TABLE = (['db_pattern.table_pattern'[, ...]])
//
// and gives go-mysql-server the statement node its own parser builds
// (authorized as replication administration, then handed to the replica
// controller's SetReplicationFilterOptions). Every option's value is an
// ast.TableNames: db.table names for the table options, and, for the
// others, the database name or the pattern as the table name with no
// database. An empty list () clears the option. A pattern is a string
// literal read as MySQL reads it, so '\_' and '\%' keep their backslash
// (a literal _ or % in the pattern). Bad syntax is a "syntax error at
// position" that the error table words as MariaDB's 1064;
// REPLICATE_REWRITE_DB is 1235 (not supported) and a channel other than
// the default one 3074.

// filterKind is what a filter option's list holds.
type filterKind int

const (
	filterDBs filterKind = iota
	filterTables
	filterPatterns
)

var filterOptions = map[string]filterKind{
	"REPLICATE_DO_DB":             filterDBs,
	"REPLICATE_IGNORE_DB":         filterDBs,
	"REPLICATE_DO_TABLE":          filterTables,
	"REPLICATE_IGNORE_TABLE":      filterTables,
	"REPLICATE_WILD_DO_TABLE":     filterPatterns,
	"REPLICATE_WILD_IGNORE_TABLE": filterPatterns,
}

// replicationFilter parses q when it is a CHANGE REPLICATION FILTER
// statement (ok), returning the statement and the offset in q just
// after the semicolon that ends it (len(q) without one). With multi,
// text may follow the semicolon; without, only space.
func replicationFilter(q string, multi bool) (st *ast.ChangeReplicationFilter, end int, ok bool, err error) {
	tkn := ast.NewStringTokenizer(q)
	var typ int
	var val string
	next := func() {
		for {
			t, v := tkn.Scan()
			if t != ast.COMMENT {
				typ, val = t, string(v)
				return
			}
		}
	}
	word := func() bool { return typ == ast.ID || typ >= 256 && typ != ast.STRING && isWordText(val) }
	for _, w := range []string{"CHANGE", "REPLICATION", "FILTER"} {
		next()
		if !word() || !strings.EqualFold(val, w) {
			return nil, 0, false, nil
		}
	}
	bad := func() (*ast.ChangeReplicationFilter, int, bool, error) {
		near := strings.TrimSpace(q[min(max(tkn.OldPosition-1, 0), len(q)):min(max(tkn.Position-1, 0), len(q))])
		return nil, 0, true, fmt.Errorf("syntax error at position %d near '%s'", tkn.Position, near)
	}
	expect := func(c int) bool {
		next()
		return typ == c
	}
	st = &ast.ChangeReplicationFilter{Auth: ast.AuthInformation{AuthType: ast.AuthType_REPLICATION, TargetType: ast.AuthTargetType_Ignore}}
	for {
		next()
		name := strings.ToUpper(val)
		kind, known := filterOptions[name]
		if !word() || !known {
			if word() && name == "REPLICATE_REWRITE_DB" {
				return nil, 0, true, mysql.NewSQLError(1235, "42000", "This version of HandlerDB doesn't yet support 'REPLICATE_REWRITE_DB'")
			}
			return bad()
		}
		if !expect('=') || !expect('(') {
			return bad()
		}
		list := ast.TableNames{}
		next()
		for typ != ')' {
			var tn ast.TableName
			switch kind {
			case filterDBs:
				if !word() {
					return bad()
				}
				tn.Name = ast.NewTableIdent(val)
			case filterTables:
				if !word() {
					return bad()
				}
				db := val
				if !expect('.') {
					return bad()
				}
				if next(); !word() {
					return bad()
				}
				tn.DbQualifier, tn.Name = ast.NewTableIdent(db), ast.NewTableIdent(val)
			case filterPatterns:
				if typ != ast.STRING {
					return bad()
				}
				p := stringLiteral(q, tkn.OldPosition-1, tkn.Position-1)
				if !strings.Contains(p, ".") {
					return bad()
				}
				tn.Name = ast.NewTableIdent(p)
			}
			list = append(list, tn)
			if next(); typ == ',' {
				next()
				if typ == ')' {
					return bad()
				}
			} else if typ != ')' {
				return bad()
			}
		}
		st.Options = append(st.Options, &ast.ReplicationOption{Name: name, Value: list})
		if next(); typ != ',' {
			break
		}
	}
	if typ == ast.FOR {
		if next(); !word() || !strings.EqualFold(val, "CHANNEL") {
			return bad()
		}
		if next(); typ != ast.STRING {
			return bad()
		}
		if ch := stringLiteral(q, tkn.OldPosition-1, tkn.Position-1); ch != "" {
			return nil, 0, true, mysql.NewSQLError(3074, "HY000", "Replica channel '%s' does not exist.", ch)
		}
		next()
	}
	switch {
	case typ == 0:
		return st, len(q), true, nil
	case typ == ';':
		end = tkn.Position - 1
		for !multi && typ == ';' {
			next()
		}
		if !multi && typ != 0 {
			return bad()
		}
		return st, end, true, nil
	}
	return bad()
}

// isWordText reports text that is a keyword or an unquoted name.
func isWordText(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || c == '$' || c >= 0x80 || c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z') {
			return false
		}
	}
	return true
}

// stringLiteral decodes the quoted string that q[from:to] holds (after
// space) as MySQL does: a doubled quote is one, and a backslash escapes
// the next character (\n, \t, \r, \b, \0 and \Z are control characters)
// but for \% and \_, which stay two characters.
func stringLiteral(q string, from, to int) string {
	s := strings.TrimLeft(q[max(from, 0):min(to, len(q))], " \t\r\n\f\v")
	if len(s) < 2 {
		return ""
	}
	quote, s := s[0], s[1:len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == quote && i+1 < len(s) && s[i+1] == quote:
			i++
		case c == '\\' && i+1 < len(s):
			i++
			switch e := s[i]; e {
			case 'n':
				c = '\n'
			case 't':
				c = '\t'
			case 'r':
				c = '\r'
			case 'b':
				c = '\b'
			case '0':
				c = 0
			case 'Z':
				c = 26
			case '%', '_':
				b.WriteByte('\\')
				c = e
			default:
				c = e
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// replicationFilterParse is replicationFilter for the parser's entry
// points that return the statement's text and the rest: query without
// its surrounding space and trailing delimiters, as go-mysql-server's
// parser reads it.
func replicationFilterParse(query string, delimiter rune, multi bool) (ast.Statement, string, string, bool, error) {
	s := sql.RemoveSpaceAndDelimiter(query, delimiter)
	st, end, ok, err := replicationFilter(s, multi)
	if !ok || err != nil {
		return nil, "", "", ok, err
	}
	parsed, rest := s, ""
	if end < len(s) {
		parsed, rest = sql.RemoveSpaceAndDelimiter(s[:end], delimiter), s[end:]
	}
	return st, parsed, rest, true, nil
}
