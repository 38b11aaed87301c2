package replica_test

import (
	"context"
	gosql "database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"
)

// primary is a real MariaDB server the tests replicate from: its own data
// directory, a free loopback port, a row-based binary log with full row
// images (MariaDB's GTIDs are always on), and a replication user. Started
// once per test binary (sharedPrimary) and stopped by TestMain.
type primary struct {
	dir  string
	port int
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
	root *gosql.DB     // root over TCP
}

// The replication account the tests give the replica.
const (
	replUser = "repl"
	replPass = "replpw"
)

var (
	primaryOnce sync.Once
	thePrimary  *primary
	primaryErr  error
	primarySkip string
)

// sharedPrimary returns the package's MariaDB primary, starting it at the
// first call. It skips the test when mariadbd is not installed.
func sharedPrimary(t testing.TB) *primary {
	t.Helper()
	primaryOnce.Do(func() {
		for _, bin := range []string{"mariadbd", "mariadb-install-db"} {
			if _, err := lookBin(bin); err != nil {
				primarySkip = bin + " is not installed (apt-get install mariadb-server); the replication tests need a real MariaDB primary"
				return
			}
		}
		thePrimary, primaryErr = startPrimary()
	})
	if primarySkip != "" {
		t.Skip(primarySkip)
	}
	if primaryErr != nil {
		t.Fatalf("starting the MariaDB primary: %v", primaryErr)
	}
	return thePrimary
}

// lookBin finds a MariaDB program on PATH or in /usr/sbin (where Debian
// puts mariadbd, often outside a user's PATH).
func lookBin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	p := filepath.Join("/usr/sbin", name)
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func startPrimary() (*primary, error) {
	dir, err := os.MkdirTemp("", "hdb-primary-")
	if err != nil {
		return nil, err
	}
	install, _ := lookBin("mariadb-install-db")
	out, err := exec.Command(install, "--no-defaults", "--user=root", "--datadir="+filepath.Join(dir, "data"),
		"--auth-root-authentication-method=normal", "--skip-test-db").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("mariadb-install-db: %v\n%s", err, out)
	}
	p := &primary{dir: dir}
	// A free port can be taken between freePort and mariadbd's bind:
	// a start that fails is tried again on another port.
	for try := 0; ; try++ {
		if err = p.start(); err == nil {
			break
		}
		p.shutdown()
		p.port = 0
		if try == 2 {
			p.stop()
			return nil, err
		}
	}
	for _, s := range []string{
		fmt.Sprintf("CREATE USER '%s'@'127.0.0.1' IDENTIFIED BY '%s'", replUser, replPass),
		fmt.Sprintf("GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '%s'@'127.0.0.1'", replUser),
	} {
		if _, err := p.root.Exec(s); err != nil {
			p.stop()
			return nil, fmt.Errorf("%s: %w", s, err)
		}
	}
	return p, nil
}

// start runs mariadbd on p's data directory (on a new free port) and waits
// until root can log in over TCP.
func (p *primary) start() error {
	port := p.port
	var err error
	if port == 0 {
		if port, err = freePort(); err != nil {
			return err
		}
	}
	p.port = port
	bin, _ := lookBin("mariadbd")
	p.cmd = exec.Command(bin, "--no-defaults", "--user=root",
		"--datadir="+filepath.Join(p.dir, "data"),
		"--socket="+filepath.Join(p.dir, "sock"),
		"--pid-file="+filepath.Join(p.dir, "pid"),
		"--log-error="+filepath.Join(p.dir, "error.log"),
		fmt.Sprintf("--port=%d", port), "--bind-address=127.0.0.1", "--skip-name-resolve",
		"--log-bin="+filepath.Join(p.dir, "data", "binlog"), "--binlog-format=ROW", "--server-id=1",
		"--binlog-row-image=FULL",
		"--innodb-buffer-pool-size=64M", "--innodb-flush-log-at-trx-commit=2", "--sync-binlog=0",
		"--innodb-log-file-size=16M", "--performance-schema=OFF",
		// HandlerDB holds utf8mb4 only until the charset work of issue #12
		// lands; a latin1 server default would fail on its text columns.
		"--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci")
	dieWithTest(p.cmd)
	if err := p.cmd.Start(); err != nil {
		return err
	}
	p.done = make(chan struct{})
	go func(c *exec.Cmd, done chan struct{}) { c.Wait(); close(done) }(p.cmd, p.done)
	if p.root, err = gosql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%d)/?multiStatements=true", port)); err != nil {
		return err
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := p.root.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-p.done:
			log, _ := os.ReadFile(filepath.Join(p.dir, "error.log"))
			return fmt.Errorf("mariadbd exited: %s", errorLines(string(log)))
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mariadbd did not answer in 30 s: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// restart stops mariadbd cleanly and starts it again on the same data
// and port.
func (p *primary) restart(t testing.TB) {
	t.Helper()
	p.shutdown()
	if err := p.start(); err != nil {
		t.Fatalf("restarting the primary: %v", err)
	}
}

