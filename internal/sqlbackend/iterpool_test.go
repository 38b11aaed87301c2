package sqlbackend

import (
	"context"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/types"
)

// TestIterPoolReuse runs lookup joins whose inner walks reuse pooled
// iterators, and checks their answers against the same joins read in a
// REPEATABLE READ snapshot (which never pools); a commit by another
// session between two statements is seen by the second.
func TestIterPoolReuse(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d",
		"CREATE TABLE cu (id INT PRIMARY KEY, name VARCHAR(20))",
		"CREATE TABLE re (id INT PRIMARY KEY, cu INT, at DATE, KEY kcu (cu))")
	var rows []string
	for i := 1; i <= 60; i++ {
		rows = append(rows, fmt.Sprintf("(%d, 'c%d')", i, i))
	}
	b.MustExec(t, ctx, "INSERT INTO cu VALUES "+strings.Join(rows, ", "))
	rows = rows[:0]
	for i := 1; i <= 400; i++ {
		rows = append(rows, fmt.Sprintf("(%d, %d, '2024-01-%02d')", i, 1+i%53, 1+i%28))
	}
	b.MustExec(t, ctx, "INSERT INTO re VALUES "+strings.Join(rows, ", "))
	queries := []string{
		"SELECT cu.id FROM cu LEFT JOIN re ON re.cu = cu.id WHERE re.id IS NULL ORDER BY cu.id",
		"SELECT cu.id, COUNT(re.id), MAX(re.at) FROM cu LEFT JOIN re ON re.cu = cu.id GROUP BY cu.id ORDER BY cu.id",
		"SELECT id, at FROM re WHERE cu IN (3, 9, 27, 40) ORDER BY id",
	}
	sess := SessionOf(ctx)
	check := func(label string) []string {
		t.Helper()
		var first []string
		for _, q := range queries {
			before := sess.pool.reused
			got, err := b.Query(ctx, q)
			if err != nil {
				t.Fatalf("%s: %s: %v", label, q, err)
			}
			if sess.pool.reused == before {
				t.Fatalf("%s: %s: no pooled iterator reused", label, q)
			}
			if len(sess.pool.free) != 0 || sess.pool.open != 0 {
				t.Fatalf("%s: %s: %d pooled, %d open after the statement", label, q, len(sess.pool.free), sess.pool.open)
			}
			b.MustExec(t, ctx, "START TRANSACTION WITH CONSISTENT SNAPSHOT")
			want, err := b.Query(ctx, q)
			b.MustExec(t, ctx, "COMMIT")
			if err != nil || len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("%s: %s:\n got %q\nwant %q (%v)", label, q, got, want, err)
			}
			if first == nil {
				first = got
			}
		}
		return first
	}
	b.MustExec(t, ctx, "SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ")
	never := check("before")
	other := b.Session()
	b.MustExec(t, other, "USE d", "INSERT INTO re VALUES (1000, "+strings.TrimSpace(never[0])+", '2024-02-01')", "DELETE FROM re WHERE cu = 5")
	after := check("after")
	if strings.Join(after, ",") == strings.Join(never, ",") {
		t.Fatalf("another session's commit not seen: %q", after)
	}
}

// TestIterPoolStale checks that a pooled iterator is not reused once the
// store has changed since it was opened.
func TestIterPoolStale(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE d", "USE d", "CREATE TABLE k (id INT PRIMARY KEY, v INT, KEY kv (v))",
		"INSERT INTO k VALUES (1, 10), (2, 20)")
	tb, err := b.E.Catalog().Table("d", "k")
	if err != nil {
		t.Fatal(err)
	}
	idx := tb.Index("kv")
	var p iterPool
	open := func() pooledIter {
		mark, quiet := b.E.QuietPoint()
		if !quiet {
			t.Fatal("writer busy")
		}
		it, err := b.E.NewIterator(tb, idx, engine.Range{}, false)
		if err != nil {
			t.Fatal(err)
		}
		return pooledIter{it: it, t: tb, idx: idx, mark: mark}
	}
	p.put(open())
	rg := engine.Range{Lower: []types.Value{{I: 20}}, Upper: []types.Value{{I: 20}}}
	it, mark := p.take(b.E, tb, idx, rg, false)
	if it == nil {
		t.Fatal("no reuse of an unchanged store")
	}
	r, err := it.Next()
	if err != nil || r[0].I != 2 {
		t.Fatalf("reset iterator read %v, %v", r, err)
	}
	p.put(pooledIter{it: it, t: tb, idx: idx, mark: mark})
	if err := b.E.Update(context.Background(), func(tx *engine.Job) error {
		_, err := tx.Insert(tb, engine.Row{{I: 3}, {I: 20}})
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if it, _ := p.take(b.E, tb, idx, rg, false); it != nil {
		t.Fatal("a pooled iterator reused after a commit")
	}
	if len(p.free) != 0 {
		t.Fatal("the stale iterator stayed in the pool")
	}
}

// TestWalkHandleReuse: a walk closed by one reader serves the session's
// next one (newWalk), and a second Close of the first reader's handle
// does not end the next reader's walk.
func TestWalkHandleReuse(t *testing.T) {
	b := NewTestBackend(t)
	ctx := b.Session()
	b.MustExec(t, ctx, "CREATE DATABASE wh", "CREATE TABLE wh.t (id INT PRIMARY KEY)",
		"INSERT INTO wh.t VALUES (1), (2), (3), (4), (5)")
	sdb, err := b.P.Database(ctx, "wh")
	if err != nil {
		t.Fatal(err)
	}
	st, ok, err := sdb.GetTableInsensitive(ctx, "t")
	if err != nil || !ok {
		t.Fatalf("table t: %v %v", ok, err)
	}
	tbl := st.(*table)
	first, err := tbl.PartitionRows(ctx, partition{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := first.Next(ctx); err != nil {
		t.Fatal(err)
	}
	walk := first.(*walkHandle).it
	if err := first.Close(ctx); err != nil {
		t.Fatal(err)
	}
	second, err := tbl.PartitionRows(ctx, partition{})
	if err != nil {
		t.Fatal(err)
	}
	if second.(*walkHandle).it != walk {
		t.Fatal("the closed walk was not reused")
	}
	if _, err := second.Next(ctx); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(ctx); err != nil { // again: must not reach second's walk
		t.Fatal(err)
	}
	if _, err := first.Next(ctx); err != io.EOF {
		t.Fatalf("Next of a closed handle: %v, want io.EOF", err)
	}
	n := 1
	for {
		if _, err := second.Next(ctx); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 5 {
		t.Fatalf("the second reader read %d rows of 5", n)
	}
	second.Close(ctx)
}
