package hs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/hs"
)

// The suite runs every operation against a server: the in-process
// HandlerDB (TestHandlerDB) and, when configured, a real HandlerSocket
// (TestRealHandlerSocket). It sticks to behaviour both share.

func TestHandlerDB(t *testing.T) { runSuite(t, local) }

func runSuite(t *testing.T, e *env) {
	tests := []struct {
		name string
		fn   func(t *testing.T, e *env, c *hs.Client)
	}{
		{"Get", testGet},
		{"FindOps", testFindOps},
		{"FindSecondary", testFindSecondary},
		{"In", testIn},
		{"Filters", testFilters},
		{"NullAndEmpty", testNullAndEmpty},
		{"Escaping", testEscaping},
		{"Insert", testInsert},
		{"Update", testUpdate},
		{"Delete", testDelete},
		{"IncrementDecrement", testIncDec},
		{"Scan", testScan},
		{"Pipeline", testPipeline},
		{"PipelineErrors", testPipelineErrors},
		{"ServerErrors", testServerErrors},
		{"IndexReuse", testIndexReuse},
		{"Concurrent", testConcurrent},
		{"Readonly", testReadonly},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := hs.Open(e.dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			tc.fn(t, e, c)
		})
	}
}

// tableName gives each test its own table.
func tableName(t *testing.T) string {
	n := strings.ToLower(strings.NewReplacer("/", "_", "-", "_").Replace(t.Name()))
	if len(n) > 60 {
		n = n[len(n)-60:]
	}
	return "t_" + n
}

var ctx = context.Background()

// rowsOf renders a result as "v,v;v,v" with NULL as \N.
func rowsOf(r *hs.Result) string {
	var sb strings.Builder
	for i := 0; i < r.Len(); i++ {
		if i > 0 {
			sb.WriteByte(';')
		}
		for j, v := range r.Row(i).Values() {
			if j > 0 {
				sb.WriteByte(',')
			}
			if v.IsNull() {
				sb.WriteString(`\N`)
			} else {
				sb.WriteString(v.String())
			}
		}
	}
	return sb.String()
}

func wantRows(t *testing.T, r *hs.Result, err error, want string) {
	t.Helper()
	if err != nil {
		t.Fatalf("error %v, want rows %q", err, want)
	}
	if got := rowsOf(r); got != want {
		t.Fatalf("rows %q, want %q", got, want)
	}
}

func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) {
		t.Fatalf("error %v, want %v", err, want)
	}
}

func testGet(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, fruitTable(tb), fruitRows...)
	ix := c.Index(e.db, tb, "PRIMARY", []string{"k", "a", "b", "c"})
	row, err := ix.Get(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(row.Values()); got != "[2 banana 20 2]" {
		t.Fatalf("Get(2) = %s", got)
	}
	if v, ok := row.Get("a"); !ok || v.String() != "banana" {
		t.Fatalf("Get(a) = %v %v", v, ok)
	}
	if n, err := row.Value(2).Int64(); err != nil || n != 20 {
		t.Fatalf("Int64 = %d %v", n, err)
	}
	_, err = ix.Get(ctx, 7)
	wantErr(t, err, hs.ErrNotFound)
	// string keys convert like any value
	row, err = ix.Get(ctx, "9")
	if err != nil || row.String(1) != "grape" {
		t.Fatalf("Get(\"9\") = %v %v", row.Values(), err)
	}
}

func testFindOps(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, fruitTable(tb), fruitRows...)
	ix := c.Index(e.db, tb, "", []string{"k", "a"})
	r, err := ix.Find(ctx, hs.Query{Op: hs.GT, Key: []any{3}, Limit: 10})
	wantRows(t, r, err, `4,\N;5,;6,banana;8,fig;9,grape`)
	r, err = ix.Find(ctx, hs.Query{Op: hs.GE, Key: []any{3}, Limit: 2})
	wantRows(t, r, err, `3,cherry;4,\N`)
	r, err = ix.Find(ctx, hs.Query{Op: hs.LE, Key: []any{6}, Limit: 2, Offset: 1})
	wantRows(t, r, err, `5,;4,\N`)
	r, err = ix.Find(ctx, hs.Query{Op: hs.LT, Key: []any{2}, Limit: 10})
	wantRows(t, r, err, `1,apple`)
	r, err = ix.Find(ctx, hs.Query{Op: hs.GT, Key: []any{9}, Limit: 10})
	wantRows(t, r, err, ``)
	// limit 0 is 1
	r, err = ix.Find(ctx, hs.Query{Op: hs.GE, Key: []any{1}})
	wantRows(t, r, err, `1,apple`)
	// Eq is a shorthand
	r, err = ix.Find(ctx, hs.Eq(8))
	wantRows(t, r, err, `8,fig`)
	if r.Len() != 1 || r.Columns()[1] != "a" || len(r.Rows()) != 1 {
		t.Fatalf("Len %d Columns %v", r.Len(), r.Columns())
	}
	// no columns: no values, no rows
	ix0 := c.Index(e.db, tb, "", nil)
	r, err = ix0.Find(ctx, hs.Eq(1))
	wantRows(t, r, err, ``)
}

