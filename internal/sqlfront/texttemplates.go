package sqlfront

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
)

// Text INSERTs, UPDATEs and DELETEs run from the prepared statements'
// templates (prepplans.go) when they can. Most clients (PyMySQL,
// mysqlclient, PHP, sysbench's oltp_insert) send their values in the
// statement's text, so no two have the same text and the plan cache,
// which keys on the text, never serves them: each was parsed, bound and
// analyzed, two fifths of oltp_insert's time. textTemplate cuts a
// statement's literals out of its text, leaving a statement with a parameter for each, and the execution
// goes to the templates with the literals as its parameter values, as if
// the client had prepared it: the first executions analyze as usual (and
// make or confirm the template), later ones take the confirmed template.
//
// Only what reads the same both ways is cut: quoted strings without a
// backslash (what a backslash means depends on NO_BACKSLASH_ESCAPES),
// integers of at most 18 digits and decimals without an exponent; a
// statement with a comment, a double-quoted string (ANSI_QUOTES), a '?', an
// introducer or typed literal (_utf8mb4'x', X'..', DATE '...', INTERVAL
// 'x'), a hexadecimal or binary number, a number after BY (ORDER BY 1
// names a position), or a second statement is left as it is. A SELECT is
// cut only when its template is a point select the fast path serves
// (fastpath.go): a literal of a select list names its column, so one
// before the WHERE leaves the SELECT as it is, and every other SELECT
// goes on to the plan cache with its own text.

// maxTextParams bounds the literals one text INSERT may have cut (the
// protocol's limit for a prepared statement).
const maxTextParams = 65535

