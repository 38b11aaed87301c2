package main

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"sync/atomic"

	"github.com/go-sql-driver/mysql"
)

// mysqlTarget benchmarks the MySQL protocol with go-sql-driver/mysql, with
// prepared statements (binary protocol) or text queries whose parameters
// the driver interpolates.
type mysqlTarget struct {
	o        *options
	db       *sql.DB
	prepared bool
	bytes    atomic.Int64
	gen      atomic.Int64
	q        map[opKind]string
}

func openMySQL(ctx context.Context, o *options, dsn string, prepared bool) (*mysqlTarget, error) {
	cfg, err := mysql.ParseDSN(dsn)
	if err != nil {
		return nil, fmt.Errorf("--mysql: %w", err)
	}
	t := &mysqlTarget{o: o, prepared: prepared}
	cfg.InterpolateParams = !prepared
	cfg.DialFunc = func(ctx context.Context, network, addr string) (net.Conn, error) {
		var d net.Dialer
		nc, err := d.DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		return countingConn{Conn: nc, n: &t.bytes}, nil
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, err
	}
	t.db = sql.OpenDB(conn)
	t.db.SetMaxOpenConns(o.conns + 1)
	t.db.SetMaxIdleConns(o.conns + 1)
	if err := t.db.PingContext(ctx); err != nil {
		t.db.Close()
		return nil, err
	}
	tbl := "`" + o.db + "`.`" + o.table + "`"
	t.q = map[opKind]string{
		opGet:    "SELECT id, name, email, created FROM " + tbl + " WHERE id = ?",
		opRange:  "SELECT id, name, email, created FROM " + tbl + " WHERE id >= ? ORDER BY id LIMIT ?",
		opInsert: "INSERT INTO " + tbl + " (id, name, email, created) VALUES (?, ?, ?, ?)",
		opUpdate: "UPDATE " + tbl + " SET email = ? WHERE id = ?",
		opDelete: "DELETE FROM " + tbl + " WHERE id = ?",
	}
	return t, nil
}

func (t *mysqlTarget) kind() string {
	if t.prepared {
		return "mysql"
	}
	return "mysql-text"
}

func (t *mysqlTarget) wireBytes() int64 { return t.bytes.Load() }
func (t *mysqlTarget) close() error     { return t.db.Close() }

func (t *mysqlTarget) maxID(ctx context.Context) (int64, error) {
	var n sql.NullInt64
	err := t.db.QueryRowContext(ctx, "SELECT MAX(id) FROM `"+t.o.db+"`.`"+t.o.table+"`").Scan(&n)
	return n.Int64, err
}

func (t *mysqlTarget) open(ctx context.Context) (targetConn, error) {
	c, err := t.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	mc := &mysqlConn{t: t, c: c}
	if t.prepared {
		mc.stmts = map[opKind]*sql.Stmt{}
		for k, q := range t.q {
			if k == opRange && t.o.workload != "range" {
				continue
			}
			s, err := c.PrepareContext(ctx, q)
			if err != nil {
				c.Close()
				return nil, fmt.Errorf("prepare %q: %w", q, err)
			}
			mc.stmts[k] = s
		}
	}
	return mc, nil
}

// mysqlConn is one worker's connection.
type mysqlConn struct {
	t     *mysqlTarget
	c     *sql.Conn
	stmts map[opKind]*sql.Stmt
	cols  [4]sql.RawBytes
	dest  [4]any
}

func (c *mysqlConn) do(ctx context.Context, ops []op) int {
	failed := 0
	for _, o := range ops {
		if err := c.one(ctx, o); err != nil {
			failed++
		}
	}
	return failed
}

func (c *mysqlConn) one(ctx context.Context, o op) error {
	var args []any
	switch o.kind {
	case opGet:
		args = []any{o.id}
	case opRange:
		args = []any{o.id, c.t.o.rangeSize}
	case opInsert:
		v := makeRow(o.id, c.t.o.valueSize, 0)
		args = []any{o.id, v.name, v.email, v.created}
	case opUpdate:
		v := makeRow(o.id, c.t.o.valueSize, c.t.gen.Add(1))
		args = []any{v.email, o.id}
	case opDelete:
		args = []any{o.id}
	}
	if o.kind == opGet || o.kind == opRange {
		var rows *sql.Rows
		var err error
		if s := c.stmts[o.kind]; s != nil {
			rows, err = s.QueryContext(ctx, args...)
		} else {
			rows, err = c.c.QueryContext(ctx, c.t.q[o.kind], args...)
		}
		if err != nil {
			return err
		}
		for i := range c.dest {
			c.dest[i] = &c.cols[i]
		}
		for rows.Next() {
			if err := rows.Scan(c.dest[:]...); err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Err(); err != nil {
			rows.Close()
			return err
		}
		return rows.Close()
	}
	var err error
	if s := c.stmts[o.kind]; s != nil {
		_, err = s.ExecContext(ctx, args...)
	} else {
		_, err = c.c.ExecContext(ctx, c.t.q[o.kind], args...)
	}
	return err
}

func (c *mysqlConn) close() error {
	for _, s := range c.stmts {
		s.Close()
	}
	return c.c.Close()
}
