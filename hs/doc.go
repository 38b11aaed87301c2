// Package hs is a client for HandlerSocket, the tab-separated NoSQL
// protocol of the MySQL/MariaDB HandlerSocket plugin, as served by
// HandlerDB (and by the plugin itself).
//
// A Client keeps a pool of connections to the read port (finds) and one
// to the write port (inserts, updates, deletes, increments, decrements).
// Requests go through an Index: a table's index opened with the columns
// to return and set. The client opens it lazily on each connection the
// first time it is used there, in the same write as the request, and
// remembers which connections have it:
//
//	c, err := hs.Open("hs://127.0.0.1:9998?wr_port=9999")
//	users := c.Index("app", "users", "PRIMARY", []string{"id", "name", "email"})
//	row, err := users.Get(ctx, 42)              // id = 42, or hs.ErrNotFound
//	id, err := users.Insert(ctx, nil, "ann", "ann@example.com")
//	n, err := users.Update(ctx, hs.Eq(42), 42, "bob", "bob@example.com")
//
// A Pipeline queues many requests and sends them in one write, then reads
// all the replies: the cheapest way to send many requests.
//
// Values are sent in the protocol's encoding (bytes below 0x10 escaped),
// and NULL (nil or hs.Null) is distinct from the empty string both ways:
// a result Value reports IsNull. Results scan into structs tagged
// `hs:"column"` and into maps.
//
// Every call takes a context whose deadline and cancellation bound the
// request (with Options.ReadTimeout and WriteTimeout). A pooled connection
// found dead is replaced; a find whose connection fails is retried once
// on a new connection; a write is never retried, since the server may have
// applied it.
//
// Server error replies are *ServerError values, matched with errors.Is
// against one sentinel per protocol error (ErrOpenTable, ErrStmtnum,
// ErrDuplicateKey...). Hooks (Options.Hooks) observe each request and
// pipeline for metrics and tracing; Options.Debug records every request
// line with its reply and duration.
//
// Client, Index and Result are safe for concurrent use; a Pipeline is
// not (use one per goroutine).
package hs
