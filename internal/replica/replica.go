package replica

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/binlogreplication"
	"github.com/dolthub/vitess/go/mysql"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/errtable"
)

// Statement is one SQL statement of the primary (DDL).
type Statement struct {
	DB    string // its default database, "" for none
	Query string
	// Vars are session variables it ran with on the primary
	// (collation_server, collation_connection), to set first.
	Vars map[string]any
}

// ExecFunc runs a statement through the SQL front. ctx is
// engine.Privileged, so its engine jobs may write while the engine is
// read-only.
type ExecFunc func(ctx context.Context, st Statement) error

// Options configures a Replica.
type Options struct {
	// Exec runs the primary's DDL; required.
	Exec ExecFunc
	// Logger gets connection, error and progress lines; nil discards.
	Logger *slog.Logger
	// StageBytes is the size of a primary transaction's row events (in
	// the binary log) past which it is applied as a staged job, without
	// holding all of it in memory (bigtxn.go). Default 32 MiB; negative:
	// never.
	StageBytes int
	// SemiSync, read at each connection, says whether to acknowledge the
	// primary's events when it runs semi-sync replication
	// (rpl_semi_sync_slave_enabled): an event asked for is acknowledged
	// once received, before it is applied, as a MariaDB replica does once
	// its relay log has it. nil: never.
	SemiSync func() bool
	// OwnGTID, when set, is the GTID position of the server's own binary
	// log (gtid_binlog_pos, "" for none): a replica with no position of
	// its own starts there from a MariaDB-flavored primary, so that a
	// failed primary rejoins its replica, promoted, as a replica.
	OwnGTID func() string
	// CopiedAt, when set, runs in the job that ends an initial copy from
	// a MariaDB-flavored primary, with the primary's GTID position of the
	// copy: the server's binary log, which left the copy out, starts
	// there (binlog.Log.StartAt).
	CopiedAt func(tx *engine.Job, gtid string) error
}

// Replica follows one primary into one engine. See the package comment.
type Replica struct {
	e    *engine.Engine
	opts Options
	log  *slog.Logger

	mu     sync.Mutex
	src    *source // nil: no source configured
	st     status
	cancel context.CancelFunc // of the running stream; nil when stopped
	done   chan struct{}      // closed when the stream goroutine ends

	// eventTS is the primary's timestamp (Unix seconds) of the event
	// the stream goroutine handles, 0 while it waits with nothing
	// pending (caught up). Written by that goroutine without the mutex.
	eventTS atomic.Int64

	staged stagedStats // large transactions (bigtxn.go)
}

// status is what SHOW REPLICA STATUS reports of the stream.
type status struct {
	io, sql          string // binlogreplication.ReplicaIo*/ReplicaSql* values
	ioErrno, sqlErrn uint
	ioErr, sqlErr    string
	ioErrAt, sqlAt   *time.Time
	sourceServerID   string
	sourceUUID       string
	retrieved        string // GTID set received (applied or not)
	executed         string // GTID set applied
	file             string // binlog file and offset after the last applied transaction
	pos              uint32
	applied          uint64        // transactions applied since the start
	copy             *copyProgress // the initial copy running, nil when none
	lastCopy         *copyDone     // the last finished one
}

var _ binlogreplication.BinlogReplicaController = (*Replica)(nil)

// New returns the replica of e, with the source stored in e (if any). It
// does not start replicating: call Resume.
func New(e *engine.Engine, opts Options) (*Replica, error) {
	if opts.Exec == nil {
		return nil, errors.New("replica: Options.Exec is required")
	}
	r := &Replica{e: e, opts: opts, log: opts.Logger}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	r.st.io, r.st.sql = binlogreplication.ReplicaIoNotRunning, binlogreplication.ReplicaSqlNotRunning
	b, err := e.Blob(sourceBlob)
	if err != nil {
		return nil, err
	}
	if b != nil {
		var s source
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("replica: stored source: %w", err)
		}
		r.src = &s
	}
	pos, err := r.position()
	if err != nil {
		return nil, err
	}
	r.st.executed, r.st.file, r.st.pos = pos.GTID, pos.File, pos.Pos
	return r, nil
}

