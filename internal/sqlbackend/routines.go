package sqlbackend

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression/function"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/transform"
	gtypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/errtable"
)

// Stored functions.
//
// go-mysql-server has stored procedures but no stored functions (its
// parser does not know CREATE FUNCTION). HandlerDB runs each function as
// a hidden procedure: the SQL front rewrites CREATE FUNCTION f(x T)
// RETURNS R body into CREATE PROCEDURE __hdb_fn_f(IN x T) whose body sets
// a user variable where the function returns (sqlfront's
// routines.go), carrying the function as declared (FunctionDef) in a
// comment of the procedure's text. SaveStoredProcedure recognises the
// hidden name and keeps the function with the database's other SQL
// objects (objects.go), so it survives restarts; the hidden procedure is
// found by CALL but listed nowhere. A call f(a) in an expression is a
// storedFunc, which the provider hands out as a sql.FunctionProvider and
// which evaluates by running CALL __hdb_fn_f(a, @ret) through
// go-mysql-server's own statement runner (the procedure interpreter), then
// converts @ret (FunctionReturnVar) to the declared type. information_schema.ROUTINES (and so
// SHOW FUNCTION STATUS) lists the functions through routinesRule, and SHOW
// CREATE FUNCTION is answered by the helper function
// __hdb_show_function.
//
// Concurrency: FunctionDef values are immutable once stored; a storedFunc
// belongs to one statement of one session.

// FunctionPrefix starts the name of the hidden procedure of a function.
const FunctionPrefix = "__hdb_fn_"

// functionMarker starts the comment that carries a FunctionDef in the
// hidden procedure's text.
const functionMarker = "/*hdbfn:"

// FunctionLabel is the label of a hidden procedure's outer block (a
// RETURN leaves it).
const FunctionLabel = "__hdb_fn"

// FunctionReturnVar names the user variable a function's hidden procedure
// sets to the value it returns. (Not an OUT parameter: go-mysql-server
// v0.20.0 fails to convert some values into one, a DECIMAL parameter for
// one; the variable keeps the value as it is, and storedFunc converts it to
// the declared type. A function never runs inside itself, so one variable
// a function suffices.)
func FunctionReturnVar(name string) string { return "__hdb_ret_" + strings.ToLower(name) }

// FunctionProcedure returns the name of the hidden procedure of function
// name.
func FunctionProcedure(name string) string { return FunctionPrefix + strings.ToLower(name) }

// FunctionDef is a stored function as CREATE FUNCTION declared it.
type FunctionDef struct {
	Name       string   `json:"name"`
	Params     string   `json:"params"`      // the parameter list as written
	ParamNames []string `json:"param_names"` // the parameters' names
	Returns    string   `json:"returns"`     // the return type as written
	// DataAccess is CONTAINS SQL (the default), NO SQL, READS SQL DATA or
	// MODIFIES SQL DATA.
	DataAccess    string `json:"data_access,omitempty"`
	Deterministic bool   `json:"deterministic,omitempty"`
	Invoker       bool   `json:"invoker,omitempty"` // SQL SECURITY INVOKER
	Comment       string `json:"comment,omitempty"`
	Body          string `json:"body"`              // from RETURN or BEGIN to the end
	Definer       string `json:"definer,omitempty"` // as written after DEFINER=, or the creating account
	// IfNotExists and OrReplace are CREATE's clauses (not kept).
	IfNotExists bool `json:"if_not_exists,omitempty"`
	OrReplace   bool `json:"or_replace,omitempty"`

	CreatedAt  time.Time                  `json:"created"`
	ModifiedAt time.Time                  `json:"modified"`
	SqlMode    string                     `json:"sql_mode"`
	Procedure  sql.StoredProcedureDetails `json:"procedure"`
}

// EncodeFunctionDef returns the comment carrying def in a hidden
// procedure's text.
func EncodeFunctionDef(def *FunctionDef) string {
	b, _ := json.Marshal(def)
	return functionMarker + base64.RawStdEncoding.EncodeToString(b) + "*/"
}

