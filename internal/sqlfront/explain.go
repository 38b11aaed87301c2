package sqlfront

import (
	"context"
	"encoding/json"
	"regexp"
	"strconv"
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

var explainRe = regexp.MustCompile(`(?is)^\s*(?:EXPLAIN|DESCRIBE|DESC)\s+(?:(FORMAT\s*=\s*\w+|EXTENDED|PARTITIONS|PLAN)\s*)?((?:\(\s*)*(?:SELECT|WITH|INSERT|UPDATE|DELETE|REPLACE)\b.*?)[\s;]*$`)

// explainForm is the answer an EXPLAIN asks for.
type explainForm uint8

const (
	explainTraditional explainForm = iota // MariaDB's table
	explainTree                           // go-mysql-server's plan
	explainJSON                           // MariaDB's FORMAT=JSON document
	analyzeTraditional                    // ANALYZE SELECT: the table with r_rows, filtered, r_filtered
)

// analyzeRe is MariaDB's ANALYZE [FORMAT=JSON] SELECT. The statement is
// analyzed, not run: the r_ columns (rows read, as measured) are NULL.
// ANALYZE of an UPDATE or DELETE, which would run it, is not taken.
var analyzeRe = regexp.MustCompile(`(?is)^\s*ANALYZE\s+(?:(FORMAT\s*=\s*\w+)\s*)?((?:\(\s*)*(?:SELECT|WITH)\b.*?)[\s;]*$`)

// explainStatement splits an EXPLAIN statement into the form it asks for
// and the statement explained; ok is false for anything else.
func explainStatement(q string) (form explainForm, stmt string, ok bool) {
	// The regular expressions cost a statement's length each (their
	// matcher clears a table that long): a statement whose first word is
	// none of the four is none.
	if !startsWithAny(q, "EXPLAIN", "DESCRIBE", "DESC", "ANALYZE") {
		return 0, "", false
	}
	if m := analyzeRe.FindStringSubmatch(q); m != nil && !strings.Contains(m[2], ";") {
		switch strings.ToUpper(strings.Join(strings.Fields(m[1]), "")) {
		case "", "FORMAT=TRADITIONAL":
			return analyzeTraditional, m[2], true
		case "FORMAT=JSON":
			return explainJSON, m[2], true
		}
		return 0, "", false
	}
	m := explainRe.FindStringSubmatch(q)
	if m == nil || strings.Contains(m[2], ";") {
		return 0, "", false
	}
	opt := strings.ToUpper(strings.Join(strings.Fields(m[1]), ""))
	switch opt {
	case "", "EXTENDED", "PARTITIONS", "FORMAT=TRADITIONAL":
		return explainTraditional, m[2], true
	case "PLAN", "FORMAT=TREE":
		return explainTree, m[2], true
	case "FORMAT=JSON":
		return explainJSON, m[2], true
	}
	return 0, "", false
}

// explain answers an EXPLAIN statement; handled is false when the query is
// not one (or cannot be analyzed: go-mysql-server then reports the error).
func (h *mariaHandler) explain(ctx context.Context, c *mysql.Conn, query string, callback mysql.ResultSpoolFn) (handled bool, err error) {
	s := h.srv.Load()
	if s == nil {
		return false, nil
	}
	form, stmt, ok := explainStatement(query)
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
	switch form {
	case explainTree:
		res = &sqltypes.Result{Fields: []*querypb.Field{{Name: "plan", Type: querypb.Type_VARCHAR, Charset: 33}}}
		for _, l := range strings.Split(sql.Describe(node, sql.DescribeOptions{Plan: true}), "\n") {
			if strings.TrimSpace(l) != "" {
				res.Rows = append(res.Rows, []sqltypes.Value{sqltypes.NewVarChar(l)})
			}
		}
	case explainJSON:
		res = &sqltypes.Result{Fields: []*querypb.Field{{Name: "EXPLAIN", Type: querypb.Type_BLOB, Charset: 33}},
			Rows: [][]sqltypes.Value{{sqltypes.MakeTrusted(querypb.Type_BLOB, []byte(explainDocument(explainRows(sctx, node))))}}}
	case analyzeTraditional:
		res = analyzeTable(explainTable(explainRows(sctx, node)))
	default:
		res = explainTable(explainRows(sctx, node))
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

// explainRows lists the table reads of a plan.
func explainRows(ctx *sql.Context, n sql.Node) []*explainRow {
	var rows []*explainRow
	var walk func(n sql.Node, alias string, where bool)
	sorted := false
	walk = func(n sql.Node, alias string, where bool) {
		if f, ok := sqlbackend.ScanFilterOf(n); ok {
			n = f
		}
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
		case *plan.Sort, *plan.TopN, sqlbackend.SortingNode:
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
	return rows
}

// explainTable describes table reads in MariaDB's columns.
func explainTable(rows []*explainRow) *sqltypes.Result {
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

// analyzeTable is res, an EXPLAIN table, with ANALYZE's columns after
// rows: r_rows (NULL: not measured), filtered (100.00) and r_filtered
// (NULL).
func analyzeTable(res *sqltypes.Result) *sqltypes.Result {
	out := &sqltypes.Result{}
	for _, f := range res.Fields {
		out.Fields = append(out.Fields, f)
		if f.Name == "rows" {
			out.Fields = append(out.Fields, &querypb.Field{Name: "r_rows", Type: querypb.Type_DECIMAL, Charset: 63},
				&querypb.Field{Name: "filtered", Type: querypb.Type_DECIMAL, Charset: 63},
				&querypb.Field{Name: "r_filtered", Type: querypb.Type_DECIMAL, Charset: 63})
		}
	}
	for _, r := range res.Rows {
		var row []sqltypes.Value
		for i, v := range r {
			row = append(row, v)
			if res.Fields[i].Name == "rows" {
				filtered := sqltypes.MakeTrusted(querypb.Type_DECIMAL, []byte("100.00"))
				if v.IsNull() {
					filtered = sqltypes.NULL
				}
				row = append(row, sqltypes.NULL, filtered, sqltypes.NULL)
			}
		}
		out.Rows = append(out.Rows, row)
	}
	return out
}

// explainDocument describes table reads as MariaDB's EXPLAIN FORMAT=JSON
// does: a query block holding the reads in join order, each with its
// access type, key, estimated rows and whether the index alone is read,
// indented by two spaces (no attached_condition: go-mysql-server's
// expressions do not print as MariaDB's).
func explainDocument(rows []*explainRow) string {
	var b strings.Builder
	q := func(s string) string { bs, _ := json.Marshal(s); return string(bs) }
	b.WriteString("{\n  \"query_block\": {\n    \"select_id\": 1")
	if len(rows) == 0 {
		b.WriteString(",\n    \"table\": {\n      \"message\": \"No tables used\"\n    }\n  }\n}")
		return b.String()
	}
	b.WriteString(",\n    \"nested_loop\": [")
	for i, r := range rows {
		if i > 0 {
			b.WriteString(",")
		}
		fields := []string{`"table_name": ` + q(r.table), `"access_type": ` + q(r.typ)}
		if r.key != "" {
			fields = append(fields, `"possible_keys": [`+q(r.key)+`]`, `"key": `+q(r.key))
		}
		if r.rows >= 0 {
			fields = append(fields, `"rows": `+strconv.FormatInt(r.rows, 10))
		}
		fields = append(fields, `"filtered": 100`)
		if r.covering {
			fields = append(fields, `"using_index": true`)
		}
		b.WriteString("\n      {\n        \"table\": {\n          ")
		b.WriteString(strings.Join(fields, ",\n          "))
		b.WriteString("\n        }\n      }")
	}
	b.WriteString("\n    ]\n  }\n}")
	return b.String()
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