// Resume starts replicating if the stored source says it was running
// (START REPLICA before the last shutdown).
func (r *Replica) Resume() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.src == nil || !r.src.Running {
		return nil
	}
	return r.startLocked()
}

// Configure is CHANGE REPLICATION SOURCE TO with the given settings
// followed by START REPLICA, for --replicate-from. An empty port is 3306.
func (r *Replica) Configure(ctx context.Context, host string, port int, user, password string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		if r.src.Host == host && r.src.Port == port && r.src.User == user && r.src.Password == password {
			return nil // already following that source
		}
		r.stopLocked()
	}
	s := r.sourceOrNew()
	s.Host, s.Port, s.User, s.Password, s.AutoPosition, s.Running = host, port, user, password, true, true
	if s.Port == 0 {
		s.Port = defaultPort
	}
	if err := r.saveLocked(ctx, s); err != nil {
		return err
	}
	return r.startLocked()
}

// Close stops the stream (without recording STOP REPLICA: the next start
// resumes) and waits for it.
func (r *Replica) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopLocked()
}

// sourceOrNew returns a copy of the configured source, or a new one with
// MySQL's defaults and a random server id.
func (r *Replica) sourceOrNew() *source {
	if r.src != nil {
		s := *r.src
		return &s
	}
	return &source{
		Port: defaultPort, ConnectRetry: defaultConnectRetry, RetryCount: defaultRetryCount,
		ServerID: 1_000_000 + rand.Uint32N(1_000_000_000),
	}
}

// saveLocked stores s and makes it the source.
func (r *Replica) saveLocked(ctx context.Context, s *source) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := r.e.Update(engine.Privileged(ctx), func(tx *engine.Job) error { return tx.SetBlob(sourceBlob, b) }); err != nil {
		return err
	}
	r.src = s
	return nil
}

// position reads the committed position.
func (r *Replica) position() (position, error) {
	b, err := r.e.ReplicaPosition()
	if err != nil {
		return position{}, err
	}
	return decodePosition(b)
}

// startLocked starts the stream goroutine and makes the engine read-only.
func (r *Replica) startLocked() error {
	if r.cancel != nil {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	r.cancel, r.done = cancel, make(chan struct{})
	r.st.io, r.st.sql = binlogreplication.ReplicaIoConnecting, binlogreplication.ReplicaSqlRunning
	r.e.SetReadOnly(true)
	s := *r.src
	go r.run(ctx, &s, r.done)
	r.log.Info("replica: started", "source", fmt.Sprintf("%s:%d", s.Host, s.Port), "user", s.User)
	return nil
}

// stopLocked stops the stream goroutine and waits for it to end.
func (r *Replica) stopLocked() {
	if r.cancel == nil {
		return
	}
	r.cancel()
	done := r.done
	r.mu.Unlock()
	<-done
	r.mu.Lock()
	r.cancel, r.done = nil, nil
	r.st.io, r.st.sql = binlogreplication.ReplicaIoNotRunning, binlogreplication.ReplicaSqlNotRunning
	r.e.SetReadOnly(false)
}

// ended is called by the stream goroutine when it stops by itself (an
// error that retrying cannot cure). The engine stays read-only, as a
// MySQL replica stays read-only after its SQL thread stopped, until STOP
// REPLICA.
func (r *Replica) ended(io, sqlState string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.io, r.st.sql = io, sqlState
}

// setIOError records an error of the connection to the primary.
func (r *Replica) setIOError(errno uint, msg string) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.ioErrno, r.st.ioErr, r.st.ioErrAt = errno, msg, &now
}

// setSQLError records an error applying the stream.
func (r *Replica) setSQLError(errno uint, msg string) {
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	r.st.sqlErrn, r.st.sqlErr, r.st.sqlAt = errno, msg, &now
}

