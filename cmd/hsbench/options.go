package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"
)

// options are the command-line settings of every command.
type options struct {
	target   string // kind or kind=dsn
	hsDSN    string
	mysqlDSN string
	mcAddr   string
	db       string
	table    string

	workload  string
	readRatio float64
	rangeSize int

	conns     int
	pipeline  int
	duration  time.Duration
	requests  int64
	warmup    time.Duration
	rate      float64
	keys      int64
	keyDist   string
	zipfS     float64
	valueSize int
	seed      int64

	json      bool
	quiet     bool
	serverPID int

	// load
	batch int
	keep  bool

	// compare
	a, b   string
	rounds int

	stdout, stderr io.Writer
}

func defaultOptions() *options {
	return &options{
		target:    "hs",
		hsDSN:     "hs://127.0.0.1:9998?wr_port=9999",
		mcAddr:    "127.0.0.1:11211",
		db:        "hsbench",
		table:     "bench",
		workload:  "get",
		readRatio: 0.9,
		rangeSize: 10,
		conns:     16,
		pipeline:  1,
		duration:  10 * time.Second,
		warmup:    2 * time.Second,
		keys:      100000,
		keyDist:   "uniform",
		zipfS:     1.1,
		valueSize: 32,
		seed:      1,
		batch:     500,
		rounds:    3,
	}
}

func (o *options) register(fs *flag.FlagSet, cmd string) {
	if cmd != "compare" {
		fs.StringVar(&o.target, "target", o.target, "hs, mysql (prepared statements), mysql-text or memcached; kind=DSN overrides that kind's DSN flag")
	}
	fs.StringVar(&o.hsDSN, "hs", o.hsDSN, "HandlerSocket DSN (see package hs: hs://[secret@]host:port?wr_port=...)")
	fs.StringVar(&o.mysqlDSN, "mysql", o.mysqlDSN, "go-sql-driver/mysql DSN, e.g. root@tcp(127.0.0.1:3306)/ (load: DDL; mysql targets)")
	fs.StringVar(&o.mcAddr, "memcached", o.mcAddr, "memcached host:port")
	fs.StringVar(&o.db, "db", o.db, "database of the benchmark table")
	fs.StringVar(&o.table, "table", o.table, "benchmark table")
	fs.Int64Var(&o.keys, "keys", o.keys, "rows in the table (load: rows to insert; run: key space 1..keys)")
	fs.IntVar(&o.valueSize, "value-size", o.valueSize, "bytes of the email value written (at most 255 for the SQL table)")
	fs.IntVar(&o.conns, "conns", o.conns, "connections (one worker each)")
	if cmd == "load" {
		fs.IntVar(&o.batch, "batch", o.batch, "rows per pipeline of inserts")
		fs.BoolVar(&o.keep, "keep", o.keep, "keep an existing table (default: drop and create it again)")
		return
	}
	fs.StringVar(&o.workload, "workload", o.workload, "get, insert, update, delete, mixed or range")
	fs.Float64Var(&o.readRatio, "read-ratio", o.readRatio, "mixed: fraction of gets (the rest are updates)")
	fs.IntVar(&o.rangeSize, "range-size", o.rangeSize, "range: rows per scan")
	fs.IntVar(&o.pipeline, "pipeline", o.pipeline, "requests per round trip (hs and memcached)")
	fs.DurationVar(&o.duration, "duration", o.duration, "measured time (ignored with --requests)")
	fs.Int64Var(&o.requests, "requests", o.requests, "measured requests instead of a duration (0: use --duration)")
	fs.DurationVar(&o.warmup, "warmup", o.warmup, "unmeasured time before measuring")
	fs.Float64Var(&o.rate, "rate", o.rate, "open loop: requests per second over all connections, latency measured from the intended send time (0: closed loop)")
	fs.StringVar(&o.keyDist, "key-dist", o.keyDist, "uniform or zipf")
	fs.Float64Var(&o.zipfS, "zipf-s", o.zipfS, "zipf: exponent s (> 1)")
	fs.Int64Var(&o.seed, "seed", o.seed, "random seed")
	fs.BoolVar(&o.json, "json", o.json, "print JSON instead of the table and benchmark lines")
	fs.BoolVar(&o.quiet, "quiet", o.quiet, "no line per second")
	fs.IntVar(&o.serverPID, "server-pid", o.serverPID, "report this process's CPU seconds per operation (from /proc/<pid>/stat)")
	if cmd == "compare" {
		fs.StringVar(&o.a, "a", "hs", "first target (kind or kind=DSN)")
		fs.StringVar(&o.b, "b", "mysql", "second target (kind or kind=DSN)")
		fs.IntVar(&o.rounds, "rounds", o.rounds, "rounds of A then B (at least 3)")
	}
}

func (o *options) validate(cmd string) error {
	var errs []string
	check := func(ok bool, msg string) {
		if !ok {
			errs = append(errs, msg)
		}
	}
	check(o.conns > 0, "--conns must be positive")
	check(o.keys > 0, "--keys must be positive")
	check(o.valueSize >= 0, "--value-size must not be negative")
	check(o.db != "" && o.table != "", "--db and --table must not be empty")
	if cmd == "load" {
		check(o.batch > 0, "--batch must be positive")
	} else {
		check(o.pipeline > 0, "--pipeline must be positive")
		check(o.duration > 0 || o.requests > 0, "--duration or --requests must be positive")
		check(o.warmup >= 0, "--warmup must not be negative")
		check(o.rate >= 0, "--rate must not be negative")
		check(o.readRatio >= 0 && o.readRatio <= 1, "--read-ratio must be within 0..1")
		check(o.rangeSize > 0, "--range-size must be positive")
		check(o.keyDist == "uniform" || o.keyDist == "zipf", "--key-dist must be uniform or zipf")
		check(o.keyDist != "zipf" || o.zipfS > 1, "--zipf-s must be above 1")
		switch o.workload {
		case "get", "insert", "update", "delete", "mixed", "range":
		default:
			errs = append(errs, fmt.Sprintf("unknown --workload %q", o.workload))
		}
	}
	if cmd == "compare" {
		check(o.rounds >= 3, "--rounds must be at least 3")
		for _, t := range []string{o.a, o.b} {
			if _, _, err := splitTarget(t); err != nil {
				errs = append(errs, err.Error())
			}
		}
	} else if cmd == "run" {
		if _, _, err := splitTarget(o.target); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return errors.New(strings.Join(errs, "; "))
	}
	return nil
}

// splitTarget parses "kind" or "kind=DSN".
func splitTarget(s string) (kind, dsn string, err error) {
	kind, dsn, _ = strings.Cut(s, "=")
	switch kind {
	case "hs", "mysql", "mysql-text", "memcached":
		return kind, dsn, nil
	}
	return "", "", fmt.Errorf("unknown target %q (hs, mysql, mysql-text or memcached)", kind)
}

// workloadName names the workload in reports.
func (o *options) workloadName() string {
	switch o.workload {
	case "mixed":
		return fmt.Sprintf("mixed-read%.0f", o.readRatio*100)
	case "range":
		return fmt.Sprintf("range%d", o.rangeSize)
	}
	return o.workload
}
