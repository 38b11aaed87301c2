package sqlfront

import (
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
}

// Processes lists the SQL sessions, then the external connections.
func (pl *processList) Processes() []sql.Process {
	ps := pl.ProcessList.Processes()
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
