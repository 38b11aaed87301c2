package server

import (
	"context"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/replica"
	"github.com/handlerdb/handlerdb/internal/sqlfront"
)

// startReplica builds the replica controller over the SQL front, makes it
// go-mysql-server's BinlogReplicaController (so CHANGE REPLICATION
// SOURCE, START/STOP/RESET REPLICA and SHOW REPLICA STATUS reach it),
// applies --replicate-from, and resumes replication the stored settings
// left running. Without the SQL front there is no replica (it applies
// the primary's DDL through that front).
func (s *Server) startReplica() error {
	sf, ok := s.sql.(*sqlfront.Server)
	if !ok {
		if s.cfg.ReplicateFrom != "" {
			return fmt.Errorf("server: --replicate-from needs the MySQL port (--port is -1)")
		}
		return nil
	}
	r, err := replica.New(s.e, replica.Options{Exec: replicaExec(sf), Logger: s.log})
	if err != nil {
		return err
	}
	sf.Engine().Analyzer.Catalog.BinlogReplicaController = r
	s.repl = r
	if s.cfg.ReplicateFrom != "" {
		src, err := config.ParseReplicateFrom(s.cfg.ReplicateFrom)
		if err != nil {
			return err
		}
		return r.Configure(context.Background(), src.Host, src.Port, src.User, src.Password)
	}
	return r.Resume()
}

// Replica returns the replica controller, nil without the MySQL port.
func (s *Server) Replica() *replica.Replica { return s.repl }

// replicaExec runs a statement of the primary through the SQL front's
// go-mysql-server engine, in a session of its own as root, with a
// privileged context (the engine is read-only for clients meanwhile).
func replicaExec(sf *sqlfront.Server) replica.ExecFunc {
	return func(ctx context.Context, st replica.Statement) error {
		base := sql.NewBaseSessionWithClientServer("", sql.Client{User: "root", Address: "localhost"}, 0)
		sess := sf.Provider().NewSession(base)
		sess.SetCurrentDatabase(st.DB)
		sctx := sql.NewContext(engine.Privileged(ctx), sql.WithSession(sess))
		for name, v := range st.Vars {
			if err := sess.SetSessionVariable(sctx, name, v); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
		}
		_, iter, _, err := sf.Engine().Query(sctx, st.Query)
		if err != nil {
			return err
		}
		_, err = sql.RowIterToRows(sctx, iter)
		return err
	}
}