func testFindSecondary(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, fruitTable(tb), fruitRows...)
	ia := c.Index(e.db, tb, "ia", []string{"k", "a"})
	r, err := ia.Find(ctx, hs.Query{Op: hs.EQ, Key: []any{"banana"}, Limit: 10})
	wantRows(t, r, err, `2,banana;6,banana`)
	ibc := c.Index(e.db, tb, "ibc", []string{"k", "b", "c"})
	r, err = ibc.Find(ctx, hs.Query{Key: []any{20}, Limit: 10})
	wantRows(t, r, err, `8,20,1;2,20,2;3,20,3`)
	r, err = ibc.Find(ctx, hs.Query{Key: []any{20, 3}, Limit: 10})
	wantRows(t, r, err, `3,20,3`)
	// index by number
	byNum := c.Index(e.db, tb, "1", []string{"k", "a"})
	r, err = byNum.Find(ctx, hs.Eq("fig"))
	wantRows(t, r, err, `8,fig`)
}

func testIn(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, fruitTable(tb), fruitRows...)
	ix := c.Index(e.db, tb, "", []string{"k", "a"})
	r, err := ix.Find(ctx, hs.Query{Key: []any{0}, Limit: 10, In: &hs.In{Values: []any{3, 1, 7, 8}}})
	wantRows(t, r, err, `3,cherry;1,apple;8,fig`)
	r, err = ix.Find(ctx, hs.Query{Key: []any{0}, Limit: 2, Offset: 1, In: &hs.In{Values: []any{1, 2, 3, 4}}})
	wantRows(t, r, err, `2,banana;3,cherry`)
	ibc := c.Index(e.db, tb, "ibc", []string{"k"})
	r, err = ibc.Find(ctx, hs.Query{Key: []any{20, 0}, Limit: 10, In: &hs.In{KeyPart: 1, Values: []any{3, 1}}})
	wantRows(t, r, err, `3;8`)
	_, err = ix.Find(ctx, hs.Query{Key: []any{0}, Limit: 10, In: &hs.In{}})
	wantErr(t, err, hs.ErrInvalueslen)
}

func testFilters(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, fruitTable(tb), fruitRows...)
	ix := c.Index(e.db, tb, "", []string{"k", "b"}, "b", "c")
	all := hs.Query{Op: hs.GE, Key: []any{0}, Limit: 10}
	q := all
	q.Filters = []hs.Filter{{Column: "b", Op: hs.EQ, Value: 20}}
	r, err := ix.Find(ctx, q)
	wantRows(t, r, err, `2,20;3,20;8,20`)
	q.Filters = []hs.Filter{{Column: "b", Op: hs.NE, Value: 20}}
	r, err = ix.Find(ctx, q)
	wantRows(t, r, err, `1,10;4,30;5,\N;6,40;9,-10`)
	q.Filters = []hs.Filter{{Type: hs.Stop, Column: "b", Op: hs.LE, Value: 20}}
	r, err = ix.Find(ctx, q)
	wantRows(t, r, err, `1,10;2,20;3,20`)
	q.Filters = []hs.Filter{{Column: "b", Op: hs.GE, Value: 20}, {Column: "c", Op: hs.LT, Value: 3}}
	r, err = ix.Find(ctx, q)
	wantRows(t, r, err, `2,20;8,20`)
	// a NULL column is lower than any value
	q.Filters = []hs.Filter{{Column: "b", Op: hs.LT, Value: 0}}
	r, err = ix.Find(ctx, q)
	wantRows(t, r, err, `5,\N;9,-10`)
	q.Filters = []hs.Filter{{Column: "b", Op: hs.EQ, Value: nil}}
	r, err = ix.Find(ctx, q)
	wantRows(t, r, err, `5,\N`)
	// limit and offset count the rows that pass
	q = all
	q.Limit, q.Offset = 2, 1
	q.Filters = []hs.Filter{{Column: "b", Value: 20}}
	r, err = ix.Find(ctx, q)
	wantRows(t, r, err, `3,20;8,20`)
	// a column that is not a filter column is refused before sending
	q.Filters = []hs.Filter{{Column: "a", Value: 1}}
	_, err = ix.Find(ctx, q)
	wantErr(t, err, hs.ErrFilterfld)
	// filters on an index opened without filter columns
	_, err = c.Index(e.db, tb, "", []string{"k"}).Find(ctx, q)
	wantErr(t, err, hs.ErrFilterfld)
}

