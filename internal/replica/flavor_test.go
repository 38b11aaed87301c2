package replica_test

import (
	"context"
	gosql "database/sql"
	"encoding/binary"
	"math"
	"strconv"
	"testing"
	"time"

	vmysql "github.com/dolthub/vitess/go/mysql"
	gmysql "github.com/go-mysql-org/go-mysql/mysql"

	"github.com/handlerdb/handlerdb/internal/replica"
)

// No MySQL server is packaged here: the MySQL flavor is covered by binlog
// events that vitess's binlog package makes (MySQL 5.6+ format, CRC32
// checksums), fed to the replica's applier as its stream would feed them
// (replica.FeedBinlog): MySQL GTIDs (uuid:seq) positioning, and a MySQL
// primary without GTIDs, positioned by binlog file and offset.

// mysqlEvents makes the events of a MySQL primary.
type mysqlEvents struct {
	f      vmysql.BinlogFormat
	file   string // the binlog file being written
	pos    uint32 // end_log_pos of the next event
	events [][]byte
}

func newMySQLEvents(file string) *mysqlEvents {
	e := &mysqlEvents{f: vmysql.NewMySQL56BinlogFormat(), pos: 4, file: file}
	e.take()
	return e
}

func (e *mysqlEvents) meta() vmysql.BinlogEventMetadata {
	return vmysql.BinlogEventMetadata{ServerID: 7, Timestamp: uint32(time.Now().Unix()), NextLogPosition: e.pos}
}

// add appends an event, advancing the position by its size.
func (e *mysqlEvents) add(ev vmysql.BinlogEvent) {
	b := ev.Bytes()
	e.pos += uint32(len(b))
	binary.LittleEndian.PutUint32(b[13:17], e.pos)
	vmysql.UpdateChecksum(e.f, ev)
	e.events = append(e.events, b)
}

// gtid starts a transaction: its GTID event (seq 0: an anonymous one, as
// MySQL writes without GTIDs).
func (e *mysqlEvents) gtid(t *testing.T, sid string, seq int64, begin bool) {
	t.Helper()
	s, err := vmysql.ParseSID(sid)
	if err != nil {
		t.Fatal(err)
	}
	ev := vmysql.NewMySQLGTIDEvent(e.f, e.meta(), vmysql.Mysql56GTID{Server: s, Sequence: seq}, begin)
	if seq == 0 {
		ev.Bytes()[4] = 34 // ANONYMOUS_GTID_LOG_EVENT
	}
	e.add(ev)
}

func (e *mysqlEvents) query(db, q string) {
	e.add(vmysql.NewQueryEvent(e.f, e.meta(), vmysql.Query{Database: db, SQL: q}))
}

// The table of the rows events: mf.t (id INT, name VARCHAR(20), big
// BIGINT UNSIGNED, ratio DOUBLE), utf8mb4.
const mfTable = 42

func (e *mysqlEvents) tableMap(db string) {
	null := vmysql.NewServerBitmap(4)
	for i := 1; i < 4; i++ {
		null.Set(i, true)
	}
	e.add(vmysql.NewTableMapEvent(e.f, e.meta(), mfTable, &vmysql.TableMap{
		Database: db, Name: "t",
		Types:     []byte{vmysql.TypeLong, vmysql.TypeVarchar, vmysql.TypeLongLong, vmysql.TypeDouble},
		CanBeNull: null,
		Metadata:  []uint16{0, 80, 0, 8},
	}))
}

type mfRow struct {
	id    int32
	name  string
	big   uint64
	ratio float64
}

// image encodes a full row image.
func (r mfRow) image() (vmysql.Bitmap, []byte) {
	b := binary.LittleEndian.AppendUint32(nil, uint32(r.id))
	b = append(b, byte(len(r.name)))
	b = append(b, r.name...)
	b = binary.LittleEndian.AppendUint64(b, r.big)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(r.ratio))
	return vmysql.NewServerBitmap(4), b
}

func all4() vmysql.Bitmap {
	b := vmysql.NewServerBitmap(4)
	for i := 0; i < 4; i++ {
		b.Set(i, true)
	}
	return b
}

