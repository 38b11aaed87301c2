package sqlbackend

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Storing a value into a column as MariaDB does under the session's
// sql_mode. go-mysql-server converts an INSERT's or UPDATE's values to
// the column types itself, clamping, cutting or refusing without looking
// at sql_mode, and with its own errors; by the time a row reaches the
// editor a TINYINT has already become 127. ruleStoreValues therefore
// wraps every value an INSERT or UPDATE stores (the projection
// go-mysql-server builds over an INSERT's source, the right side of each
// SET of an UPDATE) in a storeValue, which converts the value to the
// column type first, with MariaDB's conditions:
//
//   - 1264 out of range (the value clamps), 1265 data truncated (a
//     number with trailing text, an invalid ENUM or SET value, a date
//     that is not one), 1366 a string that is no number, 1406 a string
//     too long, 1292 an invalid date, 1364 a NOT NULL column without
//     default left out, 1365 a division by zero;
//   - in strict mode (STRICT_TRANS_TABLES or STRICT_ALL_TABLES, without
//     IGNORE) each is the statement's error; otherwise a warning, and the
//     adjusted value is stored (as HandlerSocket stores it:
//     types.Convert);
//   - fractional digits or trailing spaces lost are a note in every mode.
//
// The value it returns is already of the column type, so go-mysql-server's
// own conversion after it changes nothing. Values of the types it does not
// check (BIT, TIME, YEAR, JSON, numbers into FLOAT/DOUBLE) pass unchanged.
//
// A rewritten plan serves one statement on one goroutine: the row counter
// the wrappers of a statement share is not safe for concurrent use, and
// starts again when a new query (ctx.Pid) evaluates it.

// StoreValuesRule returns the rule that wraps the values of INSERT and
// UPDATE in storeValue. The short analysis of a single-table UPDATE skips
// the rules that replace expressions: replace is applied to an UPDATE's
// values first (nil: none).
func StoreValuesRule(replace transform.ExprFunc) analyzer.RuleFunc {
	return func(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
		return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
			switch n := n.(type) {
			case *plan.InsertInto:
				return storeInsert(n)
			case *plan.Update:
				return storeUpdate(n, replace)
			}
			return n, transform.SameTree, nil
		})
	}
}

// ourTable returns the HandlerDB table a node reads or writes, or nil.
func ourTable(n sql.Node) *table {
	var t *table
	transform.Inspect(n, func(n sql.Node) bool {
		if t != nil {
			return false
		}
		switch x := n.(type) {
		case *plan.ResolvedTable:
			t = unwrapTable(x.Table)
			return false
		case *plan.IndexedTableAccess:
			if x.TableNode != nil {
				t = unwrapTable(x.TableNode.UnderlyingTable())
			}
			return false
		}
		return true
	})
	return t
}

// unwrapTable returns our table under go-mysql-server's table wrappers.
func unwrapTable(st sql.Table) *table {
	for st != nil {
		switch x := st.(type) {
		case *table:
			return x
		case *indexedTable:
			return x.table
		case sql.TableWrapper:
			st = x.Underlying()
		default:
			return nil
		}
	}
	return nil
}