func testNullAndEmpty(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, plainUserTable(tb), userRows...)
	ix := c.Index(e.db, tb, "", []string{"id", "name", "email"})
	for _, v := range []any{nil, hs.Null, (*string)(nil)} {
		if _, err := ix.Insert(ctx, 10, "null", v); err != nil {
			t.Fatal(err)
		}
		row, err := ix.Get(ctx, 10)
		if err != nil || !row.Value(2).IsNull() || row.Value(2).Bytes() != nil {
			t.Fatalf("%T: email %#v %v, want NULL", v, row.Value(2), err)
		}
		if _, err := ix.Delete(ctx, hs.Eq(10)); err != nil {
			t.Fatal(err)
		}
	}
	for _, v := range []any{"", []byte{}, []byte(nil)} {
		if _, err := ix.Insert(ctx, 11, "empty", v); err != nil {
			t.Fatal(err)
		}
		row, err := ix.Get(ctx, 11)
		if err != nil || row.Value(2).IsNull() || row.Value(2).String() != "" {
			t.Fatalf("%#v: email %#v %v, want empty", v, row.Value(2), err)
		}
		if _, err := ix.Delete(ctx, hs.Eq(11)); err != nil {
			t.Fatal(err)
		}
	}
	// seeded rows: bob has NULL, cy has ""
	r, err := ix.Find(ctx, hs.Query{Op: hs.GE, Key: []any{2}, Limit: 2})
	wantRows(t, r, err, `2,bob,\N;3,cy,`)
	m := r.Row(0).Map()
	if _, ok := m["email"]; ok || m["name"] != "bob" {
		t.Fatalf("Map = %v", m)
	}
	// a Value goes back as it came, NULL included
	if _, err := ix.Update(ctx, hs.Eq(3), 3, "cy", r.Row(0).Value(2)); err != nil {
		t.Fatal(err)
	}
	row, _ := ix.Get(ctx, 3)
	if !row.Value(2).IsNull() {
		t.Fatalf("email after update with NULL Value: %#v", row.Value(2))
	}
}

func testEscaping(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, blobTable(tb))
	ix := c.Index(e.db, tb, "", []string{"k", "v"})
	all := make([]byte, 256)
	for i := range all {
		all[i] = byte(i)
	}
	keys := [][]byte{[]byte("plain"), {0}, {1}, []byte("a\tb\nc\rd\x00e"), {0x10, 0x7f, 0xff}, []byte("\x01@")}
	for i, k := range keys {
		v := append([]byte(fmt.Sprint(i)), all...)
		if _, err := ix.Insert(ctx, k, v); err != nil {
			t.Fatalf("insert %q: %v", k, err)
		}
	}
	for i, k := range keys {
		row, err := ix.Get(ctx, k)
		if err != nil {
			t.Fatalf("get %q: %v", k, err)
		}
		if !bytes.Equal(row.Value(0).Bytes(), k) {
			t.Fatalf("key %q came back as %q", k, row.Value(0).Bytes())
		}
		want := append([]byte(fmt.Sprint(i)), all...)
		if !bytes.Equal(row.Value(1).Bytes(), want) {
			t.Fatalf("value of %q came back as %q", k, row.Value(1).Bytes())
		}
	}
	// a string key is escaped the same way
	row, err := ix.Get(ctx, "a\tb\nc\rd\x00e")
	if err != nil || row.Value(1).Bytes()[0] != '3' {
		t.Fatalf("string key: %v", err)
	}
	// the full scan returns the keys in byte order
	r, err := ix.Find(ctx, hs.Query{Op: hs.GE, Key: []any{""}, Limit: 100})
	if err != nil || r.Len() != len(keys) {
		t.Fatalf("scan: %d rows, %v", r.Len(), err)
	}
	for i := 1; i < r.Len(); i++ {
		if bytes.Compare(r.Row(i-1).Value(0).Bytes(), r.Row(i).Value(0).Bytes()) >= 0 {
			t.Fatalf("scan order: %q before %q", r.Row(i-1).Value(0).Bytes(), r.Row(i).Value(0).Bytes())
		}
	}
}

