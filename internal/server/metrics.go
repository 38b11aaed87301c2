package server

import (
	"time"

	"github.com/handlerdb/handlerdb/internal/admin"
	"github.com/handlerdb/handlerdb/internal/hsfront"
	"github.com/handlerdb/handlerdb/internal/mcfront"
	"github.com/handlerdb/handlerdb/internal/mcproto"
	"github.com/handlerdb/handlerdb/internal/replica"
	"github.com/handlerdb/handlerdb/internal/sqlfront"
)

// The admin listener's metrics read the fronts through admin's small
// interfaces (FrontSource, ReplicaSource); these adapters give them each
// front's counters, read atomically at scrape time.

// hsOpNames are the HandlerSocket request classes, indexed by hsfront.Op.
func hsOpNames() []string {
	names := make([]string, hsfront.NumOps)
	for op := hsfront.Op(0); op < hsfront.NumOps; op++ {
		names[op] = op.String()
	}
	return names
}

// observeHS is the HandlerSocket front's Observe hook over m.
func observeHS(m *admin.Metrics) func(write bool, op hsfront.Op, ok bool, d time.Duration, n int) {
	return func(write bool, op hsfront.Op, ok bool, d time.Duration, n int) {
		m.ObserveHS(write, int(op), ok, d, n)
	}
}

var results = [2]string{"ok", "error"}

// hsSource is the HandlerSocket front as a metrics source.
type hsSource struct{ s *hsfront.Server }

func (h hsSource) FrontCounters() admin.FrontCounters {
	st := h.s.Stats()
	c := admin.FrontCounters{Front: "handlersocket",
		AuthFail: st.AuthFail.Load(), Accepted: st.Accepted.Load(), Refused: st.Refused.Load(),
		RefusedPeer: st.RefusedPeer.Load(), Expired: st.Expired.Load(), AuthBackoff: h.s.AuthBackoffs()}
	ports := [2]string{"read", "write"}
	for p := range ports {
		for op := hsfront.Op(0); op < hsfront.NumOps; op++ {
			for r, res := range results {
				if v := st.Ops[p][op][r].Load(); v > 0 {
					c.Requests = append(c.Requests, admin.RequestCount{Port: ports[p], Op: op.String(), Result: res, N: v})
				}
			}
		}
		c.Conns = append(c.Conns, admin.PortCount{Port: ports[p], N: st.Open[p].Load()})
	}
	return c
}

// sqlSource is the MySQL front as a metrics source.
type sqlSource struct{ st *sqlfront.Stats }

func (s sqlSource) FrontCounters() admin.FrontCounters {
	st := s.st
	c := admin.FrontCounters{Front: "mysql",
		AuthFail: st.AuthFail.Load(), Accepted: -1, Refused: st.Refused.Load(),
		RefusedPeer: -1, Expired: st.ConnectTimeouts.Load(), AuthBackoff: -1,
		Conns: []admin.PortCount{{Port: "sql", N: st.Connections.Load()}}}
	for k := 0; k < sqlfront.NumStmts; k++ {
		for r, res := range results {
			if v := st.Queries[k][r].Load(); v > 0 {
				c.Requests = append(c.Requests, admin.RequestCount{Port: "sql", Op: sqlfront.StmtNames[k], Result: res, N: v})
			}
		}
	}
	return c
}

// replicaSource is the replica as a metrics source.
type replicaSource struct{ r *replica.Replica }

func (s replicaSource) ReplicaCounters() admin.ReplicaCounters {
	st := s.r.Stats()
	return admin.ReplicaCounters{
		IORunning: st.IO == "Yes", SQLRunning: st.SQL == "Yes", SecondsBehind: st.SecondsBehind,
		Applied: st.Applied, Staged: st.Staged, LastIOErrno: st.LastIOErrno, LastSQLErrno: st.LastSQLErrno,
		Copying: st.Copying, CopyRows: st.CopyRows, CopyEstimate: st.CopyEstimate, CopyRate: st.CopyRate, CopyETA: st.CopyETA,
	}
}

// mcSource is the memcached front as a metrics source: requests by
// command and result, and the keys retrievals found (op get_key, result
// hit, miss or expired).
type mcSource struct{ s *mcfront.Server }

func (m mcSource) FrontCounters() admin.FrontCounters {
	st := m.s.Stats()
	c := admin.FrontCounters{Front: "memcached", AuthFail: -1, Accepted: st.Accepted.Load(), Refused: st.Refused.Load(),
		RefusedPeer: st.RefusedPeer.Load(), Expired: st.Expired.Load(), AuthBackoff: -1,
		Conns: []admin.PortCount{{Port: "memcached", N: st.Open.Load()}}}
	for cmd := mcproto.Cmd(1); cmd < mcproto.NumAllCmds; cmd++ {
		for r, res := range results {
			if v := st.Cmds[cmd][r].Load(); v > 0 {
				c.Requests = append(c.Requests, admin.RequestCount{Port: "memcached", Op: cmd.String(), Result: res, N: v})
			}
		}
	}
	for _, k := range []struct {
		res string
		n   int64
	}{{"hit", st.GetHits.Load()}, {"miss", st.GetMisses.Load() - st.GetExpired.Load()}, {"expired", st.GetExpired.Load()}} {
		if k.n > 0 {
			c.Requests = append(c.Requests, admin.RequestCount{Port: "memcached", Op: "get_key", Result: k.res, N: k.n})
		}
	}
	return c
}
