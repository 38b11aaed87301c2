package main

import (
	"database/sql"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// TestLoadDataAtomicAcrossKill9: a LOAD DATA under autocommit that the
// server's SIGKILL interrupts leaves none of its rows (InnoDB keeps none
// either), and the client's retry then loads the whole file; one the
// kill did not interrupt left all of them. Each round loads the file
// into a fresh table and kills the server at a random moment of the
// load (its length measured by a load the test lets finish). Odd rounds
// are LOAD DATA ... REPLACE of a second file over the first one's rows
// (every row changed, more rows added): after the kill the table holds
// the first file's rows or the second's, never a mix.
func TestLoadDataAtomicAcrossKill9(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and kills it during loads")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	const rows = 200_000
	path := filepath.Join(t.TempDir(), "load.tsv")
	var b strings.Builder
	for i := 0; i < rows; i++ {
		fmt.Fprintf(&b, "%d\tvalue-%d\n", i, i)
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	mysql.RegisterLocalFile(path)
	defer mysql.DeregisterLocalFile(path)
	const replaced = rows + 1000
	path2 := filepath.Join(t.TempDir(), "replace.tsv")
	b.Reset()
	for i := 0; i < replaced; i++ {
		fmt.Fprintf(&b, "%d\tnew-%d\n", i, i)
	}
	if err := os.WriteFile(path2, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	mysql.RegisterLocalFile(path2)
	defer mysql.DeregisterLocalFile(path2)
	open := func(p *proc) *sql.DB {
		db, err := sql.Open("mysql", "root@tcp("+p.addrs["mysql"]+")/?timeout=10s")
		if err != nil {
			t.Fatal(err)
		}
		db.SetMaxOpenConns(2)
		return db
	}
	load := func(db *sql.DB, table string) error {
		_, err := db.Exec(fmt.Sprintf("LOAD DATA LOCAL INFILE '%s' INTO TABLE ld.%s", path, table))
		return err
	}
	replace := func(db *sql.DB, table string) error {
		_, err := db.Exec(fmt.Sprintf("LOAD DATA LOCAL INFILE '%s' REPLACE INTO TABLE ld.%s", path2, table))
		return err
	}
	count := func(db *sql.DB, table string) int {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM ld." + table).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	countNew := func(db *sql.DB, table string) int {
		var n int
		if err := db.QueryRow("SELECT COUNT(*) FROM ld." + table + " WHERE LEFT(v, 4) = 'new-'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	p := startBinary(t, bin, "--datadir="+dir, "--durability=sync")
	db := open(p)
	for _, q := range []string{"CREATE DATABASE ld", "SET GLOBAL local_infile = 1", "CREATE TABLE ld.warm (k BIGINT PRIMARY KEY, v VARCHAR(20), KEY v (v))"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	start := time.Now()
	if err := load(db, "warm"); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("a load of %d rows takes %v", rows, took)
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	interrupted := 0
	for round := 0; round < 6; round++ {
		table := fmt.Sprintf("t%d", round)
		if _, err := db.Exec(fmt.Sprintf("CREATE TABLE ld.%s (k BIGINT PRIMARY KEY, v VARCHAR(20), KEY v (v))", table)); err != nil {
			t.Fatal(err)
		}
		if round%2 == 1 {
			if err := load(db, table); err != nil {
				t.Fatal(err)
			}
		}
		done := make(chan error, 1)
		go func() {
			if round%2 == 1 {
				done <- replace(db, table)
			} else {
				done <- load(db, table)
			}
		}()
		// Somewhere from a tenth of the load to its end.
		time.Sleep(took/10 + time.Duration(rng.Int63n(int64(took*8/10))))
		p.cmd.Process.Kill()
		p.cmd.Wait()
		err := <-done
		db.Close()
		p = startBinary(t, bin, "--datadir="+dir, "--durability=sync")
		db = open(p)
		if _, err := db.Exec("SET GLOBAL local_infile = 1"); err != nil {
			t.Fatal(err)
		}
		n := count(db, table)
		t.Logf("round %d: load answered %v; %d rows after the restart", round, err, n)
		if round%2 == 1 {
			fresh := countNew(db, table)
			switch {
			case n == replaced && fresh == replaced:
			case n == rows && fresh == 0:
				if err == nil {
					t.Fatalf("round %d: the REPLACE was acknowledged and none of it is there", round)
				}
				interrupted++
			default:
				t.Fatalf("round %d: %d rows, %d of them replaced, after the kill (want %d of the first file or %d of the second)", round, n, fresh, rows, replaced)
			}
			continue
		}
		switch {
		case n == rows:
		case n == 0:
			if err == nil {
				t.Fatalf("round %d: the load was acknowledged and none of its rows is there", round)
			}
			interrupted++
			if err := load(db, table); err != nil {
				t.Fatalf("round %d: the retry failed: %v", round, err)
			}
			if n := count(db, table); n != rows {
				t.Fatalf("round %d: the retry left %d rows, want %d", round, n, rows)
			}
		default:
			t.Fatalf("round %d: %d of the load's %d rows survived the kill (want all or none)", round, n, rows)
		}
	}
	db.Close()
	p.cmd.Process.Signal(os.Interrupt)
	p.cmd.Wait()
	if interrupted == 0 {
		t.Log("no round interrupted a load")
	}
}
