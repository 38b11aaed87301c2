package sqlbackend

import (
	"fmt"
	"math"
	"math/big"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"

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

// ruleStoreValues names storeValuesRule.
const ruleStoreValues analyzer.RuleId = 10006

// storeValuesRule wraps the values of INSERT and UPDATE in storeValue.
func storeValuesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		switch n := n.(type) {
		case *plan.InsertInto:
			return storeInsert(n)
		case *plan.Update:
			return storeUpdate(n)
		}
		return n, transform.SameTree, nil
	})
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
func storeUpdate(u *plan.Update) (sql.Node, transform.TreeIdentity, error) {
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
			// The short analysis of a single-table UPDATE skips
			// valuesRule: apply its replacements here.
			rc, _, err := transform.Expr(sf.RightChild, replaceValueExpr)
			if err != nil {
				return nil, transform.SameTree, err
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
			dropWarnings(ctx, erDivisionByZero)
		case strict:
			// The statement's error replaces the division's warning.
			dropWarnings(ctx, erDivisionByZero)
			return nil, errtable.SQLError(erDivisionByZero)
		}
	}
	c := &s.t.t.Columns[s.col]
	if v == nil && s.nullDefault && !strict && !c.Nullable && !c.AutoIncrement && !s.noDefault {
		// NULL into NOT NULL, not strict, in an UPDATE or a multi-row
		// INSERT: the implicit default, with 1048 as a warning (a
		// single-row INSERT fails with 1048, as go-mysql-server does).
		s.warn(ctx, "Warning", errtable.SQLError(erBadNull, c.Name))
		return ValueToSQL(&c.Type, types.ImplicitDefault(&c.Type)), nil
	}
	if v == nil {
		if s.noDefault && !strict {
			if !s.rows.noDefaultWarned {
				// once per statement, as MariaDB (the message has no row)
				s.rows.noDefaultWarned = true
				s.warn(ctx, "Warning", errtable.SQLError(erNoDefault, c.Name))
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
	if cond.code == erDataTooLong && !strict {
		cond.code = erDataTruncated // the warning of a value cut
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
		if w.Code == erDivisionByZero {
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
	case erTruncatedWrongValueForField, erTruncatedWrongValue:
		text := c.text
		if text == "" {
			text = valueText(v)
		}
		return errtable.SQLError(c.code, c.word, text, s.t.t.DB, s.t.t.Name, col.Name, row)
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

// MySQL numbers of the conditions of storing a value.
const (
	erOutOfRange                  = 1264 // ER_WARN_DATA_OUT_OF_RANGE
	erDataTruncated               = 1265 // WARN_DATA_TRUNCATED
	erTruncatedWrongValue         = 1292 // ER_TRUNCATED_WRONG_VALUE
	erBadNull                     = 1048 // ER_BAD_NULL_ERROR
	erNoDefault                   = 1364 // ER_NO_DEFAULT_FOR_FIELD
	erDivisionByZero              = 1365 // ER_DIVISION_BY_ZERO
	erTruncatedWrongValueForField = 1366 // ER_TRUNCATED_WRONG_VALUE_FOR_FIELD
	erDataTooLong                 = 1406 // ER_DATA_TOO_LONG
)

// storeCond is a condition met storing a value: its error number (0 for
// none), the type word of 1366/1292, and whether it is only a note.
type storeCond struct {
	code   int
	word   string
	text   string // the value as the message quotes it, when not all of it
	note   bool
	always bool // an error in every mode
}

// valueText is a value as 1366 and 1292 quote it.
func valueText(v interface{}) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	b := convertText(&types.Type{Kind: types.Blob, Length: math.MaxUint32}, v, true)
	return string(b.B)
}

// storeConvert converts v to column type t as MariaDB stores it, and
// reports the condition met (code 0 for none).
func storeConvert(ctx *sql.Context, t *types.Type, v interface{}, mode storeMode) (interface{}, storeCond) {
	if isJSON(t) {
		return v, storeCond{}
	}
	switch {
	case t.IsInteger():
		return storeInt(t, v)
	case t.Kind == types.Decimal:
		return storeDecimal(t, v)
	case t.Kind == types.Float || t.Kind == types.Double:
		if s, ok := bytesOf(v); ok {
			n := scanNumber(s)
			out := ValueToSQL(t, types.Convert(t, s, nil))
			return out, n.textCond("double")
		}
	case t.Kind == types.Enum:
		return storeEnum(t, v)
	case t.Kind == types.Set:
		return storeSet(t, v)
	case t.IsString() || t.Kind == types.Binary || t.Kind == types.VarBinary || t.Kind == types.Blob:
		return storeString(t, v)
	case t.Kind == types.Date || t.Kind == types.DateTime || t.Kind == types.Timestamp:
		return storeDate(ctx, t, v, mode)
	}
	return v, storeCond{}
}

// numText is what scanNumber found in a string.
type numText struct {
	num      string // the number's text (sign, digits, point, exponent), "" for none
	trailing bool   // text other than spaces follows the number
	spaces   bool   // only spaces follow the number
}

// scanNumber reads the number a string starts with, as MySQL does when it
// stores a string into a numeric column: leading spaces, a sign, digits
// with an optional point, an optional exponent.
func scanNumber(s []byte) numText {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
		digits++
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			digits++
		}
	}
	if digits == 0 {
		return numText{trailing: true}
	}
	end := i
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if j < len(s) && s[j] >= '0' && s[j] <= '9' {
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			end = j
		}
	}
	n := numText{num: string(s[start:end])}
	for _, c := range s[end:] {
		if !isSpace(c) {
			n.trailing = true
			break
		}
	}
	n.spaces = !n.trailing && end < len(s)
	return n
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// textCond is the condition of a string that held n: 1366 when it holds
// no number, 1265 when text follows the number.
func (n numText) textCond(word string) storeCond {
	switch {
	case n.num == "":
		return storeCond{code: erTruncatedWrongValueForField, word: word}
	case n.trailing:
		return storeCond{code: erDataTruncated}
	}
	return storeCond{}
}

// toDecimal returns a numeric value as a decimal; ok is false for values
// that are not numbers.
func toDecimal(v interface{}) (decimal.Decimal, bool) {
	switch x := v.(type) {
	case int8:
		return decimal.NewFromInt(int64(x)), true
	case int16:
		return decimal.NewFromInt(int64(x)), true
	case int32:
		return decimal.NewFromInt(int64(x)), true
	case int64:
		return decimal.NewFromInt(x), true
	case int:
		return decimal.NewFromInt(int64(x)), true
	case uint8:
		return decimal.NewFromInt(int64(x)), true
	case uint16:
		return decimal.NewFromInt(int64(x)), true
	case uint32:
		return decimal.NewFromInt(int64(x)), true
	case uint64:
		return decimalFromUint(x), true
	case uint:
		return decimalFromUint(uint64(x)), true
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return decimal.Decimal{}, false
		}
		return decimal.NewFromFloat32(x), true
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return decimal.Decimal{}, false
		}
		return decimal.NewFromFloat(x), true
	case decimal.Decimal:
		return x, true
	case bool:
		if x {
			return decimal.NewFromInt(1), true
		}
		return decimal.Zero, true
	}
	return decimal.Decimal{}, false
}

