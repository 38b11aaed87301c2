package sqlbackend

import (
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"

	"github.com/handlerdb/handlerdb/internal/engine"
)

// Provider is the go-mysql-server DatabaseProvider over one engine: every
// engine database is a SQL database, and CREATE/DROP DATABASE change the
// engine's catalog. A Provider is safe for concurrent use; it keeps no
// state of its own beyond a cache of SQL objects.
type Provider struct {
	e *engine.Engine
	// overrides are functions answered in place of go-mysql-server's
	// built-ins of their names (OverrideFunctions); read-only once the
	// provider serves statements.
	overrides map[string]sql.Function

	objMu      sync.Mutex // serializes changes of views, triggers and procedures
	objCacheMu sync.RWMutex
	objCache   map[string]*dbObjects // database -> its SQL objects
	objGen     uint64                // bumped by forgetObjects, under objCacheMu

	maria bool // see MariaDB (show.go); set before serving
	// SnapshotPosition, when set (a binary log is written, which also
	// keeps LOAD DATA out of staged jobs: LoadDataNode.RowIter), gives the
	// binary log file and position after the change feed's transaction
	// seq: a consistent snapshot's, which START TRANSACTION WITH
	// CONSISTENT SNAPSHOT puts in @@binlog_snapshot_file and _position.
	// Set before serving.
	SnapshotPosition func(seq uint64) (file string, pos uint64, err error)
	// LogVariable, when set, gives the binary log's variables
	// (@@gtid_binlog_pos, @@gtid_current_pos, @@gtid_executed,
	// @@gtid_purged, by their lower-case names) of this server, where
	// the process-wide variables read the last started server's.
	LogVariable func(name string) (string, error)

	fks fkCache // every foreign key of the catalog, by parent (fk.go)

	an atomic.Pointer[analyzer.Analyzer] // runs stored functions (routines.go)
	// fnRunner runs the stored functions it compiled (routines.go)
	fnRunner atomic.Pointer[FunctionRunner]
	// noPointReads sends primary-key points through iterators like any
	// range (SetPointReads)
	noPointReads atomic.Bool
}

// SetPointReads turns the point reads of primary-key ranges (one lookup
// instead of an iterator: source.pointRead) on, the default, or off, for
// tests that compare the two. Safe for concurrent use.
func (p *Provider) SetPointReads(on bool) { p.noPointReads.Store(!on) }

// forgetObjects drops the cached SQL objects of a database.
func (p *Provider) forgetObjects(db string) {
	p.objCacheMu.Lock()
	delete(p.objCache, db)
	p.objGen++
	p.objCacheMu.Unlock()
}

var (
	_ sql.DatabaseProvider         = (*Provider)(nil)
	_ sql.MutableDatabaseProvider  = (*Provider)(nil)
	_ sql.CollatedDatabaseProvider = (*Provider)(nil)
)

// NewProvider returns the provider of e's databases.
// It is also the engine's RowChecker (hsfk.go): HandlerSocket writes keep
// the foreign keys from then on.
func NewProvider(e *engine.Engine) *Provider {
	installSysVars()
	p := &Provider{e: e, objCache: map[string]*dbObjects{}}
	e.SetRowChecker(p)
	return p
}

// Engine returns the engine the provider serves.
func (p *Provider) Engine() *engine.Engine { return p.e }

// dbName resolves a SQL database name to the engine's name: the exact
// name if it exists, else the one equal to it ignoring case.
func (p *Provider) dbName(name string) (string, bool) {
	cat := p.e.Catalog()
	if _, err := cat.Database(name); err == nil {
		return name, true
	}
	for _, n := range cat.Databases() {
		if strings.EqualFold(n, name) {
			return n, true
		}
	}
	return "", false
}

// Database returns the named database.
func (p *Provider) Database(ctx *sql.Context, name string) (sql.Database, error) {
	if name == "" {
		// go-mysql-server asks for the current database when there is
		// none in a few places (turning DELETE into TRUNCATE): an empty
		// database lets those go on with the table's own database.
		return noDatabase{}, nil
	}
	n, ok := p.dbName(name)
	if !ok {
		return nil, sql.ErrDatabaseNotFound.New(name)
	}
	return &database{p: p, name: n}, nil
}

// HasDatabase reports whether the named database exists.
func (p *Provider) HasDatabase(ctx *sql.Context, name string) bool {
	_, ok := p.dbName(name)
	return ok
}

// AllDatabases returns every database, sorted by name, but those whose
// names are not valid UTF-8 (stored before names were checked, see
// names.go), which would break the listings.
func (p *Provider) AllDatabases(ctx *sql.Context) []sql.Database {
	names := p.e.Catalog().Databases()
	dbs := make([]sql.Database, 0, len(names))
	for _, n := range names {
		if listable(n) {
			dbs = append(dbs, &database{p: p, name: n})
		}
	}
	return dbs
}

// CreateDatabase creates an empty database.
func (p *Provider) CreateDatabase(ctx *sql.Context, name string) error {
	if err := checkName(ctx, nameDatabase, name); err != nil {
		return err
	}
	return p.ddl(ctx, func(tx *engine.Job) error { return tx.CreateDatabase(name) })
}

