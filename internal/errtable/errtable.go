// Package errtable is the one table of how HandlerDB reports failures to
// clients. For each condition of the storage engine (engine.Kinds) it
// gives the HandlerSocket reply and the MySQL error; for each MySQL error
// the SQL front sends, MariaDB 10.11's name, SQLSTATE and message. The
// HandlerSocket front answers storage errors from it and the SQL front
// maps engine errors and words its own from it, so that a condition reads
// the same on every port and every reply has one source.
//
// The tables are fixed when the package initializes (it panics if an
// engine condition has no entry); everything here is safe for concurrent
// use.
package errtable

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/hsproto"
	"github.com/handlerdb/handlerdb/internal/types"
)

// Entry is how the fronts report one engine condition.
type Entry struct {
	// Kind is the condition; nil for the entry of errors of no kind (a
	// plain error of the store), which Lookup returns for them.
	Kind *engine.ErrorKind
	// HS is the reply on the HandlerSocket ports. For a condition that
	// the HandlerSocket front meets before calling the engine (an unknown
	// table when an index is opened, too many key values), it is the
	// reply the front gives for that check.
	HS hsproto.Error
	// MySQL is the MySQL error number on the SQL port; MySQL(num) gives
	// its SQLSTATE and message format.
	MySQL int
	// args are the message's arguments: an arg is taken from the error,
	// any other value is used as it is.
	args []any
}

// arg is an argument of a MySQL message taken from the engine error.
type arg uint8

const (
	argText      arg = iota // the error's whole message
	argDB                   // the database involved
	argTable                // the table involved
	argQualified            // the table involved, as db.table
	argIndex                // the index involved
	argKey                  // the duplicate key, as MariaDB prints it (DupEntry)
	argDetail               // the error's Detail (a foreign key, as InnoDB describes it)
)