// StartReplica implements START REPLICA.
func (r *Replica) StartReplica(ctx *sql.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.src == nil || r.src.Host == "" {
		return mysql.NewSQLError(errtable.ERBadSlave, "HY000", "Misconfigured slave: MASTER_HOST was not set; Fix in config file or with CHANGE MASTER TO")
	}
	if r.cancel != nil {
		// MySQL warns 3083 and does nothing.
		if ended := r.st.io == binlogreplication.ReplicaIoNotRunning; !ended {
			return nil
		}
		r.stopLocked()
	}
	s := *r.src
	s.Running = true
	if err := r.saveLocked(ctx, &s); err != nil {
		return err
	}
	r.st.ioErrno, r.st.ioErr, r.st.ioErrAt = 0, "", nil
	r.st.sqlErrn, r.st.sqlErr, r.st.sqlAt = 0, "", nil
	return r.startLocked()
}

// StopReplica implements STOP REPLICA: the stream stops and the engine
// takes client writes again.
func (r *Replica) StopReplica(ctx *sql.Context) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopLocked()
	if r.src != nil && r.src.Running {
		s := *r.src
		s.Running = false
		return r.saveLocked(ctx, &s)
	}
	return nil
}

// SetReplicationSourceOptions implements CHANGE REPLICATION SOURCE TO.
func (r *Replica) SetReplicationSourceOptions(ctx *sql.Context, options []binlogreplication.ReplicationOption) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		return mysql.NewSQLError(errtable.ERSlaveMustStop, "HY000", "This operation cannot be performed as you have a running slave ''; run STOP SLAVE '' first")
	}
	s := r.sourceOrNew()
	var coords struct {
		file, pos, autoOn bool // SOURCE_LOG_FILE, SOURCE_LOG_POS, SOURCE_AUTO_POSITION=1 named
		p                 position
	}
	for _, o := range options {
		name := strings.ToUpper(o.Name)
		name = strings.Replace(name, "MASTER_", "SOURCE_", 1)
		str := func() string { return o.Value.String() }
		num := func() (int, error) {
			if v, ok := o.Value.(binlogreplication.IntegerReplicationOptionValue); ok {
				return v.GetValueAsInt(), nil
			}
			return 0, mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; %s takes a number", o.Name)
		}
		var err error
		switch name {
		case "SOURCE_HOST":
			s.Host = str()
		case "SOURCE_USER":
			s.User = str()
		case "SOURCE_PASSWORD":
			s.Password = str()
		case "SOURCE_PORT":
			s.Port, err = num()
		case "SOURCE_CONNECT_RETRY":
			s.ConnectRetry, err = num()
		case "SOURCE_RETRY_COUNT":
			s.RetryCount, err = num()
		case "SOURCE_SSL":
			var n int
			n, err = num()
			s.SSL = n != 0
		case "SOURCE_AUTO_POSITION":
			var n int
			n, err = num()
			s.AutoPosition = n != 0
			coords.autoOn = n != 0
		case "SOURCE_LOG_FILE":
			coords.file, coords.p.File = true, str()
		case "SOURCE_LOG_POS":
			var n int
			if n, err = num(); err == nil && (n < 0 || n > math.MaxUint32) {
				err = mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; SOURCE_LOG_POS %d is out of range", n)
			}
			coords.pos, coords.p.Pos = true, uint32(n)
		default:
			return mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; %s is not supported here", o.Name)
		}
		if err != nil {
			return err
		}
	}
	if coords.file || coords.pos {
		return r.setCoordinatesLocked(ctx, s, coords.file, coords.pos, coords.autoOn, coords.p)
	}
	return r.saveLocked(ctx, s)
}

// setCoordinatesLocked is CHANGE REPLICATION SOURCE TO with
// SOURCE_LOG_FILE and/or SOURCE_LOG_POS: replication starts at that file
// and offset (MySQL's defaults: the current file, offset 4) and
// positions by file and offset from then on, so SOURCE_AUTO_POSITION
// is turned off (as MariaDB's MASTER_USE_GTID=no is with
// MASTER_LOG_FILE); naming SOURCE_AUTO_POSITION=1 in the same statement
// is MySQL's 1777. The source and the position are stored in one job.
func (r *Replica) setCoordinatesLocked(ctx context.Context, s *source, file, pos, autoOn bool, p position) error {
	if autoOn {
		return mysql.NewSQLError(errtable.ERAutoPositionRequiresGTIDModeOn, "HY000", "Parameters SOURCE_LOG_FILE, SOURCE_LOG_POS, RELAY_LOG_FILE and RELAY_LOG_POS cannot be set when SOURCE_AUTO_POSITION is active.")
	}
	old, err := r.position()
	if err != nil {
		return err
	}
	if !file {
		p.File = old.File
	}
	if !pos || p.Pos < 4 {
		p.Pos = 4
	}
	s.AutoPosition = false
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if err := r.e.Update(engine.Privileged(ctx), func(tx *engine.Job) error {
		if err := tx.SetBlob(sourceBlob, b); err != nil {
			return err
		}
		return tx.SetReplicaPosition(p.encode())
	}); err != nil {
		return err
	}
	r.src = s
	r.st.executed, r.st.retrieved, r.st.file, r.st.pos = "", "", p.File, p.Pos
	return nil
}