func testInsert(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, userTable(tb), userRows...)
	// the AUTO_INCREMENT id is returned
	ix := c.Index(e.db, tb, "", []string{"name", "email"})
	id, err := ix.Insert(ctx, "dan", "dan@example.com")
	if err != nil || id != 4 {
		t.Fatalf("Insert = %d, %v; want 4", id, err)
	}
	id, err = ix.Insert(ctx, "eve")
	if err != nil || id != 5 {
		t.Fatalf("Insert = %d, %v; want 5", id, err)
	}
	row, err := c.Index(e.db, tb, "", []string{"id", "name", "email", "visits"}).Get(ctx, 5)
	if err != nil || fmt.Sprint(row.Values()) != "[5 eve  0]" || row.Value(2).IsNull() {
		t.Fatalf("Get(5) = %v %v (missing values are empty strings, unnamed columns their default)", row.Values(), err)
	}
	// a table without AUTO_INCREMENT answers 0
	ft := tb + "_f"
	e.mustCreate(t, fruitTable(ft), fruitRows...)
	fx := c.Index(e.db, ft, "", []string{"k", "a", "b"})
	id, err = fx.Insert(ctx, 100, "kiwi", 5)
	if err != nil || id != 0 {
		t.Fatalf("Insert without auto-increment = %d, %v", id, err)
	}
	// duplicate key
	_, err = fx.Insert(ctx, 100, "again", 6)
	wantErr(t, err, hs.ErrDuplicateKey)
	var se *hs.ServerError
	if !errors.As(err, &se) || se.Code != 1 || se.Token != "121" {
		t.Fatalf("As: %#v", se)
	}
	if n, ok := se.HandlerErrno(); !ok || n != 121 {
		t.Fatalf("HandlerErrno = %d %v", n, ok)
	}
	// no values
	_, err = fx.Insert(ctx)
	wantErr(t, err, hs.ErrKlen)
	// Go types
	tm := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	pt := tb + "_p"
	e.mustCreate(t, plainUserTable(pt))
	ux := c.Index(e.db, pt, "", []string{"id", "name", "visits", "created"})
	if _, err := ux.Insert(ctx, uint16(50), []byte("types"), int8(-3), tm); err != nil {
		t.Fatal(err)
	}
	row, err = ux.Get(ctx, int64(50))
	if err != nil || fmt.Sprint(row.Values()) != "[50 types -3 2025-03-04 05:06:07]" {
		t.Fatalf("Get(50) = %v %v", row.Values(), err)
	}
	if got, err := row.Value(3).Time(); err != nil || !got.Equal(tm) {
		t.Fatalf("Time = %v %v", got, err)
	}
	_, err = ux.Insert(ctx, 51, struct{}{})
	wantErr(t, err, hs.ErrValue)
}

func testUpdate(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, userTable(tb), userRows...)
	ix := c.Index(e.db, tb, "", []string{"name", "email"})
	n, err := ix.Update(ctx, hs.Eq(2), "bobby", "b@example.com")
	if err != nil || n != 1 {
		t.Fatalf("Update = %d %v", n, err)
	}
	r, err := ix.UpdateReturning(ctx, hs.Eq(2), "robert", hs.Null)
	wantRows(t, r, err, `bobby,b@example.com`)
	r, err = ix.Find(ctx, hs.Eq(2))
	wantRows(t, r, err, `robert,\N`)
	// a range with a limit
	n, err = ix.Update(ctx, hs.Query{Op: hs.GE, Key: []any{1}, Limit: 2}, "same", "same@example.com")
	if err != nil || n != 2 {
		t.Fatalf("range Update = %d %v", n, err)
	}
	r, err = c.Index(e.db, tb, "", []string{"id", "name"}).Find(ctx, hs.Query{Op: hs.GE, Key: []any{1}, Limit: 10})
	wantRows(t, r, err, `1,same;2,same;3,cy`)
	// no match
	n, err = ix.Update(ctx, hs.Eq(99), "x", "y")
	if err != nil || n != 0 {
		t.Fatalf("Update(99) = %d %v", n, err)
	}
	// the key itself can change; a clash is a duplicate key
	kx := c.Index(e.db, tb, "", []string{"id"})
	_, err = kx.Update(ctx, hs.Eq(3), 1)
	wantErr(t, err, hs.ErrDuplicateKey)
	n, err = kx.Update(ctx, hs.Eq(3), 30)
	if err != nil || n != 1 {
		t.Fatalf("Update key = %d %v", n, err)
	}
	if _, err := kx.Get(ctx, 30); err != nil {
		t.Fatal(err)
	}
	// filters select the rows to update
	fx := c.Index(e.db, tb, "", []string{"email"}, "name")
	n, err = fx.Update(ctx, hs.Query{Op: hs.GE, Key: []any{0}, Limit: 10, Filters: []hs.Filter{{Column: "name", Value: "cy"}}}, "cy@example.com")
	if err != nil || n != 1 {
		t.Fatalf("filtered Update = %d %v", n, err)
	}
}