// decimalFromUint returns u as a decimal.
func decimalFromUint(u uint64) decimal.Decimal {
	return decimal.NewFromBigInt(new(big.Int).SetUint64(u), 0)
}

// intLimits are the limits of an integer column type.
func intLimits(t *types.Type) (lo, hi decimal.Decimal) {
	bits := map[types.Kind]int{types.TinyInt: 8, types.SmallInt: 16, types.MediumInt: 24, types.Int: 32, types.BigInt: 64}[t.Kind]
	one := decimal.NewFromInt(1)
	p := decimal.NewFromInt(2).Pow(decimal.NewFromInt(int64(bits)))
	if t.Unsigned {
		return decimal.Zero, p.Sub(one)
	}
	half := p.Div(decimal.NewFromInt(2))
	return half.Neg(), half.Sub(one)
}

// intValue returns the go-mysql-server value of integer d (in range) in
// column type t.
func intValue(t *types.Type, d decimal.Decimal) interface{} {
	var v types.Value
	if t.Unsigned {
		v.I = int64(d.BigInt().Uint64())
	} else {
		v.I = d.IntPart()
	}
	return ValueToSQL(t, v)
}

// storeInt stores v into an integer column.
func storeInt(t *types.Type, v interface{}) (interface{}, storeCond) {
	var cond storeCond
	d, ok := toDecimal(v)
	if !ok {
		s, isText := bytesOf(v)
		if !isText {
			return v, storeCond{}
		}
		n := scanNumber(s)
		cond = n.textCond("integer")
		if n.num == "" {
			return intValue(t, decimal.Zero), cond
		}
		var err error
		if d, err = decimal.NewFromString(n.num); err != nil {
			return ValueToSQL(t, types.Convert(t, s, nil)), cond
		}
		if cond.code == 0 && n.spaces {
			cond = storeCond{code: erDataTruncated, note: true}
		}
	}
	d = d.Round(0)
	lo, hi := intLimits(t)
	switch {
	case d.LessThan(lo):
		return intValue(t, lo), storeCond{code: erOutOfRange}
	case d.GreaterThan(hi):
		return intValue(t, hi), storeCond{code: erOutOfRange}
	}
	return intValue(t, d), cond
}

