package engine

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// feedLog collects what a change feed delivers.
type feedLog struct {
	mu   sync.Mutex
	txns []FeedTxn
}

func (l *feedLog) add(txns []FeedTxn) {
	l.mu.Lock()
	l.txns = append(l.txns, txns...)
	l.mu.Unlock()
}

func (l *feedLog) all() []FeedTxn {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.txns)
}

// tableText prints every row of t in primary key order.
func tableText(tb testing.TB, e *Engine, t *Table) string {
	tb.Helper()
	var b strings.Builder
	it, err := e.NewIterator(t, nil, Range{}, false)
	eachRow(tb, it, err, func(r Row) {
		for i, v := range r {
			if i > 0 {
				b.WriteByte('|')
			}
			if v.Null {
				b.WriteString("NULL")
			} else if t.Columns[i].Type.Kind == types.Int {
				fmt.Fprint(&b, v.I)
			} else {
				b.Write(v.B)
			}
		}
		b.WriteByte('\n')
	})
	return b.String()
}

// TestChangeFeedReplays: a random workload through every writer path of
// the jobs (Insert, Update, Delete, FindModify, Apply, a transaction's
// commit, a job that fails, a statement rolled back inside a job,
// UpdateAll), from several goroutines at once, is delivered by the feed
// as numbered transactions which, applied in order to an empty copy of
// the table, give the same rows; the numbers run on after a reopen. With
// and without PipelineSync.
func TestChangeFeedReplays(t *testing.T) {
	for _, pipeline := range []bool{false, true} {
		t.Run(fmt.Sprintf("pipeline=%v", pipeline), func(t *testing.T) {
			dir := t.TempDir()
			d := DurabilityNone
			if pipeline {
				d = DurabilitySync
			}
			e := openTestEngine(t, dir, d, withPipelineSync(pipeline))
			ta := createTable(t, e, "a", applyDef())
			var log feedLog
			e.SetChangeFeed(log.add)
			runFeedWorkload(t, e, ta, 4, 150)
			txns := log.all()
			t.Logf("%d transactions delivered", len(txns))
			if len(txns) == 0 {
				t.Fatal("the feed delivered nothing")
			}
			for i, x := range txns {
				if x.Seq != uint64(i+1) {
					t.Fatalf("transaction %d has number %d", i, x.Seq)
				}
			}
			if got := e.FeedSeq(); got != uint64(len(txns)) {
				t.Fatalf("FeedSeq %d after %d transactions", got, len(txns))
			}
			// The copy.
			eb := openTestEngine(t, "", DurabilityNone)
			tb := createTable(t, eb, "a", applyDef())
			for _, x := range txns {
				cs := cloneChanges(x.Changes)
				for i := range cs {
					if cs[i].Table.ID != ta.ID {
						t.Fatalf("transaction %d: a change of table %d", x.Seq, cs[i].Table.ID)
					}
					cs[i].Table = tb
				}
				update(t, eb, func(tx *Job) error {
					n, err := tx.Apply(cs)
					if err == nil && n != len(cs) {
						err = fmt.Errorf("applied %d of %d", n, len(cs))
					}
					return err
				})
			}
			if a, b := tableText(t, e, ta), tableText(t, eb, tb); a != b {
				t.Fatalf("the copy made from the feed differs:\n%s\nwant\n%s", b, a)
			}
			// The numbers run on after a reopen.
			last := e.FeedSeq()
			e.Close()
			e = openTestEngine(t, dir, d, withPipelineSync(pipeline))
			if e.FeedSeq() != last {
				t.Fatalf("FeedSeq %d after reopen, want %d", e.FeedSeq(), last)
			}
			ta, _ = e.Catalog().Table("a", "t")
			var after feedLog
			e.SetChangeFeed(after.add)
			update(t, e, func(tx *Job) error {
				_, err := tx.Insert(ta, row(iv(100000), null(), iv(1), sv("after")))
				return err
			})
			if got := after.all(); len(got) != 1 || got[0].Seq != last+1 {
				t.Fatalf("after reopen: %+v, want one transaction numbered %d", got, last+1)
			}
			e.SetChangeFeed(nil)
			update(t, e, func(tx *Job) error {
				_, err := tx.Insert(ta, row(iv(100001), null(), iv(1), sv("unfed")))
				return err
			})
			if len(after.all()) != 1 || e.FeedSeq() != last+1 {
				t.Fatalf("a write without a feed was numbered: FeedSeq %d", e.FeedSeq())
			}
		})
	}
}

