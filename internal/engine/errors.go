package engine

import (
	"errors"
	"strings"

	"github.com/handlerdb/handlerdb/internal/types"
)

// HandlerErrno is a storage-engine error number of MySQL's handler API:
// one of the HA_ERR_* values of MariaDB 10.11's include/my_base.h. The
// HandlerSocket plugin answers a failed handler call with "1\t1\t<n>";
// the MySQL server turns the number into one of its own errors.
type HandlerErrno uint16

// The handler error numbers of the conditions the engine reports (the
// ones it never raises, such as HA_ERR_KEY_NOT_FOUND, are left out: a
// find without rows is no error).
const (
	HaErrFoundDuppKey    HandlerErrno = 121 // HA_ERR_FOUND_DUPP_KEY: duplicate key on write or update
	HaErrInternalError   HandlerErrno = 122 // HA_ERR_INTERNAL_ERROR: internal (unspecified) error in handler
	HaErrCrashed         HandlerErrno = 126 // HA_ERR_CRASHED: index file is crashed
	HaWrongCreateOption  HandlerErrno = 140 // HA_WRONG_CREATE_OPTION: wrong create option
	HaErrTableReadonly   HandlerErrno = 148 // HA_ERR_TABLE_READONLY: the table is read only
	HaErrLockWaitTimeout HandlerErrno = 146 // HA_ERR_LOCK_WAIT_TIMEOUT: lock wait timeout
	HaErrLockDeadlock    HandlerErrno = 149 // HA_ERR_LOCK_DEADLOCK: deadlock, the transaction rolled back
	HaErrNoSuchTable     HandlerErrno = 155 // HA_ERR_NO_SUCH_TABLE: the table does not exist in engine
	HaErrTableExist      HandlerErrno = 156 // HA_ERR_TABLE_EXIST: the table existed in storage engine
	HaErrTableDefChanged HandlerErrno = 159 // HA_ERR_TABLE_DEF_CHANGED: the table changed in storage engine
	HaErrAutoincErange   HandlerErrno = 167 // HA_ERR_AUTOINC_ERANGE: failed to set row autoinc value
	HaErrCommitError     HandlerErrno = 197 // HA_ERR_COMMIT_ERROR (MariaDB): the commit failed
	HaErrNoReferencedRow HandlerErrno = 151 // HA_ERR_NO_REFERENCED_ROW: a foreign key's parent row is missing
	HaErrRowIsReferenced HandlerErrno = 152 // HA_ERR_ROW_IS_REFERENCED: a row a foreign key's child rows reference
	HaErrFKDepthExceeded HandlerErrno = 193 // HA_ERR_FK_DEPTH_EXCEEDED: a foreign key cascade nests too deep
)

// ErrorKind is one condition the engine reports; the Err* variables below
// are all of them. Every error the engine returns for a condition is its
// kind or wraps it, so errors.Is(err, ErrNoTable) tells the condition,
// KindOf returns it, and errors.As with an *Error (or a
// *DuplicateKeyError) gives the objects involved. Wrapping keeps the
// kind. The fronts report each kind as internal/errtable's table says.
// Kinds never change and are safe for concurrent use.
type ErrorKind struct {
	text  string
	errno HandlerErrno
	// parent is the broader kind this one refines, or nil; label tells
	// the refinement apart in Name.
	parent *ErrorKind
	label  string
}

// Error returns the kind's message, such as "engine: unknown table".
func (k *ErrorKind) Error() string { return k.text }

// Errno returns the condition's handler error number, or 0 for a
// condition of the catalog that MySQL's server layer reports by itself
// (an unknown or existing database, an existing or unknown index, a
// closed engine).
func (k *ErrorKind) Errno() HandlerErrno { return k.errno }

// Is makes a kind match the broader kinds it refines: ErrBadAutoIncrement
// is an ErrBadDefinition.
func (k *ErrorKind) Is(target error) bool {
	for p := k.parent; p != nil; p = p.parent {
		if target == error(p) {
			return true
		}
	}
	return false
}

func newKind(text string, errno HandlerErrno) *ErrorKind {
	k := &ErrorKind{text: "engine: " + text, errno: errno}
	kinds = append(kinds, k)
	return k
}

// kinds lists every kind, in declaration order (newKind fills it while the
// package initializes).
var kinds []*ErrorKind

// Kinds returns every condition the engine reports, so that a table of
// them can check it has them all.
func Kinds() []*ErrorKind { return append([]*ErrorKind(nil), kinds...) }

