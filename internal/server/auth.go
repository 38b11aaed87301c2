package server

import (
	"errors"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/hsfront"
)

// sqlAuthorizer is what the SQL front offers the HandlerSocket front: a
// check of a SQL account's password and grants on one table.
type sqlAuthorizer interface {
	Authorize(user, password, db, table string, write bool) error
}

// userGrants answers hsfront's grant questions for one authenticated SQL
// user by asking the SQL front each time, so a REVOKE takes effect on the
// next open_index.
type userGrants struct {
	a              sqlAuthorizer
	user, password string
}

func (g *userGrants) Allowed(db, table string, write bool) bool {
	return g.a.Authorize(g.user, g.password, db, table, write) == nil
}

var errNoUsers = errors.New("server: SQL users need the MySQL front")

// authorizeHS checks `A\t1\tuser:password` against the SQL users: a wrong
// user or password fails; a right one succeeds whatever the grants (the
// grants decide each open_index).
func (s *Server) authorizeHS(user, password string) (hsfront.Grants, error) {
	a, ok := s.sql.(sqlAuthorizer)
	if !ok {
		return nil, errNoUsers
	}
	// An empty table name cannot be granted anything: a password error
	// (1045) means a bad account, anything else means the account is fine.
	err := a.Authorize(user, password, "", "", false)
	var se *mysql.SQLError
	if errors.As(err, &se) && se.Number() == mysql.ERAccessDeniedError {
		return nil, err
	}
	return &userGrants{a: a, user: user, password: password}, nil
}