// runFeedWorkload makes random changes to t from workers goroutines,
// rounds each, through the writer paths the feed must see.
func runFeedWorkload(t *testing.T, e *Engine, tbl *Table, workers, rounds int) {
	ctx := context.Background()
	errFail := errors.New("the job fails")
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rnd := rand.New(rand.NewSource(int64(w) + 7))
			rowOf := func() Row {
				u := iv(int64(rnd.Intn(400)))
				if rnd.Intn(3) == 0 {
					u = null()
				}
				return row(iv(int64(rnd.Intn(60))), u, iv(int64(rnd.Intn(5))), sv(fmt.Sprintf("w%d-%d", w, rnd.Intn(1000))))
			}
			// each ignores a change's own errors (a duplicate key, a row
			// that is not there): only the job's result matters
			pk := func(id int64) *Query {
				return &Query{Index: tbl.Primary, Op: OpEQ, Key: []types.Value{iv(id)}}
			}
			for range rounds {
				switch rnd.Intn(7) {
				case 0: // inserts, some refused
					_ = e.Update(ctx, func(tx *Job) error {
						for range rnd.Intn(3) + 1 {
							_, _ = tx.Insert(tbl, rowOf())
						}
						return nil
					})
				case 1: // FindModify: update and delete, as HandlerSocket's
					_ = e.Update(ctx, func(tx *Job) error {
						_, _ = tx.FindModify(tbl, pk(int64(rnd.Intn(60))), &Modify{Op: ModUpdate, Columns: []int{3}, Values: []types.Value{sv(fmt.Sprintf("fm%d", rnd.Intn(100)))}})
						_, _ = tx.FindModify(tbl, pk(int64(rnd.Intn(60))), &Modify{Op: ModIncrement, Columns: []int{2}, Values: []types.Value{iv(1)}})
						if rnd.Intn(3) == 0 {
							_, _ = tx.FindModify(tbl, pk(int64(rnd.Intn(60))), &Modify{Op: ModDelete})
						}
						return nil
					})
				case 2: // a job that fails after writing
					_ = e.Update(ctx, func(tx *Job) error {
						_, _ = tx.Insert(tbl, rowOf())
						_, _ = tx.FindModify(tbl, pk(int64(rnd.Intn(60))), &Modify{Op: ModDelete})
						return errFail
					})
				case 3: // a statement rolled back inside a job
					_ = e.Update(ctx, func(tx *Job) error {
						_, _ = tx.Insert(tbl, rowOf())
						sp := tx.Savepoint()
						_, _ = tx.Insert(tbl, rowOf())
						_, _ = tx.FindModify(tbl, pk(int64(rnd.Intn(60))), &Modify{Op: ModDelete})
						tx.RollbackTo(sp)
						_, _ = tx.FindModify(tbl, pk(int64(rnd.Intn(60))), &Modify{Op: ModUpdate, Columns: []int{3}, Values: []types.Value{sv("kept")}})
						return nil
					})
				case 4: // Apply, as the replica's
					_ = e.Update(ctx, func(tx *Job) error {
						var cs []Change
						for range rnd.Intn(4) + 1 {
							r := rowOf()
							cs = append(cs, Change{Kind: ChangeInsert, Table: tbl, Row: r})
						}
						_, _ = tx.Apply(cs)
						return nil
					})
				case 5: // a SQL transaction's commit
					x := e.Begin()
					var old Row
					_ = x.Find(tbl, pk(int64(rnd.Intn(60))), func(r Row) bool { old = r.Clone(); return false })
					if old != nil {
						nr := old.Clone()
						nr[3] = sv("txn")
						_, _ = x.Update(tbl, old, nr)
					}
					_, _ = x.Insert(tbl, rowOf())
					if err := x.Commit(ctx); err != nil {
						x.Rollback()
					}
				case 6: // several jobs in one submission, one failing
					fns := []func(*Job) error{
						func(tx *Job) error { _, _ = tx.Insert(tbl, rowOf()); return nil },
						func(tx *Job) error { _, _ = tx.Insert(tbl, rowOf()); return errFail },
						func(tx *Job) error {
							_, _ = tx.FindModify(tbl, pk(int64(rnd.Intn(60))), &Modify{Op: ModDelete})
							return nil
						},
					}
					e.UpdateAll(ctx, fns, make([]error, len(fns)))
				}
			}
		}()
	}
	wg.Wait()
}

