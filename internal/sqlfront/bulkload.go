package sqlfront

import (
	"context"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/vt/sqlparser"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// The bulk insert path serves a dump's INSERT ... VALUES of literal rows
// (sqlbackend.ScanBulkInsert reads the text, PrepareBulkInsert converts
// the rows as the ordinary path would) without go-mysql-server's parser
// and analyzer: the prepared node runs through the handler's
// ComExecuteBound, like a cached plan, so the transaction, autocommit,
// the OK packet and the statement's bookkeeping are the handler's. A
// statement takes the path only when
//   - the text is that shape, read under the session's sql_mode
//     (NO_BACKSLASH_ESCAPES declines) and with a UTF-8 client character
//     set (the parser reads the bytes as UTF-8);
//   - go-mysql-server's authorization handler grants INSERT on the
//     table (otherwise the ordinary path reports its own error);
//   - PrepareBulkInsert accepts the table and every value (no trigger,
//     check, generated column, declared foreign key, no value the
//     conversion would warn about...).
// Anything else goes to go-mysql-server as if the path did not exist.

// bulkInsert runs query on the bulk insert path when it can; done is
// false when the statement must take the ordinary path. It runs on c's
// goroutine.
func (h *mariaHandler) bulkInsert(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (done bool, err error) {
	s, ext, sctx := h.bulkStart(ctx, c, query, "insert")
	if sctx == nil || !sqlbackend.UTF8Variable(sctx, "character_set_client") {
		return false, nil
	}
	b := sqlbackend.ScanBulkInsert(query, !sql.LoadSqlMode(sctx).ModeEnabled("NO_BACKSLASH_ESCAPES"))
	if b == nil {
		return false, nil
	}
	auth := sqlparser.AuthInformation{
		AuthType:    sqlparser.AuthType_INSERT,
		TargetType:  sqlparser.AuthTargetType_SingleTableIdentifier,
		TargetNames: []string{b.DB, b.Table},
	}
	if s.engine.Analyzer.Catalog.AuthorizationHandler().HandleAuth(sctx, nil, auth) != nil {
		return false, nil
	}
	n := s.p.PrepareBulkInsert(sctx, b)
	if n == nil {
		return false, nil
	}
	sctx.ClearWarnings() // the previous statement's, as the ordinary path clears them
	h.bulkRows.Add(int64(n.Rows()))
	sql.IncrementStatusVariable(sctx, "Questions", 1)
	sql.IncrementStatusVariable(sctx, "Com_insert", 1)
	err = ext.ComExecuteBound(ctx, c, query, n, callback)
	if err == nil {
		// The handler takes a node it does not know for a SELECT and
		// sets ROW_COUNT() to -1 when it ends: the insert's count.
		sctx.SetLastQueryInfoInt(sql.RowCount, int64(n.Rows()))
	}
	h.plans.ran(query)
	return true, err
}

// bulkStart is the start of the bulk paths: for a statement whose first
// word is word, while they are on, the server, the handler's
// ComExecuteBound and a session context for query; a nil context means
// the statement takes the ordinary path.
func (h *mariaHandler) bulkStart(ctx context.Context, c *mysql.Conn, query, word string) (*Server, mysql.ExtendedHandler, *sql.Context) {
	if h.noBulk.Load() || firstWord(query) != word {
		return nil, nil, nil
	}
	s := h.srv.Load()
	ext, ok := h.Handler.(mysql.ExtendedHandler)
	if s == nil || !ok {
		return nil, nil, nil
	}
	sctx, err := s.srv.SessionManager().NewContextWithQuery(ctx, c, query)
	if err != nil {
		return nil, nil, nil
	}
	return s, ext, sctx
}
