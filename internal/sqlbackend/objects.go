package sqlbackend

import (
	"encoding/json"
	"regexp"
	"strings"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
)

// Views, triggers, stored procedures, functions and events are SQL-only objects the engine
// knows nothing of: each database's are kept as one JSON record in the
// engine (Job.SetBlob), cached by the provider once read. Writes are
// serialized by the provider's objMu, since a record is read, changed and
// written back; they go through the provider, which drops its cached copy.

// dbObjects is the stored record of one database's SQL objects.
type dbObjects struct {
	Views      []sql.ViewDefinition         `json:"views,omitempty"`
	Triggers   []sql.TriggerDefinition      `json:"triggers,omitempty"`
	Procedures []sql.StoredProcedureDetails `json:"procedures,omitempty"`
	Functions  []FunctionDef                `json:"functions,omitempty"`
	Events     []sql.EventDefinition        `json:"events,omitempty"` // events.go

	// qualified is Triggers with every table name qualified by the
	// database (qualifiedTriggers), made once per cached record.
	qualifiedOnce sync.Once
	qualified     []sql.TriggerDefinition
	// qualifiedProcs is Procedures so (a procedure called from another
	// database ran its body there).
	qualifiedProcsOnce sync.Once
	qualifiedProcs     []sql.StoredProcedureDetails
}

// objectsBlob names the record of a database's SQL objects (with the
// stored "sqlfront/" prefix, as metaBlob).
func objectsBlob(db string) string { return "sqlfront/objects/" + db }

var (
	_ sql.ViewDatabase            = (*database)(nil)
	_ sql.TriggerDatabase         = (*database)(nil)
	_ sql.StoredProcedureDatabase = (*database)(nil)
)

// objects reads the database's SQL objects (cached by the provider; the
// result must not be modified).
func (d *database) objects() (*dbObjects, error) {
	d.p.objCacheMu.RLock()
	o, ok := d.p.objCache[d.name]
	gen := d.p.objGen
	d.p.objCacheMu.RUnlock()
	if ok {
		return o, nil
	}
	o, err := d.readObjects()
	if err != nil {
		return nil, err
	}
	// An edit that committed after the read above has forgotten the cache
	// (and bumped objGen): what was read may be older, so it is not kept.
	d.p.objCacheMu.Lock()
	if d.p.objGen == gen {
		d.p.objCache[d.name] = o
	}
	d.p.objCacheMu.Unlock()
	return o, nil
}

// readObjects reads the database's SQL objects from the engine.
func (d *database) readObjects() (*dbObjects, error) {
	b, err := d.p.e.Blob(objectsBlob(d.name))
	if err != nil {
		return nil, MapError(err)
	}
	o := &dbObjects{}
	if len(b) > 0 {
		if err := json.Unmarshal(b, o); err != nil {
			return nil, MapError(engine.ErrCorrupt)
		}
	}
	return o, nil
}

// editObjects changes the database's SQL objects as one engine job.
func (d *database) editObjects(ctx *sql.Context, edit func(o *dbObjects) error) error {
	d.p.objMu.Lock()
	defer d.p.objMu.Unlock()
	o, err := d.readObjects()
	if err != nil {
		return err
	}
	if err := edit(o); err == errNothingToDo {
		return nil
	} else if err != nil {
		return err
	}
	b, err := json.Marshal(o)
	if err != nil {
		return err
	}
	err = d.p.ddl(ctx, func(tx *engine.Job) error { return tx.SetBlob(objectsBlob(d.name), b) })
	d.p.forgetObjects(d.name)
	return err
}

// CreateView stores a view.
func (d *database) CreateView(ctx *sql.Context, name string, selectStatement, createViewStmt string) error {
	if err := checkName(ctx, nameTable, name); err != nil {
		return err
	}
	return d.editObjects(ctx, func(o *dbObjects) error {
		for _, v := range o.Views {
			if strings.EqualFold(v.Name, name) {
				return sql.ErrExistingView.New(d.name, name)
			}
		}
		mode := sql.LoadSqlMode(ctx).String()
		o.Views = append(o.Views, sql.ViewDefinition{Name: name, TextDefinition: selectStatement, CreateViewStatement: withDefiner(ctx, createViewStmt), SqlMode: mode})
		return nil
	})
}

// DropView removes a view.
func (d *database) DropView(ctx *sql.Context, name string) error {
	return d.editObjects(ctx, func(o *dbObjects) error {
		for i, v := range o.Views {
			if strings.EqualFold(v.Name, name) {
				o.Views = append(o.Views[:i], o.Views[i+1:]...)
				return nil
			}
		}
		return sql.ErrViewDoesNotExist.New(d.name, name)
	})
}

