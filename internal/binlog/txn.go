package binlog

import (
	"github.com/handlerdb/handlerdb/internal/engine"
)

// maxRowsBody is the size past which a run of row changes continues in
// another rows event (MariaDB's binlog_row_event_max_size, 8 KiB).
const maxRowsBody = 8 << 10

// TxnEvents writes one committed transaction of the change feed as the
// events of a MariaDB transaction: its GTID g (whose server id the
// events carry: the server that first committed it), for each run of changes of one kind to one table a
// table map and the rows events holding them, and the XID that commits
// it (the XID is the feed's number). The events' log_pos are 0 (SetPos
// places them).
//
// A transaction that is a DDL statement is its GTID (flagged DDL) and a
// query event with the statement's text.
func TxnEvents(ts uint32, g GTID, x engine.FeedTxn) ([]byte, error) {
	return tableMaps(nil).txnEvents(ts, g, x)
}

// tableMaps keeps the bodies of the tables' table map events, so that a
// transaction's are not made again for each (a table altered or renamed
// is another *engine.Table). The change log's goroutine only (the
// writer's); a nil one keeps none.
type tableMaps map[*engine.Table][]byte

// body is t's table map event body.
func (m tableMaps) body(t *engine.Table) ([]byte, error) {
	if b, ok := m[t]; ok {
		return b, nil
	}
	b, err := tableMapBody(t)
	if err != nil || m == nil {
		return b, err
	}
	if len(m) >= 1024 {
		clear(m) // (tables that DDL replaced)
	}
	m[t] = b
	return b, nil
}

// txnEvents is TxnEvents with m's table maps.
func (m tableMaps) txnEvents(ts uint32, g GTID, x engine.FeedTxn) ([]byte, error) {
	serverID := g.Server
	if st := x.Statement; st != nil {
		return append(GTIDEventOf(ts, g, true), QueryEventOf(ts, serverID, st.DB, st.Text)...), nil
	}
	// (room for the events of a few rows of a small table: one
	// allocation for most transactions)
	out := appendGTIDEvent(make([]byte, 0, 256+128*len(x.Changes)), ts, g, false)
	cs := x.Changes
	for len(cs) > 0 {
		t, kind := cs[0].Table, cs[0].Kind
		n := 1
		for n < len(cs) && cs[n].Table == t && cs[n].Kind == kind {
			n++
		}
		tm, err := m.body(t)
		if err != nil {
			return nil, err
		}
		var start int
		out, start = startEvent(out)
		out = append(out, tm...)
		endEvent(out, start, TableMapEvent, ts, serverID, 0)
		run := cs[:n]
		for len(run) > 0 {
			// Rows go to one event until it passes maxRowsBody.
			k, size := 0, 0
			for k < len(run) && (k == 0 || size < maxRowsBody) {
				size += rowSize(t, run[k])
				k++
			}
			out, err = appendRowsEvent(out, ts, serverID, t, kind, run[:k], k == len(run))
			if err != nil {
				return nil, err
			}
			run = run[k:]
		}
		cs = cs[n:]
	}
	return appendXIDEvent(out, ts, serverID, x.Seq), nil
}

// rowSize is about the bytes a change's images take.
func rowSize(t *engine.Table, c engine.Change) int {
	n := len(t.Columns)
	for _, r := range []engine.Row{c.Old, c.Row} {
		for _, v := range r {
			n += 8 + len(v.B)
		}
	}
	return n
}
