package sqlfront

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"

	"github.com/handlerdb/handlerdb/internal/sqlbackend"
)

// MariaDB's general query log and slow query log, as files.
//
// The general log (general_log, general_log_file) gets a line per
// connection, statement, prepare, execute (with its parameters written
// in), database change and disconnection; the slow query log
// (slow_query_log, slow_query_log_file, long_query_time) an entry per
// statement that ran for long_query_time seconds or more. Both are in
// MariaDB 10.11's format, so the tools that read those files
// (mysqldumpslow, pt-query-digest) read them. A file name that is not
// absolute is in the data directory; a file is opened (and created) at
// its first line and closed when its log is turned off or renamed.
// log_output = NONE writes neither; TABLE is not kept (there are no
// mysql.general_log and mysql.slow_log tables), so only FILE writes.
//
// The variables are global and process-wide, as go-mysql-server's are:
// their changes reach the logs through NotifyChanged (installQueryLogs),
// and the statement path reads two atomics while both logs are off.
// Rows_examined and Lock_time are 0 and Bytes_sent counts no bytes: the
// server does not count them per statement. Writes are serialized by
// each log's mutex.

// queryLog is one of the two log files.
type queryLog struct {
	on       atomic.Bool // the variable turning it on (general_log, slow_query_log)
	fileVar  string      // the variable naming its file
	defName  string      // the file's name by default, after the host's name
	mu       sync.Mutex
	name     string // the file name set (fileVar's value), "" for defName
	f        *os.File
	w        *bufio.Writer
	lastSec  int64  // the second of the last line or entry with a time
	lastDB   string // the slow log's database of its last `use`
	failures int    // opens that failed (logged once)
}

var (
	generalLog = &queryLog{fileVar: "general_log_file", defName: ".log"}
	slowLog    = &queryLog{fileVar: "slow_query_log_file", defName: "-slow.log"}
	// logToFile is log_output's FILE.
	logToFile atomic.Bool
	// logHeader is what a newly opened log file starts with (setLogServer).
	logHeader atomic.Pointer[string]
	// logDir is the data directory, for file names that are not absolute.
	logDir          atomic.Pointer[string]
	installLogsOnce sync.Once
)

// installQueryLogs replaces go-mysql-server's general_log, slow_query_log,
// their file variables and log_output by the same variables telling the
// logs of their changes, with the host's name in the default file names
// as MariaDB has it. Once per process, before the first session.
func installQueryLogs() {
	installLogsOnce.Do(func() {
		logToFile.Store(true)
		host, err := os.Hostname()
		if err != nil || host == "" {
			host = "handlerdb"
		}
		if i := strings.IndexByte(host, '.'); i > 0 {
			host = host[:i]
		}
		generalLog.defName = host + generalLog.defName
		slowLog.defName = host + slowLog.defName
		onOff := func(l *queryLog) func(*sql.Context, sql.SystemVariableScope, sql.SystemVarValue) error {
			return func(_ *sql.Context, scope sql.SystemVariableScope, v sql.SystemVarValue) error {
				if scope.IsGlobalOnly() {
					on, _ := v.Val.(int8)
					l.turn(on != 0)
				}
				return nil
			}
		}
		file := func(l *queryLog) func(*sql.Context, sql.SystemVariableScope, sql.SystemVarValue) error {
			return func(_ *sql.Context, scope sql.SystemVariableScope, v sql.SystemVarValue) error {
				if scope.IsGlobalOnly() {
					name, _ := v.Val.(string)
					l.rename(name)
				}
				return nil
			}
		}
		global := sql.GetMysqlScope(sql.SystemVariableScope_Global)
		sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{
			&sql.MysqlSystemVariable{Name: "general_log", Scope: global, Dynamic: true,
				Type: gmstypes.NewSystemBoolType("general_log"), Default: int8(0), NotifyChanged: onOff(generalLog)},
			&sql.MysqlSystemVariable{Name: "slow_query_log", Scope: global, Dynamic: true,
				Type: gmstypes.NewSystemBoolType("slow_query_log"), Default: int8(0), NotifyChanged: onOff(slowLog)},
			&sql.MysqlSystemVariable{Name: "general_log_file", Scope: global, Dynamic: true,
				Type: gmstypes.NewSystemStringType("general_log_file"), Default: generalLog.defName, NotifyChanged: file(generalLog)},
			&sql.MysqlSystemVariable{Name: "slow_query_log_file", Scope: global, Dynamic: true,
				Type: gmstypes.NewSystemStringType("slow_query_log_file"), Default: slowLog.defName, NotifyChanged: file(slowLog)},
			&sql.MysqlSystemVariable{Name: "log_output", Scope: global, Dynamic: true,
				Type: gmstypes.NewSystemSetType("log_output", sql.Collation_utf8mb4_general_ci, "TABLE", "FILE", "NONE"), Default: "FILE",
				NotifyChanged: func(_ *sql.Context, scope sql.SystemVariableScope, v sql.SystemVarValue) error {
					if scope.IsGlobalOnly() {
						s, _ := v.Val.(string)
						toFile := false
						for _, w := range strings.Split(strings.ToUpper(s), ",") {
							if w == "NONE" {
								toFile = false
								break
							}
							toFile = toFile || w == "FILE"
						}
						logToFile.Store(toFile)
					}
					return nil
				}},
		})
	})
}

