// Package replica makes HandlerDB a live replica of a MySQL or MariaDB
// primary: it reads the primary's row-based binary log over the
// replication protocol (go-mysql's BinlogSyncer, MariaDB GTIDs, MySQL
// GTIDs or file/position) and applies each primary transaction as one
// engine job that also stores the new position, so that a crash at any
// moment leaves the replica at a transaction boundary it resumes from.
// DDL from the primary runs through the SQL front (go-mysql-server), in
// the statement's default database. A replica with no table and no
// position first copies the primary from one consistent snapshot and
// streams from the snapshot's position (copy.go).
//
// Replica implements go-mysql-server's BinlogReplicaController, so the
// MySQL statements CHANGE REPLICATION SOURCE TO, START/STOP/RESET REPLICA,
// SHOW REPLICA STATUS and CHANGE REPLICATION FILTER drive it. The source
// settings and filters are stored in the engine (record "replica/source")
// and replication resumes when the server starts. While replication runs
// the engine is read-only for everything but the replica's own jobs
// (engine.SetReadOnly): SQL writes get 1290, HandlerSocket writes 1 1 1.
//
// Concurrency: a Replica's methods are safe for concurrent use. One
// goroutine per running replica reads the stream and applies it; it is
// the only one to touch the stream and the pending transaction, and it
// reports its state to the Replica under the Replica's mutex (the
// timestamp of the event it handles through an atomic). During the
// initial copy it reads the primary while one loader goroutine of its
// own writes the batches read before.
package replica
