package sqlfront

import (
	"context"
	"encoding/binary"
	"errors"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/vitess/go/mysql"
	"github.com/dolthub/vitess/go/sqltypes"
	querypb "github.com/dolthub/vitess/go/vt/proto/query"

	"github.com/handlerdb/handlerdb/internal/binlog"
	"github.com/handlerdb/handlerdb/internal/errtable"
)

// The binary log's statements go-mysql-server does not have: SHOW
// BINLOG EVENTS, PURGE BINARY LOGS, SHOW SLAVE HOSTS (SHOW REPLICA
// HOSTS, SHOW REPLICAS), answered here from the log and the
// connections' registrations, as MariaDB 10.11 answers them.

var (
	showEventsRe = regexp.MustCompile(`(?is)^\s*SHOW\s+BINLOG\s+EVENTS(?:\s+IN\s+'([^']*)')?(?:\s+FROM\s+(\d+))?(?:\s+LIMIT\s+(\d+)(?:\s*,\s*(\d+))?)?\s*;?\s*$`)
	showHostsRe  = regexp.MustCompile(`(?is)^\s*SHOW\s+(?:(?:SLAVE|REPLICA)\s+HOSTS|REPLICAS)\s*;?\s*$`)
	purgeRe      = regexp.MustCompile(`(?is)^\s*PURGE\s+(?:BINARY|MASTER)\s+LOGS\s+(?:TO\s+'([^']*)'|BEFORE\s+(.+?))\s*;?\s*$`)
)

// replicaHost is a replica's registration (COM_REGISTER_SLAVE).
type replicaHost struct {
	serverID, masterID uint32
	host               string
	port               uint16
}

// parseRegistration reads COM_REGISTER_SLAVE's payload: the server id,
// the host, user and password (each a length and its bytes), the port,
// the rank and the primary's id. What it cannot read stays zero.
func parseRegistration(p []byte) *replicaHost {
	r := &replicaHost{}
	if len(p) < 4 {
		return r
	}
	r.serverID, p = binary.LittleEndian.Uint32(p), p[4:]
	for i := range 3 {
		if len(p) < 1 || len(p) < 1+int(p[0]) {
			return r
		}
		n := 1 + int(p[0])
		if i == 0 {
			r.host = string(p[1:n])
		}
		p = p[n:]
	}
	if len(p) >= 2 {
		r.port, p = binary.LittleEndian.Uint16(p), p[2:]
	}
	if len(p) >= 8 {
		r.masterID = binary.LittleEndian.Uint32(p[4:])
	}
	return r
}

// binlogStatement answers the statements above; done is false for any
// other.
func (h *mariaHandler) binlogStatement(ctx context.Context, c *mysql.Conn, query string, cb mysql.ResultSpoolFn) (done bool, err error) {
	q := trimBlanks(query, false)
	if len(q) < 5 || !(strings.EqualFold(q[:5], "show ") || strings.EqualFold(q[:5], "purge")) {
		return false, nil
	}
	s := h.srv.Load()
	if s == nil {
		return false, nil
	}
	l := s.cfg.Binlog
	if m := showEventsRe.FindStringSubmatch(q); m != nil {
		if !h.hasPrivilege(c, sql.PrivilegeType_ReplicationSlave, sql.PrivilegeType_Super) {
			return true, sqlError(mysql.ERSpecifiedAccessDenied, "REPLICATION SLAVE")
		}
		return true, showEvents(ctx, l, m, cb)
	}
	if showHostsRe.MatchString(q) {
		if !h.hasPrivilege(c, sql.PrivilegeType_ReplicationSlave, sql.PrivilegeType_Super) {
			return true, sqlError(mysql.ERSpecifiedAccessDenied, "REPLICATION SLAVE")
		}
		return true, h.showHosts(s, cb)
	}
	if m := purgeRe.FindStringSubmatch(q); m != nil {
		if !h.hasPrivilege(c, sql.PrivilegeType_Super) {
			return true, sqlError(mysql.ERSpecifiedAccessDenied, "SUPER")
		}
		if l == nil {
			return true, sqlError(errtable.ERNoBinaryLogging)
		}
		if m[2] == "" {
			// TO 'file': every file before it goes; the log has one.
			if m[1] != binlog.FileName {
				return true, sqlError(errtable.ERUnknownTargetBinlog)
			}
			return true, cb(&sqltypes.Result{}, false)
		}
		before, err := h.evalDatetime(ctx, c, m[2])
		if err != nil {
			return true, err
		}
		if _, err := l.PurgeBefore(ctx, before); err != nil {
			return true, err
		}
		return true, cb(&sqltypes.Result{}, false)
	}
	return false, nil
}

// hasPrivilege reports whether c's account has one of the global
// privileges ps (every account has all when accounts are off).
func (h *mariaHandler) hasPrivilege(c *mysql.Conn, ps ...sql.PrivilegeType) bool {
	if h.mdb == nil || !h.mdb.Enabled() {
		return true
	}
	rd := h.mdb.Reader()
	defer rd.Close()
	u := h.mdb.GetUser(rd, c.User, remoteHost(c.RemoteAddr()), false)
	return u != nil && slices.ContainsFunc(ps, func(p sql.PrivilegeType) bool { return u.PrivilegeSet.Has(p) })
}

