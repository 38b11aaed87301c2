package mariadb

import (
	"io"
	"math"
	"reflect"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/expression/function/aggregation"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	"github.com/shopspring/decimal"
)

// Exact SUM and AVG.
//
// MySQL and MariaDB sum DECIMAL and integer arguments exactly, as DECIMAL:
// SUM keeps the argument's scale and widens its precision by 22 digits,
// AVG adds div_precision_increment (4) digits to both. go-mysql-server
// sums integers as float64, keeps the argument's type for SUM of DECIMAL,
// rounds AVG by the value's own exponent, and types every SUM and AVG
// column as DOUBLE (84.8 for 84.80, 5.043478260869565 for 5.0435).
//
// exactAggregatesRule (run before the validation rules) replaces
// go-mysql-server's SUM and AVG, grouped or windowed, whose argument is
// DECIMAL, an integer or YEAR by exactAgg, and gives the columns that
// carry their results (the GetFields above them, aliases, the columns of
// derived tables and views, UNION columns, see exactSetOp) the DECIMAL
// type, so clients see NEWDECIMAL with MySQL's precision and scale. Other
// arguments (FLOAT, DOUBLE, strings, dates) keep go-mysql-server's
// DOUBLE. Not covered: CREATE TABLE ... AS SELECT takes its column types
// from the plan before the rule (DOUBLE, as before).
//
// The rule is a pure function of the plan; exactAgg and exactConvert
// values are immutable and each buffer or window function an exactAgg
// makes serves one aggregation at a time, as go-mysql-server's do.

// Limits of the DECIMAL results (go-mysql-server's DECIMAL allows 30
// digits of scale where MariaDB allows 38).
const (
	sumPrecisionIncrement = 22 // DECIMAL_LONGLONG_DIGITS
	divPrecisionIncrement = 4  // div_precision_increment's default
	decimalWordDigits     = 9  // the digits of one word of MySQL's decimal arithmetic
)

func exactAggregatesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return exactAggregates(n, map[sql.ColumnId]sql.Type{})
}

// exactAggregates rewrites the plan bottom-up. retyped maps the column
// ids whose type became DECIMAL to that type; GetFields with those ids are
// given it (they reference nodes below them, visited first).
func exactAggregates(n sql.Node, retyped map[sql.ColumnId]sql.Type) (sql.Node, transform.TreeIdentity, error) {
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		// The planner's own Projects over a UNION side read their input by
		// position, with GetFields typed DOUBLE for a SUM or AVG (of id 0,
		// or of an id the rule has not seen).
		var below sql.Schema
		if p, ok := n.(*plan.Project); ok {
			below = p.Child.Schema()
		}
		nn, same, err := transform.OneNodeExpressions(n, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			return transform.Expr(e, func(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
				switch e := e.(type) {
				case *aggregation.BitAnd, *aggregation.BitOr, *aggregation.BitXor:
					return temporalArgument(e)
				case *aggregation.Sum, *aggregation.Avg, *aggregation.StdDevPop, *aggregation.StdDevSamp,
					*aggregation.VarPop, *aggregation.VarSamp:
					if te, same, err := temporalArgument(e); err != nil {
						return nil, transform.SameTree, err
					} else if !same {
						e = te
					}
					ea, ok := newExactAgg(e.(sql.Aggregation))
					if !ok {
						return e, transform.SameTree, nil
					}
					if id := ea.Id(); id != 0 {
						retyped[id] = ea.typ
					}
					return ea, transform.NewTree, nil
				case *expression.GetField:
					t, ok := retyped[e.Id()]
					if e.Id() == 0 || !ok {
						t, ok = positionalType(e, below)
					}
					if !ok || e.Type().Equals(t) {
						return e, transform.SameTree, nil
					}
					gf := expression.NewGetFieldWithTable(e.Index(), int(e.TableId()), t, e.Database(), e.Table(), e.Name(), e.IsNullable())
					return gf.WithId(e.Id()), transform.NewTree, nil
				case *expression.Alias:
					if e.Id() != 0 {
						if _, ok := retyped[e.Id()]; !ok && retypedBelow(e.Child, retyped) {
							retyped[e.Id()] = e.Type()
						}
					}
					return e, transform.SameTree, nil
				case *aggregation.Max, *aggregation.Min, *aggregation.First, *aggregation.Last, *aggregation.AnyValue:
					// Typed by their argument: one read through a retyped
					// column passes the new type on to the readers of
					// its result.
					if ie, ok := e.(sql.IdExpression); ok && ie.Id() != 0 {
						if _, done := retyped[ie.Id()]; !done && retypedBelow(e, retyped) {
							retyped[ie.Id()] = e.Type()
						}
					}
					return e, transform.SameTree, nil
				case *plan.Subquery:
					q, same, err := exactAggregates(e.Query, retyped)
					if err != nil || same {
						return e, transform.SameTree, err
					}
					return e.WithQuery(q), transform.NewTree, nil
				}
				return e, transform.SameTree, nil
			})
		})
		if err != nil {
			return nil, transform.SameTree, err
		}
		if u, ok := nn.(*plan.SetOp); ok {
			fixed, err := exactSetOp(u, retyped)
			if err != nil {
				return nil, transform.SameTree, err
			}
			if fixed != nil {
				return fixed, transform.NewTree, nil
			}
		}
		if sq, ok := nn.(*plan.SubqueryAlias); ok {
			// The columns of a derived table or view: the outer query's
			// GetFields were typed when the inner SUM was still DOUBLE,
			// and, over a UNION, with the first SELECT's types (a
			// TINYINT's 127 for the 693 of a later SELECT): numbers
			// take the union's type (other types keep theirs: the
			// UNION ALL that stands for WITH ROLLUP gives an ENUM
			// column, NULL in its total rows, a text type, which would
			// sort its groups by name).
			sch := sq.Schema()
			cols := sq.Columns()
			union := unionBelow(sq.Child)
			if cols.Len() == len(sch) {
				i := 0
				cols.ForEach(func(id sql.ColumnId) {
					if gmstypes.IsDecimal(sch[i].Type) || union && gmstypes.IsNumber(sch[i].Type) {
						if _, ok := retyped[id]; !ok {
							retyped[id] = sch[i].Type
						}
					}
					i++
				})
			}
		}
		return nn, same, nil
	})
}

