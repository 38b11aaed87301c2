package sqlfront

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/binlogreplication"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	gmysql "github.com/go-mysql-org/go-mysql/mysql"

	"github.com/handlerdb/handlerdb/internal/binlog"
	"github.com/handlerdb/handlerdb/internal/errtable"
	"github.com/handlerdb/handlerdb/internal/mysqlproto"
	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// A replica's binary log dump (COM_BINLOG_DUMP), as a MariaDB primary
// serves it: the replica has set @slave_connect_state (its GTID
// position, MASTER_USE_GTID) and @master_heartbeat_period (nanoseconds)
// before; the command names a file and position, used when there is no
// GTID state. Each event goes in its own packet after a 0x00 byte; a
// failure is an error packet (1236), which ends the dump.
//
// A replica that did not set @mariadb_slave_capability (a MySQL replica)
// gets the log in MySQL's flavor (binlog/mysql.go), and so does a MySQL
// replica's dump by GTID set (COM_BINLOG_DUMP_GTID): its flags, server
// id, file name and position as COM_BINLOG_DUMP's, then its executed
// GTID set in MySQL's binary form.

// dumpNonBlock is COM_BINLOG_DUMP's BINLOG_DUMP_NON_BLOCK flag.
const dumpNonBlock = 0x01

// errMalformedDump answers a dump request too short for its fields.
var errMalformedDump = sqlError(errtable.ERMasterFatalReadingBinlog, "malformed dump request")

// binlogDump serves a dump (cmd COM_BINLOG_DUMP or COM_BINLOG_DUMP_GTID)
// until the replica goes or the log cannot go on; the connection ends
// with it, except after a non-blocking dump, which ends with an EOF
// packet at the log's end.
func (w *wireConn) binlogDump(cmd byte, p []byte) error {
	var from binlog.From
	var state string
	if cmd == mysqlproto.ComBinlogDumpGTID {
		var err error
		if from, err = parseDumpGTID(p); err != nil {
			return w.writeError(err)
		}
		state = binlog.SetText(from.Set)
	} else {
		if len(p) < 10 {
			return w.writeError(errMalformedDump)
		}
		from = binlog.From{Pos: uint64(binary.LittleEndian.Uint32(p)), File: string(p[10:]),
			NonBlocking: binary.LittleEndian.Uint16(p[4:])&dumpNonBlock != 0,
			MySQL:       w.userVariable("mariadb_slave_capability") == ""}
		state = w.userVariable("slave_connect_state")
	}
	if state != "" && !from.MySQL {
		g, err := binlog.DomainGTID(state, 0)
		if err != nil {
			return w.writeError(sqlError(errtable.ERMasterFatalReadingBinlog, err.Error()+" in the replica's position"))
		}
		from.GTID, from.Server, from.Seq = true, g.Server, g.Seq
	}
	var heartbeat time.Duration
	if ns, err := strconv.ParseFloat(w.userVariable("master_heartbeat_period"), 64); err == nil && ns > 0 {
		heartbeat = time.Duration(ns)
	}
	// A semi-sync replica gets two bytes more before each event and
	// acknowledges on the same connection, read meanwhile.
	// The reading ends with the connection, and ends the dump: a replica
	// gone is noticed at once, not at the next event or heartbeat.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	semi := !from.NonBlocking && w.semiReplica()
	if semi {
		from.Semi = w.l.conns.binlog.Semisync().Attach()
		defer from.Semi.Detach()
		go func() {
			defer cancel()
			w.readAcks(from.Semi)
		}()
	}
	// After an event that asks for an acknowledgement the sequence starts
	// again: the replica sends its acknowledgement as packet 0 and reads
	// the next event as packet 1 (as a MariaDB primary, which clears its
	// packet count once it flushed such an event).
	var pkt []byte
	asked := false
	send := func(ev []byte, ack bool) error {
		pkt = append(pkt[:0], 0)
		if semi {
			h := binlog.SemiHeader(ack)
			pkt = append(pkt, h[:]...)
		}
		pkt = append(pkt, ev...)
		asked = asked || ack // (an asking event ends a run: Dump flushes next)
		return w.pc.WritePacket(pkt)
	}
	flush := func() error {
		err := w.pc.Flush()
		if asked {
			w.pc.SetSequence(1)
			asked = false
		}
		return err
	}
	err := w.l.conns.binlog.Dump(ctx, from, heartbeat, send, flush)
	if err == nil && from.NonBlocking {
		// (the log's end: an EOF packet, and the connection goes on)
		if err := w.pc.WriteEOF(0, 0); err != nil {
			return err
		}
		return w.pc.Flush()
	}
	var ahead *binlog.AheadError
	switch {
	case errors.As(err, &ahead):
		_ = w.writeError(sqlError(errtable.ERMasterFatalReadingBinlog, "Replica has more GTIDs than the source has, using the source's SERVER_UUID. This may indicate that the end of the binary log was truncated or that the last binary log file was lost. The source does not have: "+ahead.Extra))
		_ = w.pc.Flush()
	case from.MySQL && errors.Is(err, binlog.ErrPurged):
		_ = w.writeError(sqlError(errtable.ERMasterFatalReadingBinlog, fmt.Sprintf("Cannot replicate because the source purged required binary logs. Replicate the missing transactions from elsewhere, or provision a new replica from backup. The GTID set sent by the replica is '%s'", state)))
		_ = w.pc.Flush()
	case errors.Is(err, binlog.ErrPosition):
		_ = w.writeError(sqlError(errtable.ERMasterFatalReadingBinlog, "Could not find first log file name in binary log index file"))
		_ = w.pc.Flush()
	case errors.Is(err, binlog.ErrPurged):
		_ = w.writeError(sqlError(errtable.ERMasterFatalReadingBinlog, fmt.Sprintf("Could not find GTID state requested by slave in any binlog files. Probably the slave state is too old and required binlog files have been purged (%s)", state)))
		_ = w.pc.Flush()
	case errors.Is(err, binlog.ErrGTID):
		_ = w.writeError(sqlError(errtable.ERMasterFatalReadingBinlog, fmt.Sprintf("Error: connecting slave requested to start from GTID %s, which is not in the master's binlog", state)))
		_ = w.pc.Flush()
	}
	return err
}

