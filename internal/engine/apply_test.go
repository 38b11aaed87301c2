package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"testing"

	"github.com/cockroachdb/pebble/v2"
	"github.com/handlerdb/handlerdb/internal/types"
)

// applyDef is (id INT PRIMARY KEY, u INT NULL UNIQUE, g INT, v
// VARCHAR(20) NULL, KEY g (g)).
func applyDef() *TableDef {
	return &TableDef{Name: "t",
		Columns: []types.Column{
			{Name: "id", Type: intType()},
			{Name: "u", Type: intType(), Nullable: true},
			{Name: "g", Type: intType()},
			{Name: "v", Type: varcharType(20, "utf8mb4_general_ci"), Nullable: true},
		},
		Indexes: []IndexDef{
			{Primary: true, Columns: []string{"id"}},
			{Name: "u", Unique: true, Columns: []string{"u"}},
			{Name: "g", Columns: []string{"g"}},
		}}
}

// dataKeys returns every index entry of the store, key -> value.
func dataKeys(tb testing.TB, e *Engine) map[string]string {
	tb.Helper()
	it, err := e.db.NewIter(&pebble.IterOptions{LowerBound: []byte{dataPrefix}, UpperBound: []byte{dataPrefix + 1}})
	if err != nil {
		tb.Fatal(err)
	}
	defer it.Close()
	out := map[string]string{}
	for it.First(); it.Valid(); it.Next() {
		out[string(it.Key())] = string(it.Value())
	}
	return out
}

// outcome is what a run of changes did: how many it made and its error.
type outcome struct {
	n   int
	err string
}

func (o outcome) String() string { return fmt.Sprintf("%d changes, error %q", o.n, o.err) }

func errText(err error) string {
	if err == nil {
		return ""
	}
	var dk *DuplicateKeyError
	if errors.As(err, &dk) {
		return fmt.Sprintf("duplicate %s on %s of %v", dk.Index, dk.Table, dk.Existing)
	}
	return err.Error()
}

// oneByOne makes cs with Insert, Update and Delete, as Apply documents
// it.
func oneByOne(tx *Job, cs []Change) (int, error) {
	for i, c := range cs {
		found := true
		var err error
		switch c.Kind {
		case ChangeInsert:
			_, err = tx.Insert(c.Table, c.Row.Clone())
		case ChangeUpdate:
			found, err = tx.Update(c.Table, c.Old, c.Row.Clone())
		case ChangeDelete:
			found, err = tx.Delete(c.Table, c.Old)
		}
		if err != nil || !found {
			return i, err
		}
	}
	return len(cs), nil
}

func cloneChanges(cs []Change) []Change {
	out := make([]Change, len(cs))
	for i, c := range cs {
		out[i] = Change{Kind: c.Kind, Table: c.Table, Old: c.Old.Clone(), Row: c.Row.Clone()}
	}
	return out
}

