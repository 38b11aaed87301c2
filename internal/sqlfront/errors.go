package sqlfront

import (
	"errors"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// MySQL error numbers HandlerDB reports that vitess names differently or
// not at all.
const (
	erAutoincReadFailed = 1467 // ER_AUTOINC_READ_FAILED
	erServerShutdown    = 1053 // ER_SERVER_SHUTDOWN
	erGetErrno          = 1030 // ER_GET_ERRNO
	erTableAccessDenied = 1142 // ER_TABLEACCESS_DENIED_ERROR
	erTableDefChanged   = 1412 // ER_TABLE_DEF_CHANGED
)

// errDefChanged reports that another statement changed a table's
// definition between the resolution of an ALTER and its job.
func errDefChanged(db, table string) error {
	return mysql.NewSQLError(erTableDefChanged, "HY000",
		"Table definition has changed, please retry transaction (%s.%s)", db, table)
}

// mapError turns an engine error into the error go-mysql-server reports
// to MySQL clients. It is the one place where the engine's sentinel errors
// meet MySQL error numbers:
//
//	engine.ErrNoDatabase             1049 ER_BAD_DB_ERROR
//	engine.ErrNoTable                1146 ER_NO_SUCH_TABLE
//	engine.ErrDatabaseExists         1007 ER_DB_CREATE_EXISTS
//	engine.ErrTableExists            1050 ER_TABLE_EXISTS_ERROR
//	engine.ErrIndexExists            1061 ER_DUP_KEYNAME
//	engine.ErrNoIndex                1091 ER_CANT_DROP_FIELD_OR_KEY
//	engine.ErrNoColumn               1054 ER_BAD_FIELD_ERROR
//	engine.ErrDuplicateKey           1062 ER_DUP_ENTRY
//	engine.ErrBadDefinition          1075 ER_WRONG_AUTO_KEY for AUTO_INCREMENT, else 1105
//	engine.ErrAutoIncrementOverflow  1467 ER_AUTOINC_READ_FAILED
//	engine.ErrClosed                 1053 ER_SERVER_SHUTDOWN
//	engine.ErrCorrupt                1030 ER_GET_ERRNO
//
// Where go-mysql-server inspects the error kind (a table that already
// exists for CREATE TABLE IF NOT EXISTS, a missing database or table, a
// duplicate key for INSERT ... ON DUPLICATE KEY UPDATE and REPLACE), the
// result is the go-mysql-server kind, which it maps to the same number.
// Duplicate keys met by row writes are turned into unique-key errors with
// the existing row by dupKeyError, not here. Other errors pass unchanged.
func mapError(err error) error {
	if err == nil {
		return nil
	}
	var dk *engine.DuplicateKeyError
	switch {
	case errors.As(err, &dk):
		return mysql.NewSQLError(mysql.ERDupEntry, mysql.SSConstraintViolation,
			"Duplicate entry for key '%s'", dk.Index)
	case errors.Is(err, engine.ErrNoDatabase):
		return sql.ErrDatabaseNotFound.New(trimEnginePrefix(err, engine.ErrNoDatabase))
	case errors.Is(err, engine.ErrNoTable):
		return sql.ErrTableNotFound.New(trimEnginePrefix(err, engine.ErrNoTable))
	case errors.Is(err, engine.ErrDatabaseExists):
		return sql.ErrDatabaseExists.New(trimEnginePrefix(err, engine.ErrDatabaseExists))
	case errors.Is(err, engine.ErrTableExists):
		return sql.ErrTableAlreadyExists.New(trimEnginePrefix(err, engine.ErrTableExists))
	case errors.Is(err, engine.ErrIndexExists):
		return mysql.NewSQLError(mysql.ERDupKeyName, mysql.SSUnknownSQLState,
			"Duplicate key name '%s'", trimEnginePrefix(err, engine.ErrIndexExists))
	case errors.Is(err, engine.ErrNoIndex):
		return mysql.NewSQLError(mysql.ERCantDropFieldOrKey, mysql.SSUnknownSQLState,
			"Can't DROP INDEX `%s`; check that it exists", trimEnginePrefix(err, engine.ErrNoIndex))
	case errors.Is(err, engine.ErrNoColumn):
		return mysql.NewSQLError(mysql.ERBadFieldError, mysql.SSBadFieldError, "%s", err.Error())
	case errors.Is(err, engine.ErrBadDefinition):
		if containsFold(err.Error(), "AUTO_INCREMENT") {
			return mysql.NewSQLError(mysql.ERWrongAutoKey, mysql.SSUnknownSQLState,
				"Incorrect table definition; there can be only one auto column and it must be defined as a key")
		}
		return mysql.NewSQLError(mysql.ERUnknownError, mysql.SSUnknownSQLState, "%s", err.Error())
	case errors.Is(err, engine.ErrAutoIncrementOverflow):
		return mysql.NewSQLError(erAutoincReadFailed, mysql.SSUnknownSQLState,
			"Failed to read auto-increment value from storage engine")
	case errors.Is(err, engine.ErrClosed):
		return mysql.NewSQLError(erServerShutdown, "08S01", "Server shutdown in progress")
	case errors.Is(err, engine.ErrCorrupt):
		return mysql.NewSQLError(erGetErrno, mysql.SSUnknownSQLState, "Got error from storage engine: %s", err.Error())
	}
	return err
}

// dupKeyError turns an engine duplicate-key error met while writing a row
// of t into go-mysql-server's unique-key error carrying the existing row,
// which INSERT ... ON DUPLICATE KEY UPDATE and REPLACE act on (and which
// clients see as error 1062). Other errors go through mapError.
func dupKeyError(t *engine.Table, sch sql.Schema, err error) error {
	if err == nil {
		return nil
	}
	var dk *engine.DuplicateKeyError
	if !errors.As(err, &dk) {
		return mapError(err)
	}
	var existing sql.Row
	if dk.Existing != nil {
		existing = rowToSQL(t, sch, dk.Existing)
	}
	isPK := dk.Index == "PRIMARY"
	var key []byte
	key = append(key, '[')
	if idx := indexByName(t, dk.Index); idx != nil && dk.Existing != nil {
		for i, c := range idx.Columns {
			if i > 0 {
				key = append(key, ',')
			}
			key = appendText(key, &t.Columns[c].Type, dk.Existing[c])
		}
	}
	key = append(key, ']')
	return sql.NewUniqueKeyErr(string(key), isPK, existing)
}

func indexByName(t *engine.Table, name string) *engine.Index {
	if name == "PRIMARY" {
		return t.Primary
	}
	return t.Index(name)
}

// trimEnginePrefix returns what a wrapped engine error adds after its
// sentinel's text ("engine: unknown table: db.t" -> "db.t").
func trimEnginePrefix(err, sentinel error) string {
	s, p := err.Error(), sentinel.Error()+": "
	if len(s) > len(p) && s[:len(p)] == p {
		return s[len(p):]
	}
	return s
}

func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		match := true
		for j := 0; j < len(sub); j++ {
			a, b := s[i+j], sub[j]
			if 'a' <= a && a <= 'z' {
				a -= 'a' - 'A'
			}
			if 'a' <= b && b <= 'z' {
				b -= 'a' - 'A'
			}
			if a != b {
				match = false
				break
			}
		}
		if match {
			return true
		}
	}
	return false
}

// errUnsupported reports a feature the backend does not provide.
func errUnsupported(format string, args ...any) error {
	return sql.ErrUnsupportedFeature.New(fmt.Sprintf(format, args...))
}
