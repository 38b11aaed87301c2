package sqlbackend

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"reflect"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
)

// MATCH (cols) AGAINST ('words' [IN NATURAL LANGUAGE MODE | IN BOOLEAN
// MODE]) over the columns of a kept FULLTEXT index (fulltext.go), answered
// row by row: the table is scanned and each row's text is split into words
// as InnoDB splits it.
//
// go-mysql-server plans MATCH only over a full-text index of its own (and
// refuses boolean mode while planning), so the statement's tree is changed
// before it is planned: RewriteMatch replaces each MATCH by a call of
// handlerdb_match(mode, against, cols...), which the function catalog
// knows (withMatch). matchIndexRule then checks that the columns are those
// of one FULLTEXT index of the table (1191 otherwise, as in MariaDB) and
// parses a constant search string once.
//
// Words are runs of letters, digits and '_'; they compare under the
// column's collation (case- and accent-insensitively for _ci ones). Query
// words shorter than 3 characters (innodb_ft_min_token_size) or longer
// than 84, and InnoDB's default stopwords, are ignored. Natural language
// mode matches rows holding any of the words (InnoDB has no 50% threshold).
// Boolean mode knows +word, -word, word*, "a phrase" and treats ~, <, >,
// ( and ) as plain separators. The value is 0 for a row that does not
// match and InnoDB's TF-IDF rank otherwise: the sum over the query's
// terms of the term's occurrences in the row times log10(N/df)², N the
// table's rows and df those holding the term (log10(1.0001) when all do),
// summed in single precision. InnoDB takes N from its row estimate, so
// its values equal these only while that estimate is exact (right after
// ANALYZE TABLE, say). A NULL column holds no words.
//
// The functions here are pure but for the statistics: a matchFunc reads
// the table once per statement and search text, at its first row, for N
// and df (the committed rows, not a transaction's own writes) and keeps
// the weights under a mutex, so it is safe for concurrent use; it is
// otherwise immutable once the rule has built it.

// matchFuncName is the name RewriteMatch gives MATCH.
const matchFuncName = "handlerdb_match"

const (
	matchNatural = "natural"
	matchBoolean = "boolean"
)

// RewriteMatch replaces every MATCH ... AGAINST of a parsed statement by
// the handlerdb_match call the backend evaluates. query is the statement's
// text: a statement without the word AGAINST is left alone unread.
func RewriteMatch(query string, st ast.Statement) {
	if st == nil || !ContainsFold(query, "against") {
		return
	}
	rewriteMatch(reflect.ValueOf(&st).Elem(), map[uintptr]bool{})
}

var (
	exprType      = reflect.TypeOf((*ast.Expr)(nil)).Elem()
	matchExprType = reflect.TypeOf((*ast.MatchExpr)(nil))
)

// rewriteMatch walks the tree below v by reflection (the parser's tree has
// no generic rewriter) and replaces MatchExpr values held in fields or
// slices of an interface type that a function call also satisfies.
func rewriteMatch(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Interface:
		if v.IsNil() {
			return
		}
		e := v.Elem()
		if e.Type() == matchExprType && v.CanSet() && exprType.Implements(v.Type()) {
			m := e.Interface().(*ast.MatchExpr)
			rewriteMatch(reflect.ValueOf(&m.Expr).Elem(), seen)
			v.Set(reflect.ValueOf(matchCall(m)))
			return
		}
		rewriteMatch(e, seen)
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		rewriteMatch(v.Elem(), seen)
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < v.NumField(); i++ {
			if t.Field(i).IsExported() {
				rewriteMatch(v.Field(i), seen)
			}
		}
	case reflect.Slice, reflect.Array:
		switch v.Type().Elem().Kind() {
		case reflect.Interface, reflect.Pointer, reflect.Struct, reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				rewriteMatch(v.Index(i), seen)
			}
		}
	}
}

