package sqlbackend

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/go-mysql-server/sql/plan"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// Views as MariaDB 10.11 describes them.
//
// go-mysql-server reads a view's DEFINER from its CREATE VIEW statement
// each time it is shown, and takes the account of the session reading it
// when the statement names none, so information_schema.VIEWS named the
// reader. A view is therefore stored with its creator named
// (withDefiner). SHOW CREATE VIEW (and SHOW CREATE TABLE of a view)
// prints MariaDB's head, CREATE ALGORITHM=... DEFINER=... SQL SECURITY
// ... VIEW, before the view's text, where go-mysql-server printed CREATE
// VIEW alone (showCreateView); the text is the SELECT in MariaDB's
// printed form (viewprint.go), with the database named in every table
// and column when the view is shown from another database or reads
// another database's tables, as MariaDB does; information_schema.VIEWS
// names it always.

// viewHead matches the words of a CREATE VIEW statement before DEFINER,
// and DEFINER when it is there.
var viewHead = regexp.MustCompile(`(?is)^(\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:ALGORITHM\s*=\s*\w+\s+)?)(DEFINER\b)?`)

// withDefiner returns a CREATE VIEW statement with DEFINER naming ctx's
// account when the statement names none.
func withDefiner(ctx *sql.Context, stmt string) string {
	m := viewHead.FindStringSubmatchIndex(stmt)
	if m == nil || m[4] >= 0 || ctx == nil || ctx.Session == nil {
		return stmt
	}
	c := ctx.Session.Client()
	return stmt[:m[3]] + "DEFINER=" + quotedAccount(c.User, c.Address) + " " + stmt[m[3]:]
}

// trailingWith is the WITH that go-mysql-server leaves at the end of a
// view's text of WITH CHECK OPTION.
var trailingWith = regexp.MustCompile(`(?i)\s+with\s*$`)

// withoutCheckWith is a view's text without the WITH that go-mysql-server
// leaves at its end of WITH CHECK OPTION.
func withoutCheckWith(text string) string {
	return strings.TrimRightFunc(trailingWith.ReplaceAllString(text, ""), unicode.IsSpace)
}

