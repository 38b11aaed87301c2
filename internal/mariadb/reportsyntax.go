package mariadb

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// Report syntax go-mysql-server does not plan, rewritten in the syntax
// tree after parsing (reportRewrite, called by guardedParser for every
// statement it returns; pure functions of the tree, safe for concurrent
// use):
//
//   - A window function over a grouped query (ROW_NUMBER() OVER (ORDER
//     BY COUNT(*))): go-mysql-server's planner refuses window functions
//     and aggregates in one SELECT. The SELECT becomes a SELECT of the
//     window functions over a derived table that groups
//     (windowsOverGroups): the derived table computes the select list's
//     expressions without windows, and the columns and aggregates the
//     windows and the ORDER BY use; the outer SELECT keeps the names,
//     DISTINCT, ORDER BY and LIMIT.
//   - Named windows (WINDOW w AS (...)) are written into the OVER
//     clauses that use them (inlineWindows): go-mysql-server's planner
//     gave a plain OVER w the frame of an empty OVER (), the whole
//     partition, when w has an ORDER BY and another OVER (w ...) of the
//     statement has a frame of its own.
//   - GROUP BY ... WITH ROLLUP, which the vitess grammar lacks: the
//     parser's retry (dialectBlank) replaces `WITH ROLLUP` by the marker
//     column `,__rollup__` (as long), and the SELECT becomes a UNION ALL
//     of one SELECT per grouping level, the rolled-up columns NULL,
//     sorted as MariaDB sorts a rollup (expandRollup).
//   - A select expression that is a DATE, TIMESTAMP or TIME literal (DATE
//     '2024-01-01'), which the vitess parser makes a string, is a CAST
//     to that type (typedLiteral): a recursive CTE's anchor, for one,
//     types its column; so is such a literal inside an expression, or
//     cast to another type, when its text is written no other way
//     (typedInside).
//   - `@var := expr` in an expression: the retry rewrites it as a call of
//     AssignFunction with the variable's name as a string
//     (a user variable itself may be folded to its value while
//     planning) (assignRewrite); the column name is given
//     back its text (unassignText).

// Names the rewrites give to the columns of their derived tables.
const (
	rollupMarker = "__rollup__"
	rewritePre   = "__hdb_"
)

// reportRewrite applies the rewrites to every SELECT of st, innermost
// first. It changes the SELECT nodes in place.
func ReportRewrite(text string, st ast.Statement) error {
	if !mayNeedReportRewrite(text) {
		return nil // a statement with none of the forms: no walk of its tree
	}
	var sels []*ast.Select
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if s, ok := n.(*ast.Select); ok {
			sels = append(sels, s)
		}
		return true, nil
	}, st)
	var typed map[string]*ast.ConvertType
	if len(sels) > 0 {
		typed = TypedLiteralValues(text)
	}
	for i := len(sels) - 1; i >= 0; i-- {
		for _, se := range sels[i].SelectExprs {
			if ae, ok := se.(*ast.AliasedExpr); ok && strings.Contains(ae.InputExpression, AssignFunction) {
				ae.InputExpression = UnassignText(ae.InputExpression)
			}
			typedLiteral(se)
			if ae, ok := se.(*ast.AliasedExpr); ok && len(typed) > 0 {
				ae.Expr = typedInside(ae.Expr, typed)
			}
		}
		if err := expandRollup(sels[i]); err != nil {
			return err
		}
		windowsOverGroups(sels[i])
		if len(sels[i].Window) > 0 {
			// go-mysql-server's planner gave a plain OVER w the frame
			// of an empty OVER () (the whole partition) when w has an
			// ORDER BY: written into each OVER clause, w is MariaDB's.
			inlineWindows(sels[i])
		}
	}
	return nil
}

// reportWords are the words one of which the text of a statement the
// rewrite changes contains, as written or as the parser's retry rewrote
// it: ROLLUP (or its marker), := (or the assignment function), OVER of a
// window, DATE/TIME/TIMESTAMP of a typed literal.
var reportWords = []string{"rollup", ":=", AssignFunction, "over", "date", "time"}

