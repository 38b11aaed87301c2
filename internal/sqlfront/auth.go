package sqlfront

import (
	"context"
	"crypto/sha1"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"net"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// usersBlob names the engine record that holds the serialized users and
// grants (go-mysql-server's mysql database).
const usersBlob = "sqlfront/mysql_db"

// rolesBlob names the engine record that lists the accounts that are
// roles: go-mysql-server's serialized users do not say it (a role came
// back from a restart as a locked account).
const rolesBlob = "sqlfront/roles"

// persister stores go-mysql-server's users and grants in the engine each
// time CREATE USER, GRANT, REVOKE and the like change them, and then the
// list of roles (saveRoles, after the statement: go-mysql-server calls
// Persist with its grant tables locked). Safe for concurrent use.
type persister struct {
	e     *engine.Engine
	mdb   *mysql_db.MySQLDb
	dirty atomic.Bool // Persist ran since the last saveRoles
}

// Persist writes the serialized users and grants as one engine job. With
// a binary log, that job is the statement that changed them (CREATE
// USER, GRANT, ...), as MariaDB logs it, so that replicas apply it; a
// change no statement made (the server's own set-up) is not logged.
func (p *persister) Persist(ctx *sql.Context, data []byte) error {
	data = append([]byte(nil), data...)
	p.dirty.Store(true)
	q, db := ctx.Query(), ""
	if q != "" && ctx.Session != nil {
		db = ctx.GetCurrentDatabase()
	}
	return sqlbackend.MapError(p.e.Update(ctx, func(tx *engine.Job) error {
		if q != "" {
			tx.LogStatement(db, q)
		}
		return tx.SetBlob(usersBlob, data)
	}))
}

// saveRoles stores the list of roles if the grant tables changed since it
// last did. The wire layer calls it after every command.
func (p *persister) saveRoles() {
	if !p.dirty.Swap(false) {
		return
	}
	var roles []string
	rd := p.mdb.Reader()
	rd.VisitUsers(func(u *mysql_db.User) {
		if u.IsRole {
			roles = append(roles, u.User+"@"+u.Host)
		}
	})
	rd.Close()
	sort.Strings(roles)
	data := []byte(strings.Join(roles, "\n"))
	if err := p.e.Update(context.Background(), func(tx *engine.Job) error { return tx.SetBlob(rolesBlob, data) }); err != nil {
		p.dirty.Store(true) // (tried again after the next command)
	}
}

// restoreRoles marks the stored roles as roles again after the users
// were loaded.
func restoreRoles(db *mysql_db.MySQLDb, e *engine.Engine) error {
	data, err := e.Blob(rolesBlob)
	if err != nil || len(data) == 0 {
		return sqlbackend.MapError(err)
	}
	ed := db.Editor()
	defer ed.Close()
	for _, acct := range strings.Split(string(data), "\n") {
		name, host, ok := strings.Cut(acct, "@")
		if !ok {
			continue
		}
		if u, found := ed.GetUser(mysql_db.UserPrimaryKey{Host: host, User: name}); found && !u.IsRole {
			nu := *u
			nu.IsRole = true
			replaceUser(ed, &nu)
		}
	}
	return nil
}

// nativePassword returns the mysql_native_password hash of a password as
// the mysql.user table stores it ("" for no password).
func nativePassword(pw string) string {
	if pw == "" {
		return ""
	}
	h1 := sha1.Sum([]byte(pw))
	h2 := sha1.Sum(h1[:])
	return "*" + strings.ToUpper(hex.EncodeToString(h2[:]))
}

// setupUsers loads the persisted users and grants, makes sure root exists
// at the configured host with the configured password, enables
// authentication and installs the persister.
func setupUsers(ctx *sql.Context, db *mysql_db.MySQLDb, e *engine.Engine, cfg *Config) (*persister, error) {
	data, err := e.Blob(usersBlob)
	if err != nil {
		return nil, sqlbackend.MapError(err)
	}
	if len(data) > 0 {
		if err := db.LoadData(ctx, data); err != nil {
			return nil, err
		}
		if err := restoreRoles(db, e); err != nil {
			return nil, err
		}
	}
	db.SetEnabled(true)
	ed := db.Editor()
	u, ok := ed.GetUser(mysql_db.UserPrimaryKey{Host: cfg.RootHost, User: "root"})
	if !ok {
		db.AddSuperUser(ed, "root", cfg.RootHost, cfg.RootPassword)
	} else if hash := nativePassword(cfg.RootPassword); u.AuthString != hash || u.Plugin != string(mysql.MysqlNativePassword) {
		nu := *u
		nu.AuthString, nu.Plugin = hash, string(mysql.MysqlNativePassword)
		replaceUser(ed, &nu)
	}
	ed.Close()
	users := &persister{e: e, mdb: db}
	db.SetPersister(users)
	return users, nil
}

// replaceUser puts u in place of the account of its user and host, which
// it removes first: Editor.PutUser on a changed copy of a stored account
// (ACCOUNT LOCK's) left both, and every lookup of the account then
// panicked with "too many matching users".
func replaceUser(ed *mysql_db.Editor, u *mysql_db.User) {
	ed.RemoveUser(mysql_db.UserPrimaryKey{Host: u.Host, User: u.User})
	ed.PutUser(u)
}

// Authorize checks a SQL account for the HandlerSocket front: the user's
// password (mysql_native_password accounts; "" for none) and its grants on
// db.table: SELECT to read, INSERT, UPDATE and DELETE to write. The
// account is looked up as connecting from localhost. The error is MySQL's
// access-denied error (1045 for a bad user or password, 1142 for a missing
// grant). Safe for concurrent use.
func (s *Server) Authorize(user, password, db, table string, write bool) error {
	return s.AuthorizeHost("localhost", user, password, db, table, write)
}

// AuthorizeHost is Authorize for an account connecting from host (an IP
// address, or localhost), matched against the accounts' hosts as a MySQL
// login from there is: exactly, 127.0.0.1 and ::1 as localhost, and '%'.
func (s *Server) AuthorizeHost(host, user, password, db, table string, write bool) error {
	ps, err := s.account(host, user, password)
	if err != nil {
		return err
	}
	privs := []sql.PrivilegeType{sql.PrivilegeType_Select}
	cmd := "SELECT"
	if write {
		privs = []sql.PrivilegeType{sql.PrivilegeType_Insert, sql.PrivilegeType_Update, sql.PrivilegeType_Delete}
		cmd = "INSERT, UPDATE, DELETE"
	}
	if !hasPrivileges(ps, db, table, privs) {
		return mysql.NewSQLError(errtable.ERTableAccessDenied, mysql.SSClientError,
			"%s command denied to user '%s'@'%s' for table `%s`.`%s`", cmd, user, host, db, table)
	}
	return nil
}

// account checks the password of user@host and returns the account's
// privileges; the error is MySQL's 1045.
func (s *Server) account(host, user, password string) (mysql_db.PrivilegeSet, error) {
	want := nativePassword(password) // hashed even for an unknown user
	mdb := s.engine.Analyzer.Catalog.MySQLDb
	rd := mdb.Reader()
	u := mdb.GetUser(rd, user, host, false)
	var ps mysql_db.PrivilegeSet
	ok := u != nil && !u.Locked && !u.IsRole
	if ok {
		ok = u.Plugin == "" || u.Plugin == string(mysql.MysqlNativePassword)
		ok = ok && subtle.ConstantTimeCompare([]byte(u.AuthString), []byte(want)) == 1
		ps = u.PrivilegeSet.Copy()
	}
	rd.Close()
	if !ok {
		return ps, mysql.NewSQLError(mysql.ERAccessDeniedError, mysql.SSAccessDeniedError,
			"Access denied for user '%s'@'%s' (using password: %s)", user, host, yesNo(password != ""))
	}
	return ps, nil
}

// TablePrivileges are the row privileges an account holds on one table.
type TablePrivileges struct{ Select, Insert, Update, Delete bool }

// Privileges checks the password of the account user@host (as
// AuthorizeHost does) and returns its privileges on db.table, granted
// globally, on db or on the table. The error is MySQL's 1045 for a bad
// user, host or password. Safe for concurrent use.
func (s *Server) Privileges(host, user, password, db, table string) (TablePrivileges, error) {
	ps, err := s.account(host, user, password)
	if err != nil {
		return TablePrivileges{}, err
	}
	has := func(p sql.PrivilegeType) bool { return hasPrivileges(ps, db, table, []sql.PrivilegeType{p}) }
	return TablePrivileges{Select: has(sql.PrivilegeType_Select), Insert: has(sql.PrivilegeType_Insert),
		Update: has(sql.PrivilegeType_Update), Delete: has(sql.PrivilegeType_Delete)}, nil
}

// hasPrivileges reports whether every privilege is granted globally, on db
// or on db.table.
func hasPrivileges(ps mysql_db.PrivilegeSet, db, table string, privs []sql.PrivilegeType) bool {
	if ps.Has(sql.PrivilegeType_Super) {
		return true
	}
	dbs := ps.Database(db)
	tbl := dbs.Table(table)
	for _, p := range privs {
		if !ps.Has(p) && !dbs.Has(p) && !tbl.Has(p) {
			return false
		}
	}
	return true
}

func yesNo(b bool) string {
	if b {
		return "YES"
	}
	return "NO"
}

// Logins are refused as MariaDB refuses them. A client whose host no
// account admits is told so before the handshake (1130, in a packet
// without SQLSTATE, as MariaDB sends it); an unknown user, a user of
// another host and a wrong password get 1045 naming the user, the
// client's host and whether a password was given. (go-mysql-server's own
// auth methods answer "No authentication methods available" for an
// account they do not find.)

// hostGate is a listener that refuses, before the handshake, the
// connections of hosts no account admits.
type hostGate struct {
	net.Listener
	mdb   *mysql_db.MySQLDb
	stats *Stats // counts refusals (nil: not counted)
}

// Accept returns the next connection of an admitted host.
func (g *hostGate) Accept() (net.Conn, error) {
	for {
		conn, err := g.Listener.Accept()
		if err != nil {
			return nil, err
		}
		host := remoteHost(conn.RemoteAddr())
		if hostAdmitted(g.mdb, host) {
			return conn, nil
		}
		if g.stats != nil {
			g.stats.AuthFail.Add(1)
		}
		go refuseHost(conn, host)
	}
}

// refuseHost sends a refused host MariaDB's 1130 as the first packet and
// closes the connection.
func refuseHost(conn net.Conn, host string) {
	defer conn.Close()
	_ = conn.SetWriteDeadline(time.Now().Add(5 * time.Second))
	e := sqlError(errtable.ERHostNotPrivileged, host)
	pkt := []byte{0, 0, 0, 0, mysql.ErrPacket, byte(e.Num), byte(e.Num >> 8)}
	pkt = append(pkt, e.Message...)
	n := len(pkt) - 4
	pkt[0], pkt[1], pkt[2] = byte(n), byte(n>>8), byte(n>>16)
	_, _ = conn.Write(pkt)
}

// hostAdmitted reports whether some account (not a role) admits host.
func hostAdmitted(mdb *mysql_db.MySQLDb, host string) bool {
	if !mdb.Enabled() {
		return true
	}
	rd := mdb.Reader()
	defer rd.Close()
	ok := false
	rd.VisitUsers(func(u *mysql_db.User) {
		ok = ok || !u.IsRole && hostMatches(u.Host, host)
	})
	return ok
}

// hostMatches reports whether an account's host admits a client's host
// as go-mysql-server matches them: exactly, '%' for any host, and the
// loopback addresses as localhost.
func hostMatches(account, host string) bool {
	if account == "%" || account == host {
		return true
	}
	loopback := func(h string) bool { return h == "localhost" || h == "127.0.0.1" || h == "::1" }
	return loopback(host) && loopback(account)
}

// remoteHost is the host of a client address as MariaDB names it
// ("localhost" over a Unix socket).
func remoteHost(addr net.Addr) string {
	if addr == nil {
		return ""
	}
	if addr.Network() == "unix" {
		return "localhost"
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return addr.String()
	}
	return host
}

// loginMethod is one of go-mysql-server's auth methods whose refusals are
// MariaDB's 1045. mysql_native_password also takes the logins of
// accounts that do not exist, to refuse them with 1045 once the client
// has answered.
type loginMethod struct {
	mysql.AuthMethod
	mdb *mysql_db.MySQLDb
}

// HandleUser reports whether the method authenticates user.
func (m *loginMethod) HandleUser(c *mysql.Conn, user string) bool {
	if m.AuthMethod.HandleUser(c, user) {
		return true
	}
	return m.Name() == mysql.MysqlNativePassword && !accountExists(m.mdb, user, remoteHost(c.RemoteAddr()))
}

// HandleAuthPluginData checks the client's answer.
func (m *loginMethod) HandleAuthPluginData(c *mysql.Conn, user string, serverData, clientData []byte, addr net.Addr) (mysql.Getter, error) {
	host := remoteHost(addr)
	withPassword := len(clientData) > 0 && !(len(clientData) == 1 && clientData[0] == 0)
	denied := sqlError(mysql.ERAccessDeniedError, user, host, yesNo(withPassword))
	if !accountExists(m.mdb, user, host) {
		return nil, denied
	}
	lc := limitConnOf(c)
	if lc != nil {
		lc.tried.Store(true)
	}
	if hash, locked := lockedAccount(m.mdb, user, host); locked {
		// MariaDB checks the lock after the password (go-mysql-server
		// refuses a locked account as a wrong password).
		if !nativeTokenMatches(serverData, clientData, hash) {
			return nil, denied
		}
		return nil, sqlError(errtable.ERAccountLocked)
	}
	g, err := m.AuthMethod.HandleAuthPluginData(c, user, serverData, clientData, addr)
	var se *mysql.SQLError
	if err != nil && errors.As(err, &se) && se.Num == mysql.ERAccessDeniedError {
		return nil, denied
	}
	if err == nil && lc != nil {
		if !lc.l.claimSession(lc, connectionAdmin(m.mdb, user, host)) {
			return nil, mysql.NewSQLError(mysql.ERConCount, "08004", "Too many connections")
		}
		if lc.l.hosts != nil {
			lc.l.hosts.reset(host)
		}
	}
	return g, err
}

// connectionAdmin reports whether the account of user at host has SUPER
// or CONNECTION ADMIN, which may take the session slot past
// max_connections.
func connectionAdmin(mdb *mysql_db.MySQLDb, user, host string) bool {
	if !mdb.Enabled() {
		return true
	}
	rd := mdb.Reader()
	defer rd.Close()
	u := mdb.GetUser(rd, user, host, false)
	return u != nil && (u.PrivilegeSet.Has(sql.PrivilegeType_Super) || u.PrivilegeSet.HasDynamic("CONNECTION_ADMIN"))
}

// lockedAccount reports whether the account user logs in to from host is
// locked (CREATE or ALTER USER ... ACCOUNT LOCK), with its password hash.
func lockedAccount(mdb *mysql_db.MySQLDb, user, host string) (hash string, locked bool) {
	if !mdb.Enabled() {
		return "", false
	}
	rd := mdb.Reader()
	defer rd.Close()
	u := mdb.GetUser(rd, user, host, false)
	if u == nil || !u.Locked {
		return "", false
	}
	return u.AuthString, true
}

// nativeTokenMatches reports whether a mysql_native_password answer to
// the salt proves the password whose stored hash is hash ("*" and the
// hex of SHA1(SHA1(password)); "" for none, answered with no token).
// The answer is SHA1(password) XOR SHA1(salt, SHA1(SHA1(password))).
func nativeTokenMatches(salt, token []byte, hash string) bool {
	if len(token) == 1 && token[0] == 0 {
		token = nil
	}
	if hash == "" || len(token) == 0 {
		return hash == "" && len(token) == 0
	}
	stored, err := hex.DecodeString(strings.TrimPrefix(hash, "*"))
	if err != nil || len(stored) != sha1.Size || len(token) != sha1.Size {
		return false
	}
	if len(salt) > 20 {
		salt = salt[:20] // the handshake's scramble ends with a NUL
	}
	h := sha1.New()
	h.Write(salt)
	h.Write(stored)
	mask := h.Sum(nil)
	h1 := make([]byte, sha1.Size)
	for i := range h1 {
		h1[i] = token[i] ^ mask[i]
	}
	h2 := sha1.Sum(h1)
	return subtle.ConstantTimeCompare(h2[:], stored) == 1
}

// accountExists reports whether an account (not a role) admits user from
// host.
func accountExists(mdb *mysql_db.MySQLDb, user, host string) bool {
	if !mdb.Enabled() {
		return true
	}
	rd := mdb.Reader()
	defer rd.Close()
	u := mdb.GetUser(rd, user, host, false)
	return u != nil && !u.IsRole
}
