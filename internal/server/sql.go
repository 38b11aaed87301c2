package server

// startSQL starts the MySQL front when its port is enabled.
func (s *Server) startSQL() error {
	return nil
}
