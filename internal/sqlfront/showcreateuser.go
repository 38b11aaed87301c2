package sqlfront

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/errtable"
)

// SHOW CREATE USER, which go-mysql-server's parser does not know, answered
// as MariaDB 10.11 does: one row, in a column named "CREATE USER for
// user@host", holding the statement that makes the account again:
//
//	CREATE USER `u`@`h` [IDENTIFIED BY PASSWORD '<hash>'] [ACCOUNT LOCK]
//
// (MariaDB's form of the password, which passwordHashRewrite, in the
// mariadb package, reads back). mariadb-dump --system=users asks it of
// every account. An account may see its own; any other needs SELECT on
// the mysql database (1142 naming mysql.user, as MariaDB), and an
// account that does not exist is 1133.

// showCreateUserAccount returns the account named after SHOW CREATE USER
// in query (current: CURRENT_USER), and whether query is that statement.
func showCreateUserAccount(query string) (name, host string, current, ok bool) {
	rest, ok := cutWords(query, "SHOW", "CREATE", "USER")
	if !ok {
		return "", "", false, false
	}
	rest = strings.TrimRight(strings.TrimSpace(rest), "; \t\r\n")
	if up := strings.ToUpper(rest); up == "CURRENT_USER" || up == "CURRENT_USER()" {
		return "", "", true, true
	}
	st, err := sqlparser.Parse("DROP USER " + rest)
	if err != nil {
		return "", "", false, false
	}
	du, isDrop := st.(*sqlparser.DropUser)
	if !isDrop || len(du.AccountNames) != 1 {
		return "", "", false, false
	}
	a := du.AccountNames[0]
	host = a.Host
	if a.AnyHost {
		host = "%"
	}
	return a.Name, host, false, true
}

// cutWords returns what follows words at the start of q (case-insensitive,
// separated by blanks), and whether q starts with them.
func cutWords(q string, words ...string) (string, bool) {
	for _, w := range words {
		q = strings.TrimLeft(q, " \t\r\n")
		if len(q) < len(w) || !strings.EqualFold(q[:len(w)], w) || len(q) > len(w) && !isBlank(q[len(w)]) {
			return "", false
		}
		q = q[len(w):]
	}
	return q, true
}

// showCreateUser answers SHOW CREATE USER (see above); handled is false
// for any other statement.
func (h *mariaHandler) showCreateUser(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (handled bool, err error) {
	name, host, current, ok := showCreateUserAccount(query)
	if !ok || h.mdb == nil {
		return false, nil
	}
	s := h.srv.Load()
	if s == nil {
		return false, nil
	}
	sctx, err := s.srv.SessionManager().NewContextWithQuery(ctx, c, query)
	if err != nil {
		return true, err
	}
	rd := h.mdb.Reader()
	defer rd.Close()
	client := sctx.Session.Client()
	self := h.mdb.GetUser(rd, client.User, client.Address, false)
	if current {
		if self == nil {
			return true, sqlError(errtable.ERPasswordNoMatch)
		}
		name, host = self.User, self.Host
	}
	if self == nil || self.User != name || self.Host != host {
		ps := h.mdb.UserActivePrivilegeSet(sctx)
		if !ps.Has(sql.PrivilegeType_Select) && !ps.Database("mysql").Has(sql.PrivilegeType_Select) {
			return true, sqlError(errtable.ERTableAccessDenied, "SELECT", client.User, remoteHost(c.RemoteAddr()), "mysql", "user")
		}
	}
	u, found := rd.GetUser(mysql_db.UserPrimaryKey{Host: host, User: name})
	if !found || u.IsRole {
		return true, sqlError(errtable.ERPasswordNoMatch)
	}
	stmt := "CREATE USER " + quoteAccount(u.User, u.Host)
	if u.AuthString != "" {
		stmt += " IDENTIFIED BY PASSWORD '" + strings.ReplaceAll(u.AuthString, "'", "''") + "'"
	}
	if u.Locked {
		stmt += " ACCOUNT LOCK"
	}
	setStatusFlags(c)
	return true, callback(&sqltypes.Result{
		Fields: []*querypb.Field{{Name: "CREATE USER for " + u.User + "@" + u.Host, Type: querypb.Type_VARCHAR, Charset: 33, ColumnLength: 4096}},
		Rows:   [][]sqltypes.Value{{sqltypes.NewVarChar(stmt)}},
	}, false)
}

// quoteAccount writes user@host as MariaDB prints an account: each part
// in backquotes.
func quoteAccount(user, host string) string {
	q := func(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }
	return q(user) + "@" + q(host)
}