// quotedAccount is `user`@`host` with backticks doubled.
func quotedAccount(user, host string) string {
	q := func(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
	return q(user) + "@" + q(host)
}

// showCreateViewOf returns the node printing SHOW CREATE VIEW of n's view
// as MariaDB does, or nil when the view is not one of ours.
func showCreateViewOf(ctx *sql.Context, a *analyzer.Analyzer, n *plan.ShowCreateTable) sql.Node {
	sa, ok := n.Child.(*plan.SubqueryAlias)
	if !ok {
		return nil
	}
	db := ctx.GetCurrentDatabase()
	if st, err := ast.Parse(ctx.Query()); err == nil {
		if show, ok := st.(*ast.Show); ok && !show.Table.DbQualifier.IsEmpty() {
			db = show.Table.DbQualifier.String()
		}
	}
	sdb, err := a.Catalog.Database(ctx, db)
	if err != nil {
		return nil
	}
	if pd, ok := sdb.(mysql_db.PrivilegedDatabase); ok {
		sdb = pd.Unwrap()
	}
	d, ok := sdb.(*database)
	if !ok || !d.p.maria {
		return nil
	}
	vd, ok, err := d.GetViewDefinition(ctx, sa.Name())
	if err != nil || !ok {
		return nil
	}
	h, ok := viewHeadOf(ctx, vd)
	if !ok {
		return nil
	}
	name := quoteIdent(vd.Name)
	body := mariaViewText(ctx, a.Catalog, db, vd, !strings.EqualFold(db, ctx.GetCurrentDatabase()), false)
	if body == "" {
		body = h.text
	} else if !strings.EqualFold(db, ctx.GetCurrentDatabase()) {
		name = quoteIdent(db) + "." + name
	}
	text := fmt.Sprintf("CREATE ALGORITHM=%s DEFINER=%s SQL SECURITY %s VIEW %s AS %s",
		h.algorithm, quotedDefiner(h.definer), h.security, name, body)
	if h.check != "NONE" {
		text += " WITH " + h.check + " CHECK OPTION"
	}
	cs, coll := "utf8mb4", "utf8mb4_general_ci"
	if v, err := ctx.GetSessionVariable(ctx, "character_set_client"); err == nil {
		cs = fmt.Sprint(v)
	}
	if v, err := ctx.GetSessionVariable(ctx, "collation_connection"); err == nil {
		coll = fmt.Sprint(v)
	}
	return &showCreateView{showNode: showNode{n.Schema()}, row: sql.Row{vd.Name, text, cs, coll}}
}

// mariaViewText prints view vd of database db in MariaDB's form
// (viewprint.go), its tables and columns named with their database when
// qualify is set or when it reads another database's tables, as MariaDB
// stores it at creation when stored is set (information_schema.VIEWS)
// or as SHOW CREATE VIEW reads it back; "" when the printer does not
// know how to print it.
func mariaViewText(ctx *sql.Context, cat sql.Catalog, db string, vd sql.ViewDefinition, qualify, stored bool) string {
	st, err := ast.ParseWithOptions(ctx, vd.CreateViewStatement, sql.NewSqlModeFromString(vd.SqlMode).ParserOptions())
	if err != nil {
		return ""
	}
	ddl, ok := st.(*ast.DDL)
	if !ok || ddl.ViewSpec == nil {
		return ""
	}
	otherDB := false
	lookup := func(tdb, name string) (viewTable, bool) {
		if !strings.EqualFold(tdb, db) {
			otherDB = true
		}
		sdb, err := cat.Database(ctx, tdb)
		if err != nil {
			return viewTable{}, false
		}
		if pd, ok := sdb.(mysql_db.PrivilegedDatabase); ok {
			sdb = pd.Unwrap()
		}
		d, ok := sdb.(*database)
		if !ok {
			return viewTable{}, false
		}
		if t, ok, err := d.GetTableInsensitive(ctx, name); err == nil && ok {
			var cols []string
			for _, c := range t.Schema() {
				cols = append(cols, c.Name)
			}
			return viewTable{name: t.Name(), cols: cols}, true
		}
		if v, ok, err := d.GetViewDefinition(ctx, name); err == nil && ok {
			return viewTable{name: v.Name, def: v.CreateViewStatement}, true
		}
		return viewTable{}, false
	}
	charset := ""
	if v, err := ctx.GetSessionVariable(ctx, "character_set_connection"); err == nil {
		charset = fmt.Sprint(v)
	}
	p := viewPrinter{db: db, qualify: qualify, lookup: lookup, charset: charset, stored: stored}
	text, err := p.printView(ddl.ViewSpec.ViewExpr, ddl.ViewSpec.Columns)
	if err != nil {
		return ""
	}
	if otherDB && !qualify {
		p = viewPrinter{db: db, qualify: true, lookup: lookup, charset: charset, stored: stored}
		if text, err = p.printView(ddl.ViewSpec.ViewExpr, ddl.ViewSpec.Columns); err != nil {
			return ""
		}
	}
	return text
}

// viewHeadInfo is what a view's CREATE VIEW statement says besides its
// SELECT, as MariaDB shows it.
type viewHeadInfo struct {
	algorithm string // UNDEFINED, MERGE or TEMPTABLE
	definer   string // user@host, without quotes
	security  string // DEFINER or INVOKER
	check     string // NONE, CASCADED or LOCAL
	updatable bool
	text      string // the SELECT as written
}

// viewHeadOf reads a stored view's statement (parsed, not bound: binding
// a CREATE VIEW needs the privilege to create it). A view stored before
// views kept their definer has the session's account, as go-mysql-server
// gave it.
func viewHeadOf(ctx *sql.Context, vd sql.ViewDefinition) (viewHeadInfo, bool) {
	st, err := ast.ParseWithOptions(ctx, vd.CreateViewStatement, sql.NewSqlModeFromString(vd.SqlMode).ParserOptions())
	if err != nil {
		return viewHeadInfo{}, false
	}
	ddl, ok := st.(*ast.DDL)
	if !ok || ddl.ViewSpec == nil {
		return viewHeadInfo{}, false
	}
	spec := ddl.ViewSpec
	upper := func(s, def string) string {
		if s == "" {
			return def
		}
		return strings.ToUpper(s)
	}
	h := viewHeadInfo{algorithm: upper(spec.Algorithm, "UNDEFINED"), security: upper(spec.Security, "DEFINER"),
		check: upper(string(spec.CheckOption), "NONE"), definer: strings.ReplaceAll(spec.Definer, "`", ""), text: vd.TextDefinition}
	if h.definer == "" && ctx.Session != nil {
		c := ctx.Session.Client()
		h.definer = c.User + "@" + c.Address
	}
	if h.check != "NONE" {
		h.text = withoutCheckWith(h.text)
	}
	h.updatable = h.algorithm != "TEMPTABLE" && updatableSelect(spec.ViewExpr)
	return h, true
}

// updatableSelect reports whether a view's SELECT can be written
// through, as MariaDB judges it: one SELECT with a table, without
// DISTINCT, GROUP BY, HAVING, aggregates or window functions of its own
// (a subquery's do not count), with at least one item that is a plain
// column.
func updatableSelect(sel ast.SelectStatement) bool {
	s, ok := sel.(*ast.Select)
	if !ok || s.QueryOpts.Distinct || len(s.GroupBy) > 0 || s.Having != nil || len(s.From) == 0 {
		return false
	}
	if len(s.From) == 1 {
		if at, ok := s.From[0].(*ast.AliasedTableExpr); ok {
			if tn, ok := at.Expr.(ast.TableName); ok && strings.EqualFold(tn.Name.String(), "dual") {
				return false
			}
		}
	}
	updatable, column := true, false
	for _, se := range s.SelectExprs {
		switch e := se.(type) {
		case *ast.StarExpr:
			column = true
		case *ast.AliasedExpr:
			if _, ok := e.Expr.(*ast.ColName); ok {
				column = true
			}
		}
	}
	_ = ast.Walk(func(n ast.SQLNode) (bool, error) {
		switch n := n.(type) {
		case *ast.FuncExpr:
			if n.IsAggregate() || n.Over != nil {
				updatable = false
			}
		case *ast.GroupConcatExpr:
			updatable = false
		case *ast.Subquery:
			return false, nil
		}
		return updatable, nil
	}, s.SelectExprs)
	return updatable && column
}

// quotedDefiner is user@host as `user`@`host`.
func quotedDefiner(d string) string {
	i := strings.LastIndexByte(d, '@')
	if i < 0 {
		return quotedAccount(d, "%")
	}
	return quotedAccount(d[:i], d[i+1:])
}

// showCreateView is SHOW CREATE VIEW of one view: its row is made when
// the statement is planned.
type showCreateView struct {
	showNode
	row sql.Row
}

func (s *showCreateView) String() string { return fmt.Sprintf("SHOW CREATE VIEW %v", s.row[0]) }

// WithChildren accepts no children.
func (s *showCreateView) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), 0)
	}
	return s, nil
}

// RowIter returns the one row.
func (s *showCreateView) RowIter(ctx *sql.Context, _ sql.Row) (sql.RowIter, error) {
	return sql.RowsToRowIter(s.row), nil
}
