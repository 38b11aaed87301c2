package engine

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

func TestTxnReadsOwnWritesAndCommitsWhole(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	x := e.Begin()
	id, err := x.Insert(tb, row(null(), sv("tx"), sv("t@x"), iv(1)))
	if err != nil || id != 6 {
		t.Fatalf("insert in txn: id %d err %v", id, err)
	}
	if _, err := x.Delete(tb, row(iv(1), sv(""), null(), null())); err != nil {
		t.Fatal(err)
	}
	// The transaction sees its writes; others do not.
	var in []int64
	x.Find(tb, &Query{Op: OpGE}, func(r Row) bool { in = append(in, r[0].I); return true })
	if !reflect.DeepEqual(in, []int64{2, 3, 4, 5, 6}) {
		t.Fatalf("inside txn: %v", in)
	}
	if got := ids(findAll(t, e, tb, &Query{Op: OpGE})); !reflect.DeepEqual(got, []int64{1, 2, 3, 4, 5}) {
		t.Fatalf("outside txn: %v", got)
	}
	// A statement that fails part way is undone by its savepoint.
	sp := x.Savepoint()
	if _, err := x.Insert(tb, row(iv(50), sv("s"), null(), null())); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Insert(tb, row(null(), sv("s"), sv("b@x"), null())); !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("dup in txn: %v", err)
	}
	x.RollbackTo(sp)
	if err := x.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := ids(findAll(t, e, tb, &Query{Op: OpGE})); !reflect.DeepEqual(got, []int64{2, 3, 4, 5, 6}) {
		t.Fatalf("after commit: %v", got)
	}
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
}

func TestTxnConflictAppliesNothing(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	x := e.Begin()
	if _, err := x.Insert(tb, row(iv(1), sv("a"), sv("same@x"), null())); err != nil {
		t.Fatal(err)
	}
	if _, err := x.Insert(tb, row(iv(2), sv("b"), null(), null())); err != nil {
		t.Fatal(err)
	}
	// Another writer takes the unique email first.
	update(t, e, func(tx *Job) error {
		_, err := tx.Insert(tb, row(iv(9), sv("c"), sv("same@x"), null()))
		return err
	})
	if err := x.Commit(context.Background()); !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("commit: %v", err)
	}
	if got := ids(findAll(t, e, tb, &Query{Op: OpGE})); !reflect.DeepEqual(got, []int64{9}) {
		t.Fatalf("rows %v, want only 9", got)
	}
	x2 := e.Begin()
	x2.Insert(tb, row(iv(3), sv("r"), null(), null()))
	x2.Rollback()
	if got := ids(findAll(t, e, tb, &Query{Op: OpGE})); !reflect.DeepEqual(got, []int64{9}) {
		t.Fatalf("after rollback %v", got)
	}
}

func TestAlterTableRewritesRows(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	def := peopleDef()
	// Drop "email", add "score INT NOT NULL DEFAULT 7" and index it, turn
	// age into a VARCHAR.
	def.Columns = []types.Column{def.Columns[0], def.Columns[1],
		{Name: "age", Type: varcharType(10, ""), Nullable: true},
		{Name: "score", Type: intType(), Default: &types.Value{I: 7}}}
	def.Indexes = []IndexDef{{Primary: true, Columns: []string{"id"}}, {Name: "score", Columns: []string{"score"}}}
	update(t, e, func(tx *Job) error {
		_, err := tx.AlterTable("app", "people", def, []int{0, 1, 3, -1})
		return err
	})
	nt, _ := e.Catalog().Table("app", "people")
	if err := e.Check(nt); err != nil {
		t.Fatal(err)
	}
	got := findAll(t, e, nt, &Query{Index: nt.Index("score"), Op: OpEQ, Key: []types.Value{iv(7)}})
	if len(got) != 5 || string(got[0][2].B) != "30" || !got[3][2].Null {
		t.Fatalf("rows after alter: %v", got)
	}
	update(t, e, func(tx *Job) error {
		id, err := tx.Insert(nt, row(null(), sv("n"), null(), iv(1)))
		if err == nil && id != 6 {
			t.Errorf("id after alter %d", id)
		}
		return err
	})
	// A unique index the rows break is refused and changes nothing.
	def.Indexes = append(def.Indexes, IndexDef{Name: "u", Unique: true, Columns: []string{"score"}})
	err := e.Update(context.Background(), func(tx *Job) error {
		_, err := tx.AlterTable("app", "people", def, []int{0, 1, 2, 3})
		return err
	})
	if !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("unique over duplicates: %v", err)
	}
	if got := findAll(t, e, nt, &Query{Op: OpGE}); len(got) != 6 {
		t.Fatalf("rows after failed alter: %d", len(got))
	}
}