// shutdown stops the server process (SIGTERM, then SIGKILL after 20 s).
func (p *primary) shutdown() {
	if p.root != nil {
		p.root.Close()
		p.root = nil
	}
	if p.cmd == nil || p.cmd.Process == nil {
		return
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
	case <-time.After(20 * time.Second):
		p.cmd.Process.Kill()
		<-p.done
	}
	p.cmd = nil
}

// stop shuts the server down and removes its files.
func (p *primary) stop() {
	p.shutdown()
	os.RemoveAll(p.dir)
}

// addr is the primary's host:port.
func (p *primary) addr() string { return fmt.Sprintf("127.0.0.1:%d", p.port) }

// exec runs statements on the primary as root, failing the test on error.
func (p *primary) exec(t testing.TB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := p.root.Exec(s); err != nil {
			t.Fatalf("primary: %s: %v", s, err)
		}
	}
}

// execIn runs statements on one connection of the primary whose default
// database is db.
func (p *primary) execIn(t testing.TB, db string, stmts ...string) {
	t.Helper()
	c, err := p.root.Conn(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for _, s := range append([]string{"USE " + db}, stmts...) {
		if _, err := c.ExecContext(t.Context(), s); err != nil {
			t.Fatalf("primary: %s: %v", s, err)
		}
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func TestMain(m *testing.M) {
	if dir := os.Getenv(childEnv); dir != "" {
		runChild(dir, os.Getenv(childSourceEnv)) // never returns
	}
	code := m.Run()
	if thePrimary != nil {
		thePrimary.stop()
	}
	os.Exit(code)
}

// TestPrimary: the helper's server writes a row-based binary log with
// GTIDs and has the replication user.
func TestPrimary(t *testing.T) {
	p := sharedPrimary(t)
	var name, val string
	for v, want := range map[string]string{"log_bin": "ON", "binlog_format": "ROW", "binlog_row_image": "FULL", "server_id": "1"} {
		if err := p.root.QueryRow("SHOW GLOBAL VARIABLES LIKE '"+v+"'").Scan(&name, &val); err != nil || val != want {
			t.Errorf("%s = %q (%v), want %q", v, val, err, want)
		}
	}
	p.exec(t, "CREATE DATABASE IF NOT EXISTS replica_probe", "CREATE TABLE replica_probe.t (k INT PRIMARY KEY)", "INSERT INTO replica_probe.t VALUES (1)", "DROP DATABASE replica_probe")
	var gtid string
	if err := p.root.QueryRow("SELECT @@gtid_binlog_pos").Scan(&gtid); err != nil || !strings.HasPrefix(gtid, "0-1-") {
		t.Errorf("gtid_binlog_pos %q (%v), want 0-1-n", gtid, err)
	}
	repl, err := gosql.Open("mysql", fmt.Sprintf("%s:%s@tcp(%s)/", replUser, replPass, p.addr()))
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	var grants string
	if err := repl.QueryRow("SHOW GRANTS").Scan(&grants); err != nil || !strings.Contains(grants, "REPLICATION SLAVE") {
		t.Errorf("replication user's grants %q (%v)", grants, err)
	}
}

// errorLines keeps the [ERROR] lines of a server log (its last lines when
// there are none).
func errorLines(log string) string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "[ERROR]") {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		return lastLines(log, 10)
	}
	return strings.Join(out, "\n")
}