func (e *mysqlEvents) write(rows ...mfRow) {
	rs := vmysql.Rows{Flags: 1, DataColumns: all4()}
	for _, r := range rows {
		n, d := r.image()
		rs.Rows = append(rs.Rows, vmysql.Row{NullColumns: n, Data: d})
	}
	e.add(vmysql.NewWriteRowsEvent(e.f, e.meta(), mfTable, rs))
}

func (e *mysqlEvents) update(before, after mfRow) {
	rs := vmysql.Rows{Flags: 1, IdentifyColumns: all4(), DataColumns: all4()}
	bn, bd := before.image()
	an, ad := after.image()
	rs.Rows = append(rs.Rows, vmysql.Row{NullIdentifyColumns: bn, Identify: bd, NullColumns: an, Data: ad})
	e.add(vmysql.NewUpdateRowsEvent(e.f, e.meta(), mfTable, rs))
}

func (e *mysqlEvents) delete(r mfRow) {
	rs := vmysql.Rows{Flags: 1, IdentifyColumns: all4()}
	n, d := r.image()
	rs.Rows = append(rs.Rows, vmysql.Row{NullIdentifyColumns: n, Identify: d})
	e.add(vmysql.NewDeleteRowsEvent(e.f, e.meta(), mfTable, rs))
}

func (e *mysqlEvents) xid() { e.add(vmysql.NewXIDEvent(e.f, e.meta())) }

// take returns the events so far, and starts those of the next
// connection as a primary does: a rotate to the file and offset it
// resumes from, and its format description.
func (e *mysqlEvents) take() [][]byte {
	out := e.events
	// The replica asks for no checksum on the first, artificial
	// rotate (@source_binlog_checksum='NONE').
	plain := e.f
	plain.ChecksumAlgorithm = vmysql.BinlogChecksumAlgOff
	e.events = [][]byte{
		vmysql.NewRotateEvent(plain, vmysql.BinlogEventMetadata{ServerID: 7}, uint64(e.pos), e.file).Bytes(),
		vmysql.NewFormatDescriptionEvent(e.f, vmysql.BinlogEventMetadata{ServerID: 7}).Bytes(),
	}
	return out
}

const mfUUID = "3e11fa47-71ca-11e1-9e33-c80aa9429562"

// transactions appends, for each sequence number (0: anonymous), the
// schema and two row transactions.
func (e *mysqlEvents) transactions(t *testing.T, db string, seq func() int64) {
	e.gtid(t, mfUUID, seq(), false)
	e.query("", "CREATE DATABASE "+db)
	e.gtid(t, mfUUID, seq(), false)
	e.query(db, "CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(20), big BIGINT UNSIGNED, ratio DOUBLE, KEY name (name))")
	e.gtid(t, mfUUID, seq(), true)
	e.query(db, "BEGIN")
	e.tableMap(db)
	e.write(mfRow{1, "one", 1<<63 + 5, 0.5}, mfRow{2, "two", 2, -1e300})
	e.xid()
	e.gtid(t, mfUUID, seq(), true)
	e.query(db, "BEGIN")
	e.tableMap(db)
	e.update(mfRow{1, "one", 1<<63 + 5, 0.5}, mfRow{1, "uno", 1<<63 + 5, 0.25})
	e.tableMap(db) // one per statement (STMT_END_F drops the maps)
	e.delete(mfRow{2, "two", 2, -1e300})
	e.xid()
}

func mfRows(t *testing.T, db *gosql.DB, table string) []string {
	t.Helper()
	return dump(t, db, table, "id")
}

