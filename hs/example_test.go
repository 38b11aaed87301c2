package hs_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"sync/atomic"
	"time"

	"github.com/handlerdb/handlerdb/hs"
)

// The examples run against the in-process server TestMain starts; serverDSN
// is its address, like "hs://127.0.0.1:9998/hstest?wr_port=9999". Each
// example has its own copy of a table
//
//	users (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(64),
//	       email VARCHAR(255) NULL, visits INT DEFAULT 0, created DATETIME NULL,
//	       KEY iname(name))
//
// holding (1, ann, ann@example.com, 3, 2024-01-02 03:04:05), (2, bob, NULL,
// 0, NULL) and (3, cy, "", 7, 2023-12-31 23:59:59).

func ExampleOpen() {
	c, err := hs.Open(serverDSN) // hs://[secret@]host:9998/db?wr_port=9999&wr_secret=...
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	if err := c.Ping(context.Background()); err != nil {
		log.Fatal(err)
	}
	fmt.Println("connected")
	// Output: connected
}

func ExampleNew() {
	o, _ := hs.ParseDSN(serverDSN)
	c, err := hs.New(hs.Options{
		ReadAddr:      o.ReadAddr,  // e.g. "db1:9998"
		WriteAddr:     o.WriteAddr, // e.g. "db1:9999"
		ReadSecret:    "",          // the port's secret, or user:password
		ReadPoolSize:  8,
		WritePoolSize: 4,
		DialTimeout:   time.Second,
		ReadTimeout:   2 * time.Second,
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	row, err := c.Index("hstest", "users", "PRIMARY", []string{"name"}).Get(context.Background(), 1)
	fmt.Println(row.String(0), err)
	// Output: ann <nil>
}

func ExampleParseDSN() {
	o, err := hs.ParseDSN("hs://app:pw@db1/shop?wr_secret=app:pw&pool_size=16&timeout=500ms")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(o.ReadAddr, o.WriteAddr, o.ReadSecret, o.Database, o.ReadPoolSize, o.ReadTimeout)
	// Output: db1:9998 db1:9999 app:pw shop 16 500ms
}

func ExampleClient_Index() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	// the primary key, returning three columns; "" is the DSN's database
	users := c.Index("", "users", "PRIMARY", []string{"id", "name", "email"})
	// a secondary index, with a filter column
	byName := c.Index("hstest", "users", "iname", []string{"id", "name"}, "visits")
	fmt.Println(users)
	fmt.Println(byName)
	fmt.Println(users == c.Index("hstest", "users", "", []string{"id", "name", "email"}))
	// Output:
	// hstest.users.PRIMARY(id,name,email)
	// hstest.users.iname(id,name) filters(visits)
	// true
}

func ExampleIndex_Get() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	users := c.Index("", "users", "", []string{"id", "name", "email"})
	ctx := context.Background()
	row, err := users.Get(ctx, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(row.String(1), row.Value(2).IsNull())
	_, err = users.Get(ctx, 42)
	fmt.Println(errors.Is(err, hs.ErrNotFound))
	// Output:
	// bob true
	// true
}

func ExampleIndex_Find() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	users := c.Index("", "ex_find", "", []string{"id", "name"})
	ctx := context.Background()
	// ascending from id 2, at most 10 rows
	r, err := users.Find(ctx, hs.Query{Op: hs.GE, Key: []any{2}, Limit: 10})
	if err != nil {
		log.Fatal(err)
	}
	for i := 0; i < r.Len(); i++ {
		fmt.Println(r.Row(i).String(0), r.Row(i).String(1))
	}
	// descending from id 3, skipping one row
	r, _ = users.Find(ctx, hs.Query{Op: hs.LE, Key: []any{3}, Limit: 1, Offset: 1})
	fmt.Println(r.Row(0).String(1))
	// Output:
	// 2 bob
	// 3 cy
	// bob
}

