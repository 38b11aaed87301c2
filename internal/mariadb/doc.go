// Package mariadb is MariaDB's SQL dialect over the go-mysql-server backend
// of internal/sqlbackend: what makes go-mysql-server plan and answer a
// statement as MariaDB 10.11 does.
//
// It holds the analyzer rules and the expressions they put in a plan
// (exact DECIMAL sums, MariaDB's dates, LIKE, JSON paths and comparisons,
// bounded REGEXP, GROUP_CONCAT and string functions, the planning rules of
// joins and subqueries, ...), one rule or a few related ones per file, and
// the rewrites of statements go-mysql-server's parser does not take, which
// sqlfront's parser applies (dialect.go, reportsyntax.go, replication.go,
// routines.go, charsets.go, timescale.go). The rules' ids are in
// rule_ids.go, one list, so that no two rules share one. install.go
// registers every rule, the dialect's and the storage rules the backend
// exports, in one explicit call, NewAnalyzer; it is the only place that
// changes go-mysql-server's package globals (analyzer.OnceAfterAll, the
// schema formatter, information_schema.COLUMNS), once per process.
//
// The package imports the backend, never the reverse: the backend sees the
// dialect's expressions only through its StandIn and ReusableExpression
// interfaces, and its tests get NewAnalyzer from an external test file.
//
// Concurrency: the rules are pure functions of the plan, safe for
// concurrent use, and so are the rewrites of statements and NewAnalyzer;
// an expression node a rule builds serves one statement at a time.
//
// docs/ARCHITECTURE.md has the picture of the packages and the request
// paths.
package mariadb