// storeDecimal stores v into a DECIMAL column.
func storeDecimal(t *types.Type, v interface{}) (interface{}, storeCond) {
	var cond storeCond
	d, ok := toDecimal(v)
	if !ok {
		s, isText := bytesOf(v)
		if !isText {
			return v, storeCond{}
		}
		n := scanNumber(s)
		cond = n.textCond("decimal")
		if n.num == "" {
			return decimalValue(t, decimal.Zero), cond
		}
		var err error
		if d, err = decimal.NewFromString(n.num); err != nil {
			return v, storeCond{}
		}
	}
	scale := int32(t.Scale)
	r := d.Round(scale)
	if cond.code == 0 && !r.Equal(d) {
		cond = storeCond{code: erDataTruncated, note: true}
	}
	hi := decimal.New(1, int32(t.Length)-scale).Sub(decimal.New(1, -scale))
	lo := hi.Neg()
	if t.Unsigned {
		lo = decimal.Zero
	}
	switch {
	case r.LessThan(lo):
		return decimalValue(t, lo), storeCond{code: erOutOfRange}
	case r.GreaterThan(hi):
		return decimalValue(t, hi), storeCond{code: erOutOfRange}
	}
	return decimalValue(t, r), cond
}

// decimalValue is d (in range) as a DECIMAL column of t holds it.
func decimalValue(t *types.Type, d decimal.Decimal) interface{} {
	return ValueToSQL(t, types.Convert(t, []byte(d.StringFixed(int32(t.Scale))), nil))
}

// storeEnum stores v into an ENUM column: a member's name or a 1-based
// index; anything else is the error value ” (index 0) and 1265.
func storeEnum(t *types.Type, v interface{}) (interface{}, storeCond) {
	var idx int64
	if d, ok := toDecimal(v); ok {
		d = d.Round(0)
		if d.IsPositive() && d.LessThanOrEqual(decimal.NewFromInt(int64(len(t.Elems)))) {
			idx = d.IntPart()
		}
	} else if s, ok := bytesOf(v); ok {
		idx = types.Convert(t, s, nil).I
	} else {
		return v, storeCond{}
	}
	if idx == 0 {
		return uint16(0), storeCond{code: erDataTruncated}
	}
	return uint16(idx), storeCond{}
}

// storeSet stores v into a SET column: members' names joined by commas,
// or a bit mask; unknown members are dropped with 1265.
func storeSet(t *types.Type, v interface{}) (interface{}, storeCond) {
	full := uint64(1)<<uint(len(t.Elems)) - 1
	if d, ok := toDecimal(v); ok {
		d = d.Round(0)
		if d.IsNegative() || d.GreaterThan(decimalFromUint(full)) {
			return uint64(d.BigInt().Uint64()) & full, storeCond{code: erDataTruncated}
		}
		return d.BigInt().Uint64(), storeCond{}
	}
	s, ok := bytesOf(v)
	if !ok {
		return v, storeCond{}
	}
	mask := uint64(types.Convert(t, s, nil).I)
	cond := storeCond{}
	if len(s) > 0 {
		for _, part := range strings.Split(string(s), ",") {
			if types.Convert(t, []byte(part), nil).I == 0 {
				cond = storeCond{code: erDataTruncated}
			}
		}
	}
	return mask, cond
}

