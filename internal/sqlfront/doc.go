// Package sqlfront serves HandlerDB's tables over the MySQL protocol: the
// listener (Server) that runs go-mysql-server over internal/sqlbackend,
// with its users and grants (auth.go), connection limits and timeouts
// (connlimit.go, netlimit.go), SHOW PROCESSLIST (processlist.go),
// statement counters (stats.go), log routing (logs.go), MariaDB's
// wording of errors at the wire (errors.go) and of values (wire.go),
// EXPLAIN (explain.go), and the point fast path: prepared primary-key
// point selects skip go-mysql-server's planner when that is safe
// (fastpath.go). What is stored, and how SQL maps onto the engine, is
// internal/sqlbackend's.
//
// What reaches go-mysql-server is bounded: statements nested too deeply
// for its recursive planner are refused with error 1436 (guard.go),
// packets beyond max_allowed_packet close the connection (netlimit.go),
// and names that MariaDB refuses are refused too (sqlbackend's names.go).
//
// Concurrency: Server, mariaHandler, guardedParser and pointSelects are
// safe for concurrent use; each command of a connection runs on that
// connection's goroutine, which is the only one to use its session.
package sqlfront
