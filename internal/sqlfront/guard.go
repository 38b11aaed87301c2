package sqlfront

import (
	"context"
	"reflect"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/mariadb"
)

// Statement depth guard.
//
// go-mysql-server's planner and analyzer recurse over a statement's tree
// once per level of nesting, with about 2 KiB of stack per level, and the
// vitess parser's own walks over the tree it built use 160 bytes per
// level. A Go stack that outgrows its limit (1 GB; stacks grow by
// doubling, so 512 MiB is the last size allowed) is fatal, not a
// recoverable panic: one `SELECT 1+1+...+1` of 280,000 terms (0.6 MB), sent
// by any account, took the whole process down. Every parse that
// go-mysql-server makes (text queries, multi-statements, prepared
// statements, PREPARE ... FROM, views, triggers and procedures read back)
// goes through guardedParser, which
//
//   - before parsing a text longer than unscannedTextLen, scans its tokens
//     and refuses one whose nesting could reach maxTokenNesting (so the
//     vitess parser's walks stay shallow), and
//   - after parsing, measures the depth of the syntax tree and refuses one
//     deeper than maxStatementDepth, before the planner sees it.
//
// Refused statements fail with ER_STACK_OVERRUN_NEED_MORE (1436), as
// MariaDB answers for expressions nested too deeply for its thread stack
// (it refuses `1+1+...` beyond about 600 terms); the connection stays
// usable.
//
// COM_STMT_PREPARE is parsed by the wire layer (with the vitess grammar,
// to count placeholders) before the guarded parser sees the text, so
// those packets are bounded by size instead (maxPrepareLen, see
// netlimit.go).

const (
	// maxStatementDepth bounds the depth of a statement's syntax tree
	// (every node counts: `SELECT 1+1+...+1` with n terms is n+3 deep).
	// go-mysql-server needs less than 2 MiB of stack at this depth
	// (measured: `1+1+...` of 1000 terms, 1000 NOTs, 1000 nested CASEs
	// and 1000 ORs all run with a 2 MiB stack limit); the process dies
	// near depth 270,000. The planner's time grows with the square of
	// the depth (`1+1+...` of 1000 terms plans in 0.6 s, 4000 terms in
	// 9 s), which is the reason not to allow more.
	maxStatementDepth = 1000
	// unscannedTextLen is the longest text parsed without a token scan:
	// the vitess parser's walks over its tree need at most 160 bytes of
	// stack per byte of text (one level per byte, as in `~~~~1`), 10 MiB
	// for this length.
	unscannedTextLen = 64 << 10
	// maxTokenNesting bounds the token scan's estimate of a longer text's
	// nesting (see tokenNesting).
	maxTokenNesting = 64 << 10
	// errtable.ERStackOverrun is ER_STACK_OVERRUN_NEED_MORE.
)

// errStackOverrun is the error of a refused statement.
func errStackOverrun() error {
	return mysql.NewSQLError(errtable.ERStackOverrun, "HY000",
		"Thread stack overrun: the statement nests more than %d levels deep (operators, parentheses, CASE, subqueries, UNION)", maxStatementDepth)
}

// guardedParser is go-mysql-server's parser with the depth guard around
// every parse; CHANGE REPLICATION FILTER, and CHANGE REPLICATION SOURCE
// with binlog coordinates, it parses itself (replicationStatement,
// replication.go). It remembers which connections had a statement refused, so
// that the handler can report error 1436 even where go-mysql-server
// rewrites parse errors into generic syntax errors. Safe for concurrent
// use.
type guardedParser struct {
	sql.Parser
	refused sync.Map // connection id (uint32) -> struct{}
	// hints checks a parsed statement's index hints (indexhints.go);
	// set before the server starts, nil in tests that parse only.
	hints func(ctx context.Context, query string, st ast.Statement) error
}

var _ sql.Parser = (*guardedParser)(nil)

// newGuardedParser wraps p.
func newGuardedParser(p sql.Parser) *guardedParser { return &guardedParser{Parser: p} }

// parseFunc is one entry point's call of the wrapped parser: it parses q
// and returns the statement, the text it took and what follows it. The
// replication statements' parsers (mariadb/replication.go) have its shape
// with ok, whether q is theirs.
type parseFunc func(q string) (st ast.Statement, parsed, rest string, err error)

type replFunc func(q string) (st ast.Statement, parsed, rest string, ok bool, err error)

