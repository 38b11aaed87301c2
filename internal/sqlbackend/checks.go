package sqlbackend

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/vt/sqlparser"
)

// CHECK constraints as MariaDB keeps and prints them.
//
// go-mysql-server hands CreateCheck a constraint's expression in its own
// words ((a < 5) AND (NOT((k = 3)))) and no sign of whether it was
// written on a column. With Provider.MariaDB, CreateCheck reads the
// running statement again (as declaredType does) and finds the
// constraint there: its expression is kept as MariaDB prints it (`a` < 5
// and `k` <> 3, which go-mysql-server parses back to the same expression),
// and a constraint written on a column is named after the column, printed
// on the column's line, and reported as `table.column` when it fails, as
// MariaDB does. Pure functions; safe for concurrent use.

// declaredCheck is one CHECK constraint of a CREATE TABLE statement.
type declaredCheck struct {
	name   string // as written ("" for none)
	column string // the column it was written on, or ""
	expr   sqlparser.Expr
	alter  bool   // from ALTER TABLE ... ADD: the one constraint it adds
	json   bool   // a JSON column's JSON_VALID (CREATE TABLE ... LIKE)
	text   string // the source's expression (CREATE TABLE ... LIKE)
	like   bool   // from the source of CREATE TABLE ... LIKE
}

// likeChecks are the CHECK constraints CREATE TABLE ... LIKE src copies,
// in go-mysql-server's order (src's GetChecks), as src declared them:
// go-mysql-server passes them unnamed (and a column's constraint with
// another's expression), and MariaDB keeps their names, expressions,
// columns and the JSON columns' checks.
func likeChecks(ctx *sql.Context, src sqlparser.TableName) []declaredCheck {
	s := SessionOf(ctx)
	if s == nil {
		return nil
	}
	db := src.DbQualifier.String()
	if db == "" {
		db = ctx.GetCurrentDatabase()
	}
	n, ok := s.p.dbName(db)
	if !ok {
		return nil
	}
	d := &database{p: s.p, name: n}
	t := s.temporary(d, src.Name.String())
	if t == nil {
		t = d.engineTable(src.Name.String())
	}
	if t == nil {
		return nil
	}
	m, err := s.p.tableMeta(t.ID)
	if err != nil {
		return nil
	}
	var out []declaredCheck
	for _, c := range jsonChecks(t, m) {
		_, col, _ := strings.Cut(c.Name, ".")
		out = append(out, declaredCheck{column: col, json: true, like: true})
	}
	for _, c := range m.Checks {
		dc := declaredCheck{name: c.Name, column: m.columnCheck(c.Name), text: c.CheckExpression, like: true}
		if dc.column != "" {
			dc.name = ""
		}
		out = append(out, dc)
	}
	return out
}

// declaredChecks returns the CHECK constraints of the running statement
// when it is a CREATE TABLE, in go-mysql-server's order (that of the
// statement's text), or nil.
func declaredChecks(ctx *sql.Context) []declaredCheck {
	st := declaredStatement(ctx)
	d, ok := st.(*sqlparser.DDL)
	if at, isAlter := st.(*sqlparser.AlterTable); isAlter {
		// ALTER TABLE ... ADD [CONSTRAINT x] CHECK (...): only one
		// constraint can be told apart from the table's others.
		var out []declaredCheck
		for _, sd := range at.Statements {
			if sd.ConstraintAction != sqlparser.AddStr || sd.TableSpec == nil {
				continue
			}
			for _, c := range sd.TableSpec.Constraints {
				if cc, ok := c.Details.(*sqlparser.CheckConstraintDefinition); ok {
					out = append(out, declaredCheck{name: c.Name, expr: cc.Expr, alter: true})
				}
			}
		}
		if len(out) == 1 {
			return out
		}
		return nil
	}
	if !ok || d.Action != sqlparser.CreateStr {
		return nil
	}
	if d.OptLike != nil && len(d.OptLike.LikeTables) == 1 {
		return likeChecks(ctx, d.OptLike.LikeTables[0])
	}
	if d.TableSpec == nil {
		return nil
	}
	onColumn := map[*sqlparser.ConstraintDefinition]string{}
	for _, c := range d.TableSpec.Columns {
		if c.Type.Constraint != nil {
			onColumn[c.Type.Constraint] = c.Name.String()
		}
	}
	var out []declaredCheck
	for _, c := range d.TableSpec.Constraints {
		if cc, ok := c.Details.(*sqlparser.CheckConstraintDefinition); ok {
			out = append(out, declaredCheck{name: c.Name, column: onColumn[c], expr: cc.Expr})
		}
	}
	return out
}

// mariaCheckText prints an expression as MariaDB prints a CHECK
// constraint's (the printer of views, viewprint.go, with columns named
// bare), or "" for an expression it does not know how to print (which
// then keeps go-mysql-server's words).
func mariaCheckText(e sqlparser.Expr) string {
	p := viewPrinter{bare: true}
	if err := p.expr(e, &viewScope{}, precLowest); err != nil {
		return ""
	}
	return p.b.String()
}
