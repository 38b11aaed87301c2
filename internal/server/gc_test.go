package server

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if !TuneGC(getenv) {
		t.Fatal("TuneGC without GOGC did not set the percent")
	}
	if got := debug.SetGCPercent(100); got != DefaultGCPercent {
		t.Fatalf("GC percent %d after TuneGC, want %d", got, DefaultGCPercent)
	}
	env["GOGC"] = "50"
	if TuneGC(getenv) {
		t.Fatal("TuneGC overrode GOGC from the environment")
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GC percent %d after TuneGC with GOGC set, want it left at 100", got)
	}
}
