package sqlfront

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/dolthub/go-mysql-server/sql"
	gmstypes "github.com/dolthub/go-mysql-server/sql/types"

	"github.com/handlerdb/handlerdb/internal/binlog"
	"github.com/handlerdb/handlerdb/internal/mariadb"
)

// Semi-synchronous replication's variables, as MariaDB names them (and
// MySQL's rpl_semi_sync_master_wait_for_slave_count): SET GLOBAL changes
// the semi-sync state of the binary log (binlog.Semisync), and the status
// variables Rpl_semi_sync_master_* read it. Like go-mysql-server's
// variables they are the process's: they act on the last started
// server's log (activeBinlog).

// semiVars are the variables the primary's settings come from.
var semiVars = []string{"rpl_semi_sync_master_enabled", "rpl_semi_sync_master_timeout",
	"rpl_semi_sync_master_wait_for_slave_count", "rpl_semi_sync_master_wait_no_slave"}

// defineSemisyncVars adds the variables and the status variables (once
// per process, from defineReplicationVars).
func defineSemisyncVars() {
	global := sql.GetMysqlScope(sql.SystemVariableScope_Global)
	notify := func(ctx *sql.Context, _ sql.SystemVariableScope, v sql.SystemVarValue) error {
		set := semiSettings(v.Var.GetName(), v.Val)
		if l := activeBinlog.Load(); l != nil {
			l.Semisync().Configure(set)
		}
		return nil
	}
	sql.SystemVariables.AddSystemVariables([]sql.SystemVariable{
		&sql.MysqlSystemVariable{Name: "rpl_semi_sync_master_enabled", Scope: global, Dynamic: true,
			Type: gmstypes.NewSystemBoolType("rpl_semi_sync_master_enabled"), Default: int8(0), NotifyChanged: notify},
		&sql.MysqlSystemVariable{Name: "rpl_semi_sync_master_timeout", Scope: global, Dynamic: true,
			Type: gmstypes.NewSystemUintType("rpl_semi_sync_master_timeout", 0, 1<<32-1), Default: uint64(10000), NotifyChanged: notify},
		&sql.MysqlSystemVariable{Name: "rpl_semi_sync_master_wait_for_slave_count", Scope: global, Dynamic: true,
			Type: gmstypes.NewSystemUintType("rpl_semi_sync_master_wait_for_slave_count", 1, 65535), Default: uint64(1), NotifyChanged: notify},
		&sql.MysqlSystemVariable{Name: "rpl_semi_sync_master_wait_no_slave", Scope: global, Dynamic: true,
			Type: gmstypes.NewSystemBoolType("rpl_semi_sync_master_wait_no_slave"), Default: int8(1), NotifyChanged: notify},
		// (a transaction's rows are visible before its replicas have it,
		// as with MariaDB's default)
		&sql.MysqlSystemVariable{Name: "rpl_semi_sync_master_wait_point", Scope: global,
			Type: gmstypes.NewSystemEnumType("rpl_semi_sync_master_wait_point", "AFTER_COMMIT"), Default: "AFTER_COMMIT"},
		// The replica's side: a HandlerDB replica acknowledges when its
		// primary has semi-sync (read when the replica connects).
		&sql.MysqlSystemVariable{Name: "rpl_semi_sync_slave_enabled", Scope: global, Dynamic: true,
			Type: gmstypes.NewSystemBoolType("rpl_semi_sync_slave_enabled"), Default: int8(0)},
	})
	stats := func() binlog.SemiStats {
		if l := activeBinlog.Load(); l != nil {
			return l.Semisync().Stats()
		}
		return binlog.SemiStats{}
	}
	onOff := func(b bool) interface{} {
		if b {
			return "ON"
		}
		return "OFF"
	}
	for name, fn := range map[string]func(binlog.SemiStats) interface{}{
		"Rpl_semi_sync_master_status":        func(s binlog.SemiStats) interface{} { return onOff(s.Status) },
		"Rpl_semi_sync_master_clients":       func(s binlog.SemiStats) interface{} { return uint64(s.Clients) },
		"Rpl_semi_sync_master_yes_tx":        func(s binlog.SemiStats) interface{} { return s.YesTx },
		"Rpl_semi_sync_master_no_tx":         func(s binlog.SemiStats) interface{} { return s.NoTx },
		"Rpl_semi_sync_master_no_times":      func(s binlog.SemiStats) interface{} { return s.NoTimes },
		"Rpl_semi_sync_master_get_ack":       func(s binlog.SemiStats) interface{} { return s.GetAck },
		"Rpl_semi_sync_master_request_ack":   func(s binlog.SemiStats) interface{} { return s.RequestAck },
		"Rpl_semi_sync_master_tx_waits":      func(s binlog.SemiStats) interface{} { return s.TxWaits },
		"Rpl_semi_sync_master_tx_wait_time":  func(s binlog.SemiStats) interface{} { return s.TxWaitTime },
		"Rpl_semi_sync_master_wait_sessions": func(s binlog.SemiStats) interface{} { return uint64(s.WaitSessions) },
		"Rpl_semi_sync_master_tx_avg_wait_time": func(s binlog.SemiStats) interface{} {
			if s.TxWaits == 0 {
				return uint64(0)
			}
			return s.TxWaitTime / s.TxWaits
		},
	} {
		mariadb.SetLiveStatus(name, func() interface{} { return fn(stats()) })
	}
}

