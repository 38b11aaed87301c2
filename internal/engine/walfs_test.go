package engine

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/handlerdb/handlerdb/internal/types"
)

// logFiles lists the sizes of the store's log files, oldest first.
func logFiles(t *testing.T, dir string) []int64 {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, "*.log"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	var sizes []int64
	for _, n := range names {
		if strings.HasPrefix(filepath.Base(n), "LOCK") {
			continue
		}
		st, err := os.Stat(n)
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, st.Size())
	}
	return sizes
}

// In DurabilitySync every log Pebble writes is zeroed up to the memtable
// size before its first record (prewrittenWALFS), through memtable
// switches and recycled logs, and a store whose logs end in zeros opens
// with every row.
func TestSyncLogPrewritten(t *testing.T) {
	const mem = 1 << 20
	dir := t.TempDir()
	e := openTestEngine(t, dir, DurabilitySync, withMemTable(mem))
	tb := createTable(t, e, "c", wideDef())
	sizes := logFiles(t, dir)
	if len(sizes) == 0 || sizes[len(sizes)-1] < mem {
		t.Fatalf("log sizes %v: the log in use is not zeroed to %d bytes", sizes, mem)
	}
	// About 6 MiB of rows: the log moves on several times.
	const n = 12000
	val := strings.Repeat("x", 500)
	for i := 0; i < n; i += 100 {
		if err := e.Update(context.Background(), func(tx *Job) error {
			for k := i; k < i+100; k++ {
				if _, err := tx.Insert(tb, row(iv(int64(k)), iv(0), sv(val))); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			t.Fatal(err)
		}
	}
	if m := e.DB().Metrics(); m.WAL.Files < 1 {
		t.Fatalf("no log files: %+v", m.WAL)
	}
	for _, s := range logFiles(t, dir) {
		if s < mem {
			t.Fatalf("log sizes %v: a log smaller than %d bytes", logFiles(t, dir), mem)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	e = openTestEngine(t, dir, DurabilitySync, withMemTable(mem))
	tb, err := e.Catalog().Table("c", "t")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(findAll(t, e, tb, &Query{Index: tb.Primary, Op: OpGE})); got != n {
		t.Fatalf("%d rows after reopening, want %d", got, n)
	}
}

// wideDef is t (id BIGINT PRIMARY KEY, grp INT, val VARCHAR(1000)).
func wideDef() *TableDef {
	return &TableDef{Name: "t",
		Columns: []types.Column{
			{Name: "id", Type: types.Type{Kind: types.BigInt}},
			{Name: "grp", Type: intType()},
			{Name: "val", Type: varcharType(1000, "utf8mb4_general_ci")},
		},
		Indexes: []IndexDef{{Primary: true, Columns: []string{"id"}}}}
}