// unionBelow reports whether n is a UNION, INTERSECT or EXCEPT, under
// the nodes that keep its columns (projection, sort, limit, distinct).
func unionBelow(n sql.Node) bool {
	for {
		switch x := n.(type) {
		case *plan.SetOp:
			return true
		case *plan.Project, *plan.Sort, *plan.Limit, *plan.Offset, *plan.Distinct, *plan.TopN:
			n = x.Children()[0]
		default:
			return false
		}
	}
}

// exactSetOp: go-mysql-server gives both sides of a UNION one type per
// column when it plans them, converting where they differ; a SUM or AVG
// that was DOUBLE on both sides may now be two DECIMALs of different
// scale, or a DECIMAL and a DOUBLE. exactSetOp converts both sides of such
// columns to the type MySQL gives the union (the wider DECIMAL, or DOUBLE)
// with a Project over each side, as the planner does, and records the new
// type of the union's columns. It returns nil when no column needs it or
// the sides' column ids are not known.
func exactSetOp(u *plan.SetOp, retyped map[sql.ColumnId]sql.Type) (sql.Node, error) {
	nu, err := numericUnionColumns(u, retyped)
	if err != nil {
		return nil, err
	}
	if nu != nil {
		u = nu
	}
	ls, rs := u.Left().Schema(), u.Right().Schema()
	if len(ls) != len(rs) {
		return nil, nil
	}
	common := make([]sql.Type, len(ls))
	need := false
	for i := range ls {
		lt, rt := ls[i].Type, rs[i].Type
		if gmstypes.IsDecimal(lt) && gmstypes.IsDecimal(rt) {
			// The planner converts an integer and a DECIMAL side both to
			// DECIMAL(65,30) (1 UNION 2.25 printed 1 and 2.25, with 30
			// decimals in its field); MariaDB's type is the DECIMAL
			// that holds both, DECIMAL(3,2) there (1.00 and 2.25).
			ol, lconv := convertedFrom(u.Left(), i)
			or, rconv := convertedFrom(u.Right(), i)
			if lconv && ol == nil || rconv && or == nil {
				continue // a DOUBLE or text side: the planner's type stays
			}
			if ol != nil || or != nil {
				if ol == nil {
					ol = lt
				}
				if or == nil {
					or = rt
				}
				if t := unionType(ol, or); t != nil && (!reflect.DeepEqual(t, lt) || !reflect.DeepEqual(t, rt)) {
					common[i], need = t, true
				}
				continue
			}
		}
		if reflect.DeepEqual(lt, rt) || (!gmstypes.IsDecimal(lt) && !gmstypes.IsDecimal(rt)) {
			continue
		}
		common[i] = unionType(lt, rt)
		if common[i] == nil {
			return nil, nil
		}
		need = true
	}
	if !need {
		if nu != nil {
			return nu, nil
		}
		return nil, nil
	}
	leftIds, rightIds := sideColumnIds(u.Left(), len(ls)), sideColumnIds(u.Right(), len(rs))
	side := func(sch sql.Schema, ids []sql.ColumnId) []sql.Expression {
		exprs := make([]sql.Expression, len(sch))
		for i, c := range sch {
			gf := expression.NewGetFieldWithTable(i, 0, c.Type, c.DatabaseSource, c.Source, c.Name, c.Nullable).WithId(ids[i]).(sql.Expression)
			if common[i] == nil {
				exprs[i] = gf
				continue
			}
			exprs[i] = expression.NewAlias(c.Name, &exactConvert{child: gf, typ: common[i]}).WithId(ids[i]).(sql.Expression)
		}
		return exprs
	}
	for i, t := range common {
		if t != nil && leftIds[i] != 0 {
			retyped[leftIds[i]] = t
		}
	}
	left, err := widenUnionAvgs(u.Left(), leftIds, common)
	if err != nil {
		return nil, err
	}
	right, err := widenUnionAvgs(u.Right(), rightIds, common)
	if err != nil {
		return nil, err
	}
	return u.WithChildren(plan.NewProject(side(ls, leftIds), left), plan.NewProject(side(rs, rightIds), right))
}

