// Package binlog writes HandlerDB's changes as a MariaDB binary log: the
// events a MariaDB 10.11 primary sends its replicas (format description,
// GTID list, GTID, table map, row events, XID, rotate, heartbeat), each
// made byte for byte as MariaDB makes them (events_test.go holds a real
// MariaDB 10.11 log's bytes).
//
// An event is made without its position: log_pos is left 0 and set when
// the event is placed in a log (SetPos), so a transaction's events can be
// stored once and sent from any position. Checksums are off
// (binlog_checksum=NONE), except the format description's, which MariaDB
// always writes.
//
// Everything here is a pure function of its arguments, safe for
// concurrent use.
package binlog

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"strconv"
	"strings"
)

// Event types (MariaDB's numbering).
const (
	QueryEvent        = 2
	RotateEvent       = 4
	FormatDescription = 15
	XIDEvent          = 16
	TableMapEvent     = 19
	WriteRowsV1       = 23
	UpdateRowsV1      = 24
	DeleteRowsV1      = 25
	HeartbeatEvent    = 27
	GTIDEvent         = 162
	GTIDListEvent     = 163
)

// Header flags.
const (
	flagArtificial  = 0x20 // LOG_EVENT_ARTIFICIAL_F: not in any log file
	flagSuppressUse = 0x08 // LOG_EVENT_SUPPRESS_USE_F
	rowsStmtEnd     = 0x0001
)

// HeaderLen is the length of every event's header.
const HeaderLen = 19

// ServerVersion is the version a format description names.
const ServerVersion = "10.11.99-MariaDB-HandlerDB-log"

// fdePostHeaders are the post-header lengths of every event type a
// MariaDB 10.11 format description lists, then its checksum algorithm
// byte (0, off).
var fdePostHeaders = []byte{
	0x38, 0x0d, 0x00, 0x08, 0x00, 0x12, 0x00, 0x04, 0x04, 0x04, 0x04, 0x12, 0x00, 0x00, 0xe4, 0x00,
	0x04, 0x1a, 0x08, 0x00, 0x00, 0x00, 0x08, 0x08, 0x08, 0x02, 0x00, 0x00, 0x00, 0x0a, 0x0a, 0x0a,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0a, 0x0a, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x04, 0x13, 0x04, 0x00, 0x0d, 0x08, 0x08, 0x08, 0x0a, 0x0a, 0x0a,
	0x00, // checksum algorithm: off
}

// event returns an event of type typ with body, as of timestamp ts from
// serverID, with header flags (log_pos 0: see SetPos).
func event(typ byte, ts, serverID uint32, flags uint16, body []byte) []byte {
	b, start := startEvent(make([]byte, 0, HeaderLen+len(body)))
	b = append(b, body...)
	endEvent(b, start, typ, ts, serverID, flags)
	return b
}

// startEvent appends room for an event's header to b, where the event's
// body follows; endEvent then fills the header in.
func startEvent(b []byte) ([]byte, int) {
	return append(b, make([]byte, HeaderLen)...), len(b)
}

// endEvent fills in the header of the event that starts at start and
// ends b: type typ, timestamp ts, serverID, flags, its length (log_pos
// 0: see SetPos).
func endEvent(b []byte, start int, typ byte, ts, serverID uint32, flags uint16) {
	h := b[start : start+HeaderLen]
	binary.LittleEndian.PutUint32(h[0:], ts)
	h[4] = typ
	binary.LittleEndian.PutUint32(h[5:], serverID)
	binary.LittleEndian.PutUint32(h[9:], uint32(len(b)-start))
	binary.LittleEndian.PutUint32(h[13:], 0)
	binary.LittleEndian.PutUint16(h[17:], flags)
}

// SetPos sets the log_pos of the event at the start of ev: the position
// after it (0 for artificial events).
func SetPos(ev []byte, next uint32) { binary.LittleEndian.PutUint32(ev[13:], next) }

// EventLen returns the length the header of the event at the start of
// b gives.
func EventLen(b []byte) int { return int(binary.LittleEndian.Uint32(b[9:])) }

// FormatDescriptionEvent is a log's first event, created at ts.
func FormatDescriptionEvent(ts, serverID uint32) []byte {
	return formatDescription(ts, serverID, ServerVersion, fdePostHeaders)
}

// formatDescription is a format description naming server version,
// with the post-header lengths of each event type and the checksum
// algorithm.
func formatDescription(ts, serverID uint32, version string, postHeaders []byte) []byte {
	body := make([]byte, 0, 2+50+4+1+len(postHeaders)+4)
	body = binary.LittleEndian.AppendUint16(body, 4)
	var ver [50]byte
	copy(ver[:], version)
	body = append(body, ver[:]...)
	body = binary.LittleEndian.AppendUint32(body, ts)
	body = append(body, HeaderLen)
	body = append(body, postHeaders...)
	// (its checksum, last, counts its log_pos: made when it is placed)
	body = append(body, 0, 0, 0, 0)
	return event(FormatDescription, ts, serverID, 0, body)
}

// SealFormatDescription computes the checksum of a placed format
// description (after SetPos).
func SealFormatDescription(ev []byte) {
	n := len(ev) - 4
	binary.LittleEndian.PutUint32(ev[n:], crc32.ChecksumIEEE(ev[:n]))
}

// RotateEventTo names the log the next events come from, at pos; an
// artificial one (the first a replica gets) has timestamp and log_pos 0.
func RotateEventTo(serverID uint32, file string, pos uint64, artificial bool) []byte {
	body := binary.LittleEndian.AppendUint64(nil, pos)
	body = append(body, file...)
	var flags uint16
	if artificial {
		flags = flagArtificial
	}
	return event(RotateEvent, 0, serverID, flags, body)
}

