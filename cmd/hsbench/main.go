// Command hsbench is a load generator for HandlerDB and HandlerSocket. It
// runs one workload against one target and reports throughput, latency
// percentiles (from HDR histograms), errors and wire bytes, as a table, as
// JSON, and as Go benchmark lines that benchstat reads.
//
// Targets:
//
//	hs          HandlerSocket through package hs (--hs DSN)
//	mysql       MySQL protocol, prepared statements (--mysql DSN)
//	mysql-text  MySQL protocol, text queries (parameters interpolated client-side)
//	memcached   memcached text protocol get/set/delete (--memcached host:port)
//
// Workloads: get, insert, update, delete, mixed (gets and updates in the
// proportion --read-ratio) and range (a scan of --range-size rows from a
// random key), on the table
//
//	hsbench.bench (id INT PRIMARY KEY, name VARCHAR(64), email VARCHAR(255), created DATETIME)
//
// Usage:
//
//	hsbench load    [flags]   create the table (SQL DDL over --mysql) and fill it (HS inserts)
//	hsbench run     [flags]   run a workload (the default command)
//	hsbench compare [flags]   run a workload on --a and --b in turn, A B A B ..., and print the ratios
//
// Examples:
//
//	hsbench load --mysql 'root@tcp(127.0.0.1:3306)/' --keys 100000
//	hsbench run --target hs --workload get --conns 16 --duration 10s
//	hsbench run --target hs --workload mixed --read-ratio 0.9 --pipeline 8 --rate 50000
//	hsbench compare --a hs --b mysql --workload get --rounds 3 --duration 5s
//
// A run prints a line per second to stderr while it runs. With
// --server-pid it also reports the server's CPU time per operation, read
// from /proc/<pid>/stat before and after the measured part of the run.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return
		}
		fmt.Fprintln(os.Stderr, "hsbench:", err)
		os.Exit(2)
	}
}

// run executes one hsbench command line.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cmd := "run"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		cmd, args = args[0], args[1:]
	}
	o := defaultOptions()
	fs := flag.NewFlagSet("hsbench "+cmd, flag.ContinueOnError)
	fs.SetOutput(stderr)
	o.register(fs, cmd)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: hsbench %s [flags]\n\ncommands: load, run, compare (see go doc ./cmd/hsbench)\n\nflags:\n", cmd)
		fs.PrintDefaults()
	}
	switch cmd {
	case "run", "load", "compare":
	case "help":
		fs.Usage()
		return flag.ErrHelp
	default:
		return fmt.Errorf("unknown command %q (load, run or compare)", cmd)
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	if err := o.validate(cmd); err != nil {
		return err
	}
	o.stdout, o.stderr = stdout, stderr
	switch cmd {
	case "load":
		return load(ctx, o)
	case "compare":
		return compare(ctx, o)
	}
	res, err := runOnce(ctx, o, o.target)
	if err != nil {
		return err
	}
	return report(o, []*result{res})
}