// convertedFrom is the type column i of a UNION side had before the
// planner converted it to the union's DECIMAL (the side a Project of
// Alias(Convert(x)) there): x's type when it is an exact number that is
// not that DECIMAL, else nil; conv says whether there is such a
// conversion at all.
func convertedFrom(n sql.Node, i int) (t sql.Type, conv bool) {
	p, ok := n.(*plan.Project)
	if !ok || i >= len(p.Projections) {
		return nil, false
	}
	e := p.Projections[i]
	if a, ok := e.(*expression.Alias); ok {
		e = a.Child
	}
	c, ok := e.(*expression.Convert)
	if !ok || !gmstypes.IsDecimal(c.Type()) {
		return nil, false
	}
	t = c.Child.Type()
	if _, _, ok := exactDigits(t); !ok {
		return nil, true
	}
	if reflect.DeepEqual(t, c.Type()) {
		return nil, false
	}
	return t, true
}

// widenUnionAvgs gives each AVG of side n whose column (by id) becomes a
// DECIMAL of a larger scale in the union the union's scale (unionScale).
// It does not enter set operations below, whose columns have ids of
// their own.
func widenUnionAvgs(n sql.Node, ids []sql.ColumnId, common []sql.Type) (sql.Node, error) {
	want := map[sql.ColumnId]int32{}
	p, _ := n.(*plan.Project)
	for i, t := range common {
		dt, ok := t.(sql.DecimalType)
		if !ok {
			continue
		}
		if ids[i] != 0 {
			want[ids[i]] = int32(dt.Scale())
		}
		// The side's projection names the aggregate's column under an
		// alias of its own.
		if p != nil && i < len(p.Projections) {
			if al, ok := p.Projections[i].(*expression.Alias); ok {
				if ie, ok := al.Child.(sql.IdExpression); ok && ie.Id() != 0 {
					want[ie.Id()] = int32(dt.Scale())
				}
			}
		}
	}
	if len(want) == 0 {
		return n, nil
	}
	out, _, err := transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		if _, ok := n.(*plan.SetOp); ok {
			return n, transform.SameTree, nil
		}
		return transform.OneNodeExprsWithNode(n, func(_ sql.Node, e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
			a, ok := e.(*exactAgg)
			if !ok || !a.avg || a.natural {
				return e, transform.SameTree, nil
			}
			sc, ok := want[a.Id()]
			if !ok || sc <= int32(a.typ.Scale()) {
				return e, transform.SameTree, nil
			}
			na := *a
			na.unionScale = sc
			return &na, transform.NewTree, nil
		})
	})
	return out, err
}

// numericUnionColumns: where the sides' types, as planned (SUM and AVG
// DOUBLE), mixed a DOUBLE with an integer, the planner converts the
// column to text on both sides (COUNT's 400 then lacks the union's
// decimals). Where both sides are exact numbers now, one of them DECIMAL,
// numericUnionColumns converts them to the union's DECIMAL instead and
// records it for the union's columns; it returns nil when no column
// needs it.
func numericUnionColumns(u *plan.SetOp, retyped map[sql.ColumnId]sql.Type) (*plan.SetOp, error) {
	lp, _ := u.Left().(*plan.Project)
	rp, _ := u.Right().(*plan.Project)
	ls, rs := u.Left().Schema(), u.Right().Schema()
	if (lp == nil && rp == nil) || len(ls) != len(rs) {
		return nil, nil
	}
	// textOf gives the alias of a projection that makes column i text,
	// and the number it converts. The planner's GetFields read by
	// position: one over a UNION below that became DECIMAL still says
	// text (a conversion of text to text is no conversion).
	textOf := func(p *plan.Project, i int) (*expression.Alias, sql.Expression) {
		if p == nil || i >= len(p.Projections) {
			return nil, nil
		}
		a, ok := p.Projections[i].(*expression.Alias)
		if !ok || !gmstypes.IsText(a.Type()) {
			return nil, nil
		}
		child := a.Child
		if c, ok := child.(*expression.Convert); ok {
			child = c.Child
		}
		if gf, ok := child.(*expression.GetField); ok && gmstypes.IsText(gf.Type()) {
			below := p.Child.Schema()
			if i >= len(below) || !strings.EqualFold(below[i].Name, gf.Name()) || !gmstypes.IsDecimal(below[i].Type) {
				return nil, nil
			}
			child = expression.NewGetFieldWithTable(gf.Index(), int(gf.TableId()), below[i].Type, gf.Database(), gf.Table(), gf.Name(), gf.IsNullable()).WithId(gf.Id()).(sql.Expression)
		}
		if child == a.Child {
			return nil, nil
		}
		return a, child
	}
	// A side that is no such Project (a UNION below, finished) may
	// already give the column as a DECIMAL: exactSetOp then joins the
	// two DECIMALs.
	sideType := func(a *expression.Alias, c sql.Expression, sch sql.Schema, i int) sql.Type {
		if a != nil {
			return c.Type()
		}
		if gmstypes.IsDecimal(sch[i].Type) {
			return sch[i].Type
		}
		return nil
	}
	var lnew, rnew []sql.Expression
	for i := range ls {
		la, lc := textOf(lp, i)
		ra, rc := textOf(rp, i)
		if la == nil && ra == nil {
			continue
		}
		lt, rt := sideType(la, lc, ls, i), sideType(ra, rc, rs, i)
		if lt == nil || rt == nil || (!gmstypes.IsDecimal(lt) && !gmstypes.IsDecimal(rt)) {
			continue
		}
		if _, _, ok := exactDigits(lt); !ok {
			continue
		}
		if _, _, ok := exactDigits(rt); !ok {
			continue
		}
		t := unionType(lt, rt)
		if t == nil {
			continue
		}
		if la != nil {
			if lnew == nil {
				lnew = append([]sql.Expression(nil), lp.Projections...)
			}
			lnew[i] = expression.NewAlias(la.Name(), &exactConvert{child: lc, typ: t}).WithId(la.Id()).(sql.Expression)
			if la.Id() != 0 {
				retyped[la.Id()] = t
			}
		}
		if ra != nil {
			if rnew == nil {
				rnew = append([]sql.Expression(nil), rp.Projections...)
			}
			rnew[i] = expression.NewAlias(ra.Name(), &exactConvert{child: rc, typ: t}).WithId(ra.Id()).(sql.Expression)
		}
	}
	if lnew == nil && rnew == nil {
		return nil, nil
	}
	nl, nr := u.Left(), u.Right()
	var err error
	if lnew != nil {
		if nl, err = lp.WithExpressions(lnew...); err != nil {
			return nil, err
		}
	}
	if rnew != nil {
		if nr, err = rp.WithExpressions(rnew...); err != nil {
			return nil, err
		}
	}
	n, err := u.WithChildren(nl, nr)
	if err != nil {
		return nil, err
	}
	return n.(*plan.SetOp), nil
}

