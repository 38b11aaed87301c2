package binlog

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/go-mysql-org/go-mysql/mysql"
	"github.com/go-mysql-org/go-mysql/replication"
)

// mysqlDump is what a non-blocking MySQL-flavored dump from from sends,
// each event read by go-mysql's parser in MySQL's flavor: one line per
// event (its type and what it holds), and each event's log_pos.
func mysqlDump(t *testing.T, l *Log, from From) ([]string, []uint32, error) {
	t.Helper()
	from.NonBlocking, from.MySQL = true, true
	p := replication.NewBinlogParser()
	p.SetFlavor(mysql.MySQLFlavor)
	var lines []string
	var ends []uint32
	err := l.Dump(context.Background(), from, 0, func(ev []byte, _ bool) error {
		e, err := p.Parse(append([]byte(nil), ev...))
		if err != nil {
			return fmt.Errorf("event %d (type %d): %w", len(lines), ev[4], err)
		}
		ends = append(ends, e.Header.LogPos)
		switch x := e.Event.(type) {
		case *replication.GTIDEvent:
			u, _ := x.GTIDNext()
			lines = append(lines, fmt.Sprintf("gtid %s last %d seq %d", u, x.LastCommitted, x.SequenceNumber))
		case *replication.QueryEvent:
			lines = append(lines, fmt.Sprintf("query %s: %s", x.Schema, x.Query))
		case *replication.RowsEvent:
			lines = append(lines, fmt.Sprintf("%s %s.%s %v", e.Header.EventType, x.Table.Schema, x.Table.Table, x.Rows))
		case *replication.PreviousGTIDsEvent:
			lines = append(lines, "previous "+x.GTIDSets)
		case *replication.FormatDescriptionEvent:
			lines = append(lines, "fde "+string(x.ServerVersion))
		case *replication.XIDEvent, *replication.RotateEvent, *replication.TableMapEvent:
			lines = append(lines, e.Header.EventType.String())
		default:
			return fmt.Errorf("unexpected event %s", e.Header.EventType)
		}
		return nil
	}, func() error { return nil })
	return lines, ends, err
}

// gtidSet parses a MySQL GTID set.
func gtidSet(t *testing.T, s string) mysql.MysqlGTIDSet {
	t.Helper()
	g, err := mysql.ParseMysqlGTIDSet(s)
	if err != nil {
		t.Fatal(err)
	}
	return *g.(*mysql.MysqlGTIDSet)
}

