package sqlfront

import (
	"context"
	"regexp"
	"strings"

	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// MariaDB's role statements and EXECUTE IMMEDIATE, which go-mysql-server's
// parser lacks, as the roles part of mariadb-dump --system=users writes
// them (roleStatement):
//
//   - SET ROLE {role | NONE | DEFAULT}: a role must be granted to the
//     account (1959); CURRENT_ROLE() then returns it (NULL after NONE or
//     DEFAULT). The privileges do not change with it: go-mysql-server
//     makes every role granted to an account active at once.
//   - CREATE ROLE ... WITH ADMIN grantee: the role is made, then granted
//     to the grantee WITH ADMIN OPTION unless the grantee is the current
//     account (go-mysql-server's CREATE ROLE grants the creator nothing,
//     where MariaDB's grants it the role); CREATE ROLE without it grants
//     the role to the creator WITH ADMIN OPTION, as MariaDB's does.
//   - GRANT ... TO CURRENT_USER[()]: the current account named.
//   - EXECUTE IMMEDIATE expr (without USING): the text the expression
//     gives is run as a statement of its own; as in MariaDB, not
//     EXECUTE, PREPARE, DEALLOCATE or DROP PREPARE (1295), so no text runs
//     itself again without end.

var (
	setRole        = regexp.MustCompile(`(?is)^SET\s+ROLE\s+(.+?)\s*;?\s*$`)
	createRoleWith = regexp.MustCompile(`(?is)^(CREATE\s+ROLE\s+(?:IF\s+NOT\s+EXISTS\s+)?)(.+?)\s+WITH\s+ADMIN\s+(.+?)\s*;?\s*$`)
	createRole     = regexp.MustCompile(`(?is)^\s*CREATE\s+ROLE\s+(?:IF\s+NOT\s+EXISTS\s+)?([\w$]+|` + "`[^`]+`" + `)\s*;?\s*$`)
	grantToCurrent = regexp.MustCompile(`(?is)^(\s*GRANT\s.+?\sTO\s+)CURRENT_USER(?:\s*\(\s*\))?(.*)$`)
	executeNow     = regexp.MustCompile(`(?is)^\s*EXECUTE\s+IMMEDIATE\s+(.+?)\s*;?\s*$`)
	roleName       = regexp.MustCompile(`^[\w$]+$`)
)

// roleStatement handles the statements above; handled is false for any
// other. text and callback are as for accountStatement (EXECUTE
// IMMEDIATE hands callback to the statement it runs).
func (h *mariaHandler) roleStatement(ctx context.Context, c *mysql.Conn, query, text string, callback mysql.ResultSpoolFn) (handled bool, err error) {
	discard := func(*sqltypes.Result, bool) error { return nil }
	if m := executeNow.FindStringSubmatch(text); m != nil {
		if strings.Contains(strings.ToUpper(m[1]), " USING ") {
			return true, sqlError(mysql.ERNotSupportedYet, "EXECUTE IMMEDIATE ... USING")
		}
		var stmt *string
		capture := func(r *sqltypes.Result, _ bool) error {
			if stmt == nil && r != nil && len(r.Rows) > 0 && len(r.Rows[0]) > 0 && !r.Rows[0][0].IsNull() {
				s := r.Rows[0][0].ToString()
				stmt = &s
			}
			return nil
		}
		if err := h.textQuery(ctx, c, "SELECT "+m[1], capture); err != nil {
			return true, err
		}
		if stmt == nil {
			return true, sqlError(mysql.ERParseError, syntaxErrorText, "NULL", 1)
		}
		if startsWithAny(*stmt, "EXECUTE", "PREPARE", "DEALLOCATE") || dropPrepare(*stmt) {
			// as MariaDB: EXECUTE IMMEDIATE runs no prepared-statement
			// command (so no text can run itself again, without end)
			return true, sqlError(errtable.ERUnsupportedPS)
		}
		return true, h.ComQuery(ctx, c, *stmt, callback)
	}
	if m := grantToCurrent.FindStringSubmatch(text); m != nil {
		acct, ok := h.currentAccount(ctx, c, query)
		if !ok {
			return true, sqlError(errtable.ERInvalidCurrentUser)
		}
		return true, h.textQuery(ctx, c, m[1]+acct+m[2], h.withStatus(c, query, callback))
	}
	if m := createRoleWith.FindStringSubmatch(text); m != nil {
		if err := h.textQuery(ctx, c, m[1]+m[2], h.withStatus(c, query, callback)); err != nil {
			return true, err
		}
		grantee := strings.TrimSpace(m[3])
		if up := strings.ToUpper(grantee); up == "CURRENT_USER" || up == "CURRENT_USER()" {
			return true, nil
		}
		if acct, ok := h.currentAccount(ctx, c, query); ok {
			if a, ok := oneAccount(grantee); ok && quoteAccount(a.Name, a.Host) == acct {
				return true, nil
			}
		}
		return true, h.textQuery(ctx, c, "GRANT "+m[2]+" TO "+grantee+" WITH ADMIN OPTION", discard)
	}
	if m := createRole.FindStringSubmatch(text); m != nil {
		// MariaDB grants a new role to its creator WITH ADMIN OPTION
		// (go-mysql-server grants nothing): mysql.roles_mapping then
		// names an administrator, as mariadb-dump needs to make the role.
		if err := h.textQuery(ctx, c, text, h.withStatus(c, query, callback)); err != nil {
			return true, err
		}
		if acct, ok := h.currentAccount(ctx, c, query); ok {
			_ = h.textQuery(ctx, c, "GRANT "+m[1]+" TO "+acct+" WITH ADMIN OPTION", discard)
		}
		return true, nil
	}
	if m := setRole.FindStringSubmatch(text); m != nil {
		return true, h.setRole(ctx, c, query, m[1], h.withStatus(c, query, callback))
	}
	return false, nil
}

// currentAccount returns the account of c's session, quoted.
func (h *mariaHandler) currentAccount(ctx context.Context, c *mysql.Conn, query string) (string, bool) {
	sctx, err := h.statementContext(ctx, c, query)
	if err != nil {
		return "", false
	}
	rd := h.mdb.Reader()
	defer rd.Close()
	client := sctx.Session.Client()
	u := h.mdb.GetUser(rd, client.User, client.Address, false)
	if u == nil {
		return "", false
	}
	return quoteAccount(u.User, u.Host), true
}

// setRole runs SET ROLE role (see above).
func (h *mariaHandler) setRole(ctx context.Context, c *mysql.Conn, query, role string, callback mysql.ResultSpoolFn) error {
	sctx, err := h.statementContext(ctx, c, query)
	if err != nil {
		return err
	}
	sess := sqlbackend.SessionOf(sctx)
	role = strings.Trim(role, "`'\"")
	switch up := strings.ToUpper(role); {
	case up == "NONE" || up == "DEFAULT":
		role = ""
	case !roleName.MatchString(role) && !strings.ContainsAny(role, "@ "):
		return sqlError(mysql.ERParseError, syntaxErrorText, role, 1)
	default:
		rd := h.mdb.Reader()
		client := sctx.Session.Client()
		u := h.mdb.GetUser(rd, client.User, client.Address, false)
		granted := false
		if u != nil {
			for _, e := range rd.GetToUserRoleEdges(mysql_db.RoleEdgesToKey{ToHost: u.Host, ToUser: u.User}) {
				granted = granted || e.FromUser == role
			}
		}
		rd.Close()
		if !granted {
			return sqlError(errtable.ERInvalidRole, quoteAccount(client.User, client.Address), "`"+role+"`")
		}
	}
	if sess != nil {
		sess.SetCurrentRole(role)
	}
	setStatusFlags(c)
	return callback(&sqltypes.Result{}, false)
}

// dropPrepare reports DROP PREPARE.
func dropPrepare(q string) bool {
	rest, ok := cutWords(q, "DROP")
	return ok && startsWithAny(rest, "PREPARE")
}
