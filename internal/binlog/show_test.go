package binlog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestShowEvents: SHOW BINLOG EVENTS' rows are the log file's events, one
// after the other (each starts where the last ended), with MariaDB's
// type names and Info texts (as a MariaDB 10.11 log lists its own); FROM
// takes an event's start only, LIMIT skips and bounds, another file is
// refused; after a purge the list starts at the first kept transaction.
func TestShowEvents(t *testing.T) {
	x := openLogged(t, 7, "CREATE TABLE t (id INT PRIMARY KEY)")
	l, tb, ctx := x.l, x.t, context.Background()
	x.insert(t, 0)
	x.insert(t, 1)
	rows, err := l.ShowEvents(ctx, "", 0, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for i, r := range rows {
		if i > 0 && r.Pos != rows[i-1].End || r.ServerID != 7 {
			t.Fatalf("row %d %+v after %+v", i, r, rows[i-1])
		}
		got = append(got, r.Type+": "+r.Info)
	}
	id := tb.ID
	want := []string{
		"Format_desc: Server ver: " + ServerVersion + ", Binlog ver: 4",
		"Gtid_list: []",
		"Gtid: GTID 0-7-1",
		"Query: use `p`; CREATE TABLE t (id INT PRIMARY KEY)",
		"Gtid: BEGIN GTID 0-7-2",
		fmt.Sprintf("Table_map: table_id: %d (p.t)", id),
		fmt.Sprintf("Write_rows_v1: table_id: %d flags: STMT_END_F", id),
		"Xid: COMMIT /* xid=2 */",
		"Gtid: BEGIN GTID 0-7-3",
		fmt.Sprintf("Table_map: table_id: %d (p.t)", id),
		fmt.Sprintf("Write_rows_v1: table_id: %d flags: STMT_END_F", id),
		"Xid: COMMIT /* xid=3 */",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("events:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rows[0].Pos != 4 {
		t.Fatalf("the first event at %d", rows[0].Pos)
	}
	// FROM an event's start, LIMIT offset, count.
	part, err := l.ShowEvents(ctx, FileName, rows[4].Pos, 1, 2)
	if err != nil || len(part) != 2 || part[0] != rows[5] || part[1] != rows[6] {
		t.Fatalf("FROM %d LIMIT 1, 2: %+v %v", rows[4].Pos, part, err)
	}
	if _, err := l.ShowEvents(ctx, "", rows[4].Pos+1, 0, -1); !errors.Is(err, ErrOffset) {
		t.Fatalf("FROM inside an event: %v", err)
	}
	if _, err := l.ShowEvents(ctx, "hdb-bin.000002", 0, 0, -1); !errors.Is(err, ErrNoLog) {
		t.Fatalf("another file: %v", err)
	}
	if _, err := l.PurgeBefore(ctx, time.Now().Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	x.insert(t, 9)
	after, err := l.ShowEvents(ctx, "", 0, 0, -1)
	if err != nil || len(after) != 4 || after[0].Pos != rows[len(rows)-1].End || after[0].Info != "BEGIN GTID 0-7-4" {
		t.Fatalf("after the purge: %+v %v", after, err)
	}
}

// TestShowEventsFromMark: SHOW BINLOG EVENTS FROM a position reads from
// the sparse index's record at or before it, and lists what the whole
// log's listing lists from there, from every event's start; a position
// inside an event is refused as before.
func TestShowEventsFromMark(t *testing.T) {
	defer func(m uint64) { markEvery = m }(markEvery)
	markEvery = 2
	x := openLogged(t, 7, "")
	for id := range int64(9) {
		x.insert(t, id)
	}
	ctx := context.Background()
	rows, err := x.l.ShowEvents(ctx, "", 0, 0, -1)
	if err != nil || len(rows) != 2+9*4 {
		t.Fatalf("%d rows, %v", len(rows), err)
	}
	if len(x.l.marks) < 4 {
		t.Fatalf("marks %v", x.l.marks)
	}
	for i, r := range rows {
		got, err := x.l.ShowEvents(ctx, "", r.Pos, 0, -1)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(rows[i:]) {
			t.Fatalf("FROM %d: %v (%v), want %v", r.Pos, got, err, rows[i:])
		}
		if _, err := x.l.ShowEvents(ctx, "", r.Pos+1, 0, -1); !errors.Is(err, ErrOffset) {
			t.Fatalf("FROM %d, inside an event: %v", r.Pos+1, err)
		}
	}
}