// mayNeedReportRewrite reports whether text contains one of reportWords,
// ignoring ASCII case, without allocating (it runs for every statement).
func mayNeedReportRewrite(text string) bool {
	for _, w := range reportWords {
		if sqlbackend.ContainsFold(text, w) {
			return true
		}
	}
	return false
}

// isAggregate reports whether e is an aggregate function call (not a
// window function).
func isAggregate(e ast.SQLNode) bool {
	switch x := e.(type) {
	case *ast.GroupConcatExpr:
		return true
	case *ast.FuncExpr:
		return x.Over == nil && x.Qualifier.IsEmpty() && ast.Aggregates[x.Name.Lowered()]
	}
	return false
}

func isWindow(e ast.SQLNode) bool {
	f, ok := e.(*ast.FuncExpr)
	return ok && f.Over != nil
}

// contains reports whether pred holds for a node of n.
func contains(n ast.SQLNode, pred func(ast.SQLNode) bool) bool {
	found := false
	_ = ast.Walk(func(x ast.SQLNode) (bool, error) {
		if found || pred(x) {
			found = true
			return false, nil
		}
		return true, nil
	}, n)
	return found
}

// displayName is the column name go-mysql-server gives a select
// expression.
func displayName(e *ast.AliasedExpr) string {
	if !e.As.IsEmpty() {
		return e.As.String()
	}
	if c, ok := e.Expr.(*ast.ColName); ok {
		return c.Name.String()
	}
	if e.InputExpression != "" {
		return e.InputExpression
	}
	return ast.String(e.Expr)
}

func colRef(name string) *ast.ColName { return &ast.ColName{Name: ast.NewColIdent(name)} }

// substitute replaces, in e, every node for which f returns a
// replacement (not looking inside it). The OVER clause of a window
// function, which vitess's own replacement does not visit, is handled
// here. e is changed in place; the result is e or its replacement.
func substitute(e ast.Expr, f func(ast.Expr) ast.Expr) ast.Expr {
	if to := f(e); to != nil {
		return to
	}
	if w, ok := e.(*ast.FuncExpr); ok && w.Over != nil {
		for _, se := range w.Exprs {
			if ae, ok := se.(*ast.AliasedExpr); ok {
				ae.Expr = substitute(ae.Expr, f)
			}
		}
		for i := range w.Over.PartitionBy {
			w.Over.PartitionBy[i] = substitute(w.Over.PartitionBy[i], f)
		}
		for _, o := range w.Over.OrderBy {
			o.Expr = substitute(o.Expr, f)
		}
		return e
	}
	type pair struct{ from, to ast.Expr }
	var hits []pair
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		x, ok := n.(ast.Expr)
		if !ok || x == e {
			return true, nil
		}
		if isWindow(x) {
			substitute(x, f) // in place
			return false, nil
		}
		if to := f(x); to != nil {
			hits = append(hits, pair{x, to})
			return false, nil
		}
		return true, nil
	}, e)
	for _, h := range hits {
		e = ast.ReplaceExpr(e, h.from, h.to)
	}
	return e
}

