package sqlfront

import (
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// INSERT ... RETURNING select_list (MariaDB 10.5 and later) answers the
// inserted rows' values of the list as a result set; Django
// uses it on MariaDB for every insert, to learn the new ids. The parser
// has the clause in its tree, and go-mysql-server plans and runs it, but
// the MySQL grammar does not read it: returningStatement parses the
// statement without the clause and the clause as a select list, and puts
// the list in the tree.

// returningStatement parses the first statement of q when it is an
// INSERT with a RETURNING clause (REPLACE ... RETURNING stays a syntax
// error: go-mysql-server's REPLACE drops the list); rest is the text after it
// (after its ';'). ok is false for anything else.
func (g *guardedParser) returningStatement(q string) (st ast.Statement, first, rest string, ok bool) {
	if firstWord(q) != "insert" {
		return nil, "", "", false // (REPLACE ... RETURNING: go-mysql-server drops the list)
	}
	first, rest, err := ast.SplitStatement(q)
	if err != nil {
		return nil, "", "", false
	}
	at := returningAt(first)
	if at < 0 {
		return nil, "", "", false
	}
	st, err = g.Parser.ParseSimple(first[:at])
	if err != nil {
		return nil, "", "", false
	}
	ins, isInsert := st.(*ast.Insert)
	if !isInsert {
		return nil, "", "", false
	}
	sel, err := g.Parser.ParseSimple("SELECT " + first[at+len("returning"):])
	if err != nil {
		return nil, "", "", false
	}
	s, isSelect := sel.(*ast.Select)
	if !isSelect || s.From != nil || s.Where != nil || len(s.SelectExprs) == 0 {
		return nil, "", "", false
	}
	ins.Returning = s.SelectExprs
	return ins, first, rest, true
}

// returningAt returns the offset in q of a RETURNING word outside
// parentheses, strings and comments (as the tokenizer reads them), or -1.
func returningAt(q string) int {
	if !sqlbackend.ContainsFold(q, "returning") {
		return -1
	}
	tz := ast.NewStringTokenizer(q)
	depth := 0
	for {
		typ, val := tz.Scan()
		switch {
		case typ == 0 || typ == ';':
			return -1
		case typ == '(':
			depth++
		case typ == ')':
			depth--
		case typ == ast.ID && depth == 0 && strings.EqualFold(string(val), "returning"):
			// the word ends before the tokenizer's position
			for i := min(tz.Position, len(q)) - len("returning"); i >= 0; i-- {
				if strings.EqualFold(q[i:i+len("returning")], "returning") {
					return i
				}
			}
			return -1
		}
	}
}
