package sqlbackend

import (
	"math"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	"github.com/dolthub/go-mysql-server/sql/types"
)

// A PlanTemplate is the analyzed plan of a prepared statement made
// reusable for other values of its parameters: the analysis of one
// execution, with a note of where each parameter's value went. The
// planner puts a parameter in three places: the literal expression the
// binder made for it (kept as is wherever an expression of the plan holds
// it), copies of that literal converted to a column's type (the binder
// makes one for a comparison with a column of a congruent type, the
// analysis one for a condition it derives), and the bounds of the static
// index lookups it derived from comparisons with that literal (a value
// converted to the indexed column's type). Instantiate puts another
// execution's literals in the first places, their values converted to
// each copy's type in the second and to each bound's in the third, and
// rebuilds the lookups' ranges.
//
// NewPlanTemplate refuses a plan in which a parameter's value could have
// gone anywhere else:
//   - the plan must pass ReusablePlan;
//   - every parameter must be found in one of the three places (a value
//     the analysis folded into another literal is found in none); a
//     literal is taken for a copy only when every parameter stands where
//     nothing is computed from it (see directParams) and exactly one
//     parameter has its value;
//   - a lookup bound may stand for a parameter only when no parameter
//     reaches the analysis under anything but a comparison with a column
//     (a bound computed from a parameter, as from id = ? + 1, is then
//     impossible), when the bound's column and the parameter are both of
//     integer types (their conversion is exact or fails), and when it is
//     equal to exactly one parameter's converted value;
//   - a plan with lookup bounds is refused when a parameter compared with
//     a column is not an integer (a bound it made, rounded or converted,
//     would not be told apart from a constant);
//   - no subquery (its plan is not walked here).
//
// A bound or copy equal to a parameter's value by coincidence (id
// BETWEEN ? AND 10 run with 10) is not told apart from one made from it:
// the caller must confirm a template against a second, independent
// analysis of an execution whose parameter values all differ from the
// template's before it uses it (TemplateLearner does, for sqlfront's
// prepared statements and storedprog's functions).
//
// A template is immutable and safe for concurrent use; Instantiate
// returns a new plan sharing the nodes no parameter reaches, so two
// instances must not run at the same time (ReusablePlan's reset clears
// the shared nodes' state before a run).
type PlanTemplate struct {
	plan   sql.Node
	params int
	lits   map[*expression.Literal]int // a parameter's literal in plan -> its index
	itas   map[*plan.IndexedTableAccess]*lookupSlots
	// autoInc is the column of an INSERT's rows that is the table's
	// AUTO_INCREMENT column, when the statement gives it (-1 if not)
	autoInc int
	slotted []bool // the parameters that are lookup bounds
	// copies are the literals in plan that are a parameter's value
	// converted to their type, by the binder (a literal compared with a
	// column of a congruent type takes the column's type) or by the
	// analysis (a condition derived from another); copied marks those
	// parameters
	copies map[*expression.Literal]sql.Type
	copied []bool
}

// InLookup reports whether parameter i is a bound of an index lookup or
// has copies (a confirmation must see it take another value; see
// PlanTemplate).
func (t *PlanTemplate) InLookup(i int) bool { return t.slotted[i] || t.copied[i] }

// lookupSlots says which bounds of one static lookup are parameters.
type lookupSlots struct {
	lookup sql.IndexLookup
	ranges sql.MySQLRangeCollection
	// slots[r][c] is the parameter of range r's column c: lower, upper
	// (-1 for a constant bound).
	slots [][][2]int
}

// A RowwiseExpression (the dialect's wrappers) computes its value from its
// children's values at each evaluation and keeps nothing computed from
// them, so that a plan template may put other values in the literals
// under it.
type RowwiseExpression interface {
	sql.Expression
	Rowwise()
}

// BoundPlan is the binder's plan of one execution with the constants of
// the statement's text in it (the literals that are not the parameters'),
// noted before the analysis, which may change the plan's nodes in place
// and put copies of a parameter's literal in them.
type BoundPlan struct {
	node  sql.Node
	texts []*expression.Literal
}

// Bound notes the binder's plan of an execution whose parameters were
// params (the binder's literal of each, in order); call it before the
// plan is analyzed.
func Bound(bound sql.Node, params []*expression.Literal) BoundPlan {
	b := BoundPlan{node: bound}
	transform.InspectExpressions(bound, func(e sql.Expression) bool {
		if lit, ok := e.(*expression.Literal); ok && !slices.Contains(params, lit) {
			b.texts = append(b.texts, lit)
		}
		return true
	})
	return b
}

