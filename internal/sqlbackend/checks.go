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
// constraint's, or "" for an expression it does not know how to print
// (which then keeps go-mysql-server's words).
func mariaCheckText(e sqlparser.Expr) string {
	var p checkPrinter
	p.expr(simplify(e), 0)
	if p.failed {
		return ""
	}
	return p.b.String()
}

// Precedences, as MariaDB's printer parenthesizes by them.
const (
	precOr = iota + 1
	precXor
	precAnd
	precNot
	precCompare
	precBitOr
	precBitAnd
	precShift
	precAdd
	precMul
	precBitXor
	precUnary
)

type checkPrinter struct {
	b      strings.Builder
	failed bool
}

// expr prints e inside an operator of precedence outer (parentheses when
// e binds less tightly).
func (p *checkPrinter) expr(e sqlparser.Expr, outer int) {
	if p.failed {
		return
	}
	open := func(prec int) func() {
		if prec < outer {
			p.b.WriteByte('(')
			return func() { p.b.WriteByte(')') }
		}
		return func() {}
	}
	switch e := e.(type) {
	case *sqlparser.ParenExpr:
		p.expr(e.Expr, outer)
	case *sqlparser.OrExpr:
		defer open(precOr)()
		p.expr(e.Left, precOr)
		p.b.WriteString(" or ")
		p.expr(e.Right, precOr+1)
	case *sqlparser.XorExpr:
		defer open(precXor)()
		p.expr(e.Left, precXor)
		p.b.WriteString(" xor ")
		p.expr(e.Right, precXor+1)
	case *sqlparser.AndExpr:
		defer open(precAnd)()
		p.expr(e.Left, precAnd)
		p.b.WriteString(" and ")
		p.expr(e.Right, precAnd+1)
	case *sqlparser.NotExpr: // one simplify could not push down
		p.b.WriteString("!")
		p.expr(e.Expr, precUnary)
	case *sqlparser.ComparisonExpr:
		op := e.Operator
		switch op {
		case sqlparser.NotEqualStr:
			op = "<>"
		case sqlparser.EqualStr, sqlparser.LessThanStr, sqlparser.GreaterThanStr, sqlparser.LessEqualStr,
			sqlparser.GreaterEqualStr, sqlparser.NullSafeEqualStr, sqlparser.InStr, sqlparser.NotInStr,
			sqlparser.LikeStr, sqlparser.NotLikeStr:
		default:
			p.failed = true
			return
		}
		if e.Escape != nil {
			p.failed = true
			return
		}
		defer open(precCompare)()
		p.expr(e.Left, precCompare+1)
		p.b.WriteString(" " + op + " ")
		p.expr(e.Right, precCompare+1)
	case *sqlparser.IsExpr:
		defer open(precCompare)()
		p.expr(e.Expr, precCompare+1)
		p.b.WriteString(" " + e.Operator)
	case *sqlparser.RangeCond:
		defer open(precCompare)()
		p.expr(e.Left, precCompare+1)
		p.b.WriteString(" " + e.Operator + " ")
		p.expr(e.From, precCompare+1)
		p.b.WriteString(" and ")
		p.expr(e.To, precCompare+1)
	case *sqlparser.BinaryExpr:
		prec := map[string]int{
			sqlparser.BitOrStr: precBitOr, sqlparser.BitAndStr: precBitAnd, sqlparser.ShiftLeftStr: precShift,
			sqlparser.ShiftRightStr: precShift, sqlparser.PlusStr: precAdd, sqlparser.MinusStr: precAdd,
			sqlparser.MultStr: precMul, sqlparser.DivStr: precMul, sqlparser.IntDivStr: precMul,
			sqlparser.ModStr: precMul, sqlparser.BitXorStr: precBitXor,
		}[e.Operator]
		if prec == 0 {
			p.failed = true
			return
		}
		defer open(prec)()
		p.expr(e.Left, prec)
		p.b.WriteString(" " + e.Operator + " ")
		p.expr(e.Right, prec+1)
	case *sqlparser.UnaryExpr:
		if e.Operator != sqlparser.UMinusStr {
			p.failed = true
			return
		}
		defer open(precUnary)()
		p.b.WriteString("-")
		p.expr(e.Expr, precUnary)
	case *sqlparser.ColName:
		if !e.Qualifier.IsEmpty() {
			p.failed = true
			return
		}
		p.b.WriteString(quoteIdent(e.Name.String()))
	case *sqlparser.SQLVal:
		switch e.Type {
		case sqlparser.IntVal, sqlparser.FloatVal:
			p.b.Write(e.Val)
		case sqlparser.StrVal:
			p.b.WriteString(quoteString(string(e.Val)))
		default:
			p.failed = true
		}
	case *sqlparser.NullVal:
		p.b.WriteString("NULL")
	case sqlparser.BoolVal:
		if e {
			p.b.WriteString("1")
		} else {
			p.b.WriteString("0")
		}
	case sqlparser.ValTuple:
		p.b.WriteByte('(')
		for i, x := range e {
			if i > 0 {
				p.b.WriteByte(',')
			}
			p.expr(x, 0)
		}
		p.b.WriteByte(')')
	case *sqlparser.FuncExpr:
		if !e.Qualifier.IsEmpty() || e.Distinct || e.Over != nil {
			p.failed = true
			return
		}
		name := strings.ToLower(e.Name.String())
		if alias, ok := funcAliases[name]; ok {
			name = alias
		}
		p.b.WriteString(name + "(")
		for i, se := range e.Exprs {
			ae, ok := se.(*sqlparser.AliasedExpr)
			if !ok {
				p.failed = true
				return
			}
			if i > 0 {
				p.b.WriteByte(',')
			}
			p.expr(ae.Expr, 0)
		}
		p.b.WriteByte(')')
	default:
		p.failed = true
	}
}

