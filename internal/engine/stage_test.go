package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// stagedOps applies the same changes through w, once as one ordinary job
// and once as a staged job, so that the two stores can be compared. It
// inserts n rows over the committed ones (ids 1..100), updates and deletes
// committed and staged rows, and checks that a duplicate of a committed
// or staged unique key is refused.
type rowWriter interface {
	Insert(t *Table, row Row) (uint64, error)
	Update(t *Table, old, row Row) (bool, error)
	Delete(t *Table, row Row) (bool, error)
}

func person(id int64, email string) Row {
	e := null()
	if email != "" {
		e = sv(email)
	}
	return row(iv(id), sv(fmt.Sprintf("name %06d padded to be a longer value", id%997)), e, iv(id%50))
}

func stagedOps(t *testing.T, w rowWriter, people, bag *Table, n int) {
	t.Helper()
	must := func(ok bool, err error) {
		t.Helper()
		if err != nil || !ok {
			t.Fatalf("ok=%v err=%v", ok, err)
		}
	}
	for i := 0; i < n; i++ {
		id := int64(1000 + i)
		if _, err := w.Insert(people, person(id, fmt.Sprintf("s%d@x", id))); err != nil {
			t.Fatal(err)
		}
	}
	// Committed rows: update (new email, new secondary key), delete.
	for id := int64(1); id <= 100; id += 3 {
		must(w.Update(people, person(id, ""), person(id, fmt.Sprintf("moved%d@x", id))))
	}
	for id := int64(2); id <= 100; id += 5 {
		must(w.Delete(people, person(id, "")))
	}
	// Staged rows: update twice, delete, insert again.
	for id := int64(1000); id < int64(1000+n); id += 101 {
		must(w.Update(people, person(id, ""), person(id, "")))
		must(w.Update(people, person(id, ""), person(id, fmt.Sprintf("again%d@x", id))))
	}
	for id := int64(1001); id < int64(1000+n); id += 211 {
		must(w.Delete(people, person(id, "")))
	}
	if _, err := w.Insert(people, person(1001, "back@x")); err != nil {
		t.Fatal(err)
	}
	// A deleted row is not found; duplicates of committed and staged keys
	// are refused.
	if ok, err := w.Delete(people, person(2, "")); ok || err != nil {
		t.Fatalf("deleted row found again: %v %v", ok, err)
	}
	var dup *DuplicateKeyError
	if _, err := w.Insert(people, person(5000000, "moved1@x")); !errors.As(err, &dup) {
		t.Fatalf("duplicate of an updated committed email: %v", err)
	}
	if _, err := w.Insert(people, person(1002, "")); !errors.As(err, &dup) {
		t.Fatalf("duplicate of a staged primary key: %v", err)
	}
	if _, err := w.Insert(people, person(3, "")); !errors.As(err, &dup) {
		t.Fatalf("duplicate of a committed primary key: %v", err)
	}
	if _, err := w.Insert(people, person(5000001, "s1005@x")); !errors.As(err, &dup) {
		t.Fatalf("duplicate of a staged email: %v", err)
	}
	// A table without a primary key: rows found by value, committed and
	// staged.
	for i := int64(0); i < 20; i++ {
		if _, err := w.Insert(bag, row(iv(i%4), iv(i))); err != nil {
			t.Fatal(err)
		}
	}
	must(w.Delete(bag, row(iv(1), iv(-1)))) // committed
	must(w.Delete(bag, row(iv(2), iv(6))))  // staged
	must(w.Update(bag, row(iv(3), iv(7)), row(iv(3), iv(70))))
	must(w.Update(bag, row(iv(0), iv(-2)), row(iv(0), iv(-20))))
}

// setupStaged creates app.people and app.bag with committed rows.
func setupStaged(t *testing.T, e *Engine) (*Table, *Table) {
	t.Helper()
	people := setupPeople(t, e)
	var bag *Table
	update(t, e, func(tx *Job) error {
		var err error
		bag, err = tx.CreateTable("app", &TableDef{Name: "bag", Columns: []types.Column{{Name: "g", Type: intType()}, {Name: "n", Type: intType()}}})
		if err != nil {
			return err
		}
		for id := int64(1); id <= 100; id++ {
			if _, err := tx.Insert(people, person(id, "")); err != nil {
				return err
			}
		}
		for _, r := range []Row{row(iv(1), iv(-1)), row(iv(0), iv(-2))} {
			if _, err := tx.Insert(bag, r); err != nil {
				return err
			}
		}
		return nil
	})
	return people, bag
}