// TestApplyMatchesOneByOne: random runs of inserts, updates and deletes
// (duplicates of committed and of pending keys, unique-key clashes,
// missing rows, the same key changed several times in one run) make the
// same changes and answers through Apply as through Insert/Update/Delete
// one by one, with the row cache on (the read-ahead) and off.
func TestApplyMatchesOneByOne(t *testing.T) {
	for _, cache := range []int64{0, -1} {
		t.Run(fmt.Sprintf("rowcache=%d", cache), func(t *testing.T) {
			ea := openTestEngine(t, "", DurabilityNone, withRowCache(cache))
			eb := openTestEngine(t, "", DurabilityNone, withRowCache(cache))
			ta, tb := createTable(t, ea, "a", applyDef()), createTable(t, eb, "a", applyDef())
			rnd := rand.New(rand.NewSource(14))
			const ids = 300
			rowOf := func(id int) Row {
				u := iv(int64(rnd.Intn(ids * 2)))
				if rnd.Intn(5) == 0 {
					u = null()
				}
				v := sv(fmt.Sprintf("v%d", rnd.Intn(50)))
				if rnd.Intn(7) == 0 {
					v = null()
				}
				return row(iv(int64(id)), u, iv(int64(rnd.Intn(10))), v)
			}
			for round := 0; round < 300; round++ {
				var cs []Change
				for k := rnd.Intn(40) + 1; k > 0; k-- {
					id := rnd.Intn(ids)
					switch rnd.Intn(3) {
					case 0:
						cs = append(cs, Change{Kind: ChangeInsert, Row: rowOf(id)})
					case 1:
						nid := id
						if rnd.Intn(6) == 0 {
							nid = rnd.Intn(ids) // the primary key moves
						}
						cs = append(cs, Change{Kind: ChangeUpdate, Old: rowOf(id), Row: rowOf(nid)})
					default:
						cs = append(cs, Change{Kind: ChangeDelete, Old: rowOf(id)})
					}
				}
				ca, cb := cloneChanges(cs), cloneChanges(cs)
				for i := range ca {
					ca[i].Table, cb[i].Table = ta, tb
				}
				// Half the runs come after a write of the same job, which
				// the read-ahead must not hide.
				pre := -1
				if rnd.Intn(2) == 0 {
					pre = rnd.Intn(ids)
				}
				preRow := rowOf(pre)
				preRow[1] = null()
				abort := rnd.Intn(2) == 0 // a failed run's job returns its error
				var oa, ob outcome
				for _, side := range []struct {
					e   *Engine
					t   *Table
					cs  []Change
					o   *outcome
					run func(*Job, []Change) (int, error)
				}{{ea, ta, ca, &oa, func(tx *Job, cs []Change) (int, error) { return tx.Apply(cs) }}, {eb, tb, cb, &ob, oneByOne}} {
					side.e.Update(context.Background(), func(tx *Job) error {
						if pre >= 0 {
							if _, err := tx.Delete(side.t, preRow); err != nil {
								return err
							}
							if _, err := tx.Insert(side.t, preRow.Clone()); err != nil {
								return err
							}
						}
						n, err := side.run(tx, side.cs)
						*side.o = outcome{n, errText(err)}
						if err != nil && abort {
							return err
						}
						return nil
					})
				}
				if oa != ob {
					t.Fatalf("round %d: Apply made %v, one by one %v", round, oa, ob)
				}
				ka, kb := dataKeys(t, ea), dataKeys(t, eb)
				if len(ka) != len(kb) {
					t.Fatalf("round %d: %d index entries through Apply, %d one by one", round, len(ka), len(kb))
				}
				for k, v := range kb {
					if ka[k] != v {
						t.Fatalf("round %d: entry %x is %x through Apply, %x one by one", round, k, ka[k], v)
					}
				}
			}
		})
	}
}

// TestSortedCommit: a group's records committed in key order (commit,
// sortcommit.go) leave what the batch says, with the later of two
// records of a key winning (set after delete, delete after set, several
// sets), for groups over and under sortCommitMin records, with and
// without a range deletion among them.
func TestSortedCommit(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	rnd := rand.New(rand.NewSource(7))
	want := map[string]string{}
	key := func(n int) []byte { return []byte{dataPrefix, 0, 0, 0, 9, byte(n >> 8), byte(n), 'k'} }
	for round := 0; round < 60; round++ {
		records := rnd.Intn(3 * sortCommitMin)
		ranged := round%5 == 4
		update(t, e, func(tx *Job) error {
			for i := 0; i < records; i++ {
				n := rnd.Intn(400)
				if rnd.Intn(3) == 0 {
					if err := tx.del(key(n)); err != nil {
						return err
					}
					delete(want, string(key(n)))
					continue
				}
				v := fmt.Sprintf("r%d-%d", round, i)
				if err := tx.set(key(n), []byte(v)); err != nil {
					return err
				}
				want[string(key(n))] = v
				if ranged && i == records/2 {
					lo, hi := rnd.Intn(400), rnd.Intn(400)
					if lo > hi {
						lo, hi = hi, lo
					}
					if err := tx.delRange(key(lo), key(hi)); err != nil {
						return err
					}
					for k := range want {
						if k >= string(key(lo)) && k < string(key(hi)) {
							delete(want, k)
						}
					}
				}
			}
			return nil
		})
		got := dataKeys(t, e)
		if len(got) != len(want) {
			t.Fatalf("round %d (%d records): %d keys, want %d", round, records, len(got), len(want))
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("round %d (%d records): key %x is %q, want %q", round, records, k, got[k], v)
			}
		}
	}
}
