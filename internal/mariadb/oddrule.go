package mariadb

import (
	"math"
	"slices"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// oddDatesRule lets OddDate values (oddate.go) through the places that
// must see them exactly. It runs last (go-mysql-server's OnceAfterAll
// batch, after storeValuesRule), so that the short analysis of a
// single-table INSERT or UPDATE runs it too, and changes:
//
//   - the result columns of the statement (its top-level projection, or
//     one added over it) and the columns an INSERT, REPLACE, UPDATE or
//     ON DUPLICATE KEY UPDATE stores into (for UPDATE, a copy of the table
//     it writes through, whose schema go-mysql-server compares the old
//     and new rows with): their DATE, DATETIME and TIMESTAMP types become
//     oddType, which converts and prints OddDate values;
//   - ORDER BY keys (also of a UNION), the arguments of MIN and MAX, and
//     the probe key of a hash join: oddType too, which orders, converts
//     and hashes them;
//   - comparisons (=, <=>, <, <=, >, >=, BETWEEN, IN) with a date
//     operand, YEAR, MONTH, DAY, DAYOFMONTH, QUARTER, DATE, DATE_FORMAT,
//     CAST, COALESCE, IFNULL, arithmetic, and the date functions MariaDB
//     answers with NULL for such dates (nullFunctions): an oddExpr, which
//     evaluates the go-mysql-server expression unless a date operand is
//     an OddDate, and then computes MariaDB's answer;
//   - the date arguments of CONCAT, CONCAT_WS, LIKE and the string
//     functions of textFunctions: an oddTextExpr, which gives a date's
//     text as MariaDB prints it.
//
// The rule is a pure function of the plan, safe for concurrent use; the
// expressions it makes are immutable.

func oddDatesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	out, same, err := transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		n, same1, err := oddNode(n)
		if err != nil {
			return nil, transform.SameTree, err
		}
		n, same2, err := transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, oddExpression)
		})
		if err != nil {
			return nil, transform.SameTree, err
		}
		return n, same1 && same2, nil
	})
	if err != nil {
		return nil, transform.SameTree, err
	}
	if scope.IsEmpty() {
		top, topSame := oddResult(out)
		out, same = top, same && topSame
	}
	return out, same, nil
}

// oddInListsRule: go-mysql-server turns IN over a list of constants into a
// hash lookup (rules after this one, before oddDatesRule), converting each item
// to the left side's type; a date item it does not read (2020-00-15, the
// number 20200203, or a number that is no date at all) fails the
// statement there. Such an IN becomes the equalities it
// stands for (= OR = ...), which oddDatesRule later makes as MariaDB
// does. Only lists holding such an item change.
func oddInListsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return everyExpr(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
		in, ok := e.(*expression.InTuple)
		if !ok || !gtypes.IsTime(in.Left().Type()) {
			return e, transform.SameTree, nil
		}
		tup, ok := in.Right().(expression.Tuple)
		if !ok {
			return e, transform.SameTree, nil
		}
		for _, it := range tup {
			lit, ok := it.(*expression.Literal)
			if !ok {
				continue
			}
			if _, text := sqlbackend.BytesOf(lit.Value()); !text && !sqlbackend.IsNumberValue(lit.Value()) {
				continue
			}
			if _, _, err := in.Left().Type().Convert(ctx, lit.Value()); err == nil {
				continue
			}
			eqs := make([]sql.Expression, len(tup))
			for i, it := range tup {
				eqs[i] = expression.NewEquals(in.Left(), it)
			}
			return expression.JoinOr(eqs...), transform.NewTree, nil
		}
		return e, transform.SameTree, nil
	})
}

// oddTyped returns e with its type made oddType when it is one of
// go-mysql-server's date types: a column read keeps being one, anything
// else is wrapped in an oddOut.
func oddTyped(e sql.Expression) sql.Expression {
	if !gtypes.IsTime(e.Type()) {
		return e
	}
	switch x := e.(type) {
	case *expression.GetField:
		gf := expression.NewGetFieldWithTable(x.Index(), int(x.TableId()), sqlbackend.OddTypeOf(x.Type()), x.Database(), x.Table(), x.Name(), x.IsNullable())
		return gf.WithId(x.Id()).(sql.Expression)
	case *expression.Alias:
		if c, err := x.WithChildren(oddTyped(x.Child)); err == nil {
			return c
		}
		return e
	}
	return &oddOut{child: e}
}

// oddNode changes the nodes that store or order values.
func oddNode(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	switch x := n.(type) {
	case *plan.InsertDestination:
		if sqlbackend.HasTime(x.Sch) {
			nn := *x
			nn.Sch = sqlbackend.OddSchema(x.Sch)
			return &nn, transform.NewTree, nil
		}
	case *plan.InsertInto:
		nn := *x
		changed := false
		if _, done := x.Destination.(*plan.InsertDestination); !done && sqlbackend.HasTime(x.Destination.Schema()) {
			if _, named := x.Destination.(sql.Nameable); named {
				nn.Destination = plan.NewInsertDestination(sqlbackend.OddSchema(x.Destination.Schema()), x.Destination)
				changed = true
			}
		}
		if dup, ok := oddSetFields(x.OnDupExprs); ok {
			nn.OnDupExprs = dup
			changed = true
		}
		if changed {
			return &nn, transform.NewTree, nil
		}
	case *plan.Update:
		c, same, err := transform.Node(x.Child, oddUpdateTables)
		if err != nil || same {
			return n, transform.SameTree, err
		}
		nn, err := x.WithChildren(c)
		if err != nil {
			return nil, transform.SameTree, err
		}
		return nn, transform.NewTree, nil
	case *plan.UpdateSource:
		if set, ok := oddSetFields(x.UpdateExprs); ok {
			nn, err := x.WithExpressions(set...)
			if err != nil {
				return nil, transform.SameTree, err
			}
			return nn, transform.NewTree, nil
		}
	case *plan.Sort:
		if f, ok := oddSortFields(x.SortFields); ok {
			return plan.NewSort(f, x.Child), transform.NewTree, nil
		}
	case *plan.SetOp:
		if f, ok := oddSortFields(x.SortFields); ok {
			nn := *x
			nn.SortFields = f
			return &nn, transform.NewTree, nil
		}
	case *plan.HashLookup:
		// go-mysql-server converts each key with the probe key's type.
		if gtypes.IsTime(x.LeftProbeKey.Type()) {
			nn, err := x.WithExpressions(x.RightEntryKey, oddTyped(x.LeftProbeKey))
			if err != nil {
				return nil, transform.SameTree, err
			}
			return nn, transform.NewTree, nil
		}
	case *plan.TopN:
		if f, ok := oddSortFields(x.Fields); ok {
			nn := *x
			nn.Fields = f
			return &nn, transform.NewTree, nil
		}
	}
	return n, transform.SameTree, nil
}

