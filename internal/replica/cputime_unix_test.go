//go:build unix

package replica

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user and system) the process has used so
// far; the benchmarks report it per row change, which a machine shared
// with other work changes less than the elapsed time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// ProcessCPU is processCPU, for the package's external tests.
var ProcessCPU = processCPU