// TestTxnQuietCommit: a transaction begun while no job ran replays its
// inserts without the duplicate-key checks when its commit is the next
// job, and with them when another commit came between, even one of a
// transaction that was quiet too.
func TestTxnQuietCommit(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	x1, x2 := e.Begin(), e.Begin()
	if !x1.quiet || !x2.quiet {
		t.Fatalf("quiet %v %v, want both (no job running)", x1.quiet, x2.quiet)
	}
	for _, x := range []*Txn{x1, x2} {
		if _, err := x.Insert(tb, row(iv(1), sv("a"), sv("same@x"), null())); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := x1.Insert(tb, row(iv(2), sv("b"), sv("b@x"), null())); err != nil {
		t.Fatal(err)
	}
	if err := x1.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := x2.Commit(context.Background()); !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("second commit of the same key: %v", err)
	}
	if got := ids(findAll(t, e, tb, &Query{Op: OpGE})); !reflect.DeepEqual(got, []int64{1, 2}) {
		t.Fatalf("rows %v, want 1 2", got)
	}
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
}

// TestInsertNow checks an insert made as a job of its own: a generated
// id, an explicit one that moves the counter, a duplicate (of the
// primary key, of a unique key) refused with nothing written, and a
// table replaced since refused too.
func TestInsertNow(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	ctx := context.Background()
	r := row(null(), sv("a"), sv("a@x"), null())
	if id, refused, err := e.InsertNow(ctx, tb, r); err != nil || refused != nil || id != 1 || r[0].I != 1 {
		t.Fatalf("generated: id %d row %v refused %v err %v", id, r, refused, err)
	}
	if id, refused, err := e.InsertNow(ctx, tb, row(iv(10), sv("b"), null(), null())); err != nil || refused != nil || id != 0 {
		t.Fatalf("explicit: id %d refused %v err %v", id, refused, err)
	}
	if id, _, err := e.InsertNow(ctx, tb, row(iv(0), sv("c"), null(), null())); err != nil || id != 11 {
		t.Fatalf("after 10: id %d err %v", id, err)
	}
	for _, dup := range []Row{row(iv(10), sv("d"), null(), null()), row(null(), sv("e"), sv("a@x"), null())} {
		if _, refused, err := e.InsertNow(ctx, tb, dup); err != nil || !errors.Is(refused, ErrDuplicateKey) {
			t.Fatalf("duplicate %v: refused %v err %v", dup, refused, err)
		}
	}
	if got := ids(findAll(t, e, tb, &Query{Op: OpGE})); !reflect.DeepEqual(got, []int64{1, 10, 11}) {
		t.Fatalf("rows %v, want 1 10 11", got)
	}
	update(t, e, func(tx *Job) error { return tx.DropTable("app", "people") })
	if _, refused, err := e.InsertNow(ctx, tb, row(iv(20), sv("f"), null(), null())); err != nil || !errors.Is(refused, ErrTableDefChanged) {
		t.Fatalf("dropped table: refused %v err %v", refused, err)
	}
}