// unionType is the type of a UNION column whose sides have types l and r,
// one of them DECIMAL: the DECIMAL wide enough for both, or DOUBLE with a
// FLOAT or DOUBLE side; nil for anything else.
func unionType(l, r sql.Type) sql.Type {
	if gmstypes.IsFloat(l) || gmstypes.IsFloat(r) {
		return gmstypes.Float64
	}
	lp, lsc, lok := exactDigits(l)
	rp, rsc, rok := exactDigits(r)
	if !lok || !rok {
		return nil
	}
	scale := max(lsc, rsc)
	prec := min(max(lp-lsc, rp-rsc)+scale, gmstypes.DecimalTypeMaxPrecision)
	t, err := gmstypes.CreateDecimalType(uint8(prec), uint8(scale))
	if err != nil {
		return nil
	}
	return t
}

// sideColumnIds gives the column ids of a UNION side's n output columns
// (0 where one is not known: the side's rows are already in place by
// index when the union is finalized).
func sideColumnIds(n sql.Node, width int) []sql.ColumnId {
	ids := make([]sql.ColumnId, width)
	switch n := n.(type) {
	case *plan.Project:
		for i, e := range n.Projections {
			if ie, ok := e.(sql.IdExpression); ok && i < width {
				ids[i] = ie.Id()
			}
		}
	case plan.TableIdNode:
		i := 0
		n.Columns().ForEach(func(id sql.ColumnId) {
			if i < width {
				ids[i] = id
			}
			i++
		})
	}
	return ids
}

// exactConvert converts a UNION side's value to the union's column type:
// a DECIMAL at that scale, or a DOUBLE.
type exactConvert struct {
	child sql.Expression
	typ   sql.Type
}

var _ sql.Expression = (*exactConvert)(nil)

// Resolved implements sql.Expression.
func (c *exactConvert) Resolved() bool { return c.child.Resolved() }

// String implements sql.Expression.
func (c *exactConvert) String() string { return c.child.String() }

// Type implements sql.Expression.
func (c *exactConvert) Type() sql.Type { return c.typ }

// IsNullable implements sql.Expression.
func (c *exactConvert) IsNullable() bool { return c.child.IsNullable() }

// Children implements sql.Expression.
func (c *exactConvert) Children() []sql.Expression { return []sql.Expression{c.child} }

// WithChildren implements sql.Expression.
func (c *exactConvert) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(c, len(children), 1)
	}
	return &exactConvert{child: children[0], typ: c.typ}, nil
}

// Eval converts the child's value.
func (c *exactConvert) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := c.child.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	if dt, ok := c.typ.(sql.DecimalType); ok {
		d, err := exactValue(v)
		if err != nil {
			return nil, err
		}
		return d.Round(int32(dt.Scale())), nil
	}
	out, _, err := c.typ.Convert(ctx, v)
	return out, err
}