// windowsOverGroups rewrites sel if it has window functions and groups
// (GROUP BY or aggregates). It leaves sel as it is where the rewrite
// does not apply (SELECT *, a subquery in a window's expression or the
// ORDER BY, a window defined over another, INTO, locking);
// go-mysql-server then refuses it.
func windowsOverGroups(sel *ast.Select) {
	hasWindow := false
	for _, se := range sel.SelectExprs {
		if contains(se, isWindow) {
			hasWindow = true
		}
	}
	if !hasWindow {
		return
	}
	grouped := len(sel.GroupBy) > 0 || sel.Having != nil
	for _, se := range sel.SelectExprs {
		grouped = grouped || contains(se, isAggregate)
	}
	for _, o := range sel.OrderBy {
		grouped = grouped || contains(o, isAggregate)
	}
	if !grouped || sel.Into != nil || sel.Lock != "" || sel.QueryOpts.SQLCalcFoundRows {
		return
	}
	if len(sel.Window) > 0 && !inlineWindows(sel) {
		return
	}
	isSub := func(n ast.SQLNode) bool {
		_, ok := n.(*ast.Subquery)
		return ok
	}
	for _, se := range sel.SelectExprs {
		// A subquery in a select expression without window functions
		// moves into the derived table as it is.
		if _, ok := se.(*ast.AliasedExpr); !ok || (contains(se, isWindow) && contains(se, isSub)) {
			return
		}
	}
	for _, o := range sel.OrderBy {
		if contains(o, isSub) {
			return
		}
	}

	inner := &ast.Select{Comments: sel.Comments, From: sel.From, Where: sel.Where, GroupBy: sel.GroupBy, Having: sel.Having}
	outer := &ast.Select{With: sel.With, QueryOpts: sel.QueryOpts, Limit: sel.Limit}
	outer.QueryOpts.StraightJoinHint = false
	// extra are the inner columns the windows and ORDER BY read, by their
	// printed expression.
	extra := map[string]string{}
	need := func(x ast.Expr) ast.Expr {
		key := ast.String(x)
		name, ok := extra[key]
		if !ok {
			name = rewritePre + "x" + strconv.Itoa(len(extra)+1)
			extra[key] = name
			inner.SelectExprs = append(inner.SelectExprs, &ast.AliasedExpr{Expr: x, As: ast.NewColIdent(name)})
		}
		return colRef(name)
	}
	var plain map[string]string // printed non-window select expression -> inner name
	outerNames := map[string]bool{}
	lift := func(x ast.Expr) ast.Expr {
		if isAggregate(x) {
			if n, ok := plain[ast.String(x)]; ok {
				return colRef(n)
			}
			return need(x)
		}
		if c, ok := x.(*ast.ColName); ok {
			if strings.HasPrefix(c.Name.String(), "@") {
				return nil
			}
			if n, ok := plain[ast.String(x)]; ok {
				return colRef(n)
			}
			return need(x)
		}
		return nil
	}
	plain = map[string]string{}
	var windowed []int
	for i, se := range sel.SelectExprs {
		ae := se.(*ast.AliasedExpr)
		name := displayName(ae)
		outerNames[strings.ToLower(name)] = true
		innerName := rewritePre + "s" + strconv.Itoa(i+1)
		if contains(ae.Expr, isWindow) {
			// A NULL keeps the positions GROUP BY 2 refers to.
			inner.SelectExprs = append(inner.SelectExprs, &ast.AliasedExpr{Expr: &ast.NullVal{}, As: ast.NewColIdent(innerName)})
			outer.SelectExprs = append(outer.SelectExprs, ae)
			windowed = append(windowed, i)
			continue
		}
		as := ae.As
		if as.IsEmpty() {
			as = ast.NewColIdent(innerName)
		} else {
			innerName = as.String()
		}
		inner.SelectExprs = append(inner.SelectExprs, &ast.AliasedExpr{Expr: ae.Expr, As: as, InputExpression: ae.InputExpression})
		plain[ast.String(ae.Expr)] = innerName
		outer.SelectExprs = append(outer.SelectExprs, &ast.AliasedExpr{Expr: colRef(innerName), As: ast.NewColIdent(name)})
	}
	for _, i := range windowed {
		ae := outer.SelectExprs[i].(*ast.AliasedExpr)
		ae.Expr = substitute(ae.Expr, lift)
	}
	for _, o := range sel.OrderBy {
		if c, ok := o.Expr.(*ast.ColName); ok && c.Qualifier.IsEmpty() && outerNames[c.Name.Lowered()] {
			outer.OrderBy = append(outer.OrderBy, o) // a select alias
			continue
		}
		if v, ok := o.Expr.(*ast.SQLVal); ok && v.Type == ast.IntVal {
			outer.OrderBy = append(outer.OrderBy, o) // a position
			continue
		}
		outer.OrderBy = append(outer.OrderBy, &ast.Order{Expr: substitute(o.Expr, lift), Direction: o.Direction})
	}
	outer.From = ast.TableExprs{derived(inner, rewritePre+"w")}
	*sel = *outer
}

