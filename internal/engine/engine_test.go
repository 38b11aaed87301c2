package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

func insertPeople(tb testing.TB, e *Engine, t *Table) {
	tb.Helper()
	update(tb, e, func(tx *Job) error {
		for _, r := range []Row{
			row(null(), sv("alice"), sv("a@x"), iv(30)),
			row(null(), sv("bob"), sv("b@x"), iv(25)),
			row(null(), sv("Alice"), null(), iv(41)),
			row(null(), sv("carol"), null(), null()),
			row(null(), sv("bob"), sv("b2@x"), iv(19)),
		} {
			if _, err := tx.Insert(t, r); err != nil {
				return err
			}
		}
		return nil
	})
}

func TestInsertAutoIncrementAndFind(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	got := findAll(t, e, tb, &Query{Op: OpGE, Key: []types.Value{iv(0)}})
	if want := []int64{1, 2, 3, 4, 5}; !reflect.DeepEqual(ids(got), want) {
		t.Fatalf("ids = %v, want %v", ids(got), want)
	}
	// Point find on the primary key.
	got = findAll(t, e, tb, &Query{Op: OpEQ, Key: []types.Value{iv(3)}})
	if len(got) != 1 || string(got[0][1].B) != "Alice" || got[0][2].Null != true {
		t.Fatalf("find id=3: %v", got)
	}
	// Unique secondary point find.
	got = findAll(t, e, tb, &Query{Index: tb.Index("email"), Op: OpEQ, Key: []types.Value{sv("b2@x")}})
	if !reflect.DeepEqual(ids(got), []int64{5}) {
		t.Fatalf("email=b2@x: %v", ids(got))
	}
	// Case-insensitive collation: "ALICE" finds both alices, in pk order.
	got = findAll(t, e, tb, &Query{Index: tb.Index("name_age"), Op: OpEQ, Key: []types.Value{sv("ALICE")}})
	if !reflect.DeepEqual(ids(got), []int64{1, 3}) {
		t.Fatalf("name=ALICE: %v", ids(got))
	}
	// Explicit id moves the counter; the same id again is a duplicate.
	update(t, e, func(tx *Job) error {
		id, err := tx.Insert(tb, row(iv(10), sv("dave"), null(), null()))
		if err != nil || id != 0 {
			return fmt.Errorf("explicit insert: id %d err %v", id, err)
		}
		id, err = tx.Insert(tb, row(iv(0), sv("erin"), null(), null()))
		if err != nil || id != 11 {
			return fmt.Errorf("next id = %d (%v), want 11", id, err)
		}
		return nil
	})
	err := e.Update(context.Background(), func(tx *Job) error {
		_, err := tx.Insert(tb, row(iv(10), sv("frank"), null(), null()))
		return err
	})
	var dk *DuplicateKeyError
	if !errors.As(err, &dk) || dk.Index != "PRIMARY" || string(dk.Existing[1].B) != "dave" {
		t.Fatalf("duplicate id: %v", err)
	}
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
}

func TestUniqueIndex(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	// Duplicate email refused, NULL emails are many.
	err := e.Update(context.Background(), func(tx *Job) error {
		_, err := tx.Insert(tb, row(null(), sv("x"), sv("a@x"), null()))
		return err
	})
	if !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("dup email: %v", err)
	}
	update(t, e, func(tx *Job) error {
		_, err := tx.Insert(tb, row(null(), sv("y"), null(), null()))
		return err
	})
	// utf8mb4_bin: "A@x" is another key.
	update(t, e, func(tx *Job) error {
		_, err := tx.Insert(tb, row(null(), sv("z"), sv("A@x"), null()))
		return err
	})
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
}

