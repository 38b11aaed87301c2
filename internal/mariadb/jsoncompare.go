package mariadb

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// A JSON value (what JSON_EXTRACT, JSON_OBJECT and the other JSON
// functions give) compared with text is, in MariaDB, text compared with
// text: the JSON side printed as MariaDB prints it, a string scalar
// unquoted when it is the comparison's own JSON operand (JSON_EXTRACT(v,
// '$.a') = 'bob' is true for "bob"), and not in an IN list (JSON_EXTRACT(v,
// '$.a') IN ('bob') is false). go-mysql-server instead reads the text as a
// JSON document: `v = JSON_EXTRACT('{}','$')` over a JSON (LONGTEXT)
// column matched nothing, and `= 'bob'` failed with "Invalid JSON text".
// jsonComparison rewrites such comparisons with jsonText; it is a pure
// function of the expression, and the expressions it makes are
// immutable.

// jsonComparison is jsonPathsRule's rewrite of a comparison or IN list
// with a JSON operand and a text one; other expressions are returned as
// they are.
func jsonComparison(e sql.Expression) (sql.Expression, transform.TreeIdentity, error) {
	switch x := e.(type) {
	case *expression.Equals, *expression.NullSafeEquals, *expression.LessThan, *expression.LessThanOrEqual,
		*expression.GreaterThan, *expression.GreaterThanOrEqual:
		c := x.Children()
		l, r := c[0], c[1]
		lj, rj := isJSONValue(l), isJSONValue(r)
		switch {
		case lj && (rj || gtypes.IsText(r.Type())):
			l, r = &jsonText{JSON: l, unquote: true}, textOfJSON(r)
		case rj && gtypes.IsText(l.Type()):
			r = &jsonText{JSON: r, unquote: true}
		default:
			return e, transform.SameTree, nil
		}
		ne, err := x.WithChildren(l, r)
		if err != nil {
			return e, transform.SameTree, nil
		}
		return ne, transform.NewTree, nil
	case *expression.InTuple:
		if !isJSONValue(x.Left()) {
			return e, transform.SameTree, nil
		}
		tup, ok := x.Right().(expression.Tuple)
		if !ok {
			return e, transform.SameTree, nil
		}
		for _, it := range tup {
			if !gtypes.IsText(it.Type()) {
				return e, transform.SameTree, nil
			}
		}
		return expression.NewInTuple(&jsonText{JSON: x.Left()}, tup), transform.NewTree, nil
	}
	return e, transform.SameTree, nil
}

// isJSONValue reports whether e gives go-mysql-server's JSON values: a
// JSON function (a JSON column here is LONGTEXT). Only a function named
// JSON_... is asked its type: asking an arbitrary expression walks its
// subtree, and go-mysql-server's placeholders panic.
func isJSONValue(e sql.Expression) bool {
	f, ok := e.(sql.FunctionExpression)
	if !ok || len(f.FunctionName()) < 5 || !strings.EqualFold(f.FunctionName()[:5], "json_") {
		return false
	}
	return gtypes.IsJSON(e.Type())
}

// textOfJSON is e printed when it gives JSON values, else e.
func textOfJSON(e sql.Expression) sql.Expression {
	if isJSONValue(e) {
		return &jsonText{JSON: e}
	}
	return e
}

// jsonText is a JSON value as the text MariaDB compares: its printed
// form, or with unquote a string scalar's own characters.
type jsonText struct {
	JSON    sql.Expression
	unquote bool
}

var _ sql.Expression = (*jsonText)(nil)

// Resolved implements sql.Expression.
func (j *jsonText) Resolved() bool { return j.JSON.Resolved() }

// IsNullable implements sql.Expression.
func (j *jsonText) IsNullable() bool { return j.JSON.IsNullable() }

// Type is LONGTEXT in utf8mb4_bin, the type of MariaDB's JSON values.
func (j *jsonText) Type() sql.Type { return jsonTextType }

var jsonTextType = gtypes.CreateLongText(sql.Collation_utf8mb4_bin)

// Children implements sql.Expression.
func (j *jsonText) Children() []sql.Expression { return []sql.Expression{j.JSON} }

// WithChildren implements sql.Expression.
func (j *jsonText) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	if len(c) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(j, len(c), 1)
	}
	return &jsonText{JSON: c[0], unquote: j.unquote}, nil
}

// String implements sql.Expression.
func (j *jsonText) String() string { return j.JSON.String() }

// Eval prints the value.
func (j *jsonText) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	v, err := j.JSON.Eval(ctx, row)
	if err != nil || v == nil {
		return nil, err
	}
	w, ok := v.(sql.JSONWrapper)
	if !ok {
		s, _, err := gtypes.LongText.Convert(ctx, v)
		return s, err
	}
	if j.unquote {
		if iv, err := w.ToInterface(); err == nil {
			if s, ok := iv.(string); ok {
				return s, nil
			}
		}
	}
	s, err := gtypes.JsonToMySqlString(w)
	if err != nil {
		return nil, fmt.Errorf("JSON value: %w", err)
	}
	return s, nil
}