// inlineWindows writes each named window a window function of sel uses
// (OVER w, OVER (w ORDER BY ...)) into its OVER clause, and drops sel's
// WINDOW clause. It reports false, changing nothing, for a window
// defined over another.
func inlineWindows(sel *ast.Select) bool {
	defs := map[string]*ast.WindowDef{}
	for _, d := range sel.Window {
		if !d.NameRef.IsEmpty() {
			return false
		}
		defs[d.Name.Lowered()] = d
	}
	var overs []*ast.Over
	ok := true
	for _, se := range sel.SelectExprs {
		_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
			if f, isFunc := n.(*ast.FuncExpr); isFunc && f.Over != nil && !f.Over.NameRef.IsEmpty() {
				d := defs[f.Over.NameRef.Lowered()]
				if d == nil || (len(f.Over.PartitionBy) > 0 && len(d.PartitionBy) > 0) ||
					(len(f.Over.OrderBy) > 0 && len(d.OrderBy) > 0) || (f.Over.Frame != nil && d.Frame != nil) {
					ok = false
				}
				overs = append(overs, f.Over)
			}
			return true, nil
		}, se)
	}
	if !ok {
		return false
	}
	for _, o := range overs {
		d := defs[o.NameRef.Lowered()]
		if len(o.PartitionBy) == 0 {
			for _, e := range d.PartitionBy {
				o.PartitionBy = append(o.PartitionBy, cloneExpr(e))
			}
		}
		if len(o.OrderBy) == 0 {
			for _, ob := range d.OrderBy {
				o.OrderBy = append(o.OrderBy, &ast.Order{Expr: cloneExpr(ob.Expr), Direction: ob.Direction})
			}
		}
		if o.Frame == nil {
			o.Frame = d.Frame
		}
		o.NameRef = ast.ColIdent{}
	}
	sel.Window = nil
	return true
}

// rollupEnd is dialectBlank's test for WITH ROLLUP at toks[i]: it
// returns the end of ROLLUP, or -1.
func rollupEnd(toks []codeWord, i int) int {
	if i+1 < len(toks) && strings.EqualFold(toks[i].text, "WITH") && strings.EqualFold(toks[i+1].text, "ROLLUP") {
		return toks[i+1].end
	}
	return -1
}

