package sqlfront

import (
	"context"
	"math"
	"strconv"
	"strings"

	sqle "github.com/dolthub/go-mysql-server"
	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/expression"
	"github.com/dolthub/go-mysql-server/sql/planbuilder"
	"github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// Prepared SELECTs skip go-mysql-server's analysis when they can: the
// analyzed plan of one execution is kept as a sqlbackend.PlanTemplate and
// each later execution puts its own parameter values into it (literals
// and index-lookup bounds) instead of binding and analyzing again, which
// is most of a small statement's cost.
//
// A template is kept per connection, statement text and the types of the
// parameter values (an integer and a string parameter plan differently).
// It is used only after a second analysis confirmed it: an execution
// whose parameter values all differ from the template's is analyzed as
// usual and its plan must equal the template instantiated with its
// values; until then, and when the confirmation fails, every execution
// takes the ordinary path. A statement that fails to make a confirmed
// template three times tries again only at its 2^k-th execution.
//
// The statements admitted are the plan cache's (planCacheable, no
// temporary tables, an analysis without warnings, a reusable plan) and
// single-table UPDATEs and DELETEs and INSERT ... VALUES free of the same
// words (INTO aside), and
// a template depends on what a cached plan depends on, except that
// INSERT, UPDATE and DELETE do not drop it: they change row counts, which
// only the choice between equivalent plans reads, not any answer.
//
// Everything here runs on the connection's goroutine.

// templateKey names a template: a statement's text and its parameters'
// types (bindParams' signature).
type templateKey struct{ text, sig string }

// stmtTemplate is the state of one statement text and parameter types on
// one connection.
type stmtTemplate struct {
	key planKey
	sqlbackend.TemplateLearner
}

// templated runs a prepared SELECT from its confirmed template; done is
// false when the statement must take the ordinary path (which it then
// takes after this has, when there is no confirmed template yet, analyzed
// the execution to make or confirm one).
func (h *mariaHandler) templated(ctx context.Context, c *mysql.Conn, prepare *mysql.PrepareData, callback mysql.ResultSpoolFn) (done bool, err error) {
	query := prepare.PrepareStmt
	if h.noPlanCache.Load() || len(prepare.BindVars) == 0 {
		return false, nil
	}
	text := sql.RemoveSpaceAndDelimiter(query, ';')
	cp := h.plans.conn(c.ConnectionID)
	com, known := cp.admits[text]
	if !known {
		if len(cp.admits) >= planCacheMax {
			clear(cp.admits)
		}
		com = templateAdmits(query)
		cp.admits[text] = com
	}
	if com == "" {
		return false, nil
	}
	s, ext, sctx, ok := h.planSession(ctx, c, query)
	if !ok {
		return false, nil
	}
	lits, sig, ok := bindParams(sctx, s.engine, prepare.BindVars)
	if !ok {
		return false, nil
	}
	key := s.planKey(sctx, h.plans.settings.Load())
	tk := templateKey{text: text, sig: sig}
	ent := cp.templates[tk]
	if ent == nil || ent.key != key {
		if len(cp.templates) >= planCacheMax {
			clear(cp.templates)
		}
		ent = &stmtTemplate{key: key}
		cp.templates[tk] = ent
	}
	if !ent.Next() {
		return false, nil
	}
	t := ent.Template()
	if t == nil {
		h.learnTemplate(sctx, s.engine, ent, tk.text, query, paramBinder(sctx, s.engine, lits), lits)
		return false, nil
	}
	n, ok, err := t.Instantiate(sctx, lits)
	if err != nil || !ok {
		return false, nil
	}
	reset, ok := sqlbackend.ReusablePlan(n)
	if !ok {
		return false, nil
	}
	h.plans.Rebound.Add(1)
	return true, h.runPlan(ctx, c, s, ext, sctx, query, n, reset, com, callback)
}

// templateAdmits returns the status counter a prepared statement's text
// counts in when it may have a template, "" when not: a SELECT
// planCacheable admits, or an UPDATE, DELETE or INSERT free of
// planUncacheable's words (INTO aside).
func templateAdmits(query string) (com string) {
	switch w := firstWord(query); w {
	case "update", "delete", "insert":
		if uncacheableFree(query, "into") && !strings.Contains(query, "@") {
			return "Com_" + w
		}
		return ""
	}
	if planCacheable(query) && !strings.Contains(query, "@") {
		// (a template's plans are not keyed by the session's user
		// variables: a text reading one is not templated)
		return "Com_select"
	}
	return ""
}

// learnTemplate analyzes one execution as go-mysql-server would and uses
// the plan to confirm ent's template or to make one.
func (h *mariaHandler) learnTemplate(sctx *sql.Context, e *sqle.Engine, ent *stmtTemplate, text, query string, binder *planbuilder.Builder, lits []*expression.Literal) {
	ast, ok := e.PreparedDataCache.GetCachedStmt(sctx.Session.ID(), text)
	if !ok {
		if ast, ok = e.PreparedDataCache.GetCachedStmt(sctx.Session.ID(), query); !ok {
			return
		}
	}
	defer sctx.ClearWarnings() // the ordinary path that follows reports its own
	sctx.ClearWarnings()
	bound, qFlags, err := binder.BindOnly(ast, text, nil)
	if err != nil || len(sctx.Warnings()) > 0 {
		return
	}
	if unused := binder.BindCtx().UnusedBindings(); len(unused) > 0 {
		return
	}
	bp := sqlbackend.Bound(bound, lits)
	analyzed, err := e.Analyzer.Analyze(sctx, bound, nil, qFlags)
	if err != nil || len(sctx.Warnings()) > 0 {
		return
	}
	ent.Learn(sctx, bp, analyzed, lits, func(spread []*expression.Literal) (sqlbackend.BoundPlan, sql.Node, bool) {
		return spreadAnalysis(sctx, e, ast, text, spread)
	})
}

// bindParams makes the literal of each parameter of an execution as
// go-mysql-server's binder does (v1, v2... in order) and returns them
// with a signature of their types; ok is false when a value does not make
// a literal. Integers, quoted values and NULLs are converted here
// (intLiteral); any other value goes through a binder.
func bindParams(ctx *sql.Context, e *sqle.Engine, bindVars map[string]*querypb.BindVariable) (lits []*expression.Literal, sig string, ok bool) {
	lits = make([]*expression.Literal, len(bindVars))
	var exprs map[string]sqlparser.Expr
	for i := range lits {
		name := paramName(i)
		bv := bindVars[name]
		if bv == nil {
			return nil, "", false
		}
		v, err := sqltypes.BindVariableToValue(bv)
		if err != nil {
			return nil, "", false
		}
		switch {
		case v.IsNull():
			lits[i] = expression.NewLiteral(nil, types.Null)
			continue
		case v.IsIntegral():
			if lits[i] = intLiteral(v.ToString()); lits[i] != nil {
				continue
			}
		case v.IsQuoted():
			// the binder's literal of a quoted value: LONGTEXT in the
			// connection's collation
			lits[i] = expression.NewLiteral(v.ToString(), types.CreateLongText(ctx.GetCollation()))
			continue
		}
		x, err := sqlparser.ExprFromValue(v)
		if err != nil {
			return nil, "", false
		}
		if exprs == nil {
			exprs = map[string]sqlparser.Expr{}
		}
		exprs[name] = x
	}
	if exprs != nil {
		binder := planbuilder.New(ctx, e.Analyzer.Catalog, e.EventScheduler, e.Parser)
		binder.SetBindings(exprs)
		bc := binder.BindCtx()
		for name := range exprs {
			i, _ := strconv.Atoi(name[1:])
			lit, isLit := bc.Bindings[name].(*expression.Literal)
			if !isLit {
				return nil, "", false
			}
			lits[i-1] = lit
		}
	}
	var b strings.Builder
	for _, lit := range lits {
		b.WriteString(lit.Type().String())
		b.WriteByte(';')
	}
	return lits, b.String(), true
}

// paramNames are the names of the first parameters' bind variables.
var paramNames = func() (names [64]string) {
	for i := range names {
		names[i] = "v" + strconv.Itoa(i+1)
	}
	return names
}()

// paramName returns the name of the bind variable of parameter i (from 0):
// v1, v2...
func paramName(i int) string {
	if i < len(paramNames) {
		return paramNames[i]
	}
	return "v" + strconv.Itoa(i+1)
}

// intLiteral returns the literal go-mysql-server's binder makes of an
// integer's text: of the smallest of TINYINT, TINYINT UNSIGNED, SMALLINT,
// ... BIGINT UNSIGNED that holds it (nil if none does).
func intLiteral(s string) *expression.Literal {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		switch {
		case i >= math.MinInt8 && i <= math.MaxInt8:
			return expression.NewLiteral(int8(i), types.Int8)
		case i >= 0 && i <= math.MaxUint8:
			return expression.NewLiteral(uint8(i), types.Uint8)
		case i >= math.MinInt16 && i <= math.MaxInt16:
			return expression.NewLiteral(int16(i), types.Int16)
		case i >= 0 && i <= math.MaxUint16:
			return expression.NewLiteral(uint16(i), types.Uint16)
		case i >= math.MinInt32 && i <= math.MaxInt32:
			return expression.NewLiteral(int32(i), types.Int32)
		case i >= 0 && i <= math.MaxUint32:
			return expression.NewLiteral(uint32(i), types.Uint32)
		}
		return expression.NewLiteral(i, types.Int64)
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return expression.NewLiteral(u, types.Uint64)
	}
	return nil
}

