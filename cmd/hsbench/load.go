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
// sets for --target memcached), several pipelines at once, in phases:
// create the schema, open the inserter, fill the rows, and report.
func load(ctx context.Context, o *options) error {
	kind, dsn, err := splitTarget(o.target)
	if err != nil {
		return err
	}
	if kind == "mysql" || kind == "mysql-text" {
		return fmt.Errorf("load inserts the rows through HandlerSocket (--target hs) or memcached; --mysql is used for the DDL")
	}
	if err := createSchema(ctx, o, kind); err != nil {
		return err
	}
	var insert insertFunc
	var closeFn func()
	if kind == "hs" {
		insert, closeFn, err = hsInserter(o, dsn)
		if err != nil {
			return err
		}
	} else {
		insert, closeFn = memcachedInserter(o, dsn)
	}
	defer closeFn()
	elapsed, failed, err := fillRows(ctx, o, insert)
	reportLoad(o, elapsed, failed)
	return err
}

// insertFunc inserts the rows of ids and returns how many failed; an
// error means nothing went through and the load stops.
type insertFunc func(ctx context.Context, ids []int64) (failed int, err error)

// createSchema creates the benchmark table over SQL for the hs target when
// --mysql is given, and otherwise says the table must exist already
// (memcached needs none).
func createSchema(ctx context.Context, o *options, kind string) error {
	if kind != "hs" {
		return nil
	}
	if o.mysqlDSN == "" {
		fmt.Fprintf(o.stderr, "no --mysql DSN: assuming table %s.%s exists\n", o.db, o.table)
		return nil
	}
	return createTable(ctx, o)
}

// hsInserter returns an insertFunc that sends each batch as one pipeline
// of inserts through a client of --conns write connections to dsn
// (default --hs), and the func that closes that client.
func hsInserter(o *options, dsn string) (insertFunc, func(), error) {
	if dsn == "" {
		dsn = o.hsDSN
	}
	opts, err := hs.ParseDSN(dsn)
	if err != nil {
		return nil, nil, err
	}
	opts.WritePoolSize = o.conns
	c, err := hs.New(opts)
	if err != nil {
		return nil, nil, err
	}
	ix := c.Index(o.db, o.table, "PRIMARY", []string{"id", "name", "email", "created"})
	var pipes sync.Pool
	insert := func(ctx context.Context, ids []int64) (int, error) {
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
	return insert, func() { c.Close() }, nil
}

// memcachedInserter returns an insertFunc that sets each batch's rows
// through memcached at dsn (default --memcached), on connections opened
// as the batches need them and reused, and the func that closes them.
func memcachedInserter(o *options, dsn string) (insertFunc, func()) {
	if dsn == "" {
		dsn = o.mcAddr
	}
	t := &mcTarget{o: o, addr: dsn}
	var mu sync.Mutex
	var free []targetConn
	var all []targetConn
	closeFn := func() {
		for _, c := range all {
			c.close()
		}
	}
	insert := func(ctx context.Context, ids []int64) (int, error) {
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
	return insert, closeFn
}

// fillRows inserts rows 1..keys in batches of --batch ids with --conns
// workers at once, showing a progress bar, and returns the time it took,
// the rows that failed and the first error that stopped a worker.
func fillRows(ctx context.Context, o *options, insert insertFunc) (elapsed time.Duration, failedRows int64, firstErr error) {
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
	for w := 0; w < o.conns; w++ {
		if err := <-errc; err != nil && firstErr == nil {
			firstErr = err
		}
	}
	bar.Finish()
	return time.Since(start), failed.Load(), firstErr
}

// reportLoad prints the summary line of a load, also after an error.
func reportLoad(o *options, elapsed time.Duration, failed int64) {
	fmt.Fprintf(o.stdout, "loaded %d rows into %s.%s in %.1fs (%.0f rows/s), %d failed (e.g. duplicate keys)\n",
		o.keys, o.db, o.table, elapsed.Seconds(), float64(o.keys)/elapsed.Seconds(), failed)
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
