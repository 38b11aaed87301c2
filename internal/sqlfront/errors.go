package sqlfront

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/mysql_db"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/vt/sqlparser"
	"github.com/dolthub/vitess/go/vt/vterrors"
	goerrors "gopkg.in/src-d/go-errors.v1"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/mariadb"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Errors reach MySQL clients as MariaDB 10.11 reports them: the same
// error number, SQLSTATE and message, so that drivers and ORMs can react
// (a duplicate key is 1062/23000, a missing table 1146/42S02, ...).
//
// They come from three places. The engine's errors are mapped where the
// backend meets them (sqlbackend.MapError). go-mysql-server's own errors
// are made deep in its planner and executor and cast by its handler to a
// *mysql.SQLError that keeps its number (1105 for most) and its own
// English; the one exit point, wireError, which every command's
// error goes through on its way to the client (wire.go), recognises them
// by their kind's message and rewrites them with what the statement tells
// (the table a name resolves to, the clause a column is in, the row a
// value is in). Login refusals are made in auth.go. All three take their
// numbers, states and wording from internal/errtable, which also says how
// each engine condition is reported (to HandlerSocket clients too).

// sqlError returns MySQL error num with its arguments, as MariaDB words
// it (errtable.SQLError).
func sqlError(num int, args ...any) *mysql.SQLError { return errtable.SQLError(num, args...) }

// syntaxErrorText is what MariaDB's 1064 says before "near".
const syntaxErrorText = "You have an error in your SQL syntax; check the manual that corresponds to your MariaDB server version for the right syntax to use"

// kindWording words the errors of one go-mysql-server error kind as
// MariaDB does. go-mysql-server's handler casts every error to a
// *mysql.SQLError that keeps only its text before the SQL front sees it,
// so the kind is recognized, and its arguments read back, by the text its
// own message format (errors.Kind.Message) makes: when go-mysql-server
// rewords a kind, the matcher follows. TestKindWordings makes an error of
// every kind in the table and checks that its own entry recognizes it.
type kindWording struct {
	kind *goerrors.Kind
	// cause is, for a kind go-mysql-server makes with Wrap, the format of
	// the cause's message (its arguments follow the kind's).
	cause string
	// bare: the kind is made with no arguments for its verbs (its text
	// is fixed, with fmt's %!d(MISSING) marks).
	bare bool
	// conv returns MariaDB's error, or nil to leave the error alone.
	conv func(x *errContext, a []string) *mysql.SQLError

	re     *regexp.Regexp
	quoted []bool // which arguments are %q (unquoted before conv)
}

// onKind words the errors of kind with conv.
func onKind(kind *goerrors.Kind, conv func(x *errContext, a []string) *mysql.SQLError) kindWording {
	return compileWording(kindWording{kind: kind, conv: conv})
}

// onWrapped words the errors kind.Wrap makes of a cause whose message has
// the format cause.
func onWrapped(kind *goerrors.Kind, cause string, conv func(x *errContext, a []string) *mysql.SQLError) kindWording {
	return compileWording(kindWording{kind: kind, cause: cause, conv: conv})
}

// onBareKind words the errors of a kind that go-mysql-server makes with
// no arguments.
func onBareKind(kind *goerrors.Kind, conv func(x *errContext, a []string) *mysql.SQLError) kindWording {
	return compileWording(kindWording{kind: kind, bare: true, conv: conv})
}

// compileWording builds w's matcher from its kind's format: each %s, %v,
// %d or %T matches any text, %q a quoted string.
func compileWording(w kindWording) kindWording {
	if w.bare {
		w.re = regexp.MustCompile("^" + regexp.QuoteMeta(w.kind.New().Error()) + "$")
		return w
	}
	format := w.kind.Message
	if w.cause != "" {
		format = w.kind.Wrap(errors.New(w.cause)).Error()
	}
	var re strings.Builder
	re.WriteString("^(?s)")
	lit := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' || i+1 == len(format) {
			continue
		}
		re.WriteString(regexp.QuoteMeta(format[lit:i]))
		switch format[i+1] {
		case '%':
			re.WriteString("%")
		case 'q':
			re.WriteString(`("(?:[^"\\]|\\.)*")`)
			w.quoted = append(w.quoted, true)
		default:
			re.WriteString("(.*?)")
			w.quoted = append(w.quoted, false)
		}
		i++
		lit = i + 1
	}
	re.WriteString(regexp.QuoteMeta(format[lit:]))
	re.WriteString("$")
	w.re = regexp.MustCompile(re.String())
	return w
}

// match returns the arguments of msg when w's kind made it.
func (w *kindWording) match(msg string) ([]string, bool) {
	m := w.re.FindStringSubmatch(msg)
	if m == nil {
		return nil, false
	}
	args := m[1:]
	for i, q := range w.quoted {
		if q && i < len(args) {
			if s, err := strconv.Unquote(args[i]); err == nil {
				args[i] = s
			}
		}
	}
	return args, true
}

// unwrapSQLError returns the error of ours (a *mysql.SQLError of the
// parser's or a rewrite's) that go-mysql-server wrapped in one of its own
// kinds: its text ends as vitess's SQLError.Error ends it, with the number
// and state, which vitess's NewSQLErrorFromError reads back.
func unwrapSQLError(msg string) (*mysql.SQLError, bool) {
	se, ok := mysql.NewSQLErrorFromError(errors.New(msg)).(*mysql.SQLError)
	if !ok || se.Num == mysql.ERUnknownError {
		return nil, false
	}
	suffix := (&mysql.SQLError{Num: se.Num, State: se.State}).Error()
	if !strings.HasSuffix(msg, suffix) {
		return nil, false
	}
	return &mysql.SQLError{Num: se.Num, State: se.State, Message: strings.TrimSuffix(msg, suffix)}, true
}

