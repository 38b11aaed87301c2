package sqlfront

import (
	"strings"
	"sync/atomic"
)

// Statement classes counted for metrics.
const (
	StmtSelect = iota
	StmtInsert
	StmtUpdate
	StmtDelete
	StmtReplace
	StmtDDL
	StmtOther
	NumStmts
)

// StmtNames names the statement classes (metric label values).
var StmtNames = [NumStmts]string{"select", "insert", "update", "delete", "replace", "ddl", "other"}

// Stats are the MySQL front's counters, safe to read at any time.
type Stats struct {
	// Queries counts statements by class and result (0 ok, 1 error).
	Queries [NumStmts][2]atomic.Int64
	// Connections is the number of open SQL connections.
	Connections atomic.Int64
	// AuthFail counts refused logins.
	AuthFail atomic.Int64
	// Refused counts connections answered 1040 (MaxConnections).
	Refused atomic.Int64
	// ConnectTimeouts counts connections closed for not authenticating
	// within ConnectTimeout.
	ConnectTimeouts atomic.Int64
	// PointFast counts the prepared point selects served without
	// go-mysql-server's planner (also counted in Queries).
	PointFast atomic.Int64
	// PointWrites counts the point UPDATEs, DELETEs and INSERTs served
	// without go-mysql-server's planner (also counted in Queries).
	PointWrites atomic.Int64
}

// classify names a statement's class from its first keyword.
func classify(query string) int {
	q := trimBlanks(query, true)
	end := strings.IndexAny(q, " \t\r\n(;")
	if end < 0 {
		end = len(q)
	}
	switch strings.ToLower(q[:end]) {
	case "select", "with", "show", "explain", "describe", "desc":
		return StmtSelect
	case "insert":
		return StmtInsert
	case "update":
		return StmtUpdate
	case "delete":
		return StmtDelete
	case "replace":
		return StmtReplace
	case "create", "drop", "alter", "rename", "truncate":
		return StmtDDL
	}
	return StmtOther
}

func (st *Stats) count(query string, err error) {
	res := 0
	if err != nil {
		res = 1
	}
	st.Queries[classify(query)][res].Add(1)
}
