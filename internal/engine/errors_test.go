package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// TestErrorKinds: the kinds are distinct, keep their identity through
// wrapping, and a refined kind matches its parent but not the reverse.
func TestErrorKinds(t *testing.T) {
	seen := map[*ErrorKind]bool{}
	for _, k := range Kinds() {
		if k == nil || seen[k] || !strings.HasPrefix(k.Error(), "engine: ") {
			t.Errorf("kind %v (seen %v)", k, seen[k])
		}
		seen[k] = true
		for _, err := range []error{k, fmt.Errorf("%w: x", k), fmt.Errorf("ctx: %w", &Error{Kind: k})} {
			if got := KindOf(err); got != k || !errors.Is(err, k) {
				t.Errorf("KindOf(%v) = %v", err, got)
			}
		}
	}
	if len(seen) < 17 {
		t.Errorf("%d kinds", len(seen))
	}
	if !errors.Is(ErrBadAutoIncrement, ErrBadDefinition) || errors.Is(ErrBadDefinition, ErrBadAutoIncrement) {
		t.Error("ErrBadAutoIncrement does not refine ErrBadDefinition")
	}
	if ErrBadAutoIncrement.Error() != ErrBadDefinition.Error() || ErrBadAutoIncrement.Errno() != HaWrongCreateOption {
		t.Errorf("ErrBadAutoIncrement: %q %d", ErrBadAutoIncrement, ErrBadAutoIncrement.Errno())
	}
	if KindOf(errors.New("engine: unknown table")) != nil || KindOf(nil) != nil {
		t.Error("a plain error has a kind")
	}
	dk := &DuplicateKeyError{Table: "d.t", Index: "PRIMARY"}
	if KindOf(fmt.Errorf("x: %w", dk)) != ErrDuplicateKey || ErrDuplicateKey.Errno() != 121 {
		t.Error("DuplicateKeyError is not an ErrDuplicateKey (121)")
	}
	cause := errors.New("disk")
	e := &Error{Kind: ErrCommitFailed, Detail: "disk", Err: cause}
	if e.Error() != "engine: group commit: disk" || !errors.Is(e, cause) || !errors.Is(e, ErrCommitFailed) {
		t.Errorf("%v does not hold its kind and cause", e)
	}
}

// TestTypedErrors: the engine's errors carry their condition, handler
// number and the objects involved, with the messages they always had.
func TestTypedErrors(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	var tiny *Table
	update(t, e, func(tx *Job) error {
		var err error
		tiny, err = tx.CreateTable("app", &TableDef{Name: "tiny",
			Columns: []types.Column{{Name: "id", Type: types.Type{Kind: types.TinyInt}, AutoIncrement: true}, {Name: "f", Type: types.Type{Kind: types.Double}, Nullable: true}},
			Indexes: []IndexDef{{Primary: true, Columns: []string{"id"}}}})
		if err != nil {
			return err
		}
		_, err = tx.Insert(tiny, row(iv(127), null()))
		return err
	})
	job := func(fn func(tx *Job) error) error { return e.Update(context.Background(), fn) }
	commitAfterDrop := func() error {
		x := e.Begin()
		defer x.Rollback()
		if _, err := x.Insert(tb, row(null(), sv("a"), null(), null())); err != nil {
			return err
		}
		update(t, e, func(tx *Job) error { return tx.DropTable("app", "people") })
		return x.Commit(context.Background())
	}
	for _, c := range []struct {
		err                      error
		kind                     *ErrorKind
		errno                    HandlerErrno
		db, table, index, column string
		text                     string
	}{
		{func() error { _, err := e.Catalog().Table("nodb", "t"); return err }(), ErrNoDatabase, 0, "nodb", "", "", "", "engine: unknown database: nodb"},
		{func() error { _, err := e.Catalog().Table("app", "nosuch"); return err }(), ErrNoTable, HaErrNoSuchTable, "app", "nosuch", "", "", "engine: unknown table: app.nosuch"},
		{job(func(tx *Job) error { return tx.CreateDatabase("app") }), ErrDatabaseExists, 0, "app", "", "", "", "engine: database exists: app"},
		{job(func(tx *Job) error { _, err := tx.CreateTable("app", peopleDef()); return err }), ErrTableExists, HaErrTableExist, "app", "people", "", "", "engine: table exists: app.people"},
		{job(func(tx *Job) error { _, err := tx.DropIndex("app", "people", "nosuch"); return err }), ErrNoIndex, 0, "app", "people", "nosuch", "", "engine: unknown index: nosuch"},
		{job(func(tx *Job) error {
			_, err := tx.AddIndex("app", "people", &IndexDef{Name: "email", Columns: []string{"age"}})
			return err
		}), ErrIndexExists, 0, "app", "people", "email", "", "engine: index exists: email"},
		{job(func(tx *Job) error {
			_, err := tx.AddIndex("app", "people", &IndexDef{Name: "x", Columns: []string{"nosuch"}})
			return err
		}), ErrBadDefinition, HaWrongCreateOption, "app", "people", "x", "nosuch", "engine: bad definition: index x names unknown column nosuch"},
		{job(func(tx *Job) error { _, err := tx.DropIndex("app", "tiny", "PRIMARY"); return err }), ErrBadDefinition, HaWrongCreateOption, "app", "tiny", "PRIMARY", "", "engine: bad definition: cannot drop the primary key"},
		{job(func(tx *Job) error {
			_, err := tx.CreateTable("app", &TableDef{Name: "d", Columns: []types.Column{{Name: "x", Type: types.Type{Kind: types.Double}, AutoIncrement: true}}})
			return err
		}), ErrBadAutoIncrement, HaWrongCreateOption, "app", "d", "", "x", "engine: bad definition: AUTO_INCREMENT column x"},
		{job(func(tx *Job) error { _, err := tx.Insert(tiny, row(null(), null())); return err }), ErrAutoIncrementOverflow, HaErrAutoincErange, "app", "tiny", "", "id", "engine: auto-increment out of range"},
		{job(func(tx *Job) error { _, err := tx.Insert(tiny, row(iv(1), types.Value{F: math.NaN()})); return err }), ErrBadValue, HaErrInternalError, "app", "tiny", "", "f", "engine: value cannot be stored: NaN in column f"},
		{job(func(tx *Job) error { _, err := tx.Insert(tiny, row(iv(1))); return err }), ErrBadRow, HaErrInternalError, "app", "tiny", "", "", "engine: row does not match table"},
		{e.Find(tiny, &Query{Key: []types.Value{iv(1), iv(2)}}, func(Row) bool { return true }), ErrKeyParts, HaErrInternalError, "app", "tiny", "PRIMARY", "", "engine: too many key parts"},
		{commitAfterDrop(), ErrTableDefChanged, HaErrTableDefChanged, "app", "people", "", "", "engine: table definition changed: app.people"},
	} {
		var te *Error
		if !errors.As(c.err, &te) {
			t.Errorf("%v: not an *Error", c.err)
			continue
		}
		if te.Kind != c.kind || KindOf(c.err).Errno() != c.errno || te.DB != c.db || te.Table != c.table || te.Index != c.index || te.Column != c.column || c.err.Error() != c.text {
			t.Errorf("%q: %v %d %q %q %q %q, want %v %d %q %q %q %q %q", c.err, te.Kind, te.Kind.Errno(), te.DB, te.Table, te.Index, te.Column,
				c.kind, c.errno, c.db, c.table, c.index, c.column, c.text)
		}
	}
}