// CreateCollatedDatabase creates an empty database with a default
// collation (CREATE DATABASE ... CHARACTER SET / COLLATE), which its
// tables that name none get.
func (p *Provider) CreateCollatedDatabase(ctx *sql.Context, name string, coll sql.CollationID) error {
	if err := checkName(ctx, nameDatabase, name); err != nil {
		return err
	}
	c, err := databaseCollation(coll)
	if err != nil {
		return err
	}
	dropCharsetWarning(ctx)
	return p.ddl(ctx, func(tx *engine.Job) error {
		if err := tx.CreateDatabase(name); err != nil || c == nil {
			return err
		}
		return tx.SetDatabaseCollation(name, c)
	})
}

// DropDatabase drops a database and its tables.
func (p *Provider) DropDatabase(ctx *sql.Context, name string) error {
	n, ok := p.dbName(name)
	if !ok {
		return sql.ErrDatabaseNotFound.New(name)
	}
	if err := p.checkDropDatabase(ctx, n); err != nil {
		return err
	}
	p.objMu.Lock()
	defer p.objMu.Unlock()
	defer p.forgetObjects(n)
	return p.ddl(ctx, func(tx *engine.Job) error {
		edb, err := tx.Catalog().Database(n)
		if err != nil {
			return err
		}
		for _, t := range append(edb.Tables(), edb.HiddenTables()...) {
			if err := writeMeta(tx, t.ID, nil); err != nil {
				return err
			}
		}
		if err := tx.DropDatabase(n); err != nil {
			return err
		}
		return tx.SetBlob(objectsBlob(n), nil)
	})
}

// ddl runs a catalog change as one engine job, after committing what the
// session had written (DDL commits implicitly in MySQL).
func (p *Provider) ddl(ctx *sql.Context, fn func(tx *engine.Job) error) error {
	return p.ddlJob(ctx, true, fn)
}

// ddlJob is ddl; logged: the statement goes to the change log (a
// temporary table's does not), from the first of its jobs.
func (p *Provider) ddlJob(ctx *sql.Context, logged bool, fn func(tx *engine.Job) error) error {
	return MapError(p.ddlRaw(ctx, logged, fn))
}

// ddlRaw is ddlJob with the engine's error as it is.
func (p *Provider) ddlRaw(ctx *sql.Context, logged bool, fn func(tx *engine.Job) error) error {
	s := SessionOf(ctx)
	if err := s.commitPending(ctx); err != nil {
		return err
	}
	if logged && s != nil && (s.ddlLogged != ctx.Pid() || s.ddlLoggedText != ctx.Query()) && ctx.Query() != "" {
		inner := fn
		fn = func(tx *engine.Job) error {
			if err := inner(tx); err != nil {
				return err
			}
			tx.LogStatement(ctx.GetCurrentDatabase(), ctx.Query())
			return nil
		}
	}
	err := p.e.Update(ctx, fn)
	if err == nil && logged && s != nil {
		s.ddlLogged, s.ddlLoggedText = ctx.Pid(), ctx.Query()
	}
	metaChanged()
	return err
}

// logged reports whether a binary log is written (SnapshotPosition is
// set with it).
func (p *Provider) logged() bool { return p.SnapshotPosition != nil }

// ResolveTable returns the engine table a SQL name resolves to in the
// current catalog, as statements resolve it (the database and then the
// table of exactly that name, else the one equal to it ignoring case), or
// nil.
func (p *Provider) ResolveTable(db, name string) *engine.Table {
	n, ok := p.dbName(db)
	if !ok {
		return nil
	}
	return (&database{p: p, name: n}).engineTable(name)
}

// ColumnTypes returns the go-mysql-server type of each column of t as a
// result column has it: SQLType of each column type, with oddType for
// dates, which prints dates time.Time cannot hold (oddate.go).
func (p *Provider) ColumnTypes(t *engine.Table) []sql.Type {
	ts := p.schemaOf(t).types
	out := make([]sql.Type, len(ts))
	for i, c := range ts {
		out[i] = OddTypeOf(c)
	}
	return out
}

// rowCount returns the number of rows of t for the planner.
func (p *Provider) rowCount(t *engine.Table) (uint64, bool, error) {
	// The engine keeps the count up to date with every commit (the first
	// call for a table counts it once).
	n, err := p.e.RowCount(t)
	if err != nil {
		return 0, false, MapError(err)
	}
	return uint64(max(n, 0)), true, nil
}

// noDatabase is the database of a session that has selected none: it has
// no tables.
type noDatabase struct{}

// Name is empty.
func (noDatabase) Name() string { return "" }

// GetTableInsensitive finds nothing.
func (noDatabase) GetTableInsensitive(*sql.Context, string) (sql.Table, bool, error) {
	return nil, false, nil
}

// GetTableNames returns no names.
func (noDatabase) GetTableNames(*sql.Context) ([]string, error) { return nil, nil }

// ObjectsGen returns a number that changes whenever a view, trigger,
// procedure or stored function of any database changes (a cached plan
// that read one is then stale). Safe for concurrent use.
// SchemaGen grows whenever a table, view, trigger, procedure or stored
// function of any database changes (the catalog's version plus
// ObjectsGen): a plan made at one value is the plan of the same statement
// while it stays.
func (p *Provider) SchemaGen() uint64 { return p.e.Catalog().Version + p.ObjectsGen() }

func (p *Provider) ObjectsGen() uint64 {
	p.objCacheMu.RLock()
	defer p.objCacheMu.RUnlock()
	return p.objGen
}