// NewPlanTemplate makes the template of analyzed, the analysis of bound
// (Bound of the binder's plan of the same execution) whose parameters
// were params (the binder's literal of each, in order). ok is false when
// the plan cannot be made a template (see PlanTemplate); byValues then
// says whether other values of the parameters might make one (two of them
// equal, a lookup or table found empty).
func NewPlanTemplate(ctx *sql.Context, bp BoundPlan, analyzed sql.Node, params []*expression.Literal) (t *PlanTemplate, ok, byValues bool) {
	bound, texts := bp.node, bp.texts
	if _, ok := ReusablePlan(analyzed); !ok {
		return nil, false, false
	}
	index := make(map[*expression.Literal]int, len(params))
	for i, p := range params {
		if p == nil {
			return nil, false, false
		}
		if _, dup := index[p]; dup {
			return nil, false, false
		}
		index[p] = i
	}
	direct, compared, ok := directParams(bound, index)
	if !ok {
		return nil, false, false
	}
	t = &PlanTemplate{plan: analyzed, params: len(params), lits: map[*expression.Literal]int{}, itas: map[*plan.IndexedTableAccess]*lookupSlots{}, autoInc: -1, slotted: make([]bool, len(params)), copies: map[*expression.Literal]sql.Type{}, copied: make([]bool, len(params))}
	found := make([]bool, len(params))
	refused := false
	// walk notes the parameters under e; safe says whether every
	// expression above e keeps nothing computed from its children
	var walk func(e, parent sql.Expression, safe bool)
	walk = func(e, parent sql.Expression, safe bool) {
		switch e := e.(type) {
		case *plan.Subquery:
			refused = true
			return
		case *expression.Literal:
			i, ok := index[e]
			if !ok && direct && directParent(e, parent) == operand {
				// a copy stands where the binder or the analysis compares
				// a parameter with a column
				if i, ok = derivedParam(e, params); ok {
					t.copies[e] = e.Type()
					t.copied[i] = true
				}
			}
			if ok {
				if !safe {
					refused = true
					return
				}
				t.lits[e] = i
				found[i] = true
			}
		}
		safe = safe && keepsNothing(e)
		for _, c := range e.Children() {
			walk(c, e, safe)
		}
	}
	var visit func(n sql.Node) bool
	visit = func(n sql.Node) bool {
		if refused {
			return false
		}
		if ii, ok := n.(*plan.InsertInto); ok {
			if t.autoInc, ok = insertAutoInc(ctx, ii, index); !ok {
				refused = true
				return false
			}
			transform.Inspect(ii.Source, visit)
		}
		if _, ok := n.(*plan.EmptyTable); ok {
			// emptiness the analysis may have proved from this
			// execution's values
			refused, byValues = true, true
			return false
		}
		if ex, ok := n.(sql.Expressioner); ok {
			for _, e := range ex.Expressions() {
				walk(e, nil, true)
			}
		}
		ita, ok := n.(*plan.IndexedTableAccess)
		if !ok || !ita.IsStatic() {
			return !refused
		}
		ls, ok, values := slotLookup(ctx, ita, params, compared, texts, direct, t.slotted)
		if !ok {
			refused, byValues = true, values
			return false
		}
		if ls != nil {
			t.itas[ita] = ls
			for i, sl := range t.slotted {
				found[i] = found[i] || sl
			}
		}
		return true
	}
	transform.Inspect(analyzed, visit)
	if refused {
		return nil, false, byValues
	}
	for _, f := range found {
		if !f {
			// folded into the plan, or (with lookups) dropped with a
			// range this execution's values made empty or merged
			return nil, false, len(t.itas) > 0
		}
	}
	return t, true, false
}