// expandRollup rewrites a SELECT whose GROUP BY ends with the rollup
// marker into
//
//	SELECT <names> FROM (
//	  SELECT <list>, <g1>, 0, ..., <gn>, 0 ... GROUP BY g1, ..., gn
//	  UNION ALL SELECT <list, gn NULL>, <g1>, 0, ..., NULL, 1 ... GROUP BY g1, ..., gn-1
//	  ...
//	  UNION ALL SELECT <list, all NULL>, NULL, 1, ..., NULL, 1 ... HAVING COUNT(*) > 0) r
//	ORDER BY <rolled 1>, <g1>, ..., <rolled n>, <gn> LIMIT ...
//
// MariaDB sorts the rows of a grouped query by the grouping columns and
// puts each super-aggregate row after the rows it sums; the flags do
// that, also where a grouping column holds NULLs. A select expression
// equal to a rolled-up grouping expression, or containing one outside an
// aggregate, reads NULL; in the HAVING it reads the greatest value of
// the rows summed. An ORDER BY is error 1221, as in MariaDB.
func expandRollup(sel *ast.Select) error {
	n := len(sel.GroupBy)
	if n == 0 {
		return nil
	}
	if c, ok := sel.GroupBy[n-1].(*ast.ColName); !ok || !c.Qualifier.IsEmpty() || c.Name.String() != rollupMarker {
		return nil
	}
	groups := sel.GroupBy[:n-1]
	if len(sel.OrderBy) > 0 {
		return errtable.SQLError(mysql.ERWrongUsage, "CUBE/ROLLUP", "ORDER BY")
	}
	if len(groups) == 0 || sel.Into != nil || sel.Lock != "" {
		return errtable.SQLError(mysql.ERNotSupportedYet, "WITH ROLLUP without grouping columns, with INTO or a locking clause")
	}
	// A grouping expression that names a select alias or position stands
	// for that select expression.
	keys := make([]ast.Expr, len(groups))
	for i, g := range groups {
		keys[i] = g
		switch x := g.(type) {
		case *ast.ColName:
			if !x.Qualifier.IsEmpty() {
				break
			}
			for _, se := range sel.SelectExprs {
				if ae, ok := se.(*ast.AliasedExpr); ok && !ae.As.IsEmpty() && ae.As.Equal(x.Name) {
					keys[i] = ae.Expr
				}
			}
		case *ast.SQLVal:
			if x.Type == ast.IntVal {
				if p, err := strconv.Atoi(string(x.Val)); err == nil && p >= 1 && p <= len(sel.SelectExprs) {
					if ae, ok := sel.SelectExprs[p-1].(*ast.AliasedExpr); ok {
						keys[i] = ae.Expr
					}
				}
			}
		}
	}
	keyText := make([]string, len(keys))
	for i, k := range keys {
		keyText[i] = ast.String(k)
	}
	// names are the result's column names; cols the branches' (a select
	// alias stays, for the HAVING that names it).
	names := make([]string, len(sel.SelectExprs))
	cols := make([]string, len(sel.SelectExprs))
	for i, se := range sel.SelectExprs {
		ae, ok := se.(*ast.AliasedExpr)
		if !ok {
			return errtable.SQLError(mysql.ERNotSupportedYet, "SELECT * with WITH ROLLUP")
		}
		names[i] = displayName(ae)
		cols[i] = rewritePre + "c" + strconv.Itoa(i+1)
		if !ae.As.IsEmpty() {
			cols[i] = ae.As.String()
		}
	}
	var union ast.SelectStatement
	for level := len(groups); level >= 0; level-- {
		rolled := map[string]bool{}
		for i := level; i < len(groups); i++ {
			rolled[keyText[i]] = true
		}
		nulls := func(x ast.Expr) ast.Expr {
			if isAggregate(x) {
				return x // its argument is the rows' values
			}
			if rolled[ast.String(x)] {
				return &ast.NullVal{}
			}
			return nil
		}
		b := &ast.Select{Comments: sel.Comments, QueryOpts: sel.QueryOpts, From: sel.From, Where: sel.Where, Having: sel.Having}
		if sel.Having != nil && level < len(groups) {
			// MariaDB's HAVING reads a rolled-up column's value in the
			// last group it sums: the greatest, groups being sorted.
			last := func(x ast.Expr) ast.Expr {
				if isAggregate(x) {
					return x
				}
				if rolled[ast.String(x)] {
					return &ast.FuncExpr{Name: ast.NewColIdent("max"), Exprs: ast.SelectExprs{&ast.AliasedExpr{Expr: cloneExpr(x)}}}
				}
				return nil
			}
			b.Having = &ast.Where{Type: ast.HavingStr, Expr: substitute(cloneExpr(sel.Having.Expr), last)}
		}
		for i, se := range sel.SelectExprs {
			ae := se.(*ast.AliasedExpr)
			e := ae.Expr
			if level < len(groups) {
				e = substitute(cloneExpr(e), nulls)
			}
			b.SelectExprs = append(b.SelectExprs, &ast.AliasedExpr{Expr: e, As: ast.NewColIdent(cols[i])})
		}
		for i, k := range keys {
			var v ast.Expr = cloneExpr(k)
			flag := "0"
			if i >= level {
				v, flag = &ast.NullVal{}, "1"
			}
			b.SelectExprs = append(b.SelectExprs,
				&ast.AliasedExpr{Expr: v, As: ast.NewColIdent(rewritePre + "g" + strconv.Itoa(i+1))},
				&ast.AliasedExpr{Expr: ast.NewIntVal([]byte(flag)), As: ast.NewColIdent(rewritePre + "r" + strconv.Itoa(i+1))})
		}
		if level > 0 {
			// The expressions, not the aliases or positions, which name
			// the branch's own columns.
			for _, k := range keys[:level] {
				b.GroupBy = append(b.GroupBy, cloneExpr(k))
			}
		} else {
			// No row at all from no rows, as in MariaDB.
			var some ast.Expr = &ast.ComparisonExpr{Operator: ast.GreaterThanStr,
				Left:  &ast.FuncExpr{Name: ast.NewColIdent("count"), Exprs: ast.SelectExprs{&ast.StarExpr{}}},
				Right: ast.NewIntVal([]byte("0"))}
			if b.Having != nil {
				some = &ast.AndExpr{Left: b.Having.Expr, Right: some}
			}
			b.Having = &ast.Where{Type: ast.HavingStr, Expr: some}
		}
		if union == nil {
			union = b
		} else {
			union = &ast.SetOp{Type: ast.UnionAllStr, Left: union, Right: b}
		}
	}
	outer := &ast.Select{With: sel.With, Limit: sel.Limit}
	for i, name := range names {
		outer.SelectExprs = append(outer.SelectExprs, &ast.AliasedExpr{Expr: colRef(cols[i]), As: ast.NewColIdent(name)})
	}
	for i := range keys {
		outer.OrderBy = append(outer.OrderBy,
			&ast.Order{Expr: colRef(rewritePre + "r" + strconv.Itoa(i+1)), Direction: ast.AscScr},
			&ast.Order{Expr: colRef(rewritePre + "g" + strconv.Itoa(i+1)), Direction: ast.AscScr})
	}
	outer.From = ast.TableExprs{derived(union, rewritePre+"rollup")}
	*sel = *outer
	return nil
}

