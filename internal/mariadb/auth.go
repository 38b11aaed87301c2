package mariadb

import (
	"regexp"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"
)

// mariaAuth is go-mysql-server's authorization handler with two
// checks MariaDB does not make:
//
//   - SHOW GRANTS of one's own account (no FOR, or FOR CURRENT_USER) asks
//     for nothing, where go-mysql-server asked for SELECT on the mysql
//     database (1044);
//   - reading a view does not ask for CREATE VIEW.
//
// go-mysql-server reads a view by binding its stored CREATE VIEW statement, with the
// checks of that statement: every account without CREATE VIEW got
// "command denied" selecting from a view (or asking SHOW CREATE VIEW),
// where MariaDB asks for SELECT (SHOW VIEW). CREATE VIEW is still checked
// for every statement that could create a view: CREATE and ALTER, and
// EXECUTE, CALL and PREPARE, whose text is not the statement they run
// (COM_STMT_EXECUTE runs with the prepared text). Safe for concurrent
// use, as the handler it wraps.
type mariaAuth struct {
	sql.AuthorizationHandler
}

// mayCreateView recognises a statement that may create or alter a view:
// its first word (after comments) is CREATE, ALTER, EXECUTE, CALL or
// PREPARE. The opening of an executable comment (/*!50001, /*M!100100)
// is read as blank, not as a comment: mariadb-dump writes its CREATE
// VIEW inside them.
var mayCreateView = regexp.MustCompile(`(?is)^\s*(?:/\*M?!\d*\s*|/\*(?:[^!M]|M[^!]).*?\*/\s*|--[^\n]*\n\s*|#[^\n]*\n\s*)*(?:CREATE|ALTER|EXECUTE|CALL|PREPARE)\b`)

// ownGrants recognises SHOW GRANTS of the session's own account.
var ownGrants = regexp.MustCompile(`(?is)^\s*SHOW\s+GRANTS\s*(?:FOR\s+CURRENT_USER\s*(?:\(\s*\))?\s*)?;?\s*$`)

// startsWithShow reports whether q's first word is SHOW (a cheap test
// before ownGrants: the point fast path asks HandleAuth every statement).
func startsWithShow(q string) bool {
	q = strings.TrimLeft(q, " \t\r\n")
	return len(q) >= 4 && strings.EqualFold(q[:4], "SHOW")
}

// HandleAuth checks auth, CREATE VIEW only for a statement that may make
// a view.
func (v mariaAuth) HandleAuth(ctx *sql.Context, state sql.AuthorizationQueryState, auth ast.AuthInformation) error {
	if auth.AuthType == ast.AuthType_CREATE_VIEW && !mayCreateView.MatchString(ctx.Query()) {
		return nil
	}
	if q := ctx.Query(); startsWithShow(q) && ownGrants.MatchString(q) {
		return nil
	}
	return v.AuthorizationHandler.HandleAuth(ctx, state, auth)
}