// derivedParam returns the parameter a literal of the plan that is not
// one of the binder's is a copy of: the binder converts a literal
// compared with a column of a congruent type to the column's type, and
// the analysis copies one where it derives a condition from it (from i.id
// = ? and r.inventory_id = i.id, r.inventory_id = ?). It is the one
// parameter of the literal's value (integers compared as numbers); the
// caller asks only for a literal compared with a column, where copies
// stand (a constant among VALUES equal to a parameter is not one). A
// constant of the text that has the value by coincidence is told apart by
// the confirmation, which sees the parameter take another value.
func derivedParam(lit *expression.Literal, params []*expression.Literal) (int, bool) {
	v := lit.Value()
	if v == nil || !comparable(v) {
		return 0, false
	}
	found := -1
	for i, p := range params {
		if pv := p.Value(); pv != nil && comparable(pv) && sameNumberOrValue(pv, v) {
			if found >= 0 {
				return 0, false
			}
			found = i
		}
	}
	return found, found >= 0
}

// sameNumberOrValue is sameValue, with integers of any Go type compared as
// numbers.
func sameNumberOrValue(a, b any) bool {
	if x, ok := asInt(a); ok {
		y, ok := asInt(b)
		return ok && x == y
	}
	return sameValue(a, b)
}

// asInt returns an integer value as an int64 with its sign (ok false for
// any other value, and for a uint64 above the int64 range, which WideInt
// would clip).
func asInt(v any) (int64, bool) {
	if u, ok := v.(uint64); ok && u > math.MaxInt64 {
		return 0, false
	}
	return WideInt(v)
}

// comparable reports whether a literal's value compares with == (a byte
// string is compared as a string).
func comparable(v any) bool {
	switch v.(type) {
	case []byte, string, bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float32, float64:
		return true
	}
	return false
}

// directParams reports whether every parameter's literal in bound is an
// operand of a comparison with a column or appears only where no lookup
// is made from (a select list, LIMIT, a SET's value, VALUES), and which
// parameters are such operands; ok is false when bound holds a subquery.
func directParams(bound sql.Node, index map[*expression.Literal]int) (direct bool, compared []bool, ok bool) {
	direct, ok = true, true
	compared = make([]bool, len(index))
	var walk func(e, parent sql.Expression)
	walk = func(e, parent sql.Expression) {
		switch x := e.(type) {
		case *plan.Subquery:
			ok = false
			return
		case *expression.Literal:
			if i, isParam := index[x]; isParam {
				switch directParent(x, parent) {
				case operand:
					compared[i] = true
				case elsewhere:
					direct = false
				}
			}
		}
		for _, c := range e.Children() {
			if tup, isTuple := c.(expression.Tuple); isTuple {
				if in, isIn := e.(*expression.InTuple); isIn && isColumn(in.Left()) {
					// an IN list's members are compared with the column
					for _, m := range tup {
						walk(m, e)
					}
					continue
				}
			}
			walk(c, e)
		}
	}
	transform.Inspect(bound, func(n sql.Node) bool {
		if ex, isEx := n.(sql.Expressioner); isEx {
			for _, e := range ex.Expressions() {
				walk(e, nil)
			}
		}
		return ok
	})
	return direct, compared, ok
}

// paramPlace is where a parameter's literal stands.
type paramPlace int

const (
	elsewhere paramPlace = iota // under an expression that may compute from it
	operand                     // compared with a column
	value                       // a value no lookup is made from
)

// directParent says where lit under parent stands: the operand of a
// comparison whose other side is a column or a member of a column's IN
// list; a value (under no expression, an alias, the value a SET assigns);
// or elsewhere.
func directParent(lit *expression.Literal, parent sql.Expression) paramPlace {
	switch p := parent.(type) {
	case nil, *expression.Alias:
		return value
	case *expression.SetField:
		if p.RightChild == sql.Expression(lit) {
			return value
		}
	case *expression.Equals, *expression.NullSafeEquals, *expression.LessThan, *expression.LessThanOrEqual,
		*expression.GreaterThan, *expression.GreaterThanOrEqual:
		c := p.(expression.Comparer)
		if isColumn(c.Left()) || isColumn(c.Right()) {
			return operand
		}
	case *expression.Between:
		if isColumn(p.Val) && p.Val != sql.Expression(lit) {
			return operand
		}
	case *expression.InTuple:
		if isColumn(p.Left()) {
			return operand
		}
	}
	return elsewhere
}

func isColumn(e sql.Expression) bool {
	_, ok := e.(*expression.GetField)
	return ok
}

