package sqlfront

import (
	"context"
	"regexp"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/mariadb"
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
	if !startsWithAny(query, "SHOW") {
		return "", "", false, false
	}
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
// separated by blanks and comments), and whether q starts with them.
func cutWords(q string, words ...string) (string, bool) {
	for _, w := range words {
		q = skipBlanks(q)
		if len(q) < len(w) || !strings.EqualFold(q[:len(w)], w) || len(q) > len(w) && !isBlank(q[len(w)]) {
			return "", false
		}
		q = q[len(w):]
	}
	return q, true
}

// leadingWord returns the first word of q (after blanks and comments;
// MariaDB's executable comments count as blanks here), a slice of q.
func leadingWord(q string) string {
	q = trimBlanks(q, false)
	for strings.HasPrefix(q, "/*!") || strings.HasPrefix(q, "/*M!") {
		q = strings.TrimLeft(q[strings.IndexByte(q, '!')+1:], "0123456789 \t\r\n")
	}
	q = skipBlanks(q)
	end := 0
	for end < len(q) && (q[end]|0x20 >= 'a' && q[end]|0x20 <= 'z' || q[end] == '_') {
		end++
	}
	return q[:end]
}

// startsWithAny reports whether q's leading word is one of words (case
// insensitive): the gate of the statement handlers below, so that other
// statements pay a scan of a few bytes.
func startsWithAny(q string, words ...string) bool {
	return wordIn(leadingWord(q), words...)
}

// wordIn reports whether w is one of words (case insensitive).
func wordIn(w string, words ...string) bool {
	for _, x := range words {
		if strings.EqualFold(w, x) {
			return true
		}
	}
	return false
}

// trimBlanks returns q without its leading spaces, tabs, CRs and LFs,
// and with parens, its leading '(' too (strings.TrimLeft builds its
// cutset's table at every call, several times per statement).
func trimBlanks(q string, parens bool) string {
	i := 0
	for i < len(q) && (q[i] == ' ' || q[i] == '\t' || q[i] == '\r' || q[i] == '\n' || (parens && q[i] == '(')) {
		i++
	}
	return q[i:]
}

// skipBlanks returns q without its leading blanks and comments.
func skipBlanks(q string) string {
	for {
		q = trimBlanks(q, false)
		switch {
		case strings.HasPrefix(q, "/*"):
			end := strings.Index(q[2:], "*/")
			if end < 0 {
				return ""
			}
			q = q[2+end+2:]
		case strings.HasPrefix(q, "#"), strings.HasPrefix(q, "-- "):
			end := strings.IndexByte(q, '\n')
			if end < 0 {
				return ""
			}
			q = q[end+1:]
		default:
			return q
		}
	}
}

// accountCommand runs the account and role statements that
// go-mysql-server's parser lacks or whose parts it drops, as mariadb-dump
// --system=users writes them: SHOW CREATE USER (showCreateUser), CREATE
// and ALTER USER (accountStatement), GRANT ... IDENTIFIED, PROXY and SET
// DEFAULT ROLE (grantStatement), the role statements and EXECUTE
// IMMEDIATE (roleStatement, roles.go). handled is false for any other
// statement, which pays a look at its first word, and for a text of more
// than one statement (multi). callback is the command's own.
func (h *mariaHandler) accountCommand(ctx context.Context, c *mysql.Conn, query string, multi bool, callback mysql.ResultSpoolFn) (handled bool, err error) {
	if h.mdb == nil || !h.mdb.Enabled() {
		return false, nil
	}
	word := leadingWord(query)
	show := strings.EqualFold(word, "SHOW")
	if !show && !wordIn(word, "CREATE", "ALTER", "GRANT", "REVOKE", "SET", "EXECUTE") || multi && !singleStatement(query) {
		return false, nil
	}
	if show {
		return h.showCreateUser(ctx, c, query, callback)
	}
	// Read as the parser will: executable comments opened.
	text, _ := mariadb.ExecutableComments(query)
	text = skipBlanks(text)
	if done, err := h.accountStatement(ctx, c, query, text, callback); done {
		return true, err
	}
	if done, err := h.grantStatement(ctx, c, query, text, callback); done {
		return true, err
	}
	return h.roleStatement(ctx, c, query, text, callback)
}

// statementContext returns a context of query's session for the account
// statements' own checks.
func (h *mariaHandler) statementContext(ctx context.Context, c *mysql.Conn, query string) (*sql.Context, error) {
	s := h.srv.Load()
	if s == nil {
		return nil, sqlError(errtable.ERInvalidCurrentUser)
	}
	return s.srv.SessionManager().NewContextWithQuery(ctx, c, query)
}

// showCreateUser answers SHOW CREATE USER (see above); handled is false
// for any other statement.
func (h *mariaHandler) showCreateUser(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (handled bool, err error) {
	name, host, current, ok := showCreateUserAccount(query)
	if !ok {
		return false, nil
	}
	sctx, err := h.statementContext(ctx, c, query)
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

// Account locks and limits. go-mysql-server parses CREATE USER's ACCOUNT
// LOCK and resource limits and then drops them, and its parser has no
// ALTER USER ... ACCOUNT LOCK | UNLOCK. accountStatement therefore:
//
//   - runs CREATE USER ... ACCOUNT LOCK and then marks the accounts it
//     made locked (a login to one is 4151 after its password, as in
//     MariaDB; the HandlerSocket ports refuse it with 1045);
//   - refuses CREATE USER with a resource limit (WITH MAX_QUERIES_PER_HOUR
//     and the like) with 1235: the account would exist without the limit
//     its owner set;
//   - runs ALTER USER [IF EXISTS] account[, ...] ACCOUNT LOCK | UNLOCK
//     itself, with the CREATE USER privilege (1227 without it) and 1396
//     for an account that does not exist (without IF EXISTS).

// alterAccountLock matches ALTER USER ... ACCOUNT LOCK | UNLOCK.
var alterAccountLock = regexp.MustCompile(`(?is)^\s*ALTER\s+USER\s+(IF\s+EXISTS\s+)?(.+?)\s+ACCOUNT\s+(LOCK|UNLOCK)\s*;?\s*$`)

// accountStatement handles the statements above; handled is false for
// any other. text is query with its executable comments opened and its
// leading blanks gone (accountCommand); callback is the command's own.
func (h *mariaHandler) accountStatement(ctx context.Context, c *mysql.Conn, query, text string, callback mysql.ResultSpoolFn) (handled bool, err error) {
	create := false
	if _, ok := cutWords(text, "CREATE", "USER"); ok {
		create = true
	} else if _, ok := cutWords(text, "ALTER", "USER"); !ok {
		return false, nil
	}
	if create {
		st, perr := sqlparser.Parse(text)
		if perr != nil {
			if rw, ok := mariadb.DialectRewrite(text); ok {
				st, perr = sqlparser.Parse(rw)
			}
		}
		cu, ok := st.(*sqlparser.CreateUser)
		if perr != nil || !ok {
			return false, nil
		}
		if l := cu.AccountLimits; l != nil && (l.MaxQueriesPerHour != nil || l.MaxUpdatesPerHour != nil || l.MaxConnectionsPerHour != nil || l.MaxUserConnections != nil) {
			return true, sqlError(mysql.ERNotSupportedYet, "resource limits")
		}
		if !cu.Locked {
			return false, nil
		}
		if err := h.textQuery(ctx, c, query, h.withStatus(c, query, callback)); err != nil {
			return true, err
		}
		var names []sqlparser.AccountName
		for _, u := range cu.Users {
			names = append(names, u.AccountName)
		}
		_, err := h.setLocked(ctx, names, true)
		return true, err
	}
	m := alterAccountLock.FindStringSubmatch(text)
	if m == nil {
		return false, nil
	}
	st, perr := sqlparser.Parse("DROP USER " + m[2])
	du, ok := st.(*sqlparser.DropUser)
	if perr != nil || !ok {
		return false, nil
	}
	sctx, err := h.statementContext(ctx, c, query)
	if err != nil {
		return true, err
	}
	if ps := h.mdb.UserActivePrivilegeSet(sctx); !ps.Has(sql.PrivilegeType_CreateUser) {
		return true, sqlError(mysql.ERSpecifiedAccessDenied, "CREATE USER")
	}
	missing, err := h.setLocked(sctx, du.AccountNames, strings.EqualFold(m[3], "LOCK"))
	if err != nil {
		return true, err
	}
	if missing != "" && m[1] == "" {
		return true, sqlError(errtable.ERCannotUser, "ALTER USER", missing)
	}
	setStatusFlags(c)
	return true, h.withStatus(c, query, callback)(&sqltypes.Result{}, false)
}

// setLocked sets the lock of the accounts named and persists the grant
// tables; missing names the first account that does not exist ('u'@'h'),
// or is "".
func (h *mariaHandler) setLocked(ctx context.Context, names []sqlparser.AccountName, locked bool) (missing string, err error) {
	ed := h.mdb.Editor()
	defer ed.Close()
	for _, a := range names {
		host := a.Host
		if a.AnyHost {
			host = "%"
		}
		u, ok := ed.GetUser(mysql_db.UserPrimaryKey{Host: host, User: a.Name})
		if !ok || u.IsRole {
			if missing == "" {
				missing = "'" + a.Name + "'@'" + host + "'"
			}
			continue
		}
		nu := *u
		nu.Locked = locked
		replaceUser(ed, &nu)
	}
	return missing, h.mdb.Persist(sql.NewContext(ctx), ed)
}

// MariaDB's other account statements that mariadb-dump --system=users
// writes and go-mysql-server's parser lacks (grantStatement):
//
//   - GRANT ... TO account IDENTIFIED BY PASSWORD '<hash>' (every
//     account's USAGE line): the account is made with that password when
//     it does not exist (MariaDB's GRANT makes it), the GRANT runs without
//     the clause, and an account that existed gets the password (as
//     ALTER USER would, with its privilege check);
//   - SET DEFAULT ROLE {NONE | role} [FOR account]: checked as MariaDB
//     checks it (1960 for no such account, 1959 for a role not granted to
//     it) and kept for mysql.user's default_role (usersdump.go), which
//     mariadb-dump --system=users reads; go-mysql-server makes every role
//     granted to an account active at once, so it changes no privilege;
//   - GRANT and REVOKE PROXY, which only proxy-user authentication plugins
//     read and HandlerDB has none of: accepted with note 1235 saying the
//     privilege is not kept (a MariaDB dump gives root one).

var (
	grantWithPassword = regexp.MustCompile(`(?is)^\s*(GRANT\s.+?\sTO\s+)(.+?)\s+IDENTIFIED\s+BY\s+PASSWORD\s+'([^'\\]*)'(.*)$`)
	setDefaultRole    = regexp.MustCompile(`(?is)^\s*SET\s+DEFAULT\s+ROLE\s+(.+?)(?:\s+FOR\s+(.+?))?\s*;?\s*$`)
	proxyGrant        = regexp.MustCompile(`(?is)^\s*(GRANT|REVOKE)\s+PROXY\s+ON\s`)
)

// grantStatement handles the statements above; handled is false for any
// other. text and callback are as for accountStatement.
func (h *mariaHandler) grantStatement(ctx context.Context, c *mysql.Conn, query, text string, callback mysql.ResultSpoolFn) (handled bool, err error) {
	discard := func(*sqltypes.Result, bool) error { return nil }
	if proxyGrant.MatchString(text) {
		sctx, err := h.statementContext(ctx, c, query)
		if err != nil {
			return true, err
		}
		sctx.Session.Warn(&sql.Warning{Level: "Note", Code: mysql.ERNotSupportedYet,
			Message: "This version of MariaDB doesn't yet support 'PROXY privileges (not kept)'"})
		setStatusFlags(c)
		return true, h.withStatus(c, query, callback)(&sqltypes.Result{}, false)
	}
	if m := grantWithPassword.FindStringSubmatch(text); m != nil {
		a, ok := oneAccount(m[2])
		if !ok {
			return false, nil
		}
		acct := quoteAccount(a.Name, a.Host)
		withHash := " IDENTIFIED WITH mysql_native_password AS '" + m[3] + "'"
		if !h.accountExists(a) {
			if err := h.textQuery(ctx, c, "CREATE USER "+acct+withHash, discard); err != nil {
				return true, err
			}
			return true, h.textQuery(ctx, c, m[1]+m[2]+m[4], h.withStatus(c, query, callback))
		}
		if err := h.textQuery(ctx, c, m[1]+m[2]+m[4], discard); err != nil {
			return true, err
		}
		return true, h.textQuery(ctx, c, "ALTER USER "+acct+withHash, h.withStatus(c, query, callback))
	}
	if m := setDefaultRole.FindStringSubmatch(text); m != nil {
		return true, h.setDefaultRole(ctx, c, query, m[1], m[2], h.withStatus(c, query, callback))
	}
	return false, nil
}

// oneAccount parses a single account name (user, 'user'@'host', ...).
func oneAccount(s string) (sqlparser.AccountName, bool) {
	st, err := sqlparser.Parse("DROP USER " + s)
	du, ok := st.(*sqlparser.DropUser)
	if err != nil || !ok || len(du.AccountNames) != 1 {
		return sqlparser.AccountName{}, false
	}
	a := du.AccountNames[0]
	if a.AnyHost {
		a.Host, a.AnyHost = "%", false
	}
	return a, true
}

// accountExists reports whether the account a (not a role) exists.
func (h *mariaHandler) accountExists(a sqlparser.AccountName) bool {
	rd := h.mdb.Reader()
	defer rd.Close()
	u, ok := rd.GetUser(mysql_db.UserPrimaryKey{Host: a.Host, User: a.Name})
	return ok && !u.IsRole
}

// setDefaultRole checks SET DEFAULT ROLE roles FOR account (account ""
// for the current one); see grantStatement.
func (h *mariaHandler) setDefaultRole(ctx context.Context, c *mysql.Conn, query, roles, account string, callback mysql.ResultSpoolFn) error {
	sctx, err := h.statementContext(ctx, c, query)
	if err != nil {
		return err
	}
	rd := h.mdb.Reader()
	defer rd.Close()
	client := sctx.Session.Client()
	self := h.mdb.GetUser(rd, client.User, client.Address, false)
	var a sqlparser.AccountName
	if account == "" {
		if self == nil {
			return sqlError(errtable.ERInvalidCurrentUser)
		}
		a = sqlparser.AccountName{Name: self.User, Host: self.Host}
	} else if a, err = accountOrErr(account); err != nil {
		return err
	}
	if self == nil || self.User != a.Name || self.Host != a.Host {
		ps := h.mdb.UserActivePrivilegeSet(sctx)
		if !ps.Has(sql.PrivilegeType_CreateUser) && !ps.Database("mysql").Has(sql.PrivilegeType_Update) {
			return sqlError(mysql.ERSpecifiedAccessDenied, "CREATE USER")
		}
	}
	u, ok := rd.GetUser(mysql_db.UserPrimaryKey{Host: a.Host, User: a.Name})
	if !ok || u.IsRole {
		return sqlError(errtable.ERInvalidCurrentUser)
	}
	r := strings.Trim(strings.TrimSpace(roles), "`'\"")
	if strings.EqualFold(r, "NONE") {
		r = ""
	} else {
		granted := false
		for _, e := range rd.GetToUserRoleEdges(mysql_db.RoleEdgesToKey{ToHost: a.Host, ToUser: a.Name}) {
			granted = granted || e.FromUser == r
		}
		if !granted {
			return sqlError(errtable.ERInvalidRole, quoteAccount(a.Name, a.Host), "`"+r+"`")
		}
	}
	if s := h.srv.Load(); s != nil && s.defaults != nil {
		if err := s.defaults.set(ctx, a.Name, a.Host, r); err != nil {
			return err
		}
	}
	setStatusFlags(c)
	return callback(&sqltypes.Result{}, false)
}

// accountOrErr is oneAccount with 1960 for a name that is not one.
func accountOrErr(s string) (sqlparser.AccountName, error) {
	a, ok := oneAccount(s)
	if !ok {
		return a, sqlError(errtable.ERInvalidCurrentUser)
	}
	return a, nil
}
