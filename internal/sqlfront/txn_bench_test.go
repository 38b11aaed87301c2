package sqlfront

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkTxnReads measures one connection's reads in autocommit and
// inside REPEATABLE READ transactions (BEGIN; reads; COMMIT), which read
// a snapshot: "point10" is 10 primary-key selects, "scan" one SUM over a
// 1000-row range; "written" transactions first update a row, so that
// their reads lay the transaction's writes over the snapshot. One
// iteration is one transaction (or the same statements in autocommit).
func BenchmarkTxnReads(b *testing.B) {
	ts := startBenchServer(b)
	db, err := openPool(fmt.Sprintf("root:@tcp(%s)/bench?interpolateParams=true", ts.s.Addr()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	c, err := db.Conn(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	ctx := context.Background()
	point := func(b *testing.B) {
		var v string
		var n int64
		for j := 0; j < 10; j++ {
			if err := c.QueryRowContext(ctx, "SELECT v, n FROM t WHERE k = ?", rand.IntN(benchRows)).Scan(&v, &n); err != nil {
				b.Fatal(err)
			}
		}
	}
	scan := func(b *testing.B) {
		var sum string
		lo := rand.IntN(benchRows - 1000)
		if err := c.QueryRowContext(ctx, "SELECT SUM(n) FROM t WHERE k >= ? AND k < ?", lo, lo+1000).Scan(&sum); err != nil {
			b.Fatal(err)
		}
	}
	exec := func(b *testing.B, q string) {
		if _, err := c.ExecContext(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	for _, reads := range []struct {
		name string
		fn   func(*testing.B)
	}{{"point10", point}, {"scan", scan}} {
		b.Run("autocommit/"+reads.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				reads.fn(b)
			}
		})
		b.Run("repeatable-read/"+reads.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				exec(b, "BEGIN")
				reads.fn(b)
				exec(b, "COMMIT")
			}
		})
		b.Run("repeatable-read-written/"+reads.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				exec(b, "BEGIN")
				exec(b, fmt.Sprintf("UPDATE t SET n = n + 1 WHERE k = %d", rand.IntN(benchRows)))
				reads.fn(b)
				exec(b, "ROLLBACK")
			}
		})
	}
}
