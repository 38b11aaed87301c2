package engine

import (
	"context"
	"errors"
	"testing"
)

// TestReplicaPosition: the position commits with the job's rows, rolls
// back with them, and survives a reopen.
func TestReplicaPosition(t *testing.T) {
	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilitySync)
	tbl := setupPeople(t, e)
	if pos, err := e.ReplicaPosition(); err != nil || pos != nil {
		t.Fatalf("fresh store: %q %v", pos, err)
	}
	update(t, e, func(tx *Job) error {
		if _, err := tx.Insert(tbl, row(iv(100), sv("a"), null(), null())); err != nil {
			return err
		}
		return tx.SetReplicaPosition([]byte("0-1-5"))
	})
	boom := errors.New("boom")
	err := e.Update(context.Background(), func(tx *Job) error {
		if _, err := tx.Insert(tbl, row(iv(101), sv("b"), null(), null())); err != nil {
			return err
		}
		if err := tx.SetReplicaPosition([]byte("0-1-6")); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatal(err)
	}
	e.Close()
	e = openTestEngine(t, dir, DurabilitySync)
	pos, err := e.ReplicaPosition()
	if err != nil || string(pos) != "0-1-5" {
		t.Fatalf("after reopen: %q %v, want 0-1-5", pos, err)
	}
	tbl, _ = e.Catalog().Table("app", "people")
	if got := ids(findAll(t, e, tbl, &Query{Index: tbl.Primary, Op: OpGE})); len(got) != 1 || got[0] != 100 {
		t.Fatalf("rows %v, want [100]", got)
	}
}

// TestReadOnly: while the engine is read-only, a job's writes fail with
// ErrReadOnly (and the job's other writes roll back with it) unless its
// context is Privileged; reads and jobs that write nothing are unaffected.
func TestReadOnly(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tbl := setupPeople(t, e)
	e.SetReadOnly(true)
	if !e.ReadOnly() {
		t.Fatal("ReadOnly() false after SetReadOnly(true)")
	}
	for name, fn := range map[string]func(tx *Job) error{
		"insert": func(tx *Job) error { _, err := tx.Insert(tbl, row(iv(1), sv("a"), null(), null())); return err },
		"ddl":    func(tx *Job) error { return tx.CreateDatabase("other") },
		"blob":   func(tx *Job) error { return tx.SetBlob("x", []byte("y")) },
		"pos":    func(tx *Job) error { return tx.SetReplicaPosition([]byte("p")) },
	} {
		if err := e.Update(context.Background(), fn); !errors.Is(err, ErrReadOnly) {
			t.Errorf("%s: %v, want ErrReadOnly", name, err)
		}
	}
	update(t, e, func(tx *Job) error { return nil })
	if err := e.Update(Privileged(context.Background()), func(tx *Job) error {
		if _, err := tx.Insert(tbl, row(iv(2), sv("b"), null(), null())); err != nil {
			return err
		}
		return tx.SetReplicaPosition([]byte("p"))
	}); err != nil {
		t.Fatalf("privileged job: %v", err)
	}
	if got := ids(findAll(t, e, tbl, &Query{Index: tbl.Primary, Op: OpGE})); len(got) != 1 || got[0] != 2 {
		t.Fatalf("rows %v, want [2]", got)
	}
	e.SetReadOnly(false)
	update(t, e, func(tx *Job) error { _, err := tx.Insert(tbl, row(iv(3), sv("c"), null(), null())); return err })
}
