// Command handlerdb runs the HandlerDB server: the HandlerSocket read and
// write ports, the MySQL port and the admin listener over one embedded
// store.
//
//	handlerdb [flags]                 run the server (-h lists the flags)
//	handlerdb --print-config [flags]  print the configuration and exit
//	handlerdb backup --to NAME [--admin-address HOST:PORT] [--admin-token-file FILE]
//	                                  take an online backup of a running server
//	                                  into NAME inside its --backup-dir
//
// Settings come from flags, HANDLERDB_* environment variables and a
// --config file (TOML, or a my.cnf [mysqld] section), in that precedence.
// On start it logs one line per listener (`listening proto=hs-read
// addr=127.0.0.1:9998`) and then `ready`. SIGHUP re-reads the log level
// from the config file; SIGINT and SIGTERM shut down gracefully within
// --shutdown-timeout.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/server"
)

func main() {
	var err error
	if len(os.Args) > 1 && os.Args[1] == "backup" {
		err = backup(os.Args[2:], os.Getenv, os.Stdout)
	} else {
		err = run(os.Args[1:])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "handlerdb:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	var shutdownTimeout time.Duration
	var printConfig bool
	extra := func(fs *flag.FlagSet) {
		fs.DurationVar(&shutdownTimeout, "shutdown-timeout", 30*time.Second, "how long a graceful shutdown may take")
		fs.BoolVar(&printConfig, "print-config", false, "print the configuration (secrets masked) and exit")
	}
	cfg, _, ignored, err := config.Load(args, os.Environ(), extra)
	if err != nil {
		return err
	}
	if printConfig {
		return cfg.Print(os.Stdout)
	}
	server.TuneGC(os.Getenv)
	level := new(slog.LevelVar)
	l, _ := config.ParseLevel(cfg.LogLevel)
	level.Set(l)
	log := newLogger(os.Stderr, cfg.LogFormat, level)
	for _, name := range ignored {
		log.Info("option has no meaning here, ignored", "option", name)
	}
	// Signals are caught before the server says ready, so a SIGHUP sent
	// as soon as `ready` appears does not kill the process.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	s, err := server.Start(cfg, log)
	if err != nil {
		return err
	}
	for got := range sig {
		if got == syscall.SIGHUP {
			reloadLevel(args, level, log)
			continue
		}
		log.Info("signal", "signal", got.String())
		break
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
	defer cancel()
	return s.Shutdown(ctx)
}

// reloadLevel re-reads the configuration and applies its log level.
func reloadLevel(args []string, level *slog.LevelVar, log *slog.Logger) {
	cfg, _, _, err := config.Load(args, os.Environ(), func(fs *flag.FlagSet) {
		fs.Duration("shutdown-timeout", 0, "")
		fs.Bool("print-config", false, "")
	})
	if err != nil {
		log.Error("reload", "err", err)
		return
	}
	l, _ := config.ParseLevel(cfg.LogLevel)
	level.Set(l)
	log.Info("reloaded", "log_level", l.String())
}

// newLogger logs text on a terminal and JSON otherwise (format auto).
func newLogger(w *os.File, format string, level slog.Leveler) *slog.Logger {
	if format == "auto" {
		format = "json"
		if fi, err := w.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			format = "text"
		}
	}
	opts := &slog.HandlerOptions{Level: level, ReplaceAttr: server.NoticeLevelName}
	if format == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// backup asks a running server's admin listener for an online backup
// into the new directory --to NAME inside the server's --backup-dir, and
// writes the server's answer to stdout. The admin token comes from
// --admin-token-file or --admin-token, else from the environment
// (HANDLERDB_ADMIN_TOKEN_FILE or HANDLERDB_ADMIN_TOKEN, as the server
// reads them); the address from --admin-address, else
// HANDLERDB_ADMIN_ADDRESS, else the server's default.
func backup(args []string, getenv func(string) string, stdout io.Writer) error {
	fs := flag.NewFlagSet("handlerdb backup", flag.ContinueOnError)
	to := fs.String("to", "", "name of the backup: a new directory inside the server's --backup-dir (restore: start a server with --datadir on it)")
	addr := fs.String("admin-address", "", "admin listener of the running server (default: $"+config.EnvPrefix+"ADMIN_ADDRESS, else "+config.Default().AdminAddress+")")
	tokenFile := fs.String("admin-token-file", "", "file holding the server's admin token (default: $"+config.EnvPrefix+"ADMIN_TOKEN_FILE)")
	token := fs.String("admin-token", "", "the admin token itself, visible in ps (default: $"+config.EnvPrefix+"ADMIN_TOKEN)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("backup: unexpected argument %q", fs.Arg(0))
	}
	if *to == "" {
		return fmt.Errorf("backup: --to NAME is required (a new directory inside the server's --backup-dir)")
	}
	if *addr == "" {
		*addr = getenv(config.EnvPrefix + "ADMIN_ADDRESS")
	}
	if *addr == "" {
		*addr = config.Default().AdminAddress
	}
	if *token == "" && *tokenFile == "" {
		*token, *tokenFile = getenv(config.EnvPrefix+"ADMIN_TOKEN"), getenv(config.EnvPrefix+"ADMIN_TOKEN_FILE")
	}
	secret, err := config.AdminTokenFrom(*token, *tokenFile)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	if secret == "" {
		return fmt.Errorf("backup: no admin token: give --admin-token-file FILE (or --admin-token, or set %sADMIN_TOKEN)", config.EnvPrefix)
	}
	req, err := http.NewRequest(http.MethodPost, "http://"+*addr+"/backup?to="+url.QueryEscape(*to), nil)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+secret)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("backup: %w", err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("backup: %s: %s", resp.Status, strings.TrimSpace(string(body)))
	}
	_, err = stdout.Write(body)
	return err
}
