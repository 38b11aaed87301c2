package sqlbackend

import "github.com/dolthub/go-mysql-server/sql"

// wrapper is what the plan nodes that run one child node and change what
// it does or answers have in common (SHOW CREATE DATABASE, the prefix
// index nodes): they are resolved, print and answer with the schema as
// their child does. Like every plan node, a wrapper is built per
// statement and used by the statement's goroutine.
type Wrapper struct{ Child sql.Node }

func (w Wrapper) Resolved() bool       { return w.Child.Resolved() }
func (w Wrapper) String() string       { return w.Child.String() }
func (w Wrapper) Schema() sql.Schema   { return w.Child.Schema() }
func (w Wrapper) Children() []sql.Node { return []sql.Node{w.Child} }

// rewrap is WithChildren of a wrapper node n: it checks that there is one
// child and returns wrap(child).
func Rewrap(n sql.Node, children []sql.Node, wrap func(w Wrapper) sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 1)
	}
	return wrap(Wrapper{children[0]}), nil
}
