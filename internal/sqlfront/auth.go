package sqlfront

import (
	"crypto/sha1"
	"crypto/subtle"
	"encoding/hex"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// usersBlob names the engine record that holds the serialized users and
// grants (go-mysql-server's mysql database).
const usersBlob = "sqlfront/mysql_db"

// persister stores go-mysql-server's users and grants in the engine each
// time CREATE USER, GRANT, REVOKE and the like change them. Safe for
// concurrent use.
type persister struct{ e *engine.Engine }

// Persist writes the serialized users and grants as one engine job.
func (p *persister) Persist(ctx *sql.Context, data []byte) error {
	data = append([]byte(nil), data...)
	return mapError(p.e.Update(ctx, func(tx *engine.Tx) error { return tx.SetBlob(usersBlob, data) }))
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
func setupUsers(ctx *sql.Context, db *mysql_db.MySQLDb, e *engine.Engine, cfg *Config) error {
	data, err := e.Blob(usersBlob)
	if err != nil {
		return mapError(err)
	}
	if len(data) > 0 {
		if err := db.LoadData(ctx, data); err != nil {
			return err
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
		ed.PutUser(&nu)
	}
	ed.Close()
	db.SetPersister(&persister{e: e})
	return nil
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

// AuthorizeHost is Authorize for an account connecting from host.
func (s *Server) AuthorizeHost(host, user, password, db, table string, write bool) error {
	mdb := s.engine.Analyzer.Catalog.MySQLDb
	rd := mdb.Reader()
	u := mdb.GetUser(rd, user, host, false)
	var ps mysql_db.PrivilegeSet
	ok := u != nil && !u.Locked && !u.IsRole
	if ok {
		ok = u.Plugin == "" || u.Plugin == string(mysql.MysqlNativePassword)
		want := nativePassword(password)
		ok = ok && subtle.ConstantTimeCompare([]byte(u.AuthString), []byte(want)) == 1
		ps = u.PrivilegeSet.Copy()
	}
	rd.Close()
	if !ok {
		return mysql.NewSQLError(mysql.ERAccessDeniedError, mysql.SSAccessDeniedError,
			"Access denied for user '%s'@'%s' (using password: %s)", user, host, yesNo(password != ""))
	}
	privs := []sql.PrivilegeType{sql.PrivilegeType_Select}
	cmd := "SELECT"
	if write {
		privs = []sql.PrivilegeType{sql.PrivilegeType_Insert, sql.PrivilegeType_Update, sql.PrivilegeType_Delete}
		cmd = "INSERT, UPDATE, DELETE"
	}
	if !hasPrivileges(ps, db, table, privs) {
		return mysql.NewSQLError(erTableAccessDenied, mysql.SSClientError,
			"%s command denied to user '%s'@'%s' for table `%s`.`%s`", cmd, user, host, db, table)
	}
	return nil
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
