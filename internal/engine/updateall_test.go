package engine

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// TestUpdateAll: each function of an UpdateAll is its own job: one that
// fails or panics loses only its writes, and every result is reported in
// its place. They all commit in one group.
func TestUpdateAll(t *testing.T) {
	for _, pipe := range []bool{false, true} {
		t.Run(fmt.Sprintf("PipelineSync=%v", pipe), func(t *testing.T) {
			e := openTestEngine(t, "", DurabilitySync, withPipelineSync(pipe))
			tb := setupPeople(t, e)
			groups := e.Stats().Groups.Load()
			boom := errors.New("boom")
			ins := func(name string, then error, panics bool) func(*Job) error {
				return func(tx *Job) error {
					if _, err := tx.Insert(tb, row(null(), sv(name), null(), null())); err != nil {
						return err
					}
					if panics {
						panic("job panics")
					}
					return then
				}
			}
			fns := []func(*Job) error{ins("a", nil, false), ins("b", boom, false), ins("c", nil, true), ins("d", nil, false)}
			errs := make([]error, len(fns))
			e.UpdateAll(context.Background(), fns, errs)
			if errs[0] != nil || errs[1] != boom || errs[2] == nil || errs[3] != nil {
				t.Fatalf("results %v", errs)
			}
			if g := e.Stats().Groups.Load() - groups; g != 1 {
				t.Errorf("%d groups for one UpdateAll", g)
			}
			var names []string
			for _, r := range findAll(t, e, tb, &Query{Index: tb.Indexes[0], Op: OpGE, Key: []types.Value{iv(0)}}) {
				names = append(names, string(r[1].B))
			}
			if fmt.Sprint(names) != "[a d]" {
				t.Errorf("rows %v, want [a d]", names)
			}
		})
	}
}

// TestPipelineSync: with PipelineSync, concurrent writers' jobs are each
// visible once Update returns, and all of them are in the store after a
// reopen.
func TestPipelineSync(t *testing.T) {
	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilitySync, withPipelineSync(true))
	tb := setupPeople(t, e)
	const writers, each = 8, 40
	var wg sync.WaitGroup
	errc := make(chan error, writers)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := 0; i < each; i++ {
				id := int64(1 + w*each + i)
				err := e.Update(context.Background(), func(tx *Job) error {
					_, err := tx.Insert(tb, row(iv(id), sv("n"), null(), null()))
					return err
				})
				if err != nil {
					errc <- err
					return
				}
				if got := findAll(t, e, tb, &Query{Index: tb.Indexes[0], Op: OpEQ, Key: []types.Value{iv(id)}}); len(got) != 1 {
					errc <- fmt.Errorf("row %d not visible after its Update", id)
					return
				}
			}
		}(w)
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = openTestEngine(t, dir, DurabilitySync)
	var err error
	if tb, err = e.Catalog().Table("app", "people"); err != nil {
		t.Fatal(err)
	}
	if n := len(findAll(t, e, tb, &Query{Index: tb.Indexes[0], Op: OpGE, Key: []types.Value{iv(0)}})); n != writers*each {
		t.Fatalf("%d rows after reopen, want %d", n, writers*each)
	}
}
