package hsfront

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"strconv"
	"testing"

	"github.com/handlerdb/handlerdb/internal/collation"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// TestRunConvertedAgainAfterDDL: a run is converted on the connection
// against the catalog it sees; when DDL commits between that and the
// writer applying it, the writer converts it again against the new
// table. Here a column is added in front of the others, so a row built
// for the old layout would put every value in the wrong column.
func TestRunConvertedAgainAfterDDL(t *testing.T) {
	e, s := startTestServer(t, Config{})
	w := dial(t, s.WriteAddr())
	w.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
	hook := func() {
		err := e.Update(context.Background(), func(tx *engine.Job) error {
			_, err := tx.AlterTable("conf", "tw", &engine.TableDef{
				Columns: []types.Column{
					{Name: "a", Type: types.Type{Kind: types.Int}, Nullable: true},
					{Name: "k", Type: types.Type{Kind: types.Int}},
					{Name: "s", Type: types.Type{Kind: types.VarChar, Length: 10, Collation: collation.Default}, Nullable: true},
					{Name: "n", Type: types.Type{Kind: types.Int}, Nullable: true},
				},
				Indexes: []engine.IndexDef{{Primary: true, Columns: []string{"k"}}, {Name: "is1", Columns: []string{"s"}}},
			}, []int{-1, 0, 1, 2})
			return err
		})
		if err != nil {
			t.Error(err)
		}
	}
	beforeApply.Store(&hook)
	t.Cleanup(func() { beforeApply.Store(nil) })
	w.do("1\t+\t3\t7\tseven\t70\n1\t=\t1\t2\t1\t0\tU\t2\ttwo\t22\n", "0\t1\n", "0\t1\t1\n")
	beforeApply.Store(nil)
	r := dial(t, s.ReadAddr())
	r.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
	r.do("1\t=\t1\t7\n", "0\t3\t7\tseven\t70\n")
	r.do("1\t=\t1\t2\n", "0\t3\t2\ttwo\t22\n")
}

// TestRunWithOpenAndAuth: A and P between writes are answered in line
// order inside the run, and the writes of the whole run commit as one
// job.
func TestRunWithOpenAndAuth(t *testing.T) {
	e, s := startTestServer(t, Config{})
	w := dial(t, s.WriteAddr())
	w.do("P\t1\tconf\ttw\tPRIMARY\tk,s\n", "0\t1\n")
	groups := e.Stats().Groups.Load()
	w.do("1\t+\t2\t20\tx\nP\t2\tconf\ttw\tPRIMARY\tk,n\n2\t+\t2\t21\t5\nP\t3\tconf\tnone\tPRIMARY\tk\n3\t+\t1\t1\n2\t=\t1\t21\n",
		"0\t1\n", "0\t1\n", "0\t1\n", "1\t1\topen_table\n", "2\t1\tstmtnum\n", "0\t2\t21\t5\n")
	if g := e.Stats().Groups.Load() - groups; g != 1 {
		t.Errorf("%d group commits for one run", g)
	}
}

// TestInsertAllocs: an HS insert or update allocates nothing per request,
// on the connection or in the writer, beyond what the engine's batch grows
// by, once the pooled buffers have grown (an update: but the row cache's
// entry).
func TestInsertAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop items, so allocations are not counted under it")
	}
	_, s := startTestServer(t, Config{})
	ss := newSession(s, true, nil)
	out := make([]byte, 0, 4096)
	ss.batch([]byte("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n"), &out)
	k := 100
	line := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(2000, func() {
		out = out[:0]
		k++
		line = append(line[:0], "1\t+\t3\t"...)
		line = strconv.AppendInt(line, int64(k), 10)
		line = append(line, "\tabc\t7\n"...)
		ss.batch(line, &out)
	})
	if string(out) != "0\t1\n" {
		t.Fatalf("reply %q", out)
	}
	if allocs > 0 {
		t.Fatalf("%.2f allocations per insert", allocs)
	}
	allocs = testing.AllocsPerRun(2000, func() {
		out = out[:0]
		k++
		line = append(line[:0], "1\t=\t1\t2\t1\t0\tU\t2\tx\t"...)
		line = strconv.AppendInt(line, int64(k), 10)
		line = append(line, '\n')
		ss.batch(line, &out)
	})
	if string(out) != "0\t1\t1\n" {
		t.Fatalf("reply %q", out)
	}
	// The row cache drops a written key before the commit and stores the
	// new version after it in the dropped entry's memory.
	if allocs > 0 {
		t.Fatalf("%.2f allocations per update", allocs)
	}
	// A run of updates, which apply prefetches for first.
	allocs = testing.AllocsPerRun(500, func() {
		out = out[:0]
		line = line[:0]
		for key := 1; key <= 3; key++ {
			line = append(line, "1\t=\t1\t"...)
			line = strconv.AppendInt(line, int64(key), 10)
			line = append(line, "\t1\t0\tU\t"...)
			line = strconv.AppendInt(line, int64(key), 10)
			line = append(line, "\tx\t"...)
			line = strconv.AppendInt(line, int64(k), 10)
			line = append(line, '\n')
		}
		k++
		ss.batch(line, &out)
	})
	if string(out) != "0\t1\t1\n0\t1\t1\n0\t1\t1\n" {
		t.Fatalf("reply %q", out)
	}
	if allocs > 0 {
		t.Fatalf("%.2f allocations per run of 3 updates", allocs)
	}
}

