package binlog

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"testing"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// The bodies (after the 19-byte header) of the events a MariaDB 10.11.19
// primary (binlog_format=ROW, binlog_checksum=NONE, server id 7) wrote
// for
//
//	CREATE TABLE d.t (id INT PRIMARY KEY, v VARCHAR(10), c CHAR(3),
//	  dt DATETIME(3), tm TIME(2), de DECIMAL(7,2))  -- latin1
//	INSERT INTO d.t VALUES (1,'ab','x','2024-01-02 03:04:05.678','-01:02:03.45',-12.5);
//	UPDATE d.t SET v='cd' WHERE id=1;  -- GTID 0-7-4
//	DELETE FROM d.t;
//
// read from its log file (the table's id there is 18).
const (
	mariaTableMap = "120000000000010001640001740006030ffe1213f6080a00fe03030207023e"
	mariaWrite    = "1200000000000100063fc001000000026162017899b24431051a7c7fef7cd37ffff3cd"
	mariaUpdate   = "1200000000000100063f3fc001000000026162017899b24431051a7c7fef7cd37ffff3cdc001000000026364017899b24431051a7c7fef7cd37ffff3cd"
	mariaDelete   = "1200000000000100063fc001000000026364017899b24431051a7c7fef7cd37ffff3cd"
	mariaGTID4    = "0400000000000000000000000c000000000000"
	mariaXID4     = "0400000000000000"
	// its format description, from the post-header lengths on
	mariaFDETail = "041304000d0808080a0a0a00"
)

func goldenTable() *engine.Table {
	l1 := collation.Lookup("latin1_swedish_ci")
	return &engine.Table{ID: 18, DB: "d", Name: "t", Columns: []types.Column{
		{Name: "id", Type: types.Type{Kind: types.Int}},
		{Name: "v", Type: types.Type{Kind: types.VarChar, Length: 10, Collation: l1}, Nullable: true},
		{Name: "c", Type: types.Type{Kind: types.Char, Length: 3, Collation: l1}, Nullable: true},
		{Name: "dt", Type: types.Type{Kind: types.DateTime, Scale: 3}, Nullable: true},
		{Name: "tm", Type: types.Type{Kind: types.Time, Scale: 2}, Nullable: true},
		{Name: "de", Type: types.Type{Kind: types.Decimal, Length: 7, Scale: 2}, Nullable: true},
	}}
}

func goldenRow(v string) engine.Row {
	return engine.Row{{I: 1}, {B: []byte(v)}, {B: []byte("x")},
		{I: types.PackDateTime(2024, 1, 2, 3, 4, 5, 678000)}, {I: -(3723*1e6 + 450000)}, {B: []byte("-12.50")}}
}

func body(t *testing.T, ev []byte, typ byte) string {
	t.Helper()
	if ev[4] != typ || EventLen(ev) != len(ev) {
		t.Fatalf("event type %d, length %d of %d; want type %d", ev[4], EventLen(ev), len(ev), typ)
	}
	return hex.EncodeToString(ev[HeaderLen:])
}

// TestEventsAsMariaDB: the events of an insert, an update and a delete
// are MariaDB's bytes for the same rows.
func TestEventsAsMariaDB(t *testing.T) {
	tb := goldenTable()
	tm, err := TableMapEventOf(0, 7, tb)
	if err != nil {
		t.Fatal(err)
	}
	if got := body(t, tm, TableMapEvent); got != mariaTableMap {
		t.Errorf("table map:\n got %s\nwant %s", got, mariaTableMap)
	}
	for _, c := range []struct {
		kind engine.ChangeKind
		ch   engine.Change
		typ  byte
		want string
	}{
		{engine.ChangeInsert, engine.Change{Row: goldenRow("ab")}, WriteRowsV1, mariaWrite},
		{engine.ChangeUpdate, engine.Change{Old: goldenRow("ab"), Row: goldenRow("cd")}, UpdateRowsV1, mariaUpdate},
		{engine.ChangeDelete, engine.Change{Old: goldenRow("cd")}, DeleteRowsV1, mariaDelete},
	} {
		ev, err := RowsEventOf(0, 7, tb, c.kind, []engine.Change{c.ch}, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := body(t, ev, c.typ); got != c.want {
			t.Errorf("rows event %d:\n got %s\nwant %s", c.typ, got, c.want)
		}
	}
	if got := body(t, GTIDEventOf(0, GTID{0, 7, 4}, false), GTIDEvent); got != mariaGTID4 {
		t.Errorf("GTID event: got %s want %s", got, mariaGTID4)
	}
	if got := body(t, XIDEventOf(0, 7, 4), XIDEvent); got != mariaXID4 {
		t.Errorf("XID event: got %s want %s", got, mariaXID4)
	}
	fde := FormatDescriptionEvent(1, 7)
	SetPos(fde, 4+uint32(len(fde)))
	SealFormatDescription(fde)
	if len(fde) != 252 || EventLen(fde) != 252 || !bytes.HasSuffix(fde[:len(fde)-4], mustHex(mariaFDETail)) {
		t.Errorf("format description: %d bytes, tail %x", len(fde), fde[len(fde)-20:])
	}
	if binary.LittleEndian.Uint32(fde[13:]) != 256 {
		t.Errorf("format description's log_pos %d, want 256", binary.LittleEndian.Uint32(fde[13:]))
	}
}

func mustHex(s string) []byte {
	b, err := hex.DecodeString(s)
	if err != nil {
		panic(err)
	}
	return b
}

// BenchmarkTxnEvents: the log record of a one-row insert and of a
// 16-row one into a six-column table (the writer's cost per logged
// transaction, with the table map kept as the log keeps it).
func BenchmarkTxnEvents(b *testing.B) {
	tb := &engine.Table{ID: 9, DB: "hsbench", Name: "bench", Columns: []types.Column{
		{Name: "id", Type: types.Type{Kind: types.BigInt}},
		{Name: "name", Type: types.Type{Kind: types.VarChar, Length: 64}, Nullable: true},
		{Name: "email", Type: types.Type{Kind: types.VarChar, Length: 255}, Nullable: true},
		{Name: "n", Type: types.Type{Kind: types.Int}, Nullable: true},
		{Name: "d", Type: types.Type{Kind: types.Double}, Nullable: true},
		{Name: "created", Type: types.Type{Kind: types.DateTime}, Nullable: true},
	}}
	row := engine.Row{{I: 42}, {B: []byte("user 42")}, {B: []byte("user42@example.com, thirty-two by")}, {I: 7}, {F: 1.5}, {I: 0}}
	for _, rows := range []int{1, 16} {
		b.Run(fmt.Sprintf("rows=%d", rows), func(b *testing.B) {
			x := engine.FeedTxn{Seq: 1}
			for range rows {
				x.Changes = append(x.Changes, engine.Change{Kind: engine.ChangeInsert, Table: tb, Row: row})
			}
			maps := tableMaps{}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := maps.txnEvents(1, GTID{Server: 1, Seq: 1}, x); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