// MySQL error numbers HandlerDB reports that vitess's mysql package does
// not name (where it names one, code uses its constant). No other file
// defines an error number; the catalogue below words them all.
const (
	ERCantCreateTable                  = 1005 // ER_CANT_CREATE_TABLE
	ERGetErrno                         = 1030 // ER_GET_ERRNO
	ERHostNotPrivileged                = 1130 // ER_HOST_NOT_PRIVILEGED
	ERTableAccessDenied                = 1142 // ER_TABLEACCESS_DENIED_ERROR
	ERFtMatchingKeyNotFound            = 1191 // ER_FT_MATCHING_KEY_NOT_FOUND
	ERSlaveMustStop                    = 1198 // ER_SLAVE_MUST_STOP
	ERBadSlave                         = 1200 // ER_BAD_SLAVE
	ERSpatialCantHaveNull              = 1252 // ER_SPATIAL_CANT_HAVE_NULL
	ERCutValueGroupConcat              = 1260 // ER_CUT_VALUE_GROUP_CONCAT
	ERWarnTooFewRecords                = 1261 // ER_WARN_TOO_FEW_RECORDS
	ERWarnTooManyRecords               = 1262 // ER_WARN_TOO_MANY_RECORDS
	ERWarnNullToNotnull                = 1263 // ER_WARN_NULL_TO_NOTNULL
	EROptionPrevents                   = 1290 // ER_OPTION_PREVENTS_STATEMENT
	ERGetErrmsg                        = 1296 // ER_GET_ERRMSG
	ERWarnAllowedPacketOverflowed      = 1301 // ER_WARN_ALLOWED_PACKET_OVERFLOWED
	ERSPAlreadyExists                  = 1304 // ER_SP_ALREADY_EXISTS
	ERSPWrongArgs                      = 1318 // ER_SP_WRONG_NO_OF_ARGS
	ERSPNoReturnEnd                    = 1321 // ER_SP_NORETURNEND
	ERTrgAlreadyExists                 = 1359 // ER_TRG_ALREADY_EXISTS
	ERDivisionByZero                   = 1365 // ER_DIVISION_BY_ZERO
	ERMasterFatalReadingBinlog         = 1236 // ER_MASTER_FATAL_ERROR_READING_BINLOG: a replica's binlog dump refused
	ERErrorWhenExecutingCommand        = 1220 // ER_ERROR_WHEN_EXECUTING_COMMAND: SHOW BINLOG EVENTS of a file or position the log lacks
	ERUnknownTargetBinlog              = 1373 // ER_UNKNOWN_TARGET_BINLOG: PURGE BINARY LOGS TO a file the log lacks
	ERNoBinaryLogging                  = 1381 // ER_NO_BINARY_LOGGING: PURGE BINARY LOGS without --log-bin
	ERUnknownStmtHandler               = 1243 // ER_UNKNOWN_STMT_HANDLER: a prepared statement id the connection does not hold
	ERPSManyParam                      = 1390 // ER_PS_MANY_PARAM
	ERStmtHasNoOpenCursor              = 1421 // ER_STMT_HAS_NO_OPEN_CURSOR: COM_STMT_FETCH without a cursor
	ERKeyPart0                         = 1391 // ER_KEY_PART_0
	ERTableDefChanged                  = 1412 // ER_TABLE_DEF_CHANGED
	ERSPNoRecursion                    = 1424 // ER_SP_NO_RECURSION
	ERStackOverrun                     = 1436 // ER_STACK_OVERRUN_NEED_MORE
	ERSPWrongName                      = 1458 // ER_SP_WRONG_NAME
	ERAutoincReadFailed                = 1467 // ER_AUTOINC_READ_FAILED
	ERDropIndexFK                      = 1553 // ER_DROP_INDEX_FK
	ERWrongParamCountToNativeFct       = 1582 // ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT
	ERTruncateIllegalFK                = 1701 // ER_TRUNCATE_ILLEGAL_FK
	ERAutoPositionRequiresGTIDModeOn   = 1777 // ER_AUTO_POSITION_REQUIRES_GTID_MODE_ON
	ERCantExecuteInReadOnlyTransaction = 1792 // ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION
	ERFKColumnCannotChange             = 1832 // ER_FK_COLUMN_CANNOT_CHANGE
	// ERGeneratedColumnValue is ER_WARNING_NON_DEFAULT_VALUE_FOR_GENERATED_COLUMN:
	// a value given for a generated column (an error in strict mode).
	ERGeneratedColumnValue       = 1906
	ERReplicaChannelDoesNotExist = 3074 // ER_REPLICA_CHANNEL_DOES_NOT_EXIST
	ERConstraintFailed           = 4025 // ER_CONSTRAINT_FAILED: a CHECK constraint is false
	ERWrongTypeForRangeFrame     = 4021 // ER_WRONG_TYPE_FOR_RANGE_FRAME: a RANGE offset over a key that is no number
	EREventAlreadyExists         = 1537 // ER_EVENT_ALREADY_EXISTS
	ERUnsupportedPS              = 1295 // ER_UNSUPPORTED_PS: a statement EXECUTE IMMEDIATE cannot run
	ERInvalidRole                = 1959 // ER_INVALID_ROLE: a role not granted to the account
	ERInvalidCurrentUser         = 1960 // ER_INVALID_CURRENT_USER: SET DEFAULT ROLE for no account
	ERDataOverflow               = 1916 // ER_DATA_OVERFLOW: a number past the range of its conversion (a note)
	ERAccountLocked              = 4151 // ER_ACCOUNT_HAS_BEEN_LOCKED: a login to a locked account
	ERPasswordNoMatch            = 1133 // ER_PASSWORD_NO_MATCH: no such account
	ERCannotUser                 = 1396 // ER_CANNOT_USER: CREATE/ALTER/DROP USER or ROLE of an account that is (not) there
	EREventDoesNotExist          = 1539 // ER_EVENT_DOES_NOT_EXIST
	ERDatetimeFunctionOverflow   = 1441 // ER_DATETIME_FUNCTION_OVERFLOW: date arithmetic past its type's range (a warning)
)