// KindOf returns the kind of err, or nil when err is not one of the
// engine's conditions (a plain error of the store, say).
func KindOf(err error) *ErrorKind {
	var k *ErrorKind
	if errors.As(err, &k) {
		return k
	}
	return nil
}

// The engine's conditions.
var (
	// ErrClosed is returned by every call made after Close began.
	ErrClosed = newKind("closed", 0)
	// ErrNoDatabase is returned when a named database does not exist; the
	// *Error names it.
	ErrNoDatabase = newKind("unknown database", 0)
	// ErrNoTable is returned when a named table does not exist in its
	// database (names are case sensitive); the *Error names both.
	ErrNoTable = newKind("unknown table", HaErrNoSuchTable)
	// ErrNoIndex is returned when a named index does not exist on its
	// table; the *Error names the index.
	ErrNoIndex = newKind("unknown index", 0)
	// ErrDatabaseExists is returned by CreateDatabase for an existing name.
	ErrDatabaseExists = newKind("database exists", 0)
	// ErrTableExists is returned by CreateTable and RenameTable for an
	// existing name.
	ErrTableExists = newKind("table exists", HaErrTableExist)
	// ErrIndexExists is returned when an index name is already taken.
	ErrIndexExists = newKind("index exists", 0)
	// ErrBadDefinition is returned for a table or index definition the
	// engine cannot hold (no columns, duplicate column names, an index on
	// an unknown column, two primary keys...).
	ErrBadDefinition = newKind("bad definition", HaWrongCreateOption)
	// ErrBadAutoIncrement is the ErrBadDefinition of an AUTO_INCREMENT
	// column: a second one, one that is not an integer, or one that is not
	// the first column of an index. errors.Is(err, ErrBadDefinition)
	// holds for it too.
	ErrBadAutoIncrement = refine(ErrBadDefinition, "of an AUTO_INCREMENT column")
	// ErrDuplicateKey is returned when an insert or update would give two
	// rows the same primary key or the same non-NULL value of a unique
	// index. It is wrapped in a *DuplicateKeyError naming the index.
	ErrDuplicateKey = newKind("duplicate key", HaErrFoundDuppKey)
	// ErrKeyParts is returned when a lookup gives more key values than the
	// index has columns.
	ErrKeyParts = newKind("too many key parts", HaErrInternalError)
	// ErrBadRow is returned when a row given to a write does not have one
	// value per table column.
	ErrBadRow = newKind("row does not match table", HaErrInternalError)
	// ErrBadValue is returned when a row holds a value no column can store
	// (NaN in FLOAT or DOUBLE: it has no place in the key order).
	ErrBadValue = newKind("value cannot be stored", HaErrInternalError)
	// ErrCorrupt is returned when stored bytes cannot be decoded.
	ErrCorrupt = newKind("corrupt data", HaErrCrashed)
	// ErrAutoIncrementOverflow is returned when an AUTO_INCREMENT column
	// has no value left in its type's range.
	ErrAutoIncrementOverflow = newKind("auto-increment out of range", HaErrAutoincErange)
	// ErrTableDefChanged is returned by Txn.Commit when a table the
	// transaction wrote was dropped or replaced since (nothing of the
	// transaction is applied).
	ErrTableDefChanged = newKind("table definition changed", HaErrTableDefChanged)
	// ErrCommitFailed is returned to every job of a group whose commit to
	// the store failed; the *Error holds the store's error.
	ErrCommitFailed = newKind("group commit", HaErrCommitError)
	// ErrReadOnly is returned by every write of a job while the engine is
	// read-only (SetReadOnly: the server is a replica), unless the job's
	// context is Privileged.
	ErrReadOnly = newKind("read-only", HaErrTableReadonly)
	// ErrReadLocked is returned by the jobs of the holder of the global
	// read lock while it holds it (readlock.go: HoldingReadLock); other
	// jobs wait for its release instead.
	ErrReadLocked = newKind("global read lock held", 0)
	// ErrNoReferencedRow, ErrRowIsReferenced and ErrFKDepthExceeded are
	// the foreign key conditions a RowChecker reports (rowchecker.go): a
	// child row without its parent, a parent row with children under
	// RESTRICT, a cascade nested too deep. The *Error names the child table
	// and, in Detail, the key.
	ErrNoReferencedRow = newKind("no referenced row", HaErrNoReferencedRow)
	ErrRowIsReferenced = newKind("row is referenced", HaErrRowIsReferenced)
	ErrFKDepthExceeded = newKind("foreign key cascade too deep", HaErrFKDepthExceeded)
	// ErrRowLocked is returned by a job's update or delete of a row that
	// an SQL transaction holds the row lock of (locks.go), wrapped in a
	// *RowLockedError that names the row: the caller waits for that lock
	// (Locker.Lock) and runs the change again. It is an
	// ErrLockWaitTimeout, which a caller that does not wait reports.
	ErrRowLocked = refine(ErrLockWaitTimeout, "on a row a transaction holds")
)