// guarded is what every entry point does around its parse: the text's
// checks; MariaDB's replication statements (repl); executable comments
// resolved as MariaDB does (mariadb.ExecutableComments); LIKE escapes kept;
// when the parser refuses the text, INSERT ... RETURNING (where returning)
// and the dialect's text rewrites (mariadb.DialectRewrite); the tree's
// checks and MariaDB's passes over it (mariadb.RewriteStatement,
// CheckStatement); and MariaDB's 1064 for a syntax error. rest is in
// query's own text. multi is whether text may follow the statement.
func (g *guardedParser) guarded(ctx context.Context, query string, multi, returning bool, repl replFunc, parse parseFunc) (ast.Statement, string, string, error) {
	query = unmarkReturning(query)
	if err := checkText(query, multi); err != nil {
		return nil, "", "", g.refuse(ctx, err)
	}
	if st, parsed, rest, ok, err := repl(query); ok {
		return st, parsed, rest, parseError(query, err)
	}
	// MariaDB's executable comments (same length: offsets stay valid).
	query, _ = mariadb.ExecutableComments(query)
	orig := query
	query, ins := keepLikeEscapes(query)
	st, parsed, rest, err := parse(query)
	if err != nil {
		if st2, first, rest2, ok := g.returningStatement(query); ok && returning && (multi || strings.TrimSpace(rest2) == "") {
			st, parsed, rest, err = st2, first, rest2, nil
		} else if rw, ok := mariadb.DialectRewrite(query); ok {
			if st2, parsed2, rest2, err2 := parse(rw); err2 == nil {
				st, parsed, rest, err = st2, parsed2, originalRest(query, rw, rest2), nil
				mariadb.UnquoteIntervalUnits(st)
			}
		}
	}
	if ins != nil {
		rest = restOfOriginal(orig, query, ins, rest)
	}
	if err != nil {
		return st, parsed, rest, parseError(query, err)
	}
	restoreLabels(orig, query, ins, st)
	st = balanceUnions(st, parsed)
	st = mariaGrantTables(st, parsed)
	if err := checkTree(st, len(parsed)); err != nil {
		return nil, "", "", g.refuse(ctx, err)
	}
	mariadb.RewriteStatement(query, st)
	if err := mariadb.CheckStatement(query, st); err != nil {
		// (no tree with the error: go-mysql-server's multi-statement path
		// drops the error and runs a tree it is given)
		return nil, "", "", err
	}
	if g.hints != nil {
		if err := g.hints(ctx, parsed, st); err != nil {
			return nil, "", "", err
		}
	}
	return st, parsed, rest, nil
}

// replicationOne is mariadb.ReplicationStatement as a replFunc.
func replicationOne(multi bool) replFunc {
	return func(q string) (ast.Statement, string, string, bool, error) {
		st, end, ok, err := mariadb.ReplicationStatement(q, multi)
		end = min(max(end, 0), len(q))
		return st, q[:end], q[end:], ok, err
	}
}

// ParseSimple parses query with the guard.
func (g *guardedParser) ParseSimple(query string) (ast.Statement, error) {
	st, _, _, err := g.guarded(context.Background(), query, false, true, replicationOne(false),
		func(q string) (ast.Statement, string, string, error) {
			st, err := g.Parser.ParseSimple(q)
			return st, q, "", err
		})
	return st, err
}

// Parse parses the (first, with multi) statement of query with the guard.
func (g *guardedParser) Parse(ctx *sql.Context, query string, multi bool) (ast.Statement, string, string, error) {
	return g.guarded(ctx, query, multi, true,
		func(q string) (ast.Statement, string, string, bool, error) {
			return mariadb.ReplicationFilterParse(q, ';', multi)
		},
		func(q string) (ast.Statement, string, string, error) { return g.Parser.Parse(ctx, q, multi) })
}

// ParseWithOptions parses the (first, with multi) statement of query with
// the guard.
func (g *guardedParser) ParseWithOptions(ctx context.Context, query string, delimiter rune, multi bool, options ast.ParserOptions) (ast.Statement, string, string, error) {
	return g.guarded(ctx, query, multi, delimiter == ';',
		func(q string) (ast.Statement, string, string, bool, error) {
			return mariadb.ReplicationFilterParse(q, delimiter, multi)
		},
		func(q string) (ast.Statement, string, string, error) {
			return g.Parser.ParseWithOptions(ctx, q, delimiter, multi, options)
		})
}