// entries is the table: every engine condition, then the entry of errors
// of no kind. HandlerSocket answers 1\t1\t121 for a duplicate key and
// 1\t1\t1 for every other storage failure (the plugin would send the
// handler's number, engine.ErrorKind.Errno); the other words are the
// front's own checks for the same conditions.
var entries = [...]Entry{
	{engine.ErrDuplicateKey, hsproto.ErrDuplicateKey, mysql.ERDupEntry, []any{argKey, argIndex}},
	{engine.ErrNoDatabase, hsproto.ErrOpenTable, mysql.ERBadDb, []any{argDB}},
	{engine.ErrNoTable, hsproto.ErrOpenTable, mysql.ERNoSuchTable, []any{argDB, argTable}},
	{engine.ErrNoIndex, hsproto.ErrIdxnum, mysql.ERCantDropFieldOrKey, []any{"INDEX", argIndex}},
	{engine.ErrDatabaseExists, hsproto.ErrStorage, mysql.ERDbCreateExists, []any{argDB}},
	{engine.ErrTableExists, hsproto.ErrStorage, mysql.ERTableExists, []any{argQualified}},
	{engine.ErrIndexExists, hsproto.ErrStorage, mysql.ERDupKeyName, []any{argIndex}},
	{engine.ErrBadDefinition, hsproto.ErrStorage, mysql.ERUnknownError, []any{argText}},
	{engine.ErrBadAutoIncrement, hsproto.ErrStorage, mysql.ERWrongAutoKey, nil},
	{engine.ErrKeyParts, hsproto.ErrKpnum, mysql.ERUnknownError, []any{argText}},
	{engine.ErrBadRow, hsproto.ErrStorage, mysql.ERUnknownError, []any{argText}},
	{engine.ErrBadValue, hsproto.ErrStorage, mysql.ERUnknownError, []any{argText}},
	{engine.ErrAutoIncrementOverflow, hsproto.ErrStorage, ERAutoincReadFailed, nil},
	{engine.ErrTableDefChanged, hsproto.ErrTblnum, ERTableDefChanged, []any{argDB, argTable}},
	{engine.ErrCorrupt, hsproto.ErrStorage, ERGetErrno, []any{argText}},
	{engine.ErrClosed, hsproto.ErrStorage, mysql.ERServerShutdown, nil},
	{engine.ErrCommitFailed, hsproto.ErrCommit, mysql.ERUnknownError, []any{argText}},
	{engine.ErrReadOnly, hsproto.ErrStorage, EROptionPrevents, []any{"--read-only"}},
	{engine.ErrReadLocked, hsproto.ErrStorage, mysql.ERCantUpdateWithReadLock, nil},
	{engine.ErrLockWaitTimeout, hsproto.ErrStorage, mysql.ERLockWaitTimeout, nil},
	{engine.ErrDeadlock, hsproto.ErrStorage, mysql.ERLockDeadlock, nil},
	{engine.ErrRowLocked, hsproto.ErrStorage, mysql.ERLockWaitTimeout, nil},
	{engine.ErrNoReferencedRow, hsproto.ErrNoReferencedRow, mysql.ErNoReferencedRow2, []any{argDetail}},
	{engine.ErrRowIsReferenced, hsproto.ErrRowIsReferenced, mysql.ERRowIsReferenced2, []any{argDetail}},
	{engine.ErrFKDepthExceeded, hsproto.ErrFKDepth, ERGetErrmsg, []any{193, argDetail, "InnoDB"}},
	{nil, hsproto.ErrStorage, mysql.ERUnknownError, []any{argText}},
}

// byKind indexes entries by condition.
var byKind = map[*engine.ErrorKind]*Entry{}

func init() {
	for i := range entries {
		c := &entries[i]
		if c.Kind != nil {
			byKind[c.Kind] = c
		}
		if _, ok := mysqlErrors[c.MySQL]; !ok {
			panic(fmt.Sprintf("errtable: MySQL error %d of %v is not in mysqlErrors", c.MySQL, c.Kind))
		}
	}
	for _, k := range engine.Kinds() {
		if byKind[k] == nil {
			panic(fmt.Sprintf("errtable: engine condition %q has no entry", k))
		}
	}
}

// Lookup returns the entry of err's engine condition, or the entry of
// errors of no kind (Kind nil).
func Lookup(err error) *Entry {
	if c := byKind[engine.KindOf(err)]; c != nil {
		return c
	}
	return &entries[len(entries)-1]
}

// HS returns the HandlerSocket reply to err.
func HS(err error) hsproto.Error { return Lookup(err).HS }

// SQLError returns err as the MySQL error of the entry.
func (c *Entry) SQLError(err error) *mysql.SQLError {
	return SQLError(c.MySQL, c.Args(err)...)
}

