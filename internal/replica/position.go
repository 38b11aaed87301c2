package replica

import (
	"encoding/json"
	"fmt"

	"github.com/go-mysql-org/go-mysql/mysql"
)

// position is where the replica is in the primary's binary log: the GTID
// set it has executed (MariaDB's domain-server-seq list or MySQL's
// uuid:intervals), and the binlog file and offset after the last applied
// transaction. It is stored in the same engine batch as that
// transaction's rows (engine.Job.SetReplicaPosition).
type position struct {
	Flavor string `json:"flavor,omitempty"` // mysql.MariaDBFlavor or mysql.MySQLFlavor, once known
	GTID   string `json:"gtid,omitempty"`
	File   string `json:"file,omitempty"`
	Pos    uint32 `json:"pos,omitempty"`
	// DDL names a statement (its GTID, or file:pos) that was started and
	// may or may not have been applied when the position was stored: DDL
	// cannot share the position's batch. If the same statement comes
	// again after a restart and fails because its effect is already there
	// (the table exists, or is gone), it counts as applied.
	DDL string `json:"ddl,omitempty"`
	// Copy marks an initial copy begun and not finished (copy.go): the
	// next start drops what it created and copies again.
	Copy bool `json:"copy,omitempty"`
}

func decodePosition(b []byte) (position, error) {
	var p position
	if len(b) == 0 {
		return p, nil
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("replica: stored position: %w", err)
	}
	return p, nil
}

func (p position) encode() []byte {
	b, _ := json.Marshal(p)
	return b
}

// gtidSet parses p's GTID set in its flavor; an empty set when there is
// none.
func (p position) gtidSet(flavor string) (mysql.GTIDSet, error) {
	return mysql.ParseGTIDSet(flavor, p.GTID)
}

// source is the replication configuration: CHANGE REPLICATION SOURCE TO,
// CHANGE REPLICATION FILTER and whether replication should run (START
// and STOP REPLICA), stored in the engine record sourceBlob.
type source struct {
	Host         string `json:"host"`
	Port         int    `json:"port"`
	User         string `json:"user"`
	Password     string `json:"password"`
	ConnectRetry int    `json:"connect_retry"` // seconds between reconnection attempts
	RetryCount   int    `json:"retry_count"`   // attempts before the IO thread gives up (0: never)
	AutoPosition bool   `json:"auto_position"` // GTID positioning when the primary has GTIDs
	ServerID     uint32 `json:"server_id"`     // the replica's server id towards the primary
	// SSL makes every connection to the primary TLS (MASTER_SSL=1). As
	// MariaDB 10.11 does without MASTER_SSL_VERIFY_SERVER_CERT, the
	// primary's certificate is not verified: the traffic is private, the
	// peer not authenticated.
	SSL     bool `json:"ssl,omitempty"`
	Running bool `json:"running"` // START REPLICA was the last word
	// The filters' lists, stored at the top level of the record (the
	// table lists under the names they had before the other filters).
	filters
}

// sourceBlob is the engine record holding the source.
const sourceBlob = "replica/source"

// Defaults of the source, MySQL's.
const (
	defaultPort         = 3306
	defaultConnectRetry = 60
	defaultRetryCount   = 86400
)