// cloneExpr copies e by printing and parsing it again: substitute changes
// its argument in place, and each level of a rollup needs its own.
func cloneExpr(e ast.Expr) ast.Expr {
	st, err := ast.Parse("select " + ast.String(e))
	if err != nil {
		return e
	}
	if s, ok := st.(*ast.Select); ok && len(s.SelectExprs) == 1 {
		if ae, ok := s.SelectExprs[0].(*ast.AliasedExpr); ok {
			return ae.Expr
		}
	}
	return e
}

// derived is the derived table `(sel) AS name`, with the parser's
// authorization mark of one (its tables are checked where they are read).
func derived(sel ast.SelectStatement, name string) *ast.AliasedTableExpr {
	return &ast.AliasedTableExpr{Expr: &ast.Subquery{Select: sel}, As: ast.NewTableIdent(name),
		Auth: ast.AuthInformation{AuthType: ast.AuthType_IGNORE}}
}

// assignRewrite rewrites each `@var := expr` of q's first statement as
// the call AssignFunction('@var', expr), outside a SET
// statement's own assignments. expr ends at the first comma, closing
// parenthesis, clause keyword or alias at its level; an expr with a
// comparison or a logical operator at its level (where := binding
// loosest matters) is not rewritten, nor is anything after q's first
// statement (so the text of the next one stays as written).
func AssignRewrite(q string) (string, bool) {
	toks := codeWords(q)
	set := len(toks) > 0 && strings.EqualFold(toks[0].text, "SET")
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	depth := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.text {
		case "(":
			depth++
			continue
		case ")":
			depth--
			continue
		case ";":
			if depth == 0 {
				i = len(toks)
				continue
			}
		}
		if t.text != "@" || i+3 >= len(toks) || !toks[i+1].word || toks[i+1].start != t.end ||
			toks[i+2].text != ":" || toks[i+3].text != "=" || toks[i+3].start != toks[i+2].end {
			continue
		}
		if set && depth == 0 {
			continue
		}
		end, ok := assignedEnd(q, toks, i+4)
		if !ok {
			return q, false
		}
		raw := strings.TrimRight(q[toks[i+3].end:end], " \t\r\n")
		expr := strings.TrimSpace(raw)
		if expr == "" {
			return q, false
		}
		name := q[t.start:toks[i+1].end]
		if strings.ContainsAny(name, `'\`) {
			return q, false
		}
		edits = append(edits, edit{t.start, toks[i+3].end + len(raw), AssignFunction + "('" + name + "', " + expr + ")"})
		for i+1 < len(toks) && toks[i+1].start < end {
			i++
		}
	}
	if len(edits) == 0 {
		return q, false
	}
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(q[last:e.from])
		b.WriteString(e.text)
		last = e.to
	}
	b.WriteString(q[last:])
	return b.String(), true
}

// Words that end an assigned expression, and words and operators that
// make its extent depend on precedence.
var (
	assignStops = wordSet(`AS FROM WHERE GROUP HAVING ORDER LIMIT INTO UNION WINDOW FOR LOCK
		EXCEPT INTERSECT THEN ELSE WHEN END ON USING SEPARATOR`)
	assignBails = wordSet(`AND OR XOR NOT IS IN LIKE BETWEEN REGEXP RLIKE SOUNDS ESCAPE = < > ! & | :`)
	// assignInfix are words between two operands.
	assignInfix = map[string]bool{"DIV": true, "MOD": true, "COLLATE": true}
)

// assignedEnd finds where the expression assigned from toks[j] on ends.
func assignedEnd(q string, toks []codeWord, j int) (int, bool) {
	depth, cases := 0, 0
	operand := false // the last token ended an operand
	for ; j < len(toks); j++ {
		t := toks[j]
		up := strings.ToUpper(t.text)
		switch {
		case t.text == "(":
			depth++
			operand = false
			continue
		case t.text == ")":
			if depth == 0 {
				return t.start, true
			}
			depth--
			operand = true
			continue
		case t.word && up == "CASE":
			cases++
			continue
		case t.word && up == "END" && cases > 0:
			cases--
			operand = true
			continue
		}
		if depth > 0 || cases > 0 {
			continue
		}
		switch {
		case t.text == "," || t.text == ";":
			return t.start, true
		case t.word && assignStops[up]:
			return t.start, true
		case assignBails[up]:
			return 0, false
		case t.word && assignInfix[up]:
			operand = false
		case t.word:
			if operand && !strings.HasPrefix(t.text, "`") && j > 0 && toks[j-1].text != "." {
				return t.start, true // an alias without AS
			}
			operand = true
		default:
			operand = false
			if t.text == "." {
				operand = false
			}
		}
	}
	return len(strings.TrimRight(q, " \t\r\n;")), true
}