// decodeFunctionDef finds the FunctionDef in a hidden procedure's text.
func decodeFunctionDef(text string) (*FunctionDef, bool) {
	i := strings.Index(text, functionMarker)
	if i < 0 {
		return nil, false
	}
	rest := text[i+len(functionMarker):]
	j := strings.Index(rest, "*/")
	if j < 0 {
		return nil, false
	}
	b, err := base64.RawStdEncoding.DecodeString(rest[:j])
	if err != nil {
		return nil, false
	}
	def := &FunctionDef{}
	if json.Unmarshal(b, def) != nil || def.Name == "" {
		return nil, false
	}
	return def, true
}

// saveFunction stores the function a hidden procedure carries (see
// SaveStoredProcedure).
func (d *database) saveFunction(ctx *sql.Context, spd sql.StoredProcedureDetails) error {
	def, ok := decodeFunctionDef(spd.CreateStatement)
	if !ok {
		return sql.ErrStoredProcedureAlreadyExists.New(spd.Name)
	}
	if err := checkName(ctx, nameRoutine, def.Name); err != nil {
		return err
	}
	if def.Definer == "" {
		// The creating account, as CURRENT_USER names it.
		c := ctx.Session.Client()
		host := c.Address
		if h, _, ok := strings.Cut(host, ":"); ok {
			host = h
		}
		def.Definer = quoteIdent(c.User) + "@" + quoteIdent(host)
	}
	def.CreatedAt, def.ModifiedAt, def.SqlMode = spd.CreatedAt, spd.ModifiedAt, spd.SqlMode
	ifNotExists, orReplace := def.IfNotExists, def.OrReplace
	def.IfNotExists, def.OrReplace = false, false
	spd.CreateStatement = stripFunctionDef(spd.CreateStatement)
	def.Procedure = spd
	exists := false
	err := d.editObjects(ctx, func(o *dbObjects) error {
		for i := range o.Functions {
			if strings.EqualFold(o.Functions[i].Name, def.Name) {
				switch {
				case orReplace:
					def.CreatedAt = o.Functions[i].CreatedAt
					o.Functions[i] = *def
					return nil
				case ifNotExists:
					exists = true
					return errNothingToDo
				}
				return errtable.SQLError(errtable.ERSPAlreadyExists, "FUNCTION", def.Name)
			}
		}
		o.Functions = append(o.Functions, *def)
		return nil
	})
	if exists {
		ctx.Session.Warn(&sql.Warning{Level: "Note", Code: errtable.ERSPAlreadyExists,
			Message: errtable.SQLError(errtable.ERSPAlreadyExists, "FUNCTION", def.Name).Message})
		return nil
	}
	return err
}

// errNothingToDo stops an edit of the SQL objects that changes nothing.
var errNothingToDo = fmt.Errorf("nothing to do")

// stripFunctionDef removes the FunctionDef comment from a procedure text.
func stripFunctionDef(text string) string {
	i := strings.Index(text, functionMarker)
	if i < 0 {
		return text
	}
	j := strings.Index(text[i:], "*/")
	if j < 0 {
		return text
	}
	return text[:i] + text[i+j+2:]
}

// dropFunction removes the function of a hidden procedure name.
func (d *database) dropFunction(ctx *sql.Context, procName string) error {
	name := strings.TrimPrefix(strings.ToLower(procName), FunctionPrefix)
	missing := false
	err := d.editObjects(ctx, func(o *dbObjects) error {
		for i := range o.Functions {
			if strings.EqualFold(o.Functions[i].Name, name) {
				o.Functions = append(o.Functions[:i], o.Functions[i+1:]...)
				return nil
			}
		}
		missing = true
		return errNothingToDo
	})
	if missing {
		e := errtable.SQLError(mysql.ERSPDoesNotExist, "FUNCTION", d.name+"."+name)
		if dropIfExists.MatchString(ctx.Query()) {
			ctx.Session.Warn(&sql.Warning{Level: "Note", Code: mysql.ERSPDoesNotExist, Message: e.Message})
			return sql.ErrStoredProcedureDoesNotExist.New(procName) // go-mysql-server then answers OK
		}
		return e
	}
	return err
}

// dropIfExists recognises DROP FUNCTION IF EXISTS, also inside an
// executable comment (mariadb-dump writes /*!50003 DROP FUNCTION IF
// EXISTS f */).
var dropIfExists = regexp.MustCompile(`(?is)^\s*(/\*M?!\d*\s*)?DROP\s+FUNCTION\s+IF\s+EXISTS\b`)