// oddUpdateTables gives the table an UPDATE writes through oddType for
// its dates: go-mysql-server compares a row's old and new values with
// the types of the table's schema.
func oddUpdateTables(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
	switch x := n.(type) {
	case *plan.ResolvedTable:
		if t, ok := sqlbackend.OddTable(x.Table); ok {
			nn, err := x.ReplaceTable(t)
			if err != nil {
				return nil, transform.SameTree, err
			}
			return nn.(sql.Node), transform.NewTree, nil
		}
	case *plan.IndexedTableAccess:
		if rt, ok := x.TableNode.(*plan.ResolvedTable); ok {
			if t, ok := sqlbackend.OddTable(rt.Table); ok {
				nt, err := rt.ReplaceTable(t)
				if err != nil {
					return nil, transform.SameTree, err
				}
				nn := *x
				nn.TableNode = nt.(sql.TableNode)
				return &nn, transform.NewTree, nil
			}
		}
	case *plan.ForeignKeyHandler:
		if sqlbackend.HasTime(x.Sch) {
			nn := *x
			nn.Sch = sqlbackend.OddSchema(x.Sch)
			if t, ok := sqlbackend.OddTable(x.Table); ok {
				if ft, ok := t.(sql.ForeignKeyTable); ok {
					nn.Table = ft
				}
			}
			return &nn, transform.NewTree, nil
		}
	}
	return n, transform.SameTree, nil
}

// oddSetFields retypes the columns SET assigns; ok is false when none is
// a date.
func oddSetFields(exprs []sql.Expression) ([]sql.Expression, bool) {
	var out []sql.Expression
	for i, e := range exprs {
		sf, isSet := e.(*expression.SetField)
		if !isSet {
			continue
		}
		gf, isField := sf.LeftChild.(*expression.GetField)
		if !isField || !gtypes.IsTime(gf.Type()) {
			continue
		}
		ne, err := sf.WithChildren(oddTyped(gf), sf.RightChild)
		if err != nil {
			continue
		}
		if out == nil {
			out = append([]sql.Expression(nil), exprs...)
		}
		out[i] = ne
	}
	return out, out != nil
}

// oddSortFields retypes the date keys of an ORDER BY; ok is false when
// none is a date.
func oddSortFields(fields sql.SortFields) (sql.SortFields, bool) {
	var out sql.SortFields
	for i, f := range fields {
		if !gtypes.IsTime(f.Column.Type()) {
			continue
		}
		if out == nil {
			out = append(sql.SortFields(nil), fields...)
		}
		out[i].Column = oddTyped(f.Column)
	}
	return out, out != nil
}

// oddResult makes the date columns of a statement's result oddType:
// the top-level projection's (also below the sorts, limits and filters
// that pass its rows on), or a projection added over the result.
//
// A projection is added only where there is none to retype: a derived
// table is analyzed as a statement of its own, and a projection added
// over its select list (go-mysql-server erases the one over a list it
// repeats) was placed by column id once inside the outer plan, which
// read an alias of an aggregate named twice in the list from the wrong
// position (a view's COUNT(*) AS n gave the GROUP BY column's values).
func oddResult(n sql.Node) (sql.Node, transform.TreeIdentity) {
	if !sqlbackend.HasTime(n.Schema()) {
		return n, transform.SameTree
	}
	if nn, ok := oddProjectBelow(n); ok {
		return nn, transform.NewTree
	}
	switch n.(type) {
	case *plan.Sort, *plan.TopN, *plan.Limit, *plan.Offset, *plan.Distinct, *plan.OrderedDistinct,
		*plan.Filter, *plan.GroupBy, *plan.Having, *plan.Window, *plan.ResolvedTable, *plan.TableAlias,
		*plan.IndexedTableAccess, *plan.SubqueryAlias, *plan.SetOp, *plan.JoinNode:
		sch := n.Schema()
		ids := outputColumnIds(n)
		exprs := make([]sql.Expression, len(sch))
		for i, c := range sch {
			gf := expression.NewGetFieldWithTable(i, 0, sqlbackend.OddTypeOf(c.Type), c.DatabaseSource, c.Source, c.Name, c.Nullable)
			if ids != nil {
				// The column's id, by which go-mysql-server places
				// it once the plan is inside another (a derived
				// table whose projection over a projected table was
				// erased).
				gf = gf.WithId(ids[i]).(*expression.GetField)
			}
			exprs[i] = gf
		}
		return plan.NewProject(exprs, n), transform.NewTree
	}
	return n, transform.SameTree
}

// oddProjectBelow retypes the projection under n's sorts, limits and
// filters in place; ok is false when there is none.
func oddProjectBelow(n sql.Node) (sql.Node, bool) {
	switch x := n.(type) {
	case *plan.Project:
		exprs := make([]sql.Expression, len(x.Projections))
		for i, e := range x.Projections {
			exprs[i] = oddTyped(e)
		}
		nn, err := x.WithExpressions(exprs...)
		return nn, err == nil
	case *plan.Sort, *plan.TopN, *plan.Limit, *plan.Offset, *plan.Distinct, *plan.OrderedDistinct, *plan.Filter, *plan.Having:
		c, ok := oddProjectBelow(n.Children()[0])
		if !ok {
			return n, false
		}
		nn, err := n.WithChildren(c)
		return nn, err == nil
	}
	return n, false
}

// outputColumnIds gives the column ids of n's rows, position by
// position, or nil where they are not known: a table's own, or those of
// the select list a filter, sort or limit passes on. A projection placed
// over n must name its columns by these ids: go-mysql-server places a
// column by its id, and below a select list (that of a derived table
// over a window, say) the same names sit at other positions.
func outputColumnIds(n sql.Node) []sql.ColumnId {
	for {
		switch x := n.(type) {
		case *plan.Sort, *plan.TopN, *plan.Limit, *plan.Offset, *plan.Distinct, *plan.OrderedDistinct,
			*plan.Filter, *plan.Having:
			n = x.Children()[0]
			continue
		case *plan.Project:
			ids := make([]sql.ColumnId, len(x.Projections))
			for i, e := range x.Projections {
				ie, ok := e.(sql.IdExpression)
				if !ok || ie.Id() == 0 {
					return nil
				}
				ids[i] = ie.Id()
			}
			return ids
		}
		return sqlbackend.TableColumnIds(n)
	}
}

// oddOp is what an oddExpr computes for OddDate operands.
type oddOp uint8

const (
	oddEQ oddOp = iota
	oddNullSafeEQ
	oddLT
	oddLE
	oddGT
	oddGE
	oddBetween
	oddYear
	oddMonth
	oddDay
	oddFormat
	oddCast
	oddQuarter
	oddIn       // IN (...)
	oddFirst    // COALESCE, IFNULL: the first value that is not NULL
	oddDatePart // DATE(): the date without its time of day
	oddNull     // a date function MariaDB answers with NULL for such a date
	oddInterval // date + INTERVAL: NULL, with 1292 as a warning
	oddArith    // arithmetic: the date as its number (20200015)
)