// matchCall is the function call standing for m.
func matchCall(m *ast.MatchExpr) *ast.FuncExpr {
	mode := matchNatural
	switch m.Option {
	case ast.BooleanModeStr:
		mode = matchBoolean
	case ast.NaturalLanguageModeStr, "":
	default:
		mode = strings.TrimSpace(m.Option)
	}
	exprs := ast.SelectExprs{&ast.AliasedExpr{Expr: ast.NewStrVal([]byte(mode))}, &ast.AliasedExpr{Expr: m.Expr}}
	exprs = append(exprs, m.Columns...)
	return &ast.FuncExpr{Name: ast.NewColIdent(matchFuncName), Exprs: exprs}
}

// withMatch registers handlerdb_match in a's function catalog.
func WithMatch(a *analyzer.Analyzer) *analyzer.Analyzer {
	a.Catalog.RegisterFunction(sql.NewEmptyContext(), sql.FunctionN{Name: matchFuncName, Fn: newMatchFunc})
	return a
}

// matchIndexRule checks each MATCH against the FULLTEXT indexes of its
// table and readies it for evaluation.
func MatchIndexRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	found := false
	transform.InspectExpressions(n, func(e sql.Expression) bool {
		if _, ok := e.(*matchFunc); ok {
			found = true
		}
		return !found
	})
	if !found {
		return n, transform.SameTree, nil
	}
	tables := map[string]*table{}
	transform.Inspect(n, func(n sql.Node) bool {
		switch n := n.(type) {
		case *plan.TableAlias:
			if t := ourTable(n.Child); t != nil {
				tables[strings.ToLower(n.Name())] = t
			}
		case *plan.ResolvedTable:
			if t := unwrapTable(n.Table); t != nil {
				if _, taken := tables[strings.ToLower(n.Name())]; !taken {
					tables[strings.ToLower(n.Name())] = t
				}
			}
		}
		return true
	})
	return transform.NodeExprsWithOpaque(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		m, ok := e.(*matchFunc)
		if !ok || m.colls != nil {
			return e, transform.SameTree, nil
		}
		out, err := m.bind(ctx, tables)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return out, transform.NewTree, nil
	})
}

// bind checks that m's columns are one FULLTEXT index's of their table
// and returns m with their collations and its constant search string
// parsed.
func (m *matchFunc) bind(ctx *sql.Context, tables map[string]*table) (*matchFunc, error) {
	var t *table
	var cols []string
	for _, c := range m.children[1:] {
		gf, ok := c.(*expression.GetField)
		if !ok {
			return nil, errtable.SQLError(errtable.ERFtMatchingKeyNotFound)
		}
		ct := tables[strings.ToLower(gf.Table())]
		if ct == nil || (t != nil && ct != t) {
			return nil, errtable.SQLError(errtable.ERFtMatchingKeyNotFound)
		}
		t = ct
		cols = append(cols, gf.Name())
	}
	meta, err := t.db.p.tableMeta(t.t.ID)
	if err != nil {
		return nil, err
	}
	if !hasTextIndexOn(meta, cols) {
		return nil, errtable.SQLError(errtable.ERFtMatchingKeyNotFound)
	}
	n := *m
	n.colls = make([]*collation.Collation, len(cols))
	for i, c := range cols {
		if j := t.t.Column(c); j >= 0 {
			n.colls[i] = t.t.Columns[j].Type.Collation
		}
	}
	st := &ftStats{t: t}
	for _, c := range cols {
		st.cols = append(st.cols, t.t.Column(c))
	}
	n.stats = st
	if lit, ok := m.children[0].(*expression.Literal); ok {
		n.text, _ = evalText(lit.Value())
		n.query = parseFTQuery(m.mode, n.text)
	}
	return &n, nil
}

// hasTextIndexOn reports whether a FULLTEXT index has exactly the columns
// cols (in any order), as MariaDB requires of MATCH.
func hasTextIndexOn(m *tableMeta, cols []string) bool {
	for _, x := range m.TextIndexes {
		if x.Spatial || len(x.Columns) != len(cols) {
			continue
		}
		all := true
		for _, c := range cols {
			in := false
			for _, xc := range x.Columns {
				in = in || strings.EqualFold(xc, c)
			}
			all = all && in
		}
		if all {
			return true
		}
	}
	return false
}

