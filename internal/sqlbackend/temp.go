package sqlbackend

import (
	"context"
	"fmt"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Temporary tables (CREATE TEMPORARY TABLE).
//
// A temporary table is an engine table like any other, in the database
// the statement names, under a hidden name (engine.HiddenPrefix):
// "#sql-tmp-<connection id>-<n>-<name>". HandlerSocket, SHOW TABLES and
// information_schema do not see hidden tables (engine/catalog.go); only
// the session that created it knows its name. For that session it
// shadows a stored table of the same name: database.GetTableInsensitive
// and DropTable look among the session's temporary tables first. Its rows
// are written through the session's transaction as any table's; it has
// the SQL attributes of meta.go like any table.
//
// The session drops its temporary tables when it ends (SessionEnd), and
// DropTemporaryLeftovers drops those a crash left behind, at start. The
// table map belongs to the Session and is used on its connection's
// goroutine only.

const tempPrefix = engine.HiddenPrefix + "tmp-"

// tempKey keys a temporary table by database and name, as MySQL compares
// table names here (ignoring case).
func tempKey(db, name string) string { return strings.ToLower(db) + "\x00" + strings.ToLower(name) }

// sqlName is the name SQL knows a table by: a temporary table's own name
// rather than its hidden one.
func sqlName(t *engine.Table) string {
	rest, ok := strings.CutPrefix(t.Name, tempPrefix)
	if !ok {
		return t.Name
	}
	for range 2 { // connection id, then counter
		if _, r, ok := strings.Cut(rest, "-"); ok {
			rest = r
		}
	}
	return rest
}

// isTemporary reports whether t is a temporary table.
func isTemporary(t *engine.Table) bool { return strings.HasPrefix(t.Name, tempPrefix) }

// errHiddenName refuses a table name of the engine's hidden tables.
func errHiddenName(name string) error {
	return mysql.NewSQLError(mysql.ERWrongTableName, "42000", "Incorrect table name '%s'", name)
}

// temporary returns the session's temporary table of that name in d, or
// nil (also for a nil session).
func (s *Session) temporary(d *database, name string) *engine.Table {
	if s == nil || len(s.temps) == 0 {
		return nil
	}
	hidden, ok := s.temps[tempKey(d.name, name)]
	if !ok {
		return nil
	}
	return d.engineTable(hidden)
}

// HasTemporaryTables reports whether the session has temporary tables
// (which a table name may then resolve to).
func (s *Session) HasTemporaryTables() bool { return len(s.temps) > 0 }

var _ sql.TemporaryTableCreator = (*database)(nil)

// CreateTemporaryTable creates a temporary table of the session (see
// above). Its indexes and checks are added afterwards as a stored
// table's are.
func (d *database) CreateTemporaryTable(ctx *sql.Context, name string, schema sql.PrimaryKeySchema, coll sql.CollationID) error {
	s := SessionOf(ctx)
	if s == nil {
		return sql.ErrTemporaryTableNotSupported.New()
	}
	if err := checkName(ctx, nameTable, name); err != nil {
		return err
	}
	if s.temporary(d, name) != nil {
		return sql.ErrTableAlreadyExists.New(name)
	}
	s.tempSeq++
	hidden := fmt.Sprintf("%s%d-%d-%s", tempPrefix, s.ID(), s.tempSeq, name)
	def, meta, err := tableDefFromSQL(ctx, hidden, schema, coll, "")
	if err != nil {
		return err
	}
	err = d.p.ddlJob(ctx, false, func(tx *engine.Job) error {
		t, err := tx.CreateTable(d.name, def)
		if err != nil {
			return err
		}
		return writeMeta(tx, t.ID, meta)
	})
	if err != nil {
		return err
	}
	if s.temps == nil {
		s.temps = map[string]string{}
	}
	s.temps[tempKey(d.name, name)] = hidden
	return nil
}

// dropTemporary drops the session's temporary table of that name.
func (s *Session) dropTemporary(ctx context.Context, d *database, name string) error {
	key := tempKey(d.name, name)
	hidden := s.temps[key]
	err := dropHidden(ctx, d.p, d.name, hidden)
	if err == nil {
		delete(s.temps, key)
	}
	return err
}

// dropHidden drops one hidden table and its SQL attributes, as a job
// that commits nothing else (temporary tables are the session's alone).
func dropHidden(ctx context.Context, p *Provider, db, hidden string) error {
	return MapError(p.e.Update(ctx, func(tx *engine.Job) error {
		t, err := tx.Catalog().AnyTable(db, hidden)
		if err != nil {
			return nil // gone already (its database was dropped)
		}
		if err := tx.DropTable(db, hidden); err != nil {
			return err
		}
		return writeMeta(tx, t.ID, nil)
	}))
}

// dropTemporaries drops every temporary table of the session, as its
// connection closes.
func (s *Session) dropTemporaries() {
	for key, hidden := range s.temps {
		db, _, _ := strings.Cut(key, "\x00")
		if n, ok := s.p.dbName(db); ok {
			_ = dropHidden(context.Background(), s.p, n, hidden)
		}
		delete(s.temps, key)
	}
}

// DropTemporaryLeftovers drops the temporary tables left in the engine by
// sessions that did not end (the server crashed or was killed). Call it
// once, before the provider serves any session.
func (p *Provider) DropTemporaryLeftovers(ctx context.Context) error {
	cat := p.e.Catalog()
	for _, db := range cat.Databases() {
		edb, err := cat.Database(db)
		if err != nil {
			continue
		}
		for _, t := range edb.HiddenTables() {
			if isTemporary(t) {
				if err := dropHidden(ctx, p, db, t.Name); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
