package replica_test

import (
	"os/exec"
	"syscall"
)

// dieWithTest makes the kernel kill cmd when the test process ends, so
// that a test binary killed by a timeout leaves no mariadbd behind.
func dieWithTest(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