func testDelete(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, fruitTable(tb), fruitRows...)
	ix := c.Index(e.db, tb, "", []string{"k", "a"})
	n, err := ix.Delete(ctx, hs.Eq(3))
	if err != nil || n != 1 {
		t.Fatalf("Delete = %d %v", n, err)
	}
	n, err = ix.Delete(ctx, hs.Eq(3))
	if err != nil || n != 0 {
		t.Fatalf("Delete again = %d %v", n, err)
	}
	r, err := ix.DeleteReturning(ctx, hs.Query{Op: hs.LE, Key: []any{5}, Limit: 2})
	wantRows(t, r, err, `5,;4,\N`)
	r, err = ix.Find(ctx, hs.Query{Op: hs.GE, Key: []any{0}, Limit: 10})
	wantRows(t, r, err, `1,apple;2,banana;6,banana;8,fig;9,grape`)
	// delete through a secondary index, with IN
	ia := c.Index(e.db, tb, "ia", []string{"k"})
	n, err = ia.Delete(ctx, hs.Query{Key: []any{""}, Limit: 10, In: &hs.In{Values: []any{"fig", "apple"}}})
	if err != nil || n != 2 {
		t.Fatalf("Delete IN = %d %v", n, err)
	}
	r, err = ix.Find(ctx, hs.Query{Op: hs.GE, Key: []any{0}, Limit: 10})
	wantRows(t, r, err, `2,banana;6,banana;9,grape`)
}

func testIncDec(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, userTable(tb), userRows...)
	ix := c.Index(e.db, tb, "", []string{"visits"})
	n, err := ix.Increment(ctx, hs.Eq(1), 5)
	if err != nil || n != 1 {
		t.Fatalf("Increment = %d %v", n, err)
	}
	r, err := ix.IncrementReturning(ctx, hs.Eq(1), 2)
	wantRows(t, r, err, `8`)
	n, err = ix.Decrement(ctx, hs.Eq(1), 4)
	if err != nil || n != 1 {
		t.Fatalf("Decrement = %d %v", n, err)
	}
	r, err = ix.DecrementReturning(ctx, hs.Eq(1), 1)
	wantRows(t, r, err, `6`)
	// a decrement that would turn the value negative is refused
	n, err = ix.Decrement(ctx, hs.Eq(1), 6)
	if err != nil || n != 0 {
		t.Fatalf("Decrement past 0 = %d %v", n, err)
	}
	n, err = ix.Decrement(ctx, hs.Eq(1), 5)
	if err != nil || n != 1 {
		t.Fatalf("Decrement to 0 = %d %v", n, err)
	}
	r, err = ix.Find(ctx, hs.Eq(1))
	wantRows(t, r, err, `0`)
	// a range of rows, negative amounts
	n, err = ix.Increment(ctx, hs.Query{Op: hs.GE, Key: []any{1}, Limit: 10}, -1)
	if err != nil || n != 3 {
		t.Fatalf("Increment range = %d %v", n, err)
	}
	r, err = ix.Find(ctx, hs.Query{Op: hs.GE, Key: []any{1}, Limit: 10})
	wantRows(t, r, err, `-1;-1;6`)
}

type user struct {
	ID      int       `hs:"id"`
	Name    string    `hs:"name"`
	Email   *string   `hs:"email"`
	Visits  int64     // matched by name
	Created time.Time `hs:"created"`
	Skipped string    `hs:"-"`
}

func testScan(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, userTable(tb), userRows...)
	ix := c.Index(e.db, tb, "", []string{"id", "name", "email", "visits", "created"})
	r, err := ix.Find(ctx, hs.Query{Op: hs.GE, Key: []any{1}, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	var us []user
	if err := r.Scan(&us); err != nil {
		t.Fatal(err)
	}
	if len(us) != 3 || us[0].ID != 1 || us[0].Name != "ann" || *us[0].Email != "ann@example.com" || us[0].Visits != 3 ||
		!us[0].Created.Equal(time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)) {
		t.Fatalf("Scan = %+v", us)
	}
	if us[1].Email != nil || !us[1].Created.IsZero() || us[2].Email == nil || *us[2].Email != "" {
		t.Fatalf("NULL/empty: %+v %+v", us[1], us[2])
	}
	var ptrs []*user
	if err := r.Scan(&ptrs); err != nil || len(ptrs) != 3 || ptrs[2].Name != "cy" {
		t.Fatalf("Scan []*user: %v %v", ptrs, err)
	}
	var u user
	if err := r.Scan(&u); err != nil || u.ID != 1 {
		t.Fatalf("Scan first row: %+v %v", u, err)
	}
	var m map[string]string
	if err := r.Row(1).Scan(&m); err != nil || m["name"] != "bob" || len(m) != 3 {
		t.Fatalf("Scan map: %v %v", m, err)
	}
	var ms []map[string]string
	if err := r.Scan(&ms); err != nil || len(ms) != 3 || ms[2]["email"] != "" {
		t.Fatalf("Scan []map: %v %v", ms, err)
	}
	var ma map[string]any
	if err := r.Row(1).Scan(&ma); err != nil || ma["email"] != nil || ma["id"] != "2" {
		t.Fatalf("Scan map[string]any: %v %v", ma, err)
	}
	var (
		id      int
		name    string
		email   *string
		visits  uint
		created *time.Time
	)
	if err := r.Row(0).Scan(&id, &name, &email, &visits, &created); err != nil || id != 1 || name != "ann" || *email != "ann@example.com" || visits != 3 || created.Year() != 2024 {
		t.Fatalf("positional Scan: %v", err)
	}
	if err := r.Row(0).Scan(&id); err == nil {
		t.Fatal("Scan with too few destinations succeeded")
	}
	empty, err := ix.Find(ctx, hs.Eq(99))
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, empty.Scan(&u), hs.ErrNotFound)
	// Get then Scan
	row, err := ix.Get(ctx, 3)
	if err != nil {
		t.Fatal(err)
	}
	if err := row.Scan(&u); err != nil || u.Name != "cy" {
		t.Fatalf("Row.Scan: %+v %v", u, err)
	}
	// a bad number is an error naming the column
	nx := c.Index(e.db, tb, "", []string{"name"})
	r, _ = nx.Find(ctx, hs.Eq(1))
	var bad struct {
		Name int `hs:"name"`
	}
	if err := r.Scan(&bad); err == nil || !strings.Contains(err.Error(), "name") {
		t.Fatalf("Scan of a string into an int: %v", err)
	}
}

