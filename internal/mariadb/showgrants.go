package mariadb

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/rowexec"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
)

// showGrantsRule gives SHOW GRANTS MariaDB's form (mariaShowGrants). The
// rule is a pure function of the plan and the grant tables.
func showGrantsRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	return transform.Node(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		sg, ok := n.(*plan.ShowGrants)
		if !ok {
			return n, transform.SameTree, nil
		}
		db, ok := sg.MySQLDb.(*mysql_db.MySQLDb)
		if !ok {
			return n, transform.SameTree, nil
		}
		out := &mariaShowGrants{ShowGrants: sg}
		rd := db.Reader()
		defer rd.Close()
		if sg.For == nil || sg.CurrentUser {
			// the session's account, as the grant tables name it
			client := ctx.Session.Client()
			if u := db.GetUser(rd, client.User, client.Address, false); u != nil {
				out.user, out.host = u.User, u.Host
			} else {
				out.user, out.host = client.User, client.Address
			}
		} else {
			out.user, out.host = sg.For.Name, sg.For.Host
			if u := db.GetUser(rd, sg.For.Name, sg.For.Host, false); u != nil {
				out.user, out.host, out.role = u.User, u.Host, u.IsRole
			}
		}
		return out, transform.NewTree, nil
	})
}

// mariaShowGrants is SHOW GRANTS as MariaDB prints it, made from
// go-mysql-server's lines:
//   - a role is named without a host (`r`, "Grants for r"): MariaDB's
//     roles have none, go-mysql-server's are accounts at '%';
//   - the roles granted to the account come first, one line each;
//   - the account's global line ends with IDENTIFIED BY PASSWORD '<hash>'
//     when it has a mysql_native_password password (so a dump of the
//     lines makes the account again);
//   - a level's privileges that are every privilege of that level print
//     as ALL PRIVILEGES.
//
// MariaDB's SET DEFAULT ROLE line is not printed: HandlerDB does not keep
// a default role (accounts.go). Immutable once analyzed.
type mariaShowGrants struct {
	*plan.ShowGrants
	user, host string // the account, as the grant tables name it
	role       bool   // the account is a role
}

var _ sql.ExecSourceRel = (*mariaShowGrants)(nil)

// Schema is MariaDB's: one column, "Grants for user@host" ("Grants for
// role").
func (n *mariaShowGrants) Schema() sql.Schema {
	name := n.user + "@" + n.host
	if n.role {
		name = n.user
	}
	return sql.Schema{{Name: "Grants for " + name, Type: gtypes.LongText}}
}

// WithChildren implements sql.Node (no children).
func (n *mariaShowGrants) WithChildren(children ...sql.Node) (sql.Node, error) {
	if len(children) != 0 {
		return nil, sql.ErrInvalidChildrenNumber.New(n, len(children), 0)
	}
	return n, nil
}

// WithDatabase implements sql.Databaser.
func (n *mariaShowGrants) WithDatabase(db sql.Database) (sql.Node, error) {
	sg, err := n.ShowGrants.WithDatabase(db)
	if err != nil {
		return nil, err
	}
	out := *n
	out.ShowGrants = sg.(*plan.ShowGrants)
	return &out, nil
}

// The privileges go-mysql-server gives for GRANT ALL at each level, in
// the order it prints them: a line of exactly these is MariaDB's ALL
// PRIVILEGES.
const (
	globalAllPrivileges = "SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, RELOAD, SHUTDOWN, PROCESS, FILE, REFERENCES, INDEX, ALTER, SHOW DATABASES, SUPER, CREATE TEMPORARY TABLES, LOCK TABLES, EXECUTE, REPLICATION SLAVE, REPLICATION CLIENT, CREATE VIEW, SHOW VIEW, CREATE ROUTINE, ALTER ROUTINE, CREATE USER, EVENT, TRIGGER, CREATE TABLESPACE, CREATE ROLE, DROP ROLE"
	dbAllPrivileges     = "SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, REFERENCES, INDEX, ALTER, CREATE TEMPORARY TABLES, LOCK TABLES, EXECUTE, CREATE VIEW, SHOW VIEW, CREATE ROUTINE, ALTER ROUTINE, EVENT, TRIGGER"
	tableAllPrivileges  = "SELECT, INSERT, UPDATE, DELETE, CREATE, DROP, REFERENCES, INDEX, ALTER, CREATE VIEW, SHOW VIEW, TRIGGER"
)

