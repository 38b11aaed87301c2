// Package sqlfront serves HandlerDB's tables over the MySQL protocol. It is
// a storage backend for go-mysql-server over internal/engine (Provider,
// Database, Table, Index, the row editors and a Session that owns an
// engine.Txn) and the MySQL listener (Server) with its users and grants.
// Prepared primary-key point selects skip go-mysql-server's planner when
// that is safe (fastpath.go).
//
// What reaches go-mysql-server is bounded: statements nested too deeply
// for its recursive planner are refused with error 1436 (guard.go),
// packets beyond max_allowed_packet close the connection (netlimit.go),
// and names that MariaDB refuses are refused too (names.go).
//
// Rows written over SQL go through the engine's writer like every other
// write: under autocommit a statement's writes are committed before the
// client gets its reply, so HandlerSocket sees them at once.
package sqlfront