// function returns the named function of the database.
func (d *database) function(name string) (*FunctionDef, bool) {
	o, err := d.objects()
	if err != nil {
		return nil, false
	}
	for i := range o.Functions {
		if strings.EqualFold(o.Functions[i].Name, name) {
			return &o.Functions[i], true
		}
	}
	return nil, false
}

// builtinFunctions are go-mysql-server's functions: a stored function of
// the same name is called only qualified, as in MariaDB (which HandlerDB
// does not parse), so they are never looked up.
var builtinFunctions = func() map[string]bool {
	m := map[string]bool{}
	for _, f := range function.BuiltIns {
		m[strings.ToLower(f.FunctionName())] = true
	}
	return m
}()

var _ sql.FunctionProvider = (*Provider)(nil)

// Function returns the stored function of that name of the current
// database (go-mysql-server asks for every function it does not know
// itself... and for its own too, first: those are left to it), or the
// helper behind SHOW CREATE FUNCTION.
func (p *Provider) Function(ctx *sql.Context, name string) (sql.Function, bool) {
	name = strings.ToLower(name)
	if f, ok := p.overrides[name]; ok {
		return f, true
	}
	if name == showFunctionHelper {
		return sql.FunctionN{Name: showFunctionHelper, Fn: func(args ...sql.Expression) (sql.Expression, error) {
			return &showFunction{p: p, args: args}, nil
		}}, true
	}
	if builtinFunctions[name] {
		return nil, false
	}
	dbName := ctx.GetCurrentDatabase()
	if d, f, ok := strings.Cut(name, "."); ok {
		dbName, name = d, f // db.f(...), as mariadb.RewriteStatement names it
	}
	n, ok := p.dbName(dbName)
	if !ok {
		return nil, false
	}
	db := &database{p: p, name: n}
	def, ok := db.function(name)
	if !ok {
		return nil, false
	}
	return sql.FunctionN{Name: name, Fn: func(args ...sql.Expression) (sql.Expression, error) {
		if len(args) != len(def.ParamNames) {
			return nil, errtable.SQLError(errtable.ERSPWrongArgs, "FUNCTION", n+"."+def.Name, len(def.ParamNames), len(args))
		}
		typ, err := returnType(def.Returns)
		if err != nil {
			return nil, err
		}
		return &storedFunc{p: p, db: n, def: def, typ: typ, args: args}, nil
	}}, true
}

// OverrideFunctions makes p answer go-mysql-server's lookup of each
// function's name with it, in place of go-mysql-server's built-in of that
// name (mariadb/numfuncs.go). Call it before the provider serves
// statements (it is not synchronized).
func (p *Provider) OverrideFunctions(fns ...sql.Function) {
	if p.overrides == nil {
		p.overrides = map[string]sql.Function{}
	}
	for _, f := range fns {
		p.overrides[strings.ToLower(f.FunctionName())] = f
	}
}

// returnType maps a function's declared return type to go-mysql-server's.
func returnType(text string) (sql.Type, error) {
	st, err := sqlparser.Parse("CREATE TABLE t (c " + text + ")")
	if err != nil {
		return nil, err
	}
	ddl, ok := st.(*sqlparser.DDL)
	if !ok || ddl.TableSpec == nil || len(ddl.TableSpec.Columns) != 1 {
		return nil, fmt.Errorf("bad function return type %q", text)
	}
	return gtypes.ColumnTypeToType(&ddl.TableSpec.Columns[0].Type)
}

// SetAnalyzer records the analyzer of the engine over p, whose statement
// runner evaluates stored functions (NewAnalyzer calls it).
func (p *Provider) SetAnalyzer(a *analyzer.Analyzer) { p.an.Store(a) }

// A FunctionRunner runs stored functions without the procedure
// interpreter (storedprog compiles them). Run returns handled false,
// having done nothing a caller could see, for a function or a call it does
// not take; the call then runs its hidden procedure.
type FunctionRunner interface {
	Run(ctx *sql.Context, db string, def *FunctionDef, args []any, argTypes []sql.Type) (v any, handled bool, err error)
}

// SetFunctionRunner makes r run the stored functions it takes (nil: none,
// every call runs the hidden procedure).
func (p *Provider) SetFunctionRunner(r FunctionRunner) {
	if r == nil {
		p.fnRunner.Store(nil)
		return
	}
	p.fnRunner.Store(&r)
}