// evalDatetime evaluates PURGE ... BEFORE's expression as a DATETIME in
// the session (NOW() - INTERVAL 3 DAY, a literal, ...).
func (h *mariaHandler) evalDatetime(ctx context.Context, c *mysql.Conn, expr string) (time.Time, error) {
	var v string
	var null bool
	err := h.Handler.ComQuery(ctx, c, "SELECT CAST(("+expr+") AS DATETIME(6))", func(r *sqltypes.Result, _ bool) error {
		if len(r.Rows) == 1 && len(r.Rows[0]) == 1 {
			null = r.Rows[0][0].IsNull()
			v = r.Rows[0][0].ToString()
		}
		return nil
	})
	if err != nil {
		return time.Time{}, err
	}
	if null || v == "" {
		// (MariaDB purges nothing for a value that is no date)
		return time.Time{}, nil
	}
	t, err := time.ParseInLocation("2006-01-02 15:04:05.999999", v, time.Local)
	if err != nil {
		return time.Time{}, nil
	}
	return t, nil
}

// showEvents answers SHOW BINLOG EVENTS (m: its IN, FROM and LIMIT).
func showEvents(ctx context.Context, l *binlog.Log, m []string, cb mysql.ResultSpoolFn) error {
	res := &sqltypes.Result{Fields: []*querypb.Field{
		{Name: "Log_name", Type: querypb.Type_VARCHAR, Charset: 33, ColumnLength: 80},
		{Name: "Pos", Type: querypb.Type_UINT64, Charset: 63, ColumnLength: 20},
		{Name: "Event_type", Type: querypb.Type_VARCHAR, Charset: 33, ColumnLength: 60},
		{Name: "Server_id", Type: querypb.Type_UINT32, Charset: 63, ColumnLength: 10},
		{Name: "End_log_pos", Type: querypb.Type_UINT64, Charset: 63, ColumnLength: 20},
		{Name: "Info", Type: querypb.Type_VARCHAR, Charset: 33, ColumnLength: 1024},
	}}
	if l == nil {
		return cb(res, false) // (no log: no events, as MariaDB without log_bin)
	}
	from, _ := strconv.ParseUint(m[2], 10, 64)
	offset, count := int64(0), int64(-1)
	if m[3] != "" {
		count, _ = strconv.ParseInt(m[3], 10, 64)
		if m[4] != "" {
			offset, _ = strconv.ParseInt(m[4], 10, 64)
			offset, count = count, offset
		}
	}
	rows, err := l.ShowEvents(ctx, m[1], from, offset, count)
	switch {
	case errors.Is(err, binlog.ErrNoLog):
		return sqlError(errtable.ERErrorWhenExecutingCommand, "SHOW BINLOG EVENTS", "Could not find target log")
	case errors.Is(err, binlog.ErrOffset):
		return sqlError(errtable.ERErrorWhenExecutingCommand, "SHOW BINLOG EVENTS", "Wrong offset or I/O error")
	case err != nil:
		return err
	}
	for _, r := range rows {
		res.Rows = append(res.Rows, []sqltypes.Value{
			sqltypes.NewVarChar(binlog.FileName),
			sqltypes.NewUint64(r.Pos),
			sqltypes.NewVarChar(r.Type),
			sqltypes.NewUint32(r.ServerID),
			sqltypes.NewUint64(r.End),
			sqltypes.NewVarChar(r.Info),
		})
	}
	return cb(res, false)
}

// showHosts answers SHOW SLAVE HOSTS: the replicas registered on
// connections that are open.
func (h *mariaHandler) showHosts(s *Server, cb mysql.ResultSpoolFn) error {
	res := &sqltypes.Result{Fields: []*querypb.Field{
		{Name: "Server_id", Type: querypb.Type_UINT32, Charset: 63, ColumnLength: 10},
		{Name: "Host", Type: querypb.Type_VARCHAR, Charset: 33, ColumnLength: 180},
		{Name: "Port", Type: querypb.Type_UINT32, Charset: 63, ColumnLength: 7},
		{Name: "Master_id", Type: querypb.Type_UINT32, Charset: 63, ColumnLength: 10},
	}}
	self := s.cfg.ServerID
	if self == 0 {
		self = 1
	}
	s.conns.m.Range(func(_, v any) bool {
		if r := v.(*wireConn).replica.Load(); r != nil {
			master := r.masterID
			if master == 0 {
				master = self // (as MariaDB: a replica that names no primary names this one)
			}
			res.Rows = append(res.Rows, []sqltypes.Value{sqltypes.NewUint32(r.serverID), sqltypes.NewVarChar(r.host),
				sqltypes.NewUint32(uint32(r.port)), sqltypes.NewUint32(master)})
		}
		return true
	})
	return cb(res, false)
}
