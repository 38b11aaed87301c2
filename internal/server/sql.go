package server

import (
	"fmt"

	"github.com/handlerdb/handlerdb/internal/binlog"
	"github.com/handlerdb/handlerdb/internal/sqlfront"
)

// newSQL builds the MySQL front (its port is open, nothing is accepted
// until Start) when the port is enabled.
func (s *Server) newSQL() error {
	if s.cfg.Port < 0 {
		return nil
	}
	scfg := sqlConfig(&s.cfg)
	scfg.TLS = s.tls
	if s.cfg.LogBin {
		// (from here every committed row change is logged, in the
		// batch that commits it)
		bl, err := binlog.Open(s.e, s.cfg.ServerID)
		if err != nil {
			return fmt.Errorf("server: binary log: %w", err)
		}
		scfg.Binlog = bl
		if s.cfg.BinlogExpire > 0 || s.cfg.BinlogMaxTotalSize > 0 {
			scfg.Binlog.ExpireAfter(s.cfg.BinlogExpire, s.cfg.BinlogMaxTotalSize)
		}
		s.binlog = scfg.Binlog
	}
	scfg.ExtraProcesses = s.hsProcesses
	f, err := sqlfront.New(s.e, scfg)
	if err != nil {
		return err
	}
	s.sql = f
	return nil
}

// hsProcesses lists the HandlerSocket connections for SHOW PROCESSLIST:
// the port, peer, open indexes, requests served and state.
func (s *Server) hsProcesses() []sqlfront.ExternalProcess {
	if s.hs == nil {
		return nil
	}
	conns := s.hs.Conns()
	out := make([]sqlfront.ExternalProcess, 0, len(conns))
	for _, c := range conns {
		port := "read"
		if c.Write {
			port = "write"
		}
		out = append(out, sqlfront.ExternalProcess{
			ID:      uint32(c.ID),
			Host:    c.Peer,
			Command: "HandlerSocket",
			Since:   c.Since,
			Info:    fmt.Sprintf("port=%s open_indexes=%d requests=%d state=%s", port, c.OpenIndex, c.Requests, c.State),
		})
	}
	return out
}