// setLogServer gives the logs the data directory and the header of a new
// file (the server's version and port, as MariaDB writes them).
func setLogServer(dir, version, addr string) {
	logDir.Store(&dir)
	_, port, _ := net.SplitHostPort(addr)
	h := fmt.Sprintf("handlerdb, Version: %s. started with:\nTcp port: %s  Unix socket: \nTime\t\t    Id Command\tArgument\n", version, port)
	logHeader.Store(&h)
}

// turn switches the log on or off; off closes its file.
func (l *queryLog) turn(on bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.on.Store(on)
	if !on {
		l.closeFile()
	}
}

// rename sets the log's file name; the next line opens it.
func (l *queryLog) rename(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if name == l.defName {
		name = ""
	}
	if name != l.name {
		l.closeFile()
		l.name = name
	}
}

// closeFile flushes and closes the open file (l.mu held).
func (l *queryLog) closeFile() {
	if l.f == nil {
		return
	}
	_ = l.w.Flush()
	_ = l.f.Close()
	l.f, l.w, l.lastSec, l.lastDB = nil, nil, 0, ""
}

// writer returns the file's writer, opening it if needed, or nil when it
// cannot be opened (l.mu held).
func (l *queryLog) writer() *bufio.Writer {
	if l.f != nil {
		return l.w
	}
	name := l.name
	if name == "" {
		name = l.defName
	}
	if !filepath.IsAbs(name) {
		if d := logDir.Load(); d != nil {
			name = filepath.Join(*d, name)
		}
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o640)
	if err != nil {
		if lt := logTarget.Load(); l.failures == 0 && lt != nil {
			lt.Error("cannot open a query log file", "file", name, "err", err)
		}
		l.failures++
		return nil
	}
	l.f, l.w = f, bufio.NewWriter(f)
	if h := logHeader.Load(); h != nil {
		_, _ = l.w.WriteString(*h)
	}
	return l.w
}

// logging reports whether the log writes now.
func (l *queryLog) logging() bool { return l.on.Load() && logToFile.Load() }

// logTime formats t as the logs' time column: YYMMDD H:MM:SS.
func logTime(t time.Time) string {
	return fmt.Sprintf("%02d%02d%02d %2d:%02d:%02d", t.Year()%100, int(t.Month()), t.Day(), t.Hour(), t.Minute(), t.Second())
}

// write runs f with the log file's writer, opened if needed, and the
// time column's text when the second differs from the last line's
// written with one ("" otherwise); it flushes after. Nothing is written
// when the file cannot be opened.
func (l *queryLog) write(f func(w *bufio.Writer, stamp string)) {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	w := l.writer()
	if w == nil {
		return
	}
	stamp := ""
	if sec := now.Unix(); sec != l.lastSec {
		l.lastSec, stamp = sec, logTime(now)
	}
	f(w, stamp)
	_ = w.Flush()
}

// general writes one line of the general log: connection id, command
// (Connect, Query, Prepare, Execute, Init DB, Quit) and argument. The
// time is written when its second differs from the last line's.
func (l *queryLog) general(id uint32, command, arg string) {
	l.write(func(w *bufio.Writer, stamp string) {
		if stamp != "" {
			w.WriteString(stamp)
			w.WriteByte('\t')
		} else {
			w.WriteString("\t\t")
		}
		fmt.Fprintf(w, "%6d %s\t%s\n", id, command, arg)
	})
}

// slowEntry is what the slow log writes of one statement.
type slowEntry struct {
	start          time.Time
	elapsed        time.Duration
	user, ip, db   string
	id             uint32
	rows, affected uint64
	text           string
}

// slow writes one entry of the slow query log.
func (l *queryLog) slow(e *slowEntry) {
	l.write(func(w *bufio.Writer, stamp string) {
		if stamp != "" {
			fmt.Fprintf(w, "# Time: %s\n", stamp)
		}
		fmt.Fprintf(w, "# User@Host: %s[%s] @  [%s]\n", e.user, e.user, e.ip)
		fmt.Fprintf(w, "# Thread_id: %d  Schema: %s  QC_hit: No\n", e.id, e.db)
		fmt.Fprintf(w, "# Query_time: %.6f  Lock_time: 0.000000  Rows_sent: %d  Rows_examined: 0\n", e.elapsed.Seconds(), e.rows)
		fmt.Fprintf(w, "# Rows_affected: %d  Bytes_sent: 0\n", e.affected)
		if e.db != "" && e.db != l.lastDB {
			l.lastDB = e.db
			fmt.Fprintf(w, "use `%s`;\n", strings.ReplaceAll(e.db, "`", "``"))
		}
		fmt.Fprintf(w, "SET timestamp=%d;\n", e.start.Unix())
		w.WriteString(e.text)
		if !strings.HasSuffix(strings.TrimRight(e.text, " \t\r\n"), ";") {
			w.WriteByte(';')
		}
		w.WriteByte('\n')
	})
}

