// Package mysqlproto speaks the server side of the MySQL client/server
// protocol as MariaDB 10.11 does: packet framing (payloads of 16 MiB and
// more split and joined, sequence numbers checked), the handshake with TLS
// and authentication switches, and the encoding of every answer a command
// gets (OK, ERR, EOF, column definitions, text and binary rows, the
// answers of prepared statements) and the decoding of COM_STMT_EXECUTE's
// parameters.
//
// It holds no SQL and no accounts: the caller reads a command with
// Conn.ReadCommand, decides what it means, and writes the answer with
// Conn's writers, in any number and order the protocol allows (several
// result sets for one command, an error after a result set). That freedom
// is why HandlerDB has its own wire layer.
//
// Concurrency: a Conn belongs to one goroutine at a time, the one serving
// its connection; only Close may be called from another goroutine (to end
// a connection from KILL or shutdown).
package mysqlproto
