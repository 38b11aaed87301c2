package replica_test

import (
	"bufio"
	gosql "database/sql"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/handlerdb/handlerdb/internal/config"
	"github.com/handlerdb/handlerdb/internal/server"

	"github.com/handlerdb/handlerdb/internal/mariadbtest"
)

// The crash test runs the replica as a child process (this test binary,
// re-executed with childEnv set), so that it can be killed with SIGKILL.
const (
	childEnv       = "HANDLERDB_REPLICA_CHILD_DIR"
	childSourceEnv = "HANDLERDB_REPLICA_CHILD_SOURCE"
	childStageEnv  = "HANDLERDB_REPLICA_CHILD_STAGE" // --replica-stage-bytes
)

// runChild is the child: a server on dir replicating from source
// (--replicate-from), which prints "mysql <addr>" and then waits to be
// killed.
func runChild(dir, source string) {
	cfg := config.Default()
	cfg.DataDir = dir
	cfg.Port, cfg.HSPort, cfg.HSPortWr, cfg.MemcachedPort = 0, 0, 0, -1
	cfg.AdminAddress = ""
	cfg.ReplicateFrom = source
	if v := os.Getenv(childStageEnv); v != "" {
		cfg.ReplicaStageBytes, _ = strconv.Atoi(v)
	}
	s, err := server.Start(cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Println("mysql", s.SQLAddr())
	select {}
}

// child is a running replica process.
type child struct {
	cmd *exec.Cmd
	db  *gosql.DB
}

// startChild starts the child with env added to its environment.
func startChild(t *testing.T, dir, source string, env ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), childEnv+"="+dir, childSourceEnv+"="+source), env...)
	mariadbtest.DieWithTest(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	addr, ok := strings.CutPrefix(strings.TrimSpace(line), "mysql ")
	if err != nil || !ok {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("replica process: %q %v", line, err)
	}
	db, err := gosql.Open("mysql", fmt.Sprintf("root@tcp(%s)/?timeout=5s", addr))
	if err != nil {
		t.Fatal(err)
	}
	return &child{cmd: cmd, db: db}
}

func (c *child) kill() {
	c.db.Close()
	c.cmd.Process.Kill()
	c.cmd.Wait()
}

// TestKill9 kills the replica process with SIGKILL at random moments
// while the primary commits transactions, ten times; after the last
// restart it catches up, and every table is equal to the primary's: no
// transaction lost, none applied twice (a table without a primary key
// would hold a doubled row, the counters would be off, and a doubled
// insert would stop the replica on a duplicate key).
func TestKill9(t *testing.T) {
	p := sharedPrimary(t)
	p.exec(t, "DROP DATABASE IF EXISTS rc", "CREATE DATABASE rc",
		"CREATE TABLE rc.ledger (id INT AUTO_INCREMENT PRIMARY KEY, g INT, v VARCHAR(20), KEY g (g))",
		"CREATE TABLE rc.bag (g INT, n INT)",
		"CREATE TABLE rc.sums (g INT PRIMARY KEY, n INT)",
		"INSERT INTO rc.sums VALUES (0,0),(1,0),(2,0),(3,0)")
	source := fmt.Sprintf("%s:%s@%s", replUser, replPass, p.Addr())
	dir := t.TempDir()

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for g := 0; g < 2; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			conn, err := p.Root.Conn(t.Context())
			if err != nil {
				t.Error(err)
				return
			}
			defer conn.Close()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				for _, q := range []string{
					"BEGIN",
					fmt.Sprintf("INSERT INTO rc.ledger (g, v) VALUES (%d, 'v%d')", g, i),
					fmt.Sprintf("INSERT INTO rc.bag VALUES (%d, %d)", g, i%7),
					fmt.Sprintf("UPDATE rc.sums SET n = n + 1 WHERE g = %d", g),
					"COMMIT",
				} {
					if _, err := conn.ExecContext(t.Context(), q); err != nil {
						t.Errorf("primary: %s: %v", q, err)
						return
					}
				}
				time.Sleep(time.Millisecond) // a steady load, not a flood
				if i%5 == 4 {
					conn.ExecContext(t.Context(), fmt.Sprintf("DELETE FROM rc.ledger WHERE g = %d ORDER BY id LIMIT 1", g))
				}
			}
		}(g)
	}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 9))
	for round := 0; round < 10; round++ {
		c := startChild(t, dir, source)
		time.Sleep(time.Duration(100+rng.IntN(300)) * time.Millisecond)
		c.kill()
	}
	close(stop)
	wg.Wait()
	c := startChild(t, dir, source)
	defer c.kill()
	catchUp(t, c.db, p, 30*time.Second)
	var applied int
	if err := c.db.QueryRow("SELECT COUNT(*) FROM rc.ledger").Scan(&applied); err != nil || applied == 0 {
		t.Fatalf("replica ledger: %d rows (%v)", applied, err)
	}
	for table, order := range map[string]string{"rc.ledger": "id", "rc.bag": "g, n", "rc.sums": "g"} {
		sameRows(t, table, dump(t, p.Root, table, order), dump(t, c.db, table, order))
	}
	t.Logf("%d ledger rows after 10 kills", applied)
	p.exec(t, "DROP DATABASE rc")
}