// nullFunctions are the date functions whose answer MariaDB gives as
// NULL for a date with a zero month or day or a day past the month's
// end (checked in MariaDB 10.11).
var nullFunctions = map[string]bool{
	"dayname": true, "dayofweek": true, "weekday": true, "dayofyear": true, "week": true,
	"weekofyear": true, "yearweek": true, "to_days": true, "to_seconds": true,
	"unix_timestamp": true, "last_day": true, "date_add": true, "date_sub": true,
	"adddate": true, "subdate": true, "datediff": true, "monthname": true,
	"timestampdiff": true,
}

// textFunctions are the string functions that read a date as its text
// (LENGTH(d) is 10 for a DATE): their date arguments get an oddTextExpr.
var textFunctions = map[string]bool{
	"length": true, "char_length": true, "character_length": true, "octet_length": true,
	"left": true, "right": true, "substring": true, "substr": true, "mid": true,
	"upper": true, "lower": true, "ucase": true, "lcase": true, "replace": true,
	"lpad": true, "rpad": true, "trim": true, "ltrim": true, "rtrim": true,
	"locate": true, "instr": true, "reverse": true,
	"quote": true, "md5": true, "sha": true, "sha1": true, "sha2": true, "crc32": true,
	"to_base64": true, "soundex": true, "strcmp": true, "find_in_set": true, "repeat": true,
}

// stringArgs are the positions of the string arguments of the string
// functions that go-mysql-server refuses a number in (LEFT(i, 3) was
// "invalid type: int32", LOCATE('1', i) and CRC32(1.5) errors too).
var stringArgs = map[string][]int{
	"left": {0}, "right": {0}, "substring": {0}, "substr": {0}, "mid": {0},
	"locate": {0, 1}, "instr": {0, 1}, "reverse": {0}, "crc32": {0},
}

// numbersAsText returns a string function with its number arguments at
// string positions (stringArgs) converted to their text, as MariaDB reads
// them; changed is false when there were none.
func numbersAsText(fe sql.FunctionExpression) (sql.Expression, bool, error) {
	pos := stringArgs[strings.ToLower(fe.FunctionName())]
	if pos == nil {
		return fe, false, nil
	}
	ne, same, err := rewrapChildren(fe, func(i int, c sql.Expression) sql.Expression {
		if !slices.Contains(pos, i) || !gtypes.IsNumber(c.Type()) {
			return nil
		}
		return expression.NewConvert(c, expression.ConvertToChar)
	})
	return ne, same == transform.NewTree, err
}

// oddExpression replaces the expressions that meet dates (see the rule).
func oddExpression(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	changed := transform.SameTree
	for _, pass := range operandPasses {
		ne, same, err := pass(e)
		if err != nil {
			return nil, transform.SameTree, err
		}
		if same == transform.NewTree {
			e, changed = ne, transform.NewTree
		}
	}
	ne, same, err := oddExpressionOf(e)
	if err != nil || same == transform.NewTree {
		return ne, same, err
	}
	return ne, changed, nil
}

// operandPasses give an expression its operands as MariaDB reads them,
// in this order, before oddExpressionOf looks at its dates.
var operandPasses = []func(sql.Expression) (sql.Expression, transform.TreeIdentity, error){
	binaryColumnsAsText, yearsAsText, realsToInteger /* realint.go */, setsAsText, absOfNumber, numericFunctionArgs,
	numbersAsDates, timesComparedWithText, scaledTimeCasts, // numdates.go, timecmp.go, castscale.go
}

// yearsAsText gives CONCAT, CONCAT_WS, GROUP_CONCAT, the string functions
// of textFunctions and CAST to a string the YEAR operands among their
// children as their four digits (oddTextExpr): MariaDB's CONCAT(y) of
// the year 0 is 0000, go-mysql-server's was 0.
func yearsAsText(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch x := e.(type) {
	case *function.Concat, *function.ConcatWithSeparator, *aggregation.GroupConcat:
	case *expression.Convert:
		if !castsToText(x.Type()) {
			return e, transform.SameTree, nil
		}
	case sql.FunctionExpression:
		if !textFunctions[strings.ToLower(x.FunctionName())] {
			return e, transform.SameTree, nil
		}
	default:
		return e, transform.SameTree, nil
	}
	return rewrapChildren(e, func(_ int, c sql.Expression) sql.Expression {
		if !isYear(c.Type()) {
			return nil
		}
		return &oddTextExpr{child: c}
	})
}

// numericOfText are the functions and aggregates that read their
// arguments as numbers (by FunctionName), for binaryColumnsAsText.
var numericOfText = wordSet("sum avg bitor bitand bitxor stddevpop stddevsamp varpop varsamp " + // go-mysql-server's aggregates' names
	"bit_or bit_and bit_xor std stddev stddev_pop stddev_samp var_pop var_samp variance " +
	"floor ceil ceiling round truncate sign sqrt pow power exp ln log log2 log10 sin cos tan asin acos atan atan2 cot degrees radians")

// binaryColumnsAsText gives arithmetic, comparisons with a number, CAST to
// a number and the numeric functions and aggregates (numericOfText) the
// BINARY, VARBINARY and BLOB columns among their operands as text, which
// reads as a number as MariaDB reads a string ('blob' + 0 is 0, SUM of a
// BLOB holding '123' is 123): go-mysql-server read the bytes as a
// big-endian integer (3224115), as it reads a hexadecimal literal (which
// keeps that reading).
func binaryColumnsAsText(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	asDouble := false // a function's or aggregate's argument: the text as a DOUBLE
	switch x := e.(type) {
	case *expression.Arithmetic, *expression.Div, *expression.IntDiv, *expression.Mod, *expression.UnaryMinus, *function.AbsVal:
	case *expression.Convert:
		if !gtypes.IsNumber(x.Type()) {
			return e, transform.SameTree, nil
		}
	case sql.FunctionExpression:
		name := strings.ToLower(x.FunctionName())
		if !numericOfText[name] {
			return e, transform.SameTree, nil
		}
		// (the bit aggregates read text as an integer: realsToInteger)
		asDouble = !strings.HasPrefix(name, "bit")
	case *expression.Equals, *expression.NullSafeEquals, *expression.LessThan, *expression.LessThanOrEqual,
		*expression.GreaterThan, *expression.GreaterThanOrEqual:
		numeric := false
		for _, c := range e.Children() {
			numeric = numeric || gtypes.IsNumber(c.Type())
		}
		if !numeric {
			return e, transform.SameTree, nil
		}
	default:
		return e, transform.SameTree, nil
	}
	return rewrapChildren(e, func(_ int, c sql.Expression) sql.Expression {
		gf, ok := c.(*expression.GetField)
		if !ok {
			return nil
		}
		switch gf.Type().Type() {
		case sqltypes.Binary, sqltypes.VarBinary, sqltypes.Blob:
			text := expression.NewConvert(c, expression.ConvertToChar)
			if asDouble {
				return expression.NewConvert(text, expression.ConvertToDouble)
			}
			return text
		}
		return nil
	})
}