func ExampleIndex_Find_in() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	users := c.Index("", "ex_find", "", []string{"name"})
	r, _ := users.Find(context.Background(), hs.Query{
		Key:   []any{0},
		Limit: 10,
		In:    &hs.In{KeyPart: 0, Values: []any{3, 1, 99}}, // missing keys are skipped
	})
	for _, row := range r.Rows() {
		fmt.Println(row.String(0))
	}
	// Output:
	// cy
	// ann
}

func ExampleIndex_Find_filters() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	// filters compare the filter columns named when opening the index
	users := c.Index("", "ex_find", "", []string{"name", "visits"}, "visits", "email")
	r, _ := users.Find(context.Background(), hs.Query{
		Op: hs.GE, Key: []any{0}, Limit: 10,
		Filters: []hs.Filter{
			{Type: hs.Stop, Column: "email", Op: hs.NE, Value: nil}, // end at the first NULL email
			{Column: "visits", Op: hs.GT, Value: 0},                 // skip the rows that fail
		},
	})
	for _, row := range r.Rows() {
		fmt.Println(row.String(0), row.String(1))
	}
	// Output:
	// ann 3
}

func ExampleIndex_Insert() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	users := c.Index("", "ex_insert", "", []string{"name", "email", "created"})
	ctx := context.Background()
	id, err := users.Insert(ctx, "dan", "dan@example.com", time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("new id", id)
	// an explicit key that exists already
	_, err = c.Index("", "ex_insert", "", []string{"id", "name"}).Insert(ctx, 1, "again")
	fmt.Println(errors.Is(err, hs.ErrDuplicateKey))
	// Output:
	// new id 4
	// true
}

func ExampleIndex_Update() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	users := c.Index("", "ex_update", "", []string{"name", "email"})
	ctx := context.Background()
	n, err := users.Update(ctx, hs.Eq(2), "bob", "bob@example.com")
	fmt.Println(n, err)
	// set email to NULL for ids >= 2, and get the rows as they were
	old, _ := users.UpdateReturning(ctx, hs.Query{Op: hs.GE, Key: []any{2}, Limit: 10}, "x", hs.Null)
	for _, row := range old.Rows() {
		fmt.Printf("%s %q\n", row.String(0), row.String(1))
	}
	// Output:
	// 1 <nil>
	// bob "bob@example.com"
	// cy ""
}

func ExampleIndex_Delete() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	users := c.Index("", "ex_delete", "", []string{"id", "name"})
	ctx := context.Background()
	n, _ := users.Delete(ctx, hs.Eq(1))
	fmt.Println("deleted", n)
	gone, _ := users.DeleteReturning(ctx, hs.Query{Op: hs.GE, Key: []any{0}, Limit: 10})
	for _, row := range gone.Rows() {
		fmt.Println("deleted", row.String(1))
	}
	// Output:
	// deleted 1
	// deleted bob
	// deleted cy
}

func ExampleIndex_Increment() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	visits := c.Index("", "ex_incr", "", []string{"visits"})
	ctx := context.Background()
	visits.Increment(ctx, hs.Eq(1), 10)
	before, _ := visits.IncrementReturning(ctx, hs.Eq(1), 1)
	fmt.Println("was", before.Row(0).String(0))
	row, _ := visits.Get(ctx, 1)
	fmt.Println("now", row.String(0))
	// Output:
	// was 13
	// now 14
}

func ExampleIndex_Decrement() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	visits := c.Index("", "ex_incr", "", []string{"visits"})
	ctx := context.Background()
	// cy has 7 visits: a decrement that would go below zero is refused
	n, _ := visits.Decrement(ctx, hs.Eq(3), 8)
	fmt.Println("changed", n)
	before, _ := visits.DecrementReturning(ctx, hs.Eq(3), 7)
	fmt.Println("was", before.Row(0).String(0))
	row, _ := visits.Get(ctx, 3)
	fmt.Println("now", row.String(0))
	// Output:
	// changed 0
	// was 7
	// now 0
}

