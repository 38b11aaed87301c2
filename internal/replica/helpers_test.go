package replica_test

import (
	"bufio"
	"context"
	gosql "database/sql"
	"fmt"
	"log/slog"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/engine"
	"github.com/handlerdb/handlerdb/internal/server"
	"github.com/handlerdb/handlerdb/internal/typevectors"
)

// startReplica starts a HandlerDB server on dir (a fresh one when empty)
// with every port on loopback, and stops it when the test ends unless the
// test did.
func startReplica(t testing.TB, dir string, mutate func(*config.Config)) *server.Server {
	t.Helper()
	cfg := config.Default()
	if dir == "" {
		dir = t.TempDir()
	}
	cfg.DataDir = dir
	cfg.Port, cfg.HSPort, cfg.HSPortWr, cfg.MemcachedPort = 0, 0, 0, -1
	cfg.Durability = engine.DurabilityNone
	cfg.AdminAddress = ""
	if mutate != nil {
		mutate(&cfg)
	}
	level := slog.LevelError
	if os.Getenv("HANDLERDB_REPLICA_LOG") != "" {
		level = slog.LevelDebug
	}
	s, err := server.Start(cfg, slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level})))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stopServer(t, s) })
	return s
}

// stopServer shuts s down; a second call does nothing.
func stopServer(t testing.TB, s *server.Server) {
	if s.Engine() == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := s.Shutdown(ctx); err != nil && !strings.Contains(err.Error(), "closed") {
		t.Error(err)
	}
}

