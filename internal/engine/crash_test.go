package engine

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/types"
)

// The crash test runs a child process (this test binary, re-executed) that
// writes through the writer in one durability mode and prints a line for
// every acknowledged job; the parent kills it with SIGKILL at a random
// moment, reopens the store and checks that every acknowledged write is
// there, that no multi-row job is half-applied and that every secondary
// index matches its rows. The child's change feed prints each transaction
// it delivers: their numbers run on from the reopened store's FeedSeq one
// by one, and no number delivered is lost by the kill.

const (
	crashChildEnv      = "HANDLERDB_CRASH_CHILD_DIR"
	crashDurabilityEnv = "HANDLERDB_CRASH_DURABILITY"
	crashMemTableEnv   = "HANDLERDB_CRASH_MEMTABLE" // the child's MemTableSize; empty: the default
)

// Rows of a job get ids jobID*8 .. jobID*8+n-1 and grp = n, so any row
// tells which rows its job wrote. Updated rows live at ids >= updBase.
const updBase = 1 << 40

func crashTableDef() *TableDef {
	return &TableDef{Name: "t",
		Columns: []types.Column{
			{Name: "id", Type: types.Type{Kind: types.BigInt}},
			{Name: "grp", Type: intType()},
			{Name: "val", Type: varcharType(40, "utf8mb4_general_ci")},
		},
		Indexes: []IndexDef{
			{Primary: true, Columns: []string{"id"}},
			{Name: "grp", Columns: []string{"grp"}},
			{Name: "val", Unique: true, Columns: []string{"val"}},
		}}
}

func TestMain(m *testing.M) {
	if dir := os.Getenv(crashChildEnv); dir != "" {
		crashChild(dir)
		os.Exit(0)
	}
	code := m.Run()
	closeBenchStore()
	os.Exit(code)
}

// crashChild writes until it is killed.
func crashChild(dir string) {
	d, err := ParseDurability(os.Getenv(crashDurabilityEnv))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	mem, _ := strconv.ParseInt(os.Getenv(crashMemTableEnv), 10, 64)
	e, err := Open(Options{Dir: dir, Durability: d, MemTableSize: mem})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	tb, err := e.Catalog().Table("c", "t")
	if err != nil {
		err = e.Update(context.Background(), func(tx *Job) error {
			if err := tx.CreateDatabase("c"); err != nil {
				return err
			}
			tb, err = tx.CreateTable("c", crashTableDef())
			return err
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
	round, _ := strconv.Atoi(os.Getenv("HANDLERDB_CRASH_ROUND"))
	var out sync.Mutex
	say := func(format string, args ...any) {
		out.Lock()
		fmt.Fprintf(os.Stdout, format, args...)
		out.Unlock()
	}
	// Every committed transaction's record in the change log (its
	// number and row count), and every delivered one, in order.
	e.SetChangeLog(func(x FeedTxn) ([]byte, error) {
		return fmt.Appendf(nil, "%d %d", x.Seq, len(x.Changes)), nil
	})
	e.SetChangeFeed(func(txns []FeedTxn) {
		for _, x := range txns {
			say("F %d %d\n", x.Seq, len(x.Changes))
		}
	})
	say("ready\n")
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(round*100 + g)))
			updRow := int64(updBase + round*100 + g)
			for seq := 0; ; seq++ {
				job := int64(round)<<24 | int64(g)<<16 | int64(seq)
				if g == 0 {
					// Updates of one row: insert it once, then rewrite its
					// unique column over and over.
					val := fmt.Sprintf("u%d-%d", updRow, seq)
					err := e.Update(context.Background(), func(tx *Job) error {
						if seq == 0 {
							_, err := tx.Insert(tb, row(iv(updRow), iv(0), sv(val)))
							return err
						}
						_, err := tx.FindModify(tb, &Query{Op: OpEQ, Key: []types.Value{iv(updRow)}},
							&Modify{Op: ModUpdate, Columns: []int{2}, Values: []types.Value{sv(val)}})
						return err
					})
					if err == nil {
						say("U %d %d\n", updRow, seq)
					}
					continue
				}
				n := 1 + rng.Intn(5)
				err := e.Update(context.Background(), func(tx *Job) error {
					for k := 0; k < n; k++ {
						id := job*8 + int64(k)
						if _, err := tx.Insert(tb, row(iv(id), iv(int64(n)), sv(fmt.Sprintf("v%d", id)))); err != nil {
							return err
						}
					}
					return nil
				})
				if err == nil {
					say("A %d %d\n", job, n)
				}
			}
		}(g)
	}
	wg.Wait()
}

// A process crash loses no acknowledged write in any durability mode: os
// and none defer only the fsync, never the write to the OS.
func TestCrashWritesSurviveSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills 50 child processes")
	}
	for _, tc := range []struct {
		name   string
		d      Durability
		rounds int
		mem    int64
	}{
		{"sync", DurabilitySync, 20, 0},
		// Small memtables: the log moves to a new (zeroed, then
		// recycled) file many times a round, so recovery reads logs
		// that end in zeros and logs written over older ones.
		{"sync-small-memtable", DurabilitySync, 10, 256 << 10},
		{"os", DurabilityOS, 15, 0},
		{"none", DurabilityNone, 15, 0},
	} {
		t.Run(tc.name, func(t *testing.T) { crashRounds(t, tc.d, tc.rounds, tc.mem) })
	}
}

