package storedprog

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/analyzer"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/go-mysql-server/sql/planbuilder"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// Runner is the sqlbackend.FunctionRunner of one engine: it compiles a
// session's functions at their first call and runs them. Safe for
// concurrent use (each session has its own programs).
type Runner struct {
	a *analyzer.Analyzer
	p *sqlbackend.Provider
	// Compiled counts the calls run compiled; Declined those left to the
	// interpreter. Templated counts the statements of compiled calls run
	// from a plan template, Analyzed those bound and analyzed.
	Compiled, Declined, Templated, Analyzed atomic.Uint64
}

var _ sqlbackend.FunctionRunner = (*Runner)(nil)

// New returns the runner of the engine whose analyzer is a, over p.
func New(a *analyzer.Analyzer, p *sqlbackend.Provider) *Runner { return &Runner{a: a, p: p} }

// maxPrograms bounds the functions one session keeps compiled.
const maxPrograms = 256

// entry is a session's compilation of one function: prog is nil when the
// body does not compile. It holds while the schema generation and the
// sql_mode it was made under do.
type entry struct {
	gen  uint64
	mode string
	prog *program
}

// Run runs a call of def, a function of database db, on args (of types
// argTypes); handled is false when the function is left to the
// interpreter (nothing was run).
func (r *Runner) Run(ctx *sql.Context, db string, def *sqlbackend.FunctionDef, args []any, argTypes []sql.Type) (v any, handled bool, err error) {
	s := sqlbackend.SessionOf(ctx)
	if s == nil {
		return nil, false, nil
	}
	mode := sqlbackend.SessionSQLMode(ctx)
	modeText := mode.String()
	progs := s.Programs()
	key := strings.ToLower(db) + "." + strings.ToLower(def.Name)
	gen := r.p.SchemaGen()
	ent, _ := progs[key].(*entry)
	if ent == nil || ent.gen != gen || ent.mode != modeText {
		if len(progs) >= maxPrograms {
			clear(progs)
		}
		ent = &entry{gen: gen, mode: modeText}
		ent.prog, _ = r.compile(ctx, db, def, mode)
		progs[key] = ent
	}
	p := ent.prog
	if p == nil || len(args) != p.nparams {
		r.Declined.Add(1)
		return nil, false, nil
	}
	strict := mode.ModeEnabled("STRICT_TRANS_TABLES") || mode.ModeEnabled("STRICT_ALL_TABLES")
	clear(p.vals)
	for i, a := range args {
		// an argument converts to its parameter's type as an assignment
		if err := p.assign(ctx, i, a, strict); err != nil {
			r.Compiled.Add(1)
			return nil, true, err
		}
	}
	r.Compiled.Add(1)
	if cur := ctx.GetCurrentDatabase(); !strings.EqualFold(cur, db) {
		// the function's statements run in its database
		ctx.SetCurrentDatabase(db)
		defer ctx.SetCurrentDatabase(cur)
	}
	v, err = r.run(ctx, p, strict)
	return v, true, err
}

// compile parses and compiles def; a nil program is a body left to the
// interpreter.
func (r *Runner) compile(ctx *sql.Context, db string, def *sqlbackend.FunctionDef, mode *sql.SqlMode) (*program, error) {
	text := "CREATE PROCEDURE __hdb_compile(" + def.Params + ") " + def.Body
	st, _, err := r.a.Parser.ParseOneWithOptions(ctx, text, mode.ParserOptions())
	if err != nil {
		return nil, err
	}
	ddl, ok := st.(*ast.DDL)
	if !ok || ddl.ProcedureSpec == nil {
		return nil, notCompiled("not a body")
	}
	coll := sql.Collation_Default
	if d, err := r.a.Catalog.Database(ctx, db); err == nil {
		if cd, ok := d.(sql.CollatedDatabase); ok {
			coll = cd.GetCollation(ctx)
		}
	}
	typeOf := func(ct *ast.ColumnType) (sql.Type, error) {
		t, err := types.ColumnTypeToType(ct)
		if err != nil {
			return nil, err
		}
		if st, ok := t.(sql.StringType); ok && types.IsText(t) && ct.Charset == "" && ct.Collate == "" && !ct.BinaryCollate {
			// a variable without a character set takes the database's
			return types.CreateString(st.Type(), st.Length(), coll)
		}
		return t, nil
	}
	return compile(def.Name, ddl.ProcedureSpec, typeOf)
}