// positionalType is the DECIMAL type of the input column a GetField
// reads by position, when that column has the GetField's name and the
// GetField still says DOUBLE.
//
// The planner's Projects over the sides of a UNION whose column types
// differ number their GetFields by column id, not position: there the
// input column is the one decimal column of that name.
func positionalType(gf *expression.GetField, below sql.Schema) (sql.Type, bool) {
	if !gmstypes.IsFloat(gf.Type()) {
		return nil, false
	}
	if i := gf.Index(); i >= 0 && i < len(below) && strings.EqualFold(below[i].Name, gf.Name()) {
		if !gmstypes.IsDecimal(below[i].Type) {
			return nil, false
		}
		return below[i].Type, true
	}
	var t sql.Type
	for _, c := range below {
		if strings.EqualFold(c.Name, gf.Name()) {
			if t != nil || !gmstypes.IsDecimal(c.Type) {
				return nil, false
			}
			t = c.Type
		}
	}
	return t, t != nil
}

// retypedBelow tells whether e is, or reads, a column the rule retyped.
func retypedBelow(e sql.Expression, retyped map[sql.ColumnId]sql.Type) bool {
	return transform.InspectExpr(e, func(e sql.Expression) bool {
		switch e := e.(type) {
		case *exactAgg:
			return true
		case *expression.GetField:
			_, ok := retyped[e.Id()]
			return ok
		}
		return false
	})
}

// exactDigits gives the precision and scale MySQL counts for a DECIMAL,
// integer or YEAR type; ok is false for any other type.
func exactDigits(t sql.Type) (precision, scale int, ok bool) {
	if dt, isDec := t.(sql.DecimalType); isDec {
		return int(dt.Precision()), int(dt.Scale()), true
	}
	switch t.Type() {
	case sqltypes.Int8, sqltypes.Uint8:
		return 3, 0, true
	case sqltypes.Int16, sqltypes.Uint16:
		return 5, 0, true
	case sqltypes.Int24, sqltypes.Uint24:
		return 8, 0, true
	case sqltypes.Int32, sqltypes.Uint32:
		return 10, 0, true
	case sqltypes.Int64:
		return 19, 0, true
	case sqltypes.Uint64:
		return 20, 0, true
	case sqltypes.Year:
		return 4, 0, true
	}
	return 0, 0, false
}

// argDigits is exactDigits of an argument. A CASE whose results are
// exact has the widest integer part and scale of its results, as in
// MySQL (CASE WHEN ... THEN DECIMAL(6,2) ELSE 0 END is DECIMAL(6,2));
// go-mysql-server types any CASE mixing a decimal as DECIMAL(65,10).
func argDigits(e sql.Expression) (precision, scale int, ok bool) {
	if fc, ok := e.(*fastCase); ok { // fastcmp.go
		e = fc.Case
	}
	c, isCase := e.(*expression.Case)
	if !isCase {
		return exactDigits(e.Type())
	}
	values := make([]sql.Expression, 0, len(c.Branches)+1)
	for _, b := range c.Branches {
		values = append(values, b.Value)
	}
	if c.Else != nil {
		values = append(values, c.Else)
	}
	intDigits, found := 0, false
	for _, v := range values {
		if v.Type() == gmstypes.Null {
			continue
		}
		p, s, ok := argDigits(v)
		if !ok {
			return exactDigits(e.Type())
		}
		intDigits, scale, found = max(intDigits, p-s), max(scale, s), true
	}
	if !found {
		return exactDigits(e.Type())
	}
	return min(intDigits+scale, gmstypes.DecimalTypeMaxPrecision), scale, true
}

// exactAgg is SUM or AVG over an exact argument: inner is
// go-mysql-server's *aggregation.Sum or *aggregation.Avg it stands for
// (names, window, id and children are inner's).
type exactAgg struct {
	sql.Aggregation
	avg bool
	// spread: a STDDEV_POP, STDDEV_SAMP, VAR_POP or VAR_SAMP, which
	// go-mysql-server computes in float64 and types as its argument:
	// MariaDB shows it with the argument's scale plus 4 digits (see
	// spreadBuffer).
	spread   bool
	natural  bool  // the argument's type has no scale of its own: keep the values'
	argScale int32 // the argument's scale, unless natural
	typ      sql.DecimalType
	// unionScale, when above typ's scale, is the scale of the UNION
	// column an AVG's value goes to: the quotient is rounded to it, not
	// to typ's, as MariaDB converts AVG's exact value to the union's type
	// (exactSetOp sets it).
	unionScale int32
}

var (
	_ sql.Aggregation               = (*exactAgg)(nil)
	_ sql.WindowAdaptableExpression = (*exactAgg)(nil)
)

// newExactAgg wraps a *aggregation.Sum or *aggregation.Avg whose argument
// is exact; ok is false (and the aggregation stays go-mysql-server's)
// otherwise.
// temporalArgument gives an aggregate over a date or time its argument as
// the number MariaDB sums (temporalNumber, oddrule.go).
func temporalArgument(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	ch := e.Children()
	if len(ch) == 0 || !isTemporal(ch[0].Type()) {
		return e, transform.SameTree, nil
	}
	nc := append([]sql.Expression{newTemporalNumber(ch[0])}, ch[1:]...)
	ne, err := e.WithChildren(nc...)
	if err != nil {
		return nil, transform.SameTree, err
	}
	return ne, transform.NewTree, nil
}

