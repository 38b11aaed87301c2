package main

import (
	"runtime/debug"
	"testing"
)

func TestTuneGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if !tuneGC(getenv) {
		t.Fatal("tuneGC without GOGC did not set the percent")
	}
	if got := debug.SetGCPercent(100); got != defaultGCPercent {
		t.Fatalf("GC percent %d after tuneGC, want %d", got, defaultGCPercent)
	}
	env["GOGC"] = "50"
	if tuneGC(getenv) {
		t.Fatal("tuneGC overrode GOGC from the environment")
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GC percent %d after tuneGC with GOGC set, want it left at 100", got)
	}
}