// TestConcurrentRunsDuringDDL: connections write pipelined runs while the
// table's layout changes under them; every acknowledged insert is there
// with the values it was given (run with -race, it also checks the
// hand-off of runs between the connections and the writer).
func TestConcurrentRunsDuringDDL(t *testing.T) {
	e, s := startTestServer(t, Config{})
	cols := func(extra bool) []types.Column {
		c := []types.Column{
			{Name: "k", Type: types.Type{Kind: types.Int}},
			{Name: "s", Type: types.Type{Kind: types.VarChar, Length: 10, Collation: collation.Default}, Nullable: true},
			{Name: "n", Type: types.Type{Kind: types.Int}, Nullable: true},
		}
		if extra {
			c = append([]types.Column{{Name: "x", Type: types.Type{Kind: types.Int}, Nullable: true}}, c...)
		}
		return c
	}
	done := make(chan struct{})
	ddl := make(chan error, 1)
	go func() {
		extra := false
		for i := 0; ; i++ {
			select {
			case <-done:
				ddl <- nil
				return
			default:
			}
			colMap := []int{-1, 0, 1, 2}
			if extra {
				colMap = []int{1, 2, 3}
			}
			extra = !extra
			err := e.Update(context.Background(), func(tx *engine.Job) error {
				_, err := tx.AlterTable("conf", "tw", &engine.TableDef{Columns: cols(extra),
					Indexes: []engine.IndexDef{{Primary: true, Columns: []string{"k"}}, {Name: "is1", Columns: []string{"s"}}}}, colMap)
				return err
			})
			if err != nil {
				ddl <- err
				return
			}
		}
	}()
	const conns, batches, per = 4, 25, 8
	errs := make(chan error, conns)
	for c := 0; c < conns; c++ {
		go func(c int) {
			w, err := net.Dial("tcp", s.WriteAddr().String())
			if err != nil {
				errs <- err
				return
			}
			defer w.Close()
			r := bufio.NewReader(w)
			if _, err := w.Write([]byte("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n")); err != nil {
				errs <- err
				return
			}
			if l, err := r.ReadString('\n'); err != nil || l != "0\t1\n" {
				errs <- fmt.Errorf("P: %q %v", l, err)
				return
			}
			for b := 0; b < batches; b++ {
				var req []byte
				for i := 0; i < per; i++ {
					k := 1000 + (c*batches+b)*per + i
					req = fmt.Appendf(req, "1\t+\t3\t%d\tv%d\t%d\n", k, k, -k)
				}
				if _, err := w.Write(req); err != nil {
					errs <- err
					return
				}
				for i := 0; i < per; i++ {
					if l, err := r.ReadString('\n'); err != nil || l != "0\t1\n" {
						errs <- fmt.Errorf("insert: %q %v", l, err)
						return
					}
				}
			}
			errs <- nil
		}(c)
	}
	for c := 0; c < conns; c++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	close(done)
	if err := <-ddl; err != nil {
		t.Fatal(err)
	}
	rd := dial(t, s.ReadAddr())
	rd.do("P\t1\tconf\ttw\tPRIMARY\tk,s,n\n", "0\t1\n")
	for k := 1000; k < 1000+conns*batches*per; k++ {
		rd.do(fmt.Sprintf("1\t=\t1\t%d\n", k), fmt.Sprintf("0\t3\t%d\tv%d\t%d\n", k, k, -k))
	}
}
