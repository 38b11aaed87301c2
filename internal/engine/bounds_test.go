package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// TestKeyBoundsDifferential runs one random sequence of groups of inserts
// (ascending, descending, random, repeated within a group), deletes,
// primary-key moves, truncations and index builds on an engine whose
// writer answers duplicate-key checks from its key bounds (it has a row
// cache) and on one without, and compares every write's result and the
// tables. It starts with the cases the bounds must not miss: a group
// that writes keys of an index before the index has a bound (an index
// build) and then asks for one, and a key moved above the others.
func TestKeyBoundsDifferential(t *testing.T) {
	withBounds, plain := cachedAndPlain(t, 0)
	engines := []*Engine{withBounds, plain}
	def := &TableDef{Name: "t", Columns: []types.Column{{Name: "id", Type: intType()}, {Name: "v", Type: intType()}},
		Indexes: []IndexDef{{Primary: true, Columns: []string{"id"}}}}
	for _, e := range engines {
		createTable(t, e, "b", def)
	}
	tableOf := func(e *Engine) *Table {
		tb, err := e.Catalog().Table("b", "t")
		if err != nil {
			t.Fatal(err)
		}
		return tb
	}
	result := func(err error) string {
		var dup *DuplicateKeyError
		switch {
		case err == nil:
			return "ok"
		case errors.As(err, &dup):
			return "dup"
		}
		return err.Error()
	}
	type op struct {
		kind    byte // 'i' insert, 'd' delete, 'm' move id to v
		id, new int64
	}
	// run applies groups of ops (one job per inner slice) and returns
	// each op's result.
	run := func(e *Engine, jobs [][]op) []string {
		tb := tableOf(e)
		res := make([][]string, len(jobs))
		fns := make([]func(*Job) error, len(jobs))
		for j, ops := range jobs {
			fns[j] = func(tx *Job) error {
				for _, o := range ops {
					var err error
					switch o.kind {
					case 'i':
						_, err = tx.CheckedInsert(tb, row(iv(o.id), iv(o.id*10)))
					case 'd':
						_, err = tx.Delete(tb, row(iv(o.id), iv(0)))
					case 'm':
						var found []Row
						if err = tx.Find(tb, &Query{Op: OpEQ, Key: []types.Value{{I: o.id}}}, func(r Row) bool { found = append(found, r.Clone()); return true }); err == nil && len(found) == 1 {
							_, err = tx.Update(tb, found[0], row(iv(o.new), found[0][1]))
						}
					}
					res[j] = append(res[j], result(err))
				}
				return nil
			}
		}
		errs := make([]error, len(jobs))
		e.UpdateAll(context.Background(), fns, errs)
		var out []string
		for j := range jobs {
			if errs[j] != nil {
				t.Fatalf("job %d: %v", j, errs[j])
			}
			out = append(out, res[j]...)
		}
		return out
	}
	contents := func(e *Engine) []int64 {
		return ids(findAll(t, e, tableOf(e), &Query{Op: OpGE, Key: []types.Value{{I: -1 << 40}}, Limit: 1 << 30}))
	}
	step := func(what string, jobs [][]op) {
		t.Helper()
		a, b := run(withBounds, jobs), run(plain, jobs)
		if !slices.Equal(a, b) {
			t.Fatalf("%s %v: with bounds %v, without %v", what, jobs, a, b)
		}
	}
	step("seed", [][]op{{{'i', 1, 0}, {'i', 2, 0}, {'i', 3, 0}}})
	var built []string
	for _, e := range engines {
		tb := tableOf(e)
		var r1, r2 error
		update(t, e, func(tx *Job) error {
			var err error
			if tb, err = tx.AddIndex("b", "t", &IndexDef{Name: "uv", Unique: true, Columns: []string{"v"}}); err != nil {
				return err
			}
			_, r1 = tx.CheckedInsert(tb, row(iv(50), iv(5)))
			return nil
		})
		update(t, e, func(tx *Job) error { _, r2 = tx.CheckedInsert(tb, row(iv(51), iv(30))); return nil })
		update(t, e, func(tx *Job) error { _, err := tx.DropIndex("b", "t", "uv"); return err })
		built = append(built, result(r1)+" "+result(r2))
	}
	if built[0] != built[1] || built[1] != "ok dup" {
		t.Fatalf("after an index build: with bounds %q, without %q (want \"ok dup\")", built[0], built[1])
	}
	// A write with no check before it (a transaction's commit replays its
	// checked inserts unchecked) to an index without a bound yet, then a
	// first check in the same group.
	var replayed []string
	for _, e := range engines {
		var tb *Table
		update(t, e, func(tx *Job) error {
			var err error
			tb, err = tx.CreateTable("b", &TableDef{Name: "u", Columns: def.Columns, Indexes: def.Indexes})
			return err
		})
		var r1, r2 error
		fns := []func(*Job) error{
			func(tx *Job) error {
				tx.unchecked = true
				defer func() { tx.unchecked = false }()
				_, err := tx.Insert(tb, row(iv(900), iv(0)))
				return err
			},
			func(tx *Job) error { _, r1 = tx.CheckedInsert(tb, row(iv(5), iv(0))); return nil },
		}
		errs := make([]error, 2)
		e.UpdateAll(context.Background(), fns, errs)
		if errs[0] != nil || errs[1] != nil {
			t.Fatal(errs)
		}
		update(t, e, func(tx *Job) error { _, r2 = tx.CheckedInsert(tb, row(iv(900), iv(1))); return nil })
		replayed = append(replayed, result(r1)+" "+result(r2))
	}
	if replayed[0] != replayed[1] || replayed[1] != "ok dup" {
		t.Fatalf("after an unchecked write: with bounds %q, without %q (want \"ok dup\")", replayed[0], replayed[1])
	}
	step("move high, then a first check", [][]op{{{'m', 2, 20000}, {'i', 5, 0}}})
	step("the moved key", [][]op{{{'i', 20000, 0}}})
	// The random part runs on a table of its own, where no key far above
	// the others keeps every insert below the bound.
	for _, e := range engines {
		update(t, e, func(tx *Job) error {
			if err := tx.DropTable("b", "t"); err != nil {
				return err
			}
			_, err := tx.CreateTable("b", def)
			return err
		})
	}
	rnd := rand.New(rand.NewPCG(7, 8))
	next := int64(100)
	for g := range 400 {
		var jobs [][]op
		var inGroup []int64
		for range 1 + rnd.IntN(6) {
			var ops []op
			for range 1 + rnd.IntN(4) {
				var o op
				switch r := rnd.IntN(10); {
				case r < 4: // ascending, as AUTO_INCREMENT inserts
					o = op{'i', next + int64(rnd.IntN(3)), 0}
					next += int64(rnd.IntN(2))
				case r < 5 && len(inGroup) > 0:
					o = op{'i', inGroup[rnd.IntN(len(inGroup))], 0}
				case r < 6:
					o = op{'i', int64(rnd.IntN(int(next) + 5)), 0}
				case r < 7:
					o = op{'d', int64(rnd.IntN(int(next) + 5)), 0}
				case r < 8:
					o = op{'m', int64(rnd.IntN(int(next) + 5)), next + int64(rnd.IntN(5)) - 2}
				default:
					o = op{'i', next - int64(rnd.IntN(50)), 0}
				}
				if o.kind == 'i' {
					inGroup = append(inGroup, o.id)
				}
				ops = append(ops, o)
			}
			jobs = append(jobs, ops)
		}
		step(fmt.Sprint("group ", g), jobs)
		switch rnd.IntN(40) {
		case 0:
			for _, e := range engines {
				update(t, e, func(tx *Job) error { return tx.TruncateTable("b", "t") })
			}
		case 1:
			for _, e := range engines {
				update(t, e, func(tx *Job) error {
					if _, err := tx.AddIndex("b", "t", &IndexDef{Name: fmt.Sprint("v", g), Columns: []string{"v"}}); err != nil {
						return err
					}
					_, err := tx.DropIndex("b", "t", fmt.Sprint("v", g))
					return err
				})
			}
		}
	}
	if a, b := contents(withBounds), contents(plain); !slices.Equal(a, b) {
		t.Fatalf("tables differ: with bounds %v, without %v", a, b)
	}
}

// TestKeyBoundsAfterIngest: a staged job's rows reach the store as an
// sstable, never through the batch, so its ingest must drop the bounds: a
// duplicate of a staged key above the old bound is still refused.
func TestKeyBoundsAfterIngest(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	people := setupPeople(t, e)
	insert := func(id int64) error {
		var ierr error
		update(t, e, func(tx *Job) error {
			_, ierr = tx.CheckedInsert(people, row(iv(id), sv("p"), null(), null()))
			return nil
		})
		return ierr
	}
	if err := insert(1); err != nil { // the primary key's bound is now 1
		t.Fatal(err)
	}
	s, err := e.BeginStage(context.Background(), StageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Insert(people, row(iv(500), sv("staged"), null(), null())); err != nil {
		t.Fatal(err)
	}
	if err := s.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	var dup *DuplicateKeyError
	if err := insert(500); !errors.As(err, &dup) {
		t.Fatalf("inserting the staged key again: %v, want a duplicate key", err)
	}
	if err := insert(501); err != nil {
		t.Fatal(err)
	}
}