// TestChangeLogRecords: with a change log installed (and no feed), each
// committed job that changed rows stores its record under its number in
// the group's batch, read back in order after a reopen; a record that
// fails fails its group, whose rows are then not there.
func TestChangeLogRecords(t *testing.T) {
	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilityNone)
	ta := createTable(t, e, "a", applyDef())
	e.SetChangeLog(func(x FeedTxn) ([]byte, error) {
		if len(x.Changes) == 3 {
			return nil, errors.New("no record of three changes")
		}
		return fmt.Appendf(nil, "%d:%d", x.Seq, len(x.Changes)), nil
	})
	ins := func(ids ...int64) error {
		return e.Update(context.Background(), func(tx *Job) error {
			for _, id := range ids {
				if _, err := tx.Insert(ta, row(iv(id), null(), iv(0), sv("x"))); err != nil {
					return err
				}
			}
			return nil
		})
	}
	for _, ids := range [][]int64{{1}, {2, 3}, {4, 5, 6}, {7}} {
		err := ins(ids...)
		if (len(ids) == 3) != (err != nil) {
			t.Fatalf("insert %v: %v", ids, err)
		}
	}
	want := "1:1 2:2 3:1"
	read := func(e *Engine, from uint64) string {
		var got []string
		if err := e.ReadChangeLog(from, func(seq uint64, rec []byte) bool {
			got = append(got, string(rec))
			return true
		}); err != nil {
			t.Fatal(err)
		}
		return strings.Join(got, " ")
	}
	if got := read(e, 1); got != want {
		t.Fatalf("records %q, want %q", got, want)
	}
	if got := tableText(t, e, ta); strings.Contains(got, "\n4|") {
		t.Fatalf("the failed group's rows are there:\n%s", got)
	}
	e.Close()
	e = openTestEngine(t, dir, DurabilityNone)
	if got := read(e, 2); got != "2:2 3:1" {
		t.Fatalf("after reopen, from 2: %q", got)
	}
}

// TestEndTxnSplitsJob: EndTxn cuts a job's changes into transactions of
// their own, each with its origin (the rest, this server's own); a job
// that fails, or a rollback to a savepoint taken before a mark, drops
// the marks; WithOrigin gives a whole job its origin; an Unlogged job is
// left out.
func TestEndTxnSplitsJob(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	ta := createTable(t, e, "a", applyDef())
	var log feedLog
	e.SetChangeFeed(log.add)
	ins := func(tx *Job, id int64) {
		if _, err := tx.Insert(ta, row(iv(id), null(), iv(1), sv("x"))); err != nil {
			t.Fatal(err)
		}
	}
	o1, o2 := Origin{Server: 7, Seq: 41}, Origin{Server: 7, Seq: 42}
	update(t, e, func(tx *Job) error {
		ins(tx, 1)
		tx.EndTxn(o1)
		ins(tx, 2)
		ins(tx, 3)
		tx.EndTxn(o2)
		ins(tx, 4)
		return nil
	})
	// A failed job's marks go with its changes.
	if err := e.Update(context.Background(), func(tx *Job) error {
		ins(tx, 5)
		tx.EndTxn(Origin{Server: 7, Seq: 43})
		return errors.New("fails")
	}); err == nil {
		t.Fatal("the failing job succeeded")
	}
	// A rollback to a savepoint before a mark drops it.
	update(t, e, func(tx *Job) error {
		ins(tx, 6)
		sp := tx.Savepoint()
		ins(tx, 7)
		tx.EndTxn(Origin{Server: 7, Seq: 44})
		tx.RollbackTo(sp)
		return nil
	})
	if err := e.Update(WithOrigin(context.Background(), Origin{Server: 9, Seq: 5}), func(tx *Job) error {
		ins(tx, 8)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// An Unlogged job is not in the feed at all.
	if err := e.Update(Unlogged(context.Background()), func(tx *Job) error {
		ins(tx, 9)
		tx.EndTxn(Origin{Server: 9, Seq: 6})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range log.all() {
		var ids []int64
		for _, c := range x.Changes {
			ids = append(ids, c.Row[0].I)
		}
		o := "own"
		if x.Origin != nil {
			o = fmt.Sprintf("%d-%d", x.Origin.Server, x.Origin.Seq)
		}
		got = append(got, fmt.Sprintf("%d:%v:%s", x.Seq, ids, o))
	}
	want := "[1:[1]:7-41 2:[2 3]:7-42 3:[4]:own 4:[6]:own 5:[8]:9-5]"
	if fmt.Sprint(got) != want {
		t.Fatalf("transactions %v, want %s", got, want)
	}
}