func testPipeline(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, userTable(tb), userRows...)
	ix := c.Index(e.db, tb, "", []string{"id", "name"})
	vx := c.Index(e.db, tb, "", []string{"visits"})
	// reads only
	p := c.Pipeline()
	var gets []*hs.FindCmd
	for i := 1; i <= 4; i++ {
		gets = append(gets, p.Get(ix, i))
	}
	scan := p.Find(ix, hs.Query{Op: hs.GE, Key: []any{2}, Limit: 10})
	if p.Len() != 5 {
		t.Fatalf("Len = %d", p.Len())
	}
	if _, err := scan.Result(); err == nil {
		t.Fatal("Result before Exec succeeded")
	}
	if err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for i, g := range gets[:3] {
		row, err := g.Row()
		if err != nil || row.String(0) != fmt.Sprint(i+1) {
			t.Fatalf("get %d: %v %v", i+1, row.Values(), err)
		}
	}
	_, err := gets[3].Row()
	wantErr(t, err, hs.ErrNotFound)
	r, err := scan.Result()
	wantRows(t, r, err, `2,bob;3,cy`)
	if p.Len() != 0 {
		t.Fatal("pipeline not empty after Exec")
	}
	// writes and reads: the finds see the writes before them
	ins := p.Insert(ix, nil, "dan")
	upd := p.Update(ix, hs.Eq(1), 1, "anne")
	inc := p.Increment(vx, hs.Eq(1), 10)
	incR := p.IncrementReturning(vx, hs.Eq(1), 1)
	decR := p.DecrementReturning(vx, hs.Eq(1), 100)
	dec := p.Decrement(vx, hs.Eq(1), 1)
	find := p.Find(ix, hs.Query{Op: hs.GE, Key: []any{1}, Limit: 10})
	updR := p.UpdateReturning(ix, hs.Eq(2), 2, "bobby")
	delR := p.DeleteReturning(ix, hs.Eq(3))
	del := p.Delete(ix, hs.Eq(4))
	after := p.Find(ix, hs.Query{Op: hs.GE, Key: []any{1}, Limit: 10})
	if err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if id, err := ins.ID(); err != nil || id != 4 {
		t.Fatalf("insert id %d %v", id, err)
	}
	for i, mc := range []*hs.ModifyCmd{upd, inc, dec, del} {
		if n, err := mc.Count(); err != nil || n != 1 {
			t.Fatalf("modify %d: %d %v", i, n, err)
		}
	}
	r, err = incR.Result()
	wantRows(t, r, err, `13`)
	r, err = decR.Result()
	wantRows(t, r, err, `14`) // refused (would go negative) but still listed
	r, err = find.Result()
	wantRows(t, r, err, `1,anne;2,bob;3,cy;4,dan`)
	r, err = updR.Result()
	wantRows(t, r, err, `2,bob`)
	r, err = delR.Result()
	wantRows(t, r, err, `3,cy`)
	r, err = after.Result()
	wantRows(t, r, err, `1,anne;2,bobby`)
	row, err := vx.Get(ctx, 1)
	if err != nil || row.String(0) != "13" {
		t.Fatalf("visits = %v %v", row.Values(), err)
	}
	// a long pipeline in one write
	var many []*hs.FindCmd
	for i := 0; i < 2000; i++ {
		many = append(many, p.Get(ix, 1+i%2))
	}
	if err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	for i, g := range many {
		row, err := g.Row()
		if err != nil || row.String(0) != fmt.Sprint(1+i%2) {
			t.Fatalf("get %d: %v", i, err)
		}
	}
	// an empty pipeline is fine
	if err := p.Exec(ctx); err != nil {
		t.Fatal(err)
	}
	p.Get(ix, 1)
	p.Discard()
	if p.Len() != 0 {
		t.Fatal("Discard left requests")
	}
}