// ParseOneWithOptions parses the first statement of s with the guard;
// end is where the next one starts.
func (g *guardedParser) ParseOneWithOptions(ctx context.Context, s string, options ast.ParserOptions) (ast.Statement, int, error) {
	s = unmarkReturning(s)
	st, _, rest, err := g.guarded(ctx, s, true, true, replicationOne(true),
		func(q string) (ast.Statement, string, string, error) {
			st, end, err := g.Parser.ParseOneWithOptions(ctx, q, options)
			end = min(max(end, 0), len(q))
			return st, q[:end], q[end:], err
		})
	if err != nil {
		return nil, 0, err
	}
	return st, len(s) - len(rest), nil
}

// keepLikeEscapes returns query with the backslash of each \% and \_
// inside a quoted string doubled, so that the parser (which drops a
// backslash before any character it does not decode) keeps it, as MySQL
// and MariaDB do: 'a\_b' is the four characters a\_b, and LIKE 'a\_b'
// matches a_b only. It also puts a space between SELECT (DISTINCT, ALL)
// and a string right after it: the parser placed such an item one
// character late, which named SELECT'a' a' and made SELECT” panic. ins
// are the offsets in the result of the characters added, ascending; nil
// (query unchanged) when there are none.
func keepLikeEscapes(query string) (string, []int) {
	if !strings.Contains(query, `\%`) && !strings.Contains(query, `\_`) && !hasKeywordQuote(query) {
		return query, nil
	}
	var b strings.Builder
	var ins []int
	var quote byte
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case quote == 0:
			if c == '\'' || c == '"' || c == '`' {
				quote = c
			}
			if keywordQuoteAt(query, i) {
				ins = append(ins, b.Len())
				b.WriteByte(' ')
			}
		case c == quote:
			quote = 0
		case c == '\\' && quote != '`' && i+1 < len(query):
			if n := query[i+1]; n == '%' || n == '_' {
				ins = append(ins, b.Len())
				b.WriteByte('\\')
			}
			b.WriteByte(c)
			b.WriteByte(query[i+1])
			i++
			continue
		}
		b.WriteByte(c)
	}
	if ins == nil {
		return query, nil
	}
	return b.String(), ins
}

// hasKeywordQuote reports whether a quote of s follows SELECT, DISTINCT
// or ALL with nothing between (keywordQuoteAt).
func hasKeywordQuote(s string) bool {
	for j := strings.IndexAny(s, `'"`); j >= 0; {
		if keywordQuoteAt(s, j) {
			return true
		}
		k := strings.IndexAny(s[j+1:], `'"`)
		if k < 0 {
			break
		}
		j += 1 + k
	}
	return false
}

// keywordQuoteAt reports whether s[i] is a quote (' or ") right after
// SELECT, DISTINCT or ALL.
func keywordQuoteAt(s string, i int) bool {
	if s[i] != '\'' && s[i] != '"' {
		return false
	}
	for _, kw := range [...]string{"select", "distinct", "all"} {
		start := i - len(kw)
		if start >= 0 && strings.EqualFold(s[start:i], kw) && (start == 0 || !isWordByte(s[start-1])) {
			return true
		}
	}
	return false
}

// isWordByte reports whether c can be part of an unquoted name.
func isWordByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// restOfOriginal maps rest, the unparsed remainder of rw (orig with
// keepLikeEscapes' backslashes added at ins), back to orig's text.
func restOfOriginal(orig, rw string, ins []int, rest string) string {
	if !strings.HasSuffix(rw, rest) {
		return rest
	}
	return orig[origOffset(ins, len(rw)-len(rest)):]
}

// origOffset maps offset off of the rewritten text back to the original,
// ins being the offsets of the characters keepLikeEscapes added.
func origOffset(ins []int, off int) int {
	k := 0
	for _, p := range ins {
		if p < off {
			k++
		}
	}
	return off - k
}

// restoreLabels gives each select expression of st, parsed from rw (orig
// with keepLikeEscapes' backslashes added at ins), its text as orig
// spells it: the column label MariaDB shows is the text as written.
func restoreLabels(orig, rw string, ins []int, st ast.Statement) {
	if ins == nil || st == nil {
		return
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		a, ok := n.(*ast.AliasedExpr)
		if !ok || a.StartParsePos < 0 || a.EndParsePos > len(rw) || a.StartParsePos > a.EndParsePos {
			return true, nil
		}
		if strings.TrimSpace(rw[a.StartParsePos:a.EndParsePos]) == a.InputExpression {
			a.InputExpression = strings.TrimSpace(orig[origOffset(ins, a.StartParsePos):origOffset(ins, a.EndParsePos)])
		}
		return true, nil
	}, st)
}