func crashRounds(t *testing.T, d Durability, rounds int, mem int64) {
	dir := t.TempDir()
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	totalAcked := 0
	feedNext := uint64(1) // the number the next delivered transaction must have
	for round := 1; round <= rounds; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+dir, crashDurabilityEnv+"="+d.String(),
			fmt.Sprintf("HANDLERDB_CRASH_ROUND=%d", round), fmt.Sprintf("%s=%d", crashMemTableEnv, mem))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		acked := map[int64]int{}   // job -> rows
		updated := map[int64]int{} // row -> last acked seq
		lines := make(chan string, 1024)
		go func() {
			sc := bufio.NewScanner(stdout)
			for sc.Scan() {
				lines <- sc.Text()
			}
			close(lines)
		}()
		if l := <-lines; l != "ready" {
			t.Fatalf("child: %q", l)
		}
		kill := time.After(time.Duration(20+rng.Intn(300)) * time.Millisecond)
	read:
		for {
			select {
			case l, ok := <-lines:
				if !ok {
					break read
				}
				record(t, l, acked, updated, &feedNext)
			case <-kill:
				cmd.Process.Kill()
				kill = nil
			}
		}
		cmd.Wait()
		e, err := Open(Options{Dir: dir, Durability: d, MemTableSize: mem})
		if err != nil {
			t.Fatalf("round %d: reopen: %v", round, err)
		}
		tb, err := e.Catalog().Table("c", "t")
		if err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		if e.FeedSeq() < feedNext-1 {
			t.Fatalf("round %d: the feed delivered transaction %d, the reopened store's FeedSeq is %d", round, feedNext-1, e.FeedSeq())
		}
		// The change log holds a record for every number given, each
		// naming itself: written in the batch of its rows.
		var logged uint64
		if err := e.ReadChangeLog(1, func(seq uint64, rec []byte) bool {
			var n, rows uint64
			if _, err := fmt.Sscanf(string(rec), "%d %d", &n, &rows); err != nil || n != seq || seq != logged+1 {
				t.Fatalf("round %d: change log record %d is %q after %d", round, seq, rec, logged)
			}
			logged = seq
			return true
		}); err != nil {
			t.Fatal(err)
		}
		if logged != e.FeedSeq() {
			t.Fatalf("round %d: the change log ends at %d, FeedSeq is %d", round, logged, e.FeedSeq())
		}
		feedNext = e.FeedSeq() + 1
		if err := e.Check(tb); err != nil {
			t.Fatalf("round %d: %v", round, err)
		}
		present := map[int64]Row{}
		it, _ := e.NewIterator(tb, nil, Range{}, false)
		for {
			r, err := it.Next()
			if err != nil {
				break
			}
			present[r[0].I] = r.Clone()
		}
		it.Close()
		for job, n := range acked {
			for k := 0; k < n; k++ {
				if _, ok := present[job*8+int64(k)]; !ok {
					t.Fatalf("round %d: acknowledged job %d lost row %d", round, job, k)
				}
			}
		}
		for id, r := range present {
			if id >= updBase {
				continue
			}
			job, n := id/8, int(r[1].I)
			for k := 0; k < n; k++ {
				if _, ok := present[job*8+int64(k)]; !ok {
					t.Fatalf("round %d: job %d half-applied: row %d of %d missing", round, job, k, n)
				}
			}
		}
		for id, seq := range updated {
			r, ok := present[id]
			if !ok {
				t.Fatalf("round %d: updated row %d lost", round, id)
			}
			var got int
			fmt.Sscanf(strings.TrimPrefix(string(r[2].B), fmt.Sprintf("u%d-", id)), "%d", &got)
			if got < seq {
				t.Fatalf("round %d: row %d has update %d, acknowledged %d", round, id, got, seq)
			}
		}
		if err := e.Close(); err != nil && !errors.Is(err, ErrClosed) {
			t.Fatal(err)
		}
		totalAcked += len(acked) + len(updated)
	}
	t.Logf("%d rounds, %d acknowledged jobs checked", rounds, totalAcked)
	if totalAcked == 0 {
		t.Fatal("no write was acknowledged before the kills")
	}
}

func record(t *testing.T, l string, acked map[int64]int, updated map[int64]int, feedNext *uint64) {
	var kind string
	var a, b int64
	if _, err := fmt.Sscanf(l, "%s %d %d", &kind, &a, &b); err != nil {
		t.Fatalf("child said %q", l)
	}
	switch kind {
	case "A":
		acked[a] = int(b)
	case "U":
		updated[a] = int(b)
	case "F":
		if uint64(a) != *feedNext || b <= 0 {
			t.Fatalf("the feed delivered transaction %d (%d changes), want number %d", a, b, *feedNext)
		}
		*feedNext++
	}
}
