package mariadb

import (
	"fmt"
	"sync"
	"testing"

	"github.com/dolthub/go-mysql-server/sql"
)

// TestSessionVars: sessions made through the wrapped registries start
// with the values go-mysql-server's registries give, keep their status
// counters apart, and see a changed global.
func TestSessionVars(t *testing.T) {
	b := newTestBackend(t)
	fs, ok1 := sql.StatusVariables.(*fastStatusVars)
	fv, ok2 := sql.SystemVariables.(*fastSystemVars)
	if !ok1 || !ok2 {
		t.Fatalf("registries not wrapped: %T %T", sql.StatusVariables, sql.SystemVariables)
	}
	want := fs.StatusVariableRegistry.NewSessionMap()
	a, c := fs.NewSessionMap(), fs.NewSessionMap()
	if len(a) != len(want)+len(extraStatusVars) {
		t.Fatalf("%d status variables, want %d and MariaDB's %d", len(a), len(want), len(extraStatusVars))
	}
	for _, v := range extraStatusVars {
		if g, ok := a[v.Name]; !ok || g.Value() != v.Default {
			t.Errorf("status %s: %v, want %v", v.Name, g, v.Default)
		}
	}
	for k, w := range want {
		if g, ok := a[k]; !ok || g.Value() != w.Value() || g.Variable() != w.Variable() {
			t.Errorf("status %s: %v, want %v", k, g, w)
		}
	}
	if err := a["Com_select"].Increment(3); err != nil {
		t.Fatal(err)
	}
	if a["Com_select"].Value() != uint64(3) || c["Com_select"].Value() != uint64(0) {
		t.Errorf("counters shared: %v %v", a["Com_select"].Value(), c["Com_select"].Value())
	}

	sv := fv.SystemVariableRegistry.NewSessionMap()
	got := fv.NewSessionMap()
	if len(got) != len(sv) {
		t.Fatalf("%d system variables, want %d", len(got), len(sv))
	}
	ctx := b.Session()
	b.MustExec(t, ctx, "SET GLOBAL max_allowed_packet = 33554432")
	defer b.MustExec(t, ctx, "SET GLOBAL max_allowed_packet = 16777216")
	if v := fv.NewSessionMap()["max_allowed_packet"].Val; v != uint64(33554432) {
		t.Errorf("a new session's max_allowed_packet is %v (%T) after SET GLOBAL", v, v)
	}
	b.ExpectRows(t, b.Session(), "SELECT @@session.max_allowed_packet", "33554432")

	// Sessions made while the global changes: the last value wins.
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				sql.NewBaseSession()
			}
		}()
	}
	for i := 0; i < 50; i++ {
		b.MustExec(t, ctx, fmt.Sprintf("SET GLOBAL max_allowed_packet = %d", 1<<20+i*1024))
	}
	wg.Wait()
	if v := fv.NewSessionMap()["max_allowed_packet"].Val; v != uint64(1<<20+49*1024) {
		t.Errorf("after concurrent changes a new session's max_allowed_packet is %v", v)
	}
}

// BenchmarkNewBaseSession is the cost of a session, which go-mysql-
// server's routine interpreter pays for each statement it runs.
func BenchmarkNewBaseSession(b *testing.B) {
	newTestBackend(b)
	b.ReportAllocs()
	for b.Loop() {
		sql.NewBaseSession()
	}
}