// Args returns the arguments of the entry's MySQL message for err.
func (c *Entry) Args(err error) []any {
	if len(c.args) == 0 {
		return nil
	}
	var key string
	var e *engine.Error
	var dk *engine.DuplicateKeyError
	switch {
	case errors.As(err, &dk):
		e, key = &engine.Error{Kind: engine.ErrDuplicateKey, Index: dk.Index}, DupEntry(dk.Key, dk.KeyTypes)
	case !errors.As(err, &e):
		e = plain(c.Kind, err)
	}
	out := make([]any, len(c.args))
	for i, a := range c.args {
		switch a {
		case argText:
			out[i] = err.Error()
		case argDB:
			out[i] = e.DB
		case argTable:
			out[i] = e.Table
		case argDetail:
			out[i] = e.Detail
		case argQualified:
			out[i] = e.DB + "." + e.Table
		case argIndex:
			out[i] = e.Index
		case argKey:
			out[i] = key
		default:
			out[i] = a
		}
	}
	return out
}

// plain returns the *engine.Error of err, an error that only wraps kind k
// (fmt.Errorf("%w: name", k)): its text after the kind names the object,
// "db", "db.table" or an index.
func plain(k *engine.ErrorKind, err error) *engine.Error {
	d := err.Error()
	if k != nil {
		d = strings.TrimPrefix(d, k.Error()+": ")
	}
	e := &engine.Error{Kind: k, DB: d, Index: d, Detail: d}
	if db, t, ok := strings.Cut(d, "."); ok {
		e.DB, e.Table = db, t
	}
	return e
}

// Name returns what the message of err, an engine error, says after its
// condition: the name of the object it is about ("db", "db.table", an
// index), or its detail.
func Name(err error) string {
	var e *engine.Error
	if errors.As(err, &e) {
		return e.Detail
	}
	return plain(engine.KindOf(err), err).Detail
}

// MySQLError is one MySQL error as MariaDB 10.11 reports it.
type MySQLError struct {
	// Name is the error's name in MariaDB's sources (ER_DUP_ENTRY).
	Name string
	// State is its SQLSTATE.
	State string
	// Format is its message, a fmt format of the error's arguments.
	Format string
}

// MySQL returns the MySQL error num of the table, and false when the SQL
// front does not send it (it keeps go-mysql-server's state and text).
func MySQL(num int) (MySQLError, bool) {
	e, ok := mysqlErrors[num]
	return e, ok
}

// SQLError returns the MySQL error num with its arguments, with MariaDB's
// SQLSTATE and wording. It panics for a number the table does not hold.
func SQLError(num int, args ...any) *mysql.SQLError {
	e, ok := mysqlErrors[num]
	if !ok {
		panic(fmt.Sprintf("errtable: MySQL error %d is not in the table", num))
	}
	return &mysql.SQLError{Num: num, State: e.State, Message: fmt.Sprintf(e.Format, args...)}
}