// dupEntryFormat is MariaDB's text of 1062, which the backend gives its
// duplicate-key errors.
var dupEntryFormat = func() string { e, _ := errtable.MySQL(mysql.ERDupEntry); return e.Format }()

// dupEntry is 1062 with the key and index the backend's text names.
func dupEntry(x *errContext, a []string) *mysql.SQLError {
	return sqlError(mysql.ERDupEntry, a[0], a[1])
}

// kindWordings are tried in order on the message of every error that is
// not already one of ours.
var kindWordings = append(fkWordings, []kindWording{
	// go-mysql-server's planner refuses window functions and aggregates
	// in one SELECT, with this error's format left unfilled; windowsOverGroups
	// (mariadb/reportsyntax.go) rewrites all but a few such SELECTs.
	onBareKind(sql.ErrNonAggregatedColumnWithoutGroupBy, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERNotSupportedYet, "window functions with aggregates in a SELECT with a window defined over another, or a subquery in a window or the ORDER BY")
	}),
	// The backend's duplicate keys (sqlbackend.dupKeyError): MariaDB's
	// 1062 text wrapped in go-mysql-server's unique-key kinds.
	onWrapped(sql.ErrPrimaryKeyViolation, dupEntryFormat, dupEntry),
	onWrapped(sql.ErrUniqueKeyViolation, dupEntryFormat, dupEntry),
	// A name longer than 64 bytes, refused by go-mysql-server before the
	// backend sees it.
	onKind(sql.ErrInvalidIdentifier, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERTooLongIdent, a[0])
	}),
	onKind(sql.ErrUnknownSystemVariable, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERUnknownSystemVariable, mariadb.VariableName(a[0]))
	}),
	onKind(sql.ErrKeyZero, func(x *errContext, a []string) *mysql.SQLError { return sqlError(errtable.ERKeyPart0, a[0]) }),
	onKind(sql.ErrInvalidIndexPrefix, func(x *errContext, a []string) *mysql.SQLError { return sqlError(mysql.ERWrongSubKey) }),
	onKind(sql.ErrKeyTooLong, func(x *errContext, a []string) *mysql.SQLError { return sqlError(mysql.ERTooLongKey, 3072) }),
	onKind(sql.ErrTableNotFound, (*errContext).tableNotFound),
	onKind(sql.ErrEventAlreadyExists, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.EREventAlreadyExists, a[0])
	}),
	onKind(sql.ErrEventDoesNotExist, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.EREventDoesNotExist, a[0])
	}),
	onKind(sql.ErrUnknownEvent, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.EREventDoesNotExist, a[0])
	}),
	onKind(sql.ErrCheckConstraintViolated, (*errContext).checkFailed),
	onKind(sql.ErrGeneratedColumnValue, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.ERGeneratedColumnValue, a[0], a[1])
	}),
	onKind(sql.ErrDatabaseNotFound, (*errContext).databaseNotFound),
	onKind(sql.ErrTableAlreadyExists, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERTableExists, a[0])
	}),
	onKind(sql.ErrDatabaseExists, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERDbCreateExists, a[0])
	}),
	onKind(sql.ErrUnknownTable, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERBadTable, x.qualified(a[0]))
	}),
	onKind(sql.ErrNoDatabaseSelected, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERNoDb)
	}),
	onKind(sql.ErrColumnNotFound, func(x *errContext, a []string) *mysql.SQLError {
		return x.unknownColumn("", a[0])
	}),
	onKind(sql.ErrTableColumnNotFound, func(x *errContext, a []string) *mysql.SQLError {
		if x.dropsColumn(a[1]) {
			return sqlError(mysql.ERCantDropFieldOrKey, "COLUMN", a[1])
		}
		return x.unknownColumn(a[0], a[1])
	}),
	onKind(sql.ErrUnknownColumn, func(x *errContext, a []string) *mysql.SQLError {
		if clauseNames[a[1]] {
			return sqlError(mysql.ERBadFieldError, a[0], a[1])
		}
		return x.unknownColumn("", a[0])
	}),
	onKind(sql.ErrAmbiguousColumnName, func(x *errContext, a []string) *mysql.SQLError {
		text, clause, _ := x.findColumn("", a[0])
		return sqlError(mysql.ERNonUniq, text, clause)
	}),
	onKind(sql.ErrAmbiguousColumnOrAliasName, func(x *errContext, a []string) *mysql.SQLError {
		text, clause, _ := x.findColumn("", a[0])
		return sqlError(mysql.ERNonUniq, text, clause)
	}),
	onKind(sql.ErrDuplicateAliasOrTable, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERNonUniqTable, a[0])
	}),
	onKind(sql.ErrDuplicateColumn, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERDupFieldName, a[0])
	}),
	onKind(sql.ErrColumnExists, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERDupFieldName, a[0])
	}),
	onKind(sql.ErrCantDropFieldOrKey, func(x *errContext, a []string) *mysql.SQLError {
		what := "INDEX"
		if x.dropsColumn(a[0]) {
			what = "COLUMN"
		}
		return sqlError(mysql.ERCantDropFieldOrKey, what, a[0])
	}),
	onKind(sql.ErrColumnSpecifiedTwice, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERFieldSpecifiedTwice, a[0])
	}),
	onKind(sql.ErrInsertIntoMismatchValueCount, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERWrongValueCountOnRow, x.valueCountRow())
	}),
	onKind(sql.ErrInsertIntoNonNullableProvidedNull, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERBadNullError, a[0])
	}),
	onKind(sql.ErrInsertIntoNonNullableDefaultNullColumn, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERNoDefaultForField, a[0])
	}),
	onKind(gtypes.ErrLengthBeyondLimit, func(x *errContext, a []string) *mysql.SQLError {
		site, ok := x.valueSite(func(c *types.Column, lit string) bool { return strings.EqualFold(c.Name, a[1]) && lit == a[0] })
		if !ok {
			site = valueSite{column: a[1], row: 1}
		}
		return sqlError(mysql.ERDataTooLong, site.column, site.row)
	}),
	onKind(sql.ErrValueOutOfRange, func(x *errContext, a []string) *mysql.SQLError {
		site, ok := x.valueSite(func(c *types.Column, lit string) bool {
			return sqlbackend.SQLType(&c.Type).String() == a[1] && sameNumber(lit, a[0])
		})
		if !ok {
			site, ok = x.valueSite(func(c *types.Column, lit string) bool { return sameNumber(lit, a[0]) })
		}
		if !ok {
			return x.keepText(mysql.ERWarnDataOutOfRange)
		}
		return sqlError(mysql.ERWarnDataOutOfRange, site.column, site.row)
	}),
	onKind(sql.ErrInvalidValue, func(x *errContext, a []string) *mysql.SQLError {
		site, ok := x.valueSite(func(c *types.Column, lit string) bool { return valueWord(&c.Type) != "" && lit == a[0] })
		if !ok {
			return x.keepText(mysql.ERTruncatedWrongValueForField)
		}
		return sqlError(mysql.ERTruncatedWrongValueForField, valueWord(&site.t.Columns[site.col].Type), a[0],
			site.t.DB, site.t.Name, site.column, site.row)
	}),
	onKind(gtypes.ErrConvertingToTime, func(x *errContext, a []string) *mysql.SQLError {
		site, ok := x.valueSite(func(c *types.Column, lit string) bool { return temporalWord(&c.Type) != "" && lit == a[0] })
		if !ok {
			return x.keepText(mysql.ERTruncatedWrongValue)
		}
		return sqlError(mysql.ERTruncatedWrongValue, temporalWord(&site.t.Columns[site.col].Type), a[0],
			site.t.DB, site.t.Name, site.column, site.row)
	}),
	onKind(sql.ErrInvalidSetValue, func(x *errContext, a []string) *mysql.SQLError {
		if name := x.setVariable(); name != "" {
			return sqlError(mysql.ERWrongValueForVar, name, a[0])
		}
		return nil
	}),
	onKind(sql.ErrExpectedSingleRow, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERSubqueryNo1Row)
	}),
	onKind(sql.ErrInvalidArgumentNumber, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.ERWrongParamCountToNativeFct, x.functionName(a[0]))
	}),
	onKind(sql.ErrFunctionNotFound, func(x *errContext, a []string) *mysql.SQLError {
		name := x.functionName(a[0])
		if db := x.currentDB(); db != "" && !strings.Contains(name, ".") {
			name = db + "." + name
		}
		return sqlError(mysql.ERSPDoesNotExist, "FUNCTION", name)
	}),
	onKind(sql.ErrSavepointDoesNotExist, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERSPDoesNotExist, "SAVEPOINT", a[0])
	}),
	onKind(sql.ErrInvalidAutoIncCols, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERWrongAutoKey)
	}),
	onKind(sql.ErrWrongAutoKey, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERWrongAutoKey)
	}),
	onKind(sql.ErrKeyColumnDoesNotExist, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERKeyColumnDoesNotExist, a[0])
	}),
	onKind(sql.ErrMultiplePrimaryKeysDefined, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERMultiplePriKey)
	}),
	onKind(sql.ErrSystemVariableReadOnly, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERIncorrectGlobalLocalVar, a[0], "read only")
	}),
	onKind(sql.ErrReadOnlyTransaction, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.ERCantExecuteInReadOnlyTransaction)
	}),
	onKind(sql.ErrLockDeadlock, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERLockDeadlock)
	}),
	onKind(sql.ErrUnsupportedFeature, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(mysql.ERNotSupportedYet, a[0])
	}),
	onKind(sql.ErrDatabaseAccessDeniedForUser, func(x *errContext, a []string) *mysql.SQLError {
		return x.accessDenied(a[1], "")
	}),
	onKind(sql.ErrTableAccessDeniedForUser, func(x *errContext, a []string) *mysql.SQLError {
		return x.accessDenied("", a[1])
	}),
	onKind(sql.ErrPrivilegeCheckFailed, func(x *errContext, a []string) *mysql.SQLError {
		return x.accessDenied("", "")
	}),
	onKind(sql.ErrUserCreationFailure, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.ERCannotUser, "CREATE USER", a[0])
	}),
	onKind(sql.ErrUserAlterFailure, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.ERCannotUser, "ALTER USER", a[0])
	}),
	onKind(sql.ErrUserDeletionFailure, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.ERCannotUser, "DROP USER", a[0])
	}),
	onKind(sql.ErrRoleCreationFailure, func(x *errContext, a []string) *mysql.SQLError {
		return sqlError(errtable.ERCannotUser, "CREATE ROLE", a[0])
	}),
}...)

