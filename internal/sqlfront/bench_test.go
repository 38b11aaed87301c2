package sqlfront

import (
	gosql "database/sql"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

const benchRows = 10000

// startBenchServer starts a server holding bench.t: benchRows rows of a
// primary key k, a VARCHAR v and a BIGINT n.
func startBenchServer(b *testing.B) *testServer {
	ts := startTestServer(b, "", Config{})
	setup := ts.open("")
	mustExec(b, setup, "CREATE DATABASE bench",
		"CREATE TABLE bench.t (k INT PRIMARY KEY, v VARCHAR(32) NOT NULL, n BIGINT NOT NULL)")
	for i := 0; i < benchRows; i += 1000 {
		var sb strings.Builder
		sb.WriteString("INSERT INTO bench.t VALUES ")
		for j := i; j < i+1000; j++ {
			if j > i {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "(%d,'value-%d',%d)", j, j, j*7)
		}
		mustExec(b, setup, sb.String())
	}
	return ts
}

// BenchmarkPointSelect measures primary-key point selects from 16
// connections over go-sql-driver: "text" sends each query as text
// (interpolateParams=true, COM_QUERY), "prepared" runs one server-side
// prepared statement (COM_STMT_EXECUTE, binary protocol).
func BenchmarkPointSelect(b *testing.B) {
	ts := startBenchServer(b)
	const conns = 16
	pool := func(interpolate bool) *gosql.DB {
		dsn := fmt.Sprintf("root:@tcp(%s)/bench?interpolateParams=%v", ts.s.Addr(), interpolate)
		db, err := gosql.Open("mysql", dsn)
		if err != nil {
			b.Fatal(err)
		}
		db.SetMaxOpenConns(conns)
		db.SetMaxIdleConns(conns)
		b.Cleanup(func() { db.Close() })
		return db
	}
	parallelism := (conns + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0)

	b.Run("text", func(b *testing.B) {
		db := pool(true)
		b.SetParallelism(parallelism)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			var v string
			var n int64
			for pb.Next() {
				k := rand.IntN(benchRows)
				if err := db.QueryRow("SELECT v, n FROM t WHERE k = ?", k).Scan(&v, &n); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
	b.Run("prepared", func(b *testing.B) {
		db := pool(false)
		stmt, err := db.Prepare("SELECT v, n FROM t WHERE k = ?")
		if err != nil {
			b.Fatal(err)
		}
		defer stmt.Close()
		b.SetParallelism(parallelism)
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			var v string
			var n int64
			for pb.Next() {
				k := rand.IntN(benchRows)
				if err := stmt.QueryRow(k).Scan(&v, &n); err != nil {
					b.Error(err)
					return
				}
			}
		})
	})
}
