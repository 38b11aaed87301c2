package main

import (
	"context"
	"database/sql"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/handlerdb/handlerdb/hs"
)

// createTableSQL is the benchmark table.
const createTableSQL = "CREATE TABLE IF NOT EXISTS `%s`.`%s` (id INT PRIMARY KEY, name VARCHAR(64), email VARCHAR(255), created DATETIME)"

// load creates the benchmark table over SQL (when --mysql is given) and
// fills it with rows 1..keys through HandlerSocket inserts (or memcached
// sets for --target memcached), several pipelines at once.
func load(ctx context.Context, o *options) error {
	kind, dsn, err := splitTarget(o.target)
	if err != nil {
		return err
	}
	if kind == "mysql" || kind == "mysql-text" {
		return fmt.Errorf("load inserts the rows through HandlerSocket (--target hs) or memcached; --mysql is used for the DDL")
	}
	if o.mysqlDSN != "" && kind == "hs" {
		if err := createTable(ctx, o); err != nil {
			return err
		}
	} else if kind == "hs" {
		fmt.Fprintf(o.stderr, "no --mysql DSN: assuming table %s.%s exists\n", o.db, o.table)
	}

	var insert func(ctx context.Context, ids []int64) (failed int, err error)
	var closeFn func()
	if kind == "hs" {
		if dsn == "" {
			dsn = o.hsDSN
		}
		opts, err := hs.ParseDSN(dsn)
		if err != nil {
			return err
		}
		opts.WritePoolSize = o.conns
		c, err := hs.New(opts)
		if err != nil {
			return err
		}
		closeFn = func() { c.Close() }
		ix := c.Index(o.db, o.table, "PRIMARY", []string{"id", "name", "email", "created"})
		var pipes sync.Pool
		insert = func(ctx context.Context, ids []int64) (int, error) {
			p, _ := pipes.Get().(*hs.Pipeline)
			if p == nil {
				p = c.Pipeline()
			}
			defer pipes.Put(p)
			cmds := make([]*hs.InsertCmd, len(ids))
			for i, id := range ids {
				v := makeRow(id, o.valueSize, 0)
				cmds[i] = p.Insert(ix, id, v.name, v.email, v.created)
			}
			err := p.Exec(ctx)
			failed := 0
			for _, cmd := range cmds {
				if cmd.Err() != nil {
					failed++
				}
			}
			if err != nil && failed == len(ids) {
				return failed, err // nothing went through: stop
			}
			return failed, nil
		}
	} else {
		if dsn == "" {
			dsn = o.mcAddr
		}
		t := &mcTarget{o: o, addr: dsn}
		var mu sync.Mutex
		var free []targetConn
		var all []targetConn
		closeFn = func() {
			for _, c := range all {
				c.close()
			}
		}
		insert = func(ctx context.Context, ids []int64) (int, error) {
			mu.Lock()
			var c targetConn
			if n := len(free); n > 0 {
				c, free = free[n-1], free[:n-1]
			}
			mu.Unlock()
			if c == nil {
				var err error
				if c, err = t.open(ctx); err != nil {
					return len(ids), err
				}
				mu.Lock()
				all = append(all, c)
				mu.Unlock()
			}
			ops := make([]op, len(ids))
			for i, id := range ids {
				ops[i] = op{opInsert, id}
			}
			failed := c.do(ctx, ops)
			mu.Lock()
			free = append(free, c)
			mu.Unlock()
			return failed, nil
		}
	}
	defer closeFn()

	bar := progressbar.NewOptions64(o.keys,
		progressbar.OptionSetWriter(o.stderr),
		progressbar.OptionSetDescription("loading "+o.db+"."+o.table),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("rows"),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionClearOnFinish(),
	)
	start := time.Now()
	var next, failed atomic.Int64
	next.Store(1)
	errc := make(chan error, o.conns)
	for w := 0; w < o.conns; w++ {
		go func() {
			ids := make([]int64, 0, o.batch)
			for ctx.Err() == nil {
				first := next.Add(int64(o.batch)) - int64(o.batch)
				if first > o.keys {
					errc <- nil
					return
				}
				ids = ids[:0]
				for id := first; id < first+int64(o.batch) && id <= o.keys; id++ {
					ids = append(ids, id)
				}
				n, err := insert(ctx, ids)
				failed.Add(int64(n))
				bar.Add(len(ids))
				if err != nil {
					errc <- err
					return
				}
			}
			errc <- ctx.Err()
		}()
	}
	var firstErr error
	for w := 0; w < o.conns; w++ {
		if err := <-errc; err != nil && firstErr == nil {
			firstErr = err
		}
	}
	bar.Finish()
	el := time.Since(start)
	fmt.Fprintf(o.stdout, "loaded %d rows into %s.%s in %.1fs (%.0f rows/s), %d failed (e.g. duplicate keys)\n",
		o.keys, o.db, o.table, el.Seconds(), float64(o.keys)/el.Seconds(), failed.Load())
	return firstErr
}

// createTable runs the DDL of the benchmark table over SQL.
func createTable(ctx context.Context, o *options) error {
	db, err := sql.Open("mysql", o.mysqlDSN)
	if err != nil {
		return fmt.Errorf("--mysql: %w", err)
	}
	defer db.Close()
	stmts := []string{"CREATE DATABASE IF NOT EXISTS `" + o.db + "`"}
	if !o.keep {
		stmts = append(stmts, "DROP TABLE IF EXISTS `"+o.db+"`.`"+o.table+"`")
	}
	stmts = append(stmts, fmt.Sprintf(createTableSQL, o.db, o.table))
	for _, s := range stmts {
		if _, err := db.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%s: %w", s, err)
		}
	}
	fmt.Fprintf(o.stderr, "created table %s.%s\n", o.db, o.table)
	return nil
}
