package sqlfront

import (
	"context"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	ast "github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// The bulk load path serves LOAD DATA [LOCAL] INFILE
// (sqlbackend.PrepareLoadData opens the file, the node reads, converts
// and stores it a chunk of rows at a time), through the
// handler's ComExecuteBound as the bulk insert path does. A statement
// takes the path only when it parses as one LOAD DATA that
// sqlbackend.LoadStatementOf reads, go-mysql-server's authorization
// handler grants what the statement's own check asks for (INSERT on the
// table, FILE for a server file), and PrepareLoadData accepts it.
// Anything else goes to go-mysql-server as if the path did not exist.

// loadData runs query on the bulk load path when it can; done is false
// when the statement must take the ordinary path. It runs on c's
// goroutine.
func (h *mariaHandler) loadData(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (done bool, err error) {
	s, ext, sctx := h.bulkStart(ctx, c, query, "load")
	if sctx == nil {
		return false, nil
	}
	mode := sql.LoadSqlMode(sctx)
	stmt, end, err := ast.ParseOneWithOptions(ctx, query, mode.ParserOptions())
	if err != nil || end < len(query) && strings.Trim(query[end:], " \t\r\n;") != "" {
		return false, nil
	}
	l, ok := stmt.(*ast.Load)
	if !ok {
		return false, nil
	}
	ls := sqlbackend.LoadStatementOf(l)
	if ls == nil {
		return false, nil
	}
	auth := s.engine.Analyzer.Catalog.AuthorizationHandler()
	if !ls.Local && auth.HandleAuth(sctx, nil, ls.Auth) != nil {
		// (FILE, for a server file; MariaDB asks none for LOCAL.)
		return false, nil
	}
	ins := ast.AuthInformation{
		AuthType:    ast.AuthType_INSERT,
		TargetType:  ast.AuthTargetType_SingleTableIdentifier,
		TargetNames: []string{ls.DB, ls.Table},
	}
	if ls.Replace {
		ins.AuthType = ast.AuthType_REPLACE
	}
	if auth.HandleAuth(sctx, nil, ins) != nil {
		return false, nil
	}
	sctx.ClearWarnings() // the previous statement's, as the ordinary path clears them
	n := s.p.PrepareLoadData(sctx, ls)
	if n == nil {
		return false, nil
	}
	defer n.Close() // (RowIter closes the file; this, a node that never ran)
	sql.IncrementStatusVariable(sctx, "Questions", 1)
	sql.IncrementStatusVariable(sctx, "Com_load", 1)
	counted := false
	count := func() {
		if !counted {
			counted = true
			h.loadRows.Add(int64(n.Rows()))
		}
	}
	err = ext.ComExecuteBound(ctx, c, query, n, func(r *sqltypes.Result, more bool) error {
		count() // before the client has the answer
		return callback(r, more)
	})
	count()
	if more := n.MoreErrors(); err != nil && len(more) > 0 {
		// SHOW WARNINGS lists the statement's error, then the failing
		// line's other errors.
		se := sql.CastSQLError(err)
		sctx.Session.Warn(&sql.Warning{Level: "Error", Code: se.Num, Message: se.Message})
		for _, w := range more {
			sctx.Session.Warn(w)
		}
		err = &listedError{err: err}
	}
	if err == nil {
		// As for the bulk insert: the handler takes the node for a
		// SELECT and sets ROW_COUNT() to -1.
		sctx.SetLastQueryInfoInt(sql.RowCount, int64(n.Affected()))
	}
	h.plans.ran(query)
	return true, err
}