// RowIter runs go-mysql-server's SHOW GRANTS for the account and rewrites
// its lines.
func (n *mariaShowGrants) RowIter(ctx *sql.Context, r sql.Row) (sql.RowIter, error) {
	sg := *n.ShowGrants
	sg.For, sg.CurrentUser = &plan.UserName{Name: n.user, Host: n.host}, false
	iter, err := rowexec.DefaultBuilder.Build(ctx, &sg, r)
	if err != nil {
		return nil, err
	}
	rows, err := sql.RowIterToRows(ctx, iter)
	if err != nil {
		return nil, err
	}
	db := n.MySQLDb.(*mysql_db.MySQLDb)
	rd := db.Reader()
	defer rd.Close()
	isRole := func(name, host string) bool {
		u := db.GetUser(rd, name, host, false)
		return u != nil && u.IsRole
	}
	self := "`" + n.user + "`@`" + n.host + "`"
	selfAs := self
	if n.role {
		selfAs = "`" + n.user + "`"
	}
	var roles, lines []string
	for _, row := range rows {
		line, _ := row[0].(string)
		if strings.HasPrefix(line, "GRANT `") && strings.HasSuffix(line, " TO "+self) && !strings.Contains(line, " ON ") {
			// "GRANT `r1`@`%`, `r2`@`%` TO account": one line per role
			list := strings.TrimSuffix(strings.TrimPrefix(line, "GRANT "), " TO "+self)
			for _, r := range strings.Split(list, ", ") {
				name, host, _ := strings.Cut(r, "@")
				rn, rh := strings.Trim(name, "`"), strings.Trim(host, "`")
				if isRole(rn, rh) {
					r = name
				}
				roles = append(roles, "GRANT "+r+" TO "+selfAs+adminOption(rd, rn, rh, n.user, n.host))
			}
			continue
		}
		lines = append(lines, mariaGrantLine(line, self, selfAs))
	}
	if len(lines) > 0 && !n.role {
		if u := db.GetUser(rd, n.user, n.host, false); u != nil && u.Plugin == "mysql_native_password" && u.AuthString != "" {
			global := lines[0]
			clause := " IDENTIFIED BY PASSWORD '" + u.AuthString + "'"
			if i := strings.Index(global, " WITH GRANT OPTION"); i >= 0 {
				global = global[:i] + clause + global[i:]
			} else {
				global += clause
			}
			lines[0] = global
		}
	}
	out := make([]sql.Row, 0, len(roles)+len(lines))
	for _, l := range slices.Concat(roles, lines) {
		out = append(out, sql.Row{l})
	}
	return sql.RowsToRowIter(out...), nil
}

// adminOption is " WITH ADMIN OPTION" when the role fromUser@fromHost is
// granted to user@host with it (go-mysql-server's line leaves it out),
// else empty text.
func adminOption(rd *mysql_db.Reader, fromUser, fromHost, user, host string) string {
	for _, e := range rd.GetToUserRoleEdges(mysql_db.RoleEdgesToKey{ToHost: host, ToUser: user}) {
		if e.FromUser == fromUser && e.FromHost == fromHost && e.WithAdminOption {
			return " WITH ADMIN OPTION"
		}
	}
	return ""
}

// mariaGrantLine rewrites one privilege line of go-mysql-server's: the
// account as MariaDB names it (self -> selfAs) and a level's every
// privilege as ALL PRIVILEGES.
func mariaGrantLine(line, self, selfAs string) string {
	line = strings.Replace(line, " TO "+self, " TO "+selfAs, 1)
	privs, rest, ok := strings.Cut(strings.TrimPrefix(line, "GRANT "), " ON ")
	if !ok {
		return line
	}
	on, _, _ := strings.Cut(rest, " TO ")
	var all string
	switch {
	case on == "*.*":
		all = globalAllPrivileges
	case strings.HasSuffix(on, ".*"):
		all = dbAllPrivileges
	default:
		all = tableAllPrivileges
	}
	if privs == all {
		return fmt.Sprintf("GRANT ALL PRIVILEGES ON %s", rest)
	}
	return line
}