// TestMySQLGTIDs: a MySQL primary's transactions, positioned by GTID
// (SOURCE_AUTO_POSITION=1): DDL and rows apply, the executed set is
// MySQL's uuid:interval form, and a second stream continues the set
// from the stored position.
func TestMySQLGTIDs(t *testing.T) {
	s := startReplica(t, "", nil)
	rdb := sqlOf(t, s)
	if _, err := rdb.Exec("CHANGE REPLICATION SOURCE TO SOURCE_HOST='192.0.2.1', SOURCE_AUTO_POSITION=1"); err != nil {
		t.Fatal(err)
	}
	var n int64
	seq := func() int64 { n++; return n }
	e := newMySQLEvents("binlog.000001")
	e.transactions(t, "mfg", seq)
	if err := replica.FeedBinlog(context.Background(), s.Replica(), gmysql.MySQLFlavor, e.take()); err != nil {
		t.Fatal(err)
	}
	want := []string{`"1"	"uno"	"9223372036854775813"	"0.25"`}
	sameRows(t, "mfg.t", want, mfRows(t, rdb, "mfg.t"))
	st := replicaStatus(t, rdb)
	if st["Executed_Gtid_Set"] != mfUUID+":1-4" {
		t.Errorf("Executed_Gtid_Set %q, want %s:1-4", st["Executed_Gtid_Set"], mfUUID)
	}

	// The next stream starts from the stored set.
	e.gtid(t, mfUUID, seq(), true)
	e.query("mfg", "BEGIN")
	e.tableMap("mfg")
	e.write(mfRow{3, "tres", 3, 3})
	e.xid()
	if err := replica.FeedBinlog(context.Background(), s.Replica(), gmysql.MySQLFlavor, e.take()); err != nil {
		t.Fatal(err)
	}
	want = append(want, `"3"	"tres"	"3"	"3"`)
	sameRows(t, "mfg.t", want, mfRows(t, rdb, "mfg.t"))
	if st := replicaStatus(t, rdb); st["Executed_Gtid_Set"] != mfUUID+":1-5" || st["Source_Log_File"] != "binlog.000001" {
		t.Errorf("Executed_Gtid_Set %q, file %q; want %s:1-5 in binlog.000001", st["Executed_Gtid_Set"], st["Source_Log_File"], mfUUID)
	}
}

// TestMySQLFilePosition: a MySQL primary without GTIDs (anonymous GTID
// events), positioned by binlog file and offset: the stored position is
// the file of the last rotate and the end of the last transaction.
func TestMySQLFilePosition(t *testing.T) {
	s := startReplica(t, "", nil)
	rdb := sqlOf(t, s)
	if _, err := rdb.Exec("CHANGE REPLICATION SOURCE TO SOURCE_HOST='192.0.2.1'"); err != nil {
		t.Fatal(err)
	}
	e := newMySQLEvents("mysql-bin.000003")
	e.transactions(t, "mff", func() int64 { return 0 })
	end := e.pos
	if err := replica.FeedBinlog(context.Background(), s.Replica(), gmysql.MySQLFlavor, e.take()); err != nil {
		t.Fatal(err)
	}
	sameRows(t, "mff.t", []string{`"1"	"uno"	"9223372036854775813"	"0.25"`}, mfRows(t, rdb, "mff.t"))
	st := replicaStatus(t, rdb)
	if st["Source_Log_File"] != "mysql-bin.000003" || st["Exec_Source_Log_Pos"] != itoa(end) || st["Executed_Gtid_Set"] != "" {
		t.Errorf("position: file %q pos %q gtid %q; want mysql-bin.000003, %d, none", st["Source_Log_File"], st["Exec_Source_Log_Pos"], st["Executed_Gtid_Set"], end)
	}
	// A new file: the position follows the rotate.
	e.add(vmysql.NewRotateEvent(e.f, e.meta(), 4, "mysql-bin.000004"))
	e.file, e.pos = "mysql-bin.000004", 4
	e.gtid(t, mfUUID, 0, true)
	e.query("mff", "BEGIN")
	e.tableMap("mff")
	e.write(mfRow{4, "cuatro", 4, 4})
	e.xid()
	if err := replica.FeedBinlog(context.Background(), s.Replica(), gmysql.MySQLFlavor, e.take()); err != nil {
		t.Fatal(err)
	}
	if st := replicaStatus(t, rdb); st["Source_Log_File"] != "mysql-bin.000004" || st["Exec_Source_Log_Pos"] != itoa(e.pos) {
		t.Errorf("after the rotate: file %q pos %q; want mysql-bin.000004, %d", st["Source_Log_File"], st["Exec_Source_Log_Pos"], e.pos)
	}
}

func itoa(n uint32) string { return strconv.FormatUint(uint64(n), 10) }