// matchFunc is MATCH (cols) AGAINST (against): its children are against,
// then the columns.
type matchFunc struct {
	mode     string
	children []sql.Expression
	// Set by matchIndexRule: the parsed search string when it is a
	// constant, and the columns' collations.
	query *ftQuery
	text  string // the constant search string query parses
	colls []*collation.Collation
	stats *ftStats
}

// ftStats are the table statistics of one MATCH: the weight of each term
// of a search, computed at the first row searched for that text.
type ftStats struct {
	t    *table
	cols []int // the MATCH columns' positions in the table
	mu   sync.Mutex
	pid  uint64               // the statement the memo is for
	memo map[string][]float64 // search text -> term weights
}

// termWeights returns the weight of each term of q, the parse of text,
// for the running statement (should one plan serve several statements,
// each reads the table again).
func (s *ftStats) termWeights(ctx *sql.Context, text string, q *ftQuery, colls []*collation.Collation) ([]float64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if pid := ctx.Pid(); pid != s.pid {
		s.pid, s.memo = pid, nil
	}
	if w, ok := s.memo[text]; ok {
		return w, nil
	}
	w, err := s.compute(q, colls)
	if err != nil {
		return nil, err
	}
	if s.memo == nil {
		s.memo = map[string][]float64{}
	}
	s.memo[text] = w
	return w, nil
}

// compute reads the table: for each term its document frequency, and for
// each word of a phrase that word's.
func (s *ftStats) compute(q *ftQuery, colls []*collation.Collation) ([]float64, error) {
	type counted struct {
		term *ftTerm
		df   int
	}
	var all []*counted
	perTerm := make([][]*counted, len(q.terms))
	for i := range q.terms {
		t := &q.terms[i]
		if !t.phrase {
			c := &counted{term: t}
			all = append(all, c)
			perTerm[i] = []*counted{c}
			continue
		}
		for _, w := range t.words {
			c := &counted{term: &ftTerm{words: []string{w}}}
			all = append(all, c)
			perTerm[i] = append(perTerm[i], c)
		}
	}
	it, err := s.t.db.p.e.NewIterator(s.t.t, nil, engine.Range{}, false)
	if err != nil {
		return nil, err
	}
	defer it.Close()
	rows := 0
	docs := make([]ftDoc, len(s.cols))
	for {
		r, err := it.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		rows++
		for i, c := range s.cols {
			docs[i] = ftDoc{coll: colls[i]}
			if c >= 0 && c < len(r) && !r[c].Null {
				docs[i].toks = tokenize(colls[i], string(r[c].B))
			}
		}
		for _, c := range all {
			for _, d := range docs {
				if c.term.count(d) > 0 {
					c.df++
					break
				}
			}
		}
	}
	idf2 := func(df int) float64 {
		if df == 0 {
			return 0
		}
		idf := math.Log10(1.0001)
		if df < rows {
			idf = math.Log10(float64(rows) / float64(df))
		}
		return idf * idf
	}
	w := make([]float64, len(q.terms))
	for i, cs := range perTerm {
		for _, c := range cs {
			w[i] += idf2(c.df)
		}
	}
	return w, nil
}

var _ sql.FunctionExpression = (*matchFunc)(nil)

func newMatchFunc(args ...sql.Expression) (sql.Expression, error) {
	if len(args) < 3 {
		return nil, sql.ErrInvalidArgumentNumber.New(matchFuncName, "3 or more", len(args))
	}
	lit, ok := args[0].(*expression.Literal)
	mode, _ := lit.Value().(string)
	if !ok || (mode != matchNatural && mode != matchBoolean) {
		return nil, errtable.SQLError(mysql.ERNotSupportedYet, "MATCH ... AGAINST "+strings.ToUpper(fmt.Sprint(mode)))
	}
	return &matchFunc{mode: mode, children: args[1:]}, nil
}

// FunctionName implements sql.FunctionExpression.
func (m *matchFunc) FunctionName() string { return matchFuncName }