// unassignText gives back `@var := expr` in a column name that
// assignRewrite's text made (the name MariaDB gives the column).
func UnassignText(s string) string {
	pre := AssignFunction + "("
	for {
		i := strings.Index(s, pre)
		if i < 0 {
			return s
		}
		rest := s[i+len(pre):]
		comma := strings.Index(rest, ", ")
		if comma < 0 {
			return s
		}
		// The call's closing parenthesis.
		depth, end := 0, -1
		for k := comma; k < len(rest) && end < 0; k++ {
			switch rest[k] {
			case '(':
				depth++
			case ')':
				if depth == 0 {
					end = k
				}
				depth--
			}
		}
		if end < 0 {
			return s
		}
		s = s[:i] + strings.Trim(rest[:comma], "'") + " := " + rest[comma+2:end] + rest[end+1:]
	}
}

// typedLiteralRE matches the text of a DATE or TIMESTAMP literal (with
// its alias: an aliased expression's text has it).
var typedLiteralRE = regexp.MustCompile(`(?i)^(DATE|TIMESTAMP|TIME)\s*'([^']*)'(?:\s+(?:AS\s+)?\S+)?$`)

// typedInsideRE matches a DATE or TIMESTAMP literal anywhere in a text.
var typedInsideRE = regexp.MustCompile(`(?i)\b(DATE|TIMESTAMP|TIME)\s*'([^'\\]*)'`)

