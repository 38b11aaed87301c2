package sqlbackend

import (
	"errors"
	"strconv"
	"strings"

	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// A view's SELECT as MariaDB 10.11 prints it in SHOW CREATE VIEW and
// information_schema.VIEWS: every column named through its table
// (`t`.`a`), every select item aliased (`... AS `name``), keywords and
// function names in MariaDB's lower case and spelling (count(0),
// substr, octet_length, ucase, current_timestamp(), d + interval 1 day),
// joins nested in parentheses with on(...), a RIGHT JOIN turned into
// a LEFT JOIN, NOT pushed into what it negates, and parentheses only
// where operator precedence needs them.
//
// The print is made from the statement's syntax tree and the columns of
// the tables it reads, not from a bound plan, as MariaDB prints its own
// parsed and name-resolved statement. What the printer does not know (a
// CTE, a window, a charset introducer, a name it cannot resolve, ...)
// ends it with errUnprinted, and the view is shown with its SELECT as
// written: that text means the same, only in another spelling.
//
// A viewPrinter is used by one goroutine for one print.

// errUnprinted ends a print the printer cannot make as MariaDB would.
var errUnprinted = errors.New("view text not printable in MariaDB's form")

// viewTable is what the printer needs of a table or view a view reads.
type viewTable struct {
	name string   // as stored
	cols []string // column names in order; nil for a view (read from def)
	def  string   // a view's CREATE VIEW statement
}

// viewPrinter prints one view's SELECT.
type viewPrinter struct {
	db      string // the view's database
	qualify bool   // name the database of every table and column
	// lookup finds a table or view by database and name.
	lookup func(db, name string) (viewTable, bool)
	depth  int  // views read through views, bounded
	bare   bool // columns unqualified (a CHECK constraint's)
	// charset is the connection's character set, which MariaDB names in
	// a CAST to CHAR.
	charset string
	inExpr  int // inside a subquery of an expression: items unaliased
	// stored prints as MariaDB stores a view's text at creation, which
	// information_schema.VIEWS shows: a FROM list of several tables is
	// not put in parentheses (SHOW CREATE VIEW prints the stored text
	// read back, where the list has become one join).
	stored bool
	b      strings.Builder
}

// viewSource is one table, view or derived table of a FROM clause.
type viewSource struct {
	qual string // what its columns are qualified with, printed
	name string // its alias or table name, as a qualifier names it
	db   string // a table's or view's database; "" for a derived table
	cols []string
}

// viewScope is one SELECT's sources, inside the scope of its outer
// SELECT for correlated subqueries.
type viewScope struct {
	sources []*viewSource
	outer   *viewScope
	using   map[string]*viewSource // USING/NATURAL columns: the side named
	items   []viewItem             // the SELECT's items, for ORDER BY and HAVING
}

// viewItem is one item of a select list after * is expanded.
type viewItem struct {
	expr ast.Expr
	src  *viewSource // for an item of a *, the source of col
	col  string
	name string
}

// printView returns the SELECT of a CREATE VIEW statement in MariaDB's
// form, with cols (the view's column list) naming its items when given.
func (p *viewPrinter) printView(sel ast.SelectStatement, cols ast.Columns) (string, error) {
	var names []string
	for _, c := range cols {
		names = append(names, c.String())
	}
	if err := p.statement(sel, nil, names); err != nil {
		return "", err
	}
	out := p.b.String()
	if _, err := ast.Parse(out); err != nil {
		return "", errUnprinted
	}
	return out, nil
}

// statement prints a SELECT or a UNION.
func (p *viewPrinter) statement(sel ast.SelectStatement, outer *viewScope, names []string) error {
	switch s := sel.(type) {
	case *ast.Select:
		_, err := p.selectStmt(s, outer, names)
		return err
	case *ast.SetOp:
		if len(names) > 0 || len(s.OrderBy) > 0 || s.Limit != nil || s.With != nil || s.Into != nil || s.Lock != "" {
			return errUnprinted
		}
		switch s.Type {
		case ast.UnionStr, ast.UnionAllStr, ast.UnionDistinctStr:
		default:
			return errUnprinted
		}
		if err := p.statement(s.Left, outer, nil); err != nil {
			return err
		}
		p.b.WriteString(" " + strings.ReplaceAll(s.Type, " distinct", "") + " ")
		if _, ok := s.Right.(*ast.SetOp); ok {
			return errUnprinted
		}
		return p.statement(s.Right, outer, nil)
	}
	return errUnprinted
}

// fresh is a printer for another part of the same print (a FROM clause
// printed apart, a view read through): its settings, no text.
func (p *viewPrinter) fresh() *viewPrinter {
	return &viewPrinter{db: p.db, qualify: p.qualify, lookup: p.lookup, depth: p.depth, bare: p.bare, charset: p.charset, stored: p.stored}
}

// outputNames returns the names of a SELECT's or UNION's columns, for a
// view or derived table read by another SELECT.
func (p *viewPrinter) outputNames(sel ast.SelectStatement, outer *viewScope) ([]string, error) {
	for {
		op, ok := sel.(*ast.SetOp)
		if !ok {
			break
		}
		sel = op.Left
	}
	s, ok := sel.(*ast.Select)
	if !ok {
		return nil, errUnprinted
	}
	sc := &viewScope{outer: outer}
	scratch := p.fresh()
	if err := scratch.fromList(s.From, sc, true); err != nil {
		return nil, err
	}
	items, err := p.items(s, sc, nil)
	if err != nil {
		return nil, err
	}
	names := make([]string, len(items))
	for i, it := range items {
		names[i] = it.name
	}
	return names, nil
}

// selectStmt prints one SELECT and returns its scope.
func (p *viewPrinter) selectStmt(s *ast.Select, outer *viewScope, names []string) (*viewScope, error) {
	if s.With != nil || len(s.Window) > 0 || s.Into != nil || s.Lock != "" || len(s.Comments) > 0 {
		return nil, errUnprinted
	}
	o := s.QueryOpts
	if o.All || o.SQLCalcFoundRows || o.StraightJoinHint || o.SQLCache || o.SQLNoCache {
		return nil, errUnprinted
	}
	sc := &viewScope{outer: outer}
	// The FROM clause is printed after the items but read first: the
	// items' names resolve through it.
	from := p.fresh()
	if err := from.fromList(s.From, sc, !p.stored); err != nil {
		return nil, err
	}
	items, err := p.items(s, sc, names)
	if err != nil {
		return nil, err
	}
	sc.items = items
	p.b.WriteString("select ")
	if o.Distinct {
		p.b.WriteString("distinct ")
	}
	for i, it := range items {
		if i > 0 {
			p.b.WriteByte(',')
		}
		if it.src != nil {
			p.column(it.src, it.col)
		} else if err := p.expr(it.expr, sc, precLowest); err != nil {
			return nil, err
		}
		if p.inExpr == 0 {
			p.b.WriteString(" AS ")
			p.b.WriteString(quoteIdent(it.name))
		}
	}
	if from.b.Len() > 0 {
		p.b.WriteString(" from ")
		p.b.WriteString(from.b.String())
	}
	if s.Where != nil && s.Where.Expr != nil {
		p.b.WriteString(" where ")
		if err := p.cond(s.Where.Expr, sc, precLowest); err != nil {
			return nil, err
		}
	}
	if len(s.GroupBy) > 0 {
		p.b.WriteString(" group by ")
		for i, g := range s.GroupBy {
			if i > 0 {
				p.b.WriteByte(',')
			}
			if err := p.orderItem(g, sc, false); err != nil {
				return nil, err
			}
		}
	}
	if s.Having != nil && s.Having.Expr != nil {
		p.b.WriteString(" having ")
		if err := p.cond(s.Having.Expr, &havingScope{sc}, precLowest); err != nil {
			return nil, err
		}
	}
	if len(s.OrderBy) > 0 {
		p.b.WriteString(" order by ")
		for i, o := range s.OrderBy {
			if i > 0 {
				p.b.WriteByte(',')
			}
			if err := p.orderItem(o.Expr, sc, true); err != nil {
				return nil, err
			}
			if strings.EqualFold(o.Direction, ast.DescScr) {
				p.b.WriteString(" desc")
			}
		}
	}
	if s.Limit != nil {
		p.b.WriteString(" limit ")
		if s.Limit.Offset != nil {
			if err := p.expr(s.Limit.Offset, sc, precLowest); err != nil {
				return nil, err
			}
			p.b.WriteByte(',')
		}
		if err := p.expr(s.Limit.Rowcount, sc, precLowest); err != nil {
			return nil, err
		}
	}
	return sc, nil
}

// items expands a SELECT's stars and names every item: by the view's
// column list, the alias, the column's name as written, or the
// expression's text as written (MariaDB's Name_exp_N for an empty name
// or one past 64 characters).
func (p *viewPrinter) items(s *ast.Select, sc *viewScope, names []string) ([]viewItem, error) {
	var items []viewItem
	for _, se := range s.SelectExprs {
		switch e := se.(type) {
		case *ast.StarExpr:
			if len(sc.using) > 0 {
				return nil, errUnprinted
			}
			found := false
			for _, src := range sc.sources {
				if !e.TableName.Name.IsEmpty() && !src.named(e.TableName) {
					continue
				}
				found = true
				for _, c := range src.cols {
					items = append(items, viewItem{src: src, col: c, name: c})
				}
			}
			if !found {
				return nil, errUnprinted
			}
		case *ast.AliasedExpr:
			it := viewItem{expr: e.Expr, name: e.As.String()}
			if it.name == "" {
				switch x := e.Expr.(type) {
				case *ast.ColName:
					it.name = x.Name.String()
				case *ast.SQLVal:
					it.name = string(x.Val)
				default:
					it.name = e.InputExpression
				}
				if it.name == "" || len([]rune(it.name)) > 64 {
					it.name = "Name_exp_" + strconv.Itoa(len(items)+1)
				}
			}
			items = append(items, it)
		default:
			return nil, errUnprinted
		}
	}
	if len(names) > 0 {
		if len(names) != len(items) {
			return nil, errUnprinted
		}
		for i := range items {
			items[i].name = names[i]
		}
	}
	return items, nil
}

// orderItem prints a GROUP BY or ORDER BY item: a position as written,
// a name of a select item (ORDER BY) as the item's expression, else an
// expression.
func (p *viewPrinter) orderItem(e ast.Expr, sc *viewScope, aliasFirst bool) error {
	if c, ok := e.(*ast.ColName); ok && c.Qualifier.IsEmpty() {
		name := c.Name.String()
		_, inTables := sc.resolve(name)
		if aliasFirst || !inTables {
			for _, it := range sc.items {
				if strings.EqualFold(it.name, name) {
					if it.src != nil {
						p.column(it.src, it.col)
						return nil
					}
					return p.expr(it.expr, sc, precLowest)
				}
			}
		}
	}
	return p.expr(e, sc, precLowest)
}

// fromList reads a list of table expressions into sc and prints it, as
// a chain of joins nested to the left, in parentheses when wrap is set.
func (p *viewPrinter) fromList(tes ast.TableExprs, sc *viewScope, wrap bool) error {
	if len(tes) == 1 {
		if at, ok := tes[0].(*ast.AliasedTableExpr); ok {
			if tn, ok := at.Expr.(ast.TableName); ok && strings.EqualFold(tn.Name.String(), "dual") && tn.DbQualifier.IsEmpty() {
				return nil
			}
		}
	}
	for i := 1; i < len(tes); i++ {
		if wrap || i > 1 {
			p.b.WriteByte('(')
		}
	}
	for i, te := range tes {
		if i > 0 {
			p.b.WriteString(" join ")
		}
		if err := p.tableExpr(te, sc); err != nil {
			return err
		}
		if i > 0 && (wrap || i < len(tes)-1) {
			p.b.WriteByte(')')
		}
	}
	return nil
}

// tableExpr reads and prints one table expression.
func (p *viewPrinter) tableExpr(te ast.TableExpr, sc *viewScope) error {
	switch t := te.(type) {
	case *ast.AliasedTableExpr:
		return p.aliasedTable(t, sc)
	case *ast.ParenTableExpr:
		if len(t.Exprs) != 1 {
			return p.fromList(t.Exprs, sc, true)
		}
		return p.tableExpr(t.Exprs[0], sc)
	case *ast.JoinTableExpr:
		return p.join(t, sc)
	}
	return errUnprinted
}

// aliasedTable reads and prints a table, view or derived table.
func (p *viewPrinter) aliasedTable(t *ast.AliasedTableExpr, sc *viewScope) error {
	if len(t.Partitions) > 0 || t.Hints != nil || t.AsOf != nil || t.Lateral {
		return errUnprinted
	}
	alias := t.As.String()
	switch x := t.Expr.(type) {
	case ast.TableName:
		db := p.db
		if !x.DbQualifier.IsEmpty() {
			db = x.DbQualifier.String()
		}
		if !x.SchemaQualifier.IsEmpty() {
			return errUnprinted
		}
		vt, ok := p.lookup(db, x.Name.String())
		if !ok {
			return errUnprinted
		}
		cols := vt.cols
		if vt.def != "" {
			if p.depth > 8 {
				return errUnprinted
			}
			st, err := ast.Parse(vt.def)
			if err != nil {
				return errUnprinted
			}
			ddl, ok := st.(*ast.DDL)
			if !ok || ddl.ViewSpec == nil {
				return errUnprinted
			}
			for _, c := range ddl.ViewSpec.Columns {
				cols = append(cols, c.String())
			}
			if cols == nil {
				inner := p.fresh()
				inner.db, inner.depth = db, p.depth+1
				if cols, err = inner.outputNames(ddl.ViewSpec.ViewExpr, nil); err != nil {
					return err
				}
			}
		}
		table := quoteIdent(vt.name)
		src := &viewSource{qual: table, name: vt.name, db: db, cols: cols}
		if p.qualify {
			table = quoteIdent(db) + "." + table
			if vt.def == "" {
				// (a view's columns are named through the view alone)
				src.qual = table
			}
		}
		p.b.WriteString(table)
		if alias != "" {
			p.b.WriteString(" " + quoteIdent(alias))
			src.qual, src.name, src.db = quoteIdent(alias), alias, ""
		}
		sc.sources = append(sc.sources, src)
		return nil
	case *ast.Subquery:
		if alias == "" || len(x.Columns) > 0 {
			return errUnprinted
		}
		cols, err := p.outputNames(x.Select, sc.outer)
		if err != nil {
			return err
		}
		p.b.WriteByte('(')
		if err := p.statement(x.Select, sc.outer, nil); err != nil {
			return err
		}
		p.b.WriteString(") " + quoteIdent(alias))
		sc.sources = append(sc.sources, &viewSource{qual: quoteIdent(alias), name: alias, cols: cols})
		return nil
	}
	return errUnprinted
}

// join reads and prints a join: (a join b on(c)), a RIGHT JOIN as the
// LEFT JOIN it is, USING and NATURAL as the equalities they mean.
func (p *viewPrinter) join(j *ast.JoinTableExpr, sc *viewScope) error {
	kind, left, right := j.Join, j.LeftExpr, j.RightExpr
	natural := false
	switch kind {
	case ast.JoinStr, ast.LeftJoinStr:
	case ast.RightJoinStr:
		kind, left, right = ast.LeftJoinStr, right, left
		if len(j.Condition.Using) > 0 {
			return errUnprinted
		}
	case ast.NaturalJoinStr:
		kind, natural = ast.JoinStr, true
	case ast.NaturalLeftJoinStr:
		kind, natural = ast.LeftJoinStr, true
	default:
		return errUnprinted
	}
	p.b.WriteByte('(')
	first := len(sc.sources)
	if err := p.tableExpr(left, sc); err != nil {
		return err
	}
	mid := len(sc.sources)
	p.b.WriteString(" " + kind + " ")
	if err := p.tableExpr(right, sc); err != nil {
		return err
	}
	var using []string
	for _, c := range j.Condition.Using {
		using = append(using, c.String())
	}
	if natural {
		for _, src := range sc.sources[first:mid] {
			for _, c := range src.cols {
				if _, ok := findCol(sc.sources[mid:], c); ok {
					using = append(using, c)
				}
			}
		}
	}
	switch {
	case j.Condition.On != nil:
		p.b.WriteString(" on(")
		if err := p.cond(j.Condition.On, sc, precLowest); err != nil {
			return err
		}
		p.b.WriteByte(')')
	case len(using) > 0:
		p.b.WriteString(" on(")
		for i, c := range using {
			l, lok := findCol(sc.sources[first:mid], c)
			r, rok := findCol(sc.sources[mid:], c)
			if !lok || !rok {
				return errUnprinted
			}
			if i > 0 {
				p.b.WriteString(" and ")
			}
			p.column(l, c)
			p.b.WriteString(" = ")
			p.column(r, c)
			if sc.using == nil {
				sc.using = map[string]*viewSource{}
			}
			sc.using[strings.ToLower(c)] = l
		}
		p.b.WriteByte(')')
	case kind != ast.JoinStr:
		return errUnprinted
	}
	p.b.WriteByte(')')
	return nil
}

// named reports whether a qualifier (t or db.t) names the source.
func (s *viewSource) named(q ast.TableName) bool {
	if !strings.EqualFold(s.name, q.Name.String()) {
		return false
	}
	return q.DbQualifier.IsEmpty() || strings.EqualFold(s.db, q.DbQualifier.String())
}

// findCol returns the one source of srcs with column c.
func findCol(srcs []*viewSource, c string) (*viewSource, bool) {
	var found *viewSource
	for _, s := range srcs {
		for _, sc := range s.cols {
			if strings.EqualFold(sc, c) {
				if found != nil {
					return nil, false
				}
				found = s
			}
		}
	}
	return found, found != nil
}

// resolve finds the source of an unqualified column in this SELECT.
func (sc *viewScope) resolve(name string) (*viewSource, bool) {
	if s, ok := sc.using[strings.ToLower(name)]; ok {
		return s, true
	}
	return findCol(sc.sources, name)
}

// column prints a source's column, with the column's stored spelling.
func (p *viewPrinter) column(src *viewSource, name string) {
	for _, c := range src.cols {
		if strings.EqualFold(c, name) {
			name = c
			break
		}
	}
	p.b.WriteString(src.qual + "." + quoteIdent(name))
}

// havingScope marks the scope of a HAVING clause, where a select item's
// name is printed as the name.
type havingScope struct{ *viewScope }

// Operator precedences, as MariaDB prints by them (its enum precedence).
const (
	precLowest = iota
	precOr
	precXor
	precAnd
	precNot
	precBetween
	precCmp
	precBitOr
	precBitAnd
	precShift
	precAdd
	precMul
	precBitXor
	precNeg
	precInterval
	precHighest
)

// scopeOf is the scope of expression printing: a SELECT's, or its
// HAVING's.
type scopeOf interface{ scope() *viewScope }

func (sc *viewScope) scope() *viewScope  { return sc }
func (h *havingScope) scope() *viewScope { return h.viewScope }

// expr prints e, in parentheses when its precedence is below min.
func (p *viewPrinter) expr(e ast.Expr, s scopeOf, min int) error {
	e = unparen(e)
	switch x := e.(type) {
	case *ast.NotExpr:
		return p.not(x.Expr, s, min)
	case *ast.UnaryExpr:
		if x.Operator == "!" {
			return p.not(x.Expr, s, min)
		}
	}
	prec := precedence(e)
	if prec < min {
		p.b.WriteByte('(')
		defer p.b.WriteByte(')')
	}
	sc := s.scope()
	switch x := e.(type) {
	case *ast.ColName:
		return p.colName(x, s)
	case *ast.SQLVal:
		return p.literal(x)
	case *ast.NullVal:
		p.b.WriteString("NULL")
	case ast.BoolVal:
		if x {
			p.b.WriteByte('1')
		} else {
			p.b.WriteByte('0')
		}
	case *ast.AndExpr, *ast.OrExpr:
		op, l, r := " and ", ast.Expr(nil), ast.Expr(nil)
		if a, ok := x.(*ast.AndExpr); ok {
			l, r = a.Left, a.Right
		} else {
			o := x.(*ast.OrExpr)
			op, l, r = " or ", o.Left, o.Right
		}
		if err := p.cond(l, s, prec); err != nil {
			return err
		}
		p.b.WriteString(op)
		return p.cond(r, s, prec)
	case *ast.XorExpr:
		if err := p.cond(x.Left, s, prec); err != nil {
			return err
		}
		p.b.WriteString(" xor ")
		return p.cond(x.Right, s, prec+1)
	case *ast.ComparisonExpr:
		return p.comparison(x, s, prec)
	case *ast.RangeCond:
		if err := p.expr(x.Left, s, prec); err != nil {
			return err
		}
		p.b.WriteString(" " + strings.ToLower(x.Operator) + " ")
		if err := p.expr(x.From, s, prec+1); err != nil {
			return err
		}
		p.b.WriteString(" and ")
		return p.expr(x.To, s, prec+1)
	case *ast.IsExpr:
		if err := p.expr(x.Expr, s, prec); err != nil {
			return err
		}
		p.b.WriteString(" " + strings.ToLower(x.Operator))
	case *ast.BinaryExpr:
		op := strings.ToLower(x.Operator)
		switch op {
		case "div":
			op = "DIV"
		case "%", "mod":
			op = "MOD"
		case "+", "-", "*", "/", "&", "|", "^", "<<", ">>":
		default:
			return errUnprinted
		}
		return p.binary(x.Left, " "+op+" ", x.Right, s, prec)
	case *ast.UnaryExpr:
		switch x.Operator {
		case "-", "~":
			p.b.WriteString(x.Operator)
			return p.expr(x.Expr, s, prec)
		}
		return errUnprinted
	case *ast.IntervalExpr:
		p.b.WriteString("interval ")
		if err := p.expr(x.Expr, s, precInterval+1); err != nil {
			return err
		}
		p.b.WriteString(" " + strings.ToLower(x.Unit))
	case *ast.Subquery:
		if len(x.Columns) > 0 {
			return errUnprinted
		}
		p.b.WriteByte('(')
		if err := p.subquery(x.Select, sc); err != nil {
			return err
		}
		p.b.WriteByte(')')
	case *ast.ExistsExpr:
		sel, ok := x.Subquery.Select.(*ast.Select)
		if !ok || sel.Limit != nil {
			return errUnprinted
		}
		p.b.WriteString("exists(")
		if err := p.subquery(sel, sc); err != nil {
			return err
		}
		p.b.WriteString(" limit 1)")
	case *ast.CaseExpr:
		p.b.WriteString("case ")
		if x.Expr != nil {
			if err := p.expr(x.Expr, s, precLowest); err != nil {
				return err
			}
			p.b.WriteByte(' ')
		}
		for _, w := range x.Whens {
			p.b.WriteString("when ")
			if err := p.expr(w.Cond, s, precLowest); err != nil {
				return err
			}
			p.b.WriteString(" then ")
			if err := p.expr(w.Val, s, precLowest); err != nil {
				return err
			}
			p.b.WriteByte(' ')
		}
		if x.Else != nil {
			p.b.WriteString("else ")
			if err := p.expr(x.Else, s, precLowest); err != nil {
				return err
			}
			p.b.WriteByte(' ')
		}
		p.b.WriteString("end")
	case *ast.FuncExpr:
		return p.function(x, s)
	case *ast.GroupConcatExpr:
		return p.groupConcat(x, s)
	case *ast.ConvertExpr:
		return p.convert(x, s)
	case *ast.ConvertUsingExpr:
		p.b.WriteString("convert(")
		if err := p.expr(x.Expr, s, precLowest); err != nil {
			return err
		}
		p.b.WriteString(" using " + strings.ToLower(x.Type) + ")")
	case *ast.TrimExpr:
		pat, ok := x.Pattern.(*ast.SQLVal)
		if !ok || x.Dir != "b" || string(pat.Val) != " " {
			return errUnprinted
		}
		p.b.WriteString("trim(")
		if err := p.expr(x.Str, s, precLowest); err != nil {
			return err
		}
		p.b.WriteByte(')')
	default:
		return errUnprinted
	}
	return nil
}

// subquery prints a subquery of an expression, whose items MariaDB
// prints without their names.
func (p *viewPrinter) subquery(sel ast.SelectStatement, sc *viewScope) error {
	p.inExpr++
	defer func() { p.inExpr-- }()
	return p.statement(sel, sc, nil)
}

// cond prints a condition (WHERE, HAVING, ON, an operand of AND, OR or
// XOR), where MariaDB prints a bare column c as c <> 0.
func (p *viewPrinter) cond(e ast.Expr, s scopeOf, min int) error {
	e = unparen(e)
	if c, ok := e.(*ast.ColName); ok {
		e = &ast.ComparisonExpr{Operator: "<>", Left: c, Right: ast.NewIntVal([]byte("0"))}
	}
	return p.expr(e, s, min)
}

// binary prints l op r, l in parentheses below prec, r at or below it.
func (p *viewPrinter) binary(l ast.Expr, op string, r ast.Expr, s scopeOf, prec int) error {
	if err := p.expr(l, s, prec); err != nil {
		return err
	}
	p.b.WriteString(op)
	return p.expr(r, s, prec+1)
}

// comparison prints =, <>, LIKE, IN, REGEXP and the rest.
func (p *viewPrinter) comparison(x *ast.ComparisonExpr, s scopeOf, prec int) error {
	if x.Escape != nil {
		return errUnprinted
	}
	op := strings.ToLower(x.Operator)
	switch op {
	case "!=":
		op = "<>"
	case "not like":
		op = " not like"
	case "not in":
		if t, ok := x.Right.(ast.ValTuple); ok && len(t) == 1 {
			op = "<>"
			x = &ast.ComparisonExpr{Operator: op, Left: x.Left, Right: t[0]}
		}
	case "=", "<>", "<", ">", "<=", ">=", "<=>", "like", "in", "regexp", "not regexp":
	default:
		return errUnprinted
	}
	if err := p.expr(x.Left, s, prec); err != nil {
		return err
	}
	p.b.WriteString(" " + op + " ")
	if t, ok := x.Right.(ast.ValTuple); ok {
		p.b.WriteByte('(')
		for i, e := range t {
			if i > 0 {
				p.b.WriteByte(',')
			}
			if err := p.expr(e, s, precLowest); err != nil {
				return err
			}
		}
		p.b.WriteByte(')')
		return nil
	}
	return p.expr(x.Right, s, prec+1)
}

// negations are the comparison operators and their opposites.
var negations = map[string]string{"=": "<>", "<>": "=", "!=": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">",
	"like": "not like", "not like": "like", "in": "not in", "not in": "in", "regexp": "not regexp", "not regexp": "regexp",
	"between": "not between", "not between": "between", "is null": "is not null", "is not null": "is null"}

// not prints NOT e as MariaDB does: the opposite comparison, De Morgan's
// law over AND and OR, and e = 0 for what is not a condition.
func (p *viewPrinter) not(e ast.Expr, s scopeOf, min int) error {
	e = unparen(e)
	switch x := e.(type) {
	case *ast.ComparisonExpr:
		if n, ok := negations[strings.ToLower(x.Operator)]; ok && x.Escape == nil && x.Operator != "<=>" {
			return p.expr(&ast.ComparisonExpr{Operator: n, Left: x.Left, Right: x.Right}, s, min)
		}
	case *ast.RangeCond:
		if n, ok := negations[strings.ToLower(x.Operator)]; ok {
			return p.expr(&ast.RangeCond{Operator: n, Left: x.Left, From: x.From, To: x.To}, s, min)
		}
	case *ast.IsExpr:
		if n, ok := negations[strings.ToLower(x.Operator)]; ok {
			return p.expr(&ast.IsExpr{Operator: n, Expr: x.Expr}, s, min)
		}
	case *ast.AndExpr:
		return p.expr(&ast.OrExpr{Left: &ast.NotExpr{Expr: x.Left}, Right: &ast.NotExpr{Expr: x.Right}}, s, min)
	case *ast.OrExpr:
		return p.expr(&ast.AndExpr{Left: &ast.NotExpr{Expr: x.Left}, Right: &ast.NotExpr{Expr: x.Right}}, s, min)
	case *ast.ColName, *ast.FuncExpr, *ast.BinaryExpr, *ast.SQLVal:
		if f, ok := x.(*ast.FuncExpr); ok && (f.IsAggregate() || f.Over != nil) {
			return errUnprinted
		}
		return p.expr(&ast.ComparisonExpr{Operator: "=", Left: x, Right: ast.NewIntVal([]byte("0"))}, s, min)
	case *ast.NotExpr:
		return p.expr(x.Expr, s, min)
	}
	if precNeg < min {
		p.b.WriteByte('(')
		defer p.b.WriteByte(')')
	}
	p.b.WriteByte('!')
	return p.expr(e, s, precNeg)
}

// precedence is e's operator precedence.
func precedence(e ast.Expr) int {
	switch x := e.(type) {
	case *ast.OrExpr:
		return precOr
	case *ast.XorExpr:
		return precXor
	case *ast.AndExpr:
		return precAnd
	case *ast.NotExpr:
		return precedenceOfNot(x.Expr)
	case *ast.RangeCond, *ast.CaseExpr:
		return precBetween
	case *ast.ComparisonExpr, *ast.IsExpr:
		return precCmp
	case *ast.BinaryExpr:
		switch strings.ToLower(x.Operator) {
		case "|":
			return precBitOr
		case "&":
			return precBitAnd
		case "<<", ">>":
			return precShift
		case "+", "-":
			return precAdd
		case "*", "/", "div", "%", "mod":
			return precMul
		case "^":
			return precBitXor
		}
	case *ast.UnaryExpr:
		if x.Operator == "!" {
			return precedenceOfNot(x.Expr)
		}
		return precNeg
	case *ast.IntervalExpr:
		return precInterval
	case *ast.FuncExpr:
		// (the functions printed as an operator)
		switch strings.ToLower(x.Name.String()) {
		case "datediff":
			return precAdd
		case "isnull":
			return precCmp
		case "date_add", "date_sub", "adddate", "subdate":
			if len(x.Exprs) == 2 {
				if ae, ok := x.Exprs[1].(*ast.AliasedExpr); ok {
					if _, ok := ae.Expr.(*ast.IntervalExpr); ok {
						return precAdd
					}
				}
			}
		}
	}
	return precHighest
}

// precedenceOfNot is the precedence of what NOT e prints as.
func precedenceOfNot(e ast.Expr) int {
	e = unparen(e)
	switch e.(type) {
	case *ast.AndExpr:
		return precOr
	case *ast.OrExpr:
		return precAnd
	case *ast.RangeCond:
		return precBetween
	}
	return precCmp
}

// colName prints a column: through its table, or (HAVING) a select
// item's name; a column of an outer SELECT is a correlated reference.
func (p *viewPrinter) colName(c *ast.ColName, s scopeOf) error {
	name := c.Name.String()
	if p.bare {
		if !c.Qualifier.IsEmpty() {
			return errUnprinted
		}
		p.b.WriteString(quoteIdent(name))
		return nil
	}
	if c.Qualifier.IsEmpty() {
		if h, ok := s.(*havingScope); ok {
			for _, it := range h.items {
				if strings.EqualFold(it.name, name) {
					if _, inTables := h.resolve(name); !inTables || it.expr != nil {
						p.b.WriteString(quoteIdent(it.name))
						return nil
					}
				}
			}
		}
		for sc := s.scope(); sc != nil; sc = sc.outer {
			if src, ok := sc.resolve(name); ok {
				p.column(src, name)
				return nil
			}
			if _, ambiguous := anyCol(sc.sources, name); ambiguous {
				return errUnprinted
			}
		}
		return errUnprinted
	}
	if !c.Qualifier.SchemaQualifier.IsEmpty() {
		return errUnprinted
	}
	for sc := s.scope(); sc != nil; sc = sc.outer {
		for _, src := range sc.sources {
			if !src.named(c.Qualifier) {
				continue
			}
			if _, ok := findCol([]*viewSource{src}, name); ok {
				p.column(src, name)
				return nil
			}
		}
	}
	return errUnprinted
}

// anyCol reports whether more than one source has column c.
func anyCol(srcs []*viewSource, c string) (int, bool) {
	n := 0
	for _, s := range srcs {
		for _, sc := range s.cols {
			if strings.EqualFold(sc, c) {
				n++
			}
		}
	}
	return n, n > 1
}

// literal prints a number or a string as MariaDB does.
func (p *viewPrinter) literal(v *ast.SQLVal) error {
	switch v.Type {
	case ast.IntVal, ast.FloatVal:
		p.b.Write(v.Val)
	case ast.StrVal:
		p.b.WriteString(quoteLiteral(string(v.Val)))
	case ast.HexNum:
		p.b.Write(v.Val)
	case ast.HexVal:
		p.b.WriteString("X'" + string(v.Val) + "'")
	default:
		return errUnprinted
	}
	return nil
}

// quoteLiteral is s in single quotes with the escapes of MariaDB's
// printed expressions.
func quoteLiteral(s string) string {
	var b strings.Builder
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'':
			b.WriteString(`\'`)
		case '\\':
			b.WriteString(`\\`)
		case 0:
			b.WriteString(`\0`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case 0x1a:
			b.WriteString(`\Z`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// funcNames are functions MariaDB prints under another name.
var funcNames = map[string]string{
	"now": "current_timestamp", "localtime": "current_timestamp", "localtimestamp": "current_timestamp",
	"current_date": "curdate", "current_time": "curtime", "substring": "substr", "mid": "substr",
	"length": "octet_length", "character_length": "char_length", "upper": "ucase", "lower": "lcase",
	"day": "dayofmonth", "power": "pow", "schema": "database", "ceil": "ceiling", "std": "std", "stddev": "std",
	"stddev_pop": "std", "variance": "variance", "var_pop": "variance",
}

// function prints a function call.
func (p *viewPrinter) function(f *ast.FuncExpr, s scopeOf) error {
	if f.Over != nil || !f.Qualifier.IsEmpty() {
		return errUnprinted
	}
	name := strings.ToLower(f.Name.String())
	args := f.Exprs
	switch name {
	case "count":
		if len(args) == 1 {
			if _, ok := args[0].(*ast.StarExpr); ok {
				p.b.WriteString("count(0)")
				return nil
			}
		}
	case "current_timestamp", "now", "localtime", "localtimestamp", "curtime", "current_time", "utc_timestamp", "utc_time", "sysdate":
		// The parser gives a clock without digits a 0.
		if len(args) == 1 {
			if ae, ok := args[0].(*ast.AliasedExpr); ok {
				if v, ok := ae.Expr.(*ast.SQLVal); ok && (string(v.Val) == "0" || len(v.Val) == 0) {
					args = nil
				}
			}
		}
	case "date_add", "adddate", "date_sub", "subdate":
		if len(args) == 2 {
			d, ok1 := args[0].(*ast.AliasedExpr)
			iv, ok2 := args[1].(*ast.AliasedExpr)
			if ok1 && ok2 {
				if _, ok := iv.Expr.(*ast.IntervalExpr); ok {
					op := "+"
					if name == "date_sub" || name == "subdate" {
						op = "-"
					}
					return p.binary(d.Expr, " "+op+" ", iv.Expr, s, precAdd)
				}
			}
		}
		if name == "adddate" || name == "subdate" {
			return errUnprinted
		}
	case "max", "min":
		f = &ast.FuncExpr{Name: f.Name, Exprs: f.Exprs}
	case "isnull":
		if len(args) != 1 || f.Distinct {
			break
		}
		if a, ok := args[0].(*ast.AliasedExpr); ok {
			return p.expr(&ast.IsExpr{Operator: "is null", Expr: a.Expr}, s, precCmp)
		}
	case "date":
		if len(args) != 1 || f.Distinct {
			break
		}
		if a, ok := args[0].(*ast.AliasedExpr); ok {
			return p.convert(&ast.ConvertExpr{Name: "CAST", Expr: a.Expr, Type: &ast.ConvertType{Type: "date"}}, s)
		}
	case "datediff":
		if len(args) == 2 && !f.Distinct {
			l, ok1 := args[0].(*ast.AliasedExpr)
			r, ok2 := args[1].(*ast.AliasedExpr)
			if !ok1 || !ok2 {
				return errUnprinted
			}
			toDays := func(e ast.Expr) ast.Expr {
				return &ast.FuncExpr{Name: ast.NewColIdent("to_days"), Exprs: ast.SelectExprs{&ast.AliasedExpr{Expr: e}}}
			}
			return p.binary(toDays(l.Expr), " - ", toDays(r.Expr), s, precAdd)
		}
	}
	if n, ok := funcNames[name]; ok {
		name = n
	}
	p.b.WriteString(name + "(")
	if f.Distinct {
		p.b.WriteString("distinct ")
	}
	for i, a := range args {
		if i > 0 {
			p.b.WriteByte(',')
		}
		ae, ok := a.(*ast.AliasedExpr)
		if !ok || !ae.As.IsEmpty() {
			return errUnprinted
		}
		if err := p.expr(ae.Expr, s, precLowest); err != nil {
			return err
		}
	}
	p.b.WriteByte(')')
	return nil
}

// groupConcat prints GROUP_CONCAT with its separator always named.
func (p *viewPrinter) groupConcat(g *ast.GroupConcatExpr, s scopeOf) error {
	p.b.WriteString("group_concat(")
	if g.Distinct != "" {
		p.b.WriteString("distinct ")
	}
	for i, a := range g.Exprs {
		if i > 0 {
			p.b.WriteByte(',')
		}
		ae, ok := a.(*ast.AliasedExpr)
		if !ok {
			return errUnprinted
		}
		if err := p.expr(ae.Expr, s, precLowest); err != nil {
			return err
		}
	}
	if len(g.OrderBy) > 0 {
		p.b.WriteString(" order by ")
		for i, o := range g.OrderBy {
			if i > 0 {
				p.b.WriteByte(',')
			}
			if err := p.expr(o.Expr, s, precLowest); err != nil {
				return err
			}
			if strings.EqualFold(o.Direction, ast.DescScr) {
				p.b.WriteString(" DESC")
			} else {
				p.b.WriteString(" ASC")
			}
		}
	}
	sep := ","
	if !g.Separator.DefaultSeparator {
		sep = g.Separator.SeparatorString
	}
	p.b.WriteString(" separator " + quoteLiteral(sep) + ")")
	return nil
}

// convert prints CAST(x AS type) and CONVERT(x, type).
func (p *viewPrinter) convert(c *ast.ConvertExpr, s scopeOf) error {
	t := c.Type
	if t == nil || (t.Operator != "" || t.Charset != "") && !strings.EqualFold(t.Type, "char") {
		return errUnprinted
	}
	typ := strings.ToLower(t.Type)
	switch typ {
	case "signed", "unsigned", "date", "datetime", "time", "decimal", "double", "float", "char", "binary":
	case "signed integer", "unsigned integer":
		typ = strings.Fields(typ)[0]
	default:
		return errUnprinted
	}
	charset := strings.ToLower(t.Charset)
	if typ == "binary" {
		typ, charset = "char", "binary"
	}
	if charset == "" {
		charset = p.charset
	}
	if typ == "char" && charset == "" {
		return errUnprinted
	}
	p.b.WriteString("cast(")
	if err := p.expr(c.Expr, s, precLowest); err != nil {
		return err
	}
	p.b.WriteString(" as " + typ)
	if t.Length != nil {
		p.b.WriteString("(" + string(t.Length.Val))
		if t.Scale != nil {
			p.b.WriteString("," + string(t.Scale.Val))
		}
		p.b.WriteByte(')')
	}
	if typ == "char" {
		p.b.WriteString(" charset " + charset)
	}
	p.b.WriteByte(')')
	return nil
}

// unparen is e without the parentheses around it (the printer puts back
// those precedence needs).
func unparen(e ast.Expr) ast.Expr {
	for {
		pe, ok := e.(*ast.ParenExpr)
		if !ok {
			return e
		}
		e = pe.Expr
	}
}