// slotLookup notes which bounds of ita's static lookup are parameters,
// marking those parameters found; nil when none is. ok is false when the
// lookup cannot be instantiated, byValues as NewPlanTemplate's.
func slotLookup(ctx *sql.Context, ita *plan.IndexedTableAccess, params []*expression.Literal, compared []bool, texts []*expression.Literal, direct bool, found []bool) (ls *lookupSlots, ok, byValues bool) {
	lookup := plan.GetIndexLookup(ita)
	ranges, isMySQL := lookup.Ranges.(sql.MySQLRangeCollection)
	if !isMySQL || lookup.IsSpatialLookup || lookup.VectorOrderAndLimit.OrderBy != nil {
		return nil, false, false
	}
	if lookup.IsEmptyRange {
		return nil, false, true
	}
	ls = &lookupSlots{lookup: lookup, ranges: ranges, slots: make([][][2]int, len(ranges))}
	slotted := false
	intParams := true // every parameter compared with a column is an integer
	for i, lit := range params {
		if compared[i] && !types.IsInteger(lit.Type()) {
			intParams = false
		}
	}
	for r, rng := range ranges {
		ls.slots[r] = make([][2]int, len(rng))
		for c, col := range rng {
			for b, cut := range []sql.MySQLRangeCut{col.LowerBound, col.UpperBound} {
				key, hasKey := cutKey(cut)
				ls.slots[r][c][b] = -1
				if !hasKey {
					continue
				}
				p := -1
				for i, lit := range params {
					v, ok := convertKey(ctx, col.Typ, lit)
					if ok && v == key {
						if p >= 0 {
							return nil, false, true // two parameters of one value
						}
						p = i
					}
				}
				if p < 0 {
					// a constant of the statement's text, unless a
					// parameter of another type could have made it
					if !intParams {
						return nil, false, false
					}
					if !isText(ctx, col.Typ, key, texts) {
						// made from a parameter out of the column's
						// range, or computed from constants
						return nil, false, true
					}
					continue
				}
				if !direct {
					return nil, false, false
				}
				ls.slots[r][c][b] = p
				found[p] = true
				slotted = true
			}
		}
	}
	if !slotted {
		return nil, true, false
	}
	return ls, true, false
}

// cutKey returns the value of a bound that has one.
func cutKey(c sql.MySQLRangeCut) (any, bool) {
	switch c := c.(type) {
	case sql.Above:
		return c.Key, true
	case sql.Below:
		return c.Key, true
	}
	return nil, false
}

// withKey returns the bound c with another value.
func withKey(c sql.MySQLRangeCut, key any) sql.MySQLRangeCut {
	switch c.(type) {
	case sql.Above:
		return sql.Above{Key: key}
	case sql.Below:
		return sql.Below{Key: key}
	}
	return c
}

// convertKey converts a parameter's value to an integer column's type as
// the planner does for a lookup bound; ok is false unless both are
// integers and the value is in the column's range.
func convertKey(ctx *sql.Context, col sql.Type, lit *expression.Literal) (any, bool) {
	if !types.IsInteger(col) || !types.IsInteger(lit.Type()) {
		return nil, false
	}
	lv, err := lit.Eval(ctx, nil)
	if err != nil {
		return nil, false
	}
	v, inRange, err := col.Convert(ctx, lv)
	if err != nil || inRange != sql.InRange {
		return nil, false
	}
	return v, true
}

// Instantiate returns the template's plan for another execution's
// parameter literals (the binder's, in order). A lookup's ranges are
// rebuilt as the planner builds them: the empty ones dropped, the others
// merged where they overlap and sorted. ok is false when this execution's
// values would not give a plan of the same shape (a bound out of its
// column's range, every range of a lookup empty): the statement must
// then be analyzed as usual.
func (t *PlanTemplate) Instantiate(ctx *sql.Context, params []*expression.Literal) (n sql.Node, ok bool, err error) {
	if len(params) != t.params {
		return nil, false, nil
	}
	ok = true
	var f transform.NodeFunc
	f = func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if !ok {
			return n, transform.SameTree, nil
		}
		if ii, isInsert := n.(*plan.InsertInto); isInsert {
			src, _, err := transform.Node(ii.Source, f)
			if err != nil || !ok {
				return n, transform.SameTree, err
			}
			if t.autoInc >= 0 && firstGenerated(ctx, src, t.autoInc) != ii.FirstGeneratedAutoIncRowIdx {
				// LAST_INSERT_ID would come from another row
				ok = false
				return n, transform.SameTree, nil
			}
			n = ii.WithSource(src)
		}
		if ita, isITA := n.(*plan.IndexedTableAccess); isITA {
			if ls := t.itas[ita]; ls != nil {
				var nita sql.Node
				nita, ok, err = ls.instantiate(ctx, ita, params)
				if err != nil || !ok {
					return n, transform.SameTree, err
				}
				return nita, transform.NewTree, nil
			}
		}
		if _, isEx := n.(sql.Expressioner); !isEx || len(t.lits) == 0 {
			return n, transform.SameTree, nil
		}
		return transform.OneNodeExprsWithNode(n, func(_ sql.Node, e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			if lit, isLit := e.(*expression.Literal); isLit {
				if i, isParam := t.lits[lit]; isParam {
					typ, isCopy := t.copies[lit]
					if !isCopy {
						return params[i], transform.NewTree, nil
					}
					v, _, err := typ.Convert(ctx, params[i].Value())
					if err != nil {
						ok = false
						return e, transform.SameTree, nil
					}
					return expression.NewLiteral(v, typ), transform.NewTree, nil
				}
			}
			return e, transform.SameTree, nil
		})
	}
	n, _, err = transform.Node(t.plan, f)
	if err != nil || !ok {
		return nil, false, err
	}
	return n, true, nil
}