// Description implements sql.FunctionExpression.
func (m *matchFunc) Description() string {
	return "MATCH ... AGAINST over a FULLTEXT index, by scanning."
}

// String prints the MATCH as written.
func (m *matchFunc) String() string {
	cols := make([]string, len(m.children)-1)
	for i, c := range m.children[1:] {
		cols[i] = c.String()
	}
	mode := ""
	if m.mode == matchBoolean {
		mode = " IN BOOLEAN MODE"
	}
	return fmt.Sprintf("MATCH (%s) AGAINST (%s%s)", strings.Join(cols, ","), m.children[0], mode)
}

// Type is DOUBLE, as MariaDB's relevance.
func (m *matchFunc) Type() sql.Type { return gtypes.Float64 }

// IsNullable is false: a row without words has relevance 0.
func (m *matchFunc) IsNullable() bool { return false }

// Resolved implements sql.Expression.
func (m *matchFunc) Resolved() bool {
	for _, c := range m.children {
		if !c.Resolved() {
			return false
		}
	}
	return true
}

// Children implements sql.Expression.
func (m *matchFunc) Children() []sql.Expression { return m.children }

// WithChildren implements sql.Expression; the parsed query is kept only
// while the search string stays the same expression.
func (m *matchFunc) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != len(m.children) {
		return nil, sql.ErrInvalidChildrenNumber.New(m, len(children), len(m.children))
	}
	n := *m
	n.children = children
	if children[0] != m.children[0] {
		n.query, n.text = nil, ""
	}
	return &n, nil
}

// Eval computes the row's relevance.
func (m *matchFunc) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	q, text := m.query, m.text
	if q == nil {
		v, err := m.children[0].Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		text, _ = evalText(v)
		q = parseFTQuery(m.mode, text)
	}
	var docs []ftDoc
	for i, c := range m.children[1:] {
		v, err := c.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		s, ok := evalText(v)
		if !ok {
			continue
		}
		coll := collation.Default
		if i < len(m.colls) && m.colls[i] != nil {
			coll = m.colls[i]
		}
		docs = append(docs, ftDoc{coll: coll, toks: tokenize(coll, s)})
	}
	var w []float64
	if m.stats != nil {
		var err error
		if w, err = m.stats.termWeights(ctx, text, q, m.colls); err != nil {
			return nil, err
		}
	}
	return q.score(docs, w), nil
}

// evalText is a column or search value's text; false for NULL.
func evalText(v interface{}) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", false
	case string:
		return x, true
	case []byte:
		return string(x), true
	}
	return fmt.Sprint(v), true
}

// ftToken is one word of a text: its text and its collation key.
type ftToken struct {
	word string
	key  []byte
}

// ftDoc is the words of one column value, keyed under its collation.
type ftDoc struct {
	coll *collation.Collation
	toks []ftToken
}

// tokenize splits s into words.
func tokenize(c *collation.Collation, s string) []ftToken {
	var out []ftToken
	start := -1
	for i, r := range s + " " {
		word := r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
		switch {
		case word && start < 0:
			start = i
		case !word && start >= 0:
			w := s[start:i]
			out = append(out, ftToken{word: w, key: c.AppendKey(nil, []byte(w))})
			start = -1
		}
	}
	return out
}

// ftStopwords are InnoDB's default stopwords
// (information_schema.INNODB_FT_DEFAULT_STOPWORD).
var ftStopwords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("a about an are as at be by com de en for from how i in is it la of on or that the this to was what when where who will with und www") {
		m[w] = true
	}
	return m
}()

// ftIgnored reports whether a query word is left out of the search: too
// short or too long for InnoDB's index, or a stopword.
func ftIgnored(w string) bool {
	n := utf8.RuneCountInString(w)
	return n < 3 || n > 84 || ftStopwords[strings.ToLower(w)]
}

// ftTerm is one term of a search: a word, a prefix (word*) or a phrase.
type ftTerm struct {
	op     byte     // '+', '-' or 0 for an optional term
	words  []string // one word, or a phrase's words
	prefix bool
	phrase bool
}

// ftQuery is a parsed search string.
type ftQuery struct {
	terms []ftTerm
}

