package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// TestSecondaryReadsDuringWrites reads through the secondary indexes (a
// unique point lookup, a non-unique find and an SQL iterator) while a
// writer deletes, re-inserts and changes the indexed columns. A row whose
// entry was read before a commit that removed or changed it must be
// skipped: no error, and no row that does not match what was asked.
func TestSecondaryReadsDuringWrites(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := setupPeople(t, e)
	const keys = 40
	email := func(k, gen int64) string { return fmt.Sprintf("e%d-%d", k, gen%3) }
	name := func(k, gen int64) string { return fmt.Sprintf("n%d", (k+gen)%4) }
	update(t, e, func(tx *Job) error {
		for k := int64(1); k <= keys; k++ {
			if _, err := tx.Insert(tb, row(iv(k), sv(name(k, 0)), sv(email(k, 0)), iv(0))); err != nil {
				return err
			}
		}
		return nil
	})
	stop := make(chan struct{})
	var writes sync.WaitGroup
	writes.Add(1)
	go func() {
		defer writes.Done()
		rnd := rand.New(rand.NewPCG(3, 4))
		for gen := int64(1); ; gen++ {
			select {
			case <-stop:
				return
			default:
			}
			k := int64(rnd.IntN(keys) + 1)
			err := e.Update(context.Background(), func(tx *Job) error {
				if gen%2 == 0 { // delete, then insert with new index values
					if _, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, &Modify{Op: ModDelete}); err != nil {
						return err
					}
					_, err := tx.Insert(tb, row(iv(k), sv(name(k, gen)), sv(email(k, gen)), iv(gen)))
					return err
				}
				_, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: Row{iv(k)}}, &Modify{Op: ModUpdate, Columns: []int{1, 2}, Values: Row{sv(name(k, gen)), sv(email(k, gen))}})
				return err
			})
			if err != nil && !errors.Is(err, ErrDuplicateKey) {
				t.Error(err)
				return
			}
		}
	}()
	rnd := rand.New(rand.NewPCG(5, 6))
	deadline := time.Now().Add(700 * time.Millisecond)
	reads := 0
	for time.Now().Before(deadline) {
		reads++
		k, gen := int64(rnd.IntN(keys)+1), int64(rnd.IntN(3))
		want := email(k, gen)
		err := e.Find(tb, &Query{Index: tb.Index("email"), Op: OpEQ, Key: Row{sv(want)}}, func(r Row) bool {
			if string(r[2].B) != want {
				t.Errorf("unique find of %s returned %v", want, r)
			}
			return true
		})
		if err != nil {
			t.Fatalf("unique find: %v", err)
		}
		n := fmt.Sprintf("n%d", rnd.IntN(4))
		err = e.Find(tb, &Query{Index: tb.Index("name_age"), Op: OpEQ, Key: Row{sv(n)}}, func(r Row) bool {
			if string(r[1].B) != n {
				t.Errorf("find of name %s returned %v", n, r)
			}
			return true
		})
		if err != nil {
			t.Fatalf("non-unique find: %v", err)
		}
		it, err := e.NewIterator(tb, tb.Index("name_age"), Range{Lower: Row{sv(n)}, Upper: Row{sv(n)}}, rnd.IntN(2) == 0)
		if err != nil {
			t.Fatal(err)
		}
		for {
			r, err := it.Next()
			if err == io.EOF {
				break
			} else if err != nil {
				t.Fatalf("iterator: %v", err)
			}
			if string(r[1].B) != n {
				t.Errorf("iterator over name %s returned %v", n, r)
			}
		}
		it.Close()
	}
	close(stop)
	writes.Wait()
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d rounds of reads", reads)
}