// storeString stores v into a character or binary column: a value longer
// than the column is cut, with 1406 (1265 when not strict), or only a note
// when what is cut is trailing spaces.
func storeString(t *types.Type, v interface{}) (interface{}, storeCond) {
	s, ok := bytesOf(v)
	if !ok {
		if _, num := toDecimal(v); !num {
			return v, storeCond{}
		}
		if _, isFloat := v.(float64); isFloat {
			return v, storeCond{}
		}
		if _, isFloat := v.(float32); isFloat {
			return v, storeCond{}
		}
		s = convertText(&types.Type{Kind: types.Blob, Length: math.MaxUint32}, v, true).B
	}
	limit := int(t.Length)
	var rest []byte
	switch t.Kind {
	case types.Char, types.VarChar:
		if utf8.RuneCount(s) > limit {
			n, i := 0, 0
			for i < len(s) && n < limit {
				_, w := utf8.DecodeRune(s[i:])
				i += w
				n++
			}
			rest = s[i:]
		}
	default:
		if len(s) > limit {
			rest = s[limit:]
		}
	}
	out := ValueToSQL(t, types.Convert(t, s, nil))
	if t.IsString() && !utf8.Valid(s) && utf8Charset(t) {
		// Invalid UTF-8 becomes '?' (1366, from the first bad byte).
		return out, storeCond{code: erTruncatedWrongValueForField, word: "string", text: badBytes(s)}
	}
	if len(rest) == 0 {
		return out, storeCond{}
	}
	if t.IsString() && strings.TrimRight(string(rest), " ") == "" {
		if t.Kind == types.Char {
			return out, storeCond{}
		}
		return out, storeCond{code: erDataTruncated, note: true}
	}
	return out, storeCond{code: erDataTooLong}
}

// storeDate stores v, a string or a number, into a DATE, DATETIME or
// TIMESTAMP column: a value that is no date is 1292 (strict) or the zero
// date with 1265; text after the date is 1292 (strict) or 1265; a zero
// date under NO_ZERO_DATE is 1292 or 1264; a date with a zero month or
// day under NO_ZERO_IN_DATE is 1292 or the zero date with 1265; a time
// part lost by DATE is a note. go-mysql-server holds dates as time.Time,
// which has no zero month or day and no February 30th: such dates, which
// MariaDB stores without NO_ZERO_IN_DATE or with ALLOW_INVALID_DATES, are
// refused with 1292 in every mode rather than stored as another date.
func storeDate(ctx *sql.Context, t *types.Type, v interface{}, mode storeMode) (interface{}, storeCond) {
	s, ok := bytesOf(v)
	if tm, isTime := v.(time.Time); isTime {
		if !tm.Equal(zeroTime) {
			return v, storeCond{}
		}
		s, ok = []byte("0000-00-00"), true
	}
	if !ok {
		if _, num := toDecimal(v); !num {
			return v, storeCond{}
		}
		s = []byte(valueText(v))
	}
	word := "date"
	if t.Kind != types.Date {
		word = "datetime"
	}
	refuse := storeCond{code: erTruncatedWrongValue, word: word}
	never := storeCond{code: erTruncatedWrongValue, word: word, always: true}
	truncated := storeCond{code: erDataTruncated}
	f, trailing, ok := scanDate(s)
	if !ok {
		if mode.strict {
			return nil, refuse
		}
		return zeroTime, truncated
	}
	if f.fields && !f.allZero && f.mo <= 12 && f.d <= 31 {
		switch {
		case f.mo == 0 || f.d == 0:
			if mode.noZeroInDate {
				if mode.strict {
					return nil, refuse
				}
				return zeroTime, truncated
			}
			return nil, never
		case !validDay(f.y, f.mo, f.d):
			if mode.allowInvalidDates || !mode.strict {
				// MariaDB stores it (ALLOW_INVALID_DATES), or the zero
				// date with 1265; time.Time cannot hold it.
				if !mode.allowInvalidDates {
					return zeroTime, truncated
				}
				return nil, never
			}
			return nil, refuse
		}
	}
	p := types.Convert(t, s, nil).I
	y, mo, d, h, mi, sec, us := types.UnpackDateTime(p)
	zero := y == 0 && mo == 0 && d == 0 && h == 0 && mi == 0 && sec == 0 && us == 0
	switch {
	case zero && !f.allZero:
		// types.Convert found no date (an invalid one)
		if mode.strict {
			return nil, refuse
		}
		return zeroTime, truncated
	case zero:
		if mode.noZeroDate {
			if mode.strict {
				return nil, refuse
			}
			return zeroTime, storeCond{code: erOutOfRange}
		}
	case mo == 0 || d == 0:
		if mode.noZeroInDate && !mode.strict {
			return zeroTime, truncated
		}
		return nil, never
	case !validDay(y, mo, d):
		return nil, never
	}
	out := unpackTime(p)
	if trailing {
		// Text after the date. go-mysql-server's own forms (ISO 8601
		// with T and Z) stay accepted as it accepts them.
		if gv, _, err := SQLType(t).Convert(ctx, string(s)); err == nil {
			return gv, storeCond{}
		}
		if mode.strict {
			return nil, refuse
		}
		return out, truncated
	}
	if t.Kind == types.Date && f.timeSet {
		return out, storeCond{code: erDataTruncated, note: true}
	}
	return out, storeCond{}
}

