package sqlfront

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	vtlog "github.com/dolthub/vitess/go/vt/log"
	"github.com/sirupsen/logrus"
)

// go-mysql-server logs through logrus's standard logger and its MySQL
// listener through vitess's log functions, both process-wide and in their
// own text formats. RouteLogs sends both to an slog.Logger instead, so the
// server's log is one stream in one format.

var (
	logTarget atomic.Pointer[slog.Logger]
	routeOnce sync.Once
)

// RouteLogs makes go-mysql-server's and vitess's log lines go to l (the
// latest call wins; nil discards them). Safe for concurrent use.
func RouteLogs(l *slog.Logger) {
	if l == nil {
		l = slog.New(slog.DiscardHandler)
	}
	logTarget.Store(l)
	routeOnce.Do(func() {
		std := logrus.StandardLogger()
		std.SetOutput(io.Discard)
		std.AddHook(logrusHook{})
		vtlog.Info = vtPrint(slog.LevelInfo)
		vtlog.Infof = vtPrintf(slog.LevelInfo)
		vtlog.Warning = vtPrint(slog.LevelWarn)
		vtlog.Warningf = vtPrintf(slog.LevelWarn)
		vtlog.Error = vtPrint(slog.LevelError)
		vtlog.Errorf = vtPrintf(slog.LevelError)
	})
}

// logWire logs a line of the SQL port's wire layer (listener.go) where
// RouteLogs sends the others.
func logWire(level slog.Level, msg string, args ...any) {
	if l := logTarget.Load(); l != nil {
		l.Log(context.Background(), level, msg, append(args, "from", "sqlfront")...)
	}
}

func vtPrint(level slog.Level) func(...any) {
	return func(args ...any) {
		logTarget.Load().Log(context.Background(), level, fmt.Sprint(args...), "from", "vitess")
	}
}

func vtPrintf(level slog.Level) func(string, ...any) {
	return func(format string, args ...any) {
		logTarget.Load().Log(context.Background(), level, fmt.Sprintf(format, args...), "from", "vitess")
	}
}

// quietMessages are go-mysql-server's messages logged at debug level
// whatever its level: MariaDB's error log has no line per connection
// (NewConnection, ConnectionClosed), and a statement's error is the
// client's (error running query).
var quietMessages = map[string]bool{"NewConnection": true, "ConnectionClosed": true, "error running query": true}

// logrusHook forwards every logrus entry, with its fields, to logTarget.
type logrusHook struct{}

func (logrusHook) Levels() []logrus.Level { return logrus.AllLevels }

func (logrusHook) Fire(e *logrus.Entry) error {
	level := slog.LevelInfo
	switch {
	case e.Level <= logrus.ErrorLevel:
		level = slog.LevelError
	case e.Level == logrus.WarnLevel:
		level = slog.LevelWarn
	case e.Level >= logrus.DebugLevel:
		level = slog.LevelDebug
	}
	if quietMessages[e.Message] && level > slog.LevelDebug {
		level = slog.LevelDebug
	}
	l := logTarget.Load()
	if !l.Enabled(context.Background(), level) {
		return nil
	}
	attrs := make([]any, 0, 2*len(e.Data)+2)
	attrs = append(attrs, "from", "go-mysql-server")
	for _, k := range slices.Sorted(maps.Keys(e.Data)) {
		v := e.Data[k]
		if b, ok := v.([]byte); ok {
			v = string(b) // a statement's text, not its bytes' numbers
		}
		attrs = append(attrs, k, v)
	}
	l.Log(context.Background(), level, e.Message, attrs...)
	return nil
}