func testPipelineErrors(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, fruitTable(tb), fruitRows...)
	ix := c.Index(e.db, tb, "", []string{"k", "a"})
	bad := c.Index(e.db, "no_such_table", "", []string{"k"})
	badCol := c.Index(e.db, tb, "", []string{"k", "nope"})
	p := c.Pipeline()
	g1 := p.Get(ix, 1)
	kp := p.Find(ix, hs.Query{Key: []any{1, 2}})
	g2 := p.Get(bad, 1)
	g3 := p.Get(ix, 2)
	g4 := p.Get(badCol, 2)
	enc := p.Get(ix, make(chan int))
	g5 := p.Get(ix, 3)
	err := p.Exec(ctx)
	wantErr(t, err, hs.ErrKpnum) // the first error
	for i, g := range []*hs.FindCmd{g1, g3, g5} {
		if _, err := g.Row(); err != nil {
			t.Fatalf("good get %d: %v", i, err)
		}
	}
	wantErr(t, kp.Err(), hs.ErrKpnum)
	wantErr(t, g2.Err(), hs.ErrOpenTable)
	wantErr(t, g4.Err(), hs.ErrFld)
	wantErr(t, enc.Err(), hs.ErrValue)
	// the failed opens are tried again next time
	g2 = p.Get(bad, 1)
	if err := p.Exec(ctx); !errors.Is(err, hs.ErrOpenTable) || !errors.Is(g2.Err(), hs.ErrOpenTable) {
		t.Fatalf("second open: %v", err)
	}
	// an index of another client is refused (ids are per client)
	other, _ := hs.Open(e.dsn)
	defer other.Close()
	oc := p.Get(other.Index(e.db, tb, "", []string{"k", "a"}), 1)
	if err := p.Exec(ctx); err == nil || oc.Err() == nil || !strings.Contains(err.Error(), "another Client") {
		t.Fatalf("index of another client: %v", err)
	}
	// a pipeline whose requests all fail to encode sends nothing
	enc = p.Get(ix, struct{}{})
	wantErr(t, p.Exec(ctx), hs.ErrValue)
	wantErr(t, enc.Err(), hs.ErrValue)
}

func testServerErrors(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, fruitTable(tb), fruitRows...)
	e.mustCreate(t, blobTable(tb+"_b"))
	cases := []struct {
		name string
		ix   *hs.Index
		q    hs.Query
		want error
	}{
		{"open_table", c.Index(e.db, "nope", "", []string{"k"}), hs.Eq(1), hs.ErrOpenTable},
		{"open_table_db", c.Index("nodb", tb, "", []string{"k"}), hs.Eq(1), hs.ErrOpenTable},
		{"idxnum", c.Index(e.db, tb, "nope", []string{"k"}), hs.Eq(1), hs.ErrIdxnum},
		{"idxnum_number", c.Index(e.db, tb, "7", []string{"k"}), hs.Eq(1), hs.ErrIdxnum},
		{"fld", c.Index(e.db, tb, "", []string{"k", "K"}), hs.Eq(1), hs.ErrFld},
		{"fld_filter", c.Index(e.db, tb, "", []string{"k"}, "zz"), hs.Eq(1), hs.ErrFld},
		{"kpnum", c.Index(e.db, tb, "", []string{"k"}), hs.Query{Key: []any{1, 1}}, hs.ErrKpnum},
		{"op", c.Index(e.db, tb, "", []string{"k"}), hs.Query{Op: "==", Key: []any{1}}, hs.ErrOp},
		{"klen", c.Index(e.db, tb, "", []string{"k"}), hs.Query{}, hs.ErrKlen},
		{"notimpl", c.Index(e.db, tb, "", []string{"k"}), hs.Query{Op: "S", Key: []any{1}}, hs.ErrNotimpl},
		{"invalueslen", c.Index(e.db, tb, "", []string{"k"}), hs.Query{Key: []any{1}, In: &hs.In{}}, hs.ErrInvalueslen},
		{"filterblob", c.Index(e.db, tb+"_b", "", []string{"k"}, "t"), hs.Query{Op: hs.GE, Key: []any{""}, Filters: []hs.Filter{{Column: "t", Value: "x"}}}, hs.ErrFilterblob},
		{"name", c.Index(e.db, "bad\ttable", "", []string{"k"}), hs.Eq(1), hs.ErrValue},
		{"column", c.Index(e.db, tb, "", []string{"k\n"}), hs.Eq(1), hs.ErrValue},
	}
	for _, tc := range cases {
		_, err := tc.ix.Find(ctx, tc.q)
		if !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
		var se *hs.ServerError
		if errors.As(tc.want, &se) {
			var got *hs.ServerError
			if !errors.As(err, &got) || got.Token != se.Token || got.Code != se.Code || !strings.Contains(err.Error(), se.Token) {
				t.Errorf("%s: As %#v", tc.name, got)
			}
		}
	}
}