// setsAsText gives a comparison of a SET with text the SET as its text,
// as MariaDB compares them (s = 'c,a' is false for the set a,c, and a
// string naming no member is simply unequal): go-mysql-server converted
// the text to the SET, so the order of members did not count and a
// string that was no member failed the statement ("value ... was not
// found in the set"). A SET compared with a number stays a number.
func setsAsText(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	ch, ok := comparedPair(e)
	if !ok {
		return e, transform.SameTree, nil
	}
	isSet := func(t sql.Type) bool { return t.Type() == sqltypes.Set }
	text := func(t sql.Type) bool { return gtypes.IsText(t) && !isSet(t) && t.Type() != sqltypes.Enum }
	if !(isSet(ch[0].Type()) && text(ch[1].Type())) && !(isSet(ch[1].Type()) && text(ch[0].Type())) {
		return e, transform.SameTree, nil
	}
	return rewrapChildren(e, func(_ int, c sql.Expression) sql.Expression {
		if !isSet(c.Type()) {
			return nil
		}
		return &enumText{child: c} // valuerules.go
	})
}

// absOfNumber gives ABS its argument as a number, as MariaDB reads it:
// text as a DOUBLE (go-mysql-server's ABS of any text was NULL, ABS('12')
// included), an ENUM as its index, a SET or BIT as its bits
// (go-mysql-server's ABS of an ENUM was its label).
func absOfNumber(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	if _, ok := e.(*function.AbsVal); !ok {
		return e, transform.SameTree, nil
	}
	return rewrapChildren(e, func(_ int, c sql.Expression) sql.Expression {
		switch t := c.Type(); {
		case isEnumSetBit(t):
			return expression.NewConvert(c, expression.ConvertToUnsigned)
		case gtypes.IsText(t):
			return expression.NewConvert(c, expression.ConvertToDouble)
		}
		return nil
	})
}

// numericArgFunctions are the functions of numbers whose arguments
// numericFunctionArgs reads as numbers (ROUND, FLOOR and CEIL have their
// own: numfuncs.go), by FunctionName.
var numericArgFunctions = wordSet("truncate sign sqrt pow power exp ln log log2 log10 sin cos tan asin acos atan atan2 cot degrees radians format")

// numericFunctionArgs gives those functions their text arguments as
// DOUBLEs (text that is no number is 0, as MariaDB reads it, where
// go-mysql-server failed the statement: SQRT('ab') was 1366, LOG('ab')
// "invalid type") and their date and time arguments as their numbers
// (FORMAT(DATE '2020-02-03', 2) was the Unix seconds). FORMAT's locale
// stays text.
func numericFunctionArgs(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	fe, ok := e.(sql.FunctionExpression)
	if !ok {
		return e, transform.SameTree, nil
	}
	name := strings.ToLower(fe.FunctionName())
	if !numericArgFunctions[name] {
		return e, transform.SameTree, nil
	}
	return rewrapChildren(e, func(i int, c sql.Expression) sql.Expression {
		if name == "format" && i == 2 {
			return nil
		}
		switch t := c.Type(); {
		case (isTemporal(t) || isYear(t)) && name != "truncate":
			// (TRUNCATE of a date or time is one in MariaDB; left as it was)
			return numberOf(c)
		case gtypes.IsText(t) && !isEnumSetBit(t):
			return expression.NewConvert(c, expression.ConvertToDouble)
		}
		return nil
	})
}

// isEnumSetBit reports an ENUM, SET or BIT type, whose number is its
// index or bits.
func isEnumSetBit(t sql.Type) bool {
	switch t.Type() {
	case sqltypes.Enum, sqltypes.Set, sqltypes.Bit:
		return true
	}
	return false
}

// comparedPair returns the two operands of a comparison (=, <=>, <, <=,
// >, >=); ok is false for any other expression.
func comparedPair(e sql.Expression) (ch []sql.Expression, ok bool) {
	switch e.(type) {
	case *expression.Equals, *expression.NullSafeEquals, *expression.LessThan, *expression.LessThanOrEqual,
		*expression.GreaterThan, *expression.GreaterThanOrEqual:
	default:
		return nil, false
	}
	ch = e.Children()
	return ch, len(ch) == 2
}

// oddExpressionOf is oddExpression once operandPasses have run.
func oddExpressionOf(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	op, ok := oddOpOf(e)
	if ok {
		changed := transform.SameTree
		if op == oddFirst && (gtypes.IsText(e.Type()) || timeAmongOthers(e)) {
			// COALESCE(t, 9): a TIME among text (as for GROUP_CONCAT);
			// IFNULL(t, 'x'), typed TIME by go-mysql-server, failed on
			// 'x' where MariaDB's result is text
			ne, same, err := timesAsText(e)
			if err != nil {
				return nil, transform.SameTree, err
			}
			e, changed = ne, same
		}
		for _, c := range e.Children() {
			if _, nested := c.(*expression.Arithmetic); nested && op == oddArith {
				// (a chain of arithmetic is no date; its Type walks
				// the whole chain)
				continue
			}
			textDate := op != oddCast && (&oddExpr{op: op}).nullIn() && gtypes.IsText(c.Type())
			if textDate || isDateType(c.Type()) || ((op == oddCast || op == oddArith) && (isTimeType(c.Type()) || gtypes.IsTimespan(c.Type()))) {
				if _, cmp := e.(expression.Comparer); cmp && op < oddBetween {
					return &oddComparer{oddExpr{Expression: e, op: op}}, transform.NewTree, nil
				}
				return &oddExpr{Expression: e, op: op}, transform.NewTree, nil
			}
		}
		return e, changed, nil
	}
	switch x := e.(type) {
	case *expression.UnaryMinus, *function.AbsVal:
		// -d and ABS(d) of a date, time or YEAR: of its number, typed as
		// one (go-mysql-server gave 0, or the column's type back: 1292,
		// "not a valid Year")
		if ch := x.Children(); len(ch) == 1 && (isTemporal(ch[0].Type()) || isYear(ch[0].Type())) {
			ne, err := x.WithChildren(numberOf(ch[0]))
			if err != nil {
				return nil, transform.SameTree, err
			}
			return ne, transform.NewTree, nil
		}
	case *expression.Not, *expression.IsTrue, *expression.And, *expression.Or, *expression.Xor, *function.If:
		// a date or time as a truth value: its number, so a zero date or
		// 00:00:00 is false (go-mysql-server took any date as true and
		// failed on a TIME)
		_, isIf := x.(*function.If)
		return rewrapChildren(e, func(i int, c sql.Expression) sql.Expression {
			if (isIf && i > 0) || !isTemporal(c.Type()) {
				return nil // (IF's condition only)
			}
			return newTemporalNumber(c)
		})
	case *aggregation.GroupConcat, *aggregation.CountDistinct:
		// TIME values as text: go-mysql-server's conversion of a TIME
		// to text failed ("incompatible conversion to SQL type")
		return timesAsText(e)
	case *aggregation.Min, *aggregation.Max:
		ch := x.Children()
		if len(ch) == 1 && gtypes.IsTime(ch[0].Type()) {
			ne, err := x.WithChildren(oddTyped(ch[0]))
			if err != nil {
				return nil, transform.SameTree, err
			}
			return ne, transform.NewTree, nil
		}
	case *function.Concat, *function.ConcatWithSeparator, *expression.Like, *function.Quote, sql.FunctionExpression:
		if fe, ok := x.(sql.FunctionExpression); ok {
			if ne, changed, err := numbersAsText(fe); err != nil || changed {
				return ne, transform.NewTree, err
			}
		}
		if fe, ok := x.(sql.FunctionExpression); ok && !textFunctions[strings.ToLower(fe.FunctionName())] {
			switch x.(type) {
			case *function.Concat, *function.ConcatWithSeparator, *function.Quote:
			default:
				return e, transform.SameTree, nil
			}
		}
		return rewrapChildren(e, func(_ int, c sql.Expression) sql.Expression {
			if _, done := c.(*oddTextExpr); done || !(isDateType(c.Type()) || gtypes.IsTimespan(c.Type()) || isTimeType(c.Type())) {
				return nil
			}
			return &oddTextExpr{child: c}
		})
	}
	return e, transform.SameTree, nil
}