// storeInsert wraps the projection go-mysql-server put over an INSERT's
// source (one expression per column of the table, in order).
func storeInsert(ins *plan.InsertInto) (sql.Node, transform.TreeIdentity, error) {
	proj, ok := ins.Source.(*plan.Project)
	trig, hasTrigger := ins.Source.(*plan.TriggerExecutor)
	if hasTrigger {
		// A BEFORE INSERT trigger sees the row as stored: wrap what
		// it runs over.
		proj, ok = trig.Left().(*plan.Project)
	}
	if !ok {
		return ins, transform.SameTree, nil
	}
	t := ourTable(ins.Destination)
	if t == nil || len(proj.Projections) != len(t.t.Columns) {
		return ins, transform.SameTree, nil
	}
	for _, e := range proj.Projections {
		if _, done := e.(*storeValue); done {
			return ins, transform.SameTree, nil
		}
	}
	rows := &storeRows{}
	exprs := make([]sql.Expression, len(proj.Projections))
	deferred := ins.DeferredDefaults.Copy()
	multi := true
	if vals, ok := proj.Child.(*plan.Values); ok && len(vals.ExpressionTuples) == 1 {
		multi = false
	}
	for i, e := range proj.Projections {
		sv := &storeValue{rows: rows, t: t, col: i, ignore: ins.Ignore, first: i == 0, nullDefault: multi}
		if deferred.Contains(i) {
			// NOT NULL, no default, not given: 1364 (strict: the error
			// go-mysql-server raises; otherwise the implicit default).
			sv.noDefault = true
		}
		if ai, ok := e.(*expression.AutoIncrement); ok {
			// LAST_INSERT_ID needs the AutoIncrement itself in place:
			// wrap what it wraps.
			sv.child = ai.Child
			ne, err := ai.WithChildren(sv)
			if err != nil {
				return nil, transform.SameTree, err
			}
			exprs[i] = ne
			continue
		}
		sv.child = e
		exprs[i] = sv
	}
	np, err := proj.WithExpressions(exprs...)
	if err != nil {
		return nil, transform.SameTree, err
	}
	if vals, ok := proj.Child.(*plan.Values); ok {
		if nv := hexNumbers(vals, proj.Projections, t); nv != nil {
			if np, err = np.WithChildren(nv); err != nil {
				return nil, transform.SameTree, err
			}
		}
	}
	src := np
	if hasTrigger {
		if src, err = trig.WithChildren(np, trig.Right()); err != nil {
			return nil, transform.SameTree, err
		}
	}
	out := ins.WithSource(src).WithDeferredDefaults(deferred)
	if len(ins.OnDupExprs) > 0 {
		// ON DUPLICATE KEY UPDATE stores as UPDATE does (the row number
		// is the inserted row's).
		dup := make([]sql.Expression, len(ins.OnDupExprs))
		for i, e := range ins.OnDupExprs {
			dup[i] = e
			sf, ok := e.(*expression.SetField)
			if !ok {
				continue
			}
			gf, ok := sf.LeftChild.(*expression.GetField)
			if !ok {
				continue
			}
			col := columnIndex(t, gf.Name())
			if col < 0 {
				continue
			}
			sv := &storeValue{child: sf.RightChild, rows: rows, t: t, col: col, ignore: ins.Ignore, nullDefault: true}
			ne, err := sf.WithChildren(sf.LeftChild, sv)
			if err != nil {
				return nil, transform.SameTree, err
			}
			dup[i] = ne
		}
		out.OnDupExprs = dup
	}
	return out, transform.NewTree, nil
}

// columnIndex returns the index of t's column name, or -1.
func columnIndex(t *table, name string) int {
	for c := range t.t.Columns {
		if strings.EqualFold(t.t.Columns[c].Name, name) {
			return c
		}
	}
	return -1
}

// hexNumbers returns vals with the hexadecimal literals that go into
// numeric columns of t made numbers (MySQL reads 0x7F as 127 there), or
// nil when there are none. proj maps the columns to the tuples' items.
func hexNumbers(vals *plan.Values, proj []sql.Expression, t *table) *plan.Values {
	var tuples [][]sql.Expression
	for c, e := range proj {
		gf, ok := e.(*expression.GetField)
		if !ok || !isNumberKind(&t.t.Columns[c].Type) {
			continue
		}
		j := gf.Index()
		for r, tuple := range vals.ExpressionTuples {
			if j >= len(tuple) || !hexLiteral(tuple[j]) {
				continue
			}
			lit, ok := tuple[j].(*expression.Literal)
			if !ok {
				continue
			}
			b := lit.Value().([]byte)
			if len(b) > 8 {
				continue
			}
			var u uint64
			for _, x := range b {
				u = u<<8 | uint64(x)
			}
			if tuples == nil {
				tuples = make([][]sql.Expression, len(vals.ExpressionTuples))
				for i := range tuples {
					tuples[i] = append([]sql.Expression(nil), vals.ExpressionTuples[i]...)
				}
			}
			tuples[r][j] = expression.NewLiteral(u, gtypes.Uint64)
		}
	}
	if tuples == nil {
		return nil
	}
	nv := *vals
	nv.ExpressionTuples = tuples
	return &nv
}

