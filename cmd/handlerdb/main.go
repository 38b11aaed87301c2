// Command handlerdb runs the HandlerDB server on its embedded store.
//
// So far it opens (or creates) the store in --datadir and keeps it open
// until SIGINT or SIGTERM; the HandlerSocket and MySQL listeners come with
// their fronts.
package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/handlerdb/handlerdb/internal/engine"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "handlerdb:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("handlerdb", flag.ContinueOnError)
	datadir := fs.String("datadir", "handlerdb-data", "directory of the embedded store (created if missing)")
	durability := fs.String("durability", "sync", "when writes reach disk: sync (fsync per group commit), os (fsync once a second) or none")
	if err := fs.Parse(args); err != nil {
		return err
	}
	d, err := engine.ParseDurability(*durability)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	e, err := engine.Open(engine.Options{Dir: *datadir, Durability: d})
	if err != nil {
		return err
	}
	log.Info("store open", "datadir", *datadir, "durability", d, "catalog_version", e.Catalog().Version)
	log.Info("ready")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	s := <-sig
	log.Info("shutting down", "signal", s.String())
	return e.Close()
}