// refine returns a kind with parent's message and number that also
// matches parent.
func refine(parent *ErrorKind, label string) *ErrorKind {
	k := newKind("", parent.errno)
	k.text, k.parent, k.label = parent.text, parent, label
	return k
}

// Name names the condition for documentation ("bad definition", "bad
// definition of an AUTO_INCREMENT column"); Error is its message.
func (k *ErrorKind) Name() string {
	name := strings.TrimPrefix(k.text, "engine: ")
	if k.label != "" {
		name += " " + k.label
	}
	return name
}

// Error is an engine error about named objects: its kind, the database,
// table, index and column the condition concerns (empty when it concerns
// none), and the store's error behind it, if any.
type Error struct {
	Kind                     *ErrorKind
	DB, Table, Index, Column string
	// Detail is what the message says after the kind's text.
	Detail string
	// Err is the underlying error, or nil.
	Err error
}

// Error returns the kind's text, then ": " and Detail when there is one:
// "engine: unknown table: db.t".
func (e *Error) Error() string {
	if e.Detail == "" {
		return e.Kind.text
	}
	return e.Kind.text + ": " + e.Detail
}

// Unwrap returns the kind, and the underlying error when there is one,
// so that errors.Is matches both.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// objectError returns an error of kind k about a database, a table of it
// or an index of that table (names not involved are empty), whose message
// names the object: "db", "db.table" or "index".
func objectError(k *ErrorKind, db, table, index string) *Error {
	e := &Error{Kind: k, DB: db, Table: table, Index: index}
	switch {
	case index != "":
		e.Detail = index
	case table != "":
		e.Detail = db + "." + table
	default:
		e.Detail = db
	}
	return e
}

// tableError returns an error of kind k about table t, with detail.
func tableError(k *ErrorKind, t *Table, detail string) *Error {
	return &Error{Kind: k, DB: t.DB, Table: t.Name, Detail: detail}
}

// columnError returns an error of kind k about column of table t, with
// detail.
func columnError(k *ErrorKind, t *Table, column, detail string) *Error {
	e := tableError(k, t, detail)
	e.Column = column
	return e
}

// DuplicateKeyError is returned (wrapping ErrDuplicateKey) by writes that
// would break a unique index. Existing is the row that holds the key.
type DuplicateKeyError struct {
	Table    string
	Index    string
	Existing Row
	// Key is the duplicate key as the write gave it: the written row's
	// values of the index columns, in index order (they may differ from
	// Existing's in letter case or trailing spaces under the index's
	// collation). Nil when the write did not name its row (rebuilding a
	// table): Existing's values are the key then.
	Key []types.Value
	// KeyTypes are the types of the index columns, one per Key value.
	KeyTypes []types.Type
}

func (e *DuplicateKeyError) Error() string {
	return "engine: duplicate key in " + e.Table + "." + e.Index
}

// Unwrap makes errors.Is(err, ErrDuplicateKey) true.
func (e *DuplicateKeyError) Unwrap() error { return ErrDuplicateKey }

// RowLockedError is the ErrRowLocked of one row: the lock key (LockKey)
// of the row in Table that a job would have changed.
type RowLockedError struct {
	Table *Table
	Key   []byte
}

func (e *RowLockedError) Error() string {
	return "engine: row of " + e.Table.DB + "." + e.Table.Name + " locked by a transaction"
}

// Unwrap makes errors.Is(err, ErrRowLocked) (and ErrLockWaitTimeout)
// true.
func (e *RowLockedError) Unwrap() error { return ErrRowLocked }

// withKey sets the Key and KeyTypes of a *DuplicateKeyError from row, the
// row being written into index idx of t; other errors (and nil) are
// returned unchanged.
func withKey(err error, t *Table, idx *Index, row Row) error {
	var dk *DuplicateKeyError
	if err == nil || !errors.As(err, &dk) || dk.Key != nil {
		return err
	}
	key := make(Row, len(idx.Columns))
	dk.KeyTypes = make([]types.Type, len(idx.Columns))
	for i, c := range idx.Columns {
		if c < len(row) && c < len(t.Columns) {
			key[i], dk.KeyTypes[i] = idx.KeyValue(t, i, row[c]), t.Columns[c].Type
		}
	}
	dk.Key = key.Clone()
	return err
}