// stmtLog follows one statement for the slow query log: nil when that log
// is off. Its methods run on the connection's goroutine.
type stmtLog struct {
	start          time.Time
	text           string
	prepare        *mysql.PrepareData
	rows, affected uint64
}

// logStatement writes the general log's line of a statement (command
// Query or Execute, none when ""; text, or for an Execute the prepared
// statement with its parameters written in) and returns the slow log's
// watch of it (nil when that log is off).
func logStatement(c *mysql.Conn, command, text string, prepare *mysql.PrepareData) *stmtLog {
	if command != "" && generalLog.logging() {
		if prepare != nil {
			text = boundText(prepare)
		}
		generalLog.general(c.ConnectionID, command, text)
	}
	if !slowLog.logging() {
		return nil
	}
	return &stmtLog{start: time.Now(), text: text, prepare: prepare}
}

// count adds a result's rows to the statement's.
func (s *stmtLog) count(r *sqltypes.Result) {
	if r == nil {
		return
	}
	s.rows += uint64(len(r.Rows))
	if len(r.Fields) == 0 && len(r.Rows) == 0 {
		s.affected += r.RowsAffected // an OK packet's
	}
}

// done writes the slow log's entry of the statement when it ran for the
// session's long_query_time or more.
func (s *stmtLog) done(c *mysql.Conn) {
	elapsed := time.Since(s.start)
	sess, _ := c.ClientData.(*sqlbackend.Session)
	limit := 10.0
	db := ""
	if sess != nil {
		db = sess.GetCurrentDatabase()
		if v, err := sess.GetSessionVariable(sql.NewEmptyContext(), "long_query_time"); err == nil {
			if f, ok := v.(float64); ok {
				limit = f
			}
		}
	}
	if elapsed.Seconds() < limit {
		return
	}
	ip := ""
	if a := c.RemoteAddr(); a != nil {
		ip, _, _ = net.SplitHostPort(a.String())
	}
	text := s.text
	if s.prepare != nil {
		text = boundText(s.prepare)
	}
	slowLog.slow(&slowEntry{start: s.start, elapsed: elapsed, user: c.User, ip: ip, db: db, id: c.ConnectionID,
		rows: s.rows, affected: s.affected, text: text})
}

// logConnect writes the general log's Connect line of c (user, host,
// database, transport), when it is on.
func logConnect(c *mysql.Conn, db string, tls bool) {
	if !generalLog.logging() {
		return
	}
	host := ""
	if a := c.RemoteAddr(); a != nil {
		host, _, _ = net.SplitHostPort(a.String())
	}
	via := "TCP/IP"
	if tls {
		via = "SSL/TLS"
	}
	generalLog.general(c.ConnectionID, "Connect", fmt.Sprintf("%s@%s on %s using %s", c.User, host, db, via))
}

// logGeneral writes one general log line, when it is on.
func logGeneral(c *mysql.Conn, command, arg string) {
	if generalLog.logging() {
		generalLog.general(c.ConnectionID, command, arg)
	}
}

// boundText is a prepared statement's text with its parameters written
// in as SQL literals, as the general log shows an Execute: each ? outside
// strings, quoted names and comments takes the next parameter (v1, v2,
// ..., paramName's names).
func boundText(prepare *mysql.PrepareData) string {
	q := prepare.PrepareStmt
	if !strings.Contains(q, "?") {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		ch := q[i]
		switch {
		case ch == '\'' || ch == '"' || ch == '`':
			j := i + 1
			for j < len(q) && q[j] != ch {
				if q[j] == '\\' && ch != '`' {
					j++
				}
				j++
			}
			j = min(j+1, len(q))
			b.WriteString(q[i:j])
			i = j - 1
		case ch == '#' || ch == '-' && strings.HasPrefix(q[i:], "-- "):
			j := strings.IndexByte(q[i:], '\n')
			if j < 0 {
				j = len(q) - i
			}
			b.WriteString(q[i : i+j])
			i += j - 1
		case ch == '/' && strings.HasPrefix(q[i:], "/*"):
			j := strings.Index(q[i+2:], "*/")
			end := len(q)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			b.WriteString(q[i:end])
			i = end - 1
		case ch == '?':
			n++
			bv := prepare.BindVars[paramName(n-1)]
			if bv == nil {
				b.WriteByte('?')
				continue
			}
			v, err := sqltypes.BindVariableToValue(bv)
			if err != nil {
				b.WriteByte('?')
				continue
			}
			v.EncodeSQL(&b)
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}
