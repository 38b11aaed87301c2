package sqlfront

import (
	"cmp"
	"context"
	"errors"
	"slices"
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

// processList is the server's list of SQL sessions and their statements
// (SHOW PROCESSLIST, information_schema.PROCESSLIST, KILL), followed by the
// external processes. It replaces go-mysql-server's list, which took one
// lock of the whole server several times per statement (begin, end, and
// the progress of every table read): under a CPU shared with its clients
// a preempted holder made every session queue behind it, the long tail of
// sysbench's read-only transactions. Here each connection has its own
// entry and lock: a statement's begin and end touch only its own, and the
// list is only read whole by SHOW PROCESSLIST. Per-table progress is not
// kept (MariaDB's State is a word, not a progress tree).
//
// Safe for concurrent use: conns is a sync.Map of *process, each
// process's fields are guarded by its mu.
type processList struct {
	extra func() []ExternalProcess
	conns sync.Map // connection id (uint32) -> *process
}

// process is one SQL connection's line.
type process struct {
	mu sync.Mutex
	p  sql.Process // guarded by mu; p.Kill cancels the running statement or operation
}

func newProcessList(extra func() []ExternalProcess) *processList {
	return &processList{extra: extra}
}

func (pl *processList) entry(id uint32) *process {
	if v, ok := pl.conns.Load(id); ok {
		return v.(*process)
	}
	return nil
}

// AddConnection lists a new connection with its peer's host:port, as
// SHOW PROCESSLIST's Host shows it.
func (pl *processList) AddConnection(id uint32, addr string) {
	sql.StatusVariables.IncrementGlobal("Threads_connected", 1)
	pl.conns.Store(id, &process{p: sql.Process{
		Connection: id,
		Command:    sql.ProcessCommandConnect,
		Host:       addr,
		User:       "unauthenticated user",
		StartedAt:  time.Now(),
	}})
}

// ConnectionReady lists sess's connection as logged in and idle.
func (pl *processList) ConnectionReady(sess sql.Session) {
	e := pl.entry(sess.ID())
	if e == nil {
		return
	}
	e.mu.Lock()
	e.p.Command = sql.ProcessCommandSleep
	e.p.User = sess.Client().User
	e.p.Database = sess.GetCurrentDatabase()
	e.p.StartedAt = time.Now()
	e.mu.Unlock()
}

// RemoveConnection takes a closed connection off the list, cancelling
// what it still runs.
func (pl *processList) RemoveConnection(id uint32) {
	v, ok := pl.conns.LoadAndDelete(id)
	if !ok {
		return
	}
	sql.StatusVariables.IncrementGlobal("Threads_connected", -1)
	v.(*process).cancel()
}

// cancel cancels and forgets what the connection runs.
func (e *process) cancel() {
	e.mu.Lock()
	kill := e.p.Kill
	e.p.Kill = nil
	e.mu.Unlock()
	if kill != nil {
		kill()
	}
}

// BeginQuery marks the session's connection as running query and returns
// a context that KILL QUERY cancels.
func (pl *processList) BeginQuery(ctx *sql.Context, query string) (*sql.Context, error) {
	if ctx.IsInterpreted() {
		return ctx, nil
	}
	e := pl.entry(ctx.Session.ID())
	if e == nil {
		return nil, errors.New("internal error: connection not registered with process list")
	}
	sql.StatusVariables.IncrementGlobal("Threads_running", 1)
	newCtx, cancel := context.WithCancel(ctx)
	ctx = ctx.WithContext(newCtx)
	now := time.Now()
	db := ctx.Session.GetCurrentDatabase()
	e.mu.Lock()
	e.p.Command = sql.ProcessCommandQuery
	e.p.Query = query
	e.p.QueryPid = ctx.Pid()
	e.p.StartedAt = now
	e.p.Database = db
	e.p.Kill = cancel
	e.mu.Unlock()
	return ctx, nil
}

// EndQuery marks the connection idle again after the statement BeginQuery
// began, counting it in Slow_queries when it ran longer than
// long_query_time.
func (pl *processList) EndQuery(ctx *sql.Context) {
	if ctx.IsInterpreted() {
		return
	}
	e := pl.entry(ctx.Session.ID())
	if e == nil {
		return
	}
	now := time.Now()
	e.mu.Lock()
	if e.p.QueryPid != ctx.Pid() || e.p.Command != sql.ProcessCommandQuery {
		e.mu.Unlock()
		return
	}
	took := now.Sub(e.p.StartedAt)
	kill := e.p.Kill
	e.p.Command = sql.ProcessCommandSleep
	e.p.Query = ""
	e.p.QueryPid = 0
	e.p.StartedAt = now
	e.p.Kill = nil
	e.mu.Unlock()
	sql.StatusVariables.IncrementGlobal("Threads_running", -1)
	if long := longQueryTime(); long > 0 && took.Seconds() > long {
		sql.IncrementStatusVariable(ctx, "Slow_queries", 1)
	}
	if kill != nil {
		kill()
	}
}

// longQueryTime is long_query_time in seconds (0 when unreadable).
func longQueryTime() float64 {
	if _, v, ok := sql.SystemVariables.GetGlobal("long_query_time"); ok {
		if f, ok := v.(float64); ok {
			return f
		}
	}
	return 0
}

// BeginOperation returns a context that KILL cancels for work on the
// connection that is not a statement (a prepare); EndOperation ends it.
func (pl *processList) BeginOperation(ctx *sql.Context) (*sql.Context, error) {
	if ctx.IsInterpreted() {
		return ctx, nil
	}
	e := pl.entry(ctx.Session.ID())
	if e == nil {
		return nil, errors.New("internal error: connection not registered with process list")
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.p.Kill != nil {
		return nil, errors.New("internal error: attempt to begin operation on connection which was already running one")
	}
	newCtx, cancel := ctx.NewSubContext()
	e.p.Kill = cancel
	return newCtx, nil
}

// EndOperation ends what BeginOperation began.
func (pl *processList) EndOperation(ctx *sql.Context) {
	if ctx.IsInterpreted() {
		return
	}
	if e := pl.entry(ctx.Session.ID()); e != nil {
		e.cancel()
	}
}

// Kill cancels what the connection runs (KILL, KILL QUERY).
func (pl *processList) Kill(id uint32) {
	e := pl.entry(id)
	if e == nil {
		return
	}
	e.mu.Lock()
	kill := e.p.Kill
	e.mu.Unlock()
	if kill != nil {
		kill()
	}
}

// The progress of a statement's tables is not kept (see processList).

func (pl *processList) UpdateTableProgress(uint64, string, int64)             {}
func (pl *processList) UpdatePartitionProgress(uint64, string, string, int64) {}
func (pl *processList) AddTableProgress(uint64, string, int64)                {}
func (pl *processList) AddPartitionProgress(uint64, string, string, int64)    {}
func (pl *processList) RemoveTableProgress(uint64, string)                    {}
func (pl *processList) RemovePartitionProgress(uint64, string, string)        {}

// Processes lists the SQL sessions by id, then the external connections.
// A statement's text shows with each byte that is not UTF-8 as U+FFFD
// (the column is utf8mb4 text: a statement holding binary bytes failed
// the whole list with 1105).
func (pl *processList) Processes() []sql.Process {
	var ps []sql.Process
	pl.conns.Range(func(_, v any) bool {
		e := v.(*process)
		e.mu.Lock()
		p := e.p
		e.mu.Unlock()
		p.Kill = nil
		p.Query = strings.ToValidUTF8(p.Query, "\uFFFD")
		ps = append(ps, p)
		return true
	})
	slices.SortFunc(ps, func(a, b sql.Process) int { return cmp.Compare(a.Connection, b.Connection) })
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
	e := pl.entry(sess.ID())
	if e == nil {
		return
	}
	e.mu.Lock()
	connecting := e.p.Command == sql.ProcessCommandConnect
	e.mu.Unlock()
	if connecting {
		pl.ConnectionReady(sess)
	}
}
