package mariadbtest

import (
	"os/exec"
	"syscall"
)

// DieWithTest makes the kernel kill cmd (a mariadbd, or any child process
// of a test) when the test process ends, so that a test binary killed by
// a timeout leaves nothing behind.
func DieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