func newExactAgg(inner sql.Aggregation) (*exactAgg, bool) {
	children := inner.Children() // the argument, then the window's expressions
	if len(children) == 0 {
		return nil, false
	}
	_, avg := inner.(*aggregation.Avg)
	spread := false
	switch inner.(type) {
	case *aggregation.Avg, *aggregation.Sum:
	case *aggregation.StdDevPop, *aggregation.StdDevSamp, *aggregation.VarPop, *aggregation.VarSamp:
		spread = true
	default:
		return nil, false
	}
	argType := children[0].Type()
	prec, scale, ok := argDigits(children[0])
	if !ok {
		return nil, false
	}
	if spread {
		if gmstypes.InternalDecimalType.Equals(argType) {
			return nil, false
		}
		rscale := min(scale+divPrecisionIncrement, gmstypes.DecimalTypeMaxScale)
		typ, err := gmstypes.CreateDecimalType(uint8(gmstypes.DecimalTypeMaxPrecision), uint8(rscale))
		if err != nil {
			return nil, false
		}
		return &exactAgg{Aggregation: inner, spread: true, argScale: int32(scale), typ: typ}, true
	}
	if gmstypes.InternalDecimalType.Equals(argType) {
		// go-mysql-server's decimal of unknown scale (a UNION of two
		// decimals, a division): the values carry their scale.
		return &exactAgg{Aggregation: inner, avg: avg, natural: true, typ: gmstypes.InternalDecimalType}, true
	}
	rscale := scale
	if avg {
		prec += divPrecisionIncrement
		rscale += divPrecisionIncrement
	} else {
		prec += sumPrecisionIncrement
	}
	prec = min(prec, gmstypes.DecimalTypeMaxPrecision)
	rscale = min(rscale, gmstypes.DecimalTypeMaxScale)
	// Not a column type: go-mysql-server prints such a value with its
	// own scale, which result sets to the type's; ROUND and the like,
	// whose type is their argument's, then print theirs.
	typ, err := gmstypes.CreateDecimalType(uint8(prec), uint8(rscale))
	if err != nil {
		return nil, false
	}
	return &exactAgg{Aggregation: inner, avg: avg, argScale: int32(scale), typ: typ}, true
}

// Type is the DECIMAL result type.
func (a *exactAgg) Type() sql.Type { return a.typ }

// IsNullable: SUM and AVG of no rows (or only NULLs) are NULL.
func (a *exactAgg) IsNullable() bool { return true }

func (a *exactAgg) rewrap(e sql.Expression) sql.Expression {
	agg, ok := e.(sql.Aggregation)
	if !ok {
		return e
	}
	if na, ok := newExactAgg(agg); ok {
		na.unionScale = a.unionScale
		return na
	}
	return e
}

// WithChildren keeps the replacement when the analyzer rebuilds the tree.
func (a *exactAgg) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	e, err := a.Aggregation.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	return a.rewrap(e), nil
}

// WithWindow implements sql.WindowAdaptableExpression.
func (a *exactAgg) WithWindow(w *sql.WindowDefinition) sql.WindowAdaptableExpression {
	e := a.Aggregation.WithWindow(w)
	if r, ok := a.rewrap(e).(sql.WindowAdaptableExpression); ok {
		return r
	}
	return e
}

// WithId implements sql.IdExpression.
func (a *exactAgg) WithId(id sql.ColumnId) sql.IdExpression {
	e := a.Aggregation.WithId(id)
	if r, ok := a.rewrap(e).(sql.IdExpression); ok {
		return r
	}
	return e
}

func (a *exactAgg) child() (sql.Expression, error) {
	return transform.Clone(a.Aggregation.Children()[0])
}

// NewBuffer implements sql.Aggregation.
func (a *exactAgg) NewBuffer() (sql.AggregationBuffer, error) {
	if a.spread {
		b, err := a.Aggregation.NewBuffer()
		if err != nil {
			return nil, err
		}
		return &spreadBuffer{AggregationBuffer: b, scale: int32(a.typ.Scale())}, nil
	}
	c, err := a.child()
	if err != nil {
		return nil, err
	}
	return &exactBuffer{agg: a, expr: c}, nil
}

// NewWindowFunction implements sql.WindowAdaptableExpression.
func (a *exactAgg) NewWindowFunction() (sql.WindowFunction, error) {
	if a.spread {
		f, err := a.Aggregation.NewWindowFunction()
		if err != nil {
			return nil, err
		}
		return &spreadWindow{WindowFunction: f, scale: int32(a.typ.Scale())}, nil
	}
	c, err := a.child()
	if err != nil {
		return nil, err
	}
	f := &exactWindow{agg: a, expr: c}
	w := a.Window()
	switch {
	case w == nil:
	case w.Frame != nil:
		if f.framer, err = w.Frame.NewFramer(w); err != nil {
			return nil, err
		}
	case len(w.OrderBy) > 0:
		// MySQL's default frame with ORDER BY is RANGE BETWEEN
		// UNBOUNDED PRECEDING AND CURRENT ROW: the current row's peers
		// are in the frame (go-mysql-server's default stops at the row).
		f.framer = &toPeersFramer{orderBy: w.OrderBy.ToExpressions()}
	}
	return f, nil
}