// SetReplicationFilterOptions implements CHANGE REPLICATION FILTER. Each
// option's value is a list of sql.UnresolvedTable (the SQL front builds
// them so for every option, see mariadb/replication.go): database names
// (the table name, no database) for REPLICATE_DO_DB and
// REPLICATE_IGNORE_DB, db.table for REPLICATE_DO_TABLE and
// REPLICATE_IGNORE_TABLE, a 'db_pattern.table_pattern' (the table name,
// no database) for REPLICATE_WILD_DO_TABLE and
// REPLICATE_WILD_IGNORE_TABLE, from_db.to_db pairs for
// REPLICATE_REWRITE_DB. An option replaces its list (an empty
// one clears it), a later option of a statement the earlier one; the
// options not named keep theirs. The filters are stored with the source.
func (r *Replica) SetReplicationFilterOptions(ctx *sql.Context, options []binlogreplication.ReplicationOption) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		return mysql.NewSQLError(errtable.ERSlaveMustStop, "HY000", "This operation cannot be performed as you have a running slave ''; run STOP SLAVE '' first")
	}
	s := r.sourceOrNew()
	f := s.filters
	for _, o := range options {
		v, ok := o.Value.(binlogreplication.TableNamesReplicationOptionValue)
		if !ok {
			return mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; %s takes a list of names", o.Name)
		}
		name := strings.ToUpper(o.Name)
		if name == "REPLICATE_REWRITE_DB" {
			var pairs [][2]string
			for _, t := range v.GetValueAsTableList() {
				if t.Database() == nil || t.Database().Name() == "" || t.Name() == "" {
					return mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; %s takes (from_db, to_db) pairs", o.Name)
				}
				pairs = append(pairs, [2]string{t.Database().Name(), t.Name()})
			}
			f.RewriteDBs = pairs
			continue
		}
		names := []string{} // not nil: the list is set, if to nothing
		for _, t := range v.GetValueAsTableList() {
			db := ""
			if t.Database() != nil {
				db = t.Database().Name()
			}
			switch name {
			case "REPLICATE_DO_TABLE", "REPLICATE_IGNORE_TABLE":
				if db == "" || t.Name() == "" {
					return mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; %s takes db.table names", o.Name)
				}
				names = append(names, db+"."+t.Name())
			case "REPLICATE_WILD_DO_TABLE", "REPLICATE_WILD_IGNORE_TABLE":
				if db != "" || !strings.Contains(t.Name(), ".") {
					return mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; %s takes 'db_pattern.table_pattern' strings", o.Name)
				}
				names = append(names, t.Name())
			default:
				if db != "" || t.Name() == "" {
					return mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; %s takes database names", o.Name)
				}
				names = append(names, t.Name())
			}
		}
		if len(names) == 0 {
			names = nil
		}
		switch name {
		case "REPLICATE_DO_DB":
			f.DoDBs = names
		case "REPLICATE_IGNORE_DB":
			f.IgnoreDBs = names
		case "REPLICATE_DO_TABLE":
			f.DoTables = names
		case "REPLICATE_IGNORE_TABLE":
			f.IgnoreTables = names
		case "REPLICATE_WILD_DO_TABLE":
			f.WildDoTables = names
		case "REPLICATE_WILD_IGNORE_TABLE":
			f.WildIgnoreTables = names
		default:
			return mysql.NewSQLError(mysql.ERParseError, "42000", "You have an error in your SQL syntax; %s is not supported here", o.Name)
		}
	}
	s.filters = f
	return r.saveLocked(ctx, s)
}