// run runs a program whose parameters are set.
func (r *Runner) run(ctx *sql.Context, p *program, strict bool) (any, error) {
	pc, resume := 0, -1
	inHandler := false
	for {
		o := &p.code[pc]
		switch o.kind {
		case opSet:
			var v any
			if o.expr != nil {
				var err error
				if v, err = r.eval(ctx, p, o.expr); err != nil {
					return nil, err
				}
			}
			if err := p.assign(ctx, o.target[0], v, strict); err != nil {
				return nil, err
			}
			pc++
		case opInto:
			row, found, err := r.query(ctx, p, o.query)
			if err != nil {
				return nil, err
			}
			if !found {
				// NOT FOUND: the variables keep their values
				if h := p.notFound; h != nil && !inHandler {
					inHandler = true
					if !h.exit {
						resume = pc + 1
					}
					pc = h.at
					continue
				}
				pc++
				continue
			}
			for i, slot := range o.target {
				if err := p.assign(ctx, slot, row[i], strict); err != nil {
					return nil, err
				}
			}
			pc++
		case opJumpUnless, opJumpIf:
			v, err := r.eval(ctx, p, o.expr)
			if err != nil {
				return nil, err
			}
			ok, err := truth(ctx, v)
			if err != nil {
				return nil, err
			}
			if ok == (o.kind == opJumpIf) {
				if o.jump <= pc {
					if err := ctx.Err(); err != nil {
						return nil, err
					}
				}
				pc = o.jump
			} else {
				pc++
			}
		case opJump:
			switch {
			case o.jump < 0:
				pc, inHandler = resume, false
			case o.jump <= pc:
				// a loop: a killed query stops here
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				pc = o.jump
			default:
				pc = o.jump
			}
		case opReturn:
			return r.eval(ctx, p, o.expr)
		case opEnd:
			return nil, errtable.SQLError(errtable.ERSPNoReturnEnd, p.name)
		}
	}
}

// truth is a condition's value as IF and WHILE take it (NULL is false).
func truth(ctx *sql.Context, v any) (bool, error) {
	if v == nil {
		return false, nil
	}
	return sql.ConvertToBool(ctx, v)
}

// assign converts v to variable slot's type and sets it: a value out of
// range or truncated is an error in strict mode and a warning (the value
// clipped) otherwise, as MariaDB assigns to a column.
func (p *program) assign(ctx *sql.Context, slot int, v any, strict bool) error {
	if v == nil {
		p.vals[slot] = nil
		return nil
	}
	vr := &p.vars[slot]
	out, inRange, err := vr.typ.Convert(ctx, v)
	if err != nil {
		if st, ok := vr.typ.(sql.StringType); ok && types.ErrLengthBeyondLimit.Is(err) {
			if strict {
				return errtable.SQLError(mysql.ERDataTooLong, vr.name, 1)
			}
			s, _, cerr := types.LongText.Convert(ctx, v)
			if cerr != nil {
				return cerr
			}
			text, _ := s.(string)
			if n := st.MaxCharacterLength(); int64(len([]rune(text))) > n {
				text = string([]rune(text)[:n])
			}
			ctx.Warn(mysql.ERWarnDataTruncated, "Data truncated for column '%s' at row 1", vr.name)
			p.vals[slot] = text
			return nil
		}
		if strict {
			return errtable.SQLError(mysql.ERWarnDataTruncated, vr.name, 1)
		}
		ctx.Warn(mysql.ERWarnDataTruncated, "Data truncated for column '%s' at row 1", vr.name)
		p.vals[slot] = nil
		return nil
	}
	if inRange != sql.InRange {
		if strict {
			return errtable.SQLError(mysql.ERWarnDataOutOfRange, vr.name, 1)
		}
		ctx.Warn(mysql.ERWarnDataOutOfRange, "Out of range value for column '%s' at row 1", vr.name)
	}
	p.vals[slot] = out
	return nil
}

// eval evaluates an expression of the body.
func (r *Runner) eval(ctx *sql.Context, p *program, x *expr) (any, error) {
	if x.asQry == nil && x.eval == nil {
		x.eval, x.asQry = r.bindExpr(ctx, p, x)
	}
	if x.asQry != nil {
		row, found, err := r.query(ctx, p, x.asQry)
		if err != nil || !found {
			return nil, err
		}
		return row[0], nil
	}
	return x.eval.Eval(ctx, nil)
}

