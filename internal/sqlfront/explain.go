package sqlfront

import (
	"context"
	"regexp"
	"strings"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// EXPLAIN is answered here rather than by go-mysql-server, whose plain
// EXPLAIN prints a placeholder row (with the text "NULL" in numeric
// columns, which drivers fail to parse) and whose server refuses the
// several lines of EXPLAIN FORMAT=TREE for a query that reads one row by
// a unique key. The statement is analyzed (not run) by go-mysql-server;
// plain EXPLAIN then prints MariaDB's columns, one row per table read,
// and EXPLAIN FORMAT=TREE (or EXPLAIN PLAN) prints go-mysql-server's plan.

var explainRe = regexp.MustCompile(`(?is)^\s*(?:EXPLAIN|DESCRIBE|DESC)\s+(?:(FORMAT\s*=\s*\w+|EXTENDED|PARTITIONS|PLAN)\s+)?((?:SELECT|WITH|INSERT|UPDATE|DELETE|REPLACE)\b.*?)[\s;]*$`)

// explainStatement splits an EXPLAIN statement into whether it asks for a
// plan tree and the statement explained; ok is false for anything else.
func explainStatement(q string) (tree bool, stmt string, ok bool) {
	m := explainRe.FindStringSubmatch(q)
	if m == nil || strings.Contains(m[2], ";") {
		return false, "", false
	}
	opt := strings.ToUpper(strings.Join(strings.Fields(m[1]), ""))
	switch opt {
	case "", "EXTENDED", "PARTITIONS", "FORMAT=TRADITIONAL":
		return false, m[2], true
	case "PLAN", "FORMAT=TREE":
		return true, m[2], true
	}
	return false, "", false
}

// explain answers an EXPLAIN statement; handled is false when the query is
// not one (or cannot be analyzed: go-mysql-server then reports the error).
func (h *mariaHandler) explain(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (handled bool, err error) {
	s := h.srv.Load()
	if s == nil {
		return false, nil
	}
	tree, stmt, ok := explainStatement(query)
	if !ok {
		return false, nil
	}
	sctx, err := s.srv.SessionManager().NewContextWithQuery(ctx, c, query)
	if err != nil {
		return false, nil
	}
	node, err := s.engine.AnalyzeQuery(sctx, stmt)
	if err != nil {
		return false, nil
	}
	var res *sqltypes.Result
	if tree {
		res = &sqltypes.Result{Fields: []*querypb.Field{{Name: "plan", Type: querypb.Type_VARCHAR, Charset: 33}}}
		for _, l := range strings.Split(sql.Describe(node, sql.DescribeOptions{Plan: true}), "\n") {
			if strings.TrimSpace(l) != "" {
				res.Rows = append(res.Rows, []sqltypes.Value{sqltypes.NewVarChar(l)})
			}
		}
	} else {
		res = explainTable(sctx, node)
	}
	return true, callback(res, false)
}

// explainRow is one row of MariaDB's EXPLAIN.
type explainRow struct {
	table, typ, key string
	rows            int64 // -1: unknown
	where, filesort bool
	// covering: the index entries alone are read ("Using index");
	// perRecord: the range is computed for each joined row.
	covering, perRecord bool
}

// explainTable describes the table reads of a plan in MariaDB's columns.
func explainTable(ctx *sql.Context, n sql.Node) *sqltypes.Result {
	var rows []*explainRow
	var walk func(n sql.Node, alias string, where bool)
	sorted := false
	walk = func(n sql.Node, alias string, where bool) {
		if name, key, ok := sqlbackend.RangeChecked(n); ok {
			r := &explainRow{table: name, typ: "range", key: key, rows: -1, where: where, perRecord: true}
			if alias != "" {
				r.table = alias
			}
			rows = append(rows, r)
			return
		}
		switch n := n.(type) {
		case *plan.Filter:
			walk(n.Child, alias, true)
			return
		case *plan.Sort, *plan.TopN:
			sorted = true
		case *plan.TableAlias:
			walk(n.Child, n.Name(), where)
			return
		case *plan.IndexedTableAccess:
			r := &explainRow{table: n.Name(), key: n.Index().ID(), rows: -1, where: where}
			if alias != "" {
				r.table = alias
			}
			r.typ = lookupType(ctx, n)
			if r.typ == "const" || r.typ == "eq_ref" {
				r.rows = 1
			}
			r.covering = sqlbackend.CoveringAccess(n)
			rows = append(rows, r)
			return
		case *plan.ResolvedTable:
			if n.Name() == "" || strings.EqualFold(n.Name(), "dual") {
				return
			}
			r := &explainRow{table: n.Name(), typ: "ALL", rows: -1, where: where}
			if alias != "" {
				r.table = alias
			}
			if st, ok := n.UnderlyingTable().(sql.StatisticsTable); ok {
				if c, _, err := st.RowCount(ctx); err == nil {
					r.rows = int64(c)
				}
			}
			rows = append(rows, r)
			return
		}
		for _, ch := range n.Children() {
			walk(ch, "", where)
		}
	}
	walk(n, "", false)
	if sorted && len(rows) > 0 {
		rows[0].filesort = true
	}
	str := func(name string) *querypb.Field {
		return &querypb.Field{Name: name, Type: querypb.Type_VARCHAR, Charset: 33}
	}
	res := &sqltypes.Result{Fields: []*querypb.Field{
		{Name: "id", Type: querypb.Type_INT64, Charset: 63},
		str("select_type"), str("table"), str("type"), str("possible_keys"), str("key"),
		str("key_len"), str("ref"),
		{Name: "rows", Type: querypb.Type_INT64, Charset: 63},
		str("Extra"),
	}}
	orNull := func(s string) sqltypes.Value {
		if s == "" {
			return sqltypes.NULL
		}
		return sqltypes.NewVarChar(s)
	}
	if len(rows) == 0 {
		res.Rows = append(res.Rows, []sqltypes.Value{sqltypes.NewInt64(1), sqltypes.NewVarChar("SIMPLE"),
			sqltypes.NULL, sqltypes.NULL, sqltypes.NULL, sqltypes.NULL, sqltypes.NULL, sqltypes.NULL, sqltypes.NULL,
			sqltypes.NewVarChar("No tables used")})
		return res
	}
	for _, r := range rows {
		var extra []string
		if r.where {
			extra = append(extra, "Using where")
		}
		if r.covering {
			extra = append(extra, "Using index")
		}
		if r.perRecord {
			extra = append(extra, "Range checked for each record")
		}
		if r.filesort {
			extra = append(extra, "Using filesort")
		}
		nrows := sqltypes.NULL
		if r.rows >= 0 {
			nrows = sqltypes.NewInt64(r.rows)
		}
		res.Rows = append(res.Rows, []sqltypes.Value{sqltypes.NewInt64(1), sqltypes.NewVarChar("SIMPLE"),
			sqltypes.NewVarChar(r.table), sqltypes.NewVarChar(r.typ), orNull(r.key), orNull(r.key),
			sqltypes.NULL, sqltypes.NULL, nrows, orNull(strings.Join(extra, "; "))})
	}
	return res
}

// lookupType names an index read as MariaDB does: const (one row by a
// unique key, known at planning), eq_ref (one row per joined row), ref
// (equality on a non-unique key or key prefix), range, or index (the whole
// index, in order).
func lookupType(ctx *sql.Context, n *plan.IndexedTableAccess) (typ string) {
	defer func() {
		if recover() != nil {
			typ = "ref"
		}
	}()
	if !n.IsStatic() {
		if n.IsStrictLookup() {
			return "eq_ref"
		}
		return "ref"
	}
	lk, err := n.GetLookup(ctx, nil)
	if err != nil || lk.IsEmpty() {
		return "range"
	}
	if lk.IsPointLookup {
		return "const"
	}
	mrc, ok := lk.Ranges.(sql.MySQLRangeCollection)
	if !ok {
		return "range"
	}
	allPoints, whole, full := true, true, true
	for _, r := range mrc {
		for _, ce := range r {
			switch ce.Type() {
			case sql.RangeType_All:
				full = false
				continue
			case sql.RangeType_EqualNull:
			case sql.RangeType_ClosedClosed:
				lo, hi := sql.GetMySQLRangeCutKey(ce.LowerBound), sql.GetMySQLRangeCutKey(ce.UpperBound)
				if c, err := ce.Typ.Compare(ctx, lo, hi); err != nil || c != 0 {
					allPoints = false
				}
			default:
				allPoints = false
			}
			whole = false
		}
	}
	switch {
	case whole:
		return "index"
	case allPoints && full && n.Index().IsUnique() && len(mrc) == 1:
		return "const"
	case allPoints && len(mrc) == 1:
		return "ref"
	}
	return "range"
}