// storedFunc is one call of a stored function in an expression.
type storedFunc struct {
	p    *Provider
	db   string
	def  *FunctionDef
	typ  sql.Type
	args []sql.Expression
}

var (
	_ sql.Expression                 = (*storedFunc)(nil)
	_ sql.NonDeterministicExpression = (*storedFunc)(nil)
)

func (f *storedFunc) Resolved() bool {
	for _, a := range f.args {
		if !a.Resolved() {
			return false
		}
	}
	return true
}

func (f *storedFunc) String() string {
	s := make([]string, len(f.args))
	for i, a := range f.args {
		s[i] = a.String()
	}
	return f.def.Name + "(" + strings.Join(s, ",") + ")"
}

func (f *storedFunc) Type() sql.Type             { return f.typ }
func (f *storedFunc) IsNullable() bool           { return true }
func (f *storedFunc) Children() []sql.Expression { return f.args }

// IsNonDeterministic is true: a function may read tables, so its calls
// are never folded or cached.
func (f *storedFunc) IsNonDeterministic() bool { return true }

func (f *storedFunc) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != len(f.args) {
		return nil, sql.ErrInvalidChildrenNumber.New(f, len(children), len(f.args))
	}
	nf := *f
	nf.args = children
	return &nf, nil
}

// maxFunctionDepth bounds nested calls (each runs a statement); MariaDB
// refuses recursion, so only distinct functions nest.
const maxFunctionDepth = 64

// Eval runs the function's hidden procedure on the evaluated arguments,
// passed in user variables (named by depth, so that the arguments of a
// nested call do not overwrite its caller's before they are read).
func (f *storedFunc) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	s := SessionOf(ctx)
	a := f.p.an.Load()
	if s == nil || a == nil || a.Runner == nil {
		return nil, errUnsupported("stored functions outside a HandlerDB session")
	}
	key := strings.ToLower(f.db + "." + f.def.Name)
	for _, active := range s.functions {
		if active == key {
			return nil, errtable.SQLError(errtable.ERSPNoRecursion)
		}
	}
	if len(s.functions) >= maxFunctionDepth {
		return nil, errtable.SQLError(errtable.ERSPNoRecursion)
	}
	depth := len(s.functions)
	args := make([]any, len(f.args))
	types := make([]sql.Type, len(f.args))
	for i, arg := range f.args {
		v, err := arg.Eval(ctx, row)
		if err != nil {
			return nil, err
		}
		args[i], types[i] = v, arg.Type()
	}
	if r := f.p.fnRunner.Load(); r != nil {
		s.functions = append(s.functions, key)
		v, handled, err := (*r).Run(ctx, f.db, f.def, args, types)
		s.functions = s.functions[:depth]
		if err != nil || (handled && v == nil) {
			return nil, err
		}
		if handled {
			v, _, err = f.typ.Convert(ctx, v)
			return v, err
		}
	}
	return f.callProcedure(ctx, s, key, depth, args, types)
}

// callProcedure runs the function's hidden procedure on the evaluated
// arguments args.
func (f *storedFunc) callProcedure(ctx *sql.Context, s *Session, key string, depth int, args []any, argTypes []sql.Type) (interface{}, error) {
	a := f.p.an.Load()
	var call strings.Builder
	fmt.Fprintf(&call, "CALL %s.%s(", quoteIdent(f.db), quoteIdent(FunctionProcedure(f.def.Name)))
	for i, v := range args {
		name := fmt.Sprintf("__hdb_fn_%d_%d", depth, i)
		if err := ctx.SetUserVariable(ctx, name, v, argTypes[i]); err != nil {
			return nil, err
		}
		fmt.Fprintf(&call, "@%s, ", name)
	}
	ret := FunctionReturnVar(f.def.Name)
	if err := ctx.SetUserVariable(ctx, ret, nil, gtypes.Null); err != nil {
		return nil, err
	}
	callText := strings.TrimSuffix(call.String(), ", ") + ")"

	// The CALL runs as go-mysql-server runs the statements of a procedure
	// (interpreted: it neither ends the caller's query nor commits).
	s.functions = append(s.functions, key)
	// RunInterpreted marks the context it is given; the statement's
	// context is shared with go-mysql-server's other goroutine of the
	// query (which copies it), so the CALL gets a copy of its own.
	_, err := sql.RunInterpreted(ctx.WithContext(ctx.Context), func(ctx *sql.Context) (struct{}, error) {
		return struct{}{}, runStatement(ctx, a.Runner, callText)
	})
	s.functions = s.functions[:depth]
	if err != nil {
		return nil, err
	}
	_, v, err := ctx.GetUserVariable(ctx, ret)
	if err != nil || v == nil {
		return nil, err
	}
	v, _, err = f.typ.Convert(ctx, v)
	return v, err
}