// bindExpr binds and analyzes an expression with its variables as
// localRefs; an expression whose plan is not one projection of the dual
// table (or fails to bind) runs as a query instead.
func (r *Runner) bindExpr(ctx *sql.Context, p *program, x *expr) (sql.Expression, *query) {
	asQuery := &query{stmt: x.stmt, slots: x.slots, ncols: 1, exprQuery: true}
	refs := make(map[string]sql.Expression, len(x.slots))
	for i, slot := range x.slots {
		refs["v"+strconv.Itoa(i+1)] = &localRef{p: p, slot: slot}
	}
	b := planbuilder.New(ctx, r.a.Catalog, nil, r.a.Parser)
	b.SetBindingsWithExpr(refs)
	nw := len(ctx.Warnings())
	bound, qFlags, err := b.BindOnly(x.stmt, "", nil)
	if err != nil {
		return nil, asQuery
	}
	analyzed, err := r.a.Analyze(ctx, bound, nil, qFlags)
	if err != nil || len(ctx.Warnings()) != nw {
		return nil, asQuery
	}
	pr, ok := analyzed.(*plan.Project)
	if !ok || len(pr.Projections) != 1 {
		return nil, asQuery
	}
	rt, ok := pr.Child.(*plan.ResolvedTable)
	if !ok || !plan.IsDualTable(underlying(rt.Table)) {
		return nil, asQuery
	}
	return pr.Projections[0], nil
}

// query runs a SELECT of the body with the variables' values: found is
// false when it returns no row; more than one row is error 1172 (for a
// SELECT ... INTO).
func (r *Runner) query(ctx *sql.Context, p *program, q *query) (row sql.Row, found bool, err error) {
	lits := make([]*expression.Literal, len(q.slots))
	var mask uint64
	for i, slot := range q.slots {
		v := p.vals[slot]
		if v == nil {
			lits[i] = expression.NewLiteral(nil, types.Null)
			if i < 64 {
				mask |= 1 << i
			}
			continue
		}
		lits[i] = expression.NewLiteral(v, p.vars[slot].typ)
	}
	var l *learner
	if len(lits) > 0 && len(lits) <= 64 {
		if q.learners == nil {
			q.learners = map[uint64]*learner{}
		}
		if l = q.learners[mask]; l == nil {
			l = &learner{}
			q.learners[mask] = l
		}
	}
	var n sql.Node
	learn := l != nil && l.Next()
	if l != nil {
		if t := l.Template(); t != nil {
			if inst, ok, err := t.Instantiate(ctx, lits); err == nil && ok {
				if reset, ok := sqlbackend.ReusablePlan(inst); ok {
					reset()
					n = inst
					r.Templated.Add(1)
				}
			}
		}
	}
	if n == nil {
		r.Analyzed.Add(1)
		nw := len(ctx.Warnings())
		bound, analyzed, err := r.analyze(ctx, q.stmt, lits)
		if err != nil {
			return nil, false, err
		}
		if learn && len(ctx.Warnings()) == nw {
			l.Learn(ctx, bound, analyzed, lits, func(spread []*expression.Literal) (sqlbackend.BoundPlan, sql.Node, bool) {
				nw := len(ctx.Warnings())
				b, a, err := r.analyze(ctx, q.stmt, spread)
				return b, a, err == nil && len(ctx.Warnings()) == nw
			})
		}
		n = analyzed
	}
	iter, err := r.a.ExecBuilder.Build(ctx, n, nil)
	if err != nil {
		return nil, false, err
	}
	row, err = iter.Next(ctx)
	if err != nil {
		cerr := iter.Close(ctx)
		if errors.Is(err, io.EOF) {
			return nil, false, cerr
		}
		return nil, false, err
	}
	row = append(sql.Row(nil), row...)
	if !q.exprQuery {
		if _, err = iter.Next(ctx); err == nil {
			err = errtable.SQLError(mysql.ERTooManyRows)
		} else if errors.Is(err, io.EOF) {
			err = nil
		}
	}
	if cerr := iter.Close(ctx); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, false, err
	}
	if len(row) < q.ncols {
		return nil, false, sql.ErrColumnNumberDoesNotMatch.New()
	}
	return row, true, nil
}

// analyze binds stmt with lits as v1, v2... and analyzes it.
func (r *Runner) analyze(ctx *sql.Context, stmt *ast.Select, lits []*expression.Literal) (bp sqlbackend.BoundPlan, analyzed sql.Node, err error) {
	b := planbuilder.New(ctx, r.a.Catalog, nil, r.a.Parser)
	if len(lits) > 0 {
		exprs := make(map[string]sql.Expression, len(lits))
		for i, l := range lits {
			exprs["v"+strconv.Itoa(i+1)] = l
		}
		b.SetBindingsWithExpr(exprs)
	}
	bound, qFlags, err := b.BindOnly(stmt, "", nil)
	if err != nil {
		return bp, nil, err
	}
	bp = sqlbackend.Bound(bound, lits)
	analyzed, err = r.a.Analyze(ctx, bound, nil, qFlags)
	return bp, analyzed, err
}

// learner is the plan template learnt for a query and one pattern of
// NULL parameters.
type learner = sqlbackend.TemplateLearner

// underlying returns the table a process-tracking wrapper holds.
func underlying(t sql.Table) sql.Table {
	if w, ok := t.(sql.TableWrapper); ok {
		return w.Underlying()
	}
	return t
}