// translate returns err as MariaDB words it.
func (x *errContext) translate(err error) error {
	se, ok := err.(*mysql.SQLError)
	if !ok {
		se = sql.CastSQLError(sqlbackend.MapError(err))
	}
	if errors.Is(err, context.Canceled) || (se.Num == mysql.ERUnknownError && se.Message == context.Canceled.Error()) {
		// KILL QUERY (or KILL, or the client's going) cancelled the
		// statement's context.
		return sqlError(mysql.ERQueryInterrupted)
	}
	x.msg = se.Message
	if ours, ok := unwrapSQLError(se.Message); ok {
		return ours
	}
	for i := range kindWordings {
		if a, ok := kindWordings[i].match(se.Message); ok {
			if out := kindWordings[i].conv(x, a); out != nil {
				return out
			}
			break
		}
	}
	if e, ok := errtable.MySQL(se.Num); ok && se.State != e.State && se.Num != mysql.ERUnknownError {
		c := *se
		c.State = e.State
		return &c
	}
	return se
}

// keepText is MySQL error num (errtable) with go-mysql-server's message,
// for an error whose MariaDB arguments the statement does not tell.
func (x *errContext) keepText(num int) *mysql.SQLError {
	e, _ := errtable.MySQL(num)
	return &mysql.SQLError{Num: num, State: e.State, Message: x.msg}
}