// textTemplate returns the template text of query (an INSERT, UPDATE,
// DELETE or SELECT) with a parameter for each literal it cuts, and the
// literals as the bind variables v1, v2, ...; ok is false when the
// statement is not one it can cut. A SELECT's literals are cut only after
// its first WHERE, and one with a literal before it is not cut (the point
// selects the fast path serves have none there).
func textTemplate(query string) (text string, vars map[string]*querypb.BindVariable, ok bool) {
	where := true // literals may be cut here
	switch firstWord(query) {
	case "insert", "update", "delete":
	case "select":
		where = false
	default:
		return "", nil, false
	}
	var b strings.Builder
	b.Grow(len(query))
	vars = map[string]*querypb.BindVariable{}
	add := func(t querypb.Type, v string) bool {
		if len(vars) >= maxTextParams {
			return false
		}
		vars[paramName(len(vars))] = &querypb.BindVariable{Type: t, Value: []byte(v)}
		b.WriteByte('?')
		return true
	}
	lastWord := "" // the word right before (spaces aside), upper case
	i := 0
	for i < len(query) {
		ch := query[i]
		switch {
		case ch == '\'':
			if !where || i > 0 && isIdentByte(query[i-1]) {
				return "", nil, false // an introducer: _utf8mb4'x', X'0A', N'x'
			}
			switch lastWord {
			case "DATE", "TIME", "TIMESTAMP", "INTERVAL":
				return "", nil, false // a typed literal
			}
			// the value: the text between the quotes, with each doubled
			// quote made one (copied only when there is one)
			var v strings.Builder
			doubled := false
			j := i + 1
			for {
				if j >= len(query) {
					return "", nil, false
				}
				c := query[j]
				if c == '\\' {
					return "", nil, false
				}
				if c == '\'' {
					if j+1 < len(query) && query[j+1] == '\'' {
						if !doubled {
							doubled = true
							v.WriteString(query[i+1 : j])
						}
						v.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				if doubled {
					v.WriteByte(c)
				}
				j++
			}
			value := query[i+1 : j]
			if doubled {
				value = v.String()
			}
			// 'a' 'b' is one literal in MySQL: not cut
			k := j + 1
			for k < len(query) && isSpace(query[k]) {
				k++
			}
			if k < len(query) && query[k] == '\'' {
				return "", nil, false
			}
			if !add(querypb.Type_VARCHAR, value) {
				return "", nil, false
			}
			i, lastWord = j+1, ""
		case ch == '"' || ch == '#' || ch == '?':
			return "", nil, false
		case ch == '-' && i+1 < len(query) && query[i+1] == '-', ch == '/' && i+1 < len(query) && query[i+1] == '*':
			return "", nil, false
		case ch == '`':
			j := i + 1
			for {
				if j >= len(query) {
					return "", nil, false
				}
				if query[j] == '`' {
					if j+1 < len(query) && query[j+1] == '`' {
						j += 2
						continue
					}
					break
				}
				j++
			}
			b.WriteString(query[i : j+1])
			i, lastWord = j+1, ""
		case ch == ';':
			if strings.Trim(query[i:], "; \t\r\n") != "" {
				return "", nil, false
			}
			i = len(query)
		case (isDigit(ch) || ch == '.' && i+1 < len(query) && isDigit(query[i+1])) && (i == 0 || !isIdentByte(query[i-1]) && query[i-1] != '.'):
			j, dot := i, false
			for j < len(query) && (isDigit(query[j]) || query[j] == '.' && !dot) {
				dot = dot || query[j] == '.'
				j++
			}
			if j < len(query) && (isIdentByte(query[j]) || query[j] == '.') {
				return "", nil, false // 1e5, 0x1F, 0b01, 1col, 1.2.3
			}
			if lastWord == "BY" || !where {
				return "", nil, false // ORDER BY 1: a position, not a value
			}
			num := query[i:j]
			t := querypb.Type_INT64
			if dot {
				t = querypb.Type_DECIMAL
			} else if len(num) > 18 {
				return "", nil, false
			}
			if !add(t, num) {
				return "", nil, false
			}
			i, lastWord = j, ""
		case isIdentByte(ch):
			j := i
			for j < len(query) && isIdentByte(query[j]) {
				j++
			}
			b.WriteString(query[i:j])
			lastWord = strings.ToUpper(query[i:j])
			where = where || lastWord == "WHERE"
			i = j
		default:
			b.WriteByte(ch)
			if !isSpace(ch) {
				lastWord = ""
			}
			i++
		}
	}
	if len(vars) == 0 {
		return "", nil, false
	}
	return b.String(), vars, true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isIdentByte reports a byte of an unquoted identifier or keyword
// (letters, digits, _, $, and every byte of a multi-byte character).
func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '$' || c >= 0x80
}

// textTemplated runs the text statement query from the templates when it
// can (see textTemplate); done is false when it must take the ordinary
// path. On c's goroutine.
func (h *mariaHandler) textTemplated(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (done bool, err error) {
	if h.noPlanCache.Load() {
		return false, nil
	}
	text, vars, ok := textTemplate(query)
	if !ok {
		return false, nil
	}
	s := h.srv.Load()
	if s == nil {
		return false, nil
	}
	if !h.noFast.Load() {
		var done bool
		prep := &mysql.PrepareData{PrepareStmt: text, ParamsCount: uint16(len(vars)), BindVars: vars}
		send := func(r *sqltypes.Result) error { return callback(r, false) }
		switch p := h.points.remember(text).(type) {
		case *writePlan:
			done, err = h.execWrite(ctx, c, p, prep, send)
		case *pointPlan:
			done, err = h.execPoint(ctx, c, p, prep, send, query)
		}
		if done {
			return true, err
		}
	}
	if firstWord(query) == "select" {
		return false, nil // (SELECTs are cut for the fast path only)
	}
	// The template's statement, parsed once a session as a prepared
	// statement is (the templates read it from there; a session's id is
	// its connection's).
	cache := s.engine.PreparedDataCache
	if _, cached := cache.GetCachedStmt(c.ConnectionID, text); !cached {
		sctx, err := s.srv.SessionManager().NewContextWithQuery(ctx, c, text)
		if err != nil {
			return false, nil
		}
		st, _, err := s.engine.Parser.ParseOneWithOptions(sctx, text, sql.LoadSqlMode(sctx).ParserOptions())
		if err != nil {
			return false, nil
		}
		cache.CacheStmt(c.ConnectionID, text, st)
	}
	prep := &mysql.PrepareData{PrepareStmt: text, ParamsCount: uint16(min(len(vars), 65535)), BindVars: vars}
	return h.templated(ctx, c, prep, callback)
}