// originalRest maps rest, the unparsed remainder of rw (query rewritten
// by dialectRewrite, of the same length), back to query's text, so that
// the next statement is parsed (and, if need be, rewritten) as written.
func originalRest(query, rw, rest string) string {
	if len(rest) <= len(query) && strings.HasSuffix(rw, rest) {
		return query[len(query)-len(rest):]
	}
	return rest
}

// refuse records that ctx's connection had a statement refused and
// returns err.
func (g *guardedParser) refuse(ctx context.Context, err error) error {
	if sctx, ok := ctx.(*sql.Context); ok && sctx != nil && sctx.Session != nil {
		g.refused.Store(sctx.Session.ID(), struct{}{})
	}
	return err
}

// takeRefused reports whether the guard refused a statement of connection
// id since the last call, and forgets it.
func (g *guardedParser) takeRefused(id uint32) bool {
	_, ok := g.refused.LoadAndDelete(id)
	return ok
}

// checkText refuses a text whose tokens could nest deeper than
// maxTokenNesting; with first, only its first statement counts. Texts of
// at most unscannedTextLen bytes are not scanned.
func checkText(q string, first bool) error {
	if len(q) <= unscannedTextLen {
		return nil
	}
	if tokenNesting(q, first, maxTokenNesting) > maxTokenNesting {
		return errStackOverrun()
	}
	return nil
}

// tokenNesting estimates how deeply the syntax tree of q nests, from its
// tokens (the vitess tokenizer's, so that strings,
// comments and MySQL's /*! */ comments are read as the parser reads
// them), stopping as soon as the bound exceeds limit. With first, the scan
// stops at the first ';' outside parentheses.
//
// The estimate is the sum, over the open parentheses and the statement
// itself, of the tokens seen at that level since its last comma, plus one
// per level: a chain of operators (left-deep, like `1+1+1`, or right-deep,
// like `NOT NOT x` and nested CASE) is about as deep as it has tokens,
// and a comma ends an element of a list (arguments, a select list,
// values), whose siblings do not nest in it. CASE ... END is a level of its
// own, as a parenthesis, whose WHEN, THEN and ELSE start new elements: a
// CASE of many branches is as flat as a long list, nested CASEs nest.
// UNION, EXCEPT and INTERSECT
// count at their level past commas, since the selects they chain have
// commas of their own. The tree is at most a few times deeper than the
// estimate (a function call `f(` is two tokens and three levels), far
// below what the parser's walks could not take.
func tokenNesting(q string, first bool, limit int) (bound int) {
	defer func() {
		if recover() != nil {
			// The parser reads the same tokens and reports the error.
			bound = 0
		}
	}()
	type level struct {
		chain, sticky int
		isCase        bool // opened by CASE, closed by END
	}
	levels := []level{{}}
	sum := 1 // sum over levels of chain+sticky+1
	maxSum := sum
	tkn := ast.NewStringTokenizer(q)
	for {
		typ, _ := tkn.Scan()
		top := &levels[len(levels)-1]
		switch typ {
		case 0, ast.LEX_ERROR:
			return maxSum
		case ast.COMMENT:
			continue
		case '(', ast.CASE:
			levels = append(levels, level{isCase: typ == ast.CASE})
			sum++
		case ')', ast.END:
			if typ == ast.END && !top.isCase {
				top.chain++ // BEGIN ... END of a compound statement
				sum++
				break
			}
			// (a ')' closes the CASEs left open inside its group)
			for typ == ')' && len(levels) > 1 && levels[len(levels)-1].isCase {
				top = &levels[len(levels)-1]
				sum -= top.chain + top.sticky + 1
				levels = levels[:len(levels)-1]
			}
			if len(levels) > 1 {
				top = &levels[len(levels)-1]
				sum -= top.chain + top.sticky + 1
				levels = levels[:len(levels)-1]
			}
			// The group is one token of the enclosing level.
			levels[len(levels)-1].chain++
			sum++
		case ast.WHEN, ast.THEN, ast.ELSE:
			if top.isCase {
				// each branch of a CASE is a child of it, as an
				// element of a list
				sum -= top.chain
				top.chain = 0
				break
			}
			top.chain++
			sum++
		case ',':
			sum -= top.chain
			top.chain = 0
		case ';':
			if len(levels) == 1 {
				if first {
					return maxSum
				}
				sum -= top.chain + top.sticky
				*top = level{}
				continue
			}
			top.chain++
			sum++
		case ast.UNION, ast.EXCEPT, ast.INTERSECT:
			top.sticky++
			sum++
		default:
			top.chain++
			sum++
		}
		if sum > maxSum {
			maxSum = sum
			if maxSum > limit {
				return maxSum
			}
		}
	}
}