// sqlOf connects to s's SQL port as root.
func sqlOf(t testing.TB, s *server.Server) *gosql.DB {
	t.Helper()
	db, err := gosql.Open("mysql", fmt.Sprintf("root@tcp(%s)/?timeout=5s", s.SQLAddr()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// follow points s at the primary and starts replication, through SQL.
func follow(t testing.TB, db *gosql.DB, p *primary, extra ...string) {
	t.Helper()
	host, port, _ := net.SplitHostPort(p.Addr())
	stmts := append(extra,
		fmt.Sprintf("CHANGE REPLICATION SOURCE TO SOURCE_HOST='%s', SOURCE_PORT=%s, SOURCE_USER='%s', SOURCE_PASSWORD='%s', SOURCE_CONNECT_RETRY=1", host, port, replUser, replPass),
		"START REPLICA")
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("replica: %s: %v", s, err)
		}
	}
}

// replicaStatus reads SHOW REPLICA STATUS into a map (nil: no row).
func replicaStatus(t testing.TB, db *gosql.DB) map[string]string {
	t.Helper()
	rows, err := db.Query("SHOW REPLICA STATUS")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if !rows.Next() {
		return nil
	}
	vals := make([]gosql.RawBytes, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for i, c := range cols {
		m[c] = string(vals[i])
	}
	return m
}

// catchUp waits until the replica has executed the primary's whole GTID
// position, failing with the replica's status if it stops or takes over
// timeout.
func catchUp(t testing.TB, rdb *gosql.DB, p *primary, timeout time.Duration) {
	t.Helper()
	var want string
	if err := p.Root.QueryRow("SELECT @@gtid_binlog_pos").Scan(&want); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(timeout)
	for {
		st := replicaStatus(t, rdb)
		if st != nil && st["Executed_Gtid_Set"] == want {
			return
		}
		if st != nil && (st["Last_SQL_Error"] != "" || st["Last_IO_Errno"] == "1236") {
			t.Fatalf("replica stopped: SQL %s %s; IO %s %s", st["Last_SQL_Errno"], st["Last_SQL_Error"], st["Last_IO_Errno"], st["Last_IO_Error"])
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica did not reach %s in %v: status %v", want, timeout, st)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// dump returns every row of db.table, ordered by the first column, each as
// its columns' text joined by tabs (NULL as \N).
func dump(t testing.TB, db *gosql.DB, table, order string) []string {
	t.Helper()
	return dumpCols(t, db, "*", table, order)
}

// dumpCols is dump of some columns.
func dumpCols(t testing.TB, db *gosql.DB, list, table, order string) []string {
	t.Helper()
	rows, err := db.Query(fmt.Sprintf("SELECT %s FROM %s ORDER BY %s", list, table, order))
	if err != nil {
		t.Fatalf("dump %s: %v", table, err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]gosql.RawBytes, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		f := make([]string, len(cols))
		for i, v := range vals {
			if v == nil {
				f[i] = `\N`
			} else {
				f[i] = strconv.Quote(string(v))
			}
		}
		out = append(out, strings.Join(f, "\t"))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// sameRows fails the test where the two dumps differ.
func sameRows(t testing.TB, table string, primary, replica []string) {
	t.Helper()
	n := 0
	for i := 0; i < max(len(primary), len(replica)); i++ {
		var a, b string
		if i < len(primary) {
			a = primary[i]
		}
		if i < len(replica) {
			b = replica[i]
		}
		if a != b {
			t.Errorf("%s row %d:\n primary %s\n replica %s", table, i, a, b)
			if n++; n >= 3 {
				t.Errorf("%s: more differences", table)
				return
			}
		}
	}
}

// vector is one conv file of ../shared/typevectors: the CREATE TABLE and
// the inputs.
type vector struct {
	name   string
	create string
	inputs []*string // nil: NULL
	hs     []*string // hs_value: what MariaDB's HandlerSocket printed of the stored value
}

// loadVectors reads every conv/<type>.tsv of the type vectors.
func loadVectors(t testing.TB) []vector {
	t.Helper()
	convs, err := typevectors.Convs()
	if err != nil {
		t.Fatal(err)
	}
	out := make([]vector, len(convs))
	for i, c := range convs {
		out[i] = vector{name: c.Name, create: c.Create, inputs: c.Inputs, hs: c.HS}
	}
	return out
}

// hsDump reads every row of db.table through the replica's HandlerSocket
// read port (columns cols, primary key order), each as its columns'
// values quoted and joined by tabs (NULL as \N), as dump does.
func hsDump(t testing.TB, s *server.Server, db, table, cols string) []string {
	t.Helper()
	c, err := net.Dial("tcp", s.HS().ReadAddr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, "P\t1\t%s\t%s\tPRIMARY\t%s\n1\t>=\t1\t%s\t100000\t0\n", db, table, cols, hsEscape([]byte("-2147483648")))
	r := bufio.NewReader(c)
	if line, err := r.ReadString('\n'); err != nil || line != "0\t1\n" {
		t.Fatalf("HS open %s.%s: %q %v", db, table, line, err)
	}
	line, err := r.ReadBytes('\n')
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Split(strings.TrimSuffix(string(line), "\n"), "\t")
	if f[0] != "0" {
		t.Fatalf("HS find %s.%s: %q", db, table, line)
	}
	n, _ := strconv.Atoi(f[1])
	vals := f[2:]
	var out []string
	for i := 0; i+n <= len(vals); i += n {
		row := make([]string, n)
		for j, v := range vals[i : i+n] {
			if v == "\x00" {
				row[j] = `\N`
			} else {
				row[j] = strconv.Quote(string(hsUnescape([]byte(v))))
			}
		}
		out = append(out, strings.Join(row, "\t"))
	}
	return out
}

// hsEscape and hsUnescape are HandlerSocket's field encoding: a byte
// below 0x10 is 0x01 then the byte plus 0x40.
func hsEscape(b []byte) string {
	var o []byte
	for _, c := range b {
		if c < 0x10 {
			o = append(o, 1, c+0x40)
		} else {
			o = append(o, c)
		}
	}
	return string(o)
}

func hsUnescape(b []byte) []byte {
	var o []byte
	for i := 0; i < len(b); i++ {
		if b[i] == 1 && i+1 < len(b) {
			i++
			o = append(o, b[i]-0x40)
			continue
		}
		o = append(o, b[i])
	}
	return o
}