// insertAutoInc returns the position in ii's rows of the destination's
// AUTO_INCREMENT column when the statement gives it, -1 otherwise; ok is
// false for a source other than VALUES or a parameter in that column that
// is not an integer (whether it asks for a generated value is then more
// than a test of zero).
func insertAutoInc(ctx *sql.Context, ii *plan.InsertInto, index map[*expression.Literal]int) (col int, ok bool) {
	vals := insertValues(ii.Source)
	if vals == nil {
		return -1, false
	}
	name := ""
	for _, c := range ii.Destination.Schema() {
		if c.AutoIncrement {
			name = c.Name
		}
	}
	if name == "" {
		return -1, true
	}
	col = -1
	for i, cn := range ii.ColumnNames {
		if strings.EqualFold(cn, name) {
			col = i
		}
	}
	if len(ii.ColumnNames) == 0 {
		for i, c := range ii.Destination.Schema() {
			if c.Name == name {
				col = i
			}
		}
	}
	if col < 0 {
		return -1, true
	}
	for _, tup := range vals.ExpressionTuples {
		if col >= len(tup) {
			return -1, false
		}
		if lit, isLit := tup[col].(*expression.Literal); isLit {
			if _, isParam := index[lit]; isParam && !types.IsInteger(lit.Type()) && !types.IsNull(lit) {
				return -1, false
			}
		}
	}
	return col, true
}

// insertValues returns the VALUES under an INSERT's source projection.
func insertValues(src sql.Node) *plan.Values {
	for {
		switch n := src.(type) {
		case *plan.Values:
			return n
		case *plan.Project:
			src = n.Child
		default:
			return nil
		}
	}
}

// firstGenerated returns the first row of src whose AUTO_INCREMENT column
// col asks for a generated value (DEFAULT, NULL, or 0 unless
// NO_AUTO_VALUE_ON_ZERO), as the planner sets LAST_INSERT_ID's row; -1
// if none does.
func firstGenerated(ctx *sql.Context, src sql.Node, col int) int {
	vals := insertValues(src)
	if vals == nil {
		return -2
	}
	zeroGenerates := !SessionSQLMode(ctx).ModeEnabled(sql.NoAutoValueOnZero)
	for i, tup := range vals.ExpressionTuples {
		e := tup[col]
		if w, ok := e.(*expression.Wrapper); ok {
			e = w.Unwrap()
		}
		switch e := e.(type) {
		case *sql.ColumnDefaultValue:
			return i
		case *expression.Literal:
			if types.IsNull(e) {
				return i
			}
			if zeroGenerates && types.IsNumber(e.Type()) {
				if v, inRange, err := types.Int8.Convert(ctx, e.Value()); err == nil && bool(inRange) && v == int8(0) {
					return i
				}
			}
		}
	}
	return -1
}