// dateText is what scanDate read.
type dateText struct {
	allZero bool // every digit is 0
	timeSet bool // a non-zero time of day follows the date
	fields  bool // y, mo, d were written as separate groups
	y, mo   int
	d       int
}

// scanDate reads a date or date-time as MySQL writes them: digit groups
// separated by punctuation (year, month, day, hour, minute, second,
// fraction), or digits alone (YYYYMMDD[hhmmss]). trailing reports text
// after it; ok is false for text that starts with no date at all.
func scanDate(s []byte) (f dateText, trailing, ok bool) {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	var groups [][]byte
	for i < len(s) && len(groups) < 7 {
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i {
			break
		}
		groups = append(groups, s[i:j])
		i = j
		if i < len(s) && len(groups) < 7 && (s[i] == '-' || s[i] == ':' || s[i] == '.' || s[i] == ' ' || s[i] == 'T' || s[i] == '/') &&
			i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' {
			i++
		}
	}
	for ; i < len(s); i++ {
		if !isSpace(s[i]) {
			trailing = true
		}
	}
	if len(groups) == 0 || (len(groups) < 3 && len(groups[0]) < 6) {
		return f, trailing, false
	}
	f.allZero = true
	for _, g := range groups {
		for _, c := range g {
			if c != '0' {
				f.allZero = false
			}
		}
	}
	if len(groups) >= 3 {
		num := func(g []byte) int {
			n := 0
			for _, c := range g {
				if n < 1e6 {
					n = n*10 + int(c-'0')
				}
			}
			return n
		}
		f.fields = true
		f.y, f.mo, f.d = num(groups[0]), num(groups[1]), num(groups[2])
		if len(groups[0]) <= 2 {
			if f.y < 70 {
				f.y += 2000
			} else {
				f.y += 1900
			}
		}
	}
	if len(groups) > 3 {
		for _, g := range groups[3:] {
			for _, c := range g {
				if c != '0' {
					f.timeSet = true
				}
			}
		}
	} else if len(groups) == 1 && len(groups[0]) > 8 {
		for _, c := range groups[0][8:] {
			if c != '0' {
				f.timeSet = true
			}
		}
	}
	return f, trailing, true
}

// validDay reports whether day d exists in month mo of year y.
func validDay(y, mo, d int) bool {
	return d <= time.Date(y, time.Month(mo)+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// utf8Charset reports whether a character column holds UTF-8.
func utf8Charset(t *types.Type) bool {
	c := t.Collation
	return c == nil || strings.HasPrefix(c.Charset, "utf8")
}

// badBytes prints the bytes of s from its first invalid UTF-8 sequence
// as MariaDB's 1366 does: at most 6, those outside printable ASCII as
// \xHH, then "..." when there are more.
func badBytes(s []byte) string {
	i := 0
	for i < len(s) {
		r, w := utf8.DecodeRune(s[i:])
		if r == utf8.RuneError && w <= 1 {
			break
		}
		i += w
	}
	var b strings.Builder
	rest := s[i:]
	for j, c := range rest {
		if j == 6 {
			b.WriteString("...")
			break
		}
		if c < 0x20 || c >= 0x7F {
			fmt.Fprintf(&b, "\\x%02X", c)
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}