func TestJobErrorDiscardsItsWritesOnly(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	var wg sync.WaitGroup
	errs := make([]error, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			errs[i] = e.Update(context.Background(), func(tx *Job) error {
				if _, err := tx.Insert(tb, row(iv(int64(1000+i)), sv("ok"), null(), null())); err != nil {
					return err
				}
				if i%2 == 1 {
					// Second row collides with the first: the job fails and
					// its first row must vanish too.
					_, err := tx.Insert(tb, row(iv(int64(1000+i)), sv("dup"), null(), null()))
					return err
				}
				return nil
			})
		}(i)
	}
	wg.Wait()
	for i, err := range errs {
		got := findAll(t, e, tb, &Query{Op: OpEQ, Key: []types.Value{iv(int64(1000 + i))}})
		if i%2 == 1 {
			if !errors.Is(err, ErrDuplicateKey) || len(got) != 0 {
				t.Errorf("job %d: err %v, rows %d; want duplicate and no row", i, err, len(got))
			}
		} else if err != nil || len(got) != 1 {
			t.Errorf("job %d: err %v, rows %d", i, err, len(got))
		}
	}
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
}

func TestPendingWritesVisibleInGroup(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	// Many concurrent jobs insert the same key: exactly one wins, whatever
	// the grouping, because each job sees the earlier ones' pending rows.
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, dups := 0, 0
	for i := 0; i < 32; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := e.Update(context.Background(), func(tx *Job) error {
				_, err := tx.Insert(tb, row(iv(7), sv("same"), null(), null()))
				return err
			})
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, ErrDuplicateKey):
				dups++
			default:
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if wins != 1 || dups != 31 {
		t.Fatalf("wins %d dups %d", wins, dups)
	}
	// Inside one job: insert, then find it through a secondary index.
	update(t, e, func(tx *Job) error {
		if _, err := tx.Insert(tb, row(null(), sv("zed"), null(), iv(1))); err != nil {
			return err
		}
		n := 0
		err := tx.Find(tb, &Query{Index: tb.Index("name_age"), Op: OpEQ, Key: []types.Value{sv("ZED")}}, func(Row) bool { n++; return true })
		if err == nil && n != 1 {
			err = fmt.Errorf("pending row found %d times", n)
		}
		return err
	})
}