// sameNumber reports whether a literal and a value printed by
// go-mysql-server are the same number (or the same text).
func sameNumber(lit, val string) bool {
	if lit == val {
		return true
	}
	a, err1 := strconv.ParseFloat(lit, 64)
	b, err2 := strconv.ParseFloat(val, 64)
	return err1 == nil && err2 == nil && a == b
}

// valueWord is the type MariaDB's 1366 names for a value a column of t
// cannot take ("" for types that report other errors).
func valueWord(t *types.Type) string {
	switch {
	case t.IsInteger():
		return "integer"
	case t.Kind == types.Decimal:
		return "decimal"
	case t.Kind == types.Float || t.Kind == types.Double:
		return "double"
	}
	return ""
}

// temporalWord is the type MariaDB's 1292 names for a temporal column.
func temporalWord(t *types.Type) string {
	switch t.Kind {
	case types.Date:
		return "date"
	case types.DateTime, types.Timestamp:
		return "datetime"
	case types.Time:
		return "time"
	}
	return ""
}

// errContext is what the exit point knows of a failed command: the
// connection and the statement's text, parsed on demand.
type errContext struct {
	h     *mariaHandler
	c     *mysql.Conn
	query string
	// selectDB is set for COM_INIT_DB and the database named at login.
	selectDB bool
	// msg is go-mysql-server's message of the error being translated.
	msg string

	parsed bool
	ast    sqlparser.Statement
}

// wireError is the exit point of the SQL front's errors: every command's
// error goes through it on its way to the client (see wire.go), and comes
// out as MariaDB words it. query is the command's statement text.
func (h *mariaHandler) wireError(c *mysql.Conn, query string, err error) error {
	if err == nil {
		return nil
	}
	x := &errContext{h: h, c: c, query: query}
	var listed *listedError
	if errors.As(err, &listed) {
		// The statement has put its error among its warnings itself.
		return x.translate(listed.err)
	}
	out := x.translate(err)
	if se, ok := out.(*mysql.SQLError); ok {
		// As in MariaDB, SHOW WARNINGS after a failed statement lists its
		// error (after the warnings it raised before failing).
		x.withSession(func(sess sql.Session) {
			sess.Warn(&sql.Warning{Level: "Error", Code: se.Num, Message: se.Message})
		})
	}
	return out
}

// listedError is a statement's error that the statement has already
// added to the session's warnings, where SHOW WARNINGS lists it (before
// further errors of the statement: a LOAD DATA's failing line).
type listedError struct{ err error }

func (e *listedError) Error() string { return e.err.Error() }
func (e *listedError) Unwrap() error { return e.err }

// ComInitDB selects a database (COM_INIT_DB, and the database a client
// names at login), reporting failures as MariaDB does. It also lifts the
// connect deadline (see authenticated).
func (h *mariaHandler) ComInitDB(c *mysql.Conn, schemaName string) error {
	authenticated(c)
	if lc := limitConnOf(c); lc != nil && lc.started.Load() {
		logGeneral(c, "Init DB", schemaName) // (not the login's)
	}
	err := h.Handler.ComInitDB(c, schemaName)
	if err == nil {
		return nil
	}
	return (&errContext{h: h, c: c, selectDB: true}).translate(err)
}

// setVariable is the variable a failed SET statement sets (the first
// SET-typed one, sql_mode, when it sets several), or "".
func (x *errContext) setVariable() string {
	st, ok := x.stmt().(*sqlparser.Set)
	if !ok || len(st.Exprs) == 0 {
		return ""
	}
	name := ""
	for _, e := range st.Exprs {
		if e.Name == nil {
			continue
		}
		n := strings.TrimPrefix(strings.ToLower(e.Name.Name.String()), "@@")
		for _, p := range []string{"session.", "global.", "local."} {
			n = strings.TrimPrefix(n, p)
		}
		if name == "" || n == "sql_mode" {
			name = n
		}
	}
	return name
}

// stmt returns the failed statement, or nil when it does not parse.
func (x *errContext) stmt() sqlparser.Statement {
	if !x.parsed {
		x.parsed = true
		if x.query != "" {
			x.ast, _, _ = sqlparser.ParseOne(context.Background(), x.query)
		}
		if x.ast == nil && x.query != "" {
			// The replication statements the SQL front reads itself,
			// or gives the parser in another spelling (replication.go).
			if st, _, ok, err := mariadb.ReplicationStatement(x.query, true); ok && err == nil {
				x.ast = st
			} else if rw, ok := mariadb.ReplicationRewrite(x.query); ok {
				x.ast, _, _ = sqlparser.ParseOne(context.Background(), rw)
			} else if at := returningAt(x.query); at > 0 && firstWord(x.query) == "insert" {
				// INSERT ... RETURNING: the statement without its list
				x.ast, _, _ = sqlparser.ParseOne(context.Background(), x.query[:at])
			}
		}
	}
	return x.ast
}