// storeDump lists every index of both tables as rows, and the row counts.
func storeDump(t *testing.T, e *Engine) []string {
	t.Helper()
	var out []string
	for _, name := range []string{"people", "bag"} {
		tbl, err := e.Catalog().Table("app", name)
		if err != nil {
			t.Fatal(err)
		}
		idxs := append([]*Index{tbl.Primary}, tbl.secondaries()...)
		for _, idx := range idxs {
			for _, r := range findAll(t, e, tbl, &Query{Index: idx, Op: OpGE}) {
				out = append(out, fmt.Sprintf("%s.%s %v", name, idx.Name, r))
			}
		}
		n, err := e.RowCount(tbl)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, fmt.Sprintf("%s count %d", name, n))
	}
	return out
}

// TestStage: a staged job's writes are invisible until Commit, which
// makes the store equal to the one an ordinary job gives; its own reads
// see its writes over the committed rows; its memory stays within the
// chunk and memtables while it writes far more; the counters and the
// replica position come with it, also after a reopen.
func TestStage(t *testing.T) {
	const n = 60000
	ref := openTestEngine(t, "", DurabilityNone)
	rp, rb := setupStaged(t, ref)
	update(t, ref, func(tx *Job) error {
		stagedOps(t, tx, rp, rb, n)
		return tx.SetReplicaPosition([]byte("pos-1"))
	})

	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilitySync)
	people, bag := setupStaged(t, e)
	before := storeDump(t, e)
	s, err := e.BeginStage(context.Background(), StageOptions{ChunkBytes: 64 << 10, MemTableBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	stagedOps(t, s, people, bag, n)
	if err := s.SetReplicaPosition([]byte("pos-1")); err != nil {
		t.Fatal(err)
	}
	if got := storeDump(t, e); !reflect.DeepEqual(got, before) {
		t.Fatal("staged writes visible before Commit")
	}
	if pos, _ := e.ReplicaPosition(); pos != nil {
		t.Fatalf("position %q before Commit", pos)
	}
	if err := s.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	want := storeDump(t, ref)
	if got := storeDump(t, e); !reflect.DeepEqual(got, want) {
		t.Fatalf("after Commit: %d entries, want %d", len(got), len(want))
	}
	peak := s.PeakMemory()
	if bound := int64(64<<10 + 3*(1<<20) + 256<<10); peak <= 0 || peak > bound || e.Stats().StagedPeakBytes.Load() != peak {
		t.Fatalf("peak staged memory %d (stat %d), bound %d", peak, e.Stats().StagedPeakBytes.Load(), bound)
	}
	if keys, bytes := s.Written(); bytes < 4*peak {
		t.Fatalf("the job staged %d keys, %d bytes only: not far above its peak memory %d", keys, bytes, peak)
	}
	if _, err := os.Stat(s.dir); !os.IsNotExist(err) {
		t.Fatalf("staging store left after Commit: %v", err)
	}
	t.Logf("%d keys (%d bytes) staged, peak memory %d bytes", s.st.keys, s.st.bytes, peak)

	// The counters were ingested too: after a reopen the next
	// AUTO_INCREMENT id is the one the ordinary job's store gives.
	e.Close()
	e = openTestEngine(t, dir, DurabilitySync)
	if pos, err := e.ReplicaPosition(); err != nil || string(pos) != "pos-1" {
		t.Fatalf("position after reopen %q %v", pos, err)
	}
	if got := storeDump(t, e); !reflect.DeepEqual(got, want) {
		t.Fatal("after reopen: store differs")
	}
	next := func(e *Engine) uint64 {
		tbl, _ := e.Catalog().Table("app", "people")
		var id uint64
		update(t, e, func(tx *Job) error {
			var err error
			id, err = tx.Insert(tbl, row(null(), sv("next"), null(), null()))
			return err
		})
		return id
	}
	if a, b := next(e), next(ref); a != b || a == 0 {
		t.Fatalf("next id after the staged job and a reopen %d, after the ordinary job %d", a, b)
	}
}

// TestStageAbort: an aborted staged job, and one a crash interrupted
// (its staging store left on disk), leave the store as it was; Open
// removes the leftover.
func TestStageAbort(t *testing.T) {
	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilitySync)
	people, bag := setupStaged(t, e)
	before := storeDump(t, e)
	s, err := e.BeginStage(context.Background(), StageOptions{ChunkBytes: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	stagedOps(t, s, people, bag, 2000)
	if err := s.Abort(); err != nil {
		t.Fatal(err)
	}
	if got := storeDump(t, e); !reflect.DeepEqual(got, before) {
		t.Fatal("aborted job visible")
	}
	if err := s.Commit(context.Background()); err == nil {
		t.Fatal("Commit after Abort succeeded")
	}

	// Interrupted: the staging store and even a written sstable stay on
	// disk; a reopened engine has none of it and removes them.
	s, err = e.BeginStage(context.Background(), StageOptions{ChunkBytes: 4 << 10})
	if err != nil {
		t.Fatal(err)
	}
	stagedOps(t, s, people, bag, 2000)
	if err := s.st.apply(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.st.writeTable(e.db, e.opts.FS, filepath.Join(s.dir, "ingest.sst")); err != nil {
		t.Fatal(err)
	}
	s.st.chunk.Close()
	s.st.sdb.Close()
	e.Close()
	e = openTestEngine(t, dir, DurabilitySync)
	if got := storeDump(t, e); !reflect.DeepEqual(got, before) {
		t.Fatal("interrupted job visible after reopen")
	}
	if _, err := os.Stat(filepath.Join(dir, stageDirName)); !os.IsNotExist(err) {
		t.Fatalf("staging directory left after Open: %v", err)
	}
}

// TestStageRules: a staged job is refused while read-only unless
// privileged, cannot delete ranges, and fails at Commit if DDL changed
// the catalog meanwhile.
func TestStageRules(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	people, _ := setupStaged(t, e)
	e.SetReadOnly(true)
	s, err := e.BeginStage(context.Background(), StageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Insert(people, person(5000, "")); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("staged insert while read-only: %v", err)
	}
	s.Abort()
	s, err = e.BeginStage(Privileged(context.Background()), StageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Insert(people, person(5000, "")); err != nil {
		t.Fatal(err)
	}
	if err := s.w.delRange([]byte{1}, []byte{2}); !errors.Is(err, errStageRange) {
		t.Fatalf("range deletion: %v", err)
	}
	e.SetReadOnly(false)
	update(t, e, func(tx *Job) error {
		_, err := tx.CreateTable("app", &TableDef{Name: "other", Columns: []types.Column{{Name: "a", Type: intType()}}})
		return err
	})
	if err := s.Commit(context.Background()); !errors.Is(err, ErrTableDefChanged) {
		t.Fatalf("Commit after DDL: %v", err)
	}
	if got := findAll(t, e, people, &Query{Index: people.Primary, Op: OpEQ, Key: []types.Value{iv(5000)}}); len(got) != 0 {
		t.Fatalf("failed staged job visible: %v", got)
	}
}

// A staged job with NewKeys (LOAD DATA) fails at Commit, storing nothing,
// when another job wrote one of its new keys after the staged job looked:
// the ingest would otherwise overwrite that row (and leave its index
// entries behind). Without the write in between it commits.
func TestStageNewKeysConflict(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := createTable(t, e, "c", crashTableDef())
	for _, between := range []bool{false, true} {
		base := int64(100)
		if between {
			base = 200
		}
		s, err := e.BeginStage(context.Background(), StageOptions{NewKeys: true})
		if err != nil {
			t.Fatal(err)
		}
		for i := int64(0); i < 10; i++ {
			if _, err := s.Insert(tb, row(iv(base+i), iv(1), sv(fmt.Sprintf("s%d", base+i)))); err != nil {
				t.Fatal(err)
			}
		}
		if between {
			if err := e.Update(context.Background(), func(tx *Job) error {
				_, err := tx.Insert(tb, row(iv(base+5), iv(1), sv("other")))
				return err
			}); err != nil {
				t.Fatal(err)
			}
		}
		err = s.Commit(context.Background())
		if !between {
			if err != nil {
				t.Fatalf("commit without a write in between: %v", err)
			}
			continue
		}
		if !errors.Is(err, ErrTableDefChanged) {
			t.Fatalf("commit after another job wrote a staged key: %v, want ErrTableDefChanged", err)
		}
	}
	var ids []int64
	var vals []string
	it, _ := e.NewIterator(tb, nil, Range{}, false)
	for {
		r, err := it.Next()
		if err != nil {
			break
		}
		ids = append(ids, r[0].I)
		vals = append(vals, string(r[2].B))
	}
	it.Close()
	if len(ids) != 11 || ids[10] != 205 || vals[10] != "other" {
		t.Fatalf("rows %v %v: want the 10 of the first stage and the other job's row 205", ids, vals)
	}
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
}