// GTID is one MariaDB global transaction id.
type GTID struct {
	Domain, Server uint32
	Seq            uint64
}

// String is the GTID as MariaDB writes it: domain-server-seq.
func (g GTID) String() string { return fmt.Sprintf("%d-%d-%d", g.Domain, g.Server, g.Seq) }

// DomainGTID reads a MariaDB GTID position (domain-server-seq, comma
// separated) and returns its GTID of domain (zero when it has none).
func DomainGTID(state string, domain uint32) (GTID, error) {
	for _, part := range strings.Split(state, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		f := strings.Split(part, "-")
		if len(f) != 3 {
			return GTID{}, fmt.Errorf("bad GTID %q", part)
		}
		d, err1 := strconv.ParseUint(f[0], 10, 32)
		server, err2 := strconv.ParseUint(f[1], 10, 32)
		seq, err3 := strconv.ParseUint(f[2], 10, 64)
		if errors.Join(err1, err2, err3) != nil {
			return GTID{}, fmt.Errorf("bad GTID %q", part)
		}
		if uint32(d) == domain {
			return GTID{Domain: domain, Server: uint32(server), Seq: seq}, nil
		}
	}
	return GTID{}, nil
}

// GTIDListEvent lists the last GTID of each domain before the log's
// events (artificial when sent as a replica's start).
func GTIDListEventOf(ts, serverID uint32, list []GTID, artificial bool) []byte {
	body := binary.LittleEndian.AppendUint32(nil, uint32(len(list)))
	for _, g := range list {
		body = binary.LittleEndian.AppendUint32(body, g.Domain)
		body = binary.LittleEndian.AppendUint32(body, g.Server)
		body = binary.LittleEndian.AppendUint64(body, g.Seq)
	}
	var flags uint16
	if artificial {
		flags = flagArtificial
	}
	return event(GTIDListEvent, ts, serverID, flags, body)
}

// GTID event flags (flags2).
const (
	gtidStandalone    = 1
	gtidTransactional = 4
	gtidAllowParallel = 8
	gtidDDL           = 32
)

// GTIDEventOf starts transaction g: a transaction of row changes on
// transactional tables, or (ddl) one statement that commits by itself.
func GTIDEventOf(ts uint32, g GTID, ddl bool) []byte {
	return appendGTIDEvent(make([]byte, 0, HeaderLen+19), ts, g, ddl)
}

// appendGTIDEvent appends GTIDEventOf's event to b.
func appendGTIDEvent(b []byte, ts uint32, g GTID, ddl bool) []byte {
	b, start := startEvent(b)
	b = binary.LittleEndian.AppendUint64(b, g.Seq)
	b = binary.LittleEndian.AppendUint32(b, g.Domain)
	flags2 := byte(gtidTransactional | gtidAllowParallel)
	if ddl {
		flags2 = gtidStandalone | gtidAllowParallel | gtidDDL
	}
	b = append(b, flags2, 0, 0, 0, 0, 0, 0)
	endEvent(b, start, GTIDEvent, ts, g.Server, flagSuppressUse)
	return b
}

// XIDEventOf commits a transaction.
func XIDEventOf(ts, serverID uint32, xid uint64) []byte {
	return appendXIDEvent(make([]byte, 0, HeaderLen+8), ts, serverID, xid)
}

// appendXIDEvent appends XIDEventOf's event to b.
func appendXIDEvent(b []byte, ts, serverID uint32, xid uint64) []byte {
	b, start := startEvent(b)
	b = binary.LittleEndian.AppendUint64(b, xid)
	endEvent(b, start, XIDEvent, ts, serverID, 0)
	return b
}

// HeartbeatEventOf tells an idle replica the primary is there, at pos of
// file.
func HeartbeatEventOf(serverID uint32, file string) []byte {
	return event(HeartbeatEvent, 0, serverID, 0, []byte(file))
}

// QueryEventOf runs statement text in database db: a DDL statement,
// with MariaDB's status variables for it (no flags, no sql_mode, the
// catalog, and utf8mb4_general_ci as the client's, connection's and
// server's collation, in which the text is).
func QueryEventOf(ts, serverID uint32, db, text string) []byte {
	return appendQueryEvent(nil, ts, serverID, db, text)
}

// queryStatus are a query event's status variables.
var queryStatus = []byte{
	0, 0, 0, 0, 0, // Q_FLAGS2_CODE: none
	1, 0, 0, 0, 0, 0, 0, 0, 0, // Q_SQL_MODE_CODE: ''
	6, 3, 's', 't', 'd', // Q_CATALOG_NZ_CODE: std
	4, 45, 0, 45, 0, 45, 0, // Q_CHARSET_CODE
}

// appendQueryEvent appends QueryEventOf's event to b.
func appendQueryEvent(b []byte, ts, serverID uint32, db, text string) []byte {
	b, start := startEvent(b)
	b = binary.LittleEndian.AppendUint32(b, 0) // thread id
	b = binary.LittleEndian.AppendUint32(b, 0) // execution time
	b = append(b, byte(len(db)))               // database name length
	b = binary.LittleEndian.AppendUint16(b, 0) // error code
	b = binary.LittleEndian.AppendUint16(b, uint16(len(queryStatus)))
	b = append(b, queryStatus...)
	b = append(append(b, db...), 0)
	b = append(b, text...)
	endEvent(b, start, QueryEvent, ts, serverID, 0)
	return b
}
