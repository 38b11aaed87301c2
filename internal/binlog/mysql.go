package binlog

import (
	"encoding/binary"
	"fmt"
	"sort"
	"strings"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/google/uuid"
)

// MySQL's flavor of the log. The log is stored in MariaDB's form; a
// replica that speaks MySQL's (COM_BINLOG_DUMP_GTID, or a dump without
// @mariadb_slave_capability) gets each transaction rewritten as a MySQL
// 8.0 primary sends it: a GTID event server_uuid:N (N the MariaDB GTID's
// sequence number, the uuid the server id's: ServerUUID) and, for row
// changes, a BEGIN query event; rows events in their version 2 form; a
// PREVIOUS_GTIDS event where MariaDB's log has its GTID list. The other
// events are the same in both flavors. Positions stay the stored log's:
// each event carries the position after the MariaDB event it comes from,
// so a transaction ends where SHOW MASTER STATUS says.

// MySQL's event types that differ from MariaDB's.
const (
	WriteRowsV2       = 30
	UpdateRowsV2      = 31
	DeleteRowsV2      = 32
	MySQLGTIDEvent    = 33
	PreviousGTIDsType = 35
)

// MySQLServerVersion is the version a MySQL-flavored format description
// names (a reader decides from it that events end in a checksum
// algorithm byte and how to read them).
const MySQLServerVersion = "8.0.99-HandlerDB-log"

// mysqlPostHeaders are the post-header lengths of MySQL 8.0's 41 event
// types, then the checksum algorithm byte (0, off).
var mysqlPostHeaders = []byte{
	0x38, 0x0d, 0x00, 0x08, 0x00, 0x12, 0x00, 0x04, 0x04, 0x04, 0x04, 0x12, 0x00, 0x00, 0x62, 0x00,
	0x04, 0x1a, 0x08, 0x00, 0x00, 0x00, 0x08, 0x08, 0x08, 0x02, 0x00, 0x00, 0x00, 0x0a, 0x0a, 0x0a,
	0x2a, 0x2a, 0x00, 0x12, 0x34, 0x00, 0x0a, 0x28, 0x00,
	0x00, // checksum algorithm: off
}

// uuidPrefix marks a server uuid made from a server id: its first eight
// bytes are these (version 8, variant 10: RFC 9562's form for uuids whose
// layout their maker defines), its last six the server id.
var uuidPrefix = [10]byte{'H', 'D', 'B', 0, 0, 0, 0x80, 0, 0x80, 0}

// ServerUUID is the server_uuid of server id: the id in the last twelve
// hex digits (48444200-0000-8000-8000-000000000001 for server 1). Made,
// not stored, so that every server of a topology names every other's
// transactions alike in MySQL's flavor, as MariaDB's GTIDs name them by
// server id.
func ServerUUID(id uint32) uuid.UUID {
	var u uuid.UUID
	copy(u[:], uuidPrefix[:])
	binary.BigEndian.PutUint32(u[12:], id)
	return u
}

// serverOfUUID is the server id ServerUUID made u from; false for a uuid
// it did not make.
func serverOfUUID(u uuid.UUID) (uint32, bool) {
	if [10]byte(u[:10]) != uuidPrefix || u[10] != 0 || u[11] != 0 {
		return 0, false
	}
	return binary.BigEndian.Uint32(u[12:]), true
}

// run is a stretch of the log's domain's GTID sequence numbers that one
// server committed, first to last, in the log's order.
type run struct {
	server      uint32
	first, last uint64
}

// addRun adds GTID g (of the log's domain) to runs.
func addRun(runs []run, g GTID) []run {
	if g.Seq == 0 {
		return runs
	}
	if n := len(runs); n > 0 && runs[n-1].server == g.Server && runs[n-1].last+1 == g.Seq {
		runs[n-1].last = g.Seq
		return runs
	}
	return append(runs, run{server: g.Server, first: g.Seq, last: g.Seq})
}

// mysqlSet is the MySQL GTID set of runs.
func mysqlSet(runs []run) mysql.MysqlGTIDSet {
	s := mysql.NewMysqlGTIDSet()
	for _, r := range runs {
		u := ServerUUID(r.server)
		if s[u] == nil {
			s[u] = map[mysql.Tag]mysql.IntervalSlice{}
		}
		s[u][mysql.Tag{}] = append(s[u][mysql.Tag{}], mysql.Interval{Start: int64(r.first), Stop: int64(r.last) + 1})
	}
	for u := range s {
		s[u][mysql.Tag{}] = s[u][mysql.Tag{}].Normalize()
	}
	return s
}

// SetText writes a MySQL GTID set as MySQL prints @@gtid_executed: one
// uuid's intervals a line, in uuid order ("" for none).
func SetText(s mysql.MysqlGTIDSet) string {
	return strings.ReplaceAll(s.String(), ",", ",\n")
}

// setHas reports whether GTID set s holds uuid u's number n (untagged).
func setHas(s mysql.MysqlGTIDSet, u uuid.UUID, n uint64) bool {
	_, ok := setInterval(s, u, n)
	return ok
}

