package sqlfront

import (
	"context"
	gosql "database/sql"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// sysbenchRows is the size of the table BenchmarkSysbenchShapes reads.
const sysbenchRows = 10000

// sysbenchShapes are the statements of sysbench's OLTP scripts, on its
// table's schema, with the arguments of one execution.
var sysbenchShapes = []struct {
	name string
	q    string
	args func(r *rand.Rand) []any
}{
	{"point_select", "SELECT c FROM sbtest1 WHERE id = ?", func(r *rand.Rand) []any { return []any{1 + r.IntN(sysbenchRows)} }},
	{"simple_range", "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ?", sbRange},
	{"sum_range", "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN ? AND ?", sbRange},
	{"order_range", "SELECT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", sbRange},
	{"distinct_range", "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN ? AND ? ORDER BY c", sbRange},
	{"random_ranges", "SELECT count(k) FROM sbtest1 WHERE " + strings.Repeat("k BETWEEN ? AND ? OR ", 9) + "k BETWEEN ? AND ?", func(r *rand.Rand) []any {
		var a []any
		for range 10 {
			lo := 1 + r.IntN(sysbenchRows)
			a = append(a, lo, lo+5)
		}
		return a
	}},
	{"update_index", "UPDATE sbtest1 SET k = k + 1 WHERE id = ?", func(r *rand.Rand) []any { return []any{1 + r.IntN(sysbenchRows)} }},
	{"update_non_index", "UPDATE sbtest1 SET c = ? WHERE id = ?", func(r *rand.Rand) []any {
		return []any{fmt.Sprintf("%011d-%011d", r.Int64N(1e11), r.Int64N(1e11)), 1 + r.IntN(sysbenchRows)}
	}},
	// oltp_delete: once the script has run a while, most deletes find no
	// row. (On sbtest2, which only the inserts fill, so that the shapes
	// after it still read and update sbtest1's rows.)
	{"delete", "DELETE FROM sbtest2 WHERE id = ?", func(r *rand.Rand) []any { return []any{1 + r.IntN(sysbenchRows)} }},
	{"insert", "INSERT INTO sbtest2 (id, k, c, pad) VALUES (?, ?, ?, ?)", func(r *rand.Rand) []any {
		return []any{0, r.IntN(sysbenchRows), "c-value", "pad-value"}
	}},
}

func sbRange(r *rand.Rand) []any {
	lo := 1 + r.IntN(sysbenchRows-100)
	return []any{lo, lo + 99}
}

// BenchmarkSysbenchShapes runs each statement shape of sysbench's OLTP
// scripts on one connection, as a server-side prepared statement
// (COM_STMT_EXECUTE; with and without templates) and as text (COM_QUERY,
// the driver interpolating the arguments), reporting time and allocations
// per statement (client and server together, both in this process).
func BenchmarkSysbenchShapes(b *testing.B) {
	ts := startTestServer(b, "", Config{})
	setup := ts.open("")
	mustExec(b, setup, "CREATE DATABASE sbtest")
	for _, tbl := range []string{"sbtest1", "sbtest2"} {
		mustExec(b, setup, "CREATE TABLE sbtest."+tbl+" (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0, "+
			"c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k))")
	}
	r := rand.New(rand.NewPCG(7, 8))
	for i := 1; i <= sysbenchRows; i += 1000 {
		var sb strings.Builder
		sb.WriteString("INSERT INTO sbtest.sbtest1 VALUES ")
		for j := i; j < i+1000; j++ {
			if j > i {
				sb.WriteByte(',')
			}
			fmt.Fprintf(&sb, "(%d,%d,'%011d-%011d','%011d')", j, 1+r.IntN(sysbenchRows), r.Int64N(1e11), r.Int64N(1e11), r.Int64N(1e11))
		}
		mustExec(b, setup, sb.String())
	}
	// prepared_analyzed: prepared, with the plan caches and templates off
	// (every execution bound and analyzed)
	for _, mode := range []string{"prepared", "prepared_analyzed", "text"} {
		ts.s.mh.noPlanCache.Store(mode == "prepared_analyzed")
		db, err := gosql.Open("mysql", fmt.Sprintf("root:@tcp(%s)/sbtest?interpolateParams=%v", ts.s.Addr(), mode == "text"))
		if err != nil {
			b.Fatal(err)
		}
		db.SetMaxOpenConns(1)
		b.Cleanup(func() { db.Close() })
		for _, sh := range sysbenchShapes {
			b.Run(sh.name+"/"+mode, func(b *testing.B) {
				ctx := context.Background()
				query := db.QueryContext
				if mode != "text" {
					st, err := db.PrepareContext(ctx, sh.q)
					if err != nil {
						b.Fatal(err)
					}
					defer st.Close()
					query = func(ctx context.Context, _ string, args ...any) (*gosql.Rows, error) {
						return st.QueryContext(ctx, args...)
					}
				}
				b.ReportAllocs()
				b.ResetTimer()
				for b.Loop() {
					rows, err := query(ctx, sh.q, sh.args(r)...)
					if err != nil {
						b.Fatal(err)
					}
					for rows.Next() {
					}
					if err := rows.Err(); err != nil {
						b.Fatal(err)
					}
					rows.Close()
				}
			})
		}
	}
}
