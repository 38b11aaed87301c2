package sqlfront

import (
	"bytes"
	"context"
	"io"
	"sync"

	"github.com/dolthub/go-mysql-server/sql"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/sqltypes"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/mariadb"
)

// Result sets of stored procedures. In MariaDB every SELECT a procedure
// runs (not one INTO variables) sends its result set to the client as it
// runs, and the CALL ends with an OK packet; a SIGNAL after a SELECT
// arrives after that SELECT's rows. go-mysql-server's interpreter keeps
// only the last SELECT's rows as the CALL's result and drops them on an
// error. Three parts make MariaDB's behaviour:
//
//   - markResults marks, in the body of every procedure the parser reads,
//     the statements that are result sets: a SELECT or UNION that is a
//     statement of the body (of a block, branch, loop or handler) and has
//     no INTO. The mark is a comment in the statement's tree, which the
//     interpreter's copies keep; a SELECT ... INTO, a cursor's SELECT and
//     the SELECTs the interpreter makes itself (SET v = expr) carry none.
//     go-mysql-server reads a stored procedure with its process-wide
//     parser (sql.GlobalParser), which installProcResults wraps.
//   - procRunner, the analyzer's statement runner (what the interpreter
//     runs a body's statements with), hands the rows of a marked
//     statement, and of a SHOW or EXPLAIN of the body, to the connection's sink and gives the interpreter an OK
//     in their place, so the CALL's own answer is an OK packet.
//   - the sink (wireConn.sinkResults) writes them as one result set of
//     the command, with MORE_RESULTS, while the command runs: only a
//     command of a client that takes several result sets has one
//     (CLIENT_MULTI_RESULTS, which MariaDB asks of a prepared CALL too);
//     otherwise, and for procedures run by events or triggers, the
//     interpreter's own behaviour stays.

// resultMark is the comment that marks a procedure's result statements.
var resultMark = []byte("/* handlerdb: result set */")

// markResults marks the result statements of st's body when st is a
// CREATE PROCEDURE.
func markResults(st ast.Statement) {
	if ddl, ok := st.(*ast.DDL); ok && ddl.ProcedureSpec != nil {
		markBody(ddl.ProcedureSpec.Body)
	}
}

// markBody marks st when it is a result statement, or the statements of
// the block, branches or loop it is.
func markBody(st ast.Statement) {
	each := func(sts ast.Statements) {
		for _, s := range sts {
			markBody(s)
		}
	}
	switch s := st.(type) {
	case *ast.BeginEndBlock:
		each(s.Statements)
	case *ast.IfStatement:
		for _, c := range s.Conditions {
			each(c.Statements)
		}
		each(s.Else)
	case *ast.CaseStatement:
		for _, c := range s.Cases {
			each(c.Statements)
		}
		each(s.Else)
	case *ast.Loop:
		each(s.Statements)
	case *ast.Repeat:
		each(s.Statements)
	case *ast.While:
		each(s.Statements)
	case *ast.Declare:
		if s.Handler != nil {
			markBody(s.Handler.Statement)
		}
	case *ast.Select:
		if s.Into == nil && !hasComment(s, doMarkComment) {
			s.Comments = append(s.Comments, resultMark)
			nameColumns(s)
		}
	case *ast.SetOp:
		if sel := leftSelect(s); sel != nil && s.Into == nil {
			sel.Comments = append(sel.Comments, resultMark)
		}
	}
}

// nameColumns gives each select expression of a procedure's result
// statement that is a bare name its name as alias: the interpreter puts
// the values of the procedure's variables and parameters in place of
// their names before it runs the statement, and the column was then
// named by the value (SELECT total returned a column "42"; MariaDB's is
// "total"). A column's own name as its alias changes nothing.
func nameColumns(s *ast.Select) {
	for _, e := range s.SelectExprs {
		ae, ok := e.(*ast.AliasedExpr)
		if !ok || !ae.As.IsEmpty() {
			continue
		}
		if c, ok := ae.Expr.(*ast.ColName); ok {
			ae.As = ast.NewColIdent(c.Name.String())
		}
	}
}

// leftSelect is the first SELECT of a UNION, INTERSECT or EXCEPT.
func leftSelect(st ast.SelectStatement) *ast.Select {
	for {
		switch s := st.(type) {
		case *ast.Select:
			return s
		case *ast.SetOp:
			st = s.Left
		case *ast.ParenSelect:
			st = s.Select
		default:
			return nil
		}
	}
}

// doMarkComment marks the SELECT that stands for a DO statement of a
// routine's body (mariadb.RoutineDoComment).
var doMarkComment = []byte(mariadb.RoutineDoComment)

// marked reports whether st is a statement with the comment c (on its
// first SELECT, for a UNION).
func marked(st ast.Statement, c []byte) bool {
	var sel *ast.Select
	switch s := st.(type) {
	case *ast.Select:
		sel = s
	case *ast.SetOp:
		sel = leftSelect(s)
	}
	return sel != nil && hasComment(sel, c)
}