// runStatement runs one statement through the runner and drains it.
func runStatement(ctx *sql.Context, r sql.StatementRunner, q string) error {
	_, iter, _, err := r.QueryWithBindings(ctx, q, nil, nil, nil)
	if err != nil {
		return err
	}
	for {
		if _, err = iter.Next(ctx); err != nil {
			break
		}
	}
	cerr := iter.Close(ctx)
	if err != io.EOF {
		return err
	}
	return cerr
}

// showFunctionHelper is the function behind SHOW CREATE FUNCTION, which
// the SQL front rewrites into a SELECT of __hdb_show_function(name, n) for
// each column n: 0 the name, 1 the sql_mode, 2 the CREATE FUNCTION text, 3
// the database collation.
const showFunctionHelper = "__hdb_show_function"

// ShowFunctionHelper names that function for the SQL front.
const ShowFunctionHelper = showFunctionHelper

// showFunction is one call of __hdb_show_function.
type showFunction struct {
	p    *Provider
	args []sql.Expression
}

var _ sql.Expression = (*showFunction)(nil)

func (f *showFunction) Resolved() bool             { return true }
func (f *showFunction) String() string             { return showFunctionHelper + "()" }
func (f *showFunction) Type() sql.Type             { return gtypes.LongText }
func (f *showFunction) IsNullable() bool           { return false }
func (f *showFunction) Children() []sql.Expression { return f.args }
func (f *showFunction) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	return &showFunction{p: f.p, args: children}, nil
}

// Eval returns one column of SHOW CREATE FUNCTION.
func (f *showFunction) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	if len(f.args) != 2 {
		return nil, sql.ErrInvalidArgumentNumber.New(showFunctionHelper, 2, len(f.args))
	}
	nv, err := f.args[0].Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	cv, err := f.args[1].Eval(ctx, row)
	if err != nil {
		return nil, err
	}
	name, _ := nv.(string)
	col, _, _ := gtypes.Int64.Convert(ctx, cv)
	db, fname := ctx.GetCurrentDatabase(), name
	if d, n, ok := strings.Cut(name, "."); ok {
		db, fname = d, n
	}
	var def *FunctionDef
	if n, ok := f.p.dbName(db); ok {
		def, _ = (&database{p: f.p, name: n}).function(fname)
	}
	if def == nil {
		return nil, errtable.SQLError(mysql.ERSPDoesNotExist, "FUNCTION", name)
	}
	switch col {
	case int64(0):
		return def.Name, nil
	case int64(1):
		return def.SqlMode, nil
	case int64(2):
		return def.CreateText(), nil
	}
	return SQLCollation(f.p.e.Options().DefaultCollation).Name(), nil
}

// CreateText is the function's CREATE statement as MariaDB's SHOW CREATE
// FUNCTION prints it: the header rebuilt (definer, name, parameters as
// written, the return type, the characteristics that are not defaults, one
// a line), then the body as written.
func (def *FunctionDef) CreateText() string {
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE DEFINER=%s FUNCTION %s(%s) RETURNS %s\n", def.Definer, quoteIdent(def.Name), def.Params, mariaTypeName(def.Returns, true))
	if def.DataAccess != "" && def.DataAccess != "CONTAINS SQL" {
		b.WriteString("    " + def.DataAccess + "\n")
	}
	if def.Deterministic {
		b.WriteString("    DETERMINISTIC\n")
	}
	if def.Invoker {
		b.WriteString("    SQL SECURITY INVOKER\n")
	}
	if def.Comment != "" {
		b.WriteString("    COMMENT '" + strings.ReplaceAll(def.Comment, "'", "''") + "'\n")
	}
	b.WriteString(def.Body)
	return b.String()
}