// walk visits the nodes of the statement in order until visit returns
// false for the last time.
func (x *errContext) walk(visit func(n sqlparser.SQLNode) bool) {
	if st := x.stmt(); st != nil {
		_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) { return visit(n), nil }, st)
	}
}

// server returns the Server of the connection, or nil (outside one).
func (x *errContext) server() *Server {
	if x.h == nil {
		return nil
	}
	return x.h.srv.Load()
}

// currentDB is the connection's current database ("" for none).
func (x *errContext) currentDB() string {
	db := ""
	x.withSession(func(sess sql.Session) { db = sess.GetCurrentDatabase() })
	return db
}

// withSession calls f with the connection's session, if it has one. It
// runs on the connection's goroutine, the only one to use the session.
func (x *errContext) withSession(f func(sql.Session)) {
	s := x.server()
	if s == nil || x.c == nil {
		return
	}
	_ = s.srv.SessionManager().Iter(func(sess sql.Session) (bool, error) {
		if sess.ID() == x.c.ConnectionID {
			f(sess)
			return true, nil
		}
		return false, nil
	})
}

// account returns the logged-in user and its account's host ('%', an
// address), as MariaDB names them in 1044.
func (x *errContext) account() (user, host string) {
	if x.c == nil {
		return "", ""
	}
	if u, ok := x.c.UserData.(sql.MysqlConnectionUser); ok {
		return u.User, u.Host
	}
	return x.c.User, ""
}

// clientHost is the host the client connects from, as MariaDB names it
// in 1142.
func (x *errContext) clientHost() string {
	if x.c == nil || x.c.Conn == nil {
		return ""
	}
	return remoteHost(x.c.RemoteAddr())
}

// engineTable returns the engine table a table name of the statement
// resolves to, or nil.
func (x *errContext) engineTable(tn sqlparser.TableName) *engine.Table {
	s := x.server()
	if s == nil {
		return nil
	}
	db := tn.DbQualifier.String()
	if db == "" {
		db = x.currentDB()
	}
	return s.p.ResolveTable(db, tn.Name.String())
}

// tableRef returns the first table (not column qualifier) of the
// statement for which match holds.
func (x *errContext) tableRef(match func(tn sqlparser.TableName) bool) (sqlparser.TableName, bool) {
	var found sqlparser.TableName
	ok := false
	x.walk(func(n sqlparser.SQLNode) bool {
		switch n := n.(type) {
		case *sqlparser.ColName:
			return false
		case sqlparser.TableName:
			if !ok && match(n) {
				found, ok = n, true
			}
		}
		return !ok
	})
	return found, ok
}

// checkFailed is MariaDB's 4025 for a CHECK constraint an INSERT, REPLACE
// or UPDATE made false: it names the statement's first table (the one
// written) with its database.
func (x *errContext) checkFailed(a []string) *mysql.SQLError {
	tn, _ := x.tableRef(func(sqlparser.TableName) bool { return true })
	db := tn.DbQualifier.String()
	if db == "" {
		db = x.currentDB()
	}
	return sqlError(errtable.ERConstraintFailed, a[0], db, tn.Name.String())
}

// qualified returns db.name for a table name of the statement: with its
// own database, else the current one.
func (x *errContext) qualified(name string) string {
	if strings.Contains(name, ".") {
		return name
	}
	db := ""
	if tn, ok := x.tableRef(func(tn sqlparser.TableName) bool { return strings.EqualFold(tn.Name.String(), name) }); ok {
		db = tn.DbQualifier.String()
	}
	if db == "" {
		db = x.currentDB()
	}
	if db == "" {
		return name
	}
	return db + "." + name
}

// tableNotFound words go-mysql-server's "table not found": 1051 for DROP
// TABLE, 1054 for a column qualifier naming no table of the query, else
// 1146.
func (x *errContext) tableNotFound(a []string) *mysql.SQLError {
	name := a[0]
	if d, ok := x.stmt().(*sqlparser.DDL); ok && d.Action == sqlparser.DropStr {
		return sqlError(mysql.ERBadTable, x.qualified(name))
	}
	if _, ok := x.tableRef(func(tn sqlparser.TableName) bool { return strings.EqualFold(tn.Name.String(), name) }); !ok {
		var col *sqlparser.ColName
		x.walk(func(n sqlparser.SQLNode) bool {
			if c, ok := n.(*sqlparser.ColName); ok && col == nil && strings.EqualFold(c.Qualifier.Name.String(), name) {
				col = c
			}
			return col == nil
		})
		if col != nil {
			return x.unknownColumn(name, col.Name.String())
		}
	}
	q := x.qualified(name)
	if i := strings.LastIndexByte(q, '.'); i >= 0 {
		return sqlError(mysql.ERNoSuchTable, q[:i], q[i+1:])
	}
	return sqlError(mysql.ERNoDb)
}