func testIndexReuse(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, fruitTable(tb), fruitRows...)
	o, _ := hs.ParseDSN(e.dsn)
	o.Debug = true
	o.ReadPoolSize = 1
	dc, err := hs.New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer dc.Close()
	a := dc.Index(e.db, tb, "", []string{"k", "a"})
	b := dc.Index(e.db, tb, "PRIMARY", []string{"k", "a"})
	if a != b {
		t.Fatal("same index, two handles")
	}
	other := dc.Index(e.db, tb, "", []string{"k", "a"}, "b")
	if other == a || other.ID() == a.ID() {
		t.Fatal("filter columns must give another handle")
	}
	for i := 0; i < 5; i++ {
		if _, err := a.Get(ctx, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := other.Get(ctx, 1); err != nil {
			t.Fatal(err)
		}
	}
	opens, finds := 0, 0
	for _, r := range dc.DebugRecords() {
		if strings.HasPrefix(r.Request, "P\t") {
			opens++
			if r.Reply != "0\t1" {
				t.Fatalf("open reply %q", r.Reply)
			}
		} else {
			finds++
			if r.Duration <= 0 || r.Addr == "" || r.Time.IsZero() {
				t.Fatalf("record %+v", r)
			}
		}
	}
	if opens != 2 || finds != 10 {
		t.Fatalf("%d opens, %d finds recorded; want 2 and 10", opens, finds)
	}
	if a.String() == "" || a.DB() != e.db || a.Table() != tb || a.Name() != "PRIMARY" || len(a.Columns()) != 2 || len(other.FilterColumns()) != 1 {
		t.Fatalf("accessors: %s", a)
	}
}

func testConcurrent(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, plainUserTable(tb), userRows...)
	o, _ := hs.ParseDSN(e.dsn)
	o.ReadPoolSize, o.WritePoolSize = 3, 2
	cc, err := hs.New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer cc.Close()
	ix := cc.Index(e.db, tb, "", []string{"id", "name"})
	const workers, each = 8, 100
	errc := make(chan error, workers)
	for w := 0; w < workers; w++ {
		go func() {
			for i := 0; i < each; i++ {
				if i%4 == 0 {
					if _, err := ix.Insert(ctx, 1000+w*each+i, fmt.Sprint("w", w)); err != nil {
						errc <- err
						return
					}
					continue
				}
				if _, err := ix.Get(ctx, 1+i%3); err != nil {
					errc <- err
					return
				}
			}
			errc <- nil
		}()
	}
	for w := 0; w < workers; w++ {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	st := cc.Stats()
	if st.Read.Open > 3 || st.Write.Open > 2 || st.Read.Hits == 0 || st.Write.Dials == 0 {
		t.Fatalf("stats %+v", st)
	}
	r, err := ix.Find(ctx, hs.Query{Op: hs.GE, Key: []any{1000}, Limit: 1000})
	if err != nil || r.Len() != workers*each/4 {
		t.Fatalf("%d rows inserted, %v", r.Len(), err)
	}
}

func testReadonly(t *testing.T, e *env, c *hs.Client) {
	tb := tableName(t)
	e.mustCreate(t, fruitTable(tb), fruitRows...)
	o, _ := hs.ParseDSN(e.dsn)
	o.WriteAddr = o.ReadAddr // a misconfigured client
	rc, err := hs.New(o)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	ix := rc.Index(e.db, tb, "", []string{"k", "a"})
	_, err = ix.Insert(ctx, 50, "x")
	wantErr(t, err, hs.ErrReadonly)
	_, err = ix.Delete(ctx, hs.Eq(1))
	wantErr(t, err, hs.ErrReadonly)
	// no write address at all
	o.WriteAddr = ""
	nc, _ := hs.New(o)
	defer nc.Close()
	_, err = nc.Index(e.db, tb, "", []string{"k"}).Update(ctx, hs.Eq(1), 1)
	wantErr(t, err, hs.ErrNoWriteAddr)
	if _, err := nc.Index(e.db, tb, "", []string{"k"}).Get(ctx, 1); err != nil {
		t.Fatal(err)
	}
}
