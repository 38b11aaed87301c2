// Command handlerdb runs the HandlerDB server: the HandlerSocket read and
// write ports and the MySQL port over one embedded store.
//
//	go run ./cmd/handlerdb [--datadir DIR] [--port 3306]
//	    [--handlersocket-port 9998] [--handlersocket-port-wr 9999] ...
//
// Run with -h for every flag. On start it logs one line per listener
// (`listening proto=hs-read addr=127.0.0.1:9998`) and then `ready`;
// SIGINT or SIGTERM shut it down gracefully.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/server"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "handlerdb:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	cfg := config.Default()
	fs := flag.NewFlagSet("handlerdb", flag.ContinueOnError)
	cfg.RegisterFlags(fs)
	shutdownTimeout := fs.Duration("shutdown-timeout", 30*time.Second, "how long a graceful shutdown may take")
	if err := fs.Parse(args); err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	s, err := server.Start(cfg, log)
	if err != nil {
		return err
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	got := <-sig
	log.Info("signal", "signal", got.String())
	ctx, cancel := context.WithTimeout(context.Background(), *shutdownTimeout)
	defer cancel()
	return s.Shutdown(ctx)
}