// mysqlErrors are the MySQL errors the SQL front reports, by number, with
// MariaDB 10.11's name, SQLSTATE and wording.
var mysqlErrors = map[int]MySQLError{
	1005: {"ER_CANT_CREATE_TABLE", "HY000", "Can't create table `%s`.`%s` (errno: %d \"%s\")"},
	1007: {"ER_DB_CREATE_EXISTS", "HY000", "Can't create database '%s'; database exists"},
	1008: {"ER_DB_DROP_EXISTS", "HY000", "Can't drop database '%s'; database doesn't exist"},
	1030: {"ER_GET_ERRNO", "HY000", "Got error from storage engine: %s"},
	1044: {"ER_DBACCESS_DENIED_ERROR", "42000", "Access denied for user '%s'@'%s' to database '%s'"},
	1045: {"ER_ACCESS_DENIED_ERROR", "28000", "Access denied for user '%s'@'%s' (using password: %s)"},
	1046: {"ER_NO_DB_ERROR", "3D000", "No database selected"},
	1048: {"ER_BAD_NULL_ERROR", "23000", "Column '%s' cannot be null"},
	1049: {"ER_BAD_DB_ERROR", "42000", "Unknown database '%s'"},
	1050: {"ER_TABLE_EXISTS_ERROR", "42S01", "Table '%s' already exists"},
	1051: {"ER_BAD_TABLE_ERROR", "42S02", "Unknown table '%s'"},
	1052: {"ER_NON_UNIQ_ERROR", "23000", "Column '%s' in %s is ambiguous"},
	1053: {"ER_SERVER_SHUTDOWN", "08S01", "Server shutdown in progress"},
	1054: {"ER_BAD_FIELD_ERROR", "42S22", "Unknown column '%s' in '%s'"},
	1059: {"ER_TOO_LONG_IDENT", "42000", "Identifier name '%s' is too long"},
	1060: {"ER_DUP_FIELDNAME", "42S21", "Duplicate column name '%s'"},
	1061: {"ER_DUP_KEYNAME", "42000", "Duplicate key name '%s'"},
	1062: {"ER_DUP_ENTRY", "23000", "Duplicate entry '%s' for key '%s'"},
	1064: {"ER_PARSE_ERROR", "42000", "%s near '%s' at line %d"},
	1066: {"ER_NONUNIQ_TABLE", "42000", "Not unique table/alias: '%s'"},
	1068: {"ER_MULTIPLE_PRI_KEY", "42000", "Multiple primary key defined"},
	1071: {"ER_TOO_LONG_KEY", "42000", "Specified key was too long; max key length is %d bytes"},
	1072: {"ER_KEY_COLUMN_DOES_NOT_EXIST", "42000", "Key column '%s' doesn't exist in table"},
	1075: {"ER_WRONG_AUTO_KEY", "42000", "Incorrect table definition; there can be only one auto column and it must be defined as a key"},
	1089: {"ER_WRONG_SUB_KEY", "HY000", "Incorrect prefix key; the used key part isn't a string, the used length is longer than the key part, or the storage engine doesn't support unique prefix keys"},
	1091: {"ER_CANT_DROP_FIELD_OR_KEY", "42000", "Can't DROP %s `%s`; check that it exists"},
	1105: {"ER_UNKNOWN_ERROR", "HY000", "%s"},
	1110: {"ER_FIELD_SPECIFIED_TWICE", "42000", "Column '%s' specified twice"},
	1130: {"ER_HOST_NOT_PRIVILEGED", "HY000", "Host '%s' is not allowed to connect to this MariaDB server"},
	1133: {"ER_PASSWORD_NO_MATCH", "28000", "Can't find any matching row in the user table"},
	1139: {"ER_REGEXP_ERROR", "42000", "Regex error '%-.64s'"},
	1136: {"ER_WRONG_VALUE_COUNT_ON_ROW", "21S01", "Column count doesn't match value count at row %d"},
	1142: {"ER_TABLEACCESS_DENIED_ERROR", "42000", "%s command denied to user '%s'@'%s' for table `%s`.`%s`"},
	1146: {"ER_NO_SUCH_TABLE", "42S02", "Table '%s.%s' doesn't exist"},
	1193: {"ER_UNKNOWN_SYSTEM_VARIABLE", "HY000", "Unknown system variable '%s'"},
	1205: {"ER_LOCK_WAIT_TIMEOUT", "HY000", "Lock wait timeout exceeded; try restarting transaction"},
	1213: {"ER_LOCK_DEADLOCK", "40001", "Deadlock found when trying to get lock; try restarting transaction"},
	1221: {"ER_WRONG_USAGE", "HY000", "Incorrect usage of %s and %s"},
	1223: {"ER_CANT_UPDATE_WITH_READLOCK", "HY000", "Can't execute the query because you have a conflicting read lock"},
	1227: {"ER_SPECIFIC_ACCESS_DENIED_ERROR", "42000", "Access denied; you need (at least one of) the %s privilege(s) for this operation"},
	1231: {"ER_WRONG_VALUE_FOR_VAR", "42000", "Variable '%s' can't be set to the value of '%s'"},
	1238: {"ER_INCORRECT_GLOBAL_LOCAL_VAR", "HY000", "Variable '%s' is a %s variable"},
	1235: {"ER_NOT_SUPPORTED_YET", "42000", "This version of MariaDB doesn't yet support '%s'"},
	1239: {"ER_WRONG_FK_DEF", "42000", "Incorrect foreign key definition for '%.192s': %s"},
	1242: {"ER_SUBQUERY_NO_1_ROW", "21000", "Subquery returns more than 1 row"},
	1172: {"ER_TOO_MANY_ROWS", "42000", "Result consisted of more than one row"},
	1264: {"ER_WARN_DATA_OUT_OF_RANGE", "22003", "Out of range value for column '%s' at row %d"},
	1290: {"ER_OPTION_PREVENTS_STATEMENT", "HY000", "The MariaDB server is running with the %s option so it cannot execute this statement"},
	1265: {"WARN_DATA_TRUNCATED", "01000", "Data truncated for column '%s' at row %d"},
	1273: {"ER_UNKNOWN_COLLATION", "HY000", "Unknown collation: '%s'"},
	1292: {"ER_TRUNCATED_WRONG_VALUE", "22007", "Incorrect %s value: '%s' for column `%s`.`%s`.`%s` at row %d"},
	1236: {"ER_MASTER_FATAL_ERROR_READING_BINLOG", "HY000", "%s"},
	1220: {"ER_ERROR_WHEN_EXECUTING_COMMAND", "HY000", "Error when executing command %s: %-.128s"},
	1373: {"ER_UNKNOWN_TARGET_BINLOG", "HY000", "Target log not found in binlog index"},
	1381: {"ER_NO_BINARY_LOGGING", "HY000", "You are not using binary logging"},
	1243: {"ER_UNKNOWN_STMT_HANDLER", "HY000", "Unknown prepared statement handler (%s) given to %s"},
	1390: {"ER_PS_MANY_PARAM", "HY000", "Prepared statement contains too many placeholders"},
	1421: {"ER_STMT_HAS_NO_OPEN_CURSOR", "HY000", "The statement (%s) has no open cursor."},
	1295: {"ER_UNSUPPORTED_PS", "HY000", "This command is not supported in the prepared statement protocol yet"},
	1296: {"ER_GET_ERRMSG", "HY000", "Got error %d '%.200s' from %s"},
	1304: {"ER_SP_ALREADY_EXISTS", "42000", "%s %s already exists"},
	1305: {"ER_SP_DOES_NOT_EXIST", "42000", "%s %s does not exist"},
	1359: {"ER_TRG_ALREADY_EXISTS", "HY000", "Trigger '%s' already exists"},
	1396: {"ER_CANNOT_USER", "HY000", "Operation %s failed for %s"},
	1537: {"ER_EVENT_ALREADY_EXISTS", "HY000", "Event '%s' already exists"},
	1539: {"ER_EVENT_DOES_NOT_EXIST", "HY000", "Unknown event '%s'"},
	1364: {"ER_NO_DEFAULT_FOR_FIELD", "HY000", "Field '%s' doesn't have a default value"},
	1365: {"ER_DIVISION_BY_ZERO", "22012", "Division by 0"},
	1317: {"ER_QUERY_INTERRUPTED", "70100", "Query execution was interrupted"},
	1318: {"ER_SP_WRONG_NO_OF_ARGS", "42000", "Incorrect number of arguments for %s %s; expected %d, got %d"},
	1321: {"ER_SP_NORETURNEND", "2F005", "FUNCTION %s ended without RETURN"},
	1366: {"ER_TRUNCATED_WRONG_VALUE_FOR_FIELD", "22007", "Incorrect %s value: '%s' for column `%s`.`%s`.`%s` at row %d"},
	1391: {"ER_KEY_PART_0", "HY000", "Key part '%s' length cannot be 0"},
	1406: {"ER_DATA_TOO_LONG", "22001", "Data too long for column '%s' at row %d"},
	1412: {"ER_TABLE_DEF_CHANGED", "HY000", "Table definition has changed, please retry transaction (%s.%s)"},
	1424: {"ER_SP_NO_RECURSION", "HY000", "Recursive stored functions and triggers are not allowed"},
	1451: {"ER_ROW_IS_REFERENCED_2", "23000", "Cannot delete or update a parent row: a foreign key constraint fails (%.192s)"},
	1452: {"ER_NO_REFERENCED_ROW_2", "23000", "Cannot add or update a child row: a foreign key constraint fails (%.192s)"},
	1467: {"ER_AUTOINC_READ_FAILED", "HY000", "Failed to read auto-increment value from storage engine"},
	1553: {"ER_DROP_INDEX_FK", "HY000", "Cannot drop index '%s': needed in a foreign key constraint"},
	1582: {"ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT", "42000", "Incorrect parameter count in the call to native function '%s'"},
	1690: {"ER_DATA_OUT_OF_RANGE", "22003", "%s value is out of range in '%s'"},
	1701: {"ER_TRUNCATE_ILLEGAL_FK", "42000", "Cannot truncate a table referenced in a foreign key constraint (%.192s)"},
	1792: {"ER_CANT_EXECUTE_IN_READ_ONLY_TRANSACTION", "25006", "Cannot execute statement in a READ ONLY transaction"},
	1832: {"ER_FK_COLUMN_CANNOT_CHANGE", "HY000", "Cannot change column '%s': used in a foreign key constraint '%s'"},
	1906: {"ER_WARNING_NON_DEFAULT_VALUE_FOR_GENERATED_COLUMN", "HY000", "The value specified for generated column '%s' in table '%s' has been ignored"},
	1916: {"ER_DATA_OVERFLOW", "22003", "Got overflow when converting '%s' to %s. Value truncated"},
	1959: {"ER_INVALID_ROLE", "OP000", "User %s has not been granted role %s"},
	1960: {"ER_INVALID_CURRENT_USER", "0L000", "The current user is invalid"},
	4021: {"ER_WRONG_TYPE_FOR_RANGE_FRAME", "HY000", "Numeric datatype is required for RANGE-type frame"},
	4025: {"ER_CONSTRAINT_FAILED", "23000", "CONSTRAINT `%s` failed for `%s`.`%s`"},
	// FULLTEXT and SPATIAL (sqlbackend/fulltext.go, spatial.go, match.go).
	1191: {"ER_FT_MATCHING_KEY_NOT_FOUND", "HY000", "Can't find FULLTEXT index matching the column list"},
	1252: {"ER_SPATIAL_CANT_HAVE_NULL", "42000", "All parts of a SPATIAL index must be NOT NULL"},
	1416: {"ER_CANT_CREATE_GEOMETRY_OBJECT", "22003", "Cannot get geometry object from data you send to the GEOMETRY field"},
	1210: {"ER_WRONG_ARGUMENTS", "HY000", "Incorrect arguments to %s"},
	// LOAD DATA (sqlbackend/loaddata.go).
	1261: {"ER_WARN_TOO_FEW_RECORDS", "01000", "Row %d doesn't contain data for all columns"},
	1262: {"ER_WARN_TOO_MANY_RECORDS", "01000", "Row %d was truncated; it contained more data than there were input columns"},
	1263: {"ER_WARN_NULL_TO_NOTNULL", "22004", "Column set to default value; NULL supplied to NOT NULL column '%s' at row %d"},
	4151: {"ER_ACCOUNT_HAS_BEEN_LOCKED", "HY000", "Access denied, this account is locked"},
}

// DupEntry prints a duplicate key as MariaDB's 1062 does: the values
// joined by '-', NULL as NULL, the bytes of binary strings outside
// printable ASCII as \xHH, cut to 64 bytes with "..." when longer.
func DupEntry(key []types.Value, keyTypes []types.Type) string {
	var b []byte
	for i, v := range key {
		if i > 0 {
			b = append(b, '-')
		}
		if i >= len(keyTypes) {
			continue
		}
		t := &keyTypes[i]
		switch {
		case v.Null:
			b = append(b, "NULL"...)
		case t.Kind == types.Binary || t.Kind == types.VarBinary || t.Kind == types.Blob:
			for _, c := range v.B {
				if c < 0x20 || c > 0x7e {
					b = append(b, fmt.Sprintf(`\x%02X`, c)...)
				} else {
					b = append(b, c)
				}
			}
		default:
			b = types.AppendFormat(b, t, v)
		}
	}
	return Truncate(string(b), 64)
}

// Truncate cuts s, when it is longer than max bytes, to at most max-3
// bytes ending on a character boundary and adds "...", as MariaDB's
// messages do.
func Truncate(s string, max int) string {
	if len(s) <= max {
		return s
	}
	n := max - 3
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "..."
}