func TestFindModify(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	age := tb.Column("age")
	var before []int64
	update(t, e, func(tx *Job) error {
		// Decrement by 26: 30->4 ok, 25->-1 refused, 41->15 ok, NULL left, 19->-7 refused.
		n, err := tx.FindModify(tb, &Query{Op: OpGE, Key: []types.Value{iv(1)}, Limit: 10},
			&Modify{Op: ModDecrement, Columns: []int{age}, Values: []types.Value{iv(26)},
				Before: func(r Row) { before = append(before, r[0].I) }})
		if err == nil && n != 3 {
			err = fmt.Errorf("decrement changed %d rows, want 3 (two refused)", n)
		}
		return err
	})
	if !reflect.DeepEqual(before, []int64{1, 2, 3, 4, 5}) {
		t.Fatalf("before rows %v", before)
	}
	var ages []string
	for _, r := range findAll(t, e, tb, &Query{Op: OpGE}) {
		if r[age].Null {
			ages = append(ages, "NULL")
		} else {
			ages = append(ages, fmt.Sprint(r[age].I))
		}
	}
	if want := []string{"4", "25", "15", "NULL", "19"}; !reflect.DeepEqual(ages, want) {
		t.Fatalf("ages %v, want %v", ages, want)
	}
	// Update a secondary-key column and a unique column; the unique clash
	// on the second row stops there and the first stays changed.
	err := e.Update(context.Background(), func(tx *Job) error {
		n, err := tx.FindModify(tb, &Query{Op: OpGE, Key: []types.Value{iv(1)}, Limit: 2},
			&Modify{Op: ModUpdate, Columns: []int{tb.Column("name"), tb.Column("email")}, Values: []types.Value{sv("same"), sv("s@x")}})
		if n != 1 || !errors.Is(err, ErrDuplicateKey) {
			return fmt.Errorf("n=%d err=%v, want 1 and a duplicate", n, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := findAll(t, e, tb, &Query{Index: tb.Index("name_age"), Op: OpEQ, Key: []types.Value{sv("SAME")}})
	if !reflect.DeepEqual(ids(got), []int64{1}) {
		t.Fatalf("renamed rows %v", ids(got))
	}
	// Delete through a secondary index.
	update(t, e, func(tx *Job) error {
		n, err := tx.FindModify(tb, &Query{Index: tb.Index("name_age"), Op: OpEQ, Key: []types.Value{sv("bob")}}, &Modify{Op: ModDelete})
		if err == nil && n != 2 {
			err = fmt.Errorf("deleted %d", n)
		}
		return err
	})
	if got := findAll(t, e, tb, &Query{Op: OpGE}); !reflect.DeepEqual(ids(got), []int64{1, 3, 4}) {
		t.Fatalf("after delete %v", ids(got))
	}
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
}

func TestHiddenPrimaryKey(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := createTable(t, e, "d", &TableDef{Name: "log",
		Columns: []types.Column{{Name: "msg", Type: varcharType(20, "")}, {Name: "n", Type: intType()}},
		Indexes: []IndexDef{{Name: "n", Columns: []string{"n"}}}})
	if len(tb.Indexes) != 1 || !tb.Primary.Hidden {
		t.Fatalf("indexes %v hidden %v", len(tb.Indexes), tb.Primary.Hidden)
	}
	update(t, e, func(tx *Job) error {
		for i := 0; i < 3; i++ {
			if _, err := tx.Insert(tb, row(sv("same"), iv(int64(5-i)))); err != nil {
				return err
			}
		}
		return nil
	})
	got := findAll(t, e, tb, &Query{Index: tb.Index("n"), Op: OpGE})
	if len(got) != 3 || got[0][1].I != 3 {
		t.Fatalf("rows %v", got)
	}
	update(t, e, func(tx *Job) error {
		ok, err := tx.Delete(tb, row(sv("same"), iv(4)))
		if err == nil && !ok {
			err = errors.New("row not found")
		}
		return err
	})
	if got := findAll(t, e, tb, &Query{Op: OpGE}); len(got) != 2 {
		t.Fatalf("after delete %d rows", len(got))
	}
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
}

func TestRestartKeepsCatalogRowsAndCounters(t *testing.T) {
	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilitySync)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	createTable(t, e, "other", &TableDef{Name: "kv",
		Columns: []types.Column{{Name: "k", Type: varcharType(10, "utf8mb4_bin")}, {Name: "v", Type: types.Type{Kind: types.Double}, Nullable: true}},
		Indexes: []IndexDef{{Primary: true, Columns: []string{"k"}}}})
	before := e.Catalog()
	beforeDef := map[string][]byte{}
	for _, db := range before.Databases() {
		d, _ := before.Database(db)
		for _, x := range d.Tables() {
			beforeDef[db+"."+x.Name] = x.marshal()
		}
	}
	rowsBefore := findAll(t, e, tb, &Query{Op: OpGE})
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}

	e2 := openTestEngine(t, dir, DurabilitySync)
	after := e2.Catalog()
	if after.Version != before.Version {
		t.Fatalf("catalog version %d, want %d", after.Version, before.Version)
	}
	for name, def := range beforeDef {
		db, tn, _ := strings.Cut(name, ".")
		x, err := after.Table(db, tn)
		if err != nil {
			t.Fatal(err)
		}
		if string(x.marshal()) != string(def) {
			t.Fatalf("table %s changed over restart:\n%s\n%s", name, def, x.marshal())
		}
	}
	tb2, _ := after.Table("app", "people")
	if got := findAll(t, e2, tb2, &Query{Op: OpGE}); !reflect.DeepEqual(got, rowsBefore) {
		t.Fatalf("rows changed over restart:\n%v\n%v", got, rowsBefore)
	}
	update(t, e2, func(tx *Job) error {
		id, err := tx.Insert(tb2, row(null(), sv("new"), null(), null()))
		if err == nil && id != 6 {
			err = fmt.Errorf("id after restart %d, want 6", id)
		}
		return err
	})
	if err := e2.Check(tb2); err != nil {
		t.Fatal(err)
	}
}

func TestDDL(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	// A unique index over duplicate names fails and leaves nothing.
	err := e.Update(context.Background(), func(tx *Job) error {
		_, err := tx.AddIndex("app", "people", &IndexDef{Name: "uname", Unique: true, Columns: []string{"name"}})
		return err
	})
	if !errors.Is(err, ErrDuplicateKey) {
		t.Fatalf("unique index over duplicates: %v", err)
	}
	if x, _ := e.Catalog().Table("app", "people"); x.Index("uname") != nil {
		t.Fatal("failed index is in the catalog")
	}
	// A non-unique index is built over the rows.
	update(t, e, func(tx *Job) error {
		_, err := tx.AddIndex("app", "people", &IndexDef{Name: "age", Columns: []string{"age"}})
		return err
	})
	tb, _ = e.Catalog().Table("app", "people")
	if err := e.Check(tb); err != nil {
		t.Fatal(err)
	}
	got := findAll(t, e, tb, &Query{Index: tb.Index("age"), Op: OpLE, Key: []types.Value{iv(30)}, Limit: 10})
	if !reflect.DeepEqual(ids(got), []int64{1, 2, 5, 4}) {
		t.Fatalf("age <= 30 descending: %v", ids(got))
	}
	update(t, e, func(tx *Job) error {
		_, err := tx.DropIndex("app", "people", "email")
		return err
	})
	tb, _ = e.Catalog().Table("app", "people")
	if tb.Index("email") != nil || e.Check(tb) != nil {
		t.Fatal("drop index")
	}
	update(t, e, func(tx *Job) error { return tx.TruncateTable("app", "people") })
	if got := findAll(t, e, tb, &Query{Op: OpGE}); len(got) != 0 {
		t.Fatalf("rows after truncate: %d", len(got))
	}
	update(t, e, func(tx *Job) error {
		id, err := tx.Insert(tb, row(null(), sv("first"), null(), null()))
		if err == nil && id != 1 {
			err = fmt.Errorf("id after truncate %d", id)
		}
		return err
	})
	update(t, e, func(tx *Job) error { return tx.RenameTable("app", "people", "app", "persons") })
	if _, err := e.Catalog().Table("app", "people"); !errors.Is(err, ErrNoTable) {
		t.Fatalf("old name: %v", err)
	}
	tb, _ = e.Catalog().Table("app", "persons")
	if got := findAll(t, e, tb, &Query{Op: OpGE}); len(got) != 1 {
		t.Fatalf("renamed table rows %d", len(got))
	}
	update(t, e, func(tx *Job) error { return tx.DropDatabase("app") })
	if n, _ := e.Count(tb); n != 0 {
		t.Fatalf("rows left after drop database: %d", n)
	}
	if _, err := e.Catalog().Database("app"); !errors.Is(err, ErrNoDatabase) {
		t.Fatalf("dropped database: %v", err)
	}
}

func TestIteratorRanges(t *testing.T) {
	e := openTestEngine(t, "", DurabilitySync)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb)
	scan := func(rg Range, rev bool) []int64 {
		it, err := e.NewIterator(tb, nil, rg, rev)
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		var out []int64
		for {
			r, err := it.Next()
			if err != nil {
				break
			}
			out = append(out, r[0].I)
		}
		return out
	}
	cases := []struct {
		rg   Range
		rev  bool
		want []int64
	}{
		{Range{}, false, []int64{1, 2, 3, 4, 5}},
		{Range{}, true, []int64{5, 4, 3, 2, 1}},
		{Range{Lower: []types.Value{iv(2)}, Upper: []types.Value{iv(4)}}, false, []int64{2, 3, 4}},
		{Range{Lower: []types.Value{iv(2)}, Upper: []types.Value{iv(4)}, LowerExclusive: true, UpperExclusive: true}, false, []int64{3}},
		{Range{Upper: []types.Value{iv(2)}}, true, []int64{2, 1}},
	}
	for i, c := range cases {
		if got := scan(c.rg, c.rev); !reflect.DeepEqual(got, c.want) {
			t.Errorf("case %d: %v, want %v", i, got, c.want)
		}
	}
}

func TestClosedEngine(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.Update(context.Background(), func(*Job) error { return nil }); !errors.Is(err, ErrClosed) {
		t.Fatalf("update after close: %v", err)
	}
}

func TestNaNRefused(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	tb := createTable(t, e, "d", &TableDef{Name: "f",
		Columns: []types.Column{{Name: "k", Type: intType()}, {Name: "x", Type: types.Type{Kind: types.Double}, Nullable: true}},
		Indexes: []IndexDef{{Primary: true, Columns: []string{"k"}}, {Name: "x", Columns: []string{"x"}}}})
	err := e.Update(context.Background(), func(tx *Job) error {
		_, err := tx.Insert(tb, row(iv(1), types.Value{F: math.NaN()}))
		return err
	})
	if !errors.Is(err, ErrBadValue) {
		t.Fatalf("NaN insert: %v", err)
	}
	// Negative zero is zero: one key.
	update(t, e, func(tx *Job) error {
		_, err := tx.Insert(tb, row(iv(2), types.Value{F: math.Copysign(0, -1)}))
		return err
	})
	got := findAll(t, e, tb, &Query{Index: tb.Index("x"), Op: OpEQ, Key: []types.Value{{F: 0}}})
	if len(got) != 1 {
		t.Fatalf("find 0 after inserting -0: %d rows", len(got))
	}
}

// TestWideRowMostlyNull: a row with more columns than encoded bytes (all
// but one NULL) decodes.
func TestWideRowMostlyNull(t *testing.T) {
	e := openTestEngine(t, "", DurabilityNone)
	cols := []types.Column{{Name: "k", Type: intType()}}
	for i := 0; i < 20; i++ {
		cols = append(cols, types.Column{Name: fmt.Sprintf("c%d", i), Type: intType(), Nullable: true})
	}
	var tb *Table
	update(t, e, func(tx *Job) error {
		if err := tx.CreateDatabase("w"); err != nil {
			return err
		}
		var err error
		if tb, err = tx.CreateTable("w", &TableDef{Name: "t", Columns: cols, Indexes: []IndexDef{{Primary: true, Columns: []string{"k"}}}}); err != nil {
			return err
		}
		r := make(Row, len(cols))
		for i := range r {
			r[i] = null()
		}
		r[0] = iv(1)
		_, err = tx.Insert(tb, r)
		return err
	})
	got := findAll(t, e, tb, &Query{Op: OpEQ, Key: []types.Value{iv(1)}})
	if len(got) != 1 || !got[0][20].Null {
		t.Fatalf("rows %v", got)
	}
}

func TestRowCount(t *testing.T) {
	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilitySync)
	tb := setupPeople(t, e)
	insertPeople(t, e, tb) // 5 rows, counted before the table is known
	count := func(want int64) {
		t.Helper()
		if n, err := e.RowCount(tb); err != nil || n != want {
			t.Fatalf("RowCount = %d (%v), want %d", n, err, want)
		}
	}
	count(5)
	update(t, e, func(tx *Job) error {
		_, err := tx.Insert(tb, row(null(), sv("x"), null(), null()))
		if err != nil {
			return err
		}
		_, err = tx.FindModify(tb, &Query{Op: OpLE, Key: []types.Value{iv(2)}, Limit: 10}, &Modify{Op: ModDelete})
		return err
	})
	count(4)
	// A failed job changes nothing.
	e.Update(context.Background(), func(tx *Job) error {
		tx.Insert(tb, row(null(), sv("y"), null(), null()))
		return errors.New("no")
	})
	count(4)
	x := e.Begin()
	x.Insert(tb, row(null(), sv("z"), null(), null()))
	if err := x.Commit(context.Background()); err != nil {
		t.Fatal(err)
	}
	count(5)
	update(t, e, func(tx *Job) error { return tx.TruncateTable("app", "people") })
	count(0)
	update(t, e, func(tx *Job) error {
		_, err := tx.Insert(tb, row(null(), sv("w"), null(), null()))
		return err
	})
	e.Close()
	e2 := openTestEngine(t, dir, DurabilitySync)
	tb2, _ := e2.Catalog().Table("app", "people")
	if n, err := e2.RowCount(tb2); err != nil || n != 1 {
		t.Fatalf("after restart %d %v", n, err)
	}
}