// storeUpdate wraps the right side of every SET of an UPDATE.
func storeUpdate(u *plan.Update, replace transform.ExprFunc) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(u, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		us, ok := n.(*plan.UpdateSource)
		if !ok {
			return n, transform.SameTree, nil
		}
		tables := map[string]*table{}
		var only *table
		count := 0
		transform.Inspect(us.Child, func(n sql.Node) bool {
			switch x := n.(type) {
			case *plan.TableAlias:
				if t := ourTable(x); t != nil {
					tables[strings.ToLower(x.Name())] = t
				}
			case *plan.ResolvedTable, *plan.IndexedTableAccess:
				if t := ourTable(x); t != nil {
					tables[strings.ToLower(t.t.Name)] = t
					only = t
					count++
				}
			}
			return true
		})
		rows := &storeRows{}
		exprs := make([]sql.Expression, len(us.UpdateExprs))
		changed := false
		for i, e := range us.UpdateExprs {
			exprs[i] = e
			sf, ok := e.(*expression.SetField)
			if !ok {
				continue
			}
			if _, done := sf.RightChild.(*storeValue); done {
				return n, transform.SameTree, nil
			}
			gf, ok := sf.LeftChild.(*expression.GetField)
			if !ok {
				continue
			}
			t := tables[strings.ToLower(gf.Table())]
			if t == nil && count == 1 {
				t = only
			}
			if t == nil {
				continue
			}
			col := columnIndex(t, gf.Name())
			if col < 0 {
				continue
			}
			rc := sf.RightChild
			if replace != nil {
				var err error
				if rc, _, err = transform.Expr(rc, replace); err != nil {
					return nil, transform.SameTree, err
				}
			}
			sv := &storeValue{child: rc, rows: rows, t: t, col: col, ignore: us.Ignore, first: !changed, nullDefault: true}
			ne, err := sf.WithChildren(sf.LeftChild, sv)
			if err != nil {
				return nil, transform.SameTree, err
			}
			exprs[i] = ne
			changed = true
		}
		if !changed {
			return n, transform.SameTree, nil
		}
		nn, err := us.WithExpressions(exprs...)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return nn, transform.NewTree, nil
	})
}

// storeRows counts the rows of one statement for the "at row N" of its
// conditions, and keeps the statement's sql_mode.
type storeRows struct {
	pid             uint64
	n               int
	mode            storeMode
	noDefaultWarned bool
}

// storeValue converts the value of child for column col of t as MariaDB
// stores it (see the comment at the top of the file).
type storeValue struct {
	child     sql.Expression
	rows      *storeRows
	t         *table
	col       int
	ignore    bool // INSERT IGNORE / UPDATE IGNORE: never strict
	first     bool // the first wrapper evaluated for each row counts it
	noDefault bool // a NOT NULL column without default, left out
	// nullDefault: a NULL is stored as the implicit default when not
	// strict (UPDATE, INSERT of several rows or from a SELECT).
	nullDefault bool
}

var _ sql.Expression = (*storeValue)(nil)

// Resolved reports whether the child is.
func (s *storeValue) Resolved() bool { return s.child == nil || s.child.Resolved() }

// String prints the child.
func (s *storeValue) String() string {
	if s.child == nil {
		return "NULL"
	}
	return s.child.String()
}

// Type is the column's type.
func (s *storeValue) Type() sql.Type { return SQLType(&s.t.t.Columns[s.col].Type) }

// IsNullable reports whether the child can be NULL.
func (s *storeValue) IsNullable() bool { return s.child == nil || s.child.IsNullable() }

// Children is the wrapped expression.
func (s *storeValue) Children() []sql.Expression {
	if s.child == nil {
		return nil
	}
	return []sql.Expression{s.child}
}

// WithChildren keeps the wrapper.
func (s *storeValue) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != len(s.Children()) {
		return nil, sql.ErrInvalidChildrenNumber.New(s, len(children), len(s.Children()))
	}
	c := *s
	if len(children) == 1 {
		c.child = children[0]
	}
	return &c, nil
}

