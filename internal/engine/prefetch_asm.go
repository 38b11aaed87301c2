//go:build amd64 && !purego

package engine

import "unsafe"

// prefetch asks the processor to load the cache line holding p. It never
// faults and changes no memory.
//
//go:noescape
func prefetch(p unsafe.Pointer)