// databaseNotFound words go-mysql-server's "database not found": 1049
// for USE, 1008 for DROP DATABASE, 1146 for a table of the database.
func (x *errContext) databaseNotFound(a []string) *mysql.SQLError {
	db := a[0]
	if x.selectDB {
		return sqlError(mysql.ERBadDb, db)
	}
	switch st := x.stmt().(type) {
	case *sqlparser.Use:
		return sqlError(mysql.ERBadDb, db)
	case *sqlparser.DBDDL:
		if st.Action == sqlparser.DropStr {
			return sqlError(mysql.ERDbDropExists, db)
		}
		return sqlError(mysql.ERBadDb, db)
	}
	if tn, ok := x.tableRef(func(tn sqlparser.TableName) bool { return strings.EqualFold(tn.DbQualifier.String(), db) }); ok {
		return sqlError(mysql.ERNoSuchTable, tn.DbQualifier.String(), tn.Name.String())
	}
	return sqlError(mysql.ERBadDb, db)
}

// clauseNames are the clauses MariaDB names in 1052 and 1054.
var clauseNames = map[string]bool{
	"SELECT": true, "FROM": true, "ON": true, "WHERE": true, "GROUP BY": true, "HAVING": true,
	"ORDER BY": true, "SET": true, "INSERT INTO": true, "VALUES": true, "UPDATE": true,
}

// unknownColumn is 1054 for column name (of table qual when set) as the
// statement writes it, with the clause it is in.
func (x *errContext) unknownColumn(qual, name string) *mysql.SQLError {
	text, clause, _ := x.findColumn(qual, name)
	return sqlError(mysql.ERBadFieldError, text, clause)
}

// findColumn finds the first reference to column name (of table qual
// when set) in the statement and returns it as written, with the clause
// it is in as MariaDB names it; the name itself and "SELECT" when none is
// found.
func (x *errContext) findColumn(qual, name string) (text, clause string, ok bool) {
	f := &colFinder{qual: qual, name: name}
	if st := x.stmt(); st != nil {
		f.statement(st)
	}
	if !f.found {
		text = name
		if qual != "" {
			text = qual + "." + name
		}
		return text, "SELECT", false
	}
	return f.text, f.clause, true
}

// colFinder looks for a column reference clause by clause.
type colFinder struct {
	qual, name   string
	found        bool
	text, clause string
}

// statement searches the clauses of one statement or subquery, in the
// order MariaDB resolves them.
func (f *colFinder) statement(st sqlparser.SQLNode) {
	switch n := st.(type) {
	case *sqlparser.Select:
		f.in("SELECT", n.SelectExprs)
		f.in("FROM", n.From)
		if n.Where != nil {
			f.in("WHERE", n.Where.Expr)
		}
		f.in("GROUP BY", n.GroupBy)
		if n.Having != nil {
			f.in("HAVING", n.Having.Expr)
		}
		f.in("ORDER BY", n.OrderBy)
	case *sqlparser.SetOp:
		f.statement(n.Left)
		f.statement(n.Right)
		f.in("ORDER BY", n.OrderBy)
	case *sqlparser.ParenSelect:
		f.statement(n.Select)
	case *sqlparser.Insert:
		for _, c := range n.Columns {
			f.ident("INSERT INTO", c)
		}
		switch rows := n.Rows.(type) {
		case sqlparser.Values:
			f.in("VALUES", rows)
		case *sqlparser.AliasedValues:
			f.in("VALUES", rows.Values)
		case sqlparser.SQLNode:
			f.statement(rows)
		}
		for _, e := range n.OnDup {
			f.in("UPDATE", e.Name)
			f.in("SELECT", e.Expr)
		}
	case *sqlparser.Update:
		f.in("FROM", n.TableExprs)
		for _, e := range n.Exprs {
			f.in("SET", e.Name)
			f.in("SET", e.Expr)
		}
		if n.Where != nil {
			f.in("WHERE", n.Where.Expr)
		}
		f.in("ORDER BY", n.OrderBy)
	case *sqlparser.Delete:
		f.in("FROM", n.TableExprs)
		if n.Where != nil {
			f.in("WHERE", n.Where.Expr)
		}
		f.in("ORDER BY", n.OrderBy)
	}
}

// in searches one clause; subqueries and join conditions in it have
// their own clauses.
func (f *colFinder) in(clause string, node sqlparser.SQLNode) {
	if f.found || node == nil {
		return
	}
	_ = sqlparser.Walk(func(n sqlparser.SQLNode) (bool, error) {
		if f.found {
			return false, nil
		}
		switch n := n.(type) {
		case *sqlparser.Subquery:
			f.statement(n.Select)
			return false, nil
		case *sqlparser.JoinTableExpr:
			f.in(clause, n.LeftExpr)
			f.in(clause, n.RightExpr)
			if n.Condition.On != nil {
				f.in("ON", n.Condition.On)
			}
			for _, c := range n.Condition.Using {
				f.ident("FROM", c)
			}
			return false, nil
		case *sqlparser.ColName:
			if strings.EqualFold(n.Name.String(), f.name) && (f.qual == "" || strings.EqualFold(n.Qualifier.Name.String(), f.qual)) {
				var parts []string
				for _, p := range []string{n.Qualifier.DbQualifier.String(), n.Qualifier.Name.String(), n.Name.String()} {
					if p != "" {
						parts = append(parts, p)
					}
				}
				f.found, f.text, f.clause = true, strings.Join(parts, "."), clause
			}
			return false, nil
		}
		return true, nil
	}, node)
}

// ident matches an unqualified column name (an INSERT column, a USING
// column).
func (f *colFinder) ident(clause string, c sqlparser.ColIdent) {
	if !f.found && f.qual == "" && strings.EqualFold(c.String(), f.name) {
		f.found, f.text, f.clause = true, c.String(), clause
	}
}

