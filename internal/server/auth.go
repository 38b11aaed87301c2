package server

import (
	"errors"
	"github.com/handlerdb/handlerdb/internal/mcfront"

	"github.com/handlerdb/handlerdb/internal/hsfront"
	"github.com/handlerdb/handlerdb/internal/sqlfront"
)

// sqlAuthorizer is what the SQL front offers the HandlerSocket front: a
// check of a SQL account's password, from a host, and its privileges on
// one table.
type sqlAuthorizer interface {
	Privileges(host, user, password, db, table string) (sqlfront.TablePrivileges, error)
}

// userGrants answers hsfront's grant questions for one authenticated SQL
// account by asking the SQL front each time (password included), so a
// REVOKE or a new password takes effect on the next open_index. Safe for
// concurrent use.
type userGrants struct {
	a                    sqlAuthorizer
	host, user, password string
}

// Privileges implements hsfront.TableGrants.
func (g *userGrants) Privileges(db, table string) hsfront.Privileges {
	tp, err := g.a.Privileges(g.host, g.user, g.password, db, table)
	if err != nil {
		return 0
	}
	var p hsfront.Privileges
	for _, b := range []struct {
		has  bool
		priv hsfront.Privileges
	}{{tp.Select, hsfront.PrivSelect}, {tp.Insert, hsfront.PrivInsert}, {tp.Update, hsfront.PrivUpdate}, {tp.Delete, hsfront.PrivDelete}} {
		if b.has {
			p |= b.priv
		}
	}
	return p
}

// Allowed implements hsfront.Grants: reading needs SELECT, writing any
// of INSERT, UPDATE and DELETE.
func (g *userGrants) Allowed(db, table string, write bool) bool {
	p := g.Privileges(db, table)
	if write {
		return p&(hsfront.PrivInsert|hsfront.PrivUpdate|hsfront.PrivDelete) != 0
	}
	return p&hsfront.PrivSelect != 0
}

var (
	errNoUsers       = errors.New("server: SQL users need the MySQL front")
	errSQLUsersOff   = errors.New("server: SQL users may not authenticate over HandlerSocket (--handlersocket-sql-users)")
	errEmptyPassword = errors.New("server: an account without a password may not authenticate over HandlerSocket")
)

// authorizeMemcached checks a memcached login (SASL PLAIN or the ASCII
// protocol's `set` of "user password"): sqlLogin; the account's grants
// then decide which containers' tables it may read and write.
func (s *Server) authorizeMemcached(host, user, password string) (mcfront.Grants, error) {
	g, err := s.sqlLogin(host, user, password)
	if err != nil {
		return nil, err // (not a nil *userGrants in a non-nil interface)
	}
	return g, nil
}

// authorizeHS checks `A\t1\tuser:password` from a peer at host:
// sqlLogin, and any account fails while --handlersocket-sql-users is
// off. A right one succeeds whatever the grants (the grants decide each
// open_index and request).
func (s *Server) authorizeHS(host, user, password string) (hsfront.Grants, error) {
	if !s.cfg.HSSQLUsers {
		return nil, errSQLUsersOff
	}
	g, err := s.sqlLogin(host, user, password)
	if err != nil {
		return nil, err
	}
	return g, nil
}

// sqlLogin checks a password from a peer at host against the SQL
// accounts, as a MySQL login from host would be checked: a wrong user,
// host or password fails, and an empty password always.
func (s *Server) sqlLogin(host, user, password string) (*userGrants, error) {
	if password == "" {
		return nil, errEmptyPassword
	}
	a, ok := s.sql.(sqlAuthorizer)
	if !ok {
		return nil, errNoUsers
	}
	// An empty table name cannot be granted anything: only the password
	// and host are checked here.
	if _, err := a.Privileges(host, user, password, "", ""); err != nil {
		return nil, err
	}
	return &userGrants{a: a, host: host, user: user, password: password}, nil
}