// GetReplicaStatus implements SHOW REPLICA STATUS: nil (no row) when no
// source is configured.
func (r *Replica) GetReplicaStatus(ctx *sql.Context) (*binlogreplication.ReplicaStatus, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.src == nil {
		return nil, nil
	}
	s, st := r.src, &r.st
	return &binlogreplication.ReplicaStatus{
		SourceHost:            s.Host,
		SourceUser:            s.User,
		SourcePort:            uint(s.Port),
		ConnectRetry:          uint32(s.ConnectRetry),
		SourceRetryCount:      uint64(s.RetryCount),
		ReplicaIoRunning:      st.io,
		ReplicaSqlRunning:     st.sql,
		LastSqlErrNumber:      st.sqlErrn,
		LastSqlError:          st.sqlErr,
		LastIoErrNumber:       st.ioErrno,
		LastIoError:           st.ioErr,
		SourceServerId:        st.sourceServerID,
		SourceServerUuid:      st.sourceUUID,
		LastSqlErrorTimestamp: st.sqlAt,
		LastIoErrorTimestamp:  st.ioErrAt,
		RetrievedGtidSet:      st.retrieved,
		ExecutedGtidSet:       st.executed,
		AutoPosition:          s.AutoPosition,
		ReplicateDoTables:     s.DoTables,
		ReplicateIgnoreTables: s.IgnoreTables,
	}, nil
}