// Eval evaluates the child and stores its value into the column.
func (s *storeValue) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	if pid := ctx.Pid(); s.rows.pid != pid || s.rows.n == 0 {
		s.rows.pid, s.rows.n, s.rows.noDefaultWarned = pid, 0, false
		s.rows.mode = sessionMode(ctx)
	}
	if s.first {
		s.rows.n++
	}
	mode := s.rows.mode
	strict := mode.strict && !s.ignore
	var v interface{}
	if s.child != nil {
		var err error
		if v, err = s.child.Eval(ctx, row); err != nil {
			return nil, err
		}
	}
	if v == nil && divisionByZero(ctx) {
		switch {
		case !mode.divZeroError:
			// Stored as NULL silently (go-mysql-server warned).
			dropWarnings(ctx, errtable.ERDivisionByZero)
		case strict:
			// The statement's error replaces the division's warning.
			dropWarnings(ctx, errtable.ERDivisionByZero)
			return nil, errtable.SQLError(errtable.ERDivisionByZero)
		}
	}
	c := &s.t.t.Columns[s.col]
	if v == nil && s.nullDefault && !strict && !c.Nullable && !c.AutoIncrement && !s.noDefault {
		// NULL into NOT NULL, not strict, in an UPDATE or a multi-row
		// INSERT: the implicit default, with 1048 as a warning (a
		// single-row INSERT fails with 1048, as go-mysql-server does).
		s.warn(ctx, "Warning", errtable.SQLError(mysql.ERBadNullError, c.Name))
		return ValueToSQL(&c.Type, types.ImplicitDefault(&c.Type)), nil
	}
	if v == nil {
		if s.noDefault && !strict {
			if !s.rows.noDefaultWarned {
				// once per statement, as MariaDB (the message has no row)
				s.rows.noDefaultWarned = true
				s.warn(ctx, "Warning", errtable.SQLError(mysql.ERNoDefaultForField, c.Name))
			}
			return ValueToSQL(&c.Type, types.ImplicitDefault(&c.Type)), nil
		}
		return nil, nil
	}
	if w, ok := v.(sql.AnyWrapper); ok {
		u, err := w.UnwrapAny(ctx)
		if err != nil {
			return nil, err
		}
		v = u
	}
	m := mode
	m.strict = strict
	if hexLiteral(s.child) && isNumberKind(&c.Type) {
		// 0x... is a number in a numeric column.
		if b, ok := v.([]byte); ok && len(b) <= 8 {
			var u uint64
			for _, x := range b {
				u = u<<8 | uint64(x)
			}
			v = u
		}
	}
	out, cond := storeConvert(ctx, &c.Type, v, m)
	if cond.code == 0 {
		return out, nil
	}
	if cond.code == mysql.ERDataTooLong && !strict {
		cond.code = mysql.ERWarnDataTruncated // the warning of a value cut
	}
	e := s.condError(cond, v)
	switch {
	case cond.note:
		s.warn(ctx, "Note", e)
	case strict || cond.always:
		return nil, e
	default:
		s.warn(ctx, "Warning", e)
	}
	return out, nil
}

// hexLiteral reports whether e is a hexadecimal or bit literal (a binary
// string value the parser made).
func hexLiteral(e sql.Expression) bool {
	for {
		switch x := e.(type) {
		case *expression.Literal:
			_, ok := x.Value().([]byte)
			return ok
		case *expression.Wrapper:
			e = x.Unwrap()
		case *storeValue:
			e = x.child
		default:
			return false
		}
	}
}

// isNumberKind reports whether t is a numeric column type.
func isNumberKind(t *types.Type) bool {
	return t.IsInteger() || t.Kind == types.Decimal || t.Kind == types.Float || t.Kind == types.Double
}

// divisionByZero reports whether the statement has divided by zero: a
// NULL it stores then comes from the division (go-mysql-server evaluates
// a constant division while planning, so the warning may come first).
func divisionByZero(ctx *sql.Context) bool {
	if ctx.Session == nil || ctx.Session.WarningCount() == 0 {
		return false
	}
	for _, w := range ctx.Session.Warnings() {
		if w.Code == errtable.ERDivisionByZero {
			return true
		}
	}
	return false
}

// dropWarnings removes the session's warnings with the given code.
func dropWarnings(ctx *sql.Context, code int) {
	if ctx.Session == nil {
		return
	}
	w := ctx.Session.Warnings()
	if _, ours := ctx.Session.(*Session); !ours {
		for i, j := 0, len(w)-1; i < j; i, j = i+1, j-1 {
			w[i], w[j] = w[j], w[i]
		}
	}
	ctx.Session.ClearWarnings()
	for _, x := range w {
		if x.Code != code {
			ctx.Session.Warn(x)
		}
	}
}

// condError is the MySQL error of a condition met storing v.
func (s *storeValue) condError(c storeCond, v interface{}) error {
	col := &s.t.t.Columns[s.col]
	row := s.rows.n
	switch c.code {
	case mysql.ERTruncatedWrongValueForField, mysql.ERTruncatedWrongValue:
		text := c.text
		if text == "" {
			text = valueText(v)
		}
		return errtable.SQLError(c.code, c.word, text, s.t.t.DB, s.t.t.Name, col.Name, row)
	case mysql.ErrCantCreateGeometryObject:
		return errtable.SQLError(c.code)
	}
	return errtable.SQLError(c.code, col.Name, row)
}

// warn adds a condition of the statement as a warning or note.
func (s *storeValue) warn(ctx *sql.Context, level string, err error) {
	if ctx.Session == nil {
		return
	}
	se := sql.CastSQLError(err)
	ctx.Session.Warn(&sql.Warning{Level: level, Code: se.Num, Message: se.Message})
}