func ExamplePipeline() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	users := c.Index("", "ex_pipeline", "", []string{"id", "name"})
	visits := c.Index("", "ex_pipeline", "", []string{"visits"})
	ctx := context.Background()

	p := c.Pipeline()
	ins := p.Insert(users, nil, "dan")
	inc := p.Increment(visits, hs.Eq(1), 1)
	get := p.Get(users, 4) // sees the insert: same connection, in order
	all := p.Find(users, hs.Query{Op: hs.GE, Key: []any{0}, Limit: 10})
	if err := p.Exec(ctx); err != nil { // one write, then every reply
		log.Fatal(err)
	}
	id, _ := ins.ID()
	n, _ := inc.Count()
	row, _ := get.Row()
	r, _ := all.Result()
	fmt.Println(id, n, row.String(1), r.Len())
	// Output: 4 1 dan 4
}

func ExampleResult_Scan() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	type User struct {
		ID      int       `hs:"id"`
		Name    string    `hs:"name"`
		Email   *string   `hs:"email"` // nil for NULL
		Created time.Time `hs:"created"`
	}
	users := c.Index("", "ex_scan", "", []string{"id", "name", "email", "created"})
	r, err := users.Find(context.Background(), hs.Query{Op: hs.GE, Key: []any{1}, Limit: 10})
	if err != nil {
		log.Fatal(err)
	}
	var us []User
	if err := r.Scan(&us); err != nil {
		log.Fatal(err)
	}
	for _, u := range us {
		fmt.Println(u.ID, u.Name, u.Email != nil, u.Created.Year())
	}
	var m map[string]string // NULL columns are left out
	r.Row(1).Scan(&m)
	fmt.Println(len(m), m["name"])
	// Output:
	// 1 ann true 2024
	// 2 bob false 1
	// 3 cy true 2023
	// 2 bob
}

func ExampleRow_Scan() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	row, err := c.Index("", "ex_scan", "", []string{"id", "name", "visits"}).Get(context.Background(), 3)
	if err != nil {
		log.Fatal(err)
	}
	var (
		id     int
		name   string
		visits int64
	)
	if err := row.Scan(&id, &name, &visits); err != nil {
		log.Fatal(err)
	}
	fmt.Println(id, name, visits)
	// Output: 3 cy 7
}

func ExampleServerError() {
	c, _ := hs.Open(serverDSN)
	defer c.Close()
	_, err := c.Index("", "no_such_table", "", []string{"id"}).Get(context.Background(), 1)
	fmt.Println(errors.Is(err, hs.ErrOpenTable))
	var se *hs.ServerError
	if errors.As(err, &se) {
		fmt.Println(se.Code, se.Token)
	}
	// Output:
	// true
	// 1 open_table
}

// countingHook counts requests and wire bytes, as a metrics hook would.
type countingHook struct{ requests, bytes atomic.Int64 }

func (h *countingHook) Before(ctx context.Context, op *hs.Operation) context.Context { return ctx }

func (h *countingHook) After(ctx context.Context, op *hs.Operation) {
	h.requests.Add(int64(op.Requests))
	h.bytes.Add(int64(op.BytesSent + op.BytesReceived))
}

func ExampleHook() {
	o, _ := hs.ParseDSN(serverDSN)
	h := &countingHook{}
	o.Hooks = []hs.Hook{h}
	c, _ := hs.New(o)
	defer c.Close()
	users := c.Index("", "users", "", []string{"name"})
	for id := 1; id <= 3; id++ {
		users.Get(context.Background(), id)
	}
	fmt.Println(h.requests.Load(), h.bytes.Load() > 0)
	// Output: 3 true
}

func ExampleClient_DebugRecords() {
	o, _ := hs.ParseDSN(serverDSN)
	o.Debug = true
	c, _ := hs.New(o)
	defer c.Close()
	c.Index("", "users", "", []string{"name"}).Get(context.Background(), 1)
	for _, r := range c.DebugRecords() {
		fmt.Printf("%q -> %q (%v)\n", r.Request, r.Reply, r.Duration > 0)
	}
	// Output:
	// "P\t1\thstest\tusers\tPRIMARY\tname" -> "0\t1" (true)
	// "1\t=\t1\t1\t1\t0" -> "0\t1\tann" (true)
}
