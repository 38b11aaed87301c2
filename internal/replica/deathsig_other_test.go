//go:build !linux

package replica_test

import "os/exec"

// dieWithTest does nothing where the kernel has no parent-death signal.
func dieWithTest(*exec.Cmd) {}
