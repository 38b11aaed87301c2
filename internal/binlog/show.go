package binlog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
)

// EventRow is one line of SHOW BINLOG EVENTS: an event of the log file,
// where it starts and ends, and what MariaDB prints of it.
type EventRow struct {
	Pos, End uint64
	Type     string
	ServerID uint32
	Info     string
}

// ErrNoLog is a file the log does not have (SHOW BINLOG EVENTS IN).
var ErrNoLog = errors.New("binlog: could not find target log")

// ErrOffset is a position where no event starts (SHOW BINLOG EVENTS FROM).
var ErrOffset = errors.New("binlog: wrong offset")

// errEnough stops ShowEvents' dump once it has its rows.
var errEnough = errors.New("enough")

// ShowEvents returns the events of file from position from (0: the
// log's first), skipping offset of them and returning at most count
// (negative: all), as SHOW BINLOG EVENTS lists them.
func (l *Log) ShowEvents(ctx context.Context, file string, from uint64, offset, count int64) ([]EventRow, error) {
	if file != "" && file != FileName {
		return nil, ErrNoLog
	}
	b, err := l.start()
	if err != nil {
		return nil, err
	}
	start := uint64(magicLen)
	if b.Set {
		start = b.Pos // (what was before is purged, or a copy)
	}
	if from == 0 {
		from = start
	}
	var rows []EventRow
	found := false
	send := func(ev []byte, _ bool) error {
		if len(ev) < HeaderLen || binary.LittleEndian.Uint16(ev[17:])&flagArtificial != 0 || ev[4] == HeartbeatEvent {
			return nil
		}
		end := uint64(binary.LittleEndian.Uint32(ev[13:]))
		if end < uint64(len(ev)) {
			return nil // (a format description sent with no place in the file)
		}
		pos := end - uint64(len(ev))
		if pos < from {
			return nil
		}
		if pos > from && !found {
			return ErrOffset
		}
		found = true
		if offset > 0 {
			offset--
			return nil
		}
		if count >= 0 && int64(len(rows)) >= count {
			return errEnough
		}
		name, info := eventInfo(ev)
		rows = append(rows, EventRow{Pos: pos, End: end, Type: name, ServerID: binary.LittleEndian.Uint32(ev[5:]), Info: info})
		return nil
	}
	// (a FROM past the log's start reads from the sparse index's last
	// record at or before it, not from the first)
	dumpFrom := start
	if from > start {
		if m, ok := l.markWhere(b, func(m mark) bool { return m.pos <= from }); ok {
			dumpFrom = m.pos
		}
	}
	err = l.Dump(ctx, From{NonBlocking: true, File: FileName, Pos: dumpFrom}, 0, send, func() error { return nil })
	if errors.Is(err, errEnough) {
		err = nil
	}
	if err == nil && !found && from != start {
		_, end, perr := l.Position()
		if perr != nil || from != end {
			err = ErrOffset
		}
	}
	return rows, err
}

// eventInfo is an event's type and Info as MariaDB's SHOW BINLOG EVENTS
// prints them.
func eventInfo(ev []byte) (string, string) {
	body := ev[HeaderLen:]
	switch ev[4] {
	case FormatDescription:
		ver := body[2:52]
		if i := bytes.IndexByte(ver, 0); i >= 0 {
			ver = ver[:i]
		}
		return "Format_desc", fmt.Sprintf("Server ver: %s, Binlog ver: %d", ver, binary.LittleEndian.Uint16(body))
	case GTIDListEvent:
		n := binary.LittleEndian.Uint32(body) & 0x0fffffff
		var gs []string
		for i := range int(n) {
			g := body[4+16*i:]
			gs = append(gs, GTID{Domain: binary.LittleEndian.Uint32(g), Server: binary.LittleEndian.Uint32(g[4:]), Seq: binary.LittleEndian.Uint64(g[8:])}.String())
		}
		return "Gtid_list", "[" + strings.Join(gs, ",") + "]"
	case GTIDEvent:
		g := "GTID " + recordGTID(ev).String()
		if body[12]&gtidStandalone == 0 {
			g = "BEGIN " + g
		}
		return "Gtid", g
	case QueryEvent:
		dbLen := int(body[8])
		statusLen := int(binary.LittleEndian.Uint16(body[11:]))
		rest := body[13+statusLen:]
		db, text := string(rest[:dbLen]), string(rest[dbLen+1:])
		if db != "" && binary.LittleEndian.Uint16(ev[17:])&flagSuppressUse == 0 {
			text = "use `" + db + "`; " + text
		}
		return "Query", text
	case TableMapEvent:
		id := uint64(binary.LittleEndian.Uint32(body)) | uint64(binary.LittleEndian.Uint16(body[4:]))<<32
		rest := body[8:]
		db := string(rest[1 : 1+rest[0]])
		rest = rest[2+len(db):]
		return "Table_map", fmt.Sprintf("table_id: %d (%s.%s)", id, db, rest[1:1+rest[0]])
	case WriteRowsV1, UpdateRowsV1, DeleteRowsV1:
		name := "Write_rows_v1"
		if ev[4] == UpdateRowsV1 {
			name = "Update_rows_v1"
		} else if ev[4] == DeleteRowsV1 {
			name = "Delete_rows_v1"
		}
		id := uint64(binary.LittleEndian.Uint32(body)) | uint64(binary.LittleEndian.Uint16(body[4:]))<<32
		info := fmt.Sprintf("table_id: %d", id)
		if binary.LittleEndian.Uint16(body[6:])&rowsStmtEnd != 0 {
			info += " flags: STMT_END_F"
		}
		return name, info
	case XIDEvent:
		return "Xid", fmt.Sprintf("COMMIT /* xid=%d */", binary.LittleEndian.Uint64(body))
	case RotateEvent:
		return "Rotate", fmt.Sprintf("%s;pos=%d", body[8:], binary.LittleEndian.Uint64(body))
	}
	return fmt.Sprintf("Unknown_%d", ev[4]), ""
}
