package sqlfront

import (
	"context"
	"errors"
	"io"

	"github.com/dolthub/go-mysql-server/sql"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// resultBatch is how many rows a result sends per callback, as
// go-mysql-server's handler batches them.
const resultBatch = 128

// errMixedResult reports a plan whose iterator returned an OK result among
// rows: a bug of the plan, not of the statement.
var errMixedResult = errors.New("a statement returned an OK result among its rows")

// runBound runs the analyzed plan n as the statement query in sctx (made
// for query by the session manager) and hands its result to callback, on
// the connection's goroutine. It does what go-mysql-server's Handler.ComExecuteBound does
// for a bound plan (process-list entry, session command, transaction
// through the plan's iterators, batches of rows, OK packets), without the
// four goroutines, the row channel and the timer that handler starts for
// every statement: for the short statements sysbench and web pages send,
// those cost more than the statement (stack growth, channel selects and
// scheduling were 12% of oltp_read_only's profile). A killed statement
// or a closed connection stops it between batches (watchStatement
// cancels ctx when the peer goes), and an iterator that checks its
// context stops sooner.
//
// Rows are converted as go-mysql-server's RowToSQL converts them and the fields are
// described as its handler describes them (resultFields), so the bytes
// sent are the same; TestRunBoundSameResults compares both ways.
func (h *mariaHandler) runBound(c *mysql.Conn, s *Server, sctx *sql.Context, query string, n sql.Node, callback mysql.ResultSpoolFn) error {
	sctx, err := sctx.ProcessList.BeginQuery(sctx, query)
	if err != nil {
		return sql.CastSQLError(err)
	}
	defer sctx.ProcessList.EndQuery(sctx)
	if err := sql.SessionCommandBegin(sctx.Session); err != nil {
		return sql.CastSQLError(err)
	}
	defer sql.SessionCommandEnd(sctx.Session)
	if span := sctx.RootSpan(); span != nil {
		defer span.End()
	}
	// go-mysql-server's handler runs bound plans without query flags:
	// no deferred projection, no one-row shortcut.
	schema, iter, _, err := s.engine.PrepQueryPlanForExecution(sctx, query, n, nil)
	if err != nil {
		return sql.CastSQLError(err)
	}
	r, sent, err := spoolRows(sctx, schema, iter, c, callback)
	if err != nil {
		return sql.CastSQLError(err)
	}
	if r.RowsAffected == 0 && sent {
		return nil
	}
	return callback(r, false)
}

// spoolRows reads iter to its end, sending full batches of rows to
// callback as it goes, closes it (which commits an autocommit
// transaction) and returns the last, partial batch or the OK result;
// sent reports whether callback was called.
func spoolRows(ctx *sql.Context, schema sql.Schema, iter sql.RowIter, c *mysql.Conn, callback mysql.ResultSpoolFn) (r *sqltypes.Result, sent bool, err error) {
	var fields []*querypb.Field
	if schema != nil && !gmstypes.IsOkResultSchema(schema) {
		fields = resultFields(ctx, schema)
	}
	var buf *sql.ByteBuffer
	if c.StatusFlags&uint16(mysql.ServerCursorExists) == 0 {
		// A cursor keeps the rows after the statement: those values
		// must not point into a pooled buffer.
		buf = sql.ByteBufPool.Get().(*sql.ByteBuffer)
		defer func() {
			buf.Reset()
			sql.ByteBufPool.Put(buf)
		}()
	}
	r = &sqltypes.Result{Fields: fields}
	var slab valueSlab
	for {
		row, nerr := iter.Next(ctx)
		if nerr == io.EOF {
			break
		}
		if nerr != nil {
			iter.Close(ctx)
			return nil, sent, nerr
		}
		if gmstypes.IsOkResult(row) {
			if len(r.Rows) > 0 {
				iter.Close(ctx)
				return nil, sent, errMixedResult
			}
			r = okResult(row[0].(gmstypes.OkResult))
			continue
		}
		if fields == nil {
			iter.Close(ctx)
			return nil, sent, errors.New("a statement without result columns returned a row")
		}
		out := slab.take(len(schema))
		if cerr := rowToSQL(ctx, schema, row, buf, out); cerr != nil {
			iter.Close(ctx)
			return nil, sent, cerr
		}
		r.Rows = append(r.Rows, out)
		r.RowsAffected++
		if r.RowsAffected == resultBatch {
			if err := callback(r, false); err != nil {
				iter.Close(ctx)
				return nil, sent, err
			}
			sent = true
			r = &sqltypes.Result{Fields: fields}
			if err := ctx.Err(); err != nil {
				iter.Close(ctx)
				return nil, sent, context.Cause(ctx)
			}
		}
	}
	if err := iter.Close(ctx); err != nil {
		return nil, sent, err
	}
	return r, sent, nil
}

// rowToSQL converts row's values to out as go-mysql-server's RowToSQL
// does (each column type's SQL conversion, into buf when there is one),
// without allocating the result row.
func rowToSQL(ctx *sql.Context, schema sql.Schema, row sql.Row, buf *sql.ByteBuffer, out []sqltypes.Value) error {
	for i, col := range schema {
		if row[i] == nil {
			out[i] = sqltypes.NULL
			continue
		}
		var dst []byte
		if buf != nil {
			dst = buf.Get()
		}
		v, err := col.Type.SQL(ctx, dst, row[i])
		if err != nil {
			raw, ok := invalidText(err, row[i])
			if !ok {
				return err
			}
			v = sqltypes.MakeTrusted(col.Type.Type(), raw)
		}
		if buf != nil {
			buf.Grow(v.Len())
		}
		out[i] = v
	}
	return nil
}

// invalidText returns the bytes of a text value that go-mysql-server
// refused to send because they are not UTF-8 (err is its
// ErrBadCharsetString): MariaDB sends such bytes as they are (SELECT
// 'a\x82a' on a utf8mb4 connection; its columns never hold them, an
// INSERT refuses them with 1366).
func invalidText(err error, v interface{}) ([]byte, bool) {
	if !gmstypes.ErrBadCharsetString.Is(err) {
		return nil, false
	}
	return sqlbackend.BytesOf(v)
}

// valueSlab hands out result rows from shared allocations: one for the
// first row, then for twice as many rows each time, up to a batch.
type valueSlab struct {
	free []sqltypes.Value
	rows int
}

// take returns a row of n values.
func (s *valueSlab) take(n int) []sqltypes.Value {
	if len(s.free) < n {
		s.rows = min(max(2*s.rows, 1), resultBatch)
		s.free = make([]sqltypes.Value, n*s.rows)
	}
	row := s.free[:n:n]
	s.free = s.free[n:]
	return row
}

// okResult is the OK packet's content of a write's result.
func okResult(ok gmstypes.OkResult) *sqltypes.Result {
	r := &sqltypes.Result{RowsAffected: ok.RowsAffected, InsertID: ok.InsertID}
	if ok.Info != nil {
		r.Info = ok.Info.String()
	}
	return r
}

// resultFields describes a result's columns on the wire as
// go-mysql-server's handler does: the column's own character set, the
// binary one for binary types and else character_set_results when set;
// NOT NULL, AUTO_INCREMENT, PRI_KEY and UNSIGNED flags; the scale of
// DECIMAL and the precision of temporal columns as decimals.
func resultFields(ctx *sql.Context, schema sql.Schema) []*querypb.Field {
	results := ctx.GetCharacterSetResults()
	fields := make([]*querypb.Field, len(schema))
	for i, col := range schema {
		cs := uint32(sql.Collation_Default.CharacterSet())
		if tc, ok := col.Type.(sql.TypeWithCollation); ok {
			cs = uint32(tc.Collation().CharacterSet())
		}
		switch {
		case gmstypes.IsBinaryType(col.Type):
			cs = uint32(sql.Collation_binary)
		case results != sql.CharacterSet_Unspecified:
			cs = uint32(results)
		}
		var flags querypb.MySqlFlag
		if !col.Nullable {
			flags |= querypb.MySqlFlag_NOT_NULL_FLAG
		}
		if col.AutoIncrement {
			flags |= querypb.MySqlFlag_AUTO_INCREMENT_FLAG
		}
		if col.PrimaryKey {
			flags |= querypb.MySqlFlag_PRI_KEY_FLAG
		}
		if gmstypes.IsUnsigned(col.Type) {
			flags |= querypb.MySqlFlag_UNSIGNED_FLAG
		}
		f := &querypb.Field{
			Name: col.Name, OrgName: col.Name,
			Table: col.Source, OrgTable: col.Source,
			Database:     col.DatabaseSource,
			Type:         col.Type.Type(),
			Charset:      cs,
			ColumnLength: col.Type.MaxTextResponseByteLength(ctx),
			Flags:        uint32(flags),
		}
		if gmstypes.IsDecimal(col.Type) {
			f.Decimals = uint32(col.Type.(sql.DecimalType).Scale())
		} else if gmstypes.IsDatetimeType(col.Type) {
			f.Decimals = uint32(col.Type.(sql.DatetimeType).Precision())
		}
		fields[i] = f
	}
	return fields
}
