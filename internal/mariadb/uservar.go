package mariadb

import (
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
)

// Assignment to a user variable inside an expression (`SELECT @n := @n +
// 1 ...`), which the vitess grammar lacks: the SQL front rewrites
// `@n := expr` as the call AssignFunction('@n', expr) before parsing
// (the name as text: go-mysql-server may fold a user variable to its
// value while planning, a WHERE's for instance), and
// this function sets the variable to the value of expr for each row it
// is evaluated on, and returns that value, as MariaDB's := does.
//
// An assignVar serves one query on the session's goroutine (it writes
// that session's variables); it is not constant-folded or cached
// (IsNonDeterministic).

// AssignFunction is the name of the function.
const AssignFunction = "__hdb_assign"

func withAssign(a *analyzer.Analyzer) *analyzer.Analyzer {
	a.Catalog.RegisterFunction(sql.NewEmptyContext(), sql.Function2{Name: AssignFunction, Fn: newAssignVar})
	return a
}

type assignVar struct {
	expression.BinaryExpressionStub
}

var (
	_ sql.FunctionExpression         = (*assignVar)(nil)
	_ sql.NonDeterministicExpression = (*assignVar)(nil)
)

func newAssignVar(v, e sql.Expression) sql.Expression {
	return &assignVar{expression.BinaryExpressionStub{LeftChild: v, RightChild: e}}
}

// FunctionName implements sql.FunctionExpression.
func (a *assignVar) FunctionName() string { return AssignFunction }

// Reuse tells the plan cache (sqlbackend.ReusableExpression) that a plan
// assigning a user variable is planned again each time: the assignment
// acts on the session.
func (a *assignVar) Reuse() (bool, sql.Node, func()) { return false, nil, nil }

// Description implements sql.FunctionExpression.
func (a *assignVar) Description() string {
	return "sets a user variable to the value and returns it (@var := expr)."
}

func (a *assignVar) String() string {
	if name, ok := a.name(); ok {
		return fmt.Sprintf("@%s := %s", name, a.RightChild)
	}
	return fmt.Sprintf("%s(%s, %s)", AssignFunction, a.LeftChild, a.RightChild)
}

// name is the variable's name: the first argument's text without its @
// (and the backquotes of a quoted name).
func (a *assignVar) name() (string, bool) {
	lit, ok := a.LeftChild.(*expression.Literal)
	if !ok {
		return "", false
	}
	s, ok := lit.Value().(string)
	if !ok || !strings.HasPrefix(s, "@") || len(s) < 2 {
		return "", false
	}
	s = s[1:]
	if len(s) >= 2 && s[0] == '`' && s[len(s)-1] == '`' {
		s = strings.ReplaceAll(s[1:len(s)-1], "``", "`")
	}
	return s, true
}

// Type is the value's.
func (a *assignVar) Type() sql.Type { return a.RightChild.Type() }

// IsNullable is the value's.
func (a *assignVar) IsNullable() bool { return a.RightChild.IsNullable() }

// IsNonDeterministic: each evaluation changes the variable.
func (a *assignVar) IsNonDeterministic() bool { return true }

// WithChildren implements sql.Expression.
func (a *assignVar) WithChildren(c ...sql.Expression) (sql.Expression, error) {
	if len(c) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(a, len(c), 2)
	}
	return newAssignVar(c[0], c[1]), nil
}

// Eval sets the variable and returns the value.
func (a *assignVar) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	name, ok := a.name()
	if !ok {
		return nil, fmt.Errorf("%s: the first argument must be a user variable's name, not %s", AssignFunction, a.LeftChild)
	}
	v, err := a.RightChild.Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	if err := ctx.SetUserVariable(ctx, name, v, a.RightChild.Type()); err != nil {
		return nil, err
	}
	return v, nil
}