// parseFTQuery parses a search string in the given mode.
func parseFTQuery(mode, s string) *ftQuery {
	q := &ftQuery{}
	if mode != matchBoolean {
		seen := map[string]bool{}
		for _, t := range tokenize(collation.Utf8mb4Bin, s) {
			if lw := strings.ToLower(t.word); !ftIgnored(t.word) && !seen[lw] {
				seen[lw] = true
				q.terms = append(q.terms, ftTerm{words: []string{t.word}})
			}
		}
		return q
	}
	i := 0
	for i < len(s) {
		var op byte
		for i < len(s) && strings.IndexByte("+-~<>() \t\r\n", s[i]) >= 0 {
			if s[i] == '+' || s[i] == '-' {
				op = s[i]
			} else if s[i] != '~' && s[i] != '<' && s[i] != '>' {
				op = 0
			}
			i++
		}
		if i >= len(s) {
			break
		}
		if s[i] == '"' {
			end := strings.IndexByte(s[i+1:], '"')
			text := s[i+1:]
			if end >= 0 {
				text = s[i+1 : i+1+end]
				i += end + 2
			} else {
				i = len(s)
			}
			var words []string
			for _, t := range tokenize(collation.Utf8mb4Bin, text) {
				words = append(words, t.word)
			}
			if len(words) > 0 {
				q.terms = append(q.terms, ftTerm{op: op, words: words, phrase: true})
			}
			continue
		}
		j := i
		for j < len(s) && strings.IndexByte("+-~<>()\" \t\r\n", s[j]) < 0 {
			j++
		}
		raw := s[i:j]
		i = j
		prefix := strings.HasSuffix(raw, "*")
		for _, t := range tokenize(collation.Utf8mb4Bin, strings.TrimRight(raw, "*")) {
			if !prefix && ftIgnored(t.word) {
				continue
			}
			q.terms = append(q.terms, ftTerm{op: op, words: []string{t.word}, prefix: prefix})
		}
	}
	return q
}

// score is the relevance of a row whose columns hold docs: each term's
// occurrences times its weight (w[i]; 1 when w is nil), summed in single
// precision as InnoDB does, or 0 when the row does not match.
func (q *ftQuery) score(docs []ftDoc, w []float64) float64 {
	if len(q.terms) == 0 || len(docs) == 0 {
		return 0
	}
	var total float32
	must, any := false, false
	for i, t := range q.terms {
		n := 0
		for _, d := range docs {
			n += t.count(d)
		}
		switch t.op {
		case '+':
			must = true
			if n == 0 {
				return 0
			}
		case '-':
			if n > 0 {
				return 0
			}
			continue
		default:
			if n > 0 {
				any = true
			}
		}
		weight := 1.0
		if i < len(w) {
			weight = w[i]
		}
		total += float32(float64(n) * weight)
	}
	if !must && !any {
		return 0
	}
	return float64(total)
}

// count is the number of times the term occurs in a column's words,
// compared under the column's collation.
func (t *ftTerm) count(d ftDoc) int {
	doc, c := d.toks, d.coll
	if len(doc) == 0 {
		return 0
	}
	keys := make([][]byte, len(t.words))
	for i, w := range t.words {
		keys[i] = c.AppendKey(nil, []byte(w))
	}
	n := 0
	switch {
	case t.phrase:
		for i := 0; i+len(keys) <= len(doc); i++ {
			ok := true
			for j, k := range keys {
				if !bytes.Equal(doc[i+j].key, k) {
					ok = false
					break
				}
			}
			if ok {
				n++
			}
		}
	case t.prefix:
		k := keys[0][:len(keys[0])-1] // without the end byte
		if c == collation.Binary {
			k = []byte(t.words[0])
		}
		for _, d := range doc {
			if c == collation.Binary && strings.HasPrefix(d.word, t.words[0]) || c != collation.Binary && bytes.HasPrefix(d.key, k) {
				n++
			}
		}
	default:
		for _, d := range doc {
			if bytes.Equal(d.key, keys[0]) {
				n++
			}
		}
	}
	return n
}
