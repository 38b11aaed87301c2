package server

import "github.com/handlerdb/handlerdb/internal/sqlfront"

// startSQL starts the MySQL front when its port is enabled.
func (s *Server) startSQL() error {
	addr := s.cfg.Addr(s.cfg.Port)
	if addr == "" {
		return nil
	}
	f, err := sqlfront.New(s.e, sqlfront.Config{Address: addr, RootPassword: s.cfg.RootPassword, RootHost: s.cfg.RootHost})
	if err != nil {
		return err
	}
	if err := f.Start(); err != nil {
		f.Close()
		return err
	}
	s.sql = f
	return nil
}