// timeAmongOthers reports whether e is typed TIME while one of its
// operands is neither a time nor NULL.
func timeAmongOthers(e sql.Expression) bool {
	if !gtypes.IsTimespan(e.Type()) && !isTimeType(e.Type()) {
		return false
	}
	for _, c := range e.Children() {
		if t := c.Type(); t != gtypes.Null && !gtypes.IsTimespan(t) && !isTimeType(t) {
			return true
		}
	}
	return false
}

// rewrapChildren returns e with each child for which wrap gives an
// expression replaced by it (wrap returns nil to keep the child), and
// whether any was.
func rewrapChildren(e sql.Expression, wrap func(i int, c sql.Expression) sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	ch := e.Children()
	var nc []sql.Expression
	for i, c := range ch {
		w := wrap(i, c)
		if w == nil {
			continue
		}
		if nc == nil {
			nc = append([]sql.Expression(nil), ch...)
		}
		nc[i] = w
	}
	if nc == nil {
		return e, transform.SameTree, nil
	}
	ne, err := e.WithChildren(nc...)
	if err != nil {
		return nil, transform.SameTree, err
	}
	return ne, transform.NewTree, nil
}

// timesAsText returns e with each child of a TIME type read as its text
// (oddTextExpr).
func timesAsText(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	return rewrapChildren(e, func(_ int, c sql.Expression) sql.Expression {
		if _, done := c.(*oddTextExpr); done || !(gtypes.IsTimespan(c.Type()) || isTimeType(c.Type())) {
			return nil
		}
		return &oddTextExpr{child: c}
	})
}

// oddOpOf returns the oddOp of an expression an oddExpr stands for.
func oddOpOf(e sql.Expression) (oddOp, bool) {
	switch x := e.(type) {
	case *expression.Equals:
		return oddEQ, true
	case *expression.NullSafeEquals:
		return oddNullSafeEQ, true
	case *expression.LessThan:
		return oddLT, true
	case *expression.LessThanOrEqual:
		return oddLE, true
	case *expression.GreaterThan:
		return oddGT, true
	case *expression.GreaterThanOrEqual:
		return oddGE, true
	case *expression.Between:
		return oddBetween, true
	case *function.Year:
		return oddYear, true
	case *function.Month:
		return oddMonth, true
	case *function.Day:
		return oddDay, true
	case *function.Quarter:
		return oddQuarter, true
	case *function.DateFormat:
		return oddFormat, true
	case *expression.InTuple, *expression.HashInTuple:
		return oddIn, true
	case *function.Coalesce, *function.IfNull:
		return oddFirst, true
	case *function.Date:
		return oddDatePart, true
	case *expression.Arithmetic:
		for _, c := range x.Children() {
			if _, ok := c.(*expression.Interval); ok {
				return oddInterval, true
			}
		}
		return oddArith, true
	case *expression.Div, *expression.IntDiv, *expression.Mod:
		return oddArith, true
	case sql.FunctionExpression:
		return oddNull, nullFunctions[strings.ToLower(x.FunctionName())]
	case *expression.Convert:
		// (a CAST to JSON stays go-mysql-server's: JSON_TYPE looks
		// at it)
		t := x.Type()
		return oddCast, castsToText(t) || gtypes.IsNumber(t) || gtypes.IsTime(t)
	}
	return 0, false
}

// timeNumberOrText is a TIME(n) value as CAST to a string reads it (its
// text) or as arithmetic does (hhmmss with n decimals).
func timeNumberOrText(ts gtypes.Timespan, t sqlbackend.TimeType, text bool) interface{} {
	if text {
		return sqlbackend.PrintedDate(ts, t)
	}
	us := int64(ts)
	neg := us < 0
	if neg {
		us = -us
	}
	sec := us / 1000000
	frac := us % 1000000 / int64(math.Pow10(6-int(t.Scale)))
	n := decimal.New((sec/3600*10000+sec/60%60*100+sec%60)*int64(math.Pow10(int(t.Scale)))+frac, -int32(t.Scale))
	if neg {
		n = n.Neg()
	}
	return n
}

// anyDateTyped reports whether one of es has a date type.
func anyDateTyped(es []sql.Expression) bool {
	for _, e := range es {
		if isDateType(e.Type()) {
			return true
		}
	}
	return false
}

// isTimeType reports a TIME(n) column's type.
func isTimeType(t sql.Type) bool {
	_, ok := t.(sqlbackend.TimeType)
	return ok
}

// isDateType reports a DATE, DATETIME or TIMESTAMP type, ours or
// go-mysql-server's.
func isDateType(t sql.Type) bool {
	if _, ok := t.(sqlbackend.OddType); ok {
		return true
	}
	return gtypes.IsTime(t)
}

// oddExpr is a go-mysql-server expression that meets dates, computed as
// MariaDB does when a date operand is an OddDate. It keeps everything of
// the expression (its type, name and children) but Eval.
type oddExpr struct {
	sql.Expression // the expression it stands for
	op             oddOp
}

var _ sql.Expression = (*oddExpr)(nil)

// Rowwise marks e as computing from its children's values at each
// evaluation (sqlbackend.RowwiseExpression: plan templates may change the
// literals under it); oddComparer, which embeds it, too.
func (e *oddExpr) Rowwise() {}

// StandsFor is the expression e computes as MariaDB does (for the range
// read, sqlbackend.StandIn).
func (e *oddExpr) StandsFor() sql.Expression { return e.Expression }

