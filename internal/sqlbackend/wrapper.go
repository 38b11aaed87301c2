package sqlbackend

import "github.com/dolthub/go-mysql-server/sql"

// wrapper is what the plan nodes that run one child node and change what
// it does or answers have in common (SHOW CREATE DATABASE, the prefix
// index nodes): they are resolved, print and answer with the schema as
// their child does. Like every plan node, a wrapper is built per
// statement and used by the statement's goroutine.
type wrapper struct{ child sql.Node }

func (w wrapper) Resolved() bool       { return w.child.Resolved() }
func (w wrapper) String() string       { return w.child.String() }
func (w wrapper) Schema() sql.Schema   { return w.child.Schema() }
func (w wrapper) Children() []sql.Node { return []sql.Node{w.child} }

// rewrap is WithChildren of a wrapper node n: it checks that there is one
// child and returns wrap(child).
func rewrap(n sql.Node, children []sql.Node, wrap func(w wrapper) sql.Node) (sql.Node, error) {
	if len(children) != 1 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 1)
	}
	return wrap(wrapper{children[0]}), nil
}