// parseDumpGTID reads a COM_BINLOG_DUMP_GTID request (after the command
// byte): flags 2, server id 4, name length 4, name, position 8, then the
// GTID set's length 4 and the set (a request without them has an empty
// set); the error is the one to answer.
func parseDumpGTID(p []byte) (binlog.From, error) {
	if len(p) < 10 {
		return binlog.From{}, errMalformedDump
	}
	from := binlog.From{MySQL: true, Set: gmysql.NewMysqlGTIDSet(),
		NonBlocking: binary.LittleEndian.Uint16(p)&dumpNonBlock != 0}
	nameLen := uint64(binary.LittleEndian.Uint32(p[6:]))
	if uint64(len(p)) < 10+nameLen+8 {
		return binlog.From{}, errMalformedDump
	}
	rest := p[10+nameLen+8:]
	if len(rest) < 4 {
		return from, nil
	}
	n := uint64(binary.LittleEndian.Uint32(rest))
	if uint64(len(rest)-4) < n {
		return binlog.From{}, errMalformedDump
	}
	if n > 0 {
		s, err := gmysql.DecodeMysqlGTIDSet(rest[4 : 4+n])
		if err != nil {
			return binlog.From{}, sqlError(errtable.ERMasterFatalReadingBinlog, "malformed GTID set in the dump request: "+err.Error())
		}
		from.Set = *s
	}
	return from, nil
}

// userVariable is the text of the session's user variable @name ("" when
// unset).
func (w *wireConn) userVariable(name string) string {
	s, ok := w.c.ClientData.(*sqlbackend.Session)
	if !ok {
		return ""
	}
	_, v, err := s.GetUserVariable(sql.NewEmptyContext(), name)
	if err != nil || v == nil {
		return ""
	}
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return fmt.Sprint(v)
}

var replicationVarsOnce sync.Once

// activeBinlog is the binary log @@gtid_binlog_pos and @@gtid_current_pos
// read: the last started server's that writes one (go-mysql-server's
// variables are the process's).
var activeBinlog atomic.Pointer[binlog.Log]

// defineReplicationVars adds MariaDB's replication variables a replica
// reads from its primary that go-mysql-server lacks, once per process.
func defineReplicationVars() {
	replicationVarsOnce.Do(func() {
		both := sql.GetMysqlScope(sql.SystemVariableScope_Both)
		global := sql.GetMysqlScope(sql.SystemVariableScope_Global)
		value := func(name string) func() (interface{}, error) {
			return func() (interface{}, error) { return logVariable(activeBinlog.Load(), name) }
		}
		sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{
			&sql.MysqlSystemVariable{Name: "gtid_domain_id", Scope: both, Dynamic: true,
				Type: gmstypes.NewSystemUintType("gtid_domain_id", 0, 1<<32-1), Default: uint64(0)},
			// (the last GTID the binary log holds: a primary's position,
			// which mariadb-dump --gtid and a new replica's set-up read)
			&sql.MysqlSystemVariable{Name: "gtid_binlog_pos", Scope: global,
				Type: gmstypes.NewSystemStringType("gtid_binlog_pos"), Default: "", ValueFunction: value("gtid_binlog_pos")},
			&sql.MysqlSystemVariable{Name: "gtid_current_pos", Scope: global,
				Type: gmstypes.NewSystemStringType("gtid_current_pos"), Default: "", ValueFunction: value("gtid_current_pos")},
			&sql.MysqlSystemVariable{Name: "gtid_executed", Scope: global,
				Type: gmstypes.NewSystemStringType("gtid_executed"), Default: "", ValueFunction: value("gtid_executed")},
			&sql.MysqlSystemVariable{Name: "gtid_purged", Scope: global,
				Type: gmstypes.NewSystemStringType("gtid_purged"), Default: "", ValueFunction: value("gtid_purged")},
		})
		defineSemisyncVars()
	})
}