// Type is the expression's; arithmetic on a TIME(n) value is a DECIMAL
// with n decimals, as in MariaDB (go-mysql-server does not know n).
func (e *oddExpr) Type() sql.Type {
	if e.op == oddArith {
		for _, c := range e.Expression.Children() {
			if tt, ok := c.Type().(sqlbackend.TimeType); ok && gtypes.IsNumber(e.Expression.Type()) {
				return gtypes.MustCreateDecimalType(65, tt.Scale)
			}
		}
	}
	return e.Expression.Type()
}

// WithChildren keeps the wrapper.
func (e *oddExpr) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	n, err := e.Expression.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &oddExpr{Expression: n, op: e.op}, nil
}

// Eval evaluates the date operands; when none is an OddDate, the
// expression is evaluated as go-mysql-server does (the date operands a
// second time: they are column reads or deterministic), and a comparison
// go-mysql-server fails to make (an operand it does not read as a date,
// such as '2020-00-15') is made as MariaDB does.
func (e *oddExpr) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	ch := e.Expression.Children()
	var vbuf [4]interface{}
	var dbuf [4]bool
	var vals []interface{}
	var done []bool
	if len(ch) <= len(vbuf) {
		vals, done = vbuf[:len(ch)], dbuf[:len(ch)]
	} else {
		vals, done = make([]interface{}, len(ch)), make([]bool, len(ch))
	}
	odd := false
	comparison := e.op <= oddBetween || e.op == oddIn
	for i, c := range ch {
		timeOp := (e.op == oddCast || e.op == oddArith) && (isTimeType(c.Type()) || gtypes.IsTimespan(c.Type()))
		if !isDateType(c.Type()) && !timeOp {
			if comparison && gtypes.IsNumber(c.Type()) {
				// a date compared with a number: the number read as a
				// date (20200203 is 2020-02-03), as MariaDB reads it;
				// go-mysql-server said false
				odd = odd || anyDateTyped(ch)
			}
			continue
		}
		v, err := c.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		if v == nil && e.nullIn() {
			// a date function of NULL is NULL (go-mysql-server's WEEK
			// failed the statement: "invalid year")
			return nil, nil
		}
		vals[i], done[i] = v, true
		if o, ok := e.asOdd(v, c.Type()); ok {
			vals[i], odd = o, true
		}
		if ts, ok := v.(gtypes.Timespan); ok && timeOp {
			// a TIME(n) value, which go-mysql-server's CAST and
			// arithmetic do not read from a type not its own, or a TIME
			// in arithmetic, which go-mysql-server read as 0
			tt, _ := c.Type().(sqlbackend.TimeType)
			vals[i], odd = timeNumberOrText(ts, tt, e.op == oddCast && !gtypes.IsNumber(e.Type())), true
		}
	}
	if !odd {
		if v, ok := e.comparedAsEvaluated(vals, done); ok && shortcutEvaluated {
			return v, nil
		}
		if t, ok := vals[0].(time.Time); ok && e.op == oddDatePart && done[0] && t.Year() > 0 && t.Year() <= 9999 && shortcutEvaluated {
			// go-mysql-server's DATE(): the time's date as text, which
			// it makes with time.Format after evaluating the operand
			// again
			var b [10]byte
			return string(appendISODate(b[:0], t.UTC())), nil
		}
		v, err := e.Expression.Eval(ctx, row)
		if err != nil && e.nullIn() && e.op != oddCast && gtypes.ErrConvertingToTime.Is(err) {
			// a date function of text that is no date: NULL with
			// MariaDB's warning (go-mysql-server failed the statement);
			// of NULL (go-mysql-server's error too), NULL alone
			if v0, err0 := ch[0].Eval(ctx, row); err0 == nil && v0 != nil {
				ctx.Warn(mysql.ERTruncatedWrongValue, "%s", err.Error())
			}
			return nil, nil
		}
		if err == nil || (e.op > oddBetween && e.op != oddIn) {
			return v, err
		}
		for i, c := range ch {
			if !done[i] {
				x, xerr := c.Eval(ctx, row)
				if xerr != nil {
					return nil, xerr
				}
				vals[i] = x
			}
			if _, ok := sqlbackend.PackedOf(vals[i]); !ok && vals[i] != nil {
				return v, err
			}
		}
		return e.compare(vals)
	}
	for i, c := range ch {
		if done[i] || e.op == oddNull || e.op == oddInterval {
			// (an INTERVAL cannot be evaluated alone)
			continue
		}
		v, err := c.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	if e.op <= oddBetween || e.op == oddIn {
		return e.compare(vals)
	}
	switch e.op {
	case oddYear, oddMonth, oddDay, oddQuarter:
		o := vals[0].(sqlbackend.OddDate)
		y, mo, d, _, _, _, _ := types.UnpackDateTime(o.P)
		n := map[oddOp]int{oddYear: y, oddMonth: mo, oddDay: d, oddQuarter: (mo + 2) / 3}[e.op]
		v, _, err := e.Type().Convert(ctx, int64(n))
		return v, err
	case oddFormat:
		o := vals[0].(sqlbackend.OddDate)
		if vals[1] == nil {
			return nil, nil
		}
		f, _, err := gtypes.LongText.Convert(ctx, vals[1])
		if err != nil {
			return nil, err
		}
		s, ok := sqlbackend.FormatOddDate(o, f.(string))
		if !ok {
			return nil, nil
		}
		return s, nil
	case oddCast:
		switch x := vals[0].(type) {
		case sqlbackend.OddDate:
			return e.cast(ctx, x)
		case string:
			ne, err := e.Expression.WithChildren(expression.NewLiteral(x, gtypes.LongText))
			if err != nil {
				return nil, err
			}
			return ne.Eval(ctx, nil)
		case decimal.Decimal:
			// a TIME cast to a number: its hhmmss number
			ne, err := e.Expression.WithChildren(expression.NewLiteral(x, gtypes.MustCreateDecimalType(gtypes.DecimalTypeMaxPrecision, uint8(max(-x.Exponent(), 0)))))
			if err != nil {
				return nil, err
			}
			return ne.Eval(ctx, nil)
		}
		return nil, nil
	case oddDatePart:
		return vals[0].(sqlbackend.OddDate).AsColumn(gtypes.Date), nil
	case oddFirst:
		for _, v := range vals {
			if v == nil {
				continue
			}
			if o, ok := v.(sqlbackend.OddDate); ok {
				if dt, ok := e.Type().(sql.DatetimeType); ok && gtypes.IsTime(e.Type()) {
					return o.AsColumn(dt), nil
				}
				return o.String(), nil
			}
			r, _, err := e.Type().Convert(ctx, v)
			return r, err
		}
		return nil, nil
	case oddInterval:
		for _, v := range vals {
			if o, ok := v.(sqlbackend.OddDate); ok {
				ctx.Warn(mysql.ERTruncatedWrongValue, "Incorrect datetime value: '%s'", o.String())
				break
			}
		}
		return nil, nil
	case oddNull:
		return nil, nil
	case oddArith:
		lits := make([]sql.Expression, len(ch))
		for i, v := range vals {
			switch x := v.(type) {
			case decimal.Decimal:
				lits[i] = expression.NewLiteral(x, gtypes.MustCreateDecimalType(65, uint8(-x.Exponent())))
			case sqlbackend.OddDate:
				switch n := x.Number().(type) {
				case int64:
					lits[i] = expression.NewLiteral(n, gtypes.Int64)
				default:
					lits[i] = expression.NewLiteral(n, gtypes.MustCreateDecimalType(65, x.Scale))
				}
			default:
				lits[i] = expression.NewLiteral(v, ch[i].Type())
			}
		}
		ne, err := e.Expression.WithChildren(lits...)
		if err != nil {
			return nil, err
		}
		return ne.Eval(ctx, nil)
	}
	return nil, nil
}