// ResetReplica implements RESET REPLICA [ALL]: it forgets the position
// (the next START REPLICA reads the primary's binary log from its
// beginning) and the last errors; ALL also forgets the source and the
// filters.
func (r *Replica) ResetReplica(ctx *sql.Context, resetAll bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.cancel != nil {
		return mysql.NewSQLError(errtable.ERSlaveMustStop, "HY000", "This operation cannot be performed as you have a running slave ''; run STOP SLAVE '' first")
	}
	pos, err := r.position()
	if err != nil {
		return err
	}
	var keep []byte
	if pos.Copy {
		// An interrupted initial copy stays marked: the next start
		// drops its tables and copies again.
		keep = position{Copy: true}.encode()
	}
	err = r.e.Update(engine.Privileged(ctx), func(tx *engine.Job) error {
		if err := tx.SetReplicaPosition(keep); err != nil {
			return err
		}
		if resetAll {
			return tx.SetBlob(sourceBlob, nil)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if resetAll {
		r.src = nil
	}
	r.st = status{io: binlogreplication.ReplicaIoNotRunning, sql: binlogreplication.ReplicaSqlNotRunning}
	return nil
}

// Stats is a snapshot of the replica's progress, for metrics and tests.
type Stats struct {
	Running        bool   // the stream goroutine runs (connected or retrying)
	IO, SQL        string // Replica_IO_Running, Replica_SQL_Running
	Executed       string // the GTID set applied
	Applied        uint64 // transactions applied since the stream started
	Staged         uint64 // transactions applied as staged jobs (bigtxn.go) since the process started
	LastIOError    string
	LastSQLError   string
	SecondsBehind  int64 // Seconds_Behind_Source; -1 for NULL (see StatusExtra)
	LastSQLErrno   uint
	LastIOErrno    uint
	SourceServerID string
	// The initial copy: whether one runs, the rows it wrote (of the last
	// copy, once done), the primary's estimate of its rows, its rate and
	// the time it still needs (-1: unknown).
	Copying      bool
	CopyRows     uint64
	CopyEstimate uint64
	CopyRate     float64
	CopyETA      time.Duration
}

// Stats returns the replica's progress.
func (r *Replica) Stats() Stats {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := &r.st
	behind := r.secondsBehindLocked()
	out := Stats{
		Running: r.cancel != nil, IO: st.io, SQL: st.sql, Executed: st.executed, Applied: st.applied,
		LastIOError: st.ioErr, LastSQLError: st.sqlErr, LastSQLErrno: st.sqlErrn, LastIOErrno: st.ioErrno,
		SecondsBehind: behind, SourceServerID: st.sourceServerID, CopyETA: -1,
		Staged: r.staged.txns.Load(),
	}
	if p := st.copy; p != nil {
		out.Copying, out.CopyRows, out.CopyEstimate, out.CopyRate, out.CopyETA = true, p.rows, p.total, p.rate(), p.eta()
	} else if p := st.lastCopy; p != nil {
		out.CopyRows, out.CopyEstimate, out.CopyRate, out.CopyETA = p.rows, p.total, p.rate, 0
	}
	return out
}

// sqlErrorOf gives an apply error its MySQL number: through errtable for
// the engine's conditions, go-mysql-server's own numbers otherwise.
func sqlErrorOf(err error) (uint, string) {
	var me *mysql.SQLError
	if errors.As(err, &me) {
		return uint(me.Num), me.Message
	}
	if engine.KindOf(err) != nil {
		se := errtable.Lookup(err).SQLError(err)
		return uint(se.Num), se.Message
	}
	se := sql.CastSQLError(err)
	return uint(se.Num), se.Message
}

// StatusExtra is what SHOW REPLICA STATUS shows beyond go-mysql-server's
// binlogreplication.ReplicaStatus: the columns that go-mysql-server
// fills with constants, which the server replaces by these
// (server/replica.go).
type StatusExtra struct {
	IOState  string // Replica_IO_State
	SQLState string // Replica_SQL_Running_State; the initial copy's progress while it runs
	// SecondsBehind is Seconds_Behind_Source: now minus the primary's
	// timestamp of the event being applied, 0 when caught up, -1 (NULL)
	// unless both threads run (so also during the initial copy).
	SecondsBehind int64
	// The filter columns go-mysql-server leaves NULL, comma-separated as
	// MySQL prints them: Replicate_Do_DB, Replicate_Ignore_DB,
	// Replicate_Wild_Do_Table, Replicate_Wild_Ignore_Table.
	DoDB, IgnoreDB, WildDoTable, WildIgnoreTable string
	// RewriteDB is Replicate_Rewrite_DB: (from,to) pairs.
	RewriteDB string
	// File and Pos are the primary's binlog file and offset after the
	// last applied transaction (Source_Log_File, Read_Source_Log_Pos,
	// Relay_Source_Log_File, Exec_Source_Log_Pos).
	File string
	Pos  uint32
}

// StatusExtra returns the status columns described there.
func (r *Replica) StatusExtra() StatusExtra {
	r.mu.Lock()
	defer r.mu.Unlock()
	st := &r.st
	x := StatusExtra{SecondsBehind: r.secondsBehindLocked(), File: st.file, Pos: st.pos}
	if s := r.src; s != nil {
		x.DoDB, x.IgnoreDB = joinList(s.DoDBs), joinList(s.IgnoreDBs)
		x.WildDoTable, x.WildIgnoreTable = joinList(s.WildDoTables), joinList(s.WildIgnoreTables)
		x.RewriteDB = rewriteList(s.RewriteDBs)
	}
	switch st.io {
	case binlogreplication.ReplicaIoRunning:
		x.IOState = "Waiting for source to send event"
	case binlogreplication.ReplicaIoConnecting:
		x.IOState = "Connecting to source"
	}
	switch {
	case st.copy != nil:
		x.SQLState = st.copy.state()
	case st.sql != binlogreplication.ReplicaSqlRunning:
	case x.SecondsBehind == 0:
		x.SQLState = "Replica has read all relay log; waiting for more updates"
	case x.SecondsBehind > 0:
		x.SQLState = "Applying events from the source"
	}
	return x
}

// secondsBehindLocked is Seconds_Behind_Source (-1: NULL). The caller
// holds r.mu.
func (r *Replica) secondsBehindLocked() int64 {
	if r.cancel == nil || r.st.io != binlogreplication.ReplicaIoRunning || r.st.sql != binlogreplication.ReplicaSqlRunning || r.st.copy != nil {
		return -1
	}
	ts := r.eventTS.Load()
	if ts == 0 {
		return 0
	}
	return max(0, time.Now().Unix()-ts)
}