// result turns a sum of n values into the aggregate's value.
func (a *exactAgg) result(sum decimal.Decimal, n int64) interface{} {
	if n == 0 {
		return nil
	}
	if a.natural {
		if a.avg {
			return sum.DivRound(decimal.NewFromInt(n), -sum.Exponent()+divPrecisionIncrement)
		}
		return sum
	}
	if !a.avg {
		return sum.Round(int32(a.typ.Scale()))
	}
	// MySQL divides with the dividend's scale rounded up to whole words
	// plus one word for div_precision_increment, truncating, and shows
	// the quotient rounded to the result's scale. (Arithmetic on AVG uses
	// that longer quotient in MySQL: AVG(i)*3 over 1, 2, 2 is 5.0000
	// there and 4.9999 here.)
	frac := (a.argScale+decimalWordDigits-1)/decimalWordDigits*decimalWordDigits + decimalWordDigits
	q, _ := sum.QuoRem(decimal.NewFromInt(n), frac)
	return q.Round(max(int32(a.typ.Scale()), a.unionScale))
}

// exactValue converts an argument value to a decimal.
func exactValue(v interface{}) (decimal.Decimal, error) {
	if d, ok := v.(decimal.Decimal); ok {
		return d, nil
	}
	return gmstypes.InternalDecimalType.ConvertNoBoundsCheck(v)
}

// exactBuffer accumulates one group.
// Integer values are summed in isum while it does not overflow (a decimal
// addition per row cost a checksum over CRC32 a fifth of its time); the
// total is the same decimal, its exponent 0 as an integer's.
//
// In the same way, decimals of one exponent whose coefficients have at
// most 15 digits (a DECIMAL column's values) are summed as coefficients
// in dsum while it does not overflow; decimal.New(dsum, dexp) is their
// exact sum, and the exponent of the total is the smallest, as with
// Add.
type exactBuffer struct {
	agg  *exactAgg
	expr sql.Expression
	sum  decimal.Decimal
	isum int64 // integers not yet added to sum
	ints bool  // isum holds at least one value
	dsum int64 // coefficients of exponent dexp not yet added to sum
	dexp int32
	decs bool // dsum holds at least one value
	n    int64
}

// Update adds a row's value (NULL is skipped).
func (b *exactBuffer) Update(ctx *sql.Context, row sql.Row) error {
	v, err := b.expr.Eval(ctx, row)
	if err != nil || v == nil {
		return err
	}
	if x, ok := smallInt(v); ok {
		s := b.isum + x
		if (x >= 0) != (s >= b.isum) { // overflow: move isum into sum
			b.sum = b.sum.Add(decimal.NewFromInt(b.isum))
			s = x
		}
		b.isum, b.ints = s, true
		b.n++
		return nil
	}
	d, err := exactValue(v)
	if err != nil {
		return err
	}
	b.n++
	if (!b.decs || d.Exponent() == b.dexp) && d.NumDigits() <= 15 {
		x := d.CoefficientInt64()
		s := b.dsum + x
		if (x >= 0) == (s >= b.dsum) {
			b.dsum, b.dexp, b.decs = s, d.Exponent(), true
			return nil
		}
	}
	b.sum = b.sum.Add(d)
	return nil
}

// Eval returns the group's SUM or AVG (NULL without values).
func (b *exactBuffer) Eval(ctx *sql.Context) (interface{}, error) {
	sum := b.sum
	if b.ints {
		sum = sum.Add(decimal.NewFromInt(b.isum))
	}
	if b.decs {
		sum = sum.Add(decimal.New(b.dsum, b.dexp))
	}
	return b.agg.result(sum, b.n), nil
}

// smallInt returns v as an int64 when it is a Go integer that fits.
func smallInt(v interface{}) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int16:
		return int64(x), true
	case int8:
		return int64(x), true
	case int:
		return int64(x), true
	case uint32:
		return int64(x), true
	case uint16:
		return int64(x), true
	case uint8:
		return int64(x), true
	case uint64:
		return int64(x), x <= math.MaxInt64
	}
	return 0, false
}

// Dispose implements sql.Disposable.
func (b *exactBuffer) Dispose() { expression.Dispose(b.expr) }

// exactWindow computes the aggregate over frames of one partition from
// prefix sums.
type exactWindow struct {
	agg    *exactAgg
	expr   sql.Expression
	framer sql.WindowFramer
	start  int
	sums   []decimal.Decimal // sums[i]: of the partition's first i rows
	counts []int64           // counts[i]: their non-NULL values
}

// DefaultFramer is the window's frame (the whole partition without ORDER
// BY, up to the current row's last peer with it).
func (w *exactWindow) DefaultFramer() sql.WindowFramer {
	if w.framer != nil {
		return w.framer
	}
	return aggregation.NewPartitionFramer()
}