// funcAliases are the functions MariaDB prints under another name.
var funcAliases = map[string]string{"upper": "ucase", "lower": "lcase", "length": "octet_length", "substring": "substr"}

// simplify rewrites e as MariaDB does before printing it: NOT is pushed
// down (NOT a = 1 is a <> 1, NOT (x AND y) is NOT x OR NOT y, NOT a is
// a = 0), and IN or NOT IN one value is = or <>.
func simplify(e sqlparser.Expr) sqlparser.Expr {
	switch e := e.(type) {
	case *sqlparser.ParenExpr:
		return simplify(e.Expr)
	case *sqlparser.NotExpr:
		return negate(e.Expr)
	case *sqlparser.AndExpr:
		return &sqlparser.AndExpr{Left: simplify(e.Left), Right: simplify(e.Right)}
	case *sqlparser.OrExpr:
		return &sqlparser.OrExpr{Left: simplify(e.Left), Right: simplify(e.Right)}
	case *sqlparser.ComparisonExpr:
		if t, ok := e.Right.(sqlparser.ValTuple); ok && len(t) == 1 && (e.Operator == sqlparser.InStr || e.Operator == sqlparser.NotInStr) {
			op := sqlparser.EqualStr
			if e.Operator == sqlparser.NotInStr {
				op = sqlparser.NotEqualStr
			}
			return &sqlparser.ComparisonExpr{Operator: op, Left: e.Left, Right: t[0]}
		}
	}
	return e
}

// negate is simplify(NOT e).
func negate(e sqlparser.Expr) sqlparser.Expr {
	inverse := map[string]string{
		sqlparser.EqualStr: sqlparser.NotEqualStr, sqlparser.NotEqualStr: sqlparser.EqualStr,
		sqlparser.LessThanStr: sqlparser.GreaterEqualStr, sqlparser.GreaterEqualStr: sqlparser.LessThanStr,
		sqlparser.GreaterThanStr: sqlparser.LessEqualStr, sqlparser.LessEqualStr: sqlparser.GreaterThanStr,
		sqlparser.InStr: sqlparser.NotInStr, sqlparser.NotInStr: sqlparser.InStr,
		sqlparser.LikeStr: sqlparser.NotLikeStr, sqlparser.NotLikeStr: sqlparser.LikeStr,
	}
	switch e := e.(type) {
	case *sqlparser.ParenExpr:
		return negate(e.Expr)
	case *sqlparser.NotExpr:
		return simplify(e.Expr)
	case *sqlparser.AndExpr:
		return &sqlparser.OrExpr{Left: negate(e.Left), Right: negate(e.Right)}
	case *sqlparser.OrExpr:
		return &sqlparser.AndExpr{Left: negate(e.Left), Right: negate(e.Right)}
	case *sqlparser.ComparisonExpr:
		if op, ok := inverse[e.Operator]; ok && e.Escape == nil {
			return simplify(&sqlparser.ComparisonExpr{Operator: op, Left: e.Left, Right: e.Right})
		}
	case *sqlparser.IsExpr:
		inv := map[string]string{sqlparser.IsNullStr: sqlparser.IsNotNullStr, sqlparser.IsNotNullStr: sqlparser.IsNullStr}
		if op, ok := inv[e.Operator]; ok {
			return &sqlparser.IsExpr{Operator: op, Expr: e.Expr}
		}
	case *sqlparser.RangeCond:
		inv := map[string]string{sqlparser.BetweenStr: sqlparser.NotBetweenStr, sqlparser.NotBetweenStr: sqlparser.BetweenStr}
		if op, ok := inv[e.Operator]; ok {
			return &sqlparser.RangeCond{Operator: op, Left: e.Left, From: e.From, To: e.To}
		}
	case *sqlparser.ColName, *sqlparser.FuncExpr:
		return &sqlparser.ComparisonExpr{Operator: sqlparser.EqualStr, Left: e, Right: sqlparser.NewIntVal([]byte("0"))}
	}
	return &sqlparser.NotExpr{Expr: e}
}