// dropsColumn reports whether the statement is an ALTER TABLE dropping
// column name.
func (x *errContext) dropsColumn(name string) bool {
	var ddls []*sqlparser.DDL
	switch st := x.stmt().(type) {
	case *sqlparser.AlterTable:
		ddls = st.Statements
	case *sqlparser.DDL:
		ddls = []*sqlparser.DDL{st}
	}
	for _, d := range ddls {
		if d != nil && d.ColumnAction == sqlparser.DropStr && strings.EqualFold(d.Column.String(), name) {
			return true
		}
	}
	return false
}

// functionName returns a function's name as the statement writes it
// (go-mysql-server reports it in lower case).
func (x *errContext) functionName(name string) string {
	out := name
	x.walk(func(n sqlparser.SQLNode) bool {
		if f, ok := n.(*sqlparser.FuncExpr); ok && strings.EqualFold(f.Name.String(), name) {
			out = f.Name.String()
			return false
		}
		return out == name
	})
	return out
}

// insertRows returns the rows of an INSERT ... VALUES (or SET).
func insertRows(n *sqlparser.Insert) sqlparser.Values {
	switch rows := n.Rows.(type) {
	case sqlparser.Values:
		return rows
	case *sqlparser.AliasedValues:
		return rows.Values
	}
	return nil
}

// valueCountRow is the row (from 1) of an INSERT whose value count does
// not match its columns, as MariaDB's 1136 reports it.
func (x *errContext) valueCountRow() int {
	n, ok := x.stmt().(*sqlparser.Insert)
	if !ok {
		return 1
	}
	want := len(n.Columns)
	if want == 0 {
		t := x.engineTable(n.Table)
		if t == nil {
			return 1
		}
		want = len(t.Columns)
	}
	for i, tuple := range insertRows(n) {
		if len(tuple) != want {
			return i + 1
		}
	}
	return 1
}

// valueSite is where a statement writes a value: a column of its table
// and the row (from 1).
type valueSite struct {
	t      *engine.Table
	col    int
	column string
	row    int
}

// valueSite finds the first literal value the statement writes (INSERT
// ... VALUES or SET, UPDATE ... SET) for which match holds.
func (x *errContext) valueSite(match func(c *types.Column, lit string) bool) (valueSite, bool) {
	switch n := x.stmt().(type) {
	case *sqlparser.Insert:
		t := x.engineTable(n.Table)
		if t == nil {
			return valueSite{}, false
		}
		cols := make([]int, 0, len(t.Columns))
		if len(n.Columns) == 0 {
			for i := range t.Columns {
				cols = append(cols, i)
			}
		}
		for _, c := range n.Columns {
			cols = append(cols, t.Column(c.String()))
		}
		for r, tuple := range insertRows(n) {
			for j, e := range tuple {
				if j >= len(cols) || cols[j] < 0 {
					continue
				}
				if lit, ok := literal(e); ok && match(&t.Columns[cols[j]], lit) {
					return valueSite{t: t, col: cols[j], column: t.Columns[cols[j]].Name, row: r + 1}, true
				}
			}
		}
	case *sqlparser.Update:
		var t *engine.Table
		if len(n.TableExprs) > 0 {
			if at, ok := n.TableExprs[0].(*sqlparser.AliasedTableExpr); ok {
				if tn, ok := at.Expr.(sqlparser.TableName); ok {
					t = x.engineTable(tn)
				}
			}
		}
		if t == nil {
			return valueSite{}, false
		}
		for _, e := range n.Exprs {
			c := t.Column(e.Name.Name.String())
			if c < 0 {
				continue
			}
			if lit, ok := literal(e.Expr); ok && match(&t.Columns[c], lit) {
				return valueSite{t: t, col: c, column: t.Columns[c].Name, row: 1}, true
			}
		}
	}
	return valueSite{}, false
}

// literal returns the text of a literal value (a negative number with
// its sign).
func literal(e sqlparser.Expr) (string, bool) {
	switch v := e.(type) {
	case *sqlparser.SQLVal:
		return string(v.Val), true
	case *sqlparser.UnaryExpr:
		if v.Operator == sqlparser.UMinusStr {
			if s, ok := literal(v.Expr); ok {
				return "-" + s, true
			}
		}
	}
	return "", false
}

// accessDenied words go-mysql-server's refusals (of a database, of a
// table, of a command) as MariaDB does: 1044 for a database, 1142 naming
// the command and the first table it is refused on, 1227 for a global
// privilege (and for replication administration, naming MySQL's SUPER or
// REPLICATION_SLAVE_ADMIN). It finds what was refused in the statement's
// authorization targets, checking the account's grants.
func (x *errContext) accessDenied(deniedDB, deniedTable string) *mysql.SQLError {
	user, account := x.account()
	if x.selectDB && deniedDB != "" {
		return sqlError(mysql.ERDBAccessDenied, user, account, deniedDB)
	}
	if st, ok := x.stmt().(*sqlparser.DBDDL); ok && deniedTable == "" {
		return sqlError(mysql.ERDBAccessDenied, user, account, st.DBName)
	}
	ps, havePS := x.privileges()
	cur := x.currentDB()
	refused := func(db, tbl string, privs []sql.PrivilegeType) bool {
		switch {
		case deniedDB != "":
			return strings.EqualFold(db, deniedDB)
		case deniedTable != "":
			return strings.EqualFold(tbl, deniedTable)
		}
		return !havePS || len(privs) > 0 && !hasPrivileges(ps, db, tbl, privs)
	}
	for _, a := range x.authInfos() {
		if a.AuthType == sqlparser.AuthType_REPLICATION && deniedDB == "" && deniedTable == "" {
			// Replication administration (CHANGE REPLICATION SOURCE /
			// FILTER, START / STOP REPLICA): MySQL's words.
			return sqlError(mysql.ERSpecifiedAccessDenied, "SUPER or REPLICATION_SLAVE_ADMIN")
		}
		privs, word := authPrivileges(a.AuthType)
		if word == "" {
			continue
		}
		switch a.TargetType {
		case sqlparser.AuthTargetType_SingleTableIdentifier, sqlparser.AuthTargetType_MultipleTableIdentifiers, sqlparser.AuthTargetType_TableColumn:
			step := 2
			if a.TargetType == sqlparser.AuthTargetType_TableColumn {
				step = 3
			}
			for i := 0; i+1 < len(a.TargetNames); i += step {
				db, tbl := a.TargetNames[i], a.TargetNames[i+1]
				if db == "" {
					db = cur
				}
				if !strings.EqualFold(db, "information_schema") && refused(db, tbl, privs) {
					return sqlError(errtable.ERTableAccessDenied, word, user, x.clientHost(), db, tbl)
				}
			}
		case sqlparser.AuthTargetType_DatabaseIdentifiers:
			for _, db := range a.TargetNames {
				if db == "" {
					db = cur
				}
				if deniedTable == "" && refused(db, "", privs) {
					return sqlError(mysql.ERDBAccessDenied, user, account, db)
				}
			}
		case sqlparser.AuthTargetType_Global:
			if deniedDB == "" && deniedTable == "" {
				return sqlError(mysql.ERSpecifiedAccessDenied, word)
			}
		}
	}
	if deniedDB != "" {
		return sqlError(mysql.ERDBAccessDenied, user, account, deniedDB)
	}
	return nil
}