// setInterval is the interval of set s's numbers of uuid u (untagged)
// that holds n; false when none does.
func setInterval(s mysql.MysqlGTIDSet, u uuid.UUID, n uint64) (mysql.Interval, bool) {
	iv := s[u][mysql.Tag{}]
	i := sort.Search(len(iv), func(i int) bool { return iv[i].Stop > int64(n) })
	if i == len(iv) || iv[i].Start > int64(n) {
		return mysql.Interval{}, false
	}
	return iv[i], true
}

// coveredPrefix returns the last GTID of runs up to which s holds every
// one (Seq 0: not even the first).
func coveredPrefix(runs []run, s mysql.MysqlGTIDSet) GTID {
	var last GTID
	for _, r := range runs {
		u := ServerUUID(r.server)
		for n := r.first; n <= r.last; {
			iv, ok := setInterval(s, u, n)
			if !ok {
				return last
			}
			top := min(uint64(iv.Stop)-1, r.last)
			last = GTID{Server: r.server, Seq: top}
			n = top + 1
		}
	}
	return last
}

// aheadOf returns the GTIDs of s that name a HandlerDB server's
// transaction past seq, the domain's last ("" when there are none): a
// replica that holds them has transactions this log lacks.
func aheadOf(s mysql.MysqlGTIDSet, seq uint64) string {
	var extra []string
	for u, tags := range s {
		if _, ok := serverOfUUID(u); !ok {
			continue
		}
		for _, iv := range tags {
			for _, x := range iv {
				if x.Stop-1 > int64(seq) {
					from := max(x.Start, int64(seq)+1)
					extra = append(extra, fmt.Sprintf("%s:%s", u, mysql.Interval{Start: from, Stop: x.Stop}))
				}
			}
		}
	}
	sort.Strings(extra)
	return strings.Join(extra, ",")
}

// MySQLFormatDescriptionEvent is the format description of the log in
// MySQL's flavor.
func MySQLFormatDescriptionEvent(ts, serverID uint32) []byte {
	return formatDescription(ts, serverID, MySQLServerVersion, mysqlPostHeaders)
}

// PreviousGTIDsEventOf lists the GTIDs before the log's events.
func PreviousGTIDsEventOf(ts, serverID uint32, s mysql.MysqlGTIDSet) []byte {
	return event(PreviousGTIDsType, ts, serverID, 0, s.Encode())
}

// appendMySQLGTIDEvent appends the GTID event that starts MySQL
// transaction u:gno, the seqNo-th of the log: its logical clock says it
// follows the one before (a replica applies the log's transactions in
// order).
func appendMySQLGTIDEvent(b []byte, ts, serverID uint32, u uuid.UUID, gno, seqNo uint64) []byte {
	b, start := startEvent(b)
	b = append(b, 0) // flags: row changes only
	b = append(b, u[:]...)
	b = binary.LittleEndian.AppendUint64(b, gno)
	b = append(b, 2) // logical timestamps follow
	b = binary.LittleEndian.AppendUint64(b, seqNo-1)
	b = binary.LittleEndian.AppendUint64(b, seqNo)
	endEvent(b, start, MySQLGTIDEvent, ts, serverID, 0)
	return b
}

// appendMySQL appends the events of one stored transaction record, which
// starts at position at in the log and is the seqNo-th record, in MySQL's
// flavor, each with its log_pos set (see the comment at the top).
func appendMySQL(dst, rec []byte, at, seqNo uint64) []byte {
	for len(rec) >= HeaderLen {
		n := EventLen(rec)
		if n < HeaderLen || n > len(rec) {
			break
		}
		ev := rec[:n]
		at += uint64(n)
		ts, server := binary.LittleEndian.Uint32(ev), binary.LittleEndian.Uint32(ev[5:])
		start := len(dst)
		switch ev[4] {
		case GTIDEvent:
			g := recordGTID(ev)
			dst = appendMySQLGTIDEvent(dst, ts, server, ServerUUID(g.Server), g.Seq, seqNo)
			if n > HeaderLen+12 && ev[HeaderLen+12]&gtidStandalone == 0 {
				// (a BEGIN opens a transaction of row changes)
				SetPos(dst[start:], uint32(at))
				start = len(dst)
				dst = appendQueryEvent(dst, ts, server, "", "BEGIN")
			}
		case WriteRowsV1, UpdateRowsV1, DeleteRowsV1:
			if n < HeaderLen+8 {
				dst = append(dst, ev...) // (no post-header: not the log's)
				break
			}
			// (version 2: the post-header gains the length of no extra
			// data, its own two bytes)
			dst = append(dst, ev[:HeaderLen+8]...)
			dst = append(dst, 2, 0)
			dst = append(dst, ev[HeaderLen+8:]...)
			dst[start+4] = ev[4] - WriteRowsV1 + WriteRowsV2
			binary.LittleEndian.PutUint32(dst[start+9:], uint32(n+2))
		default:
			dst = append(dst, ev...)
		}
		SetPos(dst[start:], uint32(at))
		rec = rec[n:]
	}
	return dst
}