// StartPartition computes the partition's prefix sums.
func (w *exactWindow) StartPartition(ctx *sql.Context, interval sql.WindowInterval, buf sql.WindowBuffer) error {
	w.start = interval.Start
	n := interval.End - interval.Start
	w.sums = make([]decimal.Decimal, n+1)
	w.counts = make([]int64, n+1)
	for i := 0; i < n; i++ {
		w.sums[i+1], w.counts[i+1] = w.sums[i], w.counts[i]
		v, err := w.expr.Eval(ctx, buf[interval.Start+i])
		if err != nil {
			return err
		}
		if v == nil {
			continue
		}
		d, err := exactValue(v)
		if err != nil {
			return err
		}
		w.sums[i+1] = w.sums[i].Add(d)
		w.counts[i+1]++
	}
	return nil
}

// Compute returns the aggregate over the frame interval.
func (w *exactWindow) Compute(ctx *sql.Context, interval sql.WindowInterval, buf sql.WindowBuffer) interface{} {
	s, e := interval.Start-w.start, interval.End-w.start
	if s < 0 || e >= len(w.sums) || e <= s {
		return nil
	}
	return w.agg.result(w.sums[e].Sub(w.sums[s]), w.counts[e]-w.counts[s])
}

// Dispose implements sql.Disposable.
func (w *exactWindow) Dispose() { expression.Dispose(w.expr) }

// toPeersFramer frames from the partition's first row to the current
// row's last peer (RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW).
// Peers are rows whose ORDER BY values compare equal by their types
// (go-mysql-server's peer framer compares the Go values, and two equal
// DECIMAL values are never the same Go value).
type toPeersFramer struct {
	orderBy         []sql.Expression
	start, end, idx int // the partition's start and end, the next row
	peersEnd        int // the end of the current row's peer group
	started         bool
}

// NewFramer starts a partition.
func (f *toPeersFramer) NewFramer(interval sql.WindowInterval) (sql.WindowFramer, error) {
	return &toPeersFramer{orderBy: f.orderBy, start: interval.Start, end: interval.End, idx: interval.Start, peersEnd: interval.Start, started: true}, nil
}

// Next returns the next row's frame.
func (f *toPeersFramer) Next(ctx *sql.Context, buf sql.WindowBuffer) (sql.WindowInterval, error) {
	if !f.started || f.idx >= f.end {
		return sql.WindowInterval{}, io.EOF
	}
	if f.idx >= f.peersEnd {
		f.peersEnd = f.idx + 1
		for f.peersEnd < f.end {
			same, err := f.peers(ctx, buf[f.idx], buf[f.peersEnd])
			if err != nil {
				return sql.WindowInterval{}, err
			}
			if !same {
				break
			}
			f.peersEnd++
		}
	}
	f.idx++
	return f.Interval()
}

func (f *toPeersFramer) peers(ctx *sql.Context, a, b sql.Row) (bool, error) {
	for _, e := range f.orderBy {
		av, err := e.Eval(ctx, a)
		if err != nil {
			return false, err
		}
		bv, err := e.Eval(ctx, b)
		if err != nil {
			return false, err
		}
		c, err := e.Type().Compare(ctx, av, bv)
		if err != nil || c != 0 {
			return false, err
		}
	}
	return true, nil
}

// FirstIdx is the partition's first row.
func (f *toPeersFramer) FirstIdx() int { return f.start }

// LastIdx is the current peer group's end.
func (f *toPeersFramer) LastIdx() int { return f.peersEnd }

// Interval returns the current frame.
func (f *toPeersFramer) Interval() (sql.WindowInterval, error) {
	if !f.started {
		return sql.WindowInterval{}, aggregation.ErrPartitionNotSet
	}
	return sql.WindowInterval{Start: f.start, End: f.peersEnd}, nil
}

// spreadBuffer is go-mysql-server's buffer of a STDDEV or VARIANCE whose
// float64 value it shows as MariaDB does for an exact argument: rounded
// to the argument's scale plus 4 digits (2.435273 for DECIMAL(5,2)
// values, where the argument's type gave 2.44).
type spreadBuffer struct {
	sql.AggregationBuffer
	scale int32
}

// Eval returns the value as a DECIMAL of the aggregate's scale.
func (b *spreadBuffer) Eval(ctx *sql.Context) (interface{}, error) {
	v, err := b.AggregationBuffer.Eval(ctx)
	return spreadValue(v, b.scale), err
}

// spreadWindow is spreadBuffer's window function.
type spreadWindow struct {
	sql.WindowFunction
	scale int32
}

// Compute returns the frame's value as a DECIMAL of the aggregate's scale.
func (w *spreadWindow) Compute(ctx *sql.Context, interval sql.WindowInterval, buf sql.WindowBuffer) interface{} {
	return spreadValue(w.WindowFunction.Compute(ctx, interval, buf), w.scale)
}

func spreadValue(v interface{}, scale int32) interface{} {
	f, ok := v.(float64)
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return v
	}
	return decimal.NewFromFloat(f).Round(scale)
}