// oddComparer is the oddExpr of a two-sided comparison, which a merge
// join also asks for the order of its operands.
type oddComparer struct {
	oddExpr
}

var _ expression.Comparer = (*oddComparer)(nil)

// WithChildren keeps the wrapper.
func (e *oddComparer) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	n, err := e.Expression.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return &oddComparer{oddExpr{Expression: n, op: e.op}}, nil
}

// Left is the comparison's left operand.
func (e *oddComparer) Left() sql.Expression { return e.Expression.(expression.Comparer).Left() }

// Right is the comparison's right operand.
func (e *oddComparer) Right() sql.Expression { return e.Expression.(expression.Comparer).Right() }

// Compare orders the operands: by their packed dates when one is an
// OddDate, as go-mysql-server does otherwise.
func (e *oddComparer) Compare(ctx *sql.Context, row sql.Row) (int, error) {
	l, err := e.Left().Eval(ctx, row)
	if err != nil {
		return 0, err
	}
	r, err := e.Right().Eval(ctx, row)
	if err != nil {
		return 0, err
	}
	_, lo := l.(sqlbackend.OddDate)
	_, ro := r.(sqlbackend.OddDate)
	if lo || ro {
		if l == nil || r == nil {
			return 0, expression.ErrNilOperand.New()
		}
		pl, okl := sqlbackend.PackedOf(l)
		pr, okr := sqlbackend.PackedOf(r)
		if okl && okr {
			return sqlbackend.ComparePacked(pl, pr), nil
		}
	}
	return e.Expression.(expression.Comparer).Compare(ctx, row)
}

// nullIn reports whether e is a function of dates that is NULL when a
// date operand is.
func (e *oddExpr) nullIn() bool {
	switch e.op {
	case oddYear, oddMonth, oddDay, oddQuarter, oddFormat, oddCast, oddDatePart, oddNull:
		return true
	}
	return false
}

// asOdd returns the OddDate an operand of date type t is for the
// expression: an OddDate itself; for the functions, the zero date too
// (go-mysql-server's year-0 January 1st); for CAST to a string, any date
// (CAST prints a DATE without time of day, which go-mysql-server does
// not), and to a number (its digits, where go-mysql-server gave Unix
// seconds); for arithmetic, any date (its number keeps the fraction of a
// DATETIME(n), which go-mysql-server drops).
func (e *oddExpr) asOdd(v interface{}, t sql.Type) (sqlbackend.OddDate, bool) {
	switch x := v.(type) {
	case sqlbackend.OddDate:
		return x, true
	case time.Time:
		if (e.op == oddCast && (castsToText(e.Type()) || gtypes.IsNumber(e.Type()))) || e.op == oddArith || (e.op >= oddYear && e.op != oddCast && x.Equal(sqlbackend.ZeroTime)) {
			return sqlbackend.OddDateOf(x, t), true
		}
	}
	return sqlbackend.OddDate{}, false
}

// castsToText reports a CAST to CHAR or BINARY.
func castsToText(t sql.Type) bool {
	_, ok := t.(sql.StringType)
	return ok && !gtypes.IsJSON(t)
}

// compare makes a comparison of dates as MariaDB does.
func (e *oddExpr) compare(vals []interface{}) (interface{}, error) {
	switch e.op {
	case oddIn:
		return compareIn(vals[0], vals[1])
	case oddBetween:
		for _, v := range vals {
			if v == nil {
				return nil, nil
			}
		}
		p, ok1 := sqlbackend.PackedOf(vals[0])
		lo, ok2 := sqlbackend.PackedOf(vals[1])
		hi, ok3 := sqlbackend.PackedOf(vals[2])
		if !ok1 || !ok2 || !ok3 {
			return false, nil
		}
		return lo <= p && p <= hi, nil
	}
	l, r := vals[0], vals[1]
	if l == nil || r == nil {
		if e.op == oddNullSafeEQ {
			return l == nil && r == nil, nil
		}
		return nil, nil
	}
	pl, okl := sqlbackend.PackedOf(l)
	pr, okr := sqlbackend.PackedOf(r)
	if !okl || !okr {
		return false, nil
	}
	return e.op.holds(sqlbackend.ComparePacked(pl, pr)), nil
}

// holds reports whether comparison op holds for two operands whose order
// is c (negative, zero, positive).
func (op oddOp) holds(c int) bool {
	switch op {
	case oddEQ, oddNullSafeEQ:
		return c == 0
	case oddLT:
		return c < 0
	case oddLE:
		return c <= 0
	case oddGT:
		return c > 0
	}
	return c >= 0
}

// shortcutEvaluated lets oddExpr and temporalArith answer from their
// operands' values where go-mysql-server would evaluate them again or
// take a slower way to the same value; TestEvaluatedShortcuts turns it
// off to compare.
var shortcutEvaluated = true

// comparedAsEvaluated answers a comparison from operands already
// evaluated, none of them an OddDate, where go-mysql-server's answer is
// known without evaluating them again: NULL when the left operand is NULL
// (MariaDB does not evaluate the right one either) or both were evaluated
// and one is NULL, and the order of two dates. ok is false when the
// expression must be evaluated as go-mysql-server does. (Its comparison
// of a NULL operand builds an error with a stack trace, which cost a
// tenth of a join that compared a nullable date per row.)
func (e *oddExpr) comparedAsEvaluated(vals []interface{}, done []bool) (v interface{}, ok bool) {
	if e.op == oddIn {
		return nil, done[0] && vals[0] == nil
	}
	if e.op > oddGE || len(vals) != 2 || !done[0] {
		return nil, false
	}
	l, r := vals[0], vals[1]
	switch {
	case e.op != oddNullSafeEQ && (l == nil || (done[1] && r == nil)):
		return nil, true
	case !done[1]:
		return nil, false
	case l == nil || r == nil: // <=>
		return l == nil && r == nil, true
	}
	lt, lok := l.(time.Time)
	rt, rok := r.(time.Time)
	if !lok || !rok {
		return nil, false
	}
	ch := e.Expression.Children()
	if gtypes.TypesEqual(ch[0].Type(), ch[1].Type()) && ch[0].Type().Type() == sqltypes.Date {
		// go-mysql-server compares two DATE operands by their days
		lt, rt = lt.Truncate(24*time.Hour), rt.Truncate(24*time.Hour)
	}
	return e.op.holds(lt.Compare(rt)), true
}

