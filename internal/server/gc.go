package server

import "runtime/debug"

// DefaultGCPercent is the garbage collector's target (GOGC) the server
// runs with when the environment does not set GOGC. A SQL statement
// allocates a parse tree, a plan and its rows, so at Go's default of 100
// the collector took about 30% of the CPU of a dump load; at 400 the
// dump load and the reports took about 12% less time (three alternating
// rounds of scripts/benchreports), for a heap up to five times the live
// one (RSS 105 -> 151 MB after the reports' load). GOGC or GOMEMLIMIT in
// the environment override it, as for any Go program.
const DefaultGCPercent = 400

// TuneGC sets DefaultGCPercent unless getenv("GOGC") is set, and reports
// whether it did. cmd/handlerdb calls it once, before the server starts
// (the process's setting, not a Server's: tests that measure the server
// in their own process set DefaultGCPercent themselves).
func TuneGC(getenv func(string) string) bool {
	if getenv("GOGC") != "" {
		return false
	}
	debug.SetGCPercent(DefaultGCPercent)
	return true
}