// mariaTypeName prints a declared type as MariaDB prints a routine's
// return type: lower case, integers with their display width, strings
// with their character set and collation (withCharset).
func mariaTypeName(text string, withCharset bool) string {
	typ, err := returnType(text)
	if err != nil {
		return strings.ToLower(text)
	}
	s := strings.ToLower(typ.String())
	if i := strings.Index(s, " character set "); i >= 0 {
		s = s[:i]
	}
	if i := strings.Index(s, " collate "); i >= 0 {
		s = s[:i]
	}
	unsigned := strings.HasSuffix(s, " unsigned")
	base := strings.TrimSuffix(s, " unsigned")
	widths := map[string][2]int{"tinyint": {4, 3}, "smallint": {6, 5}, "mediumint": {9, 8}, "int": {11, 10}, "bigint": {20, 20}}
	if w, ok := widths[base]; ok {
		if unsigned {
			return fmt.Sprintf("%s(%d) unsigned", base, w[1])
		}
		return fmt.Sprintf("%s(%d)", base, w[0])
	}
	if st, ok := typ.(sql.StringType); ok && withCharset && !gtypes.IsBinaryType(typ) {
		cs, coll := stringCollation(text, st)
		return fmt.Sprintf("%s CHARSET %s COLLATE %s", s, cs, coll)
	}
	return s
}

// mariaDefaultCollations are MariaDB's default collations of the
// character sets whose default go-mysql-server (MySQL 8) names otherwise.
var mariaDefaultCollations = map[string]string{
	"utf8mb4": "utf8mb4_general_ci", "utf8mb3": "utf8mb3_general_ci", "utf8": "utf8mb3_general_ci",
	"latin1": "latin1_swedish_ci", "ascii": "ascii_general_ci",
}

// stringCollation is the character set and collation of a declared string
// type: the collation it names, else MariaDB's default of its character
// set (utf8mb4, the databases' default, when it names none).
func stringCollation(text string, st sql.StringType) (string, string) {
	cs := st.Collation().CharacterSet().Name()
	if strings.Contains(strings.ToUpper(text), "COLLATE") {
		return cs, st.Collation().Name()
	}
	if c, ok := mariaDefaultCollations[cs]; ok {
		return cs, c
	}
	return cs, st.CharacterSet().DefaultCollation().Name()
}

// dataTypeName is information_schema's DATA_TYPE of a declared type.
func dataTypeName(text string) string {
	s := mariaTypeName(text, false)
	if i := strings.IndexAny(s, "( "); i >= 0 {
		s = s[:i]
	}
	return s
}

// routinesRule: go-mysql-server's information_schema.ROUTINES lists
// stored procedures only. The rule wraps the table of each read of it in
// routinesTable, which adds the stored functions; SHOW FUNCTION STATUS,
// which go-mysql-server plans as a query of ROUTINES, lists them too.
func RoutinesRule(ctx *sql.Context, a *analyzer.Analyzer, n sql.Node, scope *plan.Scope, sel analyzer.RuleSelector, qf *sql.QueryFlags) (sql.Node, transform.TreeIdentity, error) {
	p, ok := a.Catalog.DbProvider.(*Provider)
	if !ok {
		return n, transform.SameTree, nil
	}
	return transform.NodeWithOpaque(n, func(n sql.Node) (sql.Node, transform.TreeIdentity, error) {
		rt, ok := n.(*plan.ResolvedTable)
		if !ok || !strings.EqualFold(rt.Table.Name(), "routines") {
			return n, transform.SameTree, nil
		}
		if _, done := rt.Table.(*routinesTable); done {
			return n, transform.SameTree, nil
		}
		if db, ok := rt.Table.(sql.Databaseable); !ok || !strings.EqualFold(db.Database(), "information_schema") {
			return n, transform.SameTree, nil
		}
		nt, err := rt.WithTable(&routinesTable{Table: rt.Table, p: p})
		if err != nil {
			return n, transform.SameTree, err
		}
		return nt, transform.NewTree, nil
	})
}

// routinesTable is information_schema.ROUTINES with the stored functions
// after go-mysql-server's rows.
type routinesTable struct {
	sql.Table
	p *Provider
}