// semiValues are the semi-sync variables' global values, kept here as
// they change: NotifyChanged runs under the registry's lock, where
// reading another global would wait for it forever.
var semiValues = struct {
	sync.Mutex
	v map[string]int64
}{v: map[string]int64{semiVars[0]: 0, semiVars[1]: 10000, semiVars[2]: 1, semiVars[3]: 1}}

// semiSettings notes name's new value v (name "": none) and returns the
// settings.
func semiSettings(name string, v interface{}) binlog.SemiSettings {
	semiValues.Lock()
	defer semiValues.Unlock()
	if name != "" {
		n, _, _ := gmstypes.Int64.Convert(context.Background(), v) // (the variables' int8 and uint64)
		semiValues.v[name], _ = n.(int64)
	}
	get := func(i int) int64 { return semiValues.v[semiVars[i]] }
	return binlog.SemiSettings{Enabled: get(0) != 0, Timeout: time.Duration(get(1)) * time.Millisecond,
		Count: int(get(2)), WaitNoReplica: get(3) != 0}
}

// startSemisync gives a starting server's log the settings in force and
// logs each switch of its status.
func startSemisync(l *binlog.Log) {
	s := l.Semisync()
	s.OnSwitch(func(on bool, seq uint64) {
		if on {
			logWire(slog.LevelInfo, "semi-sync replication switched ON", "transaction", seq)
		} else {
			logWire(slog.LevelWarn, "semi-sync replication switched OFF", "transaction", seq)
		}
	})
	s.Configure(semiSettings("", nil))
}

// semiReplica reports whether the dump's replica asked for semi-sync
// (@rpl_semi_sync_slave, MySQL 8's @rpl_semi_sync_replica).
func (w *wireConn) semiReplica() bool {
	return w.userVariable("rpl_semi_sync_slave") == "1" || w.userVariable("rpl_semi_sync_replica") == "1"
}

// readAcks reads a semi-sync replica's acknowledgements until the
// connection ends (the dump writes meanwhile); a malformed one is
// ignored (it acknowledges nothing).
func (w *wireConn) readAcks(r *binlog.SemiReplica) {
	var buf []byte
	for {
		p, err := w.pc.ReadSidePacket(buf, 1<<10)
		if err != nil {
			return
		}
		buf = p
		_ = r.Ack(p)
	}
}

// SemiSyncReplica reports whether a HandlerDB replica acknowledges its
// primary's events (SET GLOBAL rpl_semi_sync_slave_enabled).
func SemiSyncReplica() bool {
	_, v, _ := sql.SystemVariables.GetGlobal("rpl_semi_sync_slave_enabled")
	x, ok := v.(int8)
	return ok && x != 0
}