// checkTree refuses a syntax tree deeper than maxStatementDepth. textLen
// is the length of the statement's text: a tree has at most about one and
// a half levels per byte of text (`f(f(f(1)))`), so a short text needs no
// walk, and the length sizes the walk's budget.
func checkTree(st ast.Statement, textLen int) error {
	if st == nil || 2*textLen+16 < maxStatementDepth {
		return nil
	}
	w := treeWalker{limit: maxStatementDepth, budget: 64*textLen + 1<<16}
	if !w.walk(reflect.ValueOf(st), 0) {
		return errStackOverrun()
	}
	return nil
}

// treeWalker measures a vitess syntax tree by reflection, so that it sees
// every node (vitess's own Walk skips parts of DDL, such as procedure
// bodies and column definitions). Its own recursion stops at the limit.
type treeWalker struct {
	limit int
	// budget is the number of values left to visit: a tree bigger than
	// this is refused too (a syntax tree has a few values per byte of its
	// text; the budget allows 64).
	budget int
}

var (
	sqlNodeType    = reflect.TypeFor[ast.SQLNode]()
	tableExprsType = reflect.TypeFor[ast.TableExprs]()
)

// walk visits v at depth; it returns false when the tree is deeper than
// the limit.
func (w *treeWalker) walk(v reflect.Value, depth int) bool {
	if w.budget--; w.budget < 0 {
		return false
	}
	t := v.Type()
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return true
		}
		return w.walk(v.Elem(), depth)
	case reflect.Pointer:
		if v.IsNil() {
			return true
		}
		if t.Implements(sqlNodeType) && !t.Elem().Implements(sqlNodeType) {
			if depth++; depth > w.limit {
				return false
			}
		}
		return w.walk(v.Elem(), depth)
	case reflect.Struct:
		if t.Implements(sqlNodeType) {
			if depth++; depth > w.limit {
				return false
			}
		}
		for _, i := range structPlan(t) {
			if !w.walk(v.Field(i), depth) {
				return false
			}
		}
	case reflect.Slice, reflect.Array:
		if !mayHoldNodes(t.Elem()) {
			return true
		}
		if t.Implements(sqlNodeType) {
			if depth++; depth > w.limit {
				return false
			}
		}
		// go-mysql-server joins the tables of a FROM list left-deep: the
		// n-th table is n joins deep.
		chained := t == tableExprsType
		for i := 0; i < v.Len(); i++ {
			d := depth
			if chained {
				d += i
			}
			if !w.walk(v.Index(i), d) {
				return false
			}
		}
	case reflect.Map:
		if !mayHoldNodes(t.Elem()) {
			return true
		}
		it := v.MapRange()
		for it.Next() {
			if !w.walk(it.Value(), depth) {
				return false
			}
		}
	}
	return true
}

// Reflection plans: which types can hold syntax nodes, and which fields of
// a struct to visit. Computed once per type.
var (
	planMu    sync.RWMutex
	holdsNode = map[reflect.Type]bool{}
	fieldPlan = map[reflect.Type][]int{}
)

// mayHoldNodes reports whether a value of type t can contain a syntax node.
func mayHoldNodes(t reflect.Type) bool {
	planMu.RLock()
	h, ok := holdsNode[t]
	planMu.RUnlock()
	if ok {
		return h
	}
	planMu.Lock()
	defer planMu.Unlock()
	return mayHoldNodesLocked(t)
}

func mayHoldNodesLocked(t reflect.Type) bool {
	if h, ok := holdsNode[t]; ok {
		return h
	}
	switch t.Kind() {
	case reflect.Interface:
		holdsNode[t] = true
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		holdsNode[t] = true // assumed while the element is examined (recursive types)
		h := mayHoldNodesLocked(t.Elem())
		holdsNode[t] = h
		return h
	case reflect.Struct:
		holdsNode[t] = true
		var fields []int
		for i := 0; i < t.NumField(); i++ {
			if mayHoldNodesLocked(t.Field(i).Type) {
				fields = append(fields, i)
			}
		}
		fieldPlan[t] = fields
		h := len(fields) > 0
		holdsNode[t] = h
		return h
	}
	holdsNode[t] = false
	return false
}

// structPlan returns the indexes of the fields of struct type t that can
// hold syntax nodes.
func structPlan(t reflect.Type) []int {
	planMu.RLock()
	f, ok := fieldPlan[t]
	planMu.RUnlock()
	if ok {
		return f
	}
	mayHoldNodes(t)
	planMu.RLock()
	defer planMu.RUnlock()
	return fieldPlan[t]
}
