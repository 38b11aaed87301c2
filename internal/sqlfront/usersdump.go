package sqlfront

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// mariadb-dump --system=users reads MariaDB's grant tables: mysql.user's
// is_role and default_role columns and mysql.roles_mapping (grantee,
// role, admin option), which go-mysql-server's mysql database does not
// have (its roles are accounts at '%' and role_edges holds the grants of
// roles). So that the dump of a HandlerDB server loads into MariaDB (and
// any client reading those columns gets MariaDB's answers):
//
//   - a SELECT whose text names is_role, default_role or roles_mapping
//     reads mysql.user as a derived table with those two columns added
//     (mariaGrantTables), and mysql.roles_mapping as one made from
//     role_edges (a role grantee's host is empty, as MariaDB's);
//   - the two columns come from __hdb_account(user, host, what), which
//     reads the accounts and the default roles SET DEFAULT ROLE stores
//     (defaultRoles, kept in the engine: go-mysql-server keeps none);
//   - CREATE ROLE grants the role to its creator WITH ADMIN OPTION, as
//     MariaDB does (roles.go): the dump makes only the roles some account
//     administers.

// defaultRolesBlob names the engine record of the default roles.
const defaultRolesBlob = "sqlfront/default_roles"

// defaultRoles keeps each account's default role. Safe for concurrent
// use.
type defaultRoles struct {
	e  *engine.Engine
	mu sync.Mutex
	m  map[string]string // "user@host" -> role
}

// loadDefaultRoles reads the stored default roles.
func loadDefaultRoles(e *engine.Engine) (*defaultRoles, error) {
	d := &defaultRoles{e: e, m: map[string]string{}}
	data, err := e.Blob(defaultRolesBlob)
	if err != nil {
		return nil, sqlbackend.MapError(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if acct, role, ok := strings.Cut(line, "\t"); ok {
			d.m[acct] = role
		}
	}
	return d, nil
}

// get returns the default role of user@host ("" for none).
func (d *defaultRoles) get(user, host string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m[user+"@"+host]
}

// set makes role ("" for none) the default role of user@host and stores
// the list.
func (d *defaultRoles) set(ctx context.Context, user, host, role string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	key := user + "@" + host
	if role == "" {
		delete(d.m, key)
	} else {
		d.m[key] = role
	}
	lines := make([]string, 0, len(d.m))
	for k, v := range d.m {
		lines = append(lines, k+"\t"+v)
	}
	sort.Strings(lines)
	data := []byte(strings.Join(lines, "\n"))
	return sqlbackend.MapError(d.e.Update(ctx, func(tx *engine.Job) error { return tx.SetBlob(defaultRolesBlob, data) }))
}

// accountFuncName is the helper function the derived grant tables call.
const accountFuncName = "__hdb_account"

// accountFunc is __hdb_account(user, host, what): for what 'is_role',
// 'Y' when user@host is a role (a role grantee of role_edges is at '%'),
// else 'N'; for 'default_role', the account's default role or empty
// text. Immutable; evaluated against the live accounts.
type accountFunc struct {
	args     [3]sql.Expression
	mdb      *mysql_db.MySQLDb
	defaults *defaultRoles
}

var _ sql.FunctionExpression = (*accountFunc)(nil)

func (f *accountFunc) FunctionName() string { return accountFuncName }
func (f *accountFunc) Description() string  { return "MariaDB's is_role and default_role of an account" }
func (f *accountFunc) Resolved() bool {
	return f.args[0].Resolved() && f.args[1].Resolved() && f.args[2].Resolved()
}
func (f *accountFunc) String() string {
	return fmt.Sprintf("%s(%s, %s, %s)", accountFuncName, f.args[0], f.args[1], f.args[2])
}
func (f *accountFunc) Type() sql.Type             { return gmstypes.LongText }
func (f *accountFunc) IsNullable() bool           { return false }
func (f *accountFunc) Children() []sql.Expression { return f.args[:] }
func (f *accountFunc) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_utf8mb4_general_ci, 4
}

func (f *accountFunc) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 3 {
		return nil, sql.ErrInvalidChildrenNumber.New(f, len(children), 3)
	}
	nf := *f
	copy(nf.args[:], children)
	return &nf, nil
}

// Eval answers for the row's account.
func (f *accountFunc) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	var s [3]string
	for i, a := range f.args {
		v, err := a.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		if v == nil {
			return "", nil
		}
		t, _, err := gmstypes.LongText.Convert(ctx, v)
		if err != nil {
			return nil, err
		}
		s[i] = t.(string)
	}
	switch strings.ToLower(s[2]) {
	case "is_role":
		rd := f.mdb.Reader()
		defer rd.Close()
		if u, ok := rd.GetUser(mysql_db.UserPrimaryKey{Host: s[1], User: s[0]}); ok && u.IsRole {
			return "Y", nil
		}
		return "N", nil
	case "default_role":
		return f.defaults.get(s[0], s[1]), nil
	}
	return "", nil
}

// accountFunction is the catalog entry of __hdb_account.
func accountFunction(mdb *mysql_db.MySQLDb, defaults *defaultRoles) sql.Function3 {
	return sql.Function3{Name: accountFuncName, Fn: func(user, host, what sql.Expression) sql.Expression {
		return &accountFunc{args: [3]sql.Expression{user, host, what}, mdb: mdb, defaults: defaults}
	}}
}

// The derived tables that stand for MariaDB's grant tables.
const (
	mariaUserTable = "SELECT *, " + accountFuncName + "(User, Host, 'is_role') AS is_role, " +
		accountFuncName + "(User, Host, 'default_role') AS default_role FROM mysql.user"
	mariaRolesMapping = "SELECT IF(" + accountFuncName + "(TO_USER, TO_HOST, 'is_role') = 'Y', '', TO_HOST) AS Host, " +
		"TO_USER AS User, FROM_USER AS Role, WITH_ADMIN_OPTION AS Admin_option FROM mysql.role_edges"
)

// mariaGrantTables makes st, a SELECT whose text names MariaDB's grant
// table columns, read mysql.user and mysql.roles_mapping as the derived
// tables above.
func mariaGrantTables(st ast.Statement, text string) ast.Statement {
	// (only mysql.user and mysql.roles_mapping, named with their
	// database, are rewritten: one scan for "mysql" serves most texts)
	if !sqlbackend.ContainsFold(text, "mysql") ||
		!sqlbackend.ContainsFold(text, "is_role") && !sqlbackend.ContainsFold(text, "default_role") && !sqlbackend.ContainsFold(text, "roles_mapping") {
		return st
	}
	switch st.(type) {
	case *ast.Select, *ast.SetOp:
	default:
		return st
	}
	_ = ast.Walk(func(node ast.SQLNode) (bool, error) {
		at, ok := node.(*ast.AliasedTableExpr)
		if !ok {
			return true, nil
		}
		tn, ok := at.Expr.(ast.TableName)
		if !ok || !strings.EqualFold(tn.DbQualifier.String(), "mysql") {
			return true, nil
		}
		var def string
		switch strings.ToLower(tn.Name.String()) {
		case "user":
			def = mariaUserTable
		case "roles_mapping":
			def = mariaRolesMapping
		default:
			return true, nil
		}
		sub, err := ast.Parse(def)
		if err != nil {
			return true, nil
		}
		if at.As.IsEmpty() {
			at.As = ast.NewTableIdent(tn.Name.String())
		}
		at.Expr = &ast.Subquery{Select: sub.(ast.SelectStatement)}
		return false, nil
	}, st)
	return st
}
