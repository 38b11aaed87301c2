// Package sqlbackend is go-mysql-server's storage backend over
// internal/engine: the catalog (Provider, its databases and tables, their
// indexes), the row editors, the mapping of schemas and values between
// go-mysql-server and the engine, ALTER TABLE, the SQL-only objects the
// engine does not know (views, triggers, procedures, stored functions,
// column comments and expressions, CHECK and FOREIGN KEY constraints,
// generated columns, FULLTEXT indexes, kept as engine records; foreign
// keys are enforced on SQL writes through go-mysql-server and, as the
// engine's RowChecker, on HandlerSocket writes), the checks of the names
// it stores (names.go), a Session that owns a connection's engine.Txn,
// its REPEATABLE READ snapshot and row locks (isolation.go) and its
// temporary tables (temp.go), and MariaDB's printing of SHOW CREATE
// TABLE, SHOW COLUMNS and information_schema.COLUMNS (show.go,
// infoschema.go). It knows no dialect, no listener and no wire protocol:
// internal/sqlfront serves it over MySQL's, and the enginetest harness
// (gmstest) runs go-mysql-server's own tests against it.
//
// The analyzer rules are not here: they are MariaDB's dialect
// (internal/mariadb), which imports this package and builds the analyzer
// (mariadb.NewAnalyzer). This package exports what the dialect registers
// or needs to know of the storage: the storage rules (prefix indexes,
// FULLTEXT and MATCH, range reads, stored values, exact updates, foreign
// key depth, SHOW printing, DROP DATABASE), the Coster, and the StandIn and
// ReusableExpression interfaces (reusable.go), through which the range
// read and the plan cache understand the dialect's expressions without
// importing the dialect.
//
// What the listener uses is small: NewProvider, Provider.MariaDB,
// Provider.DropTemporaryLeftovers, Provider.NewSession and DefineSQLMode
// to build go-mysql-server's engine (over mariadb.NewAnalyzer); SessionOf, Session.HasEngineTxn,
// Session.HasTemporaryTables, Provider.ResolveTable and
// Provider.ColumnTypes, ValueToSQL, SQLType, SQLCollation and
// IsHelperIndex for the point fast path and error wording; ReusablePlan
// for the plan cache; MapError for errors;
// ScanBulkInsert and Provider.PrepareBulkInsert for the bulk insert path,
// LoadStatementOf and Provider.PrepareLoadData (LoadDataNode.Rows,
// Affected, MoreErrors) for the bulk load path. The rest implements
// go-mysql-server's interfaces.
//
// Rows written over SQL go through the engine's writer like every other
// write: under autocommit a statement's writes are committed (Session's
// CommitTransaction) before go-mysql-server answers, so HandlerSocket
// sees them at once. DDL commits pending writes first, then runs as one
// engine job.
//
// Concurrency: Provider, the databases, tables and indexes it hands out
// and the storage rules are safe for concurrent use (a database reads
// the current catalog on every call; a table and an index are one
// immutable catalog version of an engine table). A Session serves one
// connection at a time, an editor one statement.
package sqlbackend