// paramBinder returns a binder that puts lits in for v1, v2...
func paramBinder(ctx *sql.Context, e *sqle.Engine, lits []*expression.Literal) *planbuilder.Builder {
	exprs := make(map[string]sql.Expression, len(lits))
	for i, l := range lits {
		exprs[paramName(i)] = l
	}
	binder := planbuilder.New(ctx, e.Analyzer.Catalog, e.EventScheduler, e.Parser)
	binder.SetBindingsWithExpr(exprs)
	return binder
}

// spreadAnalysis analyzes the statement with the parameters' literals
// spread (sqlbackend.SpreadLiterals); ok is false unless the analysis
// succeeds without warnings.
func spreadAnalysis(sctx *sql.Context, e *sqle.Engine, ast sqlparser.Statement, text string, spread []*expression.Literal) (bp sqlbackend.BoundPlan, analyzed sql.Node, ok bool) {
	binder := paramBinder(sctx, e, spread)
	bound, qFlags, err := binder.BindOnly(ast, text, nil)
	if err != nil || len(sctx.Warnings()) > 0 {
		return bp, nil, false
	}
	bp = sqlbackend.Bound(bound, spread)
	analyzed, err = e.Analyzer.Analyze(sctx, bound, nil, qFlags)
	if err != nil || len(sctx.Warnings()) > 0 {
		return bp, nil, false
	}
	return bp, analyzed, true
}
