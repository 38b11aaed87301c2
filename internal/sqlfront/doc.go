// Package sqlfront serves HandlerDB's tables over the MySQL protocol. It is
// a storage backend for go-mysql-server over internal/engine (Provider,
// Database, Table, Index, the row editors and a Session that owns an
// engine.Txn) and the MySQL listener (Server) with its users and grants.
// Prepared primary-key point selects skip go-mysql-server's planner when
// that is safe (fastpath.go).
//
// Rows written over SQL go through the engine's writer like every other
// write: under autocommit a statement's writes are committed before the
// client gets its reply, so HandlerSocket sees them at once.
package sqlfront