// GetViewDefinition returns a view by name.
func (d *database) GetViewDefinition(ctx *sql.Context, name string) (sql.ViewDefinition, bool, error) {
	o, err := d.objects()
	if err != nil {
		return sql.ViewDefinition{}, false, err
	}
	for _, v := range o.Views {
		if strings.EqualFold(v.Name, name) {
			return v, true, nil
		}
	}
	return sql.ViewDefinition{}, false, nil
}

// AllViews returns every view of the database, but those whose names are
// not valid UTF-8 (see names.go).
func (d *database) AllViews(ctx *sql.Context) ([]sql.ViewDefinition, error) {
	o, err := d.objects()
	if err != nil {
		return nil, err
	}
	for _, v := range o.Views {
		if !listable(v.Name) {
			var views []sql.ViewDefinition
			for _, v := range o.Views {
				if listable(v.Name) {
					views = append(views, v)
				}
			}
			return views, nil
		}
	}
	return o.Views, nil
}

// GetTriggers returns the database's triggers.
//
// go-mysql-server binds a trigger's statement in the current database
// (to fire it, and for information_schema.TRIGGERS), as it does a stored
// procedure's (GetStoredProcedures does the same), so a write to this
// database's table from another one read the trigger's table and the
// tables of its body in the wrong database ("Table 'other.t' doesn't
// exist"). From another database the triggers come with their table
// names qualified by this one; in it, as written.
func (d *database) GetTriggers(ctx *sql.Context) ([]sql.TriggerDefinition, error) {
	o, err := d.objects()
	if err != nil {
		return nil, err
	}
	if len(o.Triggers) == 0 || strings.EqualFold(ctx.GetCurrentDatabase(), d.name) {
		return o.Triggers, nil
	}
	o.qualifiedOnce.Do(func() { o.qualified = qualifiedTriggers(o.Triggers, d.name) })
	return o.qualified, nil
}

// qualifiedTriggers returns triggers with each table name of their
// statements that names no database qualified by db (qualifyTables).
func qualifiedTriggers(triggers []sql.TriggerDefinition, db string) []sql.TriggerDefinition {
	out := make([]sql.TriggerDefinition, len(triggers))
	for i, tr := range triggers {
		out[i] = tr
		out[i].CreateStatement = qualifyTables(tr.CreateStatement, db)
	}
	return out
}

// qualifiedProcedures is qualifiedTriggers for stored procedures.
func qualifiedProcedures(procs []sql.StoredProcedureDetails, db string) []sql.StoredProcedureDetails {
	out := make([]sql.StoredProcedureDetails, len(procs))
	for i, p := range procs {
		out[i] = p
		out[i].CreateStatement = qualifyTables(p.CreateStatement, db)
	}
	return out
}

// qualifyTables returns the CREATE TRIGGER or CREATE PROCEDURE statement
// stmt with each table name (and procedure called) that names no
// database qualified by db. A statement the parser cannot read back so
// is returned as written.
func qualifyTables(stmt, db string) string {
	st, err := ast.Parse(stmt)
	if err != nil {
		return stmt
	}
	changed := false
	qualify := func(tn *ast.TableName) {
		if tn.DbQualifier.IsEmpty() && !tn.Name.IsEmpty() {
			tn.DbQualifier = ast.NewTableIdent(db)
			changed = true
		}
	}
	var visit func(n ast.SQLNode) (bool, error)
	visit = func(n ast.SQLNode) (bool, error) {
		switch x := n.(type) {
		case *ast.DDL:
			if x.TriggerSpec != nil {
				qualify(&x.Table)                       // the trigger's table
				_ = ast.Walk(visit, x.TriggerSpec.Body) // (Walk does not enter it)
			}
			if x.ProcedureSpec != nil {
				if x.ProcedureSpec.ProcName.Qualifier.IsEmpty() {
					// (its own name too: go-mysql-server binds the
					// CREATE PROCEDURE to read the procedure)
					x.ProcedureSpec.ProcName.Qualifier = ast.NewTableIdent(db)
					changed = true
				}
				_ = ast.Walk(visit, x.ProcedureSpec.Body)
			}
		case *ast.Insert:
			qualify(&x.Table)
		case *ast.AliasedTableExpr:
			if tn, ok := x.Expr.(ast.TableName); ok {
				qualify(&tn)
				x.Expr = tn
			}
		case *ast.Call:
			if x.ProcName.Qualifier.IsEmpty() {
				x.ProcName.Qualifier = ast.NewTableIdent(db)
				changed = true
			}
		}
		return true, nil
	}
	_ = ast.Walk(visit, st)
	if !changed {
		return stmt
	}
	text := ast.String(st)
	if _, err := ast.Parse(text); err != nil {
		return stmt
	}
	return text
}

