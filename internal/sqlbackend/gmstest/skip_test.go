package gmstest

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
)

// skipRule skips the enginetest queries (or script names) that contain
// (case-insensitively) one of its substrings, or equal one written with a
// leading '=', for one reason.
type skipRule struct {
	reason string
	match  []string
}

// skipList counts what it skips, by reason.
type skipList struct {
	rules []skipRule
	mu    sync.Mutex
	hits  map[string]int
}

func newSkipList(rules []skipRule) *skipList {
	return &skipList{rules: rules, hits: map[string]int{}}
}

func (s *skipList) skip(q string) bool {
	lq := strings.ToLower(q)
	for _, r := range s.rules {
		for _, m := range r.match {
			m = strings.ToLower(m)
			hit := strings.Contains(lq, m)
			if strings.HasPrefix(m, "=") {
				hit = lq == m[1:]
			}
			if hit {
				s.mu.Lock()
				s.hits[r.reason]++
				s.mu.Unlock()
				return true
			}
		}
	}
	return false
}

// report prints how many tests each reason skipped.
func (s *skipList) report(w io.Writer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	total := 0
	reasons := make([]string, 0, len(s.hits))
	for r, n := range s.hits {
		reasons = append(reasons, r)
		total += n
	}
	sort.Strings(reasons)
	fmt.Fprintf(w, "enginetest skip list: %d tests skipped\n", total)
	for _, r := range reasons {
		fmt.Fprintf(w, "  %4d  %s\n", s.hits[r], r)
	}
}

// skipRules is the explicit skip list: every entry names a feature
// HandlerDB does not claim, and the query texts or script names it
// covers.
var skipRules = []skipRule{
	{"foreign keys are stored and shown but not enforced on parent rows (no RESTRICT, CASCADE or SET NULL)",
		[]string{"=failed statements data validation for DELETE, REPLACE", "Insert on duplicate key"}},
	{"duplicate-key errors carry MariaDB's text (Duplicate entry 'v' for key 'k'), not go-mysql-server's",
		[]string{"=failed statements data validation for INSERT, UPDATE", "=insert trigger with subquery projections",
			"=table ddl statements in stored procedures"}},
	{"engine: an explicit 0 in an AUTO_INCREMENT column always takes the next id (NO_AUTO_VALUE_ON_ZERO not supported)",
		[]string{"NO_auto_value_ON_ZERO"}},
	{"AUTO_INCREMENT is supported on integer columns only",
		[]string{"=auto increment on float", "=auto increment on double"}},
	{"display widths are not stored by the engine (BOOL reads back as tinyint)",
		[]string{"b1 BOOL, b2 BOOLEAN", "c bool, primary key", "=display width for numeric types",
			"information_schema.columns with column key UNI is displayed as PRI"}},
	{"SHOW CREATE TABLE lists unique keys before the others, as MariaDB does",
		[]string{"CREATE TABLE t1 LIKE mytable", "=test index naming", "SHOW CREATE TABLE mytaBLE",
			"GROUP_CONCAT(column_name ORDER BY seq_in_index)"}},
	{"index prefix lengths are not kept (the whole value is indexed)",
		[]string{"b1 blob, b2 blob", "=Prefix index with same columns as another index",
			"=column specific tests information_schema.statistics table"}},
	{"collations HandlerDB does not implement",
		[]string{"=valid character set and collation options"}},
	{"generated columns are not supported",
		[]string{"=create table with select preserves default"}},
	{"events are not supported",
		[]string{"=event contains CREATE TABLE AS", "=event contains CREATE VIEW AS", "create event", "show create event"}},
	{"temporary tables are not supported",
		[]string{"=READ ONLY Transactions", "certain ddl queries on temporary tables"}},
	{"SET TRANSACTION without SESSION or GLOBAL sets the next transaction only, as in MariaDB; the script expects the session's @@transaction_isolation to change",
		[]string{"=set transaction"}},
	{"ALTER TABLE ... MODIFY converts stored values as MariaDB's non-strict ALTER does (no error for values that do not fit)",
		[]string{"=alter nil enum", "=alter table out of range value error of column type change", "=preserve enums through alter statements"}},
	{"a database's default character set and collation are not stored",
		[]string{"=test create database with modified server variables", "=test show create database",
			"=information_schema.schemata shows all column values", "=test databases created with non default collation and charset"}},
	{"utf8mb4_bin is PAD SPACE ('def' sorts after 'def\\0\\0'); go-mysql-server's default collation is NO PAD",
		[]string{"=varchar primary key"}},
	{"spatial types are not supported",
		[]string{"=column specific tests on information_schema.columns table", "=column specific tests on information_schema.tables table",
			"srs_id defined in spatial columns", "st_geometry_columns"}},
	{"the 65,535-byte row size limit is not enforced",
		[]string{"=multi alter with invalid schemas"}},
	{"utf8mb3 columns are stored as utf8mb4",
		[]string{"=ALTER TABLE does not change column collations"}},
	{"an AUTO_INCREMENT id is taken only when the engine inserts the row (a statement refused before it consumes none)",
		[]string{"=non-existent procedure in trigger body"}},
	{"a cursor reads its rows at FETCH, not at OPEN",
		[]string{"=FETCH captures state at OPEN"}},
	{"compares now() from a context the suite created long before the query (timing of a shared machine)",
		[]string{"select now() = sysdate(), sleep(0.5)"}},
}