// TestMySQLFlavor: the log in MySQL's flavor, as go-mysql's MySQL parser
// reads it: a MySQL format description and PREVIOUS_GTIDS, each
// transaction a GTID server_uuid:N (BEGIN before row changes, rows
// events of version 2) ending at the position the stored log's ends at;
// a replica's GTID set skips what it holds, gaps too; a set with more of
// a HandlerDB server's transactions than the log is refused, and after
// a purge so is one without the purged ones.
func TestMySQLFlavor(t *testing.T) {
	x := openLogged(t, 7, "CREATE TABLE t (id INT PRIMARY KEY)")
	for id := range int64(4) {
		x.insert(t, 10+id)
	}
	u := ServerUUID(7).String()
	if u != "48444200-0000-8000-8000-000000000007" {
		t.Fatalf("server uuid %s", u)
	}
	lines, ends, err := mysqlDump(t, x.l, From{Set: mysql.NewMysqlGTIDSet()})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"RotateEvent", "fde " + MySQLServerVersion, "previous ",
		"gtid " + u + ":1 last 0 seq 1", "query p: CREATE TABLE t (id INT PRIMARY KEY)"}
	for i := range 4 {
		want = append(want, fmt.Sprintf("gtid %s:%d last %d seq %d", u, i+2, i+1, i+2), "query : BEGIN", "TableMapEvent",
			fmt.Sprintf("WriteRowsEventV2 p.t [[%d]]", 10+i), "XIDEvent")
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Fatalf("MySQL dump:\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// Each transaction ends where the stored log's does.
	_, mariaEnds, err := dumped(t, x.l, From{GTID: true})
	if err != nil {
		t.Fatal(err)
	}
	var xids, mariaXids []uint32
	for i, l := range lines {
		if l == "XIDEvent" {
			xids = append(xids, ends[i])
		}
	}
	for i := 3; i < len(mariaEnds); i++ {
		// (MariaDB's transactions: a DDL's GTID and query, then GTID,
		// table map, rows, XID each)
		if i >= 5 && (i-5)%4 == 3 {
			mariaXids = append(mariaXids, mariaEnds[i])
		}
	}
	_, end, _ := x.l.Position()
	if fmt.Sprint(xids) != fmt.Sprint(mariaXids) || xids[len(xids)-1] != uint32(end) {
		t.Fatalf("XID positions %v, MariaDB's %v, log end %d", xids, mariaXids, end)
	}
	for i := 1; i < len(ends); i++ {
		if ends[i] != 0 && ends[i] < ends[i-1] {
			t.Fatalf("positions go back: %v", ends)
		}
	}

	// A replica's set: from after 1-2, without 4 (a gap it has).
	lines, _, err = mysqlDump(t, x.l, From{Set: gtidSet(t, u+":1-2:4")})
	if err != nil {
		t.Fatal(err)
	}
	var gtids []string
	for _, l := range lines {
		if strings.HasPrefix(l, "gtid ") {
			gtids = append(gtids, strings.Fields(l)[1])
		}
	}
	if fmt.Sprint(gtids) != fmt.Sprintf("[%s:3 %s:5]", u, u) {
		t.Fatalf("from %s:1-2:4: %v", u, gtids)
	}
	// Another server's GTIDs are not the log's: everything comes.
	if lines, _, err = mysqlDump(t, x.l, From{Set: gtidSet(t, "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-100")}); err != nil || len(lines) != len(want) {
		t.Fatalf("with a foreign uuid: %d events, %v", len(lines), err)
	}
	var ahead *AheadError
	if _, _, err = mysqlDump(t, x.l, From{Set: gtidSet(t, u+":1-7")}); !errors.As(err, &ahead) || ahead.Extra != u+":6-7" {
		t.Fatalf("a replica ahead: %v", err)
	}

	executed, purged, err := x.l.MySQLGTIDs()
	if err != nil || executed != u+":1-5" || purged != "" {
		t.Fatalf("gtid_executed %q gtid_purged %q %v", executed, purged, err)
	}
	if n, err := x.l.PurgeBefore(context.Background(), time.Now().Add(time.Hour)); err != nil || n != 5 {
		t.Fatalf("purged %d: %v", n, err)
	}
	x.insert(t, 20)
	executed, purged, err = x.l.MySQLGTIDs()
	if err != nil || executed != u+":1-6" || purged != u+":1-5" {
		t.Fatalf("after a purge: gtid_executed %q gtid_purged %q %v", executed, purged, err)
	}
	if _, _, err = mysqlDump(t, x.l, From{Set: gtidSet(t, u+":1-3")}); !errors.Is(err, ErrPurged) {
		t.Fatalf("a replica missing purged transactions: %v", err)
	}
	lines, _, err = mysqlDump(t, x.l, From{Set: gtidSet(t, u+":1-5")})
	if err != nil || len(lines) < 3 || lines[2] != "previous "+u+":1-5" || lines[3] != "gtid "+u+":6 last 5 seq 6" {
		t.Fatalf("after the purge, from 1-5: %v %v", lines, err)
	}
	// The purged runs survive a reopen of the log.
	x.l.Close()
	l2, err := Open(x.e, 7)
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	if executed, purged, err = l2.MySQLGTIDs(); err != nil || executed != u+":1-6" || purged != u+":1-5" {
		t.Fatalf("reopened: gtid_executed %q gtid_purged %q %v", executed, purged, err)
	}
}

// TestGTIDRuns: a domain's GTIDs by server, as MySQL's sets name them,
// and how far a replica's set covers them.
func TestGTIDRuns(t *testing.T) {
	var runs []run
	for _, g := range []GTID{{Server: 1, Seq: 1}, {Server: 1, Seq: 2}, {Server: 2, Seq: 3}, {Server: 2, Seq: 4}, {Server: 1, Seq: 5}, {Server: 1, Seq: 9}} {
		runs = addRun(runs, g)
	}
	if fmt.Sprint(runs) != "[{1 1 2} {2 3 4} {1 5 5} {1 9 9}]" {
		t.Fatalf("runs %v", runs)
	}
	u1, u2 := ServerUUID(1).String(), ServerUUID(2).String()
	if s := SetText(mysqlSet(runs)); s != u1+":1-2:5:9,\n"+u2+":3-4" {
		t.Fatalf("set %q", s)
	}
	for _, c := range []struct {
		set  string
		want GTID
	}{
		{"", GTID{}},
		{u2 + ":3-4", GTID{}},
		{u1 + ":1", GTID{Server: 1, Seq: 1}},
		{u1 + ":1-2," + u2 + ":3", GTID{Server: 2, Seq: 3}},
		{u1 + ":1-5," + u2 + ":1-4", GTID{Server: 1, Seq: 5}},
		{u1 + ":1-100," + u2 + ":1-4", GTID{Server: 1, Seq: 9}},
	} {
		s := mysql.NewMysqlGTIDSet()
		if c.set != "" {
			s = gtidSet(t, c.set)
		}
		if got := coveredPrefix(runs, s); got != c.want {
			t.Errorf("covered by %q: %v, want %v", c.set, got, c.want)
		}
	}
	if id, ok := serverOfUUID(ServerUUID(1 << 31)); !ok || id != 1<<31 {
		t.Errorf("server of its uuid: %d %v", id, ok)
	}
	if _, ok := serverOfUUID(gtidSetUUID(t)); ok {
		t.Error("a MySQL server's uuid taken for a HandlerDB server's")
	}
	if u5 := ServerUUID(5); binary.BigEndian.Uint32(u5[12:]) != 5 {
		t.Error("server id not in the uuid's last bytes")
	}
}

// gtidSetUUID is a uuid MySQL made.
func gtidSetUUID(t *testing.T) [16]byte {
	for u := range gtidSet(t, "3e11fa47-71ca-11e1-9e33-c80aa9429562:1") {
		return u
	}
	return [16]byte{}
}