// typedLiteralValues returns the strings the text writes as DATE or
// TIMESTAMP literals, each with its type, but only those the text writes
// in no other way (a plain '2024-02-29' or "2024-02-29" elsewhere, or both
// kinds): the
// parser gives all of them as the same string value, so only such a value
// tells its literals apart.
func TypedLiteralValues(text string) map[string]*ast.ConvertType {
	ms := typedInsideRE.FindAllStringSubmatch(text, -1)
	if len(ms) == 0 {
		return nil
	}
	count := map[string]int{}
	kind := map[string]string{}
	for _, m := range ms {
		k := strings.ToUpper(m[1])
		if prev, ok := kind[m[2]]; ok && prev != k {
			kind[m[2]] = "" // both kinds
		} else if !ok {
			kind[m[2]] = k
		}
		count[m[2]]++
	}
	out := map[string]*ast.ConvertType{}
	for v, k := range kind {
		if k == "" || strings.Count(text, "'"+v+"'") != count[v] || strings.Contains(text, `"`+v+`"`) {
			continue
		}
		out[v] = literalType(k, v)
	}
	return out
}

// typedInside makes each string value of e that typed lists (a DATE or
// TIMESTAMP literal inside an expression) a CAST to its type, as
// typedLiteral does for a select expression that is one literal.
func typedInside(e ast.Expr, typed map[string]*ast.ConvertType) ast.Expr {
	var vals []*ast.SQLVal
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		if c, ok := n.(*ast.ConvertExpr); ok {
			// typedLiteral's CAST, or one written: a typed literal cast
			// to another type (CAST(DATE '2020-02-03' AS TIME)) is cast
			// from its own type first
			if v, ok := c.Expr.(*ast.SQLVal); ok && v.Type == ast.StrVal && c.Type != nil {
				if ct, ok := typed[string(v.Val)]; ok && !strings.EqualFold(ct.Type, c.Type.Type) {
					vals = append(vals, v)
				}
			}
			return false, nil
		}
		if v, ok := n.(*ast.SQLVal); ok && v.Type == ast.StrVal {
			if _, ok := typed[string(v.Val)]; ok {
				vals = append(vals, v)
			}
		}
		return true, nil
	}, e)
	for _, v := range vals {
		e = ast.ReplaceExpr(e, v, &ast.ConvertExpr{Name: "CAST", Expr: v, Type: typed[string(v.Val)]})
	}
	return e
}

// typedLiteral makes a select expression written as a DATE or TIMESTAMP
// literal a CAST of its string to that type (with as many fractional
// digits as the literal has); its column keeps its name.
func typedLiteral(se ast.SelectExpr) {
	ae, ok := se.(*ast.AliasedExpr)
	if !ok {
		return
	}
	v, ok := ae.Expr.(*ast.SQLVal)
	if !ok || v.Type != ast.StrVal {
		return
	}
	m := typedLiteralRE.FindStringSubmatch(ae.InputExpression)
	if m == nil || m[2] != string(v.Val) {
		return
	}
	ae.Expr = &ast.ConvertExpr{Name: "CAST", Expr: v, Type: literalType(strings.ToUpper(m[1]), m[2])}
}

// literalType is the type a DATE, TIMESTAMP or TIME literal (kind, in
// capitals) of text v has: a TIMESTAMP or TIME with as many fractional
// digits as v writes.
func literalType(kind, v string) *ast.ConvertType {
	ct := &ast.ConvertType{Type: "date"}
	switch kind {
	case "TIMESTAMP":
		ct.Type = "datetime"
	case "TIME":
		ct.Type = "time"
	default:
		return ct
	}
	if dot := strings.IndexByte(v, '.'); dot >= 0 {
		if n := len(strings.TrimSpace(v[dot+1:])); n > 0 && n <= 6 {
			ct.Length = ast.NewIntVal([]byte(strconv.Itoa(n)))
		}
	}
	return ct
}
