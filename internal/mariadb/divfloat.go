package mariadb

import (
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/shopspring/decimal"
)

// floatDivRule: MySQL and MariaDB divide decimals with 9 fractional digits
// per word and round to div_precision_increment only for display, so
// `INSERT INTO t (double_col) VALUES (1/3)` stores 0.333333333.
// go-mysql-server rounds the division to 4 digits before the value reaches
// the column (0.3333). For a division that is a whole VALUES item going
// into a FLOAT, DOUBLE or DECIMAL column, this rule evaluates it unrounded
// (checked against MariaDB 10.11: DECIMAL(20,10) gets 0.3333333330).
func floatDivRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		ins, ok := n.(*plan.InsertInto)
		if !ok {
			return n, transform.SameTree, nil
		}
		vals, ok := ins.Source.(*plan.Values)
		if !ok {
			return n, transform.SameTree, nil
		}
		sch := ins.Destination.Schema()
		isFloat := func(i int) bool {
			name := ""
			if i < len(ins.ColumnNames) {
				name = ins.ColumnNames[i]
			} else if len(ins.ColumnNames) == 0 && i < len(sch) {
				name = sch[i].Name
			}
			idx := sch.IndexOfColName(name)
			return idx >= 0 && (gmstypes.IsFloat(sch[idx].Type) || gmstypes.IsDecimal(sch[idx].Type))
		}
		changed := false
		tuples := make([][]sql.Expression, len(vals.ExpressionTuples))
		for r, tuple := range vals.ExpressionTuples {
			row, copied := tuple, false
			for i, e := range tuple {
				d, ok := e.(*expression.Div)
				if !ok || !isFloat(i) {
					continue
				}
				if !copied {
					row, copied = append([]sql.Expression(nil), tuple...), true
				}
				row[i] = &storeDiv{Div: d}
				changed = true
			}
			tuples[r] = row
		}
		if !changed {
			return n, transform.SameTree, nil
		}
		nv := *vals
		nv.ExpressionTuples = tuples
		return ins.WithSource(&nv), transform.NewTree, nil
	})
}

// storeDiv is a division evaluated as MySQL does before storing: decimal
// operands, 9 fractional digits per word of scale, no display rounding.
type storeDiv struct{ *expression.Div }

// Type is a decimal with room for the full quotient.
func (d *storeDiv) Type() sql.Type { return gmstypes.InternalDecimalType }

// Eval divides the operands as decimals.
func (d *storeDiv) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	l, err := d.Left().Eval(ctx, row)
	if err != nil || l == nil {
		return nil, err
	}
	r, err := d.Right().Eval(ctx, row)
	if err != nil || r == nil {
		return nil, err
	}
	lv, _, err := gmstypes.InternalDecimalType.Convert(ctx, l)
	if err != nil {
		return d.Div.Eval(ctx, row)
	}
	rv, _, err := gmstypes.InternalDecimalType.Convert(ctx, r)
	if err != nil {
		return d.Div.Eval(ctx, row)
	}
	ld, rd := lv.(decimal.Decimal), rv.(decimal.Decimal)
	if rd.IsZero() {
		return d.Div.Eval(ctx, row) // division by zero: NULL and the warning
	}
	const word, increment = 9, 4
	scale := -ld.Exponent() - rd.Exponent() + increment
	scale = (scale + word - 1) / word * word
	return ld.DivRound(rd, scale+2).Truncate(scale), nil
}

// WithChildren keeps the wrapper.
func (d *storeDiv) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	nd, err := d.Div.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if div, ok := nd.(*expression.Div); ok {
		return &storeDiv{Div: div}, nil
	}
	return nd, nil
}
