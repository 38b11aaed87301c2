package sqlfront

import (
	"strings"
	"sync"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
)

// ExternalProcess is a connection of another front (HandlerSocket) that
// SHOW PROCESSLIST lists next to the SQL sessions.
type ExternalProcess struct {
	ID      uint32 // unique among external processes
	User    string
	Host    string // peer address
	Command string // e.g. "HandlerSocket"
	Info    string // shown in the Info column
	Since   time.Time
}

// externalIDBase keeps external process ids apart from SQL connection ids.
const externalIDBase = 1 << 31

// processList adds the external processes to go-mysql-server's list of
// SQL sessions; every other method is the embedded list's. Safe for
// concurrent use.
type processList struct {
	sql.ProcessList
	extra func() []ExternalProcess

	// peers are the SQL connections' host:port, as SHOW PROCESSLIST's
	// Host shows them (go-mysql-server's ready sessions show the host).
	peers sync.Map // connection id (uint32) -> string
}

// AddConnection lists a new connection, keeping its peer address.
func (pl *processList) AddConnection(id uint32, addr string) {
	pl.peers.Store(id, addr)
	pl.ProcessList.AddConnection(id, addr)
}

// RemoveConnection takes a closed connection off the list.
func (pl *processList) RemoveConnection(id uint32) {
	pl.peers.Delete(id)
	pl.ProcessList.RemoveConnection(id)
}

// Processes lists the SQL sessions, then the external connections. A
// session's statement shows without go-mysql-server's progress tree in
// its State (MariaDB's is a word), and its text with each byte that is
// not UTF-8 as U+FFFD (the column is utf8mb4 text: a statement holding
// binary bytes failed the whole list with 1105).
func (pl *processList) Processes() []sql.Process {
	ps := pl.ProcessList.Processes()
	for i := range ps {
		if addr, ok := pl.peers.Load(ps[i].Connection); ok {
			ps[i].Host = addr.(string)
		}
		ps[i].Progress = nil
		ps[i].Query = strings.ToValidUTF8(ps[i].Query, "\uFFFD")
	}
	if pl.extra == nil {
		return ps
	}
	for _, e := range pl.extra() {
		ps = append(ps, sql.Process{
			Connection: externalIDBase | e.ID,
			Host:       e.Host,
			User:       e.User,
			Command:    sql.ProcessCommand(e.Command),
			StartedAt:  e.Since,
			Query:      e.Info,
		})
	}
	return ps
}

// ready makes sess's connection listed with its account, database and
// host: go-mysql-server marks a connection ready only when the client
// selects a database (COM_INIT_DB), so one that logged in without a
// database was listed as "unauthenticated user" with no host.
func (pl *processList) ready(sess sql.Session) {
	for _, p := range pl.ProcessList.Processes() {
		if p.Connection == sess.ID() {
			if p.Command == sql.ProcessCommandConnect {
				// (still as AddConnection listed it)
				pl.ProcessList.ConnectionReady(sess)
			}
			return
		}
	}
}