// logVariable is the value of one of the binary log's variables (its
// lower-case name) from log l (none: ""): @@gtid_binlog_pos and
// @@gtid_current_pos MariaDB's last GTID, @@gtid_executed and
// @@gtid_purged MySQL's GTID sets of the same log.
func logVariable(l *binlog.Log, name string) (string, error) {
	if l == nil {
		return "", nil
	}
	switch name {
	case "gtid_executed", "gtid_purged":
		executed, purged, err := l.MySQLGTIDs()
		if name == "gtid_purged" {
			return purged, err
		}
		return executed, err
	}
	return l.GTIDPosition()
}

// primaryController answers go-mysql-server's SHOW BINARY LOGS and SHOW
// BINARY LOG STATUS (SHOW MASTER STATUS) from the binary log; the dump
// and registration commands never reach it (the wire layer serves them).
type primaryController struct{ log *binlog.Log }

var _ binlogreplication.BinlogPrimaryController = primaryController{}

func (primaryController) RegisterReplica(*sql.Context, *mysql.Conn, string, uint16) error {
	return nil
}

func (primaryController) BinlogDumpGtid(*sql.Context, *mysql.Conn, mysql.GTIDSet) error {
	return errors.New("sqlfront: the wire layer serves COM_BINLOG_DUMP_GTID")
}

func (primaryController) ListReplicas(*sql.Context) error { return nil }

func (c primaryController) ListBinaryLogs(*sql.Context) ([]binlogreplication.BinaryLogFileMetadata, error) {
	_, pos, err := c.log.Position()
	if err != nil {
		return nil, err
	}
	return []binlogreplication.BinaryLogFileMetadata{{Name: binlog.FileName, Size: pos}}, nil
}

func (c primaryController) GetBinaryLogStatus(*sql.Context) ([]binlogreplication.BinaryLogStatus, error) {
	_, pos, err := c.log.Position()
	if err != nil {
		return nil, err
	}
	// (MySQL's column: the GTID set in MySQL's flavor)
	executed, _, err := c.log.MySQLGTIDs()
	if err != nil {
		return nil, err
	}
	return []binlogreplication.BinaryLogStatus{{File: binlog.FileName, Position: uint(pos), ExecutedGtids: executed}}, nil
}

// binlogGTIDPos is MariaDB's BINLOG_GTID_POS(file, pos): the GTID
// position of the binary log at pos of file (what a replica's copy
// starts streaming from after a consistent snapshot); NULL for a file or
// position the log does not have.
type binlogGTIDPos struct {
	args [2]sql.Expression
	log  *binlog.Log
}

func binlogGTIDPosFunction(log *binlog.Log) sql.Function2 {
	return sql.Function2{Name: "binlog_gtid_pos", Fn: func(file, pos sql.Expression) sql.Expression {
		return &binlogGTIDPos{args: [2]sql.Expression{file, pos}, log: log}
	}}
}

func (f *binlogGTIDPos) FunctionName() string { return "binlog_gtid_pos" }
func (f *binlogGTIDPos) Description() string {
	return "the GTID position at a binary log file and position"
}
func (f *binlogGTIDPos) Resolved() bool { return f.args[0].Resolved() && f.args[1].Resolved() }
func (f *binlogGTIDPos) String() string {
	return fmt.Sprintf("binlog_gtid_pos(%s, %s)", f.args[0], f.args[1])
}
func (f *binlogGTIDPos) Type() sql.Type   { return gmstypes.LongText }
func (f *binlogGTIDPos) IsNullable() bool { return true }
func (f *binlogGTIDPos) Children() []sql.Expression {
	return f.args[:]
}
func (f *binlogGTIDPos) CollationCoercibility(*sql.Context) (sql.CollationID, byte) {
	return sql.Collation_utf8mb4_general_ci, 4
}

func (f *binlogGTIDPos) WithChildren(children ...sql.Expression) (sql.Expression, error) {
	if len(children) != 2 {
		return nil, sql.ErrInvalidChildrenNumber.New(f, len(children), 2)
	}
	nf := *f
	copy(nf.args[:], children)
	return &nf, nil
}

// Eval answers for the row's file and position.
func (f *binlogGTIDPos) Eval(ctx *sql.Context, row sql.Row) (interface{}, error) {
	file, err := f.args[0].Eval(ctx, row)
	if err != nil || file == nil {
		return nil, err
	}
	pos, err := f.args[1].Eval(ctx, row)
	if err != nil || pos == nil {
		return nil, err
	}
	p, _, err := gmstypes.Uint64.Convert(ctx, pos)
	if err != nil {
		return nil, nil
	}
	var name string
	switch x := file.(type) {
	case string:
		name = x
	case []byte:
		name = string(x)
	default:
		name = fmt.Sprint(file)
	}
	g, err := f.log.GTIDAt(name, p.(uint64))
	if err != nil {
		return nil, nil
	}
	return g, nil
}