// instantiate returns ita with its lookup's parameter bounds replaced.
func (ls *lookupSlots) instantiate(ctx *sql.Context, ita *plan.IndexedTableAccess, params []*expression.Literal) (sql.Node, bool, error) {
	ranges := make([]sql.MySQLRange, 0, len(ls.ranges))
	for r, rng := range ls.ranges {
		nr := make(sql.MySQLRange, len(rng))
		for c, col := range rng {
			nc := col
			for b := 0; b < 2; b++ {
				p := ls.slots[r][c][b]
				if p < 0 {
					continue
				}
				key, ok := convertKey(ctx, col.Typ, params[p])
				if !ok {
					return nil, false, nil
				}
				if b == 0 {
					nc.LowerBound = withKey(col.LowerBound, key)
				} else {
					nc.UpperBound = withKey(col.UpperBound, key)
				}
			}
			nr[c] = nc
		}
		empty, err := nr.IsEmpty()
		if err != nil {
			return nil, false, err
		}
		if !empty {
			ranges = append(ranges, nr)
		}
	}
	if len(ranges) == 0 {
		return nil, false, nil // the analysis would make an empty table
	}
	// the lookup reads the union of its ranges: merged and sorted as the
	// planner leaves them
	coll, err := mergeRanges(ranges)
	if err != nil {
		return nil, false, err
	}
	lookup := ls.lookup
	if lookup.IsReverse {
		for i, j := 0, len(coll)-1; i < j; i, j = i+1, j-1 {
			coll[i], coll[j] = coll[j], coll[i]
		}
	}
	lookup.Ranges = coll
	nita, err := plan.NewStaticIndexedAccessForTableNode(ctx, ita.TableNode, lookup)
	if err != nil {
		return nil, false, err
	}
	return nita.WithId(ita.Id()).WithColumns(ita.Columns()), true, nil
}

// mergeRanges returns the union of ranges as sql.RemoveOverlappingRanges
// does: connected ranges merged, in ascending order. Ranges over one
// column (every lookup of one column: a random-ranges statement ORs ten
// BETWEENs) are sorted and swept, which cost a tenth of go-mysql-server's
// range tree (11% of select_random_ranges' profile); others go to
// RemoveOverlappingRanges. TestMergeRanges compares the two.
func mergeRanges(ranges []sql.MySQLRange) (sql.MySQLRangeCollection, error) {
	for _, r := range ranges {
		if len(r) != 1 {
			return sql.RemoveOverlappingRanges(ranges...)
		}
	}
	typ := ranges[0][0].Typ
	var err error
	cmp := func(a, b sql.MySQLRangeCut) int {
		c, cerr := a.Compare(b, typ)
		if cerr != nil && err == nil {
			err = cerr
		}
		return c
	}
	sorted := slices.Clone(ranges)
	slices.SortFunc(sorted, func(a, b sql.MySQLRange) int {
		if c := cmp(a[0].LowerBound, b[0].LowerBound); c != 0 {
			return c
		}
		return cmp(a[0].UpperBound, b[0].UpperBound)
	})
	out := make(sql.MySQLRangeCollection, 0, len(sorted))
	cur := sorted[0][0]
	for _, r := range sorted[1:] {
		next := r[0]
		if cmp(next.LowerBound, cur.UpperBound) <= 0 {
			if cmp(next.UpperBound, cur.UpperBound) > 0 {
				cur.UpperBound = next.UpperBound
			}
			continue
		}
		out = append(out, sql.MySQLRange{cur})
		cur = next
	}
	out = append(out, sql.MySQLRange{cur})
	return out, err
}

// isText reports whether key is the value of one of the statement's
// constants converted to an integer column's type.
func isText(ctx *sql.Context, col sql.Type, key any, texts []*expression.Literal) bool {
	for _, lit := range texts {
		if v, ok := convertKey(ctx, col, lit); ok && v == key {
			return true
		}
	}
	return false
}

// keepsNothing reports whether e computes nothing from its children when
// it is made (a parameter under it may be replaced by another value):
// true of the comparisons, logic and arithmetic a statement's parameters
// meet; false of anything else, as an IN list hashed by the analysis.
func keepsNothing(e sql.Expression) bool {
	if _, ok := e.(RowwiseExpression); ok {
		return true
	}
	switch e.(type) {
	case *expression.Equals, *expression.NullSafeEquals, *expression.LessThan, *expression.LessThanOrEqual,
		*expression.GreaterThan, *expression.GreaterThanOrEqual, *expression.Between, *expression.InTuple,
		expression.Tuple, *expression.Alias, *expression.And, *expression.Or, *expression.Not,
		*expression.Arithmetic, *expression.IsNull, *expression.GetField, *expression.Literal, *expression.SetField,
		*storeValue: // converts its child's value at each row (store.go)
		return true
	}
	return false
}