// compareIn is l IN r as MariaDB reads dates: true when an item equals
// l, NULL when none does and one is NULL, false otherwise.
func compareIn(l, r interface{}) (interface{}, error) {
	if l == nil {
		return nil, nil
	}
	pl, ok := sqlbackend.PackedOf(l)
	if !ok {
		return false, nil
	}
	items, isList := r.([]interface{})
	if !isList {
		items = []interface{}{r}
	}
	sawNull := false
	for _, it := range items {
		if it == nil {
			sawNull = true
			continue
		}
		if p, ok := sqlbackend.PackedOf(it); ok && p == pl {
			return true, nil
		}
	}
	if sawNull {
		return nil, nil
	}
	return false, nil
}

// cast converts an OddDate as CAST does in MariaDB: to a date type it
// stays itself (a DATE without its time of day), to a number it is its
// digits, to anything else its text, each then converted by
// go-mysql-server's CAST.
func (e *oddExpr) cast(ctx *sql.Context, o sqlbackend.OddDate) (interface{}, error) {
	t := e.Type()
	if dt, ok := t.(sql.DatetimeType); ok && gtypes.IsTime(t) {
		return o.AsColumn(dt), nil
	}
	var lit sql.Expression
	if gtypes.IsNumber(t) {
		switch n := o.Number().(type) {
		case int64:
			lit = expression.NewLiteral(n, gtypes.Int64)
		default:
			lit = expression.NewLiteral(n, gtypes.MustCreateDecimalType(65, o.Scale))
		}
	} else {
		lit = expression.NewLiteral(o.String(), gtypes.LongText)
	}
	ne, err := e.Expression.WithChildren(lit)
	if err != nil {
		return nil, err
	}
	return ne.Eval(ctx, nil)
}

// oddOut gives a date expression oddType, so that what orders or prints
// its values understands an OddDate. Its values are its child's.
type oddOut struct {
	child sql.Expression
}

var _ sql.Expression = (*oddOut)(nil)

func (o *oddOut) Resolved() bool             { return o.child.Resolved() }
func (o *oddOut) String() string             { return o.child.String() }
func (o *oddOut) Type() sql.Type             { return sqlbackend.OddTypeOf(o.child.Type()) }
func (o *oddOut) IsNullable() bool           { return o.child.IsNullable() }
func (o *oddOut) Children() []sql.Expression { return []sql.Expression{o.child} }
func (o *oddOut) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	return o.child.Eval(ctx, row)
}

// WithChildren keeps the wrapper.
func (o *oddOut) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(o, len(children), 1)
	}
	return &oddOut{child: children[0]}, nil
}

// oddTextExpr gives the dates of its child (of a date type) as MariaDB
// prints them (go-mysql-server's CONCAT appends 00:00:00 to a DATE and
// fails on an OddDate); its type is text, so a function that types its
// result as its argument (SUBSTRING) gives text too.
type oddTextExpr struct {
	child sql.Expression
}

var _ sql.Expression = (*oddTextExpr)(nil)

func (o *oddTextExpr) Resolved() bool             { return o.child.Resolved() }
func (o *oddTextExpr) String() string             { return o.child.String() }
func (o *oddTextExpr) Type() sql.Type             { return gtypes.LongText }
func (o *oddTextExpr) IsNullable() bool           { return o.child.IsNullable() }
func (o *oddTextExpr) Children() []sql.Expression { return []sql.Expression{o.child} }
func (o *oddTextExpr) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := o.child.Eval(ctx, row)
	return sqlbackend.PrintedDate(v, o.child.Type()), err
}

// WithChildren keeps the wrapper.
func (o *oddTextExpr) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(o, len(children), 1)
	}
	return &oddTextExpr{child: children[0]}, nil
}

// temporalNumber is a date, date-time or time as the number MariaDB
// reads it as in a numeric context (20200203, 20200203101112.5, 101112):
// the argument of SUM, AVG and the BIT_ aggregates, which
// go-mysql-server summed as Unix seconds (or as 0 for a TIME). Its type
// is an integer, or a DECIMAL with the value's fractional digits.
type temporalNumber struct {
	child sql.Expression
	typ   sql.Type
}

var _ sql.Expression = (*temporalNumber)(nil)

// isYear reports a YEAR type.
func isYear(t sql.Type) bool { return t.Type() == sqltypes.Year }

// numberOf is a date, time or YEAR expression as its number: a YEAR as a
// signed integer, the others as temporalNumber.
func numberOf(e sql.Expression) sql.Expression {
	if isYear(e.Type()) {
		return expression.NewConvert(e, expression.ConvertToSigned)
	}
	return newTemporalNumber(e)
}

// isTemporal reports a DATE, DATETIME, TIMESTAMP or TIME type.
func isTemporal(t sql.Type) bool {
	return isDateType(t) || isTimeType(t) || gtypes.IsTimespan(t)
}

// newTemporalNumber wraps a temporal expression.
func newTemporalNumber(c sql.Expression) *temporalNumber {
	t := c.Type()
	scale, digits := 0, 8 // DATE
	switch {
	case isTimeType(t):
		scale, digits = int(t.(sqlbackend.TimeType).Scale), 7
	case gtypes.IsTimespan(t):
		digits = 7
	case t.Type() != sqltypes.Date:
		digits = 14
		if dt, ok := t.(sql.DatetimeType); ok {
			scale = dt.Precision()
		}
	}
	typ := sql.Type(gtypes.Int64)
	if scale > 0 {
		typ = gtypes.MustCreateDecimalType(uint8(digits+scale), uint8(scale))
	}
	return &temporalNumber{child: c, typ: typ}
}

func (n *temporalNumber) Resolved() bool             { return n.child.Resolved() }
func (n *temporalNumber) String() string             { return n.child.String() }
func (n *temporalNumber) Type() sql.Type             { return n.typ }
func (n *temporalNumber) IsNullable() bool           { return n.child.IsNullable() }
func (n *temporalNumber) Children() []sql.Expression { return []sql.Expression{n.child} }

// WithChildren keeps the wrapper.
func (n *temporalNumber) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 1)
	}
	return newTemporalNumber(children[0]), nil
}

// Eval gives the child's value as its number.
func (n *temporalNumber) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := n.child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	var num interface{}
	switch x := v.(type) {
	case sqlbackend.OddDate:
		num = x.Number()
	case time.Time:
		num = sqlbackend.OddDateOf(x, n.child.Type()).Number()
	case gtypes.Timespan:
		tt, _ := n.child.Type().(sqlbackend.TimeType)
		num = timeNumberOrText(x, tt, false)
	default:
		return nil, nil // (a value a temporal column does not hold)
	}
	out, _, err := n.typ.Convert(ctx, num)
	return out, err
}
