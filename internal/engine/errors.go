package engine

import (
	"errors"

	"github.com/handlerdb/handlerdb/internal/types"
)

// Sentinel errors returned by the engine. The fronts map each of them to
// their protocol's own form (HandlerSocket tokens, MySQL error numbers) in
// one table, so every front reports a condition the same way. Wrapped
// errors keep these identities: test with errors.Is.
var (
	// ErrClosed is returned by every call made after Close began.
	ErrClosed = errors.New("engine: closed")
	// ErrNoDatabase is returned when a named database does not exist.
	ErrNoDatabase = errors.New("engine: unknown database")
	// ErrNoTable is returned when a named table does not exist in its
	// database (names are case sensitive).
	ErrNoTable = errors.New("engine: unknown table")
	// ErrNoIndex is returned when a named index does not exist on its table.
	ErrNoIndex = errors.New("engine: unknown index")
	// ErrNoColumn is returned when a named column does not exist.
	ErrNoColumn = errors.New("engine: unknown column")
	// ErrDatabaseExists is returned by CreateDatabase for an existing name.
	ErrDatabaseExists = errors.New("engine: database exists")
	// ErrTableExists is returned by CreateTable for an existing name.
	ErrTableExists = errors.New("engine: table exists")
	// ErrIndexExists is returned when an index name is already taken.
	ErrIndexExists = errors.New("engine: index exists")
	// ErrBadDefinition is returned for a table or index definition the
	// engine cannot hold (no columns, duplicate column names, an index on
	// an unknown column, two primary keys, a non-integer AUTO_INCREMENT...).
	ErrBadDefinition = errors.New("engine: bad definition")
	// ErrDuplicateKey is returned when an insert or update would give two
	// rows the same primary key or the same non-NULL value of a unique
	// index. It is wrapped in a *DuplicateKeyError naming the index.
	ErrDuplicateKey = errors.New("engine: duplicate key")
	// ErrKeyParts is returned when a lookup gives more key values than the
	// index has columns.
	ErrKeyParts = errors.New("engine: too many key parts")
	// ErrBadRow is returned when a row given to a write does not have one
	// value per table column.
	ErrBadRow = errors.New("engine: row does not match table")
	// ErrBadValue is returned when a row holds a value no column can store
	// (NaN in FLOAT or DOUBLE: it has no place in the key order).
	ErrBadValue = errors.New("engine: value cannot be stored")
	// ErrCorrupt is returned when stored bytes cannot be decoded.
	ErrCorrupt = errors.New("engine: corrupt data")
	// ErrAutoIncrementOverflow is returned when an AUTO_INCREMENT column
	// has no value left in its type's range.
	ErrAutoIncrementOverflow = errors.New("engine: auto-increment out of range")
)

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
			key[i], dk.KeyTypes[i] = row[c], t.Columns[c].Type
		}
	}
	dk.Key = key.Clone()
	return err
}
