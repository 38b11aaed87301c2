package mariadb

import (
	"strings"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// Stored functions: the vitess parser knows no CREATE FUNCTION, DROP
// FUNCTION or SHOW CREATE FUNCTION. When a statement fails to parse,
// dialectRewrite (through routineRewrite) translates those three into
// statements go-mysql-server runs, as sqlbackend/routines.go describes:
//
//   - CREATE [OR REPLACE] [DEFINER=...] FUNCTION [IF NOT EXISTS] f(x T)
//     RETURNS R [characteristics] body becomes CREATE PROCEDURE
//     __hdb_fn_f(IN x T) __hdb_fn: BEGIN body' END, where body' is the body
//     with each RETURN e turned into SET @__hdb_ret_f = e; LEAVE __hdb_fn,
//     and a comment carries the function as declared;
//   - DROP FUNCTION [IF EXISTS] f becomes DROP PROCEDURE [IF EXISTS]
//     __hdb_fn_f;
//   - SHOW CREATE FUNCTION f becomes a SELECT of MariaDB's six columns,
//     computed by the backend's helper function.
//
// Only the statement at the start of the text is translated; the rest of
// the text follows unchanged, so that a multi-statement text goes on with
// the next statement as written. A body is RETURN expr or a BEGIN ... END
// block (optionally labeled); other forms are left to the parser's error.

// routineRewrite returns q with a function statement at its start
// translated, and whether there was one.
func routineRewrite(q string) (string, bool) {
	q = blankVersionComments(q)
	toks := codeWords(q)
	is := func(i int, w string) bool {
		return i < len(toks) && toks[i].word && strings.EqualFold(toks[i].text, w)
	}
	switch {
	case is(0, "CREATE"):
		return createFunctionRewrite(q, toks, is)
	case is(0, "DROP") && is(1, "FUNCTION"):
		i, ifExists := 2, ""
		if is(2, "IF") && is(3, "EXISTS") {
			i, ifExists = 4, "IF EXISTS "
		}
		db, name, next, ok := routineName(toks, i)
		if !ok {
			return q, false
		}
		return "DROP PROCEDURE " + ifExists + qualifiedProcedure(db, name) + q[toks[next-1].end:], true
	case is(0, "SHOW") && is(1, "CREATE") && is(2, "FUNCTION"):
		db, name, next, ok := routineName(toks, 3)
		if !ok {
			return q, false
		}
		if db != "" {
			name = db + "." + name
		}
		lit := "'" + strings.ReplaceAll(strings.ReplaceAll(name, `\`, `\\`), "'", "''") + "'"
		col := func(n string) string { return sqlbackend.ShowFunctionHelper + "(" + lit + ", " + n + ")" }
		sel := "SELECT " + col("0") + " AS `Function`, " + col("1") + " AS `sql_mode`, " + col("2") + " AS `Create Function`, " +
			"@@character_set_client AS `character_set_client`, @@collation_connection AS `collation_connection`, " +
			col("3") + " AS `Database Collation`"
		return sel + q[toks[next-1].end:], true
	}
	return q, false
}

// routineName reads [db.]name at toks[i]; next is the index after it.
func routineName(toks []codeWord, i int) (db, name string, next int, ok bool) {
	if i >= len(toks) || !toks[i].word {
		return "", "", 0, false
	}
	if i+2 < len(toks) && toks[i+1].text == "." && toks[i+2].word && toks[i+1].start == toks[i].end {
		return unquoteIdent(toks[i].text), unquoteIdent(toks[i+2].text), i + 3, true
	}
	return "", unquoteIdent(toks[i].text), i + 1, true
}

// unquoteIdent removes an identifier's backquotes.
func unquoteIdent(s string) string {
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		return strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s
}

// quoteIdent backquotes a name.
func quoteIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// qualifiedProcedure names the hidden procedure of [db.]name.
func qualifiedProcedure(db, name string) string {
	p := quoteIdent(sqlbackend.FunctionProcedure(name))
	if db != "" {
		return quoteIdent(db) + "." + p
	}
	return p
}

// createFunctionRewrite translates CREATE FUNCTION (see above).
func createFunctionRewrite(q string, toks []codeWord, is func(int, string) bool) (string, bool) {
	def := &sqlbackend.FunctionDef{}
	i := 1
	if is(i, "OR") && is(i+1, "REPLACE") {
		def.OrReplace, i = true, i+2
	}
	if is(i, "DEFINER") && i+1 < len(toks) && toks[i+1].text == "=" {
		j := i + 2
		for j < len(toks) && !is(j, "FUNCTION") && !is(j, "PROCEDURE") && !is(j, "AGGREGATE") {
			j++
		}
		if j >= len(toks) {
			return q, false
		}
		d := strings.TrimSpace(q[toks[i+1].end:toks[j].start])
		if u := strings.ToUpper(strings.ReplaceAll(d, " ", "")); u != "CURRENT_USER" && u != "CURRENT_USER()" {
			def.Definer = d
		}
		i = j
	}
	if !is(i, "FUNCTION") {
		return q, false
	}
	i++
	if is(i, "IF") && is(i+1, "NOT") && is(i+2, "EXISTS") {
		def.IfNotExists, i = true, i+3
	}
	db, name, i, ok := routineName(toks, i)
	if !ok || i >= len(toks) || toks[i].text != "(" {
		return q, false
	}
	def.Name = name
	open, depth := i, 0
	var groups [][2]int // parameter token ranges
	start := open + 1
	for i = open; i < len(toks); i++ {
		switch toks[i].text {
		case "(":
			depth++
		case ")":
			depth--
		case ",":
			if depth == 1 {
				groups = append(groups, [2]int{start, i})
				start = i + 1
			}
		}
		if depth == 0 {
			break
		}
	}
	if i >= len(toks) {
		return q, false
	}
	closing := i
	if start < closing {
		groups = append(groups, [2]int{start, closing})
	}
	def.Params = strings.TrimSpace(q[toks[open].end:toks[closing].start])
	var inParams []string
	for _, g := range groups {
		if !toks[g[0]].word {
			return q, false
		}
		def.ParamNames = append(def.ParamNames, unquoteIdent(toks[g[0]].text))
		inParams = append(inParams, "IN "+strings.TrimSpace(q[toks[g[0]].start:toks[g[1]-1].end]))
	}
	i = closing + 1
	if !is(i, "RETURNS") || i+1 >= len(toks) {
		return q, false
	}
	i++
	typeStart := i
	for depth = 0; i < len(toks); i++ {
		switch toks[i].text {
		case "(":
			depth++
			continue
		case ")":
			depth--
			continue
		}
		if depth == 0 && i > typeStart && (characteristicAt(toks, i, is) || bodyAt(toks, i, is)) {
			break
		}
	}
	if i >= len(toks) {
		return q, false
	}
	def.Returns = strings.TrimSpace(q[toks[typeStart].start:toks[i].start])
	// Characteristics.
	for i < len(toks) && characteristicAt(toks, i, is) {
		switch {
		case is(i, "LANGUAGE"):
			i += 2
		case is(i, "NOT"):
			def.Deterministic, i = false, i+2
		case is(i, "DETERMINISTIC"):
			def.Deterministic, i = true, i+1
		case is(i, "CONTAINS"), is(i, "NO"):
			def.DataAccess, i = strings.ToUpper(toks[i].text)+" SQL", i+2
		case is(i, "READS"), is(i, "MODIFIES"):
			def.DataAccess, i = strings.ToUpper(toks[i].text)+" SQL DATA", i+3
		case is(i, "SQL"):
			def.Invoker, i = is(i+2, "INVOKER"), i+3
		case is(i, "COMMENT"):
			text, end, ok := stringLiteralAt(q, toks[i].end)
			if !ok {
				return q, false
			}
			def.Comment = text
			for i++; i < len(toks) && toks[i].start < end; i++ {
			}
		}
	}
	if i >= len(toks) || !bodyAt(toks, i, is) {
		return q, false
	}
	bodyStart := toks[i].start
	ret := "@" + quoteIdent(sqlbackend.FunctionReturnVar(name))
	var body string
	var bodyEnd int
	if is(i, "RETURN") {
		end := statementEnd(toks, i+1, len(toks))
		bodyEnd = len(q)
		if end < len(toks) {
			bodyEnd = toks[end].start
		}
		def.Body = strings.TrimRight(q[bodyStart:bodyEnd], " \t\r\n")
		body = "SET " + ret + " = " + strings.TrimSpace(q[toks[i].end:bodyEnd]) + ";"
	} else {
		last, ok := blockEnd(toks, i, is)
		if !ok {
			return q, false
		}
		bodyEnd = toks[last].end
		def.Body = q[bodyStart:bodyEnd]
		// Each RETURN e; sets the OUT parameter and leaves the block.
		var b strings.Builder
		pos := bodyStart
		for r := i; r <= last; r++ {
			if !is(r, "RETURN") {
				continue
			}
			end := statementEnd(toks, r+1, last+1)
			if end > last {
				return q, false
			}
			b.WriteString(q[pos:toks[r].start])
			b.WriteString("SET " + ret + " = ")
			b.WriteString(strings.TrimSpace(q[toks[r].end:toks[end].start]))
			b.WriteString("; LEAVE " + sqlbackend.FunctionLabel)
			pos = toks[end].start
		}
		b.WriteString(q[pos:bodyEnd])
		body = b.String() + ";"
	}
	proc := "CREATE PROCEDURE " + qualifiedProcedure(db, name) + "(" + strings.Join(inParams, ", ") + ") " +
		sqlbackend.EncodeFunctionDef(def) + " " + sqlbackend.FunctionLabel + ": BEGIN " + body + " END"
	return proc + q[bodyEnd:], true
}

// characteristicAt reports whether a routine characteristic starts at
// toks[i].
func characteristicAt(toks []codeWord, i int, is func(int, string) bool) bool {
	switch {
	case is(i, "LANGUAGE") && is(i+1, "SQL"), is(i, "NOT") && is(i+1, "DETERMINISTIC"), is(i, "DETERMINISTIC"),
		is(i, "CONTAINS") && is(i+1, "SQL"), is(i, "NO") && is(i+1, "SQL"),
		is(i, "READS") && is(i+1, "SQL"), is(i, "MODIFIES") && is(i+1, "SQL"),
		is(i, "SQL") && is(i+1, "SECURITY"), is(i, "COMMENT"):
		return true
	}
	return false
}

// bodyAt reports whether a function body starts at toks[i]: RETURN, BEGIN
// or a label before BEGIN.
func bodyAt(toks []codeWord, i int, is func(int, string) bool) bool {
	return is(i, "RETURN") || is(i, "BEGIN") || (i+2 < len(toks) && toks[i].word && toks[i+1].text == ":" && is(i+2, "BEGIN"))
}

// statementEnd returns the index of the ';' that ends the statement whose
// tokens start at from (outside parentheses), or limit.
func statementEnd(toks []codeWord, from, limit int) int {
	depth := 0
	for i := from; i < limit; i++ {
		switch toks[i].text {
		case "(":
			depth++
		case ")":
			depth--
		case ";":
			if depth <= 0 {
				return i
			}
		}
	}
	return limit
}

// blockEnd returns the index of the last token of the BEGIN ... END block
// (with its label, if any) starting at toks[i]. BEGIN and CASE open a
// level; END closes one unless it ends an IF, LOOP, WHILE or REPEAT.
func blockEnd(toks []codeWord, i int, is func(int, string) bool) (int, bool) {
	label := ""
	if !is(i, "BEGIN") {
		label, i = toks[i].text, i+2
	}
	depth := 0
	for ; i < len(toks); i++ {
		switch {
		case is(i, "BEGIN"), is(i, "CASE"):
			depth++
		case is(i, "END"):
			if is(i+1, "IF") || is(i+1, "LOOP") || is(i+1, "WHILE") || is(i+1, "REPEAT") {
				i++
				continue
			}
			if is(i+1, "CASE") {
				i++
			}
			depth--
			if depth == 0 {
				if label != "" && i+1 < len(toks) && strings.EqualFold(toks[i+1].text, label) {
					i++
				}
				return i, true
			}
		}
	}
	return 0, false
}

// stringLiteralAt reads the SQL string literal that starts after
// whitespace at q[pos:]: its value and the offset after it.
func stringLiteralAt(q string, pos int) (string, int, bool) {
	for pos < len(q) && strings.IndexByte(" \t\r\n", q[pos]) >= 0 {
		pos++
	}
	if pos >= len(q) || (q[pos] != '\'' && q[pos] != '"') {
		return "", 0, false
	}
	quote := q[pos]
	var b strings.Builder
	for i := pos + 1; i < len(q); i++ {
		c := q[i]
		switch {
		case c == '\\' && i+1 < len(q):
			i++
			switch q[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case '0':
				b.WriteByte(0)
			default:
				b.WriteByte(q[i])
			}
		case c == quote && i+1 < len(q) && q[i+1] == quote:
			b.WriteByte(quote)
			i++
		case c == quote:
			return b.String(), i + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", 0, false
}

// blankVersionComments blanks out the markers of MySQL's executable
// comments (`/*!50003 ` and their `*/`), which mysqldump puts around the
// parts of CREATE FUNCTION, so that the statement reads as plain code. The
// length of q is kept.
func blankVersionComments(q string) string {
	if !strings.Contains(q, "/*!") {
		return q
	}
	b := []byte(q)
	open := false
	var quote byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || c == '`':
			quote = c
		case c == '/' && i+2 < len(b) && b[i+1] == '*' && b[i+2] == '!':
			j := i + 3
			for j < len(b) && b[j] >= '0' && b[j] <= '9' {
				j++
			}
			for k := i; k < j; k++ {
				b[k] = ' '
			}
			open, i = true, j-1
		case c == '*' && open && i+1 < len(b) && b[i+1] == '/':
			b[i], b[i+1] = ' ', ' '
			open, i = false, i+1
		}
	}
	return string(b)
}
