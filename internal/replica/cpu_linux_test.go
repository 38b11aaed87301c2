package replica_test

import (
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/handlerdb/handlerdb/internal/replica"
)

// selfCPU is the CPU time (user and system) of the test process, which
// runs the HandlerDB replica.
func selfCPU() time.Duration { return replica.ProcessCPU() }

// procCPU is the CPU time (user and system) of process pid so far, from
// /proc (0 when unreadable).
func procCPU(pid int) time.Duration {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// The fields after the command's closing parenthesis; utime and
	// stime are the 12th and 13th of them, in clock ticks (100 a second
	// on Linux).
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 13 {
		return 0
	}
	var u, k int64
	fmt.Sscan(f[11], &u)
	fmt.Sscan(f[12], &k)
	return time.Duration(u+k) * 10 * time.Millisecond
}