// PartitionRows returns the procedures' rows, then the functions'.
func (r *routinesTable) PartitionRows(ctx *sql.Context, part sql.Partition) (sql.RowIter, error) {
	it, err := r.Table.PartitionRows(ctx, part)
	if err != nil {
		return nil, err
	}
	var rows []sql.Row
	for {
		row, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		if err != nil {
			_ = it.Close(ctx)
			return nil, err
		}
		rows = append(rows, row)
	}
	if err := it.Close(ctx); err != nil {
		return nil, err
	}
	fn, err := r.functionRows(ctx)
	if err != nil {
		return nil, err
	}
	return sql.RowsToRowIter(append(rows, fn...)...), nil
}

// functionRows are the ROUTINES rows of the stored functions the session
// may see (as go-mysql-server decides for procedures: a routine privilege
// on the database or globally).
func (r *routinesTable) functionRows(ctx *sql.Context) ([]sql.Row, error) {
	privSet, _ := ctx.GetPrivilegeSet()
	csClient, err := ctx.GetSessionVariable(ctx, "character_set_client")
	if err != nil {
		return nil, err
	}
	collConn, err := ctx.GetSessionVariable(ctx, "collation_connection")
	if err != nil {
		return nil, err
	}
	dbColl := SQLCollation(r.p.e.Options().DefaultCollation).Name()
	var rows []sql.Row
	for _, dbName := range r.p.e.Catalog().Databases() {
		if privSet != nil && !routinePrivileges(privSet, dbName) {
			continue
		}
		o, err := (&database{p: r.p, name: dbName}).objects()
		if err != nil {
			return nil, err
		}
		for i := range o.Functions {
			def := &o.Functions[i]
			deterministic, access, security := "NO", def.DataAccess, "DEFINER"
			if def.Deterministic {
				deterministic = "YES"
			}
			if access == "" {
				access = "CONTAINS SQL"
			}
			if def.Invoker {
				security = "INVOKER"
			}
			var charMax, octetMax, numPrec, numScale, dtPrec, csName, collName interface{}
			if typ, err := returnType(def.Returns); err == nil {
				switch t := typ.(type) {
				case sql.StringType:
					charMax, octetMax = t.MaxCharacterLength(), t.MaxByteLength()
					if !gtypes.IsBinaryType(typ) {
						csName, collName = stringCollation(def.Returns, t)
					}
				case sql.DecimalType:
					numPrec, numScale = int64(t.Precision()), int64(t.Scale())
				case sql.NumberType:
					numPrec, numScale = numericPrecision(typ), int64(0)
					if gtypes.IsFloat(typ) {
						numScale = nil
					}
				case sql.DatetimeType:
					dtPrec = int64(t.Precision())
				}
			}
			rows = append(rows, sql.Row{
				def.Name, "def", dbName, def.Name, "FUNCTION", dataTypeName(def.Returns),
				charMax, octetMax, numPrec, numScale, dtPrec, csName, collName,
				mariaTypeName(def.Returns, false), "SQL", def.Body, nil, nil, "SQL",
				deterministic, access, nil, security, def.CreatedAt.UTC(), def.ModifiedAt.UTC(),
				def.SqlMode, def.Comment, strings.ReplaceAll(def.Definer, "`", ""),
				csClient, collConn, dbColl,
			})
		}
	}
	return rows, nil
}

// routinePrivileges reports whether privSet lets its user see the
// routines of db.
func routinePrivileges(privSet sql.PrivilegeSet, db string) bool {
	for _, t := range []sql.PrivilegeType{sql.PrivilegeType_CreateRoutine, sql.PrivilegeType_AlterRoutine, sql.PrivilegeType_Execute} {
		if privSet.Has(t) || privSet.Database(db).Has(t) {
			return true
		}
	}
	return false
}

// numericPrecision is information_schema's NUMERIC_PRECISION of an
// integer or floating-point type.
func numericPrecision(t sql.Type) interface{} {
	switch strings.TrimSuffix(strings.ToLower(t.String()), " unsigned") {
	case "tinyint":
		return int64(3)
	case "smallint":
		return int64(5)
	case "mediumint":
		return int64(7)
	case "int":
		return int64(10)
	case "bigint":
		return int64(19)
	case "float":
		return int64(12)
	case "double":
		return int64(22)
	}
	return nil
}
