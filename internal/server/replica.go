package server

import (
	"context"
	"fmt"

	"github.com/dolthub/go-mysql-server/sql"
	"github.com/dolthub/go-mysql-server/sql/plan"

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
	opts := replica.Options{Exec: replicaExec(sf), Logger: s.log, StageBytes: s.cfg.ReplicaStageBytes,
		SemiSync: sqlfront.SemiSyncReplica}
	if bl := s.binlog; bl != nil {
		// A staged transaction's rows are ingested, outside the change
		// feed, so the replica's own binary log would miss them (its
		// replicas too): with a log, every transaction is a plain job.
		opts.StageBytes = -1
		opts.CopiedAt = bl.StartAt
		opts.OwnGTID = func() string {
			g, _ := bl.GTIDPosition()
			return g
		}
	}
	r, err := replica.New(s.e, opts)
	if err != nil {
		return err
	}
	sf.Engine().Analyzer.Catalog.BinlogReplicaController = r
	// Before the listener starts: no statement runs yet.
	a := sf.Engine().Analyzer
	a.ExecBuilder = statusBuilder{NodeExecBuilder: a.ExecBuilder, r: r}
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
		// The statement's text goes with it: the backend reads what
		// go-mysql-server's types do not keep (TIME(n), FLOAT(M,D),
		// integer display widths) from ctx.Query (declaredType).
		sctx := sql.NewContext(engine.Privileged(ctx), sql.WithSession(sess), sql.WithQuery(st.Query))
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

// statusBuilder is go-mysql-server's executor with SHOW REPLICA STATUS
// (and SHOW SLAVE STATUS) completed: go-mysql-server fills
// Seconds_Behind_Source, the two state columns and the binlog file and
// offsets with constants, and leaves four of the filter columns NULL;
// replica.StatusExtra has them. Every other
// statement runs as it would. Safe for concurrent use.
type statusBuilder struct {
	sql.NodeExecBuilder
	r *replica.Replica
}

// Build implements sql.NodeExecBuilder.
func (b statusBuilder) Build(ctx *sql.Context, n sql.Node, row sql.Row) (sql.RowIter, error) {
	iter, err := b.NodeExecBuilder.Build(ctx, n, row)
	if err != nil || !isShowReplicaStatus(n) {
		return iter, err
	}
	return &statusIter{RowIter: iter, x: b.r.StatusExtra()}, nil
}

// isShowReplicaStatus reports a plan of SHOW REPLICA STATUS: the node
// itself under at most a few one-child wrappers (QueryProcess).
func isShowReplicaStatus(n sql.Node) bool {
	for range 4 {
		if _, ok := n.(*plan.ShowReplicaStatus); ok {
			return true
		}
		ch := n.Children()
		if len(ch) != 1 {
			return false
		}
		n = ch[0]
	}
	return false
}

// The columns of SHOW REPLICA STATUS that statusIter fills, by position
// (SHOW SLAVE STATUS has the same order under older names).
var statusCols = func() map[string]int {
	m := map[string]int{}
	for i, c := range plan.NewShowReplicaStatus().Schema() {
		switch c.Name {
		case "Replica_IO_State", "Source_Log_File", "Read_Source_Log_Pos", "Relay_Source_Log_File",
			"Exec_Source_Log_Pos", "Seconds_Behind_Source", "Replica_SQL_Running_State",
			"Replicate_Do_DB", "Replicate_Ignore_DB", "Replicate_Wild_Do_Table", "Replicate_Wild_Ignore_Table",
			"Replicate_Rewrite_DB":
			m[c.Name] = i
		}
	}
	return m
}()

// statusIter replaces those columns in the status row.
type statusIter struct {
	sql.RowIter
	x replica.StatusExtra
}

func (it *statusIter) Next(ctx *sql.Context) (sql.Row, error) {
	row, err := it.RowIter.Next(ctx)
	if err != nil || len(row) <= statusCols["Replica_SQL_Running_State"] {
		return row, err
	}
	row = append(sql.Row(nil), row...)
	x := &it.x
	set := func(col string, v any) { row[statusCols[col]] = v }
	set("Replica_IO_State", x.IOState)
	set("Replica_SQL_Running_State", x.SQLState)
	if x.SecondsBehind < 0 {
		set("Seconds_Behind_Source", nil)
	} else {
		set("Seconds_Behind_Source", x.SecondsBehind)
	}
	set("Source_Log_File", x.File)
	set("Relay_Source_Log_File", x.File)
	set("Read_Source_Log_Pos", x.Pos)
	set("Exec_Source_Log_Pos", x.Pos)
	set("Replicate_Do_DB", x.DoDB)
	set("Replicate_Ignore_DB", x.IgnoreDB)
	set("Replicate_Wild_Do_Table", x.WildDoTable)
	set("Replicate_Wild_Ignore_Table", x.WildIgnoreTable)
	set("Replicate_Rewrite_DB", x.RewriteDB)
	return row, nil
}
