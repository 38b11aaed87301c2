// Package mariadbtest starts real MariaDB servers for tests: a replication
// primary or replica (package replica), the other side of a dump round
// trip (package sqlfront). Each server has its own data directory under
// the system's temporary directory, a free loopback port and a root
// account without a password; it dies with the test process (Linux).
//
// A Server is used by one test goroutine at a time, except Root, a
// database/sql pool safe for concurrent use.
package mariadbtest

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	_ "github.com/go-sql-driver/mysql" // Root's driver
)

// Server is one running mariadbd.
type Server struct {
	Dir  string  // its files; the data directory is Dir/data
	Port int     // its SQL port on 127.0.0.1
	Root *sql.DB // root over TCP (multiStatements on)

	args []string // mariadbd's options past the common ones
	cmd  *exec.Cmd
	done chan struct{} // closed when the process has exited
}

// Missing returns why no server can be started here ("" when mariadbd
// and mariadb-install-db are installed): a test skips with it.
func Missing() string {
	for _, bin := range []string{"mariadbd", "mariadb-install-db"} {
		if _, err := LookBin(bin); err != nil {
			return bin + " is not installed (apt-get install mariadb-server); the test needs a real MariaDB"
		}
	}
	return ""
}

// LookBin finds a MariaDB program on PATH or in /usr/sbin (where Debian
// puts mariadbd, often outside a user's PATH).
func LookBin(name string) (string, error) {
	if p, err := exec.LookPath(name); err == nil {
		return p, nil
	}
	p := filepath.Join("/usr/sbin", name)
	if _, err := os.Stat(p); err != nil {
		return "", err
	}
	return p, nil
}

// FreePort returns a loopback port nothing listens on (yet).
func FreePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Start creates a data directory (prefix names it) and runs mariadbd on
// it with args after the common options (utf8mb4, a small buffer pool,
// innodb_flush_log_at_trx_commit=2, no performance schema), and waits
// until root can log in.
func Start(prefix string, args ...string) (*Server, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	install, _ := LookBin("mariadb-install-db")
	out, err := exec.Command(install, "--no-defaults", "--user=root", "--datadir="+filepath.Join(dir, "data"),
		"--auth-root-authentication-method=normal", "--skip-test-db").CombinedOutput()
	if err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("mariadb-install-db: %v\n%s", err, out)
	}
	s := &Server{Dir: dir, args: args}
	// A free port can be taken between FreePort and mariadbd's bind: a
	// start that fails is tried again on another port.
	for try := 0; ; try++ {
		if err = s.start(); err == nil {
			return s, nil
		}
		s.Shutdown()
		s.Port = 0
		if try == 2 {
			s.Stop()
			return nil, err
		}
	}
}

// start runs mariadbd on s's data directory (on a new free port unless
// s.Port is set) and waits until root can log in over TCP.
func (s *Server) start() error {
	var err error
	if s.Port == 0 {
		if s.Port, err = FreePort(); err != nil {
			return err
		}
	}
	bin, _ := LookBin("mariadbd")
	args := append([]string{"--no-defaults", "--user=root",
		"--datadir=" + filepath.Join(s.Dir, "data"),
		"--socket=" + filepath.Join(s.Dir, "sock"),
		"--pid-file=" + filepath.Join(s.Dir, "pid"),
		"--log-error=" + filepath.Join(s.Dir, "error.log"),
		fmt.Sprintf("--port=%d", s.Port), "--bind-address=127.0.0.1", "--skip-name-resolve",
		"--innodb-buffer-pool-size=64M", "--innodb-flush-log-at-trx-commit=2",
		"--innodb-log-file-size=16M", "--performance-schema=OFF",
		"--character-set-server=utf8mb4", "--collation-server=utf8mb4_general_ci"}, s.args...)
	s.cmd = exec.Command(bin, args...)
	DieWithTest(s.cmd)
	if err := s.cmd.Start(); err != nil {
		return err
	}
	s.done = make(chan struct{})
	go func(c *exec.Cmd, done chan struct{}) { c.Wait(); close(done) }(s.cmd, s.done)
	if s.Root, err = sql.Open("mysql", fmt.Sprintf("root@tcp(127.0.0.1:%d)/?multiStatements=true", s.Port)); err != nil {
		return err
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := s.Root.PingContext(ctx)
		cancel()
		if err == nil {
			return nil
		}
		select {
		case <-s.done:
			log, _ := os.ReadFile(filepath.Join(s.Dir, "error.log"))
			return fmt.Errorf("mariadbd exited: %s", ErrorLines(string(log)))
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("mariadbd did not answer in 30 s: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Restart stops mariadbd cleanly and starts it again on the same data
// and port.
func (s *Server) Restart() error {
	s.Shutdown()
	return s.start()
}

// Shutdown stops the process (SIGTERM, then SIGKILL after 20 s) and
// closes Root; the files stay.
func (s *Server) Shutdown() {
	if s.Root != nil {
		s.Root.Close()
		s.Root = nil
	}
	if s.cmd == nil || s.cmd.Process == nil {
		return
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(20 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd = nil
}

// Stop shuts the server down and removes its files.
func (s *Server) Stop() {
	s.Shutdown()
	os.RemoveAll(s.Dir)
}

// Addr is the server's host:port.
func (s *Server) Addr() string { return fmt.Sprintf("127.0.0.1:%d", s.Port) }

// ErrorLines keeps the [ERROR] lines of a server log (its last ten lines
// when there are none).
func ErrorLines(log string) string {
	var out []string
	lines := strings.Split(strings.TrimRight(log, "\n"), "\n")
	for _, l := range lines {
		if strings.Contains(l, "[ERROR]") {
			out = append(out, l)
		}
	}
	if len(out) == 0 {
		out = lines[max(0, len(lines)-10):]
	}
	return strings.Join(out, "\n")
}

// Pid is the running mariadbd's process id (0 when it is not running).
func (s *Server) Pid() int {
	if s.cmd == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}
