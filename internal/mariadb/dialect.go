package mariadb

import (
	"regexp"
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// MariaDB/MySQL syntax the vitess parser does not accept.
//
// The grammar of go-mysql-server's parser (dolthub/vitess) cannot be
// configured, and two forms that MySQL and MariaDB accept, and that
// mysqldump and hand-written schemas use, are syntax errors there:
//
//   - a display width on YEAR (`YEAR(4)`, deprecated in MySQL, printed by
//     MariaDB's SHOW CREATE TABLE), which both servers ignore;
//   - `DEFINER = CURRENT_USER` (or `CURRENT_USER()`) in CREATE VIEW,
//     TRIGGER, PROCEDURE, FUNCTION and EVENT, which names the account
//     creating the object, as no DEFINER clause does;
//   - MariaDB's `AS (expr) PERSISTENT`, its synonym of STORED for a
//     generated column;
//   - GROUP BY ... WITH ROLLUP, which becomes a marker column that
//     reportRewrite expands (reportsyntax.go);
//   - CREATE TRIGGER IF NOT EXISTS, whose IF NOT EXISTS goes (the backend
//     reads it from the statement's text);
//   - an index hint naming PRIMARY (`FORCE INDEX (PRIMARY)`), which goes:
//     go-mysql-server's planner takes no index hint;
//   - a comparison at the top of a generated column's expression
//     (`g INT AS (i > 1)`), whose parentheses are doubled
//     (generatedParensRewrite), and the query of CREATE TABLE t
//     [AS] (SELECT ...) in parentheses, which go (createSelectParens).
//
// When a statement fails to parse, guardedParser retries it once with
// those forms blanked out (replaced by as many spaces, so that offsets
// into the text stay valid): `YEAR(4)` becomes `YEAR`, and the DEFINER
// clause disappears, PERSISTENT after a generated column's expression
// becomes STORED (padded with spaces). The retry's result is used only if it parses; else
// the original error stands. A statement that parses as written is never
// rewritten, so `SELECT YEAR(4)` (the function) is untouched, and the
// rewrite looks only at code (not in strings, quoted identifiers or
// comments, except MySQL's executable /*! */ comments).

// dialectRewrite returns q with the forms above blanked out, and whether
// it changed anything. A stored function statement at the start of q is
// translated first (routineRewrite, routines.go); that changes the length
// of the statement, not the text after it, as does the rewrite of
// `@var := expr` in the first statement (assignRewrite, reportsyntax.go).
func DialectRewrite(q string) (string, bool) {
	if rw, ok := routineRewrite(q); ok {
		out, _ := dialectBlank(rw)
		out, _ = routineDoRewrite(out)
		return out, true
	}
	if rw, ok := ReplicationRewrite(q); ok { // replication.go
		return rw, true
	}
	if rw, ok := packageStatusRewrite(q); ok {
		return rw, true
	}
	if rw, ok := passwordHashRewrite(q); ok {
		return rw, true
	}
	out, blanked := dialectBlank(q)
	if rw, ok := createSelectParens(out); ok {
		out, blanked = rw, true
	}
	if rw, ok := generatedParensRewrite(out); ok {
		out, blanked = rw, true
	}
	if rw, ok := AssignRewrite(out); ok {
		return rw, true
	}
	if rw, ok := routineDoRewrite(out); ok {
		out, blanked = rw, true
	}
	if rw, ok := intervalUnitRewrite(out); ok {
		return rw, true
	}
	if rw, ok := charsetValueRewrite(out); ok {
		return rw, true
	}
	return out, blanked
}

// createSelectParens blanks the parentheses around the query of CREATE
// TABLE t (SELECT ...) and CREATE TABLE t AS (SELECT ...), which MariaDB
// takes and the grammar takes without them: the first top-level '('
// before SELECT, when the statement's last token closes it.
func createSelectParens(q string) (string, bool) {
	toks := codeWords(q)
	if len(toks) < 5 || !isTableDDL(toks) || !strings.EqualFold(toks[0].text, "CREATE") {
		return q, false
	}
	last := len(toks) - 1
	if toks[last].text == ";" {
		last--
	}
	depth := 0
	for i, t := range toks[:last] {
		switch t.text {
		case "(":
			if depth == 0 && strings.EqualFold(toks[i+1].text, "SELECT") {
				if closingParen(toks, i) != last {
					return q, false
				}
				b := []byte(q)
				b[t.start], b[toks[last].start] = ' ', ' '
				return string(b), true
			}
			depth++
		case ")":
			depth--
		}
	}
	return q, false
}

// closingParen returns the index of the ')' that closes the '(' at
// toks[open], or -1.
func closingParen(toks []codeWord, open int) int {
	depth := 0
	for j := open; j < len(toks); j++ {
		switch toks[j].text {
		case "(":
			depth++
		case ")":
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// isTableDDL reports whether toks are those of CREATE or ALTER
// [TEMPORARY|...] TABLE.
func isTableDDL(toks []codeWord) bool {
	if !(strings.EqualFold(toks[0].text, "CREATE") || strings.EqualFold(toks[0].text, "ALTER")) {
		return false
	}
	for _, t := range toks[1:min(len(toks), 4)] {
		if t.word && strings.EqualFold(t.text, "TABLE") {
			return true
		}
	}
	return false
}

// generatedParensRewrite doubles the parentheses of a generated
// column's expression in CREATE TABLE and ALTER TABLE (`g INT AS (i > 1)`
// becomes `g INT AS ((i > 1))`): the grammar takes no comparison at the
// top level of that expression, which MariaDB and MySQL take, and the
// column keeps the same expression (SHOW CREATE TABLE prints it as
// MariaDB does). An AS followed by a query (CREATE TABLE ... AS (SELECT
// ...)) is left alone.
func generatedParensRewrite(q string) (string, bool) {
	toks := codeWords(q)
	if len(toks) < 3 || !isTableDDL(toks) {
		return q, false
	}
	var b strings.Builder
	last := 0
	for i, t := range toks {
		if !t.word || !strings.EqualFold(t.text, "AS") || i+2 >= len(toks) || toks[i+1].text != "(" {
			continue
		}
		if next := strings.ToUpper(toks[i+2].text); next == "SELECT" || next == "WITH" || next == "VALUES" || next == "TABLE" || next == "(" {
			continue
		}
		end := closingParen(toks, i+1)
		if end < 0 {
			return q, false
		}
		b.WriteString(q[last:toks[i+1].end])
		b.WriteString("(")
		b.WriteString(q[toks[i+1].end:toks[end].start])
		b.WriteString(")")
		last = toks[end].start
	}
	if last == 0 {
		return q, false
	}
	b.WriteString(q[last:])
	return b.String(), true
}

// charsetValueRewrite quotes the word binary given to a character set
// or collation variable in SET (SET character_set_results = binary, as
// a replica's copy sends it), which the grammar reads as the keyword.
func charsetValueRewrite(q string) (string, bool) {
	toks := codeWords(q)
	if len(toks) < 4 || !strings.EqualFold(toks[0].text, "SET") {
		return q, false
	}
	var b strings.Builder
	last := 0
	for i := 2; i < len(toks); i++ {
		v, eq, name := toks[i], toks[i-1], toks[i-2]
		if !v.word || !strings.EqualFold(v.text, "binary") || eq.text != "=" || !name.word {
			continue
		}
		n := strings.ToLower(name.text)
		if !strings.HasPrefix(n, "character_set_") && !strings.HasPrefix(n, "collation_") {
			continue
		}
		b.WriteString(q[last:v.start])
		b.WriteString("'" + v.text + "'")
		last = v.end
	}
	if last == 0 {
		return q, false
	}
	b.WriteString(q[last:])
	return b.String(), true
}

// compoundUnits are the interval units of two fields, which the grammar
// reads only in EXTRACT and DATE_ADD-style calls: INTERVAL e HOUR_MINUTE
// as an operand (and in DATE_ADD(d, INTERVAL ...), which is that form)
// was a syntax error.
var compoundUnits = wordSet("YEAR_MONTH DAY_HOUR DAY_MINUTE DAY_SECOND HOUR_MINUTE HOUR_SECOND MINUTE_SECOND " +
	"SECOND_MICROSECOND MINUTE_MICROSECOND HOUR_MICROSECOND DAY_MICROSECOND")

// UnquoteIntervalUnits takes intervalUnitRewrite's quotes out of the
// texts that name st's select expressions (a column is named by its
// expression as written: DATE_ADD(d, INTERVAL '1:30' HOUR_MINUTE)).
func UnquoteIntervalUnits(st ast.Statement) {
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if ae, ok := n.(*ast.AliasedExpr); ok && strings.Contains(ae.InputExpression, "`") {
			ae.InputExpression = quotedUnit.ReplaceAllStringFunc(ae.InputExpression, func(m string) string {
				if compoundUnits[strings.ToUpper(m[1:len(m)-1])] {
					return m[1 : len(m)-1]
				}
				return m
			})
		}
		return true, nil
	}, st)
}

// quotedUnit matches a word in backquotes after INTERVAL's operand.
var quotedUnit = regexp.MustCompile("`[A-Za-z_]+`")

// intervalUnitRewrite quotes the compound unit that ends each INTERVAL
// expr of q, which the grammar then reads as the unit's name (it takes an
// identifier there).
func intervalUnitRewrite(q string) (string, bool) {
	toks := codeWords(q)
	var b strings.Builder
	last := 0
	for i, t := range toks {
		if !t.word || !strings.EqualFold(t.text, "INTERVAL") {
			continue
		}
		depth := 0
		for j := i + 1; j < len(toks); j++ {
			u := toks[j]
			switch {
			case u.text == "(":
				depth++
				continue
			case u.text == ")":
				depth--
			case u.text == "," && depth == 0:
				depth = -1
			}
			if depth < 0 {
				break
			}
			if depth == 0 && u.word && compoundUnits[strings.ToUpper(u.text)] && u.start >= last {
				b.WriteString(q[last:u.start])
				b.WriteString("`" + u.text + "`")
				last = u.end
				break
			}
		}
	}
	if last == 0 {
		return q, false
	}
	b.WriteString(q[last:])
	return b.String(), true
}

// RoutineDoComment follows the SELECT that stands for a DO statement in a
// routine's body (routineDoRewrite); the statement runner of procedure
// bodies (sqlfront's procRunner) evaluates such a SELECT and drops its
// row, which is what DO does.
const RoutineDoComment = "/* handlerdb: do */"

// routineDoRewrite returns the CREATE PROCEDURE, FUNCTION, TRIGGER or
// EVENT statement q with each DO statement of its body (the word DO where
// a statement starts: after a semicolon, BEGIN, THEN, ELSE, LOOP, REPEAT
// or another DO, the one of WHILE ... DO or of an event) read as SELECT
// followed by RoutineDoComment: the parser has no DO statement. The
// routine's stored text keeps the SELECT (SHOW CREATE prints it so).
func routineDoRewrite(q string) (string, bool) {
	toks := codeWords(q)
	if len(toks) < 3 || !toks[0].word || !strings.EqualFold(toks[0].text, "CREATE") {
		return q, false
	}
	routine := false
	for _, t := range toks[1:min(len(toks), 16)] {
		switch strings.ToUpper(t.text) {
		case "PROCEDURE", "FUNCTION", "TRIGGER", "EVENT":
			routine = true
		}
	}
	if !routine {
		return q, false
	}
	var b strings.Builder
	last := 0
	for i := 1; i < len(toks); i++ {
		t, prev := toks[i], toks[i-1]
		if !t.word || !strings.EqualFold(t.text, "DO") || i+1 >= len(toks) {
			continue
		}
		switch strings.ToUpper(prev.text) {
		case ";", "BEGIN", "THEN", "ELSE", "LOOP", "REPEAT", "DO":
		default:
			continue
		}
		b.WriteString(q[last:t.start])
		b.WriteString("SELECT " + RoutineDoComment)
		last = t.end
	}
	if last == 0 {
		return q, false
	}
	b.WriteString(q[last:])
	return b.String(), true
}

// dialectBlank blanks out the forms above.
func dialectBlank(q string) (string, bool) {
	toks := codeWords(q)
	if len(toks) == 0 {
		return q, false
	}
	var b []byte
	blank := func(from, to int) {
		if b == nil {
			b = []byte(q)
		}
		for i := from; i < to; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	// The YEAR width is removed only in DDL (column types, routine
	// parameters and variables).
	ddl := strings.EqualFold(toks[0].text, "CREATE") || strings.EqualFold(toks[0].text, "ALTER")
	for i, t := range toks {
		switch {
		case ddl && t.word && strings.EqualFold(t.text, "YEAR") && i > 0 && i+3 < len(toks):
			prev := toks[i-1]
			if !prev.word || exprKeywords[strings.ToUpper(prev.text)] {
				continue
			}
			if toks[i+1].text == "(" && isDigits(toks[i+2].text) && toks[i+3].text == ")" {
				blank(toks[i+1].start, toks[i+3].end)
			}
		case ddl && t.word && strings.EqualFold(t.text, "PERSISTENT") && i > 0 && toks[i-1].text == ")":
			blank(t.start, t.end)
			copy(b[t.start:], "STORED")
		case t.word && rollupEnd(toks, i) >= 0 && i > 0:
			// WITH ROLLUP becomes the marker column that expandRollup
			// (reportsyntax.go) takes out of the GROUP BY.
			end := rollupEnd(toks, i)
			blank(t.start, end)
			copy(b[t.start:], ","+rollupMarker)
		case ddl && t.word && strings.EqualFold(t.text, "TRIGGER") && i+3 < len(toks) && strings.EqualFold(toks[i+1].text, "IF") &&
			strings.EqualFold(toks[i+2].text, "NOT") && strings.EqualFold(toks[i+3].text, "EXISTS"):
			// CREATE TRIGGER IF NOT EXISTS: the parser does not read it;
			// the backend's CreateTrigger finds the words in the text.
			blank(toks[i+1].start, toks[i+3].end)
		case ddl && dropConstraintIfExists(toks, i):
			// ALTER TABLE ... DROP CONSTRAINT IF EXISTS name: the parser
			// does not read IF EXISTS there; dropIfExists puts it
			// back into the tree.
			blank(toks[i+2].start, toks[i+3].end)
		case i == 0 && t.text == "(" && wholeParenthesized(toks):
			// (SELECT ...) alone: the parser reads parentheses around a
			// SELECT only inside UNION and subqueries.
			blank(t.start, t.end)
			last := toks[len(toks)-1]
			if last.text == ";" {
				last = toks[len(toks)-2]
			}
			blank(last.start, last.end)
		case t.word && primaryHintEnd(toks, i) > 0:
			// FORCE|USE|IGNORE INDEX (... PRIMARY ...): the parser reads
			// no keyword there, and go-mysql-server's planner takes no
			// index hint: it goes.
			blank(t.start, toks[primaryHintEnd(toks, i)].end)
		case t.word && strings.EqualFold(t.text, "DEFINER") && i+2 < len(toks) &&
			toks[i+1].text == "=" && toks[i+2].word && strings.EqualFold(toks[i+2].text, "CURRENT_USER"):
			end := toks[i+2].end
			if i+4 < len(toks) && toks[i+3].text == "(" && toks[i+4].text == ")" {
				end = toks[i+4].end
			}
			blank(t.start, end)
		}
	}
	if b == nil {
		return q, false
	}
	return string(b), true
}

// primaryHintEnd returns the index of the ')' that ends an index hint
// starting at toks[i] (FORCE, USE or IGNORE, INDEX or KEY, FOR JOIN,
// ORDER BY or GROUP BY, a list in parentheses) that names PRIMARY, else
// -1.
func primaryHintEnd(toks []codeWord, i int) int {
	switch strings.ToUpper(toks[i].text) {
	case "FORCE", "USE", "IGNORE":
	default:
		return -1
	}
	k := i + 1
	if k >= len(toks) || !strings.EqualFold(toks[k].text, "INDEX") && !strings.EqualFold(toks[k].text, "KEY") {
		return -1
	}
	k++
	if k < len(toks) && strings.EqualFold(toks[k].text, "FOR") {
		k += 2
		if k-1 < len(toks) && !strings.EqualFold(toks[k-1].text, "JOIN") {
			k++ // ORDER BY, GROUP BY
		}
	}
	if k >= len(toks) || toks[k].text != "(" {
		return -1
	}
	primary := false
	for k++; k < len(toks); k++ {
		switch {
		case toks[k].text == ")":
			if primary {
				return k
			}
			return -1
		case toks[k].word && strings.EqualFold(toks[k].text, "PRIMARY"):
			primary = true
		case !toks[k].word && toks[k].text != ",":
			return -1
		}
	}
	return -1
}

// dropConstraintIfExists reports whether toks[i:] starts DROP CONSTRAINT
// IF EXISTS.
func dropConstraintIfExists(toks []codeWord, i int) bool {
	return i+4 < len(toks) && strings.EqualFold(toks[i].text, "DROP") && strings.EqualFold(toks[i+1].text, "CONSTRAINT") &&
		strings.EqualFold(toks[i+2].text, "IF") && strings.EqualFold(toks[i+3].text, "EXISTS")
}

// wholeParenthesized reports whether the statement toks are of is one
// SELECT (or WITH, VALUES, TABLE) in parentheses: the '(' first matches
// the last token (before a ';').
func wholeParenthesized(toks []codeWord) bool {
	n := len(toks)
	if n > 0 && toks[n-1].text == ";" {
		n--
	}
	if n < 3 || toks[n-1].text != ")" {
		return false
	}
	switch strings.ToUpper(toks[1].text) {
	case "SELECT", "WITH", "VALUES", "TABLE", "(":
	default:
		return false
	}
	depth := 0
	for k := 0; k < n; k++ {
		switch toks[k].text {
		case "(":
			depth++
		case ")":
			depth--
			if depth == 0 && k != n-1 {
				return false
			}
		case ";":
			return false
		}
	}
	return depth == 0
}

// exprKeywords are words after which `YEAR(` is the function YEAR.
var exprKeywords = wordSet(`SELECT WHERE AND OR NOT XOR BY THEN ELSE WHEN RETURN DISTINCT
		DISTINCTROW ON HAVING SET IN IS LIKE CASE DEFAULT INTERVAL ALL ANY SOME EXISTS
		BETWEEN DIV MOD AS REGEXP RLIKE UNION EXCEPT INTERSECT DO CALL IF WHILE UNTIL ELSEIF LIMIT
		OFFSET BINARY HIGH_PRIORITY STRAIGHT_JOIN SQL_SMALL_RESULT SQL_BIG_RESULT SQL_BUFFER_RESULT
		SQL_NO_CACHE SQL_CACHE SQL_CALC_FOUND_ROWS ESCAPE SOUNDS SEPARATOR USING INTO
		GENERATED ALWAYS EACH`)

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// codeWord is a token of code: a word (identifier, keyword, number or
// quoted identifier) or one punctuation byte, with its byte range.
type codeWord struct {
	text       string
	start, end int
	word       bool
}

// codeWords splits q into code tokens, skipping strings, comments (the
// text of /*! */ comments is code) and whitespace. Quoted identifiers are
// words. It is not the parser's tokenizer: it serves dialectRewrite's
// patterns, whose result the parser checks.
func codeWords(q string) []codeWord {
	var out []codeWord
	isWord := func(c byte) bool {
		return c == '_' || c == '$' || c >= 0x80 || (c >= '0' && c <= '9') || (c|0x20 >= 'a' && c|0x20 <= 'z')
	}
	for i := 0; i < len(q); {
		c := q[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			i++
		case c == '#' || (c == '-' && strings.HasPrefix(q[i:], "-- ")) || (c == '-' && (q[i:] == "--" || strings.HasPrefix(q[i:], "--\n") || strings.HasPrefix(q[i:], "--\t"))):
			for i < len(q) && q[i] != '\n' {
				i++
			}
		case c == '/' && strings.HasPrefix(q[i:], "/*!"):
			// Executable comment: skip the marker and the version.
			i += 3
			for i < len(q) && q[i] >= '0' && q[i] <= '9' {
				i++
			}
		case c == '/' && strings.HasPrefix(q[i:], "/*"):
			if j := strings.Index(q[i+2:], "*/"); j >= 0 {
				i += j + 4
			} else {
				i = len(q)
			}
		case c == '*' && strings.HasPrefix(q[i:], "*/"):
			i += 2 // end of an executable comment
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) {
				if q[j] == '\\' {
					j += 2
					continue
				}
				if q[j] == c {
					if j+1 < len(q) && q[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			i = min(j+1, len(q))
		case c == '`':
			j := i + 1
			for j < len(q) {
				if q[j] == '`' {
					if j+1 < len(q) && q[j+1] == '`' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			end := min(j+1, len(q))
			out = append(out, codeWord{text: q[i:end], start: i, end: end, word: true})
			i = end
		case isWord(c):
			j := i
			for j < len(q) && isWord(q[j]) {
				j++
			}
			out = append(out, codeWord{text: q[i:j], start: i, end: j, word: true})
			i = j
		default:
			out = append(out, codeWord{text: q[i : i+1], start: i, end: i + 1})
			i++
		}
	}
	return out
}

// wordSet is the set of the space-separated words of s.
func wordSet(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// packageStatusRewrite turns SHOW PACKAGE [BODY] STATUS [LIKE ... | WHERE
// ...] (MariaDB's Oracle-mode packages, of which HandlerDB has none; its
// dump tool asks) into a SHOW PROCEDURE STATUS that lists nothing: the
// same columns, no rows. The text after the statement is kept.
func packageStatusRewrite(q string) (string, bool) {
	toks := codeWords(q)
	k := 2
	if len(toks) < 3 || !strings.EqualFold(toks[0].text, "SHOW") || !strings.EqualFold(toks[1].text, "PACKAGE") {
		return q, false
	}
	if strings.EqualFold(toks[k].text, "BODY") {
		k++
	}
	if k >= len(toks) || !strings.EqualFold(toks[k].text, "STATUS") {
		return q, false
	}
	end := len(q)
	for _, t := range toks[k:] {
		if t.text == ";" {
			end = t.start
			break
		}
	}
	return "SHOW PROCEDURE STATUS WHERE FALSE" + q[end:], true
}

// passwordHashRewrite turns MariaDB's `IDENTIFIED BY PASSWORD 'hash'` in
// CREATE USER and ALTER USER (how SHOW CREATE USER and mariadb-dump
// --system=users give an account's password) into the parser's
// `IDENTIFIED WITH mysql_native_password AS 'hash'`, which stores the
// hash as it is. In a statement that also locks the account, a bare
// `PASSWORD EXPIRE` (expire now, which the parser lacks: MariaDB's dump
// of its mariadb.sys account) goes: a locked account cannot log in to be
// asked for a new password. GRANT ... IDENTIFIED BY PASSWORD is not
// rewritten (it stays a syntax error).
func passwordHashRewrite(q string) (string, bool) {
	toks := codeWords(q)
	if len(toks) < 5 || !strings.EqualFold(toks[1].text, "USER") ||
		!strings.EqualFold(toks[0].text, "CREATE") && !strings.EqualFold(toks[0].text, "ALTER") {
		return q, false
	}
	is := func(i int, w string) bool { return i < len(toks) && strings.EqualFold(toks[i].text, w) }
	locked := false
	for i := range toks {
		locked = locked || is(i, "ACCOUNT") && is(i+1, "LOCK")
	}
	var b strings.Builder
	last, changed := 0, false
	for i := 0; i+1 < len(toks) && toks[i].text != ";"; i++ {
		switch {
		case is(i, "IDENTIFIED") && is(i+1, "BY") && is(i+2, "PASSWORD"):
			b.WriteString(q[last:toks[i].start])
			b.WriteString("IDENTIFIED WITH mysql_native_password AS")
			last, changed = toks[i+2].end, true
		case locked && is(i, "PASSWORD") && is(i+1, "EXPIRE") && !is(i+2, "DEFAULT") && !is(i+2, "NEVER") && !is(i+2, "INTERVAL"):
			b.WriteString(q[last:toks[i].start])
			last, changed = toks[i+1].end, true
		}
	}
	if !changed {
		return q, false
	}
	b.WriteString(q[last:])
	return b.String(), true
}
