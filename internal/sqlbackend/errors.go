package sqlbackend

import (
	"errors"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	goerrors "gopkg.in/src-d/go-errors.v1"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
)

// The engine's errors are mapped where the backend meets them (MapError,
// dupKeyError) into the errors go-mysql-server passes on to its handler:
// a MySQL error that errtable's table gives the engine condition, or the
// go-mysql-server kind of that error where go-mysql-server inspects the
// kind. What reaches the client is then worded by the listener
// (sqlfront's wireError), which rewrites go-mysql-server's own errors.

// errDefChanged reports that another statement changed a table's
// definition between the resolution of an ALTER and its job.
func errDefChanged(db, table string) error {
	return errtable.SQLError(errtable.ERTableDefChanged, db, table)
}

// errUnsupported reports a feature the backend does not provide.
func errUnsupported(format string, args ...any) error {
	return sql.ErrUnsupportedFeature.New(fmt.Sprintf(format, args...))
}

// MapError turns an engine error into the error go-mysql-server reports
// to MySQL clients: the MySQL error errtable's table gives its condition
// (1062 for a duplicate key, 1146 for an unknown table, ...).
//
// Where go-mysql-server inspects the error kind (a table that already
// exists for CREATE TABLE IF NOT EXISTS, a missing database or table), the
// result is the go-mysql-server kind of the same MySQL error (gmsKinds),
// which the listener words as MariaDB does. Duplicate keys met by row
// writes are turned into unique-key errors with the existing row by
// dupKeyError, not here. Errors of no engine condition pass unchanged
// (go-mysql-server reports them as 1105 with their text, as the table
// says).
func MapError(err error) error {
	if err == nil {
		return nil
	}
	c := errtable.Lookup(err)
	if c.Kind == nil {
		return err
	}
	if k := gmsKinds[c.MySQL]; k != nil {
		return k.New(errtable.Name(err))
	}
	return c.SQLError(err)
}

// gmsKinds are the go-mysql-server kinds MapError returns for these MySQL
// errors; each takes the object's name as the engine error gives it.
var gmsKinds = map[int]*goerrors.Kind{
	mysql.ERBadDb:          sql.ErrDatabaseNotFound,
	mysql.ERNoSuchTable:    sql.ErrTableNotFound,
	mysql.ERDbCreateExists: sql.ErrDatabaseExists,
	mysql.ERTableExists:    sql.ErrTableAlreadyExists,
}

// dupKeyError turns an engine duplicate-key error met while writing a row
// of t into go-mysql-server's unique-key error carrying the existing row,
// which INSERT ... ON DUPLICATE KEY UPDATE and REPLACE act on. Its key
// text is MariaDB's whole message (Duplicate entry '5' for key
// 'PRIMARY'), which the listener sends as error 1062. Other errors go
// through MapError.
func dupKeyError(t *engine.Table, sch sql.Schema, err error) error {
	if err == nil {
		return nil
	}
	var dk *engine.DuplicateKeyError
	if !errors.As(err, &dk) {
		return MapError(err)
	}
	var existing sql.Row
	if dk.Existing != nil {
		existing = rowToSQL(t, sch, dk.Existing)
	}
	return sql.NewUniqueKeyErr(dupKeyMessage(t, dk), dk.Index == "PRIMARY", existing)
}

// dupKeyMessage is MariaDB's message of 1062 for dk in table t.
func dupKeyMessage(t *engine.Table, dk *engine.DuplicateKeyError) string {
	named := *dk // the key as the write gave it, else the existing row's
	if idx := t.Index(dk.Index); named.Key == nil && idx != nil && dk.Existing != nil {
		for _, c := range idx.Columns {
			named.Key = append(named.Key, dk.Existing[c])
			named.KeyTypes = append(named.KeyTypes, t.Columns[c].Type)
		}
	}
	return errtable.Lookup(dk).SQLError(&named).Message
}
