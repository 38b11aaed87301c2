package storedprog

import (
	"github.com/dolthub/go-mysql-server/sql"
)

// localRef is a variable of a program in one of its bound expressions:
// it evaluates to the variable's value of the running call.
type localRef struct {
	p    *program
	slot int
}

var _ sql.Expression = (*localRef)(nil)

func (l *localRef) Resolved() bool             { return true }
func (l *localRef) String() string             { return l.p.vars[l.slot].name }
func (l *localRef) Type() sql.Type             { return l.p.vars[l.slot].typ }
func (l *localRef) IsNullable() bool           { return true }
func (l *localRef) Children() []sql.Expression { return nil }

// Eval returns the variable's value.
func (l *localRef) Eval(*sql.Context, sql.Row) (any, error) { return l.p.vals[l.slot], nil }

func (l *localRef) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(l, len(children), 0)
	}
	return l, nil
}
