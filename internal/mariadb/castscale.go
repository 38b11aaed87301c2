package mariadb

import (
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// scaledTimeCasts gives CAST of the zero date with a fraction
// ('0000-00-00 00:00:00.0') to DATETIME(n) the zero date, as MariaDB
// (go-mysql-server's was NULL; go-sql-driver's own TestDateTime casts
// it, and castTime's TIME(n) type its TIME(n) cases).
func scaledTimeCasts(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	c, ok := e.(*expression.Convert)
	if !ok {
		return e, transform.SameTree, nil
	}
	if c.Type().Type() == gtypes.DatetimeMaxPrecision.Type() && gtypes.IsText(c.Child.Type()) {
		// (of text only: a CAST of a date is oddExpr's)
		return &castTo{Convert: c, typ: c.Type()}, transform.NewTree, nil
	}
	return e, transform.SameTree, nil
}

// castTo is a CAST to DATETIME(n) that reads the zero date with a
// fraction.
type castTo struct {
	*expression.Convert
	typ sql.Type
}

// Type is the CAST's type with its digits.
func (c *castTo) Type() sql.Type { return c.typ }

// WithChildren keeps the type.
func (c *castTo) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	ne, err := c.Convert.WithChildren(children...)
	if err != nil {
		return nil, err
	}
	if cv, ok := ne.(*expression.Convert); ok {
		return &castTo{Convert: cv, typ: c.typ}, nil
	}
	return ne, nil
}

// Eval casts as go-mysql-server does, but the zero date's text with a
// fraction is the zero date.
func (c *castTo) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := c.Convert.Eval(ctx, row)
	if err != nil || v != nil {
		return v, err
	}
	if s, err := c.Child.Eval(ctx, row); err == nil && zeroDateText(s) {
		return sqlbackend.ZeroTime, nil
	}
	return nil, nil
}

// zeroDateText reports text of the zero date and time with a fraction of
// zeros (0000-00-00 00:00:00.000).
func zeroDateText(v interface{}) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	date, frac, ok := strings.Cut(s, ".")
	return ok && date == "0000-00-00 00:00:00" && frac != "" && strings.Trim(frac, "0") == ""
}