// hasComment reports whether sel carries the comment c.
func hasComment(sel *ast.Select, c []byte) bool {
	for _, x := range sel.Comments {
		if bytes.Equal(x, c) {
			return true
		}
	}
	return false
}

// markingParser is a parser that marks the result statements of the
// procedures it reads. Safe for concurrent use, as the parser it wraps.
type markingParser struct{ sql.Parser }

func (p markingParser) ParseSimple(query string) (ast.Statement, error) {
	st, err := p.Parser.ParseSimple(query)
	markResults(st)
	return st, err
}

func (p markingParser) Parse(ctx *sql.Context, query string, multi bool) (ast.Statement, string, string, error) {
	st, q, rest, err := p.Parser.Parse(ctx, query, multi)
	markResults(st)
	return st, q, rest, err
}

func (p markingParser) ParseWithOptions(ctx context.Context, query string, delimiter rune, multi bool, options ast.ParserOptions) (ast.Statement, string, string, error) {
	st, q, rest, err := p.Parser.ParseWithOptions(ctx, query, delimiter, multi, options)
	markResults(st)
	return st, q, rest, err
}

func (p markingParser) ParseOneWithOptions(ctx context.Context, query string, options ast.ParserOptions) (ast.Statement, int, error) {
	st, end, err := p.Parser.ParseOneWithOptions(ctx, query, options)
	markResults(st)
	return st, end, err
}

var procResultsOnce sync.Once

// installProcResults wraps go-mysql-server's process-wide parser, once,
// so that the procedures it reads carry their result marks.
func installProcResults() {
	procResultsOnce.Do(func() {
		if _, ok := sql.GlobalParser.(markingParser); !ok {
			sql.GlobalParser = markingParser{Parser: sql.GlobalParser}
		}
	})
}

// procRunner runs the statements of procedure bodies (the analyzer's
// Runner) with go-mysql-server's engine, sending the rows of marked
// statements to the running command's sink. Safe for concurrent use.
type procRunner struct {
	sql.StatementRunner
	conns *wireConns
}

// QueryWithBindings runs one statement of a body.
func (r *procRunner) QueryWithBindings(ctx *sql.Context, query string, parsed ast.Statement, bindings map[string]ast.Expr, flags *sql.QueryFlags) (sql.Schema, sql.RowIter, *sql.QueryFlags, error) {
	sch, iter, flags, err := r.StatementRunner.QueryWithBindings(ctx, query, parsed, bindings, flags)
	if err == nil && marked(parsed, doMarkComment) {
		// DO: the expressions are evaluated, their row dropped.
		if err := drain(ctx, iter); err != nil {
			return nil, nil, flags, err
		}
		return gmstypes.OkResultSchema, sql.RowsToRowIter(sql.NewRow(gmstypes.NewOkResult(0))), flags, nil
	}
	if err != nil || !(marked(parsed, resultMark) || bodyShow(parsed)) || ctx.Session == nil || sch == nil || gmstypes.IsOkResultSchema(sch) {
		return sch, iter, flags, err
	}
	v, ok := r.conns.m.Load(ctx.Session.ID())
	if !ok || v.(*wireConn).sink == nil {
		return sch, iter, flags, err
	}
	if err := v.(*wireConn).sink(ctx, sch, iter); err != nil {
		return nil, nil, flags, err
	}
	return gmstypes.OkResultSchema, sql.RowsToRowIter(sql.NewRow(gmstypes.NewOkResult(0))), flags, nil
}

// bodyShow reports whether st is a SHOW or EXPLAIN: the interpreter runs
// those only as statements of a body (a cursor's is a SELECT), and each
// is a result set of the CALL, as in MariaDB.
func bodyShow(st ast.Statement) bool {
	switch st.(type) {
	case *ast.Show, *ast.Explain:
		return true
	}
	return false
}

// drain reads iter to its end and closes it.
func drain(ctx *sql.Context, iter sql.RowIter) error {
	for {
		_, err := iter.Next(ctx)
		if err == io.EOF {
			return iter.Close(ctx)
		}
		if err != nil {
			iter.Close(ctx)
			return err
		}
	}
}

// sinkResults sends a procedure statement's rows as one result set of
// the running command, followed by more (MORE_RESULTS): the CALL's own
// answer comes last.
func (w *wireConn) sinkResults(ctx *sql.Context, sch sql.Schema, iter sql.RowIter) error {
	r := &results{w: w, binary: w.sinkBinary}
	next := func(res *sqltypes.Result, _ bool) error { return r.add(res, false) }
	if mh, ok := w.l.h.(*mariaHandler); ok {
		next = reformatting(next, mh.scaledReal, func() uint16 { return 0 }, nil)
	}
	last, _, err := spoolRows(ctx, sch, iter, w.c, next)
	if err == nil && last != nil && (len(last.Rows) > 0 || !r.started) {
		err = next(last, false)
	}
	if err != nil {
		// Rows may have gone out: the CALL's error follows them as the
		// command's last packet, as MariaDB ends it.
		return err
	}
	return r.finish(nil, true)
}