// authInfos returns the authorization targets of the statement in order.
func (x *errContext) authInfos() []sqlparser.AuthInformation {
	var out []sqlparser.AuthInformation
	x.walk(func(n sqlparser.SQLNode) bool {
		if an, ok := n.(sqlparser.AuthNode); ok {
			out = append(out, an.GetAuthInformation())
		}
		return true
	})
	return out
}

// authPrivileges returns the privileges an authorization type needs and
// its name in MariaDB's messages ("" for none).
func authPrivileges(authType string) ([]sql.PrivilegeType, string) {
	switch authType {
	case "", sqlparser.AuthType_IGNORE:
		return nil, ""
	case sqlparser.AuthType_REPLACE:
		return []sql.PrivilegeType{sql.PrivilegeType_Insert, sql.PrivilegeType_Delete}, "INSERT"
	}
	word := strings.ReplaceAll(authType, "_", " ")
	if p, ok := sql.PrivilegeTypeFromString(word); ok {
		return []sql.PrivilegeType{p}, word
	}
	return nil, word
}

// privileges returns the grants of the connection's account.
func (x *errContext) privileges() (mysql_db.PrivilegeSet, bool) {
	s := x.server()
	if s == nil {
		return mysql_db.PrivilegeSet{}, false
	}
	user, host := x.account()
	mdb := s.engine.Analyzer.Catalog.MySQLDb
	rd := mdb.Reader()
	defer rd.Close()
	u := mdb.GetUser(rd, user, host, false)
	if u == nil {
		return mysql_db.PrivilegeSet{}, false
	}
	return u.PrivilegeSet.Copy(), true
}

// syntaxErrorOf returns the vitess syntax error err is or holds (vitess's
// parser hands it over as the cause of an error of its own, which
// vterrors.AsSyntaxError opens), also under wrappers.
func syntaxErrorOf(err error) (vterrors.SyntaxError, bool) {
	for ; err != nil; err = errors.Unwrap(err) {
		if se, ok := vterrors.AsSyntaxError(err); ok {
			return se, true
		}
	}
	return vterrors.SyntaxError{}, false
}

// parseError words the parser's syntax error over query as MariaDB's
// 1064, quoting the query from the token the parser stopped at (vitess
// gives its position, vterrors.SyntaxError); other errors pass as they
// are. Both go-mysql-server and MariaDB parse the query without its
// leading and trailing spaces and trailing semicolons; the position and
// the line are counted in that text.
func parseError(query string, err error) error {
	se, ok := syntaxErrorOf(err)
	if !ok {
		return err
	}
	q := sql.RemoveSpaceAndDelimiter(query, ';')
	start := offendingToken(q, se.Position)
	return sqlError(mysql.ERParseError, syntaxErrorText, errtable.Truncate(q[start:], 80), 1+strings.Count(q[:start], "\n"))
}

// offendingToken returns where the token starts that the parser stopped
// at, given the position vitess reports (one past the token's end); the
// end of the query when the parser stopped there.
func offendingToken(query string, pos int) int {
	tkn := sqlparser.NewStringTokenizer(query)
	for {
		from := tkn.Position - 1
		if from < 0 {
			from = 0
		}
		typ, _ := tkn.Scan()
		if typ == 0 {
			break
		}
		start := from
		for start < len(query) && strings.IndexByte(" \t\r\n", query[start]) >= 0 {
			start++
		}
		end := tkn.Position - 1
		switch {
		case typ == sqlparser.LEX_ERROR:
			return start
		case end+1 == pos:
			// The last token ends where the end of the query does: the
			// query with a space more tells which one the parser met.
			if end < len(query) || !errorAtEnd(query, pos) {
				return start
			}
			return len(query)
		case end+1 > pos:
			return start
		}
	}
	return len(query)
}

// errorAtEnd reports whether the parse error of query, at pos, is at its
// end: with a space appended, the error moves one further.
func errorAtEnd(query string, pos int) bool {
	_, _, err := sqlparser.ParseOne(context.Background(), query+" ")
	if err == nil {
		return false
	}
	se, ok := syntaxErrorOf(err)
	return ok && se.Position == pos+1
}