// CreateTrigger stores a trigger.
func (d *database) CreateTrigger(ctx *sql.Context, def sql.TriggerDefinition) error {
	if err := checkName(ctx, nameRoutine, def.Name); err != nil {
		return err
	}
	return d.editObjects(ctx, func(o *dbObjects) error {
		for _, t := range o.Triggers {
			if strings.EqualFold(t.Name, def.Name) {
				e := errtable.SQLError(errtable.ERTrgAlreadyExists, d.name+"."+def.Name)
				if createIfNotExists.MatchString(ctx.Query()) {
					// CREATE TRIGGER IF NOT EXISTS (mariadb.DialectRewrite
					// takes the words out for the parser): a note.
					ctx.Session.Warn(&sql.Warning{Level: "Note", Code: errtable.ERTrgAlreadyExists, Message: e.Message})
					return errNothingToDo
				}
				return e
			}
		}
		o.Triggers = append(o.Triggers, def)
		return nil
	})
}

// createIfNotExists recognises CREATE [DEFINER=...] TRIGGER IF NOT EXISTS.
var createIfNotExists = regexp.MustCompile(`(?is)^\s*CREATE\b.*?\bTRIGGER\s+IF\s+NOT\s+EXISTS\b`)

// DropTrigger removes a trigger.
func (d *database) DropTrigger(ctx *sql.Context, name string) error {
	return d.editObjects(ctx, func(o *dbObjects) error {
		for i, t := range o.Triggers {
			if strings.EqualFold(t.Name, name) {
				o.Triggers = append(o.Triggers[:i], o.Triggers[i+1:]...)
				return nil
			}
		}
		return sql.ErrTriggerDoesNotExist.New(name)
	})
}

// GetStoredProcedure returns a stored procedure by name, or the hidden
// procedure of a stored function (routines.go).
func (d *database) GetStoredProcedure(ctx *sql.Context, name string) (sql.StoredProcedureDetails, bool, error) {
	o, err := d.objects()
	if err != nil {
		return sql.StoredProcedureDetails{}, false, err
	}
	if strings.HasPrefix(strings.ToLower(name), FunctionPrefix) {
		fname := strings.TrimPrefix(strings.ToLower(name), FunctionPrefix)
		for i := range o.Functions {
			if strings.EqualFold(o.Functions[i].Name, fname) {
				return o.Functions[i].Procedure, true, nil
			}
		}
		return sql.StoredProcedureDetails{}, false, nil
	}
	procs, err := d.GetStoredProcedures(ctx)
	if err != nil {
		return sql.StoredProcedureDetails{}, false, err
	}
	for _, p := range procs {
		if strings.EqualFold(p.Name, name) {
			return p, true, nil
		}
	}
	return sql.StoredProcedureDetails{}, false, nil
}

// GetStoredProcedures returns every stored procedure of the database.
func (d *database) GetStoredProcedures(ctx *sql.Context) ([]sql.StoredProcedureDetails, error) {
	o, err := d.objects()
	if err != nil {
		return nil, err
	}
	if len(o.Procedures) == 0 || strings.EqualFold(ctx.GetCurrentDatabase(), d.name) {
		return o.Procedures, nil
	}
	o.qualifiedProcsOnce.Do(func() { o.qualifiedProcs = qualifiedProcedures(o.Procedures, d.name) })
	return o.qualifiedProcs, nil
}

// SaveStoredProcedure stores a stored procedure, or the stored function a
// hidden procedure carries (routines.go).
func (d *database) SaveStoredProcedure(ctx *sql.Context, spd sql.StoredProcedureDetails) error {
	if strings.HasPrefix(strings.ToLower(spd.Name), FunctionPrefix) {
		return d.saveFunction(ctx, spd)
	}
	if err := checkName(ctx, nameRoutine, spd.Name); err != nil {
		return err
	}
	return d.editObjects(ctx, func(o *dbObjects) error {
		for _, p := range o.Procedures {
			if strings.EqualFold(p.Name, spd.Name) {
				return sql.ErrStoredProcedureAlreadyExists.New(spd.Name)
			}
		}
		o.Procedures = append(o.Procedures, spd)
		return nil
	})
}

// DropStoredProcedure removes a stored procedure, or the stored function
// of a hidden procedure name (DROP FUNCTION, routines.go).
func (d *database) DropStoredProcedure(ctx *sql.Context, name string) error {
	if strings.HasPrefix(strings.ToLower(name), FunctionPrefix) {
		return d.dropFunction(ctx, name)
	}
	return d.editObjects(ctx, func(o *dbObjects) error {
		for i, p := range o.Procedures {
			if strings.EqualFold(p.Name, name) {
				o.Procedures = append(o.Procedures[:i], o.Procedures[i+1:]...)
				return nil
			}
		}
		return sql.ErrStoredProcedureDoesNotExist.New(name)
	})
}
