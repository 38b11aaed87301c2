package mariadb

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
	"github.com/dolthub/vitess/go/vt/vterrors"

	"github.com/handlerdb/handlerdb/internal/errtable"
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
func ReplicationRewrite(q string) (string, bool) {
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
//	      | REPLICATE_REWRITE_DB = ([(from_db, to_db)[, (from_db, to_db)]...])
//
// and gives go-mysql-server the statement node its own parser builds
// (authorized as replication administration, then handed to the replica
// controller's SetReplicationFilterOptions). Every option's value is an
// ast.TableNames: db.table names for the table options,
// REPLICATE_REWRITE_DB's pairs as from_db.to_db, and, for the others,
// the database name or the pattern as the table name with no database. An empty list () clears the option. A pattern is a string
// literal read as MySQL reads it, so '\_' and '\%' keep their backslash
// (a literal _ or % in the pattern). Bad syntax is a "syntax error at
// position" that the error table words as MariaDB's 1064; a channel
// other than the default one is 3074.

// filterKind is what a filter option's list holds.
type filterKind int

const (
	filterDBs filterKind = iota
	filterTables
	filterPatterns
	filterRewrites
)

var filterOptions = map[string]filterKind{
	"REPLICATE_DO_DB":             filterDBs,
	"REPLICATE_IGNORE_DB":         filterDBs,
	"REPLICATE_DO_TABLE":          filterTables,
	"REPLICATE_IGNORE_TABLE":      filterTables,
	"REPLICATE_WILD_DO_TABLE":     filterPatterns,
	"REPLICATE_WILD_IGNORE_TABLE": filterPatterns,
	"REPLICATE_REWRITE_DB":        filterRewrites,
}

// replicationFilter parses q when it is a CHANGE REPLICATION FILTER
// statement (ok), returning the statement and the offset in q just
// after the semicolon that ends it (len(q) without one). With multi,
// text may follow the semicolon; without, only space.
func ReplicationFilter(q string, multi bool) (st *ast.ChangeReplicationFilter, end int, ok bool, err error) {
	sc := newReplScanner(q)
	for _, w := range []string{"CHANGE", "REPLICATION", "FILTER"} {
		if sc.next(); !sc.isWord(w) {
			return nil, 0, false, nil
		}
	}
	bad := func() (*ast.ChangeReplicationFilter, int, bool, error) { return nil, 0, true, sc.syntaxError() }
	expect := func(c int) bool {
		sc.next()
		return sc.typ == c
	}
	st = &ast.ChangeReplicationFilter{Auth: ast.AuthInformation{AuthType: ast.AuthType_REPLICATION, TargetType: ast.AuthTargetType_Ignore}}
	for {
		sc.next()
		name := strings.ToUpper(sc.val)
		kind, known := filterOptions[name]
		if !sc.word() || !known {
			return bad()
		}
		if !expect('=') || !expect('(') {
			return bad()
		}
		list := ast.TableNames{}
		sc.next()
		for sc.typ != ')' {
			var tn ast.TableName
			switch kind {
			case filterDBs:
				if !sc.word() {
					return bad()
				}
				tn.Name = ast.NewTableIdent(sc.val)
			case filterTables:
				if !sc.word() {
					return bad()
				}
				db := sc.val
				if !expect('.') {
					return bad()
				}
				if sc.next(); !sc.word() {
					return bad()
				}
				tn.DbQualifier, tn.Name = ast.NewTableIdent(db), ast.NewTableIdent(sc.val)
			case filterPatterns:
				if sc.typ != ast.STRING {
					return bad()
				}
				p := sc.str()
				if !strings.Contains(p, ".") {
					return bad()
				}
				tn.Name = ast.NewTableIdent(p)
			case filterRewrites:
				if sc.typ != '(' {
					return bad()
				}
				if sc.next(); !sc.word() {
					return bad()
				}
				from := sc.val
				if !expect(',') {
					return bad()
				}
				if sc.next(); !sc.word() {
					return bad()
				}
				tn.DbQualifier, tn.Name = ast.NewTableIdent(from), ast.NewTableIdent(sc.val)
				if !expect(')') {
					return bad()
				}
			}
			list = append(list, tn)
			if sc.next(); sc.typ == ',' {
				sc.next()
				if sc.typ == ')' {
					return bad()
				}
			} else if sc.typ != ')' {
				return bad()
			}
		}
		st.Options = append(st.Options, &ast.ReplicationOption{Name: name, Value: list})
		if sc.next(); sc.typ != ',' {
			break
		}
	}
	if end, err = sc.finish(multi); err != nil {
		return nil, 0, true, err
	}
	return st, end, true, nil
}

// replScanner reads a replication statement's tokens for
// replicationFilter and replicationSource.
type replScanner struct {
	q   string
	tkn *ast.Tokenizer
	typ int    // the current token
	val string // its text
}

func newReplScanner(q string) *replScanner { return &replScanner{q: q, tkn: ast.NewStringTokenizer(q)} }

// next moves to the next token that is not a comment.
func (sc *replScanner) next() {
	for {
		t, v := sc.tkn.Scan()
		if t != ast.COMMENT {
			sc.typ, sc.val = t, string(v)
			return
		}
	}
}

// word reports a keyword or a name as the current token.
func (sc *replScanner) word() bool {
	return sc.typ == ast.ID || sc.typ >= 256 && sc.typ != ast.STRING && isWordText(sc.val)
}

// isWord reports the word w (any case) as the current token.
func (sc *replScanner) isWord(w string) bool { return sc.word() && strings.EqualFold(sc.val, w) }

// str decodes the current token, a string literal.
func (sc *replScanner) str() string {
	return stringLiteral(sc.q, sc.tkn.OldPosition-1, sc.tkn.Position-1)
}

// syntaxError is the error at the current token.
func (sc *replScanner) syntaxError() error {
	q, tkn := sc.q, sc.tkn
	near := strings.TrimSpace(q[min(max(tkn.OldPosition-1, 0), len(q)):min(max(tkn.Position-1, 0), len(q))])
	return vterrors.SyntaxError{Message: fmt.Sprintf("syntax error at position %d near '%s'", tkn.Position, near), Position: tkn.Position, Statement: q}
}

// finish reads an optional FOR CHANNEL clause (only the default
// channel, the empty name, exists) from the current token, and the
// statement's end: the offset just after its semicolon (len(q) without
// one). With multi, text may follow the semicolon; without, only space.
func (sc *replScanner) finish(multi bool) (int, error) {
	if sc.typ == ast.FOR {
		if sc.next(); !sc.isWord("CHANNEL") {
			return 0, sc.syntaxError()
		}
		if sc.next(); sc.typ != ast.STRING {
			return 0, sc.syntaxError()
		}
		if ch := sc.str(); ch != "" {
			return 0, mysql.NewSQLError(errtable.ERReplicaChannelDoesNotExist, "HY000", "Replica channel '%s' does not exist.", ch)
		}
		sc.next()
	}
	switch {
	case sc.typ == 0:
		return len(sc.q), nil
	case sc.typ == ';':
		end := sc.tkn.Position - 1
		for !multi && sc.typ == ';' {
			sc.next()
		}
		if !multi && sc.typ != 0 {
			return 0, sc.syntaxError()
		}
		return end, nil
	}
	return 0, sc.syntaxError()
}

// CHANGE REPLICATION SOURCE TO with binlog coordinates.
//
// go-mysql-server's grammar has no SOURCE_LOG_FILE / SOURCE_LOG_POS (nor
// MASTER_LOG_FILE / MASTER_LOG_POS), with which a replica of a primary
// without GTIDs is told where to start. replicationSource parses a
// CHANGE REPLICATION SOURCE TO or CHANGE MASTER TO statement that names
// one of them, with MySQL's grammar:
//
//	CHANGE {REPLICATION SOURCE | MASTER} TO option [, option]... [FOR CHANNEL '']
//	option: name = {'string' | integer}   (MASTER_USE_GTID = slave_pos | current_pos | no)
//
// into the node go-mysql-server's parser builds for the others, every
// MASTER_ name spelled SOURCE_ and MASTER_USE_GTID as
// SOURCE_AUTO_POSITION, as replicationRewrite does. The replica
// controller checks the names and values. Statements without those two
// options are left to go-mysql-server's parser (and replicationRewrite).

// sourceOptionTypes are the options replicationSource reads: a string
// or an integer value.
var sourceOptionTypes = map[string]int{
	"SOURCE_HOST": ast.STRING, "SOURCE_USER": ast.STRING, "SOURCE_PASSWORD": ast.STRING,
	"SOURCE_PORT": ast.INTEGRAL, "SOURCE_CONNECT_RETRY": ast.INTEGRAL, "SOURCE_RETRY_COUNT": ast.INTEGRAL,
	"SOURCE_AUTO_POSITION": ast.INTEGRAL, "SOURCE_SSL": ast.INTEGRAL,
	"SOURCE_LOG_FILE": ast.STRING, "SOURCE_LOG_POS": ast.INTEGRAL,
}

// replicationSource parses q when it is a CHANGE REPLICATION SOURCE TO /
// CHANGE MASTER TO statement with SOURCE_LOG_FILE or SOURCE_LOG_POS (ok),
// returning the statement and its end as replicationFilter does.
func ReplicationSource(q string, multi bool) (st *ast.ChangeReplicationSource, end int, ok bool, err error) {
	// Every statement comes here: its first word settles most of them
	// before the whole text is read for coordinates.
	first := newReplScanner(q)
	if first.next(); !first.isWord("CHANGE") {
		return nil, 0, false, nil
	}
	coords := false
	for _, w := range codeWords(q) {
		if u := strings.ToUpper(w.text); w.word && (strings.HasSuffix(u, "_LOG_FILE") || strings.HasSuffix(u, "_LOG_POS")) {
			coords = true
		}
	}
	if !coords {
		return nil, 0, false, nil
	}
	sc := newReplScanner(q)
	if sc.next(); !sc.isWord("CHANGE") {
		return nil, 0, false, nil
	}
	if sc.next(); sc.isWord("REPLICATION") {
		if sc.next(); !sc.isWord("SOURCE") {
			return nil, 0, false, nil
		}
	} else if !sc.isWord("MASTER") {
		return nil, 0, false, nil
	}
	if sc.next(); !sc.isWord("TO") {
		return nil, 0, false, nil
	}
	bad := func() (*ast.ChangeReplicationSource, int, bool, error) { return nil, 0, true, sc.syntaxError() }
	st = &ast.ChangeReplicationSource{Auth: ast.AuthInformation{AuthType: ast.AuthType_REPLICATION, TargetType: ast.AuthTargetType_Ignore}}
	for {
		if sc.next(); !sc.word() {
			return bad()
		}
		name := strings.ToUpper(sc.val)
		if rest, ok := strings.CutPrefix(name, "MASTER_"); ok {
			name = "SOURCE_" + rest
		}
		if sc.next(); sc.typ != '=' {
			return bad()
		}
		sc.next()
		var v any
		if name == "SOURCE_USE_GTID" {
			switch {
			case sc.isWord("slave_pos"), sc.isWord("current_pos"):
				v = 1
			case sc.isWord("no"):
				v = 0
			default:
				return bad()
			}
			name = "SOURCE_AUTO_POSITION"
		} else {
			typ, known := sourceOptionTypes[name]
			switch {
			case !known || sc.typ != typ:
				return bad()
			case typ == ast.STRING:
				v = sc.str()
			default:
				n, err := strconv.Atoi(sc.val)
				if err != nil {
					return bad()
				}
				v = n
			}
		}
		st.Options = append(st.Options, &ast.ReplicationOption{Name: name, Value: v})
		if sc.next(); sc.typ != ',' {
			break
		}
	}
	if end, err = sc.finish(multi); err != nil {
		return nil, 0, true, err
	}
	return st, end, true, nil
}

// replicationStatement is replicationFilter, else replicationSource.
func ReplicationStatement(q string, multi bool) (ast.Statement, int, bool, error) {
	if st, end, ok, err := ReplicationFilter(q, multi); ok {
		if err != nil {
			return nil, 0, true, err
		}
		return st, end, true, nil
	}
	if st, end, ok, err := ReplicationSource(q, multi); ok {
		if err != nil {
			return nil, 0, true, err
		}
		return st, end, true, nil
	}
	return nil, 0, false, nil
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

// replicationFilterParse is replicationStatement for the parser's entry
// points that return the statement's text and the rest: query without
// its surrounding space and trailing delimiters, as go-mysql-server's
// parser reads it.
func ReplicationFilterParse(query string, delimiter rune, multi bool) (ast.Statement, string, string, bool, error) {
	s := sql.RemoveSpaceAndDelimiter(query, delimiter)
	st, end, ok, err := ReplicationStatement(s, multi)
	if !ok || err != nil {
		return nil, "", "", ok, err
	}
	parsed, rest := s, ""
	if end < len(s) {
		parsed, rest = sql.RemoveSpaceAndDelimiter(s[:end], delimiter), s[end:]
	}
	return st, parsed, rest, true, nil
}
