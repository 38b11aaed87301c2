//go:build !linux

package replica_test

import "time"

// selfCPU and procCPU are not measured here: 0.
func selfCPU() time.Duration        { return 0 }
func procCPU(pid int) time.Duration { return 0 }
